#!/bin/sh
# Install what refault needs to build on Debian 12 (run as root).
# With --test, also what the tests use: an independent msgpack decoder, clang for the fuzz target,
# chromium to load the HTML report in a real browser, sudo for the recorder's privilege tests,
# groff (groff-base) to render the manual pages, and GNU parallel for the sweeps' engine.
# With --slurm, a single-node Slurm for make check-sweeps (the test starts it itself).
# With --lab, also what the kernel lab (refault lab, make check-kernels, make check-lab) boots
# guests with: qemu, a static busybox for their initramfs, cpio, kmod (depmod), e2fsprogs; and
# builds kernels with (refault lab build): bc, bison, flex, libelf, libssl, patch, xz, and pahole
# (dwarves: BTF for a kernel before 6.11, whose page-cache hits the recorder reads from kprobes).
# Another apt holding its locks is waited for, up to APT_LOCK_TIMEOUT seconds (default 600).
set -e
packages="
	build-essential autoconf automake libtool pkg-config
	libzstd-dev zstd libmsgpack-dev liburcu-dev libunwind-dev libdw-dev libjson-c-dev
	libtracefs-dev libtraceevent-dev libbpf-dev python3
"
for arg in "$@"; do
	case $arg in
	--test) packages="$packages python3-msgpack clang chromium sudo groff-base parallel patch";;
	--slurm) packages="$packages slurmctld slurmd slurm-client munge";;
	--lab) packages="$packages qemu-system-x86 busybox-static cpio kmod e2fsprogs"
		# refault lab build: what the kernel's make needs (objtool links libelf)
		packages="$packages bc bison flex libelf-dev libssl-dev patch xz-utils dwarves";;
	*) echo "install-deps.sh: unknown option '$arg' (--test, --slurm, --lab)" >&2; exit 2;;
	esac
done
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi

# Another apt (unattended-upgrades, a first boot's cloud-init, a second shell) may hold apt's locks:
# wait for it, up to APT_LOCK_TIMEOUT seconds (default 600), rather than fail with exit 100.
# DPkg::Lock::Timeout makes apt-get wait for dpkg's lock; apt-get update's lock on its lists
# (/var/lib/apt/lists/lock) and the download cache's are not waited for by apt 2.6 (Debian 12),
# so a run that failed on a lock is tried again every 5 s until the time is up.
lock_timeout=${APT_LOCK_TIMEOUT:-600}
case $lock_timeout in
''|*[!0-9]*) echo "install-deps.sh: APT_LOCK_TIMEOUT must be a number of seconds, not '$lock_timeout'" >&2
	exit 2;;
esac
err=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
trap 'rm -f "$err"' EXIT
apt_get() {
	start=$(date +%s) said=
	while :; do
		rc=0
		apt-get -o DPkg::Lock::Timeout="$lock_timeout" "$@" 2> "$err" || rc=$?
		if [ $rc -eq 0 ] || ! grep -q 'Could not get lock\|Unable to lock\|Unable to acquire the dpkg' "$err"; then
			cat "$err" >&2
			return $rc
		fi
		waited=$(($(date +%s) - start))
		if [ $waited -ge "$lock_timeout" ]; then
			cat "$err" >&2
			echo "install-deps.sh: apt's lock was still held after $waited s (APT_LOCK_TIMEOUT=$lock_timeout): let the other apt finish, or see what holds it (the lines above), then run this again" >&2
			return $rc
		fi
		[ -n "${said:-}" ] || echo "install-deps.sh: another apt holds its lock ($(grep -m1 'held by' "$err" | sed 's/^E: //')); waiting for it, up to $lock_timeout s" >&2
		said=1
		sleep 5
	done
}
apt_get update -q
# shellcheck disable=SC2086
apt_get install -y -q --no-install-recommends $packages
