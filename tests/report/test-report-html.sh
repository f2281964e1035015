#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report --html: one self-contained page without a script (the table, the heatmap as
# SVG, the flame graphs in a view of stacks), its names escaped, its blank rows left out and
# counted, its heatmap's axes where the data are and ticked in seconds and pages; checked in a
# real headless browser (Debian package: chromium) where there is one, which also leaves
# screenshots in the build tree for a person to look at.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report-html.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
h=$top_srcdir/traces/validate-hot.rft
t=$top_srcdir/traces/cgroup-thrash.rft
"$REFAULT" report "$h" -p kernel,v6.18 --heatmap --heatmap-size 40x10 --html "$tmp/r.html" > "$tmp/out"
check "the page is written, and the table still goes to standard output" \
	'[ -s "$tmp/r.html" ] && grep -q "(total)" "$tmp/out"'
check "self-contained: no external script, style, image or font" \
	'! grep -Eq "<(script|link|img)[^>]* (src|href)=" "$tmp/r.html"'
check "no script and no status line: the page is what a reader needs" \
	'! grep -qi "<script" "$tmp/r.html" && ! grep -q "loaded:" "$tmp/r.html" && ! grep -q "id=\"status\"" "$tmp/r.html"'
check "one row per file of the terminal's table, and the total" \
	'[ $(grep -c "<tr class=\"row\">" "$tmp/r.html") -eq $(grep -c "^ *[0-9]* *[-+ ][0-9.]*%\{0,1\} *[0-9]*  [/[]" "$tmp/out") ]'
check "the files with no refaults in any source are left out of both, and counted (4 here)" \
	'grep -q "^# 4 files with no refaults in any source left out" "$tmp/out" && grep -q ">4 files with no refaults left out" "$tmp/r.html" && ! grep -q "\[dev 254:0" "$tmp/r.html" "$tmp/out"'
check "two heatmaps, of 10 rows: their cells span the 10 rows" \
	'[ $(grep -c "<svg class=\"heat\"" "$tmp/r.html") -eq 2 ] && [ $(grep -o "<rect class=\"cell\" x=\"[0-9.]*\" y=\"[0-9.]*\"" "$tmp/r.html" | sed "s/.*y=//" | sort -u | wc -l) -eq 10 ]'
# ticks: round numbers with units along both axes, not just the two ends
check "time ticks along the axis, in seconds from the trace's start, round (0.4 s ... 1.2 s)" \
	'[ $(grep -c "class=\"tick xtick\"" "$tmp/r.html") -ge 8 ] && grep -o "class=\"tick xtick\"[^>]*>[^<]*" "$tmp/r.html" | sed "s/.*>//" | sort -u | tr "\n" " " | grep -qx "0.4 s 0.6 s 0.8 s 1.0 s 1.2 s " && grep -q ">time since the trace.s start<" "$tmp/r.html"'
check "page index ticks down the axis, round (0, 2000 ... 8000: where the refaults are)" \
	'grep -o "class=\"tick ytick\"[^>]*>[^<]*" "$tmp/r.html" | sed "s/.*>//" | sort -un | tr "\n" " " | grep -qx "0 2000 4000 6000 8000 " && grep -q ">page index<" "$tmp/r.html"'
check "no tick in an exponent (1.2e+03), and a colour scale from 1 to the busiest cell" \
	'! grep -o "class=\"tick[^>]*>[^<]*" "$tmp/r.html" | grep -q "e[-+][0-9]" && grep -q ">refaults per cell<" "$tmp/r.html"'
# the bundled generated trace, as a new user would run it: no kernel observations, three
# files that never refault, the hot file's refaults from 7.4 ms on
"$REFAULT" report "$t" -p kernel,v4.6 --by file --heatmap --html "$tmp/thrash.html" > "$tmp/thrash.out"
"$REFAULT" report "$t" -p kernel,v4.6 --by file --heatmap --json > "$tmp/thrash.json"
check "cgroup-thrash: one row (sparse-hot-0), the three streamed files left out and counted" \
	'[ $(grep -c "<tr class=\"row\">" "$tmp/thrash.html") -eq 1 ] && grep -q "sparse-hot-0</td>" "$tmp/thrash.html" && grep -q ">3 files with no refaults left out" "$tmp/thrash.html" && ! grep -q "sparse-stream" "$tmp/thrash.html" "$tmp/thrash.out"'
check "cgroup-thrash: the time axis starts at the first refault and ends at the last (cells in the first and the last column)" \
	'"$PYTHON3" -c "import json,sys; c=json.load(open(sys.argv[1]))[\"heatmap\"][\"cells\"][\"v4.6\"]; sys.exit(not (sum(r[0] for r in c) and sum(r[-1] for r in c)))" "$tmp/thrash.json" && grep -q "<rect class=\"cell\" x=\"78.00\"" "$tmp/thrash.html"'
check "cgroup-thrash: the kernel source says the trace has no page-cache observations, instead of an empty grid" \
	'grep -q "The trace has no page-cache observations" "$tmp/thrash.html" && grep -q "kernel: no decision at all" "$tmp/thrash.html" && [ $(grep -c "<svg class=\"heat\"" "$tmp/thrash.html") -eq 1 ]'
# a hostile name: the page must show it, never run it
sed 's|"/data/big"|"/x<script>alert(1)</script>\&\\"q"|' "$top_srcdir/tests/report/data/decisions.jsonl" \
	> "$tmp/evil.jsonl"
"$REFAULT" trace convert "$tmp/evil.jsonl" "$tmp/evil.rft" 2> /dev/null
"$REFAULT" report "$tmp/evil.rft" --heatmap --html "$tmp/evil.html" > /dev/null
check "a file name with markup is escaped, in the table and the heatmap's heading" \
	'! grep -q "<script>alert" "$tmp/evil.html" && [ $(grep -c "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;q" "$tmp/evil.html") -eq 2 ]'
# a view of stacks: a flame graph per source, a frame named with markup
sed 's|"symbol":"read_hot"|"symbol":"read<script>alert(2)</script>\&"|' \
	"$top_srcdir/tests/report/data/stacks.jsonl" > "$tmp/stacks.jsonl"
"$REFAULT" trace convert "$tmp/stacks.jsonl" "$tmp/stacks.rft" 2> /dev/null
"$REFAULT" report "$tmp/stacks.rft" -p kernel,v6.18 --by callsite --sort misses --html "$tmp/flame.html" > /dev/null
check "by callsite: two flame graphs, the frame with markup escaped in its tooltip and label" \
	'[ $(grep -c "<svg class=\"flame\"" "$tmp/flame.html") -eq 2 ] && ! grep -q "<script>alert" "$tmp/flame.html" && grep -q "<title>read&lt;script&gt;alert(2)&lt;/script&gt;&amp;: 2 misses (7.14%)</title>" "$tmp/flame.html" && grep -q "<text [^>]*>read&lt;" "$tmp/flame.html"'
echo precious > "$tmp/keep"
"$REFAULT" report "$tmp/nosuch.rft" --html "$tmp/keep" > /dev/null 2>&1
check "a failed report leaves an existing --html file as it was" '[ "$(cat "$tmp/keep")" = precious ]'
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	skip_test "chromium not installed (apt-get install chromium): the page not loaded"
	skip_test "chromium not installed: the console not read"
	skip_test "chromium not installed: the flame graphs not loaded"
	skip_test "chromium not installed: no screenshots"
	done_testing
fi
for page in r thrash evil flame; do
	timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$tmp/$page.html" > "$tmp/$page.dom" 2> "$tmp/$page.log"
done
# count ELEMENT in FILE: its start tags
count() { grep -o "$1" "$2" | wc -l; }
cells=$(count '<rect class="cell"' "$tmp/r.html")
check "the page loads: the browser's document has its rows, 2 heatmaps, every cell ($cells) and tick" \
	'[ $(count "<tr class=\"row\">" "$tmp/r.dom") -eq $(count "<tr class=\"row\">" "$tmp/r.html") ] && [ $(count "<svg class=\"heat\"" "$tmp/r.dom") -eq 2 ] && [ $(count "<rect class=\"cell\"" "$tmp/r.dom") -eq $cells ] && [ $(count "class=\"tick xtick\"" "$tmp/r.dom") -eq $(count "class=\"tick xtick\"" "$tmp/r.html") ] && [ $cells -gt 0 ]'
check "no console error while loading the pages, and the hostile one ran nothing: no script in its document" \
	'! grep -hE "CONSOLE|Uncaught|ERROR:.*(console|script)" "$tmp/r.log" "$tmp/thrash.log" "$tmp/evil.log" | grep -qi error && grep -q "&lt;script&gt;alert(1)" "$tmp/evil.dom" && ! grep -qi "<script" "$tmp/evil.dom" && ! grep -q "alert" "$tmp/evil.log"'
frames=$(count '<rect class="flame"' "$tmp/flame.html")
check "the flame graphs' page loads: 2 flame graphs and every frame ($frames), no error" \
	'[ $(count "<svg class=\"flame\"" "$tmp/flame.dom") -eq 2 ] && [ $(count "<rect class=\"flame\"" "$tmp/flame.dom") -eq $frames ] && ! grep -hE "CONSOLE|Uncaught|ERROR:.*(console|script)" "$tmp/flame.log" | grep -qi error && ! grep -q "alert" "$tmp/flame.log"'
# screenshots to look at (kept in the build tree): the pages as a person sees them
shots=
for page in r thrash flame; do
	shot="${top_builddir:-.}/tests/report/report-html-$page.png"
	timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$tmp/profile" --window-size=1400,1000 --screenshot="$shot" \
		"file://$tmp/$page.html" > /dev/null 2>&1
	[ "$(stat -c %s "$shot" 2> /dev/null || echo 0)" -gt 20000 ] || shots="$shots ${shot##*/}"
done
check "screenshots of the pages for a person to look at: tests/report/report-html-{r,thrash,flame}.png" \
	'[ -z "$shots" ]'
done_testing
