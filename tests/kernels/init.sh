#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# /init of the kernel lab's initramfs (tests/kernels/lab.sh builds it; busybox sh runs it).
# It mounts what the recorder needs, loads the modules listed in /lab/modules (in that order:
# lab.sh resolved them through modules.dep), mounts the lab's disk (/dev/vda, ext4) at /mnt,
# sets up the memory cgroup hierarchy and MGLRU as the kernel command line says, records the
# validation suite's cases with tests/validate/cases.sh (copied to /lab/cases.sh) and powers
# off.  The traces go to /mnt/out (lab.sh takes them out with debugfs once qemu has exited).
#
# Kernel command line (dotted, so that the kernel passes none of it to init):
#   refault.cgroup=v1|v2|auto   v1: tmpfs on /sys/fs/cgroup and the memory hierarchy at
#                               /sys/fs/cgroup/memory; v2: cgroup2 at /sys/fs/cgroup with
#                               +memory in the root's subtree_control; auto: v1, else v2
#   refault.mglru=0|1           written to /sys/kernel/mm/lru_gen/enabled (0 or y); absent:
#                               the kernel's default
#   refault.cases=A,B,...       the cases (default: cases.sh's nine)
#   refault.probe=1             say "probe ok" and power off at once (lab.sh's KVM probe)
#   refault.test_crash=CASE     crash the kernel (sysrq c) after CASE: tests lab.sh's retry
#   refault.kprobes_kill=1      after the cases, SIGKILL a recorder with kprobe events and
#                               check the next recording removes them (kprobes-kill.txt)
#
# Every line for lab.sh starts "refault-lab: " on the console (ttyS0): "init" when init is
# reached, "case NAME start|end", "done" at the end, "fail WHAT" before powering off early.
PATH=/bin:/sbin:/usr/bin:/usr/sbin
LD_LIBRARY_PATH=/lib/refault
export PATH LD_LIBRARY_PATH

mark() { echo "refault-lab: $*"; }
up() { read -r u _ < /proc/uptime; echo "$u"; }
off() {
	sync
	poweroff -f
	sleep 10
}
fail() {
	mark "fail $*"
	swapoff -a 2> /dev/null
	umount /mnt 2> /dev/null
	off
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing || fail "mount -t tracefs at /sys/kernel/tracing"
# the multi-gen LRU's state (lru_gen_full), which refault record snapshots; optional
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
mark "init $(uname -r) up=$(up)"

cg=auto mglru='' cases='' probe='' test_crash='' refault_kill=''
read -r cmdline < /proc/cmdline
for w in $cmdline; do
	case $w in
	refault.cgroup=*) cg=${w#*=};;
	refault.mglru=*) mglru=${w#*=};;
	refault.cases=*) cases=$(echo "${w#*=}" | tr , ' ');;
	refault.probe=*) probe=${w#*=};;
	refault.test_crash=*) test_crash=${w#*=};;
	refault.kprobes_kill=*) refault_kill=${w#*=};;
	esac
done
if [ -n "$probe" ]; then
	mark "probe ok up=$(up)"
	off
fi

while read -r m; do
	insmod "/lib/modules/$m" || fail "insmod /lib/modules/$m"
done < /lab/modules
n=0
while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
mount -t ext4 /dev/vda /mnt || fail "mount -t ext4 /dev/vda /mnt"
mkdir -p /mnt/out || fail "mkdir /mnt/out"

v1() {
	mount -t tmpfs none /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/memory &&
		mount -t cgroup -o memory none /sys/fs/cgroup/memory
}
v2() {
	mount -t cgroup2 none /sys/fs/cgroup && echo +memory > /sys/fs/cgroup/cgroup.subtree_control
}
case $cg in
v1) v1 || fail "cgroup v1: mount -t cgroup -o memory none /sys/fs/cgroup/memory";;
v2) v2 || fail "cgroup v2: mount -t cgroup2 none /sys/fs/cgroup, +memory in its subtree_control";;
auto)
	if v1 2> /dev/null; then
		cg=v1
	else
		umount /sys/fs/cgroup 2> /dev/null
		v2 || fail "cgroup: neither v1 memory nor cgroup2 with +memory"
		cg=v2
	fi;;
*) fail "refault.cgroup=$cg: v1, v2 or auto";;
esac

lrugen=/sys/kernel/mm/lru_gen/enabled
case $mglru in
'') ;;
0) [ ! -e $lrugen ] || echo 0 > $lrugen || fail "echo 0 > $lrugen";;
1) echo y > $lrugen || fail "echo y > $lrugen";;
*) fail "refault.mglru=$mglru: 0 or 1";;
esac
if [ -e $lrugen ]; then
	mglru_now=$(cat $lrugen)
else
	mglru_now="none (no $lrugen)"
fi
mark "setup cgroup=$cg mglru=${mglru:-default} lru_gen=$mglru_now up=$(up)"

# What the kernel offers the recorder (in guest-info.txt, and on the console).
{
	echo "kernel: $(uname -r) ($(uname -v))"
	echo "cmdline: $(cat /proc/cmdline)"
	echo "cgroup: $cg"
	echo "mglru: ${mglru:-default}; $lrugen: $mglru_now"
	echo "cpus: $(nproc); $(grep MemTotal /proc/meminfo)"
	echo "transparent_hugepage: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2> /dev/null)"
	echo "\$ ls /sys/kernel/tracing/events/filemap"
	ls /sys/kernel/tracing/events/filemap
	for f in /sys/kernel/tracing/kprobe_events /sys/kernel/btf/vmlinux; do
		if [ -e $f ]; then echo "$f: exists"; else echo "$f: absent"; fi
	done
	echo "\$ cat /proc/self/cgroup"
	cat /proc/self/cgroup
	echo "\$ grep cgroup /proc/self/mountinfo"
	grep cgroup /proc/self/mountinfo
	for f in meltdown spectre_v2; do
		f=/sys/devices/system/cpu/vulnerabilities/$f
		[ -e $f ] && echo "$f: $(cat $f)"
	done
} > /mnt/out/guest-info.txt 2>&1
sed 's/^/refault-lab: info /' /mnt/out/guest-info.txt
# lab.sh greps it on the host (busybox grep -w takes 10 s over its 170k lines under TCG)
cat /proc/kallsyms > /mnt/out/kallsyms
mark "ready up=$(up)"

# The suite's cases, as the host runs them (tests/validate/cases.sh): the workload's files are
# in /mnt/w (made by lab.sh), the swap file goes on the same disk.
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
sync
swapoff -a 2> /dev/null
umount /mnt || fail "umount /mnt (the traces may be incomplete)"
mark "done up=$(up)"
off
