#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The recorder's stop signals are its own, whatever its parent left: started with SIGINT, SIGTERM
# and SIGHUP ignored (a shell's background job ignores SIGINT, nohup SIGHUP), it and its command
# have them back at their default actions, so one signal stops the recording; a signal sent at
# any moment of its start stops it cleanly (a trace that verifies, or, before it began, nothing
# left behind).  Every wait here is bounded (lib.sh's wait_bounded).
. "$top_srcdir/tests/record/lib.sh"
record_begin
echo "1..10"

stop_mask=16387		# SigIgn bits of SIGHUP (1), SIGINT (2) and SIGTERM (15): 0x4003
ignored() {	# ignored PID: the stop signals PID ignores, as a SigIgn mask (0 when none)
	m=$(awk '/^SigIgn:/ { print $2 }' "/proc/$1/status" 2> /dev/null)
	echo $((0x${m:-0} & stop_mask))
}

# -a, started with the three ignored: once recording, it ignores none; one SIGHUP stops it.
( trap '' INT TERM HUP; exec "$REFAULT" record -q -a -o "$dir/ign.rft" ) 2> "$dir/err" &
pid=$!
wait_until 60 "recording $pid || ! running $pid"
ign=$(ignored $pid)
[ "$ign" -eq 0 ]
tap $? "started with SIGINT, SIGTERM, SIGHUP ignored, the recorder has their default actions back (ignored mask $ign)"
kill -HUP $pid
wait_bounded $pid 60 "refault record -a after one SIGHUP"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && "$REFAULT" trace verify -q "$dir/ign.rft"
tap $? "... and one SIGHUP stops it: exit $st, a trace that verifies"

# -- COMMAND, started so: the command gets the default actions too, and the SIGINT the recorder
# passes on ends it (it used to go on ignoring it, the recording with it).
( trap '' INT TERM HUP; exec "$REFAULT" record -q -o "$dir/cmd.rft" -- \
	sh -c "touch '$dir/started'; exec sleep 30" ) 2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/started' ] || ! running $pid"
cmd=$(ps -o pid= --ppid $pid | tr -d ' ')
ign=$(ignored "${cmd:-0}")
[ -n "$cmd" ] && [ "$ign" -eq 0 ]
tap $? "... its command ${cmd:-(not found)} too (ignored mask $ign)"
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
