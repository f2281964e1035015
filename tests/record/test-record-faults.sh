#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The recorder when things go wrong around it: a disk that fills up (a tmpfs of 8 KiB), an
# output whose directory is removed while it records, a ring buffer too small for the workload,
# SIGKILL at points drawn from SEED.  Each ends in a clear error or a readable trace; an
# existing output is never replaced by a broken one; every loss is counted; the next recording
# cleans what a killed one left (its tracefs instances; the memcg is test-record-safety's).
. "$top_srcdir/tests/record/lib.sh"
record_begin
SEED=${SEED:-1}
KILLS=${KILLS:-4}
wl="$top_builddir/tests/record/workload-readtwice"
check="$top_builddir/tests/record/check-trace"
head -c 1M /dev/urandom > "$dir/a.dat"
trap 'umount "$dir/full" 2> /dev/null; rm -rf "$dir"' EXIT
echo "1..$((11 + 2 * KILLS))"

# A full disk: the recording fails with ENOSPC named; the output there is kept, the trace so
# far stays under its temporary name, and nothing is left tracing.  8 KiB: a page for the file
# kept, one for the trace, whose 50,000 events take some 16 KiB with folio ids (24 KiB held them).
mkdir "$dir/full"
if mount -t tmpfs -o size=8k refault-test "$dir/full" 2> /dev/null; then
	echo keep > "$dir/full/t.trace"
	"$REFAULT" record -o "$dir/full/t.trace" -- "$wl" "$dir/a.dat" "$dir/a.dat" 64 1 \
		> /dev/null 2> "$dir/err" &
	pid=$!
	wait_bounded $pid 120 "refault record onto a full disk"
	st=$?
	sed 's/^/# /' "$dir/err"
	[ $st -eq 1 ] && grep -q "No space left on device" "$dir/err"
	tap $? "full disk: exit 1, 'No space left on device'"
	[ "$(cat "$dir/full/t.trace")" = keep ] && [ ! -e "$dir/full/t.trace.old" ] &&
		grep -q "the trace so far is in $dir/full/.t.trace.tmp-" "$dir/err"
	tap $? "full disk: the existing output is untouched, the error says where the trace so far is"
	! leftover_instance $pid
	tap $? "full disk: no tracefs instance left behind"
	umount "$dir/full"
else
	for i in 1 2 3; do echo "ok $((n + i)) # SKIP cannot mount a tmpfs"; done
	n=$((n + 3))
fi

# The output's directory removed during the recording: an error that says so, exit 1.  The
# output is open before the command runs; it is removed once the command has begun (a fixed
# delay raced a recorder slow to start under a sanitizer).
mkdir "$dir/gone"
rm -f "$dir/started"
"$REFAULT" record -o "$dir/gone/t.trace" -- sh -c "touch '$dir/started'; sleep 1; \
	cat '$dir/a.dat' > /dev/null" 2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/started' ] || ! running $pid"
rm -rf "$dir/gone"
wait_bounded $pid 120 "refault record into a removed directory"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 1 ] && grep -q "gone/t.trace: its directory was removed while it was written" "$dir/err"
tap $? "the output's directory removed: exit 1, the error says so"
! grep -q "tracepoint records ->" "$dir/err"
tap $? "... and no summary claims a trace was written"

# A 4 KiB ring buffer: the kernel drops records; the count is in the summary, the trace's end
# record and the first thing replay says.
rec -m 4K -o "$dir/tiny.trace" -- "$wl" "$dir/a.dat" "$dir/a.dat" 64 1 \
	2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
lost=$(sed -n 's/.* \([0-9][0-9]*\) lost;.*/\1/p' "$dir/err")
[ $st -eq 0 ] && [ "${lost:-0}" -gt 0 ] && grep -q "use a larger --buffer-size" "$dir/err"
tap $? "a tiny ring buffer: ${lost:-no} records lost, counted in the summary with the remedy"
"$REFAULT" trace info "$dir/tiny.trace" > "$dir/out" 2>&1
grep -q "lost events: *$lost\$" "$dir/out"
tap $? "... the trace says the same count"
"$REFAULT" replay "$dir/tiny.trace" -p v6.18 -o "$dir/r.json" > "$dir/out" 2>&1
head -1 "$dir/out" | sed 's/^/# /'
head -1 "$dir/out" | grep -q "^WARNING: the kernel lost $lost records"
tap $? "... and replay says it first"

# The recording has begun when its command runs (the recorder holds it until then): slow to set
# up under a sanitizer, so kill points count from there.
wait_started() {
	wait_until 60 "[ -e '$dir/started' ] || ! running $pid"
}

# A recording with few events, killed 2.5 s in: its first second is on disk (a chunk is written
# at least once a second, not only when full), so the read before the sleep is recovered.
rm -f "$dir"/.k.trace.tmp-* "$dir/started"
"$REFAULT" record -q -o "$dir/k.trace" -- sh -c "cat '$dir/a.dat' > /dev/null; \
	touch '$dir/started'; sleep 10" 2> /dev/null &
pid=$!
wait_started
sleep 2.5
cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
kill -KILL $pid 2> /dev/null
wait_bounded $pid 30 "refault record after SIGKILL" 2> /dev/null
[ -n "$cmd" ] && kill -KILL -- "-$cmd" 2> /dev/null
part=$(ls "$dir"/.k.trace.tmp-* 2> /dev/null | head -1)
reads=0
if [ -n "$part" ] && "$REFAULT" trace recover "$part" -o "$dir/rec.trace" > /dev/null 2>&1; then
	reads=$("$REFAULT" trace info "$dir/rec.trace" | awk '$1 == "file_read" { print $2 }')
fi
[ "${reads:-0}" -gt 0 ]
tap $? "a quiet recording SIGKILLed at 2.5 s: the events of its first second are on disk (${reads:-0} file reads)"
rm -f "$dir"/.k.trace.tmp-* "$dir/rec.trace"

# SIGKILL 50 ms after launch (before the recording begins) and at KILLS points drawn from SEED,
# 1.5 to 4 s after it began, into a workload of 6 s.  The recorder writes a chunk at least once a
# second, so each of those leaves a trace under the temporary name that `trace recover` makes
# whole; killed before its first chunk, a file the next recording names, and that recover reads
# or says holds nothing.  The next recording works and removes the killed one's tracefs instances.
points="0.05 $(awk -v s="$SEED" -v k="$KILLS" \
	'BEGIN { srand(s); for (i = 0; i < k; i++) printf "%.2f ", 1.5 + rand() * 2.5 }')"
echo "# SIGKILL points (SEED=$SEED): $points"
for d in $points; do
	rm -f "$dir"/.k.trace.tmp-* "$dir/k.trace" "$dir/started"
	"$REFAULT" record -q -o "$dir/k.trace" -- sh -c "touch '$dir/started'; \
		end=\$((\$(date +%s) + 6)); \
		while [ \$(date +%s) -lt \$end ]; do cat '$dir/a.dat' > /dev/null; done" \
		2> "$dir/err" &
	pid=$!
	[ "$d" = 0.05 ] || wait_started
	sleep "$d"
	cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
	kill -KILL $pid 2> /dev/null
	wait_bounded $pid 30 "refault record after SIGKILL" 2> /dev/null
	[ -n "$cmd" ] && kill -KILL -- "-$cmd" 2> /dev/null
	part=$(ls "$dir"/.k.trace.tmp-* 2> /dev/null | head -1)
	if [ -z "$part" ] && [ "$d" = 0.05 ]; then
		[ ! -e "$dir/k.trace" ]
		tap $? "SIGKILL at $d s, before the recorder opened its output: nothing left"
	elif [ -z "$part" ]; then
		tap 1 "SIGKILL at $d s: no trace under a temporary name"
	elif [ "$d" = 0.05 ]; then
		rec -q -o "$dir/k.trace" -- true 2> "$dir/err"
		"$REFAULT" trace recover "$part" -o "$dir/rec.trace" > "$dir/out" 2>&1
		st=$?
		sed 's/^/# /' "$dir/err" "$dir/out"
		grep -q "${part##*/} is .*interrupted recording" "$dir/err" &&
			{ [ $st -eq 0 ] || grep -q "nothing to recover\|not a refault trace" "$dir/out"; }
		tap $? "SIGKILL at $d s: the next recording names ${part##*/}; recover reads it or says it holds nothing"
	else
		"$REFAULT" trace recover "$part" -o "$dir/rec.trace" > "$dir/out" 2>&1 &&
			"$check" readable "$dir/rec.trace" > "$dir/out2"
		st=$?
		sed 's/^/# /' "$dir/out" "$dir/out2"
		tap $st "SIGKILL at $d s: ${part##*/} is recovered into a readable trace"
	fi
	rec -q -o "$dir/k.trace" -- true 2> /dev/null && ! leftover_instance $pid
	tap $? "... the next recording works and removes refault-record-$pid's instances"
done
exit $failed
