#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# SIGINT finalizes the trace (index and all); SIGKILL mid-record leaves every complete chunk
# readable, and the next recording removes the tracefs instance the killed one left.
. "$top_srcdir/tests/record/lib.sh"
record_require
dir=$(record_tmpdir)
cmd=
trap 'rm -rf "$dir"; [ -n "$cmd" ] && kill $cmd 2>/dev/null' EXIT
head -c 1M /dev/urandom > "$dir/a.dat"
check="$top_builddir/tests/record/check-trace"
echo "1..7"

"$REFAULT" record -q -a -o "$dir/int.trace" 2> "$dir/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
tap $? "SIGINT: refault record -a exits 0"
"$check" readable "$dir/int.trace" > "$dir/out"
sed 's/^/# /' "$dir/out" "$dir/err"
grep -q "indexed" "$dir/out" && ! grep -q "then:" "$dir/out"
tap $? "SIGINT: the trace is complete, with its index"

# 192 MiB of anonymous faults: about 98k events, more than one 65536-event chunk
"$REFAULT" record -q -o "$dir/kill.trace" -- sh -c "'$top_builddir/tests/record/workload-readtwice' \
	'$dir/a.dat' '$dir/a.dat' 192 1 && touch '$dir/done' && exec sleep 30" 2> "$dir/err" &
pid=$!
i=0
while [ ! -e "$dir/done" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
kill -KILL $pid
wait $pid 2> /dev/null
[ -e "$dir/done" ]
tap $? "the workload ran under the recorder"
"$check" readable "$dir/kill.trace" > "$dir/out"
st=$?
sed 's/^/# /' "$dir/out" "$dir/err"
[ $st -eq 0 ] && grep -q "no index" "$dir/out"
tap $? "SIGKILL: the completed chunks read back without an index"
if "$REFAULT" trace recover --help > /dev/null 2>&1; then
	"$REFAULT" trace recover "$dir/kill.trace" -o "$dir/rec.trace" > "$dir/out" 2>&1
	tap $? "SIGKILL: refault trace recover rebuilds it"
else
	n=$((n + 1)); echo "ok $n # SKIP no 'refault trace recover' in this build"
fi
# SIGKILL leaves the instance (nothing can remove it then); the next recording does
"$REFAULT" record -q -o "$dir/next.trace" -- true
tap $? "a recording after the SIGKILL works"
! leftover_instance $pid
tap $? "and it removed the killed recorder's instance refault-record-$pid"
exit $failed
