#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault workload: the draw is a function of its inputs (the same line twice, another per seed,
# the flags changing only what they are about), every drawn value within docs/workload.md's
# bounds over 200 seeds (check-draws.py), prepare/run/clean at --limit 4M, the errors that say
# what to do, and a draw with sibling cgroups run for real where this is root in a memory cgroup
# it may write (recorded too where tracefs is there, to see the tasks in their cgroups).
. "$top_srcdir/tests/lib/tap.sh"
: "${REFAULT:?}" "${PYTHON3:=python3}"
# a disk directory: tmpfs would do, but is not what the workload is for
tmp=$(mktemp -d "${top_builddir:-.}/tests/workload/tmp.XXXXXX") || exit 1
cg=
trap 'rm -rf "$tmp"; [ -z "$cg" ] || rmdir "$cg" 2> /dev/null' EXIT
wl() { "$REFAULT" workload "$@"; }

# --- the draw
wl --seed 7 --limit 32M --describe > "$tmp/a" 2> "$tmp/err"
wl --describe --limit 32768K --seed 7 > "$tmp/b"
check "--describe: one line, the same for the same inputs in another order" \
	'[ $(wc -l < "$tmp/a") -eq 1 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/a" "$tmp/b"'
check "--describe starts with the inputs, then the files, streams and summary" \
	'grep -Eq "^seed=7 limit=32M swap=no no_cgroups=no scale=1 files=[123] f1=[0-9]+[KMG] .* p1\.t1=[a-z-]+:.* kinds=[a-z,-]+ max_file_ratio=[0-9]+\.[0-9][0-9] tasks_max=[1-4] cgroups=(one|siblings) hot=(yes|no) hints=[a-z,-]+ writes=(yes|no) anon=(yes|no) ops=[0-9]+ budget=65536$" "$tmp/a"'
for s in $(seq 1 20); do wl --seed $s --limit 32M --describe | sed 's/^seed=[0-9]* //'; done > "$tmp/seeds"
check "20 seeds draw 20 different workloads" '[ $(sort -u "$tmp/seeds" | wc -l) -eq 20 ]'
# the flags are inputs: --no-cgroups changes the cgroup layout only; the limit scales sizes
drop_cg() { sed -e 's/ no_cgroups=[a-z]*//' -e 's/ p[0-9]\.cgroups=siblings//g' -e 's/ cgroups=[a-z]*//' "$@"; }
same=0
for s in $(seq 1 15); do
	wl --seed $s --limit 32M --describe | drop_cg > "$tmp/x"
	wl --seed $s --limit 32M --no-cgroups --describe > "$tmp/y"
	drop_cg "$tmp/y" | cmp -s - "$tmp/x" && ! grep -q "siblings" "$tmp/y" && same=$((same + 1))
done
check "--no-cgroups draws the same workloads without sibling cgroups (15 seeds: $same)" '[ $same -eq 15 ]'
wl --seed 7 --limit 32M --swap --describe > "$tmp/swap"
check "--swap is an input of the draw" \
	'grep -q " swap=yes " "$tmp/swap" && [ "$(wl --seed 7 --limit 32M --swap --describe)" = "$(cat "$tmp/swap")" ]'
wl --seed 7 --limit 32M --scale 0.5 --describe > "$tmp/half"
check "--scale multiplies the operations, not the sizes" \
	'grep -q " budget=32768$" "$tmp/half" &&
	 [ "$(grep -o " f[0-9]=[^ ]*" "$tmp/half")" = "$(grep -o " f[0-9]=[^ ]*" "$tmp/a")" ]'

: > "$tmp/draws"
for s in $(seq 1 200); do wl --seed $s --limit 32M --describe=json >> "$tmp/draws" || break; done
for s in $(seq 1 50); do
	wl --seed $s --limit 5000000 --swap --no-cgroups --scale 0.5 --describe=json >> "$tmp/draws" || break
done
check "--describe=json: 250 draws, one object a line" '[ $(wc -l < "$tmp/draws") -eq 250 ]'
"$PYTHON3" "$top_srcdir/tests/workload/check-draws.py" < "$tmp/draws" > "$tmp/bounds"
st=$?
sed 's/^/# /' "$tmp/bounds"
check "every drawn value within docs/workload.md's bounds (200 seeds at 32M; 50 at 5000000 bytes with --swap --no-cgroups --scale 0.5)" '[ $st -eq 0 ]'
"$PYTHON3" -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
sys.exit(0 if d["text"] == open(sys.argv[2]).read().rstrip("\n") and d["seed"] == 1 else 1)
' "$tmp/draws" /dev/stdin << EOF
$(wl --seed 1 --limit 32M --describe)
EOF
check "the JSON's text is the --describe line" '[ $? -eq 0 ]'

# --- files and runs at 4M
d=$tmp/files
mkdir "$d"
wl --seed 1 --limit 4M --no-cgroups --dir "$d" > "$tmp/out" 2> "$tmp/err"
st=$?
sed 's/^/# /' "$tmp/err"
check "run before prepare: exit 1, the missing file named, and what to run (status $st)" \
	'[ $st -eq 1 ] && grep -q "refault-workload-1-f1: No such file" "$tmp/err" &&
	 grep -Fq "run '"'"'refault workload --seed 1 --limit 4M --dir $d prepare'"'"' first" "$tmp/err"'
ok_runs=0
for s in 1 2 3; do
	wl -q --seed $s --limit 4M --no-cgroups --dir "$d" prepare &&
		wl --seed $s --limit 4M --no-cgroups --dir "$d" run 2> "$tmp/run.$s" &&
		grep -q "^refault workload: seed=$s limit=4M " "$tmp/run.$s" && ok_runs=$((ok_runs + 1))
	sed 's/^/# /' "$tmp/run.$s"
done
check "prepare then run of seeds 1, 2, 3 at --limit 4M --no-cgroups exit 0 ($ok_runs of 3)" '[ $ok_runs -eq 3 ]'
files_ok() {	# the seed's files there with the drawn sizes
	"$PYTHON3" -c '
import json, os, sys
d = json.loads(sys.stdin.read())
sys.exit(0 if all(os.path.getsize("%s/refault-workload-%d-%s" % (sys.argv[1], d["seed"], f["name"])) == f["size"]
                  for f in d["files"]) else 1)' "$d"
}
wl --seed 2 --limit 4M --describe=json | files_ok
check "prepare made the files with the drawn sizes" '[ $? -eq 0 ]'
wl --seed 2 --limit 4M --dir "$d" prepare 2> "$tmp/err"
check "prepare again keeps them" 'grep -q "0 files written" "$tmp/err"'
mkdir "$tmp/again"
wl -q --seed 2 --limit 4M --dir "$tmp/again" prepare
same=1
for f in "$d"/refault-workload-2-f*; do cmp -s "$f" "$tmp/again/${f##*/}" || same=0; done
check "the files' contents are the seed's: the same bytes in another directory" '[ $same -eq 1 ]'
: > "$d/refault-workload-3-f1"
wl -q --seed 3 --limit 4M --no-cgroups --dir "$d" 2> "$tmp/err"
st=$?
check "a short file: exit 1, named, prepare suggested (status $st)" \
	'[ $st -eq 1 ] && grep -q "refault-workload-3-f1: 0 bytes" "$tmp/err" && grep -q "prepare'"'"' first" "$tmp/err"'
wl -q --seed 3 --limit 4M --dir "$d" prepare
wl -q --seed 3 --limit 4M --no-cgroups --dir "$d"
check "prepare rewrites a file of the wrong size; run then works" '[ $? -eq 0 ]'
# each task's system calls are a function of the parameters: two runs under strace, each task's
# calls from its PR_SET_NAME on, the addresses masked (the loads and stores of a mapping do not show)
if command -v strace > /dev/null 2>&1 && strace -o /dev/null true 2> /dev/null; then
	wl -q --seed 7 --limit 4M --dir "$d" prepare
	for r in a b; do
		mkdir "$tmp/st$r"
		strace -f -ff -o "$tmp/st$r/t" -e trace=prctl,openat,read,pread64,write,lseek,mmap,munmap,madvise,fadvise64,fdatasync \
			"$REFAULT" workload -q --seed 7 --limit 4M --no-cgroups --dir "$d" > /dev/null 2>&1
		for f in "$tmp/st$r"/t.*; do
			name=$(sed -n 's/.*PR_SET_NAME, "\(wl-p[0-9]\.t[0-9]\)".*/\1/p' "$f")
			[ -n "$name" ] && sed -n '/PR_SET_NAME/,$p' "$f" |
				sed -E -e 's/0x[0-9a-f]+/X/g' -e '/^(\+\+\+|---) /d' > "$tmp/st$r/$name"
		done
	done
	tasks=$(wl --seed 7 --limit 4M --describe | tr ' ' '\n' | grep -c '^p[0-9]\.t[0-9]=')
	same=0
	for f in "$tmp/sta"/wl-*; do cmp -s "$f" "$tmp/stb/${f##*/}" && same=$((same + 1)); done
	check "each task's syscalls are the same in two runs of seed 7 ($same of $tasks tasks)" \
		'[ "$tasks" -ge 2 ] && [ $same -eq "$tasks" ] && [ $(ls "$tmp/stb" | grep -c "^wl-") -eq "$tasks" ]'
	rm -rf "$tmp/sta" "$tmp/stb"
else
	skip_test "each task's syscalls are the same in two runs: no strace that may trace here"
fi
for s in 1 2 3 7; do wl -q --seed $s --limit 4M --dir "$d" clean || break; done
check "clean removes every file" '[ -z "$(ls "$d")" ]'
wl -q --seed 1 --limit 4M --dir "$d" clean
check "clean without files is fine" '[ $? -eq 0 ]'

# --- the command line
refused() {	# refused WHAT NEEDLE ARGS...: exit 2 and NEEDLE in the message
	what=$1 needle=$2
	shift 2
	wl "$@" > /dev/null 2> "$tmp/err"
	st=$?
	[ $st -eq 2 ] && grep -q "^refault workload: " "$tmp/err" && grep -qF -- "$needle" "$tmp/err"
	check "refused with exit 2: $what (status $st)" '[ $? -eq 0 ]'
}
refused "no --seed" "--seed N is required" --limit 32M --describe
refused "no --limit" "--limit SIZE is required" --seed 1 --describe
refused "--limit below 4M" "--limit 1048576 is outside 4M..1T" --seed 1 --limit 1M --describe
refused "--scale 0" "--scale wants a positive number" --seed 1 --limit 32M --scale 0 --describe
refused "an unknown action" "unknown action 'go'" --seed 1 --limit 32M go
refused "--describe with an action" "does nothing else" --seed 1 --limit 32M --describe run
refused "--describe=yaml" "text or json" --seed 1 --limit 32M --describe=yaml
"$REFAULT" record --params "$(head -c 4096 /dev/zero | tr '\0' x)" -- true > /dev/null 2> "$tmp/err"
st=$?
check "refault record --params over 4095 bytes: exit 2, said (status $st)" \
	'[ $st -eq 2 ] && grep -q "^refault record: --params: at most 4095 bytes" "$tmp/err"'
"$REFAULT" record --params "@$tmp/none" -o "$tmp/none.rft" -- true > /dev/null 2> "$tmp/err"
st=$?
check "refault record --params @FILE without FILE: exit 2, the file named, no trace (status $st)" \
	'[ $st -eq 2 ] && grep -q "^refault record: --params @$tmp/none: No such file" "$tmp/err" &&
	 [ ! -e "$tmp/none.rft" ]'
{ head -c 4095 /dev/zero | tr '\0' x; echo; echo y; } > "$tmp/long"
"$REFAULT" record --params "@$tmp/long" -o "$tmp/none.rft" -- true > /dev/null 2> "$tmp/err"
st=$?
check "refault record --params @FILE over 4095 bytes: exit 2, said (status $st)" \
	'[ $st -eq 2 ] && grep -q "^refault record: --params @$tmp/long: more than 4095 bytes" "$tmp/err"'

# --- sibling cgroups, for real
sib=$("$PYTHON3" -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if d["summary"]["cgroups"] == "siblings":
        print(d["seed"]); break' < "$tmp/draws")
# our memory cgroup, as the driver finds it: the v1 memory hierarchy, else cgroup2
own_memcg() {
	mnt=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup" && $NF ~ /(^|,)memory(,|$)/) { print $5; exit } break } }' /proc/self/mountinfo)
	if [ -n "$mnt" ]; then
		echo "$mnt$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup | sed 's|/$||')"
		return
	fi
	mnt=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") { print $5; exit } break } }' /proc/self/mountinfo)
	[ -n "$mnt" ] && echo "$mnt$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup | sed 's|/$||')"
}
why=
own=$(own_memcg)
if [ -z "$sib" ]; then
	why="no seed of 200 draws sibling cgroups"
elif [ "$(id -u)" -ne 0 ]; then
	why="sibling cgroups need root"
elif [ -z "$own" ] || [ ! -w "$own" ]; then
	why="no memory cgroup this test may write (${own:-none found})"
else
	cg=$own/refault-workload-test-$$
	if ! mkdir "$cg" 2> /dev/null; then
		why="cannot make a child cgroup in $own"; cg=
	elif [ -e "$cg/cgroup.controllers" ] && ! grep -qw memory "$cg/cgroup.controllers"; then
		why="cgroup2: $own does not give its children the memory controller"
	fi
fi
if [ -n "$why" ]; then
	skip_test "a draw with sibling cgroups (seed $sib) runs: $why"
	skip_test "its cgroups are removed: $why"
	skip_test "recorded, its tasks are in their cgroups: $why"
else
	d=$tmp/sib
	mkdir "$d"
	wl -q --seed "$sib" --limit 4M --dir "$d" prepare
	# the driver alone in a cgroup of its own (cgroup2 lets it enable +memory there)
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
		"$REFAULT" workload --seed "$sib" --limit 4M --dir "$d" 2> "$tmp/err"
	st=$?
	sed 's/^/# /' "$tmp/err"
	check "a draw with sibling cgroups (seed $sib) runs in $cg (status $st)" '[ $st -eq 0 ]'
	check "its cgroups are removed" '[ -z "$(ls -d "$cg"/refault-workload-* 2> /dev/null)" ]'
	# the recording's memcg is larger than the draw's 4M: under ASan the driver itself
	# needs tens of MiB, and at 4M the OOM killer ended it (status 137)
	if [ -d /sys/kernel/tracing/instances ] && "$REFAULT" trace --help > /dev/null 2>&1; then
		# the params from a file (as refault lab's job files give them), its newline dropped
		wl --seed "$sib" --limit 4M --describe > "$tmp/sib.params"
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
			"$REFAULT" record -q -o "$tmp/sib.rft" --memcg-limit 256M \
			--params "@$tmp/sib.params" -- \
			"$REFAULT" workload -q --seed "$sib" --limit 4M --dir "$d" 2> "$tmp/err"
		st=$?
		sed 's/^/# /' "$tmp/err"
		# each task of a sibling phase attached to its own refault-workload-pP.tN
		want=$(wl --seed "$sib" --limit 4M --describe | tr ' ' '\n' |
			awk -F'[.=]' '/^p[0-9]\.cgroups=siblings/ { s[$1] = 1 } /^p[0-9]\.t[0-9]=/ && s[$1] { n++ } END { print n + 0 }')
		got=$("$REFAULT" trace dump "$tmp/sib.rft" --type cgroup_attach 2> /dev/null |
			grep -c 'memcg="[^"]*/refault-workload-p[0-9]\.t[0-9]"')
		# the description whole in params; the command line with "--params ..." instead
		params=$("$REFAULT" trace info "$tmp/sib.rft" 2> /dev/null |
			grep -Fxc -e "params:       $(wl --seed "$sib" --limit 4M --describe)" \
				-e "command:      refault record -q -o $tmp/sib.rft --memcg-limit 256M --params ... -- $REFAULT workload -q --seed $sib --limit 4M --dir $d")
		check "recorded (status $st), its $want tasks attach to their cgroups ($got), the params are in the header and the command abbreviates them ($params of 2)" \
			'[ $st -eq 0 ] && [ "$got" -eq "$want" ] && [ "$want" -ge 2 ] && [ "$params" -eq 2 ]'
	else
		skip_test "recorded, its tasks are in their cgroups: no tracefs at /sys/kernel/tracing"
	fi
	rmdir "$cg" && cg=
fi
done_testing
