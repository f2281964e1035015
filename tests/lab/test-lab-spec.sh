#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault lab run's spec (lab/refault-lab cmd_run), with no guest: a spec that cannot run is an
# error naming its file and line, before anything boots.  make check-lab runs a good one.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/labspec.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
bad() {	# bad WHAT PATTERN SPEC: SPEC refused, exit 1, PATTERN in the message
	what=$1 pat=$2
	printf '%b' "$3" > spec
	"$REFAULT" lab run spec -o out --cache "$tmp/cache" > out.txt 2> err
	st=$?
	check "$what: exit 1, '$pat'" '[ $st -eq 1 ] && grep -q -- "$pat" err && [ ! -e out/A.rft ]'
}
bad "one side" "two sides at least" 'side A --kernel-pkg x\n'
bad "no command" "no command line" \
	'side A --kernel-pkg x\nside B --kernel-pkg y\nprofile A v6.12\nprofile B v6.12\n'
bad "a side without its profile" "no profile for side B" \
	'side A --kernel-pkg x\nside B --kernel-pkg y\nprofile A v6.12\ncommand true\n'
bad "a side twice" "spec:2: side A twice" 'side A --kernel-pkg x\nside A --kernel-pkg y\n'
bad "an unknown line" "spec:2: unknown line 'sides'" 'side A --kernel-pkg x\nsides B\n'
bad "a side's name with a slash" "spec:1: a side's name" 'side A/B --kernel-pkg x\n'
bad "runs 0" "spec:1: runs N, 1 to 100" 'runs 0\n'
bad "a side without its kernel" "side A has no kernel" \
	'side A\nside B --kernel-pkg y\nprofile A v6.12\nprofile B v6.12\ncommand true\n'
two='side A --kernel-pkg x\nside B --kernel-pkg y\nprofile A v6.12\nprofile B v6.12\n'
bad "a workload without its command" "spec:5: workload NAME \\[swap\\]" "${two}workload w1 --\n"
bad "a workload twice" "spec:6: workload w1 twice" \
	"${two}workload w1 -- true\nworkload w1 -- false\n"
bad "a workload's name with a slash" "spec:5: a workload's name" \
	"${two}workload a/b -- true\n"
bad "a command and workloads" "a command line or workload lines, not both" \
	"${two}command true\nworkload w1 -- true\n"
# --reuse: a side whose traces a run left boots nothing; every trace replayed again, the tables
# made (two bundled traces standing in for two kernels' recordings, two runs each)
mkdir -p reuse/A reuse/B
for s in A B; do
	for j in 1 2; do
		cp "$top_srcdir/traces/validate-hot.rft" "reuse/$s/w1-$j.rft"
	done
done
printf '%b' "${two}runs 2\nworkload w1 -- true\n" > spec
"$REFAULT" lab run spec -o reuse --reuse --cache "$tmp/cache" > out.txt 2> err
st=$?
check "--reuse with every trace there: no boot, the replays and the change table" \
	'[ $st -eq 0 ] && [ -s reuse/A/w1-2.json ] && [ -s reuse/B/w1-1.json ] &&
	 grep -q "== A -> B, w1: the kernel against v6.12 -> v6.12" out.txt &&
	 [ -s reuse/change-B-w1.json ] && ! grep -q "boot" err'
rm reuse/B/w1-2.rft
"$REFAULT" lab run spec -o reuse --reuse --cache "$tmp/cache" > out.txt 2> err
st=$?
check "--reuse with a trace missing: that side boots (here: its kernel package is not there)" \
	'[ $st -ne 0 ] && grep -q "side B: 1 workload(s), 2 recording(s) each" err'
"$REFAULT" lab run nothere -o out > out.txt 2> err
st=$?
check "a spec that is not there: exit 2, named" '[ $st -eq 2 ] && grep -q "nothere" err'
"$REFAULT" lab run spec > out.txt 2> err
st=$?
check "no -o: exit 2" '[ $st -eq 2 ] && grep -q -- "-o DIR" err'
done_testing
