#!/bin/sh
# Install what refault needs to build on Debian 12 (run as root).
# With --test, also what the tests use: an independent msgpack decoder, clang for the fuzz target,
# chromium to load the HTML report in a real browser, sudo for the recorder's privilege tests,
# and groff (groff-base) to render the manual pages.
set -e
packages="
	build-essential autoconf automake libtool pkg-config
	libzstd-dev zstd libmsgpack-dev liburcu-dev libunwind-dev libjson-c-dev
	libtracefs-dev libtraceevent-dev libbpf-dev python3
"
if [ "${1:-}" = --test ]; then
	packages="$packages python3-msgpack clang chromium sudo groff-base"
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (apt-get install)" >&2
	exit 1
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $packages
