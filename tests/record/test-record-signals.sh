#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The recorder's stop signals are its own, whatever its parent left: started with SIGINT and
# SIGTERM ignored (a shell's background job ignores SIGINT), it and its command have them back at
# their default actions, so one signal stops the recording; a SIGHUP ignored at the start (nohup)
# stays ignored, for both; a signal sent at any moment of its start stops it cleanly (a trace that
# verifies, or, before it began, nothing left behind).  Every wait here is bounded (lib.sh's
# wait_bounded).
. "$top_srcdir/tests/record/lib.sh"
record_begin
echo "1..12"

int_term=16386		# SigIgn bits of SIGINT (2) and SIGTERM (15): 0x4002
hup=1			# SIGHUP's (1)
ignored() {	# ignored PID MASK: the signals of MASK that PID ignores, as a SigIgn mask (0 when none)
	m=$(awk '/^SigIgn:/ { print $2 }' "/proc/$1/status" 2> /dev/null)
	echo $((0x${m:-0} & $2))
}

# -a, started with SIGINT and SIGTERM ignored: once recording, it ignores neither; one SIGTERM stops it.
( trap '' INT TERM; exec "$REFAULT" record -q -a -o "$dir/ign.rft" ) 2> "$dir/err" &
pid=$!
wait_until 60 "recording $pid || ! running $pid"
ign=$(ignored $pid $int_term)
[ "$ign" -eq 0 ]
tap $? "started with SIGINT, SIGTERM ignored, the recorder has their default actions back (ignored mask $ign)"
kill -TERM $pid
wait_bounded $pid 60 "refault record -a after one SIGTERM"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && "$REFAULT" trace verify -q "$dir/ign.rft"
tap $? "... and one SIGTERM stops it: exit $st, a trace that verifies"

# -a under nohup (SIGHUP ignored): a hangup leaves it recording; SIGINT still stops it.
( trap '' HUP; exec "$REFAULT" record -q -a -o "$dir/hup.rft" ) 2> "$dir/err" &
pid=$!
wait_until 60 "recording $pid || ! running $pid"
kill -HUP $pid
sleep 1
running $pid && [ "$(ignored $pid $hup)" -eq $hup ]
tap $? "started with SIGHUP ignored (nohup), the recorder keeps it ignored and records on after one"
kill -INT $pid
wait_bounded $pid 60 "refault record -a after SIGHUP, then SIGINT"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && "$REFAULT" trace verify -q "$dir/hup.rft"
tap $? "... and SIGINT stops it: exit $st, a trace that verifies"

# -- COMMAND, started so: the command gets the default actions too, and the SIGINT the recorder
# passes on ends it (it used to go on ignoring it, the recording with it).
( trap '' INT TERM HUP; exec "$REFAULT" record -q -o "$dir/cmd.rft" -- \
	sh -c "touch '$dir/started'; exec sleep 30" ) 2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/started' ] || ! running $pid"
cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
ign=$(ignored "${cmd:-0}" $int_term)
[ -n "$cmd" ] && [ "$ign" -eq 0 ] && [ "$(ignored "$cmd" $hup)" -eq $hup ]
tap $? "... its command ${cmd:-(not found)} too (SIGINT, SIGTERM ignored mask $ign), SIGHUP still ignored"
kill -INT $pid
wait_bounded $pid 20 "refault record -- sleep 30 after one SIGINT"
st=$?
[ -n "$cmd" ] && kill -KILL -- "-$cmd" 2> /dev/null	# what a hung recorder left
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && grep -q "exited with status 130" "$dir/err"
tap $? "... one SIGINT to the recorder ends the command and the recording (exit $st)"
"$REFAULT" trace verify -q "$dir/cmd.rft"
tap $? "... with a trace that verifies"

# SIGTERM at moments of the start, from before the exec to the first events: a recorder that took
# it before it took its signals died of it before it made anything; any later, it stops cleanly.
for d in 0 0.01 0.05 0.2 0.5; do
	rm -f "$dir/e.rft" "$dir"/.e.rft.tmp-*
	"$REFAULT" record -q -a -o "$dir/e.rft" 2> "$dir/err" &
	pid=$!
	sleep $d
	kill -TERM $pid
	wait_bounded $pid 60 "refault record -a after one SIGTERM at $d s"
	st=$?
	sed 's/^/# /' "$dir/err"
	if [ $st -eq 0 ]; then
		"$REFAULT" trace verify -q "$dir/e.rft" && ! ls -a "$dir" | grep -q 'e.rft.tmp-'
	else
		[ $st -eq 143 ] && [ ! -e "$dir/e.rft" ] && ! ls -a "$dir" | grep -q 'e.rft.tmp-' &&
			! leftover_instance $pid
	fi
	tap $? "SIGTERM $d s after the start: stopped cleanly (exit $st)"
done
exit $failed
