#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault lab's command line (cli/builtin-lab.c), with no guest: what it refuses before anything
# boots, with a message naming the option, and the line it gives the driver (a stand-in driver
# through REFAULT_LAB_DIR prints it): sizes in MiB, refault record's options checked by record's
# own parser and passed as --record-arg, files absolute with their place in the guest.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/labcli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
echo data > data.bin
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done\n' > refault-lab
mkdir fake && mv refault-lab fake/ && chmod +x fake/refault-lab

# refused: exit 2, the message names what is wrong, nothing run
refuse() {	# refuse WHAT PATTERN ARGS...
	what=$1 pat=$2
	shift 2
	REFAULT_LAB_DIR=$tmp/fake "$REFAULT" lab "$@" > out 2> err
	st=$?
	check "$what: exit 2, '$pat'" '[ $st -eq 2 ] && grep -q -- "$pat" err && [ ! -s out ]'
}
K="--kernel-pkg linux-image-6.12.117+deb12-amd64"
refuse "no subcommand" "usage: refault lab build"
refuse "an unknown subcommand" "unknown subcommand 'boot'" boot
refuse "no kernel" "which kernel?" record -o t.rft -- cat
refuse "two kernels" "one kernel" record $K --build /nonexistent-src-dir-x -o t.rft -- cat
refuse "--patch without --build" "go with --build" record $K --patch data.bin -o t.rft -- cat
refuse "--modules without --kernel" "goes with --kernel" record $K --modules . -o t.rft -- cat
refuse "no -o" "-o OUT.rft" record $K -- cat
refuse "no command" "no command" record $K -o t.rft
refuse "record's scope (-p)" "-p is not for the lab" record $K -p 1 -o t.rft -- cat
refuse "record's scope (-a)" "-a is not for the lab" record $K -a -o t.rft -- cat
refuse "a bad record option, by record's parser" "invalid --memcg-limit" \
	record $K --memcg-limit lots -o t.rft -- cat
refuse "an unknown event group, by record's parser" "bogus" record $K -e bogus -o t.rft -- cat
refuse "--mglru maybe" "--mglru takes on|off" record $K --mglru maybe -o t.rft -- cat
refuse "--cgroup v3" "--cgroup takes v1|v2" record $K --cgroup v3 -o t.rft -- cat
refuse "--mem 12 (bytes)" "--mem takes a size" record $K --mem 12 -o t.rft -- cat
refuse "--repeat 0" "--repeat takes a number from 1" record $K --repeat 0 -o t.rft -- cat
refuse "--sysctl without a value" "--sysctl KEY=VALUE" record $K --sysctl vm.swappiness -o t.rft -- cat
refuse "--sysctl with a path" "is not a key of /proc/sys" \
	record $K --sysctl ../../x=1 -o t.rft -- cat
refuse "--sysctl with a newline" "a control character" \
	record $K --sysctl "vm.swappiness=1
2" -o t.rft -- cat
refuse "--file missing" "no such readable file" record $K --file nothere -o t.rft -- cat
refuse "--file into /proc" "not a place for it" record $K --file data.bin:/proc/x -o t.rft -- cat
refuse "--file with .." "not a place for it" record $K --file data.bin:../x -o t.rft -- cat
refuse "--budget 0" "--budget takes a time" record $K --budget 0 -o t.rft -- cat
refuse "build without a source" "build SRC" build
refuse "build with two sources" "one source" build a b

# what the driver is given
REFAULT_LAB_DIR=$tmp/fake "$REFAULT" lab record $K --mem 2G --swap 256M --cpus 4 --mglru off \
	--sysctl vm.swappiness=10 --file data.bin --file "$tmp/data.bin:/srv/d.bin" --cold \
	--memcg-limit 64M -e refs --damon=5ms,100ms -q --budget 10m -o t.rft -- cat data.bin 'a b' \
	> argv 2> err
st=$?
check "a good line runs the driver (exit $st)" '[ $st -eq 0 ] && [ "$(head -n 1 argv)" = record ]'
has() { tr '\n' ' ' < argv | grep -q -- "$1"; }
check "--mem 2G is --mem-mib 2048, --swap 256M --swap-mib 256" \
	'has "--mem-mib 2048 " && has "--swap-mib 256 " && has "--cpus 4 "'
check "--mglru, --sysctl, --cold, --budget 10m (600 s) as they are" \
	'has "--mglru off " && has "--sysctl vm.swappiness=10 " && has "--cold " && has "--budget 600 "'
check "--file: absolute, its guest path as given" \
	'has "--file $tmp/data.bin --file-guest data.bin " && has "--file $tmp/data.bin --file-guest /srv/d.bin "'
check "record's options as --record-arg, each word" \
	'has "--record-arg --memcg-limit --record-arg 64M " && has "--record-arg --events --record-arg refs " && has "--record-arg --damon=5ms,100ms " && has "--record-arg --quiet "'
check "the guest's refault is this program, then -- and the command word by word" \
	'has "--refault /" && has " -- cat data.bin a b $" && [ "$(tail -n 1 argv)" = "a b" ]'
REFAULT_LAB_DIR=$tmp/fake "$REFAULT" lab build linux-source-6.12 --patch data.bin -j 3 -o bz \
	> argv 2> err
check "build: a package name as it is, the patch absolute, options after the source" \
	'has "^build --source linux-source-6.12 " || has "--source linux-source-6.12" && has "--patch $tmp/data.bin " && has "--jobs 3 " && has "-o bz"'
REFAULT_LAB_DIR=$tmp/nothere "$REFAULT" lab build linux-source-6.12 > out 2> err
st=$?
check "a driver that is not there: exit 1, named" '[ $st -eq 1 ] && grep -q "cannot run the lab.s driver" err'
# --job-file: every line checked before anything boots, errors naming the file and line
jf() { printf '%s\n' "$@" > jobs.txt; }
jf "# the jobs" "a cold --memcg-limit 32M -- cat data.bin" "" "b bare -- true" "c swap -- cat"
REFAULT_LAB_DIR=$tmp/fake "$REFAULT" lab record $K --swap 64M -o out.d --job-file jobs.txt \
	> argv 2> err
check "a job file of three jobs: the driver gets it absolute, and no command" \
	'has "--job-file $tmp/jobs.txt " && ! has " -- "'
refuse "--job-file and a command" "a command or --job-file, not both" \
	record $K -o d --job-file jobs.txt -- cat
jf "a -- cat" "a -- true"
refuse "a job twice" "jobs.txt:2: job a twice" record $K -o d --job-file jobs.txt
jf "a cold"
refuse "a job without its command" "jobs.txt:1: job a has no command" record $K -o d --job-file jobs.txt
jf "a/b -- cat"
refuse "a job's name with a slash" "jobs.txt:1: a job's name is letters" \
	record $K -o d --job-file jobs.txt
jf "a -G / -- cat"
refuse "a job's scope (-G)" "jobs.txt:1: job a: -G is not for the lab" \
	record $K -o d --job-file jobs.txt
jf "a --output=x -- cat"
refuse "a job's output" "jobs.txt:1: job a: --output=x is not for the lab" \
	record $K -o d --job-file jobs.txt
jf "a --memcg-limit lots -- cat"
refuse "a job's record option, by record's parser" "jobs.txt:1: job a: refault record's options" \
	record $K -o d --job-file jobs.txt
jf "a bare --memcg-limit 1G -- cat"
refuse "a bare job with record options" "jobs.txt:1: job a is bare" \
	record $K -o d --job-file jobs.txt
jf "# nothing"
refuse "a job file without a job" "no job in it" record $K -o d --job-file jobs.txt
refuse "a job file that is not there" "--job-file nosuch.txt" \
	record $K -o d --job-file nosuch.txt
"$REFAULT" lab record --help > out
check "record --help names every GUEST option" \
	'for o in cgroup mglru thp sysctl mem cpus swap file cold repeat; do grep -q -- "--$o" out || exit 1; done'
done_testing
