#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every installed library exports exactly the functions its installed headers declare with RF_API:
# nothing of its internals (the model's kernel-named functions: alloc_pages, xa_store,
# try_charge...; lib/'s helpers), and nothing documented that is missing.  Libraries are built with -fvisibility=hidden (include/refault/api.h).
. "$top_srcdir/tests/lib/tap.sh"

# api HEADER...: the names declared RF_API in the headers, sorted
api() {
	for h in "$@"; do
		sed -n 's/^RF_API[^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' "$top_srcdir/include/refault/$h"
	done | sort -u
}

# exports LIB: the functions the shared library exports, sorted
exports() {
	nm -D --defined-only "$top_builddir/.libs/$1.so" | awk '$2 == "T" { print $3 }' | sort -u
}

check_lib() {	# check_lib LIB HEADER...
	lib=$1
	shift
	if [ ! -e "$top_builddir/.libs/$lib.so" ]; then
		skip_test "$lib: no shared library in this build (--disable-shared?)"
		return
	fi
	api "$@" > "$tmp/api"
	exports "$lib" > "$tmp/exports"
	extra=$(comm -13 "$tmp/api" "$tmp/exports" | tr '\n' ' ')
	missing=$(comm -23 "$tmp/api" "$tmp/exports" | tr '\n' ' ')
	check "$lib exports nothing its headers do not declare RF_API${extra:+ (exports: $extra)}" \
		"test -z '$extra'"
	check "$lib exports every RF_API function of its headers${missing:+ (missing: $missing)}" \
		"test -z '$missing'"
	check "$lib exports $(wc -l < "$tmp/api") functions, at least one" "test -s '$tmp/api'"
}

command -v nm > /dev/null || { skip_all "no nm (binutils)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_lib librefault-trace errors.h trace.h trace-json.h
check_lib librefault-model model.h
done_testing
