#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/changes/changes-table.py (make check-changes' table and gate) on a canned run: which
# rows are judged (LKP's "moved", beyond twice the base-again sides' difference and 64 pages),
# a known disagreement marked TODO by its first matching line, an unknown one failing, one that
# agrees only with a side's mean moved by the base-again difference counted apart, a counter
# the model does not keep not judged, a change the model made up counted, the markdown.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/changestable.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
PYTHON3=${PYTHON3:-python3}
table=$top_srcdir/tests/changes/changes-table.py

cat > spec << 'EOF'
side base --kernel-pkg x
profile base b.profile
side again1
profile again1 b.profile
side fix --patch p.patch
profile fix f.profile
workload w1 -- true
EOF
# row METRIC KA KB MOVED MA MB MOVED_B AGREE_A AGREE_B (model cells: a b pairs, or none)
row() {
	printf '{"metric":"memcg.recorded.%s","kernel":{"a":%s,"b":%s,"change_percent":%s,' \
		"$1" "$2" "$3" "$(awk -v a="$2" -v b="$3" 'BEGIN { print (a ? 100 * (b - a) / a : "null") }')"
	printf '"runs_a":3,"runs_b":3,"stddev_percent_a":1,"stddev_percent_b":1,"moved":%s,' "$4"
	printf '"few_runs":false},'
	if [ "$5" = none ]; then
		printf '"model_from_a":null,"model_from_b":null,"agree_from_a":false,'
		printf '"agree_from_b":false}'
		return
	else
		printf '"model_from_a":{"a":%s,"b":%s,"change_percent":%s},' "$5" "$6" \
			"$(awk -v a="$5" -v b="$6" 'BEGIN { print (a ? 100 * (b - a) / a : "null") }')"
		printf '"model_from_b":{"a":%s,"b":%s,"change_percent":%s},' "$5" "$7" \
			"$(awk -v a="$5" -v b="$7" 'BEGIN { print (a ? 100 * (b - a) / a : "null") }')"
	fi
	printf '"agree_from_a":%s,"agree_from_b":%s}' "$8" "$9"
}
{
	echo '{"rows":['
	row pgrefill 1000 1100 true 1000 1000 1000 false false; echo ,
	row pgsteal_direct 100 130 true 100 100 100 false false; echo ,
	row active_file 1000 1010 false 1000 1000 1000 null null; echo
	echo ']}'
} > change-again1-w1.json
{
	echo '{"rows":['
	# refaults +50 %: both models agree
	row workingset_refault_file 1000 1500 true 1000 1480 1490 true true; echo ,
	# activations +100 %: the model from base's runs the wrong way (known), from fix's right
	row pgactivate 1000 2000 true 1000 900 2100 false true; echo ,
	# pgscan +30 %: from fix's runs short (not known: fails)
	row pgscan_direct 1000 1300 true 1000 1320 1100 true false; echo ,
	# pgsteal +600 % from a base two boots put 30 pages apart: the model's +420 % from base's
	# runs misses 0.75x but meets it against (700 - 30) / (100 + 30) = +415 %
	row pgsteal_direct 100 700 true 100 520 690 false true; echo ,
	# pgrefill +15 %: within twice the base-again sides' 100 pages: not judged
	row pgrefill 1000 1150 true 1000 1000 1000 false false; echo ,
	# inactive_file 40 -> 90: 50 pages, under the floor: not judged
	row inactive_file 40 90 true 40 40 40 false false; echo ,
	# file: a counter the model does not keep
	row file 1000 2000 true none; echo ,
	# active_file: the kernel did not move, the models moved 500 pages
	row active_file 1000 1010 false 1000 1500 1000 null null; echo
	echo ']}'
} > change-fix-w1.json
cat > known << 'EOF'
# comments
fix w1 pgactivate base   # the first line a row matches
* * pgactivate *         # a later one it does not get
nobody w9 x side         # a line no row meets, of a side the spec does not have
EOF
"$PYTHON3" "$table" spec . known --markdown table.md > out.tap 2> err
st=$?
check "a disagreement not known: exit 1" '[ $st -eq 1 ]'
check "agreements: ok" 'grep -q "^ok [0-9]* - fix w1 workingset_refault_file, from base.s runs: kernel +50.0%, model +48.0%" out.tap &&
	grep -q "^ok [0-9]* - fix w1 workingset_refault_file, from side.s runs" out.tap'
check "a known disagreement: not ok, marked TODO with the first matching line's cause" \
	'grep -q "^not ok [0-9]* - fix w1 pgactivate, from base.s runs: kernel +100.0%, model -10.0% # TODO the first line a row matches" out.tap'
check "an unknown one: not ok, no TODO" \
	'grep "^not ok [0-9]* - fix w1 pgscan_direct, from side.s runs" out.tap | grep -vq TODO'
check "within twice the base-again difference, or 64 pages: not judged" \
	'! grep -q "pgrefill\|inactive_file" out.tap &&
	 grep -q "| w1 | pgrefill | +15.0%~ |.*not judged" table.md &&
	 grep -q "| w1 | inactive_file | +125.0%~ |.*not judged" table.md'
check "a counter the model does not keep: shown, not judged" \
	'! grep -q " file," out.tap && grep -q "| w1 | file | +100.0% | .* | not modelled | - | not modelled | - |" table.md'
check "the base-again side: shown as the same kernel, nothing judged" \
	'! grep -q "again1" out.tap && grep -q "| w1 | pgrefill | +10.0% | .* | (the same kernel) |" table.md'
check "a change within the boots' spread: ok, said, counted apart" \
	'grep -q "^ok [0-9]* - fix w1 pgsteal_direct, from base.s runs: kernel +600.0%, model +420.0% (within the boots. spread: the kernel.s +415.4% to +942.9% with either mean 30 off)" out.tap &&
	 grep -q "| w1 | pgsteal_direct | +600.0% | .* | +420.0% | yes, boots | +590.0% | yes |" table.md'
check "the count and the summary: 6 of 8 agree; the model's made-up change counted" \
	'grep -q "^# 6 of 8 model changes agree.* (1 of them only within the boots. spread)" out.tap &&
	 grep -q "^| fix | 8 | 6 | 1 | 1 | 1 |$" table.md &&
	 grep -q "| w1 | active_file | +1.0% | .* | +50.0% | | +0.0% | | the model moved, the kernel did not |" table.md'
check "a known line no row met is said, one of a side the spec lacks is not" \
	'grep -q "^# a known disagreement no row met: \* \* pgactivate \*" out.tap && ! grep -q nobody out.tap'
sed -i '/pgscan_direct 1000 1300/d' known
echo 'fix w1 pgscan_direct side # short' >> known
"$PYTHON3" "$table" spec . known > out.tap 2> err
st=$?
check "every disagreement known: exit 0" '[ $st -eq 0 ] && grep -q "# TODO short" out.tap'
printf 'fix w1 pgscan\n' > bad
"$PYTHON3" "$table" spec . bad > out.tap 2> err
st=$?
check "a known line without its cause: refused, named" '[ $st -ne 0 ] && grep -q "bad:1: SIDE WORKLOAD METRIC" err'
done_testing
