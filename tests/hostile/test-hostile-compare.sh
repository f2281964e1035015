#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare on files modest in bytes and large in what it makes of them (gen-compare.py:
# 1 M samples of a metric, 150,000 metric names, 8,000 configurations, 60,000 time series, sweeps
# of 200 configurations, and LKP's zeros for what a run or a column lacks): every output mode (the
# table, --all, --json, --csv, --html, --plot, --over, gates, @kernel, sweep files) ends within
# LIMIT_S seconds (default 20) and LIMIT_KB of memory (default 1 GiB), with exit 0 or 3, or, where
# LKP's zeros would make the table many times what the files hold, exit 1 with an error naming
# the file and the limit.  The runs were over 20 s, or many GiB, before compare was made linear
# (quadratic row ranking, a file parsed again for each of its configurations, per-pair scans).
# A watchdog kills a run at either limit, so a regression fails fast and takes no machine down.
. "$top_srcdir/tests/lib/tap.sh"
LIMIT_S=${LIMIT_S:-20}
LIMIT_KB=${LIMIT_KB:-1048576}
PYTHON3=${PYTHON3:-python3}
command -v /usr/bin/time > /dev/null || { skip_all "no /usr/bin/time (Debian package time)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hostile-compare.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
$PYTHON3 "$top_srcdir/tests/hostile/gen-compare.py" "$tmp" > cases ||
	{ skip_all "gen-compare.py failed"; exit 0; }

# watch PID: kill the command /usr/bin/time (PID) runs once it passes LIMIT_KB or LIMIT_S
watch() {
	ticks=0
	killed=
	while kill -0 "$1" 2> /dev/null; do
		for kid in $(cat /proc/"$1"/task/*/children 2> /dev/null); do
			kb=$(awk '/^VmRSS:/ { print $2 }' /proc/"$kid"/status 2> /dev/null)
			case $kb in ''|*[!0-9]*) kb=0;; esac
			if [ "$kb" -gt "$LIMIT_KB" ]; then
				killed="over $((LIMIT_KB / 1024)) MiB"
			elif [ "$ticks" -ge $((LIMIT_S * 10)) ]; then
				killed="over $LIMIT_S s"
			fi
			[ -n "$killed" ] && kill -KILL "$kid" 2> /dev/null
		done
		[ -n "$killed" ] && break
		sleep 0.1
		ticks=$((ticks + 1))
	done
}

# run NAME EXPECT ARGS...: refault compare ARGS, bounded; EXPECT "ok" is exit 0 or 3 (a gate that
# trips), else a text that the error (exit 1) must hold
run() {
	name=$1
	expect=$2
	shift 2
	/usr/bin/time -f "%e %M" -o time "$REFAULT" compare "$@" > out 2> err &
	pid=$!
	watch $pid
	wait $pid
	st=$?
	secs=$(tail -n 1 time | cut -d' ' -f1)
	kb=$(tail -n 1 time | cut -d' ' -f2)
	case $kb in ''|*[!0-9]*) kb=0;; esac
	ok=0
	if [ -n "$killed" ]; then
		why="killed, $killed"
	elif [ "$expect" = ok ]; then
		why="exit $st"
		[ $st -eq 0 ] || [ $st -eq 3 ] && ok=1
	else
		why="exit $st, the limit's error"
		[ $st -eq 1 ] && grep -qF -- "$expect" err && grep -q 'over the limit' err && ok=1
	fi
	[ "$kb" -le "$LIMIT_KB" ] || ok=0
	check "$name: compare $* ($why in $secs s, $((kb / 1024)) MiB)" "[ $ok -eq 1 ]"
	[ $ok -eq 1 ] || sed 's/^/# /' err | head -3
}

run "one metric of 1 M samples" ok samples.json samples.json
run "one metric of 1 M samples" ok samples.json samples.json --json --all
run "one metric of 1 M samples" ok samples.json samples.json --html page.html
run "one metric of 1 M samples" ok samples.json samples.json --plot m --fail-if 'm > +5%'
run "LKP's zeros: 20,000 metrics padded to 200,000 runs" padded.json padded.json samples.json
n='150,000 metric names'
run "$n" ok names.json:v4.5 names.json:v4.6 --all
run "$n" ok names.json:v4.5 names.json:v4.6 --json --all
run "$n" ok names.json:v4.5 names.json:v4.6 --csv --all
run "$n" ok names.json:v4.5 names.json:v4.6 --html page.html
run "$n" ok names.json:v4.5 names.json:v4.6 --plot metric_000001 --fail-if 'metric_000001 > +5%'
run "$n, the kernel's" ok names.json:v4.5@kernel names.json:v4.5 --all
n='150,000 metric names in each column, none in both'
run "$n" ok distinct.json:v4.5 distinct.json:v4.6
run "$n" ok distinct.json:v4.5 distinct.json:v4.6 --json --all
n='8,000 configurations'
run "$n" ok configs.json
run "$n" ok configs.json --json
run "$n" ok configs.json --csv
run "$n" ok configs.json --html page.html
run "$n" ok configs.json --plot workingset_refault_file --over memory \
	--fail-if 'workingset_refault_file > +5%'
run "LKP's zeros: 8,000 configurations of metrics of their own" configs-distinct.json configs-distinct.json
n='time series of 100,000 samples'
run "$n" ok series.json:v4.5 series.json:v4.6 --html page.html
# a path of a chart has at most four points a pixel column (its first, lowest, highest, last)
points=$(grep -o ' d="[^"]*"' page.html | awk -F'[ML]' '{ if (NF - 1 > max) max = NF - 1 } END { print max + 0 }')
check "$n: a chart's line has at most 4 points a pixel column: $points for the 492 columns" \
	"[ $points -gt 0 ] && [ $points -le 1968 ]"
run "$n" ok series.json:v4.5 series.json:v4.6 --plot workingset_refault_file --over time
run "$n, the kernel's" ok series.json:v4.5@kernel series.json:v4.5 --html page.html
run "60,000 time series" ok many-series.json:v4.5 many-series.json:v4.6 --html page.html
n='a sweep of 2 workloads x 200 configurations'
run "$n" ok sweep.json --fail-if 'workingset_refault_file > +5%'
run "$n" ok sweep.json --plot workingset_refault_file --over memory
run "$n" ok 'sweep.json:wa/v4.5,memory=64M' 'sweep.json:wa/v4.6,memory=64M' --json --all
run "LKP's zeros: a sweep's 8,000 runs of metrics of their own" sweep-distinct.json sweep-distinct.json
done_testing
