#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table generator of tests/validate/fidelity.sh (fidelity-table.py) on two canned
# `refault validate --json` outputs of one workload (tests/validate/fidelity-data): the
# means, %stddev (population, shown above 2 % as LKP does), %change, worst run and verdict
# it prints, the merged notes, a workload that could not be recorded, and the splice into
# a document between the fidelity:begin/end markers.  Recording needs root; this does not.
PYTHON3=${PYTHON3:-python3}
if ! "$PYTHON3" -c '' 2> /dev/null; then
	echo "1..0 # SKIP no python3 (\$PYTHON3)"
	exit 0
fi
gen=$top_srcdir/tests/validate/fidelity-table.py
data=$top_srcdir/tests/validate/fidelity-data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fidelity-table.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
tap() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
has() { grep -qE -- "$1" "$tmp/out"; echo $?; }
# the same over the text with its prose lines joined (the generator wraps them)
has_text() { tr '\n' ' ' < "$tmp/out" | grep -qE -- "$1"; echo $?; }

cp "$data/demo.1.json" "$data/demo.2.json" "$tmp/"
echo "a canned workload" > "$tmp/demo.desc"
echo '{"error": "swapon refused"}' > "$tmp/broken.1.json"
echo "demo pgsteal_file 12%" > "$tmp/tolerances"
# Canned runs (kernel / model per run), each row's expected line below:
#   pagecache_add            100000 / 110000, 120000 / 110000: kernel 110000 +- 9.1 %, out
#                            by 10 % in run 1 and 8.3 % in run 2, means equal: "mean"
#   workingset_refault_file  1000 / 1300, 1300 / 1300: kernel 1150 +- 13 %, +13.0 % apart,
#                            within 2 stddevs: "spread"
#   pgscan_file              2000 / 2000 twice: "exact"
#   pgsteal_file             1000 / 1100 twice: +10 %, the kernel repeatable: "out"
#   pgactivate               0 / 15, 0 / 20: within validate's 30 pages of slack: "ok"
echo "1..19"
"$PYTHON3" "$gen" --tolerances "$tmp/tolerances" --date 2026-01-02 --command 'sudo RUNS=2 x' \
	"$tmp" demo broken > "$tmp/out" 2> "$tmp/err"
tap $? "the generator exits 0"
tap "$(has_text 'Kernel 6\.18\.44-test, 2026-01-02, 2 recordings of each workload, by `sudo RUNS=2 x`')" \
	"the header names the kernel, the date, the runs and the command"
# row NAME: the table line of quantity NAME, its blanks squeezed
row() { awk -v n="$1" '$NF == n { $1 = $1; print }' "$tmp/out"; }
is_row() { [ "$(row "$1")" = "$2 $1" ]; echo $?; }
tap "$(is_row pagecache_add '110000 ± 9% +0.0% 110000 +10.0% mean 100000..120000 110000')" \
	"kernel 110000 ± 9 %, model 110000, worst run +10.0 %: the means agree (mean)"
lkp='    110000 ±  9%      +0.0%     110000            +10.0%  mean'
tap "$(grep -qF "$lkp" "$tmp/out"; echo $?)" \
	"... in LKP's columns (value 10 wide, ± 6, %change 12, then the model)"
tap "$(is_row workingset_refault_file '1150 ± 13% +13.0% 1300 +30.0% spread 1000..1300 1300')" \
	"kernel 1150 ± 13 %, model +13.0 %: within twice the kernel's stddev (spread)"
tap "$(is_row pgscan_file '2000 +0.0% 2000 +0.0% exact 2000 2000')" \
	"equal in every run: exact, no ± at 0 %"
tap "$(is_row pgsteal_file '1000 +10.0% 1100 +10.0% out 1000 1100')" \
	"+10 % against a repeatable kernel: out"
tap "$(is_row pgactivate '0.00 inf% 17.50 ± 14% 0->20 ok 0 15..20')" \
	"a kernel 0 within the slack: ok, the worst run as 0->20, LKP's %10.2f below 1000"
tap "$(is_row vworkload-a/pagecache_add \
	'5500 ± 9% +0.9% 5550 ± 8% +2.0% ok 5000..6000 5100..6000')" \
	"a child cgroup's row is named cgroup/quantity"
tap "$( ! grep -q pgrefill "$tmp/out"; echo $?)" "rows validate does not gate are left out"
tap "$(has '^0 on both sides in every run: active_anon\.$')" \
	"rows 0 everywhere are listed, not tabled"
tap $(($(has '^- 34\.\.36 pages the trace reads') +
	$(has '^- 5 events lost \(1 of 2 runs\)$'))) \
	"notes merged across runs: differing numbers as min..max, a note of some runs says so"
tap $(($(has '^\| demo \| 2 \| 1 \| 2 \| 1 \| 1 \| 1 \|$') +
	$(has_text 'holds pgsteal_file to 12 %'))) \
	"the summary counts rows per verdict; the make check tolerance is named"
tap "$(has '^not measured: run 1: swapon refused$')" "a workload not recorded says why"

printf 'before\n<!-- fidelity:begin -->\nold\n<!-- fidelity:end -->\nafter\n' > "$tmp/doc.md"
"$PYTHON3" "$gen" --doc "$tmp/doc.md" "$tmp" demo > /dev/null 2>&1
sed -n '1p;$p' "$tmp/doc.md" | tr '\n' ' ' > "$tmp/ends"
tap "$([ "$(cat "$tmp/ends")" = "before after " ] && grep -q pagecache_add "$tmp/doc.md" &&
	! grep -q '^old$' "$tmp/doc.md"; echo $?)" "--doc replaces only the text between the markers"

# Named sections (tests/kernels/fidelity.sh: one per kernel configuration), and the kernel x
# workload table
printf 'top\n<!-- fidelity:kernel-x:begin: generated -->\nold\n<!-- fidelity:kernel-x:end -->\n' \
	> "$tmp/doc2.md"
"$PYTHON3" "$gen" --doc "$tmp/doc2.md" --section kernel-x --level 4 "$tmp" demo > /dev/null 2>&1
"$PYTHON3" "$gen" --doc "$tmp/doc2.md" --section kernels --matrix --config "6.1 v1=$tmp" \
	--config "6.12 v2=$tmp" demo broken > /dev/null 2>&1
cp "$tmp/doc2.md" "$tmp/out"
tap $(($(has '^<!-- fidelity:kernel-x:begin') + $(has '^#### demo: a canned workload$') +
	$( ! grep -q '^old$' "$tmp/out"; echo $?))) \
	"--section NAME: its own markers, replaced in place; --level: the workloads' heading level"
tap $(($(has '^\| workload \| 6\.1 v1 \| 6\.12 v2 \|$') +
	$(has '^\| demo \| 2 runs: 1 exact, 2 ok, 1 mean, 1 spread, 1 out \(out: pgsteal_file\) \|') +
	$(has '^\| broken \| not measured \| not measured \|$') + $(has '^<!-- fidelity:kernels:end -->$'))) \
	"--matrix: a row per workload, a column per configuration, the verdicts and the rows out"

# check-tolerance.py: a row marked known for one kernel configuration is TAP TODO there only
check=$top_srcdir/tests/validate/check-tolerance.py
printf 'demo@6.12-v2 pgsteal_file known\ndemo pagecache_add 10%%\ndemo workingset_refault_file 40%%\n' \
	> "$tmp/tol2"
"$PYTHON3" "$check" demo "$tmp/demo.1.json" "$tmp/tol2" 1 6.12-v2 > "$tmp/out"
st=$?
tap $(($(has '^not ok [0-9]+ - demo [^ ]* pgsteal_file: .*# TODO known divergence on 6\.12-v2') +
	$([ $st -eq 0 ]; echo $?))) \
	"a known divergence on that configuration: not ok with a TODO, and no failure (exit $st)"
"$PYTHON3" "$check" demo "$tmp/demo.1.json" "$tmp/tol2" 1 6.1-v1 > "$tmp/out"
st=$?
tap $(($(has '^not ok [0-9]+ - demo [^ ]* pgsteal_file: kernel 1000 model 1100 \(\+10\.0%\), tolerance 5% \+ [0-9]+ pages$') +
	$([ $st -eq 1 ]; echo $?))) \
	"... on another configuration, and without one, the row is held to the target (exit $st)"
exit $failed
