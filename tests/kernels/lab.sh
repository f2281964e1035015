#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The validation suite's lab: its workloads (tests/validate/cases.sh) recorded by `refault lab
# record --job-file` inside a qemu guest running another kernel, the traces brought back to the
# host, where tests/kernels/check-kernels.sh (make check-kernels) validates them.  What is the
# suite's is here: the jobs (a case each, as cases.sh records it on a host), the cases' files
# (cases.sh's vmake_files, made once into the cache), and a last job that kills a recorder
# with kprobe events (kprobes-kill.sh).  The kernel, the guest, the boots and the retries are
# the verb's.
#
#   tests/kernels/lab.sh --kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v1 \
#       --refault BUILD/refault --vworkload BUILD/tests/validate/vworkload --out DIR
#
# Options:
#   --cache DIR          the lab's cache (default $REFAULT_LAB_CACHE or ~/.cache/refault-lab):
#                        kernel packages, the cases' files (files-RECIPE/)
#   --kernel-pkg NAME, --kernel VMLINUZ [--modules DIR]   as refault lab record takes them
#   --cgroup v1|v2       the memory cgroup hierarchy (default: v1 where the kernel has it)
#   --mglru 0|1          the multi-gen LRU off or on (default: the kernel's)
#   --thp always|madvise|never  (default madvise, as on the hosts the suite's tolerances
#                        were measured on: Debian's kernels boot with "always", and the
#                        anonymous cases fault in 2 MiB folios then)
#   --mem MB, --cpus N   the guest's (default 1024, 2)
#   --case NAME          a case of cases.sh (repeatable; default all twelve); CASE:kprobes,
#                        CASE:tracepoints and CASE:damon record CASE with those sources
#   --kprobes-kill       after the cases, SIGKILL a recorder with kprobe events and check the
#                        next recording removes them (DIR/kprobes-kill.out)
#   --out DIR            DIR/CASE.rft and CASE.err, jobs.txt ("CASE STATUS SECONDS BOOT"),
#                        console.log, guest-info.txt, kallsyms.gz, summary.txt
#   --refault PATH, --vworkload PATH   binaries from a build dir (libtool wrappers are fine)
#   --budget SECONDS     per boot (default 1800)
#   --accel auto|kvm|tcg, --append ARGS, --keep   as refault lab record takes them
#   --tcg-threads single|multi  (default single: with thread=multi, 1 boot in 10 on QEMU 7.2
#                        died of a kernel "Oops: int3" in code the kernel had just re-patched,
#                        as the recorder turned its tracepoints off; single is no slower on 2
#                        host cores)
#   --retries N          boot again for the cases not done when the guest dies (default 1)
#
# Exit status: refault lab record's (0 every case recorded; 1 failed, the log named; 2 a bad
# command line; 3 the kernel package neither cached nor downloadable).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
cases_sh=$top_srcdir/tests/validate/cases.sh

cache=${REFAULT_LAB_CACHE:-$HOME/.cache/refault-lab}
out=$PWD/refault-lab.out refault='' vworkload='' kprobes_kill=''
sel_cases=() lab=()
# A change to vmake_files (or to how its files are made) changes this, so that a cached set is
# not reused.
files_recipe=2

usage() {
	echo "lab.sh: $*" >&2
	echo "usage: lab.sh --kernel-pkg NAME | --kernel VMLINUZ [--modules DIR] --refault PATH" \
		"--vworkload PATH [--out DIR] [--cgroup v1|v2] [--mglru 0|1] [--case NAME]..." \
		"(see the top of $0)" >&2
	exit 2
}
die() { echo "lab: error: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	o=$1
	case $o in
	--keep) lab+=(--keep); shift; continue;;
	--kprobes-kill) kprobes_kill=1; shift; continue;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
	--*) [ $# -ge 2 ] || usage "$o needs a value";;
	*) usage "unknown argument '$o'";;
	esac
	v=$2
	shift 2
	case $o in
	--cache) cache=$v;;
	--kernel-pkg|--kernel|--modules|--cgroup|--thp|--cpus|--accel|--tcg-threads|--retries|--append)
		lab+=("$o" "$v");;
	--mglru) case $v in 0) lab+=(--mglru off);; 1) lab+=(--mglru on);; *) usage "--mglru 0 or 1";; esac;;
	--mem) lab+=(--mem "${v}M");;
	--budget) lab+=(--budget "${v}s");;
	--case) sel_cases+=("$v");;
	--out) out=$v;;
	--refault) refault=$v;;
	--vworkload) vworkload=$v;;
	*) usage "unknown option '$o'";;
	esac
done
[ -n "$refault" ] || usage "--refault PATH (the refault binary of a build)"
[ -n "$vworkload" ] ||
	usage "--vworkload PATH (tests/validate/vworkload of a build: make check builds it)"

# shellcheck source=tests/validate/cases.sh disable=SC1091
. "$cases_sh" || die "cannot read $cases_sh"
[ ${#sel_cases[@]} -gt 0 ] || read -r -a sel_cases <<< "$VCASES"
for c in "${sel_cases[@]}"; do
	[ -n "$(vcase_args "$c" .)" ] || usage "no case '$c' in $cases_sh (cases: $VCASES)"
done
mkdir -p "$out" "$cache" || die "cannot create $out and $cache"
out=$(cd "$out" && pwd)

# The cases' files, as cases.sh makes them on a host, once per recipe; the guest gets each
# block of them written (refault lab record --file).
files=$cache/files-$files_recipe
if [ ! -e "$files/.done" ]; then
	echo "lab: making the cases' files in $files" >&2
	rm -rf "$files" && mkdir -p "$files" && vmake_files "$files" && touch "$files/.done" ||
		die "vmake_files $files failed"
fi

# The jobs: a case each, recorded as vrecord records it (its files' cache dropped first, swap
# on for anon-swap only), in the guest's work directory where the files are.
jobs=$out/jobs.in
{
	echo "# tests/kernels/lab.sh: the cases of $cases_sh"
	for c in "${sel_cases[@]}"; do
		flags=cold
		[ "${c%%:*}" != anon-swap ] || flags="$flags swap"
		echo "$c $flags --memcg-limit $VLIMIT --snapshot-interval $VSNAP" \
			"$(vcase_record_args "$c") -- $vworkload $(vcase_args "$c" .)"
	done
	[ -z "$kprobes_kill" ] || echo "kprobes-kill bare -- sh kprobes-kill.sh"
} > "$jobs" || die "cannot write $jobs"
for f in "$files"/*; do
	lab+=(--file "$f:$(basename "$f")")
done
[ -z "$kprobes_kill" ] || lab+=(--file "$here/kprobes-kill.sh:kprobes-kill.sh")

exec "$refault" lab record --cache "$cache" --thp madvise --budget 1800s --tcg-threads single \
	--retries 1 "${lab[@]}" --swap 256M -q -o "$out" --job-file "$jobs"
