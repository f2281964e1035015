#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare on bad input: a clear message and a non-zero exit.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..17"
cd "$T" || exit 1
story_single s1.json
story_cgroups s2.json
$MK a.json --fp aaaa --config v4.6 cost.estimated_ns=1 vmstat.pgscan_kswapd=5
$MK b.json --fp aaaa --config v4.6 cost.estimated_ns=1
printf '{"format": "refault-results", "configs": [' >broken.json

run broken.json s1.json:v4.5
check "malformed JSON: exit 1, names the file and where it ends" \
	sh -c "[ $rc -eq 1 ] && grep -q 'broken.json: not JSON: it ends inside a value (at byte' '$T/err'"
# Valid JSON that is no object crashed the LKP loader (SIGSEGV); each must be a clean error.
for j in 0 '[1,2]' '"x"' null; do
	echo "$j" > root.json
	run root.json s1.json:v4.5
	check "a JSON root that is not an object ($j): exit 1, says what it is" \
		sh -c "[ $rc -eq 1 ] && grep -q 'root.json: a JSON .*, not an object' '$T/err'"
done
printf '{"a": 1}\n{"b": 2}\n' > two.json
run two.json s1.json:v4.5
check "two JSON values in one file: exit 1, where the second begins" \
	sh -c "[ $rc -eq 1 ] && grep -q 'two.json: more than one JSON value (the second at byte 9)' '$T/err'"
run "$top_srcdir/traces/cgroup-thrash.rft" s1.json:v4.5
check "a trace given to compare: says it is a trace and what compare reads" \
	sh -c "[ $rc -eq 1 ] && grep -q 'is a refault trace, not JSON' '$T/err' && grep -q 'refault replay TRACE -o RESULTS.json' '$T/err'"
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
check "a group of one trace's runs that lack a metric: exit 1, names it" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing metric vmstat.pgscan_kswapd' '$T/err'"
$PYTHON3 -c "import json; d = json.load(open('$T/b.json')); d['trace']['fingerprint'] = 'beef' * 16; json.dump(d, open('$T/b2.json', 'w'))"
run a.json,b2.json a.json --force
check "a group of two traces' runs, one lacking a metric: it counts as 0 there (exit 0)" \
	sh -c "[ $rc -eq 0 ]"
run a.json b.json --fail-if 'pgscan_kswapd > +1%'
check "a gate on a metric one column lacks: exit 1, names the column" \
	sh -c "[ $rc -eq 1 ] && grep -q 'missing from column' '$T/err'"
run s1.json:v4.5
check "one side only: usage error, exit 2" [ $rc -eq 2 ]
# Values at the edge of a double (and NaN, which json-c reads) are printed as what they are;
# the table cast them to integers (undefined behaviour: -9223372036854775808, ±-2147483648%).
printf '{"x": [1e308, 1e308], "y": [NaN, 1], "z": [-1e300, 1e300], "w": [5e18, 6e18]}\n' > ex1.json
printf '{"x": [1, 2], "y": [1, 2], "z": [1, 1], "w": [1, 1]}\n' > ex2.json
run ex2.json ex1.json --all
check "extreme and NaN means and stddevs: printed as inf, nan and a capped %stddev" \
	sh -c "[ $rc -eq 0 ] && grep -q ' inf .*x$' '$T/out' && grep -q ' nan .*y$' '$T/out' && grep -q '±999999% *z$' '$T/out' && ! grep -q -- '-9223372036854775808\|-2147483648' '$T/out'"
