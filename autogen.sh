#!/bin/sh
# Regenerate the build system (configure, Makefile.in) from a git checkout.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
