# SPDX-License-Identifier: LGPL-2.1-or-later
# The validation suite's workloads, shared by test-validate.sh and fidelity.sh.
# Each case runs tests/validate/vworkload in a fresh 64 MiB memory cgroup under
# `refault record --memcg-limit`, with the page cache of its files dropped first.

VLIMIT=64M
VSNAP=100ms
# VCASES_ONLY="case ..." runs a subset (debugging)
VCASES=${VCASES_ONLY:-"read2-large read1-large read2-small read1-small mmap-large anon-noswap anon-thp anon-swap compete hot write mmap-random"}

vcase_args() {	# vcase_args NAME DIR: the vworkload arguments
	case $1 in
	read2-large) echo "read $2/f256 2";;
	read1-large) echo "read $2/f256 1";;
	read2-small) echo "read $2/f32 2";;
	read1-small) echo "read $2/f32 1";;
	mmap-large) echo "mmap $2/f256 2";;
	anon-noswap) echo "anon 40 2 $2/f128a";;
	anon-thp) echo "thp 40 2 $2/f128a";;
	anon-swap) echo "anon 96 2";;
	compete) echo "compete $2/f128a $2/f128b 2";;
	hot) echo "hot $2/f256 32 1";;
	write) echo "write $2/w128 128 2";;
	# not in the suite: the kernel lab's check that kprobe sources give the tracepoints'
	# references (CASE:kprobes against CASE:tracepoints, tests/kernels/)
	mmap-small) echo "mmap $2/f32 1";;
	# not in the suite: classic against the multi-gen LRU on the same kernel (docs/model.md)
	mmap-hot) echo "mhot $2/f256 32 1";;
	# not in the suite: a mapped hot set, which only accessed bits show (record --damon)
	hot-mapped) echo "hmap $2/f256 32 1";;
	mmap-random) echo "rmap $2/f128a 100000";;
	*:kprobes|*:tracepoints|*:damon) vcase_args "${1%:*}" "$2";;
	esac
}

# The flags a case records with beyond the suite's own: CASE:kprobes records from kprobe
# events where the kernel has tracepoints too (refault record --kprobes always),
# CASE:tracepoints from tracepoints only, CASE:damon with DAMON's accessed-bit samples
# (--damon).
vcase_record_args() {
	case $1 in
	*:kprobes) echo "--kprobes always";;
	*:tracepoints) echo "--kprobes never";;
	*:damon) echo "--damon";;
	esac
}

vcase_describe() {
	case $1 in
	read2-large) echo "read() a 256 MiB file twice (4x the limit)";;
	read1-large) echo "read() a 256 MiB file once";;
	read2-small) echo "read() a 32 MiB file twice (half the limit)";;
	read1-small) echo "read() a 32 MiB file once";;
	mmap-large) echo "mmap a 256 MiB file, read a byte of every page, twice";;
	anon-noswap) echo "dirty 40 MiB anonymous twice, a 128 MiB file read in between";;
	anon-thp) echo "as anon-noswap, in transparent huge pages (MADV_HUGEPAGE)";;
	anon-swap) echo "dirty 96 MiB anonymous twice with a 256 MiB swap file";;
	compete) echo "two child cgroups read a 128 MiB file each, twice, at once";;
	hot) echo "random 4 KiB re-reads of a 32 MiB hot set while streaming 224 MiB";;
	write) echo "write a 128 MiB file (fdatasync each MiB), read it back; rewrite it, read it back";;
	mmap-small) echo "mmap a 32 MiB file, read a byte of every page, once";;
	mmap-hot) echo "random 4 KiB re-reads of a 32 MiB hot set while streaming 224 MiB mapped";;
	hot-mapped) echo "random loads of a mapped 32 MiB hot set while streaming 224 MiB";;
	mmap-random) echo "map a 128 MiB file (MADV_RANDOM), load a byte of 100,000 random pages";;
	*:kprobes) echo "$(vcase_describe "${1%:*}"), from kprobe events";;
	*:tracepoints) echo "$(vcase_describe "${1%:*}"), from tracepoints";;
	*:damon) echo "$(vcase_describe "${1%:*}"), with DAMON's accessed-bit samples";;
	esac
}

# The memory cgroup we run in, or empty: in the v1 memory hierarchy, or where there is none in
# cgroup2 when it has the memory controller (vmemcg_version says which).
vmemcg_own_dir() {
	mnt=$(vmemcg_mount cgroup)
	if [ -n "$mnt" ]; then
		rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
	else
		mnt=$(vmemcg_mount cgroup2)
		[ -n "$mnt" ] || return 0
		rel=$(awk -F: '$1 == "0" && $2 == "" { print $3; exit }' /proc/self/cgroup)
	fi
	echo "$mnt${rel%/}"
}

# vmemcg_mount cgroup|cgroup2: where the v1 memory hierarchy is mounted, or cgroup2 when it
# has the memory controller; nothing when it is not.  (mountinfo: the file system type is the
# field after "-", the super options the last.)
vmemcg_mount() {
	mnt=$(awk -v t="$1" '{ for (i = 7; i < NF; i++) if ($i == "-") {
		if ($(i + 1) == t && (t == "cgroup2" || $NF ~ /(^|,)memory(,|$)/)) { print $5; exit }
		break } }' /proc/self/mountinfo)
	[ -n "$mnt" ] || return 0
	[ "$1" = cgroup ] || grep -qw memory "$mnt/cgroup.controllers" 2>/dev/null || return 0
	echo "$mnt"
}

# v1, v2 or nothing: the memory cgroup hierarchy vmemcg_own_dir uses.
vmemcg_version() {
	if [ -n "$(vmemcg_mount cgroup)" ]; then
		echo v1
	elif [ -n "$(vmemcg_mount cgroup2)" ]; then
		echo v2
	fi
}

# Why the suite cannot run here, or nothing.
vcannot_run() {
	[ -n "$REFAULT" ] && [ -x "$REFAULT" ] || { echo "no refault binary (\$REFAULT)"; return; }
	[ "$(id -u)" -eq 0 ] || { echo "recording needs root"; return; }
	[ -d /sys/kernel/tracing/instances ] || { echo "no tracefs at /sys/kernel/tracing"; return; }
	# cgroup2 only where the caller says so (VALLOW_V2=1: tests/kernels/ does, in its guests)
	case $(vmemcg_version) in
	v1) ;;
	v2) [ -n "${VALLOW_V2:-}" ] || { echo "no v1 memory cgroup hierarchy"; return; };;
	*) echo "no v1 memory cgroup hierarchy"; return;;
	esac
	case $(stat -f -c %T "$1") in
	tmpfs|ramfs) echo "$1 is on tmpfs (its page cache is not traced as file reads)";;
	esac
}

vmake_files() {	# vmake_files DIR
	head -c 256M /dev/zero > "$1/f256" && head -c 32M /dev/zero > "$1/f32" &&
		head -c 128M /dev/zero > "$1/f128a" && head -c 128M /dev/zero > "$1/f128b"
}

VSWAP=
vswap_off() {
	[ -n "$VSWAP" ] || return 0
	swapoff "$VSWAP" 2>/dev/null
	rm -f "$VSWAP"
	VSWAP=
}

# VSWAPDIR: where vswap_on puts the swap file (default /var/tmp); a directory on a disk file
# system (swapon refuses tmpfs)
vswap_on() {	# a 256 MiB swap file in $VSWAPDIR; 1 when swapon is refused
	VSWAP=${VSWAPDIR:-/var/tmp}/refault-validate-swap.$$
	{ dd if=/dev/zero of="$VSWAP" bs=1M count=256 status=none && chmod 600 "$VSWAP" &&
		mkswap "$VSWAP" > /dev/null && swapon "$VSWAP"; } 2>/dev/null && return 0
	rm -f "$VSWAP"
	VSWAP=
	return 1
}

# vwatchdog PID SECONDS FILE: in the background, SIGTERM to PID once it has run SECONDS (SIGKILL 10 s
# later), saying so in FILE, so that a recorder that never ends fails its case instead of hanging
# the suite; the watchdog itself ends within a second of PID (it holds no descriptor of the caller's).
vwatchdog() {
	(
		t=0
		while kill -0 "$1" 2> /dev/null; do
			if [ $t -ge "$2" ]; then
				echo "refault record: still running after $2 s: killed (VRECORD_TIMEOUT)" >> "$3"
				kill -TERM "$1"
				sleep 10
				kill -KILL "$1" 2> /dev/null
				break
			fi
			sleep 1
			t=$((t + 1))
		done
	) < /dev/null > /dev/null 2>&1 &
}

# vrecord NAME DIR WORKLOAD: record case NAME into DIR/NAME.rft; 0 on success.
vrecord() {
	name=$1 dir=$2 wl=$3 base=${1%%:*}	# CASE:variant runs CASE's workload
	# shellcheck disable=SC2046
	rm -f "$dir/w128"	# the write case's file: a new one each time
	"$wl" drop "$dir/f256" "$dir/f32" "$dir/f128a" "$dir/f128b" || return 1
	if [ "$base" = anon-swap ]; then
		vswap_on || { echo "swapon refused" > "$dir/$name.err"; return 2; }
	fi
	# shellcheck disable=SC2046
	"$REFAULT" record -q -o "$dir/$name.rft" --memcg-limit $VLIMIT --snapshot-interval $VSNAP \
		$(vcase_record_args "$name") -- "$wl" $(vcase_args "$name" "$dir") 2> "$dir/$name.err" &
	rpid=$!
	vwatchdog $rpid "${VRECORD_TIMEOUT:-900}" "$dir/$name.err"
	wait $rpid
	st=$?
	[ "$base" = anon-swap ] && vswap_off
	if [ "$base" = compete ]; then
		# vworkload leaves its child cgroups for the parent's memory.stat: remove them now
		own=$(vmemcg_own_dir)
		rmdir "$own/refault-record-$rpid/vworkload-a" "$own/refault-record-$rpid/vworkload-b" \
			"$own/refault-record-$rpid" 2>/dev/null
		grep -v "cannot remove memory cgroup" "$dir/$name.err" > "$dir/$name.err2"
		mv "$dir/$name.err2" "$dir/$name.err"
	fi
	return $st
}
