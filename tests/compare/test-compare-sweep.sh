#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare on a real sweep of two runs a column (issue 38, item 7): two recordings of one
# workload (cgroup-thrash, seeds 1 and 2) x v4.5|v6.18 x memory=32M|48M|64M.  LKP's noise rules
# need 3 runs, so they judge nothing here: the table says so and shows the changes anyway, marked
# '?', never "nothing changed" while refaults move 56 % and more; its header names the two traces
# every column replays; the decisions summary is a few lines, every pair behind --all and the
# page's <details>; the page charts each headline counter against memory, a line per profile, the
# runs' spread as bars, and names no flag that cannot help.  And a crafted sweep of 600
# configurations: the page within its bounds.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..16"
cd "$T" || exit 1
"$REFAULT" gen cgroup-thrash --seed 1 --mem 64M -o ct1.rft > /dev/null 2>&1 &&
"$REFAULT" gen cgroup-thrash --seed 2 --mem 64M -o ct2.rft > /dev/null 2>&1 || exit 1
cat > fleet.spec <<EOF
traces thrash ct1.rft ct2.rft
matrix v4.5|v6.18 memory=32M|48M|64M
EOF
{ timeout 120 "$REFAULT" sweep plan fleet.spec -o fleet.plan &&
  timeout 300 "$REFAULT" sweep run fleet.plan -j 2 --engine processes &&
  timeout 120 "$REFAULT" sweep merge fleet.plan -o fleet.json; } > sweep.log 2>&1 ||
	{ echo "Bail out! the sweep did not run: $(tail -n 3 sweep.log)"; exit 1; }

run fleet.json
cp "$T/out" table.txt
refault_row=$(grep ' vmstat.workingset_refault_file$' table.txt)
check "two runs a column: changes shown, marked '?', with the note; not 'no metric changed'" \
	sh -c "! grep -q '^(no metric changed' table.txt && grep -q '^?: a change not judged against noise' table.txt &&
	       echo '$refault_row' | grep -q -- '-92.4%?'"
check "... the refaults' row: -6.4%? -71.4%? ... (the means as the samples give them)" \
	sh -c "echo '$refault_row' | grep -Eq '^ *20480 +-6\\.4%\\? +19178 +-71\\.4%\\? +5864 '"
check "the header names the two traces every column replays, not 'not the same for every column'" \
	sh -c "grep -q '^trace/fingerprint (2 traces, the same in every column):' table.txt &&
	       grep -q '^  .*/ct1.rft/' table.txt && grep -q '^  .*/ct2.rft/' table.txt &&
	       ! grep -q 'not the same' table.txt && [ $rc -eq 0 ]"
nd=$(grep -c '^decisions:' table.txt)
check "the decisions summary: $nd lines (at most 5) for the 9 pairs, and the count" \
	sh -c "[ $nd -le 5 ] && grep -q '^decisions: 9 pairs of columns, each against the base and the one before it (every pair: --all): 0 the same, 9 differ' table.txt"
check "... naming the headline counters first, not the watermarks" \
	sh -c "grep '^decisions: differ' table.txt | head -1 | grep -q '(vmstat.workingset_refault_file, '"
run fleet.json --all
check "--all: every pair of the decisions, one a line" \
	sh -c "[ \$(grep -c '^decisions: v.* vs v.*: differ' '$T/out') -eq 9 ]"
run fleet.json --json
check "--json: the refaults' row is shown as apparent, not as LKP's change" \
	$PYTHON3 -c "import json; d=json.load(open('$T/out'))
r=[r for r in d['rows'] if r['metric']=='vmstat.workingset_refault_file'][0]
assert r['apparent'] and not r['changed'], r
assert r['columns'][5]['apparent'] and not r['columns'][5]['changed'], r['columns'][5]"
run fleet.json --fail-if 'workingset_refault_file < -50%'
check "a gate at -50% trips and says the change is not judged against noise" \
	sh -c "[ $rc -eq 3 ] && grep -q 'a change not judged against noise: too few runs' '$T/err'"

run fleet.json --html sweep.html
check "the page: no 'No metric differs', the rows marked '?' as few runs" \
	sh -c "! grep -q 'No metric differs' sweep.html && grep -q 'class=\"chg down few\"[^>]*>-92.4%?<' sweep.html"
check "the page charts each headline counter against memory: 32M 48M 64M, a line per profile" \
	sh -c "grep -q '<h2>Against memory</h2>' sweep.html &&
	       grep -q '<text class=\"title\"[^>]*>vmstat.workingset_refault_file</text>' sweep.html &&
	       grep -q '>32M</text>.*' sweep.html && grep -q '>64M</text>' sweep.html &&
	       [ \$(grep -c '<g class=\"pt\"' sweep.html) -ge 30 ] &&
	       grep -q '<span class=\"legend\">.*v4.5</span>.*v6.18</span>' sweep.html"
check "... each point the mean of its 2 runs, with a bar from the lowest to the highest" \
	sh -c "grep -q '<title>v4.5 64M: mean 5864 of 2 runs, [0-9]* to [0-9]*</title><path class=\"bar\"' sweep.html"
check "the page names no flag that cannot help: no --interval; the sweep's store has the series" \
	sh -c "! grep -q -- '--interval' sweep.html && grep -q 'A sweep file keeps each run.s counters, not its time series' sweep.html"
check "the page: the decisions summarised, every pair under <details>" \
	sh -c "grep -q '<summary>every pair of columns</summary>' sweep.html &&
	       [ \$(grep -o 'decisions: v[^:]* vs v[^:]*: differ' sweep.html | wc -l) -eq 9 ]"

# A crafted sweep of 600 configurations x 3 runs over a memory axis: too many to place on one
# chart (the page says how to plot them), the table and the rest within 60 s.
$PYTHON3 - <<'EOF'
import json
run = lambda i, k: {"format": "refault-results", "version": [1, 0],
                    "trace": {"path": "t%d.rft" % k, "fingerprint": "%016x" % k},
                    "configs": [{"name": "v4.5,memory=%dM" % i, "profile": "v4.5",
                                 "stats": {"vmstat.workingset_refault_file": 1000 + i * 7 + k,
                                           "vmstat.pgscan_kswapd": 5000 + i + k,
                                           "cost.estimated_ns": 10 ** 6 + i}}]}
cfgs = [{"name": "v4.5,memory=%dM" % (i + 1), "workload": "w", "config": "v4.5,memory=%dM" % (i + 1),
         "runs": [run(i + 1, k) for k in range(3)]} for i in range(600)]
json.dump({"format": "refault-sweep", "version": [1, 0], "tasks": {"done": 1800}, "configs": cfgs},
          open("big.json", "w"))
EOF
rc=0
timeout 60 "$REFAULT" compare big.json --html big.html > "$T/out" 2> "$T/err" || rc=$?
check "600 configurations: the page in bounded time, the charts refused with what to do (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '600 columns: too many to place on one chart' big.html"
rc=0
timeout 60 "$REFAULT" compare big.json:v4.5,memory=1M big.json:v4.5,memory=300M \
	big.json:v4.5,memory=600M --html big3.html > "$T/out" 2> "$T/err" || rc=$?
check "3 of them: charted against memory, 3 runs a point (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '<g class=\"pt\"' big3.html) -eq 9 ] &&
	       grep -q 'mean 3101 of 3 runs, 3100 to 3102' big3.html"

BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	echo "ok 16 # SKIP chromium not installed (apt-get install chromium)"
	exit 0
fi
shot="${top_builddir:-.}/tests/compare/report-sweep.png"
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
	--window-size=1400,2000 --dump-dom "file://$T/sweep.html" > dom.html 2> /dev/null
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$T/profile" --window-size=1400,2000 --screenshot="$shot" \
	"file://$T/sweep.html" > /dev/null 2>&1
check "the page loads: 6 charts against memory, 2 drawn lines each; a screenshot: ${shot##*/}" \
	sh -c "grep -q 'loaded: 6 charts, 12 drawn lines, 0 empty lines' dom.html &&
	       [ \$(stat -c %s '$shot' 2>/dev/null || echo 0) -gt 20000 ]"
