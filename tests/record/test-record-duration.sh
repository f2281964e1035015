#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# How long a recording lasts, as perf record users expect: a scope bounded by a command
# (-a -- sleep 1 records every task while sleep runs; -G, -p likewise), --duration T alone,
# and --duration with a command that would outlive it (SIGTERM at T, the trace complete).
. "$top_srcdir/tests/record/lib.sh"
record_begin
echo "1..9"
head -c 1M /dev/urandom > "$dir/a.dat"
# Something outside any recorded command to be seen by -a: cat in a loop.
( while :; do cat "$dir/a.dat" > /dev/null; sleep 0.02; done ) &
bg=$!
trap 'kill $bg 2> /dev/null; rm -rf "$dir"' EXIT
sec() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(sec)" 'BEGIN { printf "%.1f", b - a }'; }

t=$(sec)
rec -q -a -o "$dir/a.trace" -- sleep 1 2> "$dir/err"
st=$? took=$(elapsed "$t")
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && awk -v x="$took" 'BEGIN { exit !(x >= 1 && x < 10) }'
tap $? "record -a -- sleep 1: exit 0 after the command, ${took} s"
"$REFAULT" trace info "$dir/a.trace" > "$dir/info" 2>&1
grep -q '^scope: *-a -- sleep 1$' "$dir/info"
tap $? "... the header's scope says -a -- sleep 1"
ino=$(stat -c %i "$dir/a.dat")
nreads=$("$REFAULT" trace dump "$dir/a.trace" --type file_read 2> /dev/null | grep -c " ino=$ino ")
[ "$nreads" -gt 0 ]
tap $? "... and it recorded another task's reads of a file sleep never touches ($nreads)"

t=$(sec)
rec -q -a --duration 1 -o "$dir/d.trace" 2> "$dir/err"
st=$? took=$(elapsed "$t")
[ $st -eq 0 ] && awk -v x="$took" 'BEGIN { exit !(x >= 1 && x < 10) }'
tap $? "record -a --duration 1: exit 0 after ${took} s"
d=$("$REFAULT" trace info "$dir/d.trace" | awk '$1 == "duration:" { print $2 }')
awk -v x="$d" 'BEGIN { exit !(x >= 0.9 && x < 5) }'
tap $? "... its trace spans ${d:-?} s"

t=$(sec)
rec -q --duration 1s -o "$dir/c.trace" -- sleep 30 2> "$dir/err"
st=$? took=$(elapsed "$t")
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && awk -v x="$took" 'BEGIN { exit !(x >= 1 && x < 10) }' &&
	grep -q "exited with status 143" "$dir/err"
tap $? "--duration 1s -- sleep 30: SIGTERM at 1 s, exit 0 after ${took} s, the status said"
"$top_builddir/tests/record/check-trace" readable "$dir/c.trace" | grep -q indexed
tap $? "... and the trace is complete"

rec -q -a --memcg-limit 64M -o "$dir/x.trace" -- true > "$dir/out" 2>&1
[ $? -eq 2 ] && grep -q "drop -a, -G or -p" "$dir/out"
tap $? "--memcg-limit with -a and a command: a usage error that says what to drop"
rec -q -e refs -a --duration 0.5 -o "$dir/e.trace" 2> "$dir/err" &&
	"$REFAULT" trace info "$dir/e.trace" | grep -q '^sources: *filemap:' &&
	! "$REFAULT" trace info "$dir/e.trace" | grep -q 'vmscan'
tap $? "-e refs records the refs group only, as perf record -e"
exit $failed
