#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A trace written in format 1.0 (the bundled noswap-pageout trace as refault 0.1 wrote it, before
# format 2.0's pfn/address/time registers) still reads, event for event, as the same generator
# command writes it today (format 3.0's columns): old traces carried home stay usable.
: "${REFAULT:?}" "${top_srcdir:?}"
old="$top_srcdir/tests/format/compat-1.0-noswap-pageout.rft"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/refault-compat.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
n=0
check() {
	n=$((n + 1))
	name=$1
	shift
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}
"$REFAULT" trace info "$old" >"$tmp/info" 2>&1
check "the 1.0 trace is reported as format 1.0" grep -q '^format: *refault-trace 1\.0' "$tmp/info"
"$REFAULT" trace verify "$old" >"$tmp/verify" 2>&1
check "the 1.0 trace verifies (index, checksums, every chunk)" test $? -eq 0
"$REFAULT" gen noswap-pageout --mem 64M --cpus 4 -o "$tmp/new.rft" 2>/dev/null
"$REFAULT" trace info "$tmp/new.rft" >"$tmp/info2" 2>&1
check "today's writer writes format 3" grep -q '^format: *refault-trace 3\.' "$tmp/info2"
"$REFAULT" trace dump --json "$old" >"$tmp/old.jsonl" 2>"$tmp/old.err" &&
	"$REFAULT" trace dump --json "$tmp/new.rft" >"$tmp/new.jsonl" 2>"$tmp/new.err"
dumped=$?
check "the 1.0 trace decodes to the same $(wc -l <"$tmp/old.jsonl") events as its 3.0 rewrite" \
	sh -c "test $dumped -eq 0 && test \$(wc -l <'$tmp/old.jsonl') -eq 16400 &&
	       cmp -s '$tmp/old.jsonl' '$tmp/new.jsonl'"
