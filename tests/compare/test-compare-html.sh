#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --html: one self-contained page, checked in a real headless browser
# (Debian package: chromium).
. "$top_srcdir/tests/compare/lib.sh"
echo "1..15"
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

# The headline counters (refaults, scans, steals, activations) are on the page whether they
# changed or not (the single-cgroup story: no refault in any column).
story_single s1.json
run s1.json --html single.html
check "the headline counters are on the page though unchanged, in grey" \
	sh -c "grep -q '<tr class=\"same headline\">.*>vmstat.workingset_refault_file<' single.html &&
	       grep -q '<tr class=\"same headline\">.*>vmstat.pgscan_kswapd<' single.html &&
	       grep -q '<tr class=\"same headline\">.*>vmstat.pgactivate<' single.html &&
	       ! grep -q '<tr class=\"same.*>cost.lru_lock<' single.html"

# A change from zero is 'from 0', one past 100000 % the ratio: never LKP's +3.5e+103%, in the
# page and in the text table alike.
$MK huge.json --config v4.5 vmstat.pgmajfault=0 vmstat.pgscan_kswapd=4 cost.estimated_ns=100 \
	--config v4.6 vmstat.pgmajfault=35 vmstat.pgscan_kswapd=5000 cost.estimated_ns=120
run huge.json --html huge.html
check "changes from 0 and past 100000 %: 'from 0' and 'x1250', in the page and the table" \
	sh -c "grep -q '>from 0</td>' huge.html && grep -q '>x1250</td>' huge.html &&
	       grep -q ' from 0 .*vmstat.pgmajfault' '$T/out' && grep -q ' x1250 .*vmstat.pgscan_kswapd' '$T/out' &&
	       ! grep -q 'e+[0-9]*%' huge.html '$T/out'"

# Costs of profiles of different kernel eras: the page warns as the terminal does.
$MK eras.json --config v4.5 vmstat.pgscan_kswapd=5000 cost.estimated_ns=100 \
	--config v6.18 vmstat.pgscan_kswapd=5000 cost.estimated_ns=40
run eras.json --html eras.html
check "cost across kernel eras: the warning on the terminal and on the page; none within one era" \
	sh -c "grep -q '^note: cost.estimated_ns prices each profile.s own operations.*across kernel eras (v4.x, v6.x here)' '$T/out' &&
	       grep -q '<p class=\"warn\">cost.estimated_ns prices.*across kernel eras' eras.html &&
	       ! grep -q 'kernel eras' report.html"

# The kernel's numbers from a recording's default two snapshots (its start and end): drawn where
# they were measured, never as a ramp between them, and the page says what they are.
$MK kern.json --series --kernel 2 --config v4.6 vmstat.nr_active_file=800 vmstat.workingset_refault_file=900 \
	vmstat.pgscan_kswapd=4000 cost.estimated_ns=100
run kern.json:v4.6@kernel kern.json:v4.6 --html kern.html
kpaths=$(grep -c '<path class="line"[^>]*d="[^"]*L[^"]*"><title>v4.6@kernel<' kern.html)
check "@kernel of 2 snapshots: a list size as 2 points, a rate as a step, no ramp ($kpaths joined paths)" \
	sh -c "[ $kpaths -eq 0 ] && grep -q '<g class=\"pts\"[^>]*><title>v4.6@kernel</title><circle[^/]*/><circle[^/]*/></g>' kern.html &&
	       grep -q 'd=\"M[0-9.]* [0-9.]*H[0-9.]*\"><title>v4.6@kernel<' kern.html"
check "@kernel: the page says the kernel's vmstat rows are the whole host's, and how it is drawn" \
	sh -c "grep -q 'whole host.s /proc/vmstat' kern.html && grep -q '2 counter snapshots measured, and nothing between' kern.html"

BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	for i in 11 12 13 14 15; do echo "ok $i # SKIP chromium not installed (apt-get install chromium)"; done
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
# The page uses a 1400 px window's width: the table with the decisions beside it, the charts in
# columns as wide as they fit (they were 560 px each, 40 % of the width left empty).
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
	--window-size=1400,1600 --dump-dom "file://$T/report.html" >wide.html 2>/dev/null
used=$(sed -n 's/.*content to \([0-9]*\)% of the width.*/\1/p' wide.html)
check "at 1400 px the page's content spans ${used:-?} % of the width (at least 90)" \
	sh -c "[ '${used:-0}' -ge 90 ]"
timeout 60 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
	--dump-dom "file://$T/kern.html" >kdom.html 2>/dev/null
check "the @kernel page loads: its snapshots drawn as points and steps, no empty line" \
	grep -q 'loaded: 5 charts, 7 drawn lines, 0 empty lines' kdom.html
