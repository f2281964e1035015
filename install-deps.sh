#!/bin/sh
# Install what refault needs to build and test on Debian 12 (run as root).
set -e
packages="
	build-essential autoconf automake libtool pkg-config
	libzstd-dev zstd libmsgpack-dev liburcu-dev libunwind-dev libjson-c-dev
	libtracefs-dev libtraceevent-dev
	python3 python3-msgpack clang
"
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $packages
