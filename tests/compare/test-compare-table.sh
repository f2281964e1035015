#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare: the LKP table byte for byte, the decisions summary, noise, plots.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..10"
cd "$T" || exit 1
story_single s1.json
story_cgroups s2.json
mkdir base new
echo '{"vm-scalability.throughput":[30000000,30500000,30244012],"mpstat.cpu.all.sys%":[24.4,24.5,24.51],"proc-vmstat.workingset_refault_file":[1000,1500,1250],"stats_source":["r1","r2","r3"]}' >base/matrix.json
echo '{"vm-scalability.throughput":[25399754,25399754,25399754],"mpstat.cpu.all.sys%":[17.27,17.27,17.27],"proc-vmstat.workingset_refault_file":[98225,98225,98225],"stats_source":["r1","r2","r3"]}' >new/matrix.json

run s1.json
check "23047a96 on single-cgroup read-twice: table as expected (exact bytes)" \
	cmp -s "$T/out" "$EXPECTED/story-single.txt"
check "single cgroup: no decision differs, only the cost moves" \
	grep -q '^decisions: v4.6 vs v4.5: same (all 7 model counters equal)$' "$T/out"
run s2.json
check "23047a96 on a multi-cgroup trace: table as expected (exact bytes)" \
	cmp -s "$T/out" "$EXPECTED/story-cgroups.txt"
check "multi-cgroup: decisions differ from v4.5, and the fix keeps v4.6's decisions" \
	sh -c "grep -q '^decisions: v4.6 vs v4.5: differ in 7 of 7' '$T/out' &&
	       grep -q '^decisions: v4.6+55779ec vs v4.6: same' '$T/out'"
run base/matrix.json new/matrix.json
check "LKP matrices: hand-written table (widths, %d/.2f, +-stddev > 2%, absolute % keys)" \
	cmp -s "$T/out" "$EXPECTED/lkp-matrix.txt"

# Repeated runs: the model counters are exact, the wall time varies.
$MK r1.json --wall 1.00 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK r2.json --wall 1.30 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK r3.json --wall 0.70 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK q1.json --wall 1.02 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK q2.json --wall 1.31 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK q3.json --wall 0.69 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
run r1.json,r2.json,r3.json q1.json,q2.json,q3.json
check "noisy wall time over 3 runs each, medians not separated: no row" \
	grep -q '^(no metric changed by LKP' "$T/out"
run --all r1.json,r2.json,r3.json q1.json,q2.json,q3.json
check "--all shows the noise as LKP does (+-24%) and no +- on exact counters" \
	sh -c "grep -q ' ± 24%.*run.wall_seconds' '$T/out' && grep -q '^      5000      .*vmstat.pgscan_kswapd' '$T/out'"
$MK w1.json --wall 2.00 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK w2.json --wall 2.10 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
$MK w3.json --wall 1.90 --config v4.6 cost.estimated_ns=100 vmstat.pgscan_kswapd=5000
run r1.json,r2.json,r3.json w1.json,w2.json,w3.json
check "wall time doubled over 3 runs each, separated: the row shows" \
	grep -q '+100.0%.*run.wall_seconds' "$T/out"

run s2.json --plot workingset_refault_file
check "--plot: an 80-column ASCII plot with one marker per variant and a legend" \
	sh -c "grep -q '^ *vmstat.workingset_refault_file$' '$T/out' && grep -q '^\[O\] v4.6 sample' '$T/out' &&
	       ! grep -e '-----+$' -e '|$' '$T/out' | awk 'length > 80' | grep -q ."
run s2.json --plot workingset_refault_file --over time
check "--plot --over time: the time series over trace time, one marker per column" \
	sh -c "grep -q 'trace time' '$T/out' && grep -q '^\[\*\] v4.6+55779ec$' '$T/out' && [ $rc -eq 0 ]"
