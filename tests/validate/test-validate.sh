#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The validation suite, for real: each workload of cases.sh is recorded in a fresh 64 MiB
# memory cgroup and validated; every gated quantity must be within the tolerance that
# tests/validate/tolerances gives it (5 % unless it says otherwise; docs/fidelity.md).
# Needs root, tracefs and the v1 memory hierarchy; skipped with the reason elsewhere.
. "$top_srcdir/tests/validate/cases.sh"

mkdir -p "$top_builddir/tests/validate"
dir=$(mktemp -d "$top_builddir/tests/validate/tmp.XXXXXX") || exit 1
trap 'vswap_off; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
why=$(vcannot_run "$dir")
if [ -n "$why" ]; then
	echo "1..0 # SKIP $why"
	exit 0
fi
wl=$top_builddir/tests/validate/vworkload
tol=$top_srcdir/tests/validate/tolerances
n=0
failed=0
tap() {	# tap STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
vmake_files "$dir" || { echo "Bail out! cannot write the test files in $dir"; exit 1; }
for c in $VCASES; do
	vrecord "$c" "$dir" "$wl"
	st=$?
	if [ $st -eq 2 ]; then
		n=$((n + 1))
		echo "ok $n # SKIP $c: $(cat "$dir/$c.err")"
		continue
	fi
	sed 's/^/# /' "$dir/$c.err"
	tap $st "$c: refault record -- vworkload $(vcase_args "$c" .)"
	[ $st -eq 0 ] || continue
	"$REFAULT" validate "$dir/$c.rft" --json > "$dir/$c.json" 2> "$dir/$c.verr"
	st=$?
	sed 's/^/# /' "$dir/$c.verr"
	[ $st -eq 0 ] || [ $st -eq 3 ]
	tap $? "$c: refault validate exits 0 or 3 (got $st)"
	[ $st -eq 0 ] || [ $st -eq 3 ] || continue
	"$PYTHON3" "$top_srcdir/tests/validate/check-tolerance.py" "$c" "$dir/$c.json" "$tol" \
		$((n + 1)) > "$dir/$c.tap"
	cat "$dir/$c.tap"
	grep -q '^not ok' "$dir/$c.tap" && failed=1
	n=$((n + $(grep -c '^\(not \)\?ok' "$dir/$c.tap")))
done
echo "1..$n"
exit $failed
