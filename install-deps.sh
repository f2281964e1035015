#!/bin/sh
# Install what refault needs to build on Debian 12 (run as root).
# With --test, also what the tests use: an independent msgpack decoder, clang for the fuzz target,
# chromium to load the HTML report in a real browser, sudo for the recorder's privilege tests,
# groff (groff-base) to render the manual pages, and GNU parallel for the sweeps' engine.
# With --slurm, a single-node Slurm for make check-sweeps (the test starts it itself).
# With --lab, also what the kernel lab (make check-kernels, tests/kernels/) boots guests with:
# qemu, a static busybox for their initramfs, cpio, kmod (depmod), e2fsprogs.
set -e
packages="
	build-essential autoconf automake libtool pkg-config
	libzstd-dev zstd libmsgpack-dev liburcu-dev libunwind-dev libdw-dev libjson-c-dev
	libtracefs-dev libtraceevent-dev libbpf-dev python3
"
for arg in "$@"; do
	case $arg in
	--test) packages="$packages python3-msgpack clang chromium sudo groff-base parallel";;
	--slurm) packages="$packages slurmctld slurmd slurm-client munge";;
	--lab) packages="$packages qemu-system-x86 busybox-static cpio kmod e2fsprogs";;
	*) echo "install-deps.sh: unknown option '$arg' (--test, --slurm, --lab)" >&2; exit 2;;
	esac
done
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $packages
