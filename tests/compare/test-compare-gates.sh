#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --fail-if: trips, holds, exit codes, messages.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..8"
cd "$T" || exit 1
story_single s1.json
story_cgroups s2.json

run s1.json --fail-if 'cost.estimated_ns > +5%'
check "cost +23.8% against a +5% gate: exit 3, the gate and the column named" \
	sh -c "[ $rc -eq 3 ] && grep -q \"gate tripped: 'cost.estimated_ns > +5%': cost.estimated_ns in v4.6 \" '$T/err'"
run s1.json --fail-if 'workingset_refault_file > +5%'
check "no refault change on read-twice: the gate holds, exit 0 (group prefix omitted)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q tripped '$T/err'"
run s2.json --fail-if 'workingset_refault_file > +5%' --fail-if 'pgscan_kswapd < -10%'
check "multi-cgroup: refault gate trips, the scan gate (-3.4%) holds" \
	sh -c "[ $rc -eq 3 ] && grep -q 'workingset_refault_file > +5%' '$T/err' && ! grep -q 'pgscan_kswapd < -10%' '$T/err'"
run s2.json --fail-if 'vmstat.pgactivate changed'
check "'changed' gate follows LKP's verdict" \
	sh -c "[ $rc -eq 3 ] && grep -q 'a change by LKP' '$T/err'"
run s2.json --fail-if 'cost.estimated_ns >= 60000000'
check "a plain value gate compares the variant's value: holds at 52000000" [ $rc -eq 0 ]
run s1.json --fail-if 'no_such_counter > +5%'
check "unknown gate metric: exit 1 and says so, no table printed" \
	sh -c "[ $rc -eq 1 ] && grep -q \"unknown metric 'no_such_counter'\" '$T/err' && [ ! -s '$T/out' ]"
run s1.json --fail-if 'cost.estimated_ns ~ 5'
check "unparsable gate: exit 2 (usage)" [ $rc -eq 2 ]
# NaN and the infinities parse as numbers, and nothing is above NaN or +inf: such a gate could
# never trip (or, '< +inf', always).  Refused, the gate quoted.
bad=0
for g in 'cost.estimated_ns > nan' 'cost.estimated_ns > +inf%' 'cost.estimated_ns < -inf' \
	 'cost.estimated_ns >= NAN%' 'cost.estimated_ns <= +Infinity' 'cost.estimated_ns > -nan(1)'; do
	run s1.json --fail-if "$g"
	[ $rc -eq 2 ] && grep -q "fail-if '$g': .* is not a finite number" "$T/err" || {
		bad=1; echo "# '$g': exit $rc: $(cat "$T/err")"; }
done
check "a threshold that is not a finite number (nan, +inf%, -inf...): refused, exit 2, the gate quoted" \
	[ $bad -eq 0 ]
