#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# SIGINT finalizes the trace (index and all); SIGKILL mid-record leaves every complete chunk
# readable under the temporary name the recorder writes to (the name asked for is only given
# to a finished trace), the next recording into the same name points at it, and removes the
# tracefs instance the killed one left.
. "$top_srcdir/tests/record/lib.sh"
record_require
dir=$(record_tmpdir)
cmd=
trap 'rm -rf "$dir"; [ -n "$cmd" ] && kill $cmd 2>/dev/null' EXIT
head -c 1M /dev/urandom > "$dir/a.dat"
check="$top_builddir/tests/record/check-trace"
echo "1..8"

"$REFAULT" record -q -a -o "$dir/int.trace" 2> "$dir/err" &
pid=$!
wait_until 60 "recording $pid || ! running $pid"
sleep 0.5
kill -INT $pid
wait_bounded $pid 60 "refault record -a after one SIGINT"
tap $? "SIGINT: refault record -a exits 0"
"$check" readable "$dir/int.trace" > "$dir/out"
sed 's/^/# /' "$dir/out" "$dir/err"
grep -q "indexed" "$dir/out" && ! grep -q "then:" "$dir/out"
tap $? "SIGINT: the trace is complete, with its index"

# 192 MiB of anonymous faults: about 98k events, more than one 65536-event chunk
"$REFAULT" record -q -o "$dir/kill.trace" -- sh -c "'$top_builddir/tests/record/workload-readtwice' \
	'$dir/a.dat' '$dir/a.dat' 192 1 && touch '$dir/done' && exec sleep 30" 2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/done' ] || ! running $pid"
sleep 0.5
cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
kill -KILL $pid
wait_bounded $pid 30 "refault record after SIGKILL" 2> /dev/null
[ -e "$dir/done" ]
tap $? "the workload ran under the recorder"
[ -n "$cmd" ] && kill -KILL -- "-$cmd" 2> /dev/null	# its own process group
cmd=
part=$(ls "$dir"/.kill.trace.tmp-* 2> /dev/null | head -1)
[ -n "$part" ] && [ ! -e "$dir/kill.trace" ]
tap $? "SIGKILL: the trace is under its temporary name (${part##*/}), the name is not taken"
"$check" readable "$part" > "$dir/out"
st=$?
sed 's/^/# /' "$dir/out" "$dir/err"
[ $st -eq 0 ] && grep -q "no index" "$dir/out"
tap $? "SIGKILL: the completed chunks read back without an index"
"$REFAULT" trace recover "$part" -o "$dir/rec.trace" > "$dir/out" 2>&1
tap $? "SIGKILL: refault trace recover rebuilds it"
# SIGKILL leaves the instance (nothing can remove it then); the next recording does
rec -q -o "$dir/kill.trace" -- true 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && grep -q "interrupted recording" "$dir/err" && grep -q "${part##*/}" "$dir/err"
tap $? "a recording after the SIGKILL works, and names the interrupted one's trace"
! leftover_instance $pid
tap $? "and it removed the killed recorder's instance refault-record-$pid"
exit $failed
