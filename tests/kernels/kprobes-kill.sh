# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=sh
# A job of the kernel lab's guest (tests/kernels/lab.sh --kprobes-kill: a bare one, run by sh in
# the guest's work directory): a recorder killed with its kprobe events made leaves them; the
# next recording removes them (recorder/kprobes.c).  It prints what kprobe_events held after the
# kill, and after the next recording:
#   after-kill N
#   after-next M
# (check-kernels.sh wants N > 0 and M = 0).
ke=/sys/kernel/tracing/kprobe_events
[ -w $ke ] || { echo "no writable $ke: no kprobe events in this kernel" >&2; exit 1; }
/bin/refault record -q --kprobes always -o killed.rft -- sleep 30 2> /dev/null &
kpid=$!
sleep 3
kill -9 $kpid
wait $kpid 2> /dev/null
echo "after-kill $(grep -c '^p:refault_record_' $ke)"
/bin/refault record -q --kprobes never -o next.rft -- true 2> /dev/null
echo "after-next $(grep -c '^p:refault_record_' $ke)"
pkill -9 sleep 2> /dev/null
rm -f killed.rft next.rft .killed.rft.* .next.rft.*
exit 0
