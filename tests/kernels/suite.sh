# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=sh
# The validation suite's part of the lab's guest (tests/kernels/lab.sh puts it in the initramfs
# as /lab/suite.sh; lab/init.sh sources it once the guest is set up): the cases of
# tests/validate/cases.sh (copied to /lab/cases.sh), recorded as the host suite records them,
# with their files in /mnt/w (made by lab.sh) and the swap file on the same disk.
#
# Kernel command line:
#   refault.cases=A,B,...       the cases (default: cases.sh's nine)
#   refault.test_crash=CASE     crash the kernel (sysrq c) after CASE: tests lab.sh's retry
#   refault.kprobes_kill=1      after the cases, SIGKILL a recorder with kprobe events and
#                               check the next recording removes them (kprobes-kill.txt)
# Console lines: "case NAME start|end status=N seconds=S", "err NAME: ...".
cases='' test_crash='' refault_kill=''
for w in $cmdline; do
	case $w in
	refault.cases=*) cases=$(echo "${w#*=}" | tr , ' ');;
	refault.test_crash=*) test_crash=${w#*=};;
	refault.kprobes_kill=*) refault_kill=${w#*=};;
	esac
done
# shellcheck disable=SC2034 # cases.sh reads them
{ VCASES_ONLY=$cases; VSWAPDIR=/mnt; VALLOW_V2=1; }
REFAULT=/bin/refault
export REFAULT
# shellcheck source=tests/validate/cases.sh disable=SC1091
. /lab/cases.sh
why=$(vcannot_run /mnt/w)
[ -z "$why" ] || fail "cases.sh cannot run here: $why"
: > /mnt/out/cases.txt
for c in $VCASES; do
	t0=$(up)
	mark "case $c start up=$t0"
	vrecord "$c" /mnt/w /bin/vworkload
	st=$?
	t1=$(up)
	mv "/mnt/w/$c.rft" /mnt/out/ 2> /dev/null
	mv "/mnt/w/$c.err" /mnt/out/ 2> /dev/null
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "$c $st $secs" >> /mnt/out/cases.txt
	[ -s "/mnt/out/$c.err" ] && head -n 20 "/mnt/out/$c.err" | sed "s/^/refault-lab: err $c: /"
	mark "case $c end status=$st seconds=$secs"
	if [ "$c" = "$test_crash" ]; then
		sync
		echo c > /proc/sysrq-trigger
	fi
done
for d in "$(vmemcg_own_dir)"/refault-record-*; do
	[ ! -d "$d" ] || mark "warning: a cgroup is left behind: $d"
done
# A recorder killed with its kprobe events made leaves them; the next recording removes them
# (recorder/kprobes.c).  /mnt/out/kprobes-kill.txt: what kprobe_events held after the kill, and
# after the next recording.
if [ -w /sys/kernel/tracing/kprobe_events ] && [ -n "$refault_kill" ]; then
	"$REFAULT" record -q --kprobes always -o /mnt/w/killed.rft -- sleep 30 2> /dev/null &
	kpid=$!
	sleep 3
	kill -9 $kpid
	wait $kpid 2> /dev/null
	{
		echo "after-kill $(grep -c '^p:refault_record_' /sys/kernel/tracing/kprobe_events)"
		"$REFAULT" record -q --kprobes never -o /mnt/w/next.rft -- true 2> /dev/null
		echo "after-next $(grep -c '^p:refault_record_' /sys/kernel/tracing/kprobe_events)"
	} > /mnt/out/kprobes-kill.txt
	pkill -9 sleep 2> /dev/null
	mark "kprobes-kill $(tr '\n' ' ' < /mnt/out/kprobes-kill.txt)"
fi
