#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# /init of the kernel lab's initramfs (lab/lib.sh builds it; busybox sh runs it).  It mounts what
# the recorder needs, loads the modules listed in /lab/modules (in that order: the host resolved
# them through modules.dep), mounts the lab's disk (/dev/vda, ext4) at /mnt, sets up the memory
# cgroup hierarchy, the multi-gen LRU, the sysctls and swap as the host asked, puts the
# workload's files in place, and runs the jobs of /lab/jobs (refault lab record).  Then it
# unmounts and reboots, which ends qemu (-no-reboot).  What it brings back goes to /mnt/out.
#
# Kernel command line (dotted, so that the kernel passes none of it to init):
#   refault.cgroup=v1|v2|auto   v1: tmpfs on /sys/fs/cgroup and the memory hierarchy at
#                               /sys/fs/cgroup/memory; v2: cgroup2 at /sys/fs/cgroup with
#                               +memory in the root's subtree_control; auto: v1, else v2
#   refault.mglru=0|1           written to /sys/kernel/mm/lru_gen/enabled (0 or y); absent:
#                               the kernel's default
#   refault.swap=MIB            a swap file of MIB MiB on the disk, on before the first job
#   refault.swapjobs=1          ... made, but on only while a job that asks for it runs
#   refault.probe=1             say "probe ok" and reboot at once (the host's KVM probe)
# Files the host writes into the initramfs:
#   /lab/sysctl   "KEY VALUE" lines: VALUE written to /proc/sys/KEY (dots as slashes)
#   /lab/files    "N GUESTPATH" lines: /mnt/.lab-in/N copied to GUESTPATH (relative: to
#                 /mnt/work, the jobs' directory; absolute outside /mnt: a link to its copy
#                 in /mnt/root), every block written (never sparse)
#   /lab/jobs     "NAME COLD SWAP" lines: /lab/job/NAME.sh run in /mnt/work, its output in
#                 /mnt/out/NAME.out and .err; COLD 1: the page cache and its shadow entries
#                 dropped before it; SWAP 1: the swap file on while it runs (refault.swapjobs)
#
# Every line for the host starts "refault-lab: " on the console (ttyS0): "init" when init is
# reached, "setup", "ready", "job NAME start|end status=N seconds=S",
# "done" at the end, "fail WHAT" before it gives up.
PATH=/bin:/sbin:/usr/bin:/usr/sbin
LD_LIBRARY_PATH=/lib/refault
export PATH LD_LIBRARY_PATH

mark() { echo "refault-lab: $*"; }
up() { read -r u _ < /proc/uptime; echo "$u"; }
off() {
	sync
	reboot -f
	sleep 10
}
fail() {
	mark "fail $*"
	swapoff -a 2> /dev/null
	umount /mnt 2> /dev/null
	off
}
# drop: the page cache and, with the inodes, their shadow entries (drop_caches 3:
# drop_pagecache_sb() invalidates each inode's cache, shrink_slab() frees the unused inodes)
drop() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing || fail "mount -t tracefs at /sys/kernel/tracing"
# the multi-gen LRU's state (lru_gen_full), which refault record snapshots; optional
mount -t debugfs debugfs /sys/kernel/debug 2> /dev/null
mark "init $(uname -r) up=$(up)"

cg=auto mglru='' probe='' swap_mib='' swap_jobs=''
read -r cmdline < /proc/cmdline
for w in $cmdline; do
	case $w in
	refault.cgroup=*) cg=${w#*=};;
	refault.mglru=*) mglru=${w#*=};;
	refault.probe=*) probe=${w#*=};;
	refault.swap=*) swap_mib=${w#*=};;
	refault.swapjobs=*) swap_jobs=${w#*=};;
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
mkdir -p /mnt/out /mnt/work || fail "mkdir /mnt/out /mnt/work"

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
1) echo y > $lrugen || fail "echo y > $lrugen (has this kernel CONFIG_LRU_GEN?)";;
*) fail "refault.mglru=$mglru: 0 or 1";;
esac
if [ -e $lrugen ]; then
	mglru_now=$(cat $lrugen)
else
	mglru_now="none (no $lrugen)"
fi

if [ -s /lab/sysctl ]; then
	while read -r k v; do
		f=/proc/sys/$(echo "$k" | tr . /)
		[ -e "$f" ] || fail "sysctl $k: no $f in this kernel"
		printf '%s\n' "$v" > "$f" || fail "sysctl $k=$v: the kernel refused it (write $f)"
		mark "sysctl $k=$(cat "$f" | tr '\t\n' '  ')"
	done < /lab/sysctl
fi
if [ -n "$swap_mib" ]; then
	dd if=/dev/zero of=/mnt/lab.swap bs=1M count="$swap_mib" 2> /dev/null &&
		chmod 600 /mnt/lab.swap && mkswap /mnt/lab.swap > /dev/null &&
		{ [ "$swap_jobs" = 1 ] || swapon /mnt/lab.swap; } ||
		fail "swap: a swap file of $swap_mib MiB on /mnt (CONFIG_SWAP?)"
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
	echo "swap: $(tail -n +2 /proc/swaps | tr '\n' ' ')"
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
# the host greps it (busybox grep -w takes 10 s over its 170k lines under TCG)
cat /proc/kallsyms > /mnt/out/kallsyms

# The workload's files where it will look for them.  On the host's disk image they may be
# sparse (mke2fs -d makes an all-zero block a hole, which a read serves without the page
# cache's insertions); cat writes every block.
if [ -s /lab/files ]; then
	while read -r n dest; do
		# on the disk, whatever the path: the initramfs is memory, not a file system's cache
		case $dest in
		/mnt/*) real=$dest;;
		/*) real=/mnt/root$dest
		    mkdir -p "$(dirname "$dest")" && ln -sf "$real" "$dest" || fail "a link at $dest";;
		*) real=/mnt/work/$dest;;
		esac
		mkdir -p "$(dirname "$real")" && cat "/mnt/.lab-in/$n" > "$real" &&
			rm -f "/mnt/.lab-in/$n" || fail "copying the file for $dest"
	done < /lab/files
	drop
fi
mark "ready up=$(up)"

: > /mnt/out/jobs.txt
while read -r name cold swap; do
	[ "$cold" = 1 ] && drop
	if [ "$swap" = 1 ] && ! swapon /mnt/lab.swap 2> "/mnt/out/$name.err"; then
		echo "the swap file of refault.swap: swapon /mnt/lab.swap failed" >> "/mnt/out/$name.err"
		echo "$name 125 0" >> /mnt/out/jobs.txt
		mark "job $name end status=125 seconds=0"
		continue
	fi
	t0=$(up)
	mark "job $name start up=$t0"
	(cd /mnt/work && exec sh "/lab/job/$name.sh") < /dev/null > "/mnt/out/$name.out" \
		2> "/mnt/out/$name.err"
	st=$?
	[ "$swap" = 1 ] && swapoff /mnt/lab.swap
	t1=$(up)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "$name $st $secs" >> /mnt/out/jobs.txt
	[ $st -eq 0 ] || head -n 20 "/mnt/out/$name.err" | sed "s/^/refault-lab: err $name: /"
	mark "job $name end status=$st seconds=$secs"
done < /lab/jobs
sync
swapoff -a 2> /dev/null
# what a job left running (a background process in /mnt/work) would keep /mnt busy: every
# process but this one goes (kernel threads ignore the signal)
for p in /proc/[0-9]*; do
	[ "${p#/proc/}" = 1 ] || kill -9 "${p#/proc/}" 2> /dev/null
done
n=0
until umount /mnt 2> /dev/null; do
	n=$((n + 1))
	[ $n -lt 20 ] || fail "umount /mnt (the traces may be incomplete)"
	sleep 0.25
done
mark "done up=$(up)"
off
