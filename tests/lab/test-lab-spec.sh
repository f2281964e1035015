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
bad "a side without its kernel" "spec:1: side NAME KERNEL-OPTIONS" 'side A\n'
"$REFAULT" lab run nothere -o out > out.txt 2> err
st=$?
check "a spec that is not there: exit 2, named" '[ $st -eq 2 ] && grep -q "nothere" err'
"$REFAULT" lab run spec > out.txt 2> err
st=$?
check "no -o: exit 2" '[ $st -eq 2 ] && grep -q -- "-o DIR" err'
done_testing
