#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --html: one self-contained page, checked in a real headless browser
# (Debian package: chromium).
. "$top_srcdir/tests/compare/lib.sh"
echo "1..8"
cd "$T" || exit 1
story_cgroups s2.json
run s2.json --html report.html
check "--html writes the page and still prints the table" \
	sh -c "[ $rc -eq 0 ] && [ -s report.html ] && grep -q cost.estimated_ns '$T/out'"
check "self-contained: no external script, stylesheet, image or font" \
	sh -c "! grep -Eiq '(src|href)=\"?(https?:)?//|@import|url\\(' report.html"
check "the LKP table is a table: a row per metric shown, each change marked up or down" \
	sh -c "grep -q '<table class=\"lkp\">' report.html && [ \$(grep -c '^<tr' report.html) -eq \$(grep -c '^ *[-0-9.]* *[-+][0-9.]*%' '$T/out') ] && grep -q 'class=\"chg up\" title=' report.html && grep -q 'class=\"chg down\"' report.html"
check "axis ticks are round numbers in readable units (10k, not 1.597e+04), time with its unit" \
	sh -c "! grep -o 'class=\"tick\"[^>]*>[^<]*' report.html | grep -q '>.*e[-+]' && grep -q '>10k<' report.html && grep -q 'trace time (s)' report.html"
check "each column's line has its own dash pattern, so identical columns both show" \
	sh -c "[ \$(grep -c '<path class=\"line\"[^>]*stroke-dasharray=\"7 3\"' report.html) -eq 4 ] && [ \$(grep -c '<path class=\"line\"[^>]*stroke-dasharray=\"2 3\"' report.html) -eq 4 ]"
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	for i in 6 7 8; do echo "ok $i # SKIP chromium not installed (apt-get install chromium)"; done
	exit 0
fi
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
	--enable-logging=stderr --v=0 --dump-dom "file://$T/report.html" >dom.html 2>browser.log
# 2 list-size charts (active, inactive file) + 2 rate charts (refault, scan), a line per column
check "the page loads and its script sees 4 SVG charts with 4 x 3 drawn lines" \
	grep -q 'loaded: 4 charts, 12 drawn lines, 0 empty lines' dom.html
check "no console error while loading" \
	sh -c "! grep -E 'CONSOLE|Uncaught|ERROR:.*(console|script)' browser.log | grep -qi error"
# A screenshot to look at (kept in the build tree): the page as a person sees it.
shot="${top_builddir:-.}/tests/compare/report-cgroups.png"
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$T/profile" --window-size=1300,1600 --screenshot="$shot" \
	"file://$T/report.html" > /dev/null 2>&1
check "a screenshot of the page, for a person to look at: ${shot##*/}" \
	sh -c "[ \$(stat -c %s '$shot' 2>/dev/null || echo 0) -gt 20000 ]"
