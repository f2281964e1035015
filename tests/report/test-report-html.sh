#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report --html: one self-contained page (the table, the heatmap as SVG, the flame
# graphs in a view of stacks), its names escaped, checked in a real headless browser (Debian
# package: chromium) where there is one.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report-html.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
h=$top_srcdir/traces/validate-hot.rft
"$REFAULT" report "$h" -p kernel,v6.18 --heatmap --heatmap-size 40x10 --html "$tmp/r.html" > "$tmp/out"
check "the page is written, and the table still goes to standard output" \
	'[ -s "$tmp/r.html" ] && grep -q "(total)" "$tmp/out"'
check "self-contained: no external script, style, image or font" \
	'! grep -Eq "<(script|link|img)[^>]* (src|href)=" "$tmp/r.html"'
check "one row per file of the table, and the total" \
	'[ $(grep -c "<tr class=\"row\">" "$tmp/r.html") -eq $(grep -c "^ *[0-9]* *[-+ ][0-9.]*%\{0,1\} *[0-9]*  [/[]" "$tmp/out") ]'
check "two heatmaps, of 10 rows" \
	'[ $(grep -c "<svg class=\"heat\"" "$tmp/r.html") -eq 2 ] && [ $(grep -c "text-anchor=\"end\">[0-9]*</text>" "$tmp/r.html") -eq 20 ]'
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
	done_testing
fi
for page in r evil flame; do
	timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$tmp/$page.html" > "$tmp/$page.dom" 2> "$tmp/$page.log"
done
cells=$(grep -c '<rect class="cell"' "$tmp/r.html")
check "the page loads and its script sees the rows, 2 heatmaps and every cell ($cells)" \
	'grep -q "loaded: $(grep -c "<tr class=\"row\">" "$tmp/r.html") rows, 2 heatmaps, $cells cells drawn" "$tmp/r.dom"'
check "no console error while loading either page, and the hostile one ran no script of its own" \
	'! grep -hE "CONSOLE|Uncaught|ERROR:.*(console|script)" "$tmp/r.log" "$tmp/evil.log" | grep -qi error && grep -q "loaded: 1 rows, 1 heatmaps" "$tmp/evil.dom" && ! grep -q "alert" "$tmp/evil.log"'
frames=$(grep -c '<rect class="flame"' "$tmp/flame.html")
check "the flame graphs' page loads, its script sees 2 flame graphs and every frame ($frames), no error" \
	'grep -q "2 flame graphs of $frames frames" "$tmp/flame.dom" && ! grep -hE "CONSOLE|Uncaught|ERROR:.*(console|script)" "$tmp/flame.log" | grep -qi error && ! grep -q "alert" "$tmp/flame.log"'
done_testing
