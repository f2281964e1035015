#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare on bad input: a clear message and a non-zero exit.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..9"
cd "$T" || exit 1
story_single s1.json
story_cgroups s2.json
$MK a.json --fp aaaa --config v4.6 cost.estimated_ns=1 vmstat.pgscan_kswapd=5
$MK b.json --fp aaaa --config v4.6 cost.estimated_ns=1
printf '{"format": "refault-results", "configs": [' >broken.json

run broken.json s1.json:v4.5
check "malformed JSON: exit 1, names the file" \
	sh -c "[ $rc -eq 1 ] && grep -q 'broken.json: malformed JSON' '$T/err'"
run nosuch.json s1.json:v4.5
check "missing file: exit 1" sh -c "[ $rc -eq 1 ] && grep -q 'nosuch.json: cannot read' '$T/err'"
run s1.json:v4.5 s2.json:v4.6
check "different traces: exit 1, says so and suggests --force" \
	sh -c "[ $rc -eq 1 ] && grep -q 'replay different traces' '$T/err' && grep -q -- '--force' '$T/err'"
run --force s1.json:v4.5 s2.json:v4.6
check "different traces with --force: compared, with a warning" \
	sh -c "[ $rc -eq 0 ] && grep -q 'warning: .*different traces' '$T/err' && grep -q 'cost.estimated_ns' '$T/out'"
run s1.json:v9.9 s1.json:v4.5
check "unknown configuration: exit 1, lists the ones there are" \
	sh -c "[ $rc -eq 1 ] && grep -q \"no configuration 'v9.9' (it has: v4.5, v4.6, v4.6+55779ec)\" '$T/err'"
run s1.json s2.json
check "a multi-configuration file among several sides must name one" \
	sh -c "[ $rc -eq 1 ] && grep -q 's1.json:NAME' '$T/err'"
run a.json,b.json a.json
check "a group whose runs lack a metric: exit 1, names it" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing metric vmstat.pgscan_kswapd' '$T/err'"
run a.json b.json --fail-if 'pgscan_kswapd > +1%'
check "a gate on a metric one column lacks: exit 1, names the column" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing from column' '$T/err'"
run s1.json:v4.5
check "one side only: usage error, exit 2" [ $rc -eq 2 ]
