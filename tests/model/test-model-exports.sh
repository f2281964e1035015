#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The installed librefault-model exports the functions model.h declares RF_API, and nothing else:
# none of the model's kernel-named internals (alloc_pages, xa_store, try_charge...).
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
so="$top_builddir/.libs/librefault-model.so"
echo "1..2"
if ! test -e "$so" || ! command -v nm >/dev/null 2>&1; then
	echo "ok 1 # SKIP no shared librefault-model (or no nm)"
	echo "ok 2 # SKIP no shared librefault-model (or no nm)"
	exit 0
fi
want=$(sed -n 's/^RF_API [^(]*[ *]\(rf_model_[a-z_]*\)(.*/\1/p' \
	"$top_srcdir/include/refault/model.h" | sort)
got=$(nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort)
if test -n "$want" && test "$got" = "$want"; then
	echo "ok 1 - exports the $(echo "$want" | wc -l) RF_API functions of model.h"
else
	echo "not ok 1 - exports differ from model.h's RF_API functions (- model.h, + exported):"
	tmp=$(mktemp -d)
	printf '%s\n' "$want" >"$tmp/model.h"
	printf '%s\n' "$got" >"$tmp/exported"
	diff "$tmp/model.h" "$tmp/exported" | sed -n 's/^[<>]/# &/p'
	rm -rf "$tmp"
fi
other=$(echo "$got" | grep -v '^rf_model_' | head -5 | tr '\n' ' ')
if test -z "$other"; then
	echo "ok 2 - no internal name exported"
else
	echo "not ok 2 - internal names exported: $other"
fi
