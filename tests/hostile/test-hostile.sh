#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every verb on every implausible trace of gen-hostile (orders to 255, ranges of 2^63 pages, a
# readahead larger than its cgroup, 50,000 nested cgroups, 700,000 markers, 4096-entry counters,
# times running backwards, ids at their edges): each run ends with a clean status (0 done, 1 a
# clean error, 3 validate's verdict; never a signal, never 2, the command-line code, for bad
# data) within LIMIT_S seconds (default 60) and LIMIT_KB of memory (default 1.5 GiB).
. "$top_srcdir/tests/lib/tap.sh"
LIMIT_S=${LIMIT_S:-60}
LIMIT_KB=${LIMIT_KB:-1572864}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/tests/hostile/gen-hostile" "$tmp" > "$tmp/cases" || { skip_all "gen-hostile failed"; exit 0; }

# run NAME VERB...: one bounded run of refault
run() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$tmp/time" timeout -s KILL "$LIMIT_S" "$REFAULT" "$@" \
		> /dev/null 2> "$tmp/err"
	st=$?
	# the last line is "SECONDS KIB" (a killed command's status line comes before it)
	secs=$(tail -n 1 "$tmp/time" | cut -d' ' -f1)
	kb=$(tail -n 1 "$tmp/time" | cut -d' ' -f2)
	case $kb in ''|*[!0-9]*) kb=0;; esac
	case $st in 0|1|3) ok=1;; *) ok=0;; esac
	[ "$kb" -le "$LIMIT_KB" ] || ok=0
	verb=$1
	[ "$1" = trace ] && verb="trace $2"
	check "$name: refault $verb exits $st in $secs s, $((kb / 1024)) MiB" "[ $ok -eq 1 ]"
	[ $ok -eq 1 ] || sed 's/^/# /' "$tmp/err" | head -5
	rm -f "$tmp/out.rft" "$tmp/out.rft.old"
}

while read -r c; do
	t=$tmp/$c.rft
	run "$c" trace verify -q "$t"
	run "$c" trace info "$t"
	run "$c" trace dump "$t" --limit 100000
	run "$c" trace slice "$t" -o "$tmp/out.rft"
	run "$c" trace recover "$t" -o "$tmp/out.rft"
	run "$c" trace convert "$t" /dev/null --to jsonl
	run "$c" replay "$t" -q -p v4.5,v6.18
	run "$c" replay "$t" -q -p v6.18 --warm-cache -j 3
	run "$c" validate "$t" -q
	run "$c" report "$t" -p kernel,v6.18 --by file --heatmap --html /dev/null
	run "$c" report "$t" -p kernel --by pid --json
done < "$tmp/cases"
done_testing
