#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# ./configure --enable-werror after a plain build rebuilds the objects, with -Werror: the flags are
# in build-flags.h, which every compile includes, so a configure with other flags changes a
# prerequisite of every object (it used to recompile nothing, and -Werror never saw the libraries).
# The same flags again rebuild nothing.  A scratch build directory, two objects: one source that
# includes config.h (lib/outfile.c), one that does not (lib/html.c).
. "$(dirname "$0")/trace-lib.sh"
plan 4
make="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make}"
if [ ! -x "$top_srcdir/configure" ] || [ -f "$top_srcdir/config.status" ]; then
	for i in 1 2 3 4; do skip "no configure, or the source tree is configured in place"; done
	finish
fi
objs="lib/outfile.lo lib/html.lo"
cd "$TMP" || exit 1
timeout 300 "$top_srcdir/configure" -q > cfg.log 2>&1 &&
	timeout 300 $make $objs > make1.log 2>&1
st=$?
[ $st -eq 0 ] || sed 's/^/# /' cfg.log make1.log | tail -20
ok $st "a plain configure, and its objects built"
timeout 300 "$top_srcdir/configure" -q --enable-werror > cfg.log 2>&1 &&
	timeout 300 $make V=1 $objs > make2.log 2>&1
st=$?
[ $st -eq 0 ] || sed 's/^/# /' cfg.log make2.log | tail -20
ok $st "configured again with --enable-werror, make runs"
n=$(grep -c -- '--mode=compile .* -Werror .*lib/\(outfile\|html\)\.c' make2.log)
[ "$n" -eq 2 ]
ok $? "... and compiles both objects again, with -Werror ($n of 2)"
timeout 60 ./config.status > cfg.log 2>&1 && timeout 300 $make V=1 $objs > make3.log 2>&1 &&
	! grep -q -- '--mode=compile' make3.log
ok $? "the same flags again (config.status): nothing is compiled"
finish
