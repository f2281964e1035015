#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --html: one self-contained page, checked in a real headless browser
# (Debian package: chromium).
. "$top_srcdir/tests/compare/lib.sh"
echo "1..4"
cd "$T" || exit 1
story_cgroups s2.json
run s2.json --html report.html
check "--html writes the page and still prints the table" \
	sh -c "[ $rc -eq 0 ] && [ -s report.html ] && grep -q cost.estimated_ns '$T/out'"
check "self-contained: no external script, stylesheet, image or font" \
	sh -c "! grep -Eiq '(src|href)=\"?(https?:)?//|@import|url\\(' report.html"
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	echo "ok 3 # SKIP chromium not installed (apt-get install chromium)"
	echo "ok 4 # SKIP chromium not installed (apt-get install chromium)"
	exit 0
fi
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
	--enable-logging=stderr --v=0 --dump-dom "file://$T/report.html" >dom.html 2>browser.log
# 3 list-size charts (one per column) + 2 rate charts (refault, scan) with 3 lines each
check "the page loads and its script sees 5 SVG charts with 6+6 drawn lines" \
	grep -q 'loaded: 5 charts, 12 drawn lines, 0 empty lines' dom.html
check "no console error while loading" \
	sh -c "! grep -E 'CONSOLE|Uncaught|ERROR:.*(console|script)' browser.log | grep -qi error"
