#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Out of memory is not damage: under a small address-space limit (ulimit -v), trace verify and
# slice said a whole trace was damaged, with an empty reason, and slice wrote an empty trace.
# Now they say memory ran out, give no verdict on the trace, and write nothing.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nomem.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$REFAULT" gen lru-file-readtwice --mem 256M -o "$tmp/t.rft" > /dev/null 2>&1
# sanitizer builds reserve terabytes of address space and cannot start under a limit at all
if ! (ulimit -v 400000 && "$REFAULT" --version) > /dev/null 2>&1; then
	skip_all "refault does not start under ulimit -v (a sanitizer build?)"
	exit 0
fi
seen=0 bad=0
for kib in 8000 10000 12000 14000 16000 20000 24000 32000; do
	(ulimit -v $kib && "$REFAULT" trace verify "$tmp/t.rft") > /dev/null 2> "$tmp/err" && continue
	grep -q "out of memory" "$tmp/err" || continue	# could not even start: says so itself
	seen=$((seen + 1))
	if grep -q "NOT whole\|bytes): *$\|offset [0-9]*: *$" "$tmp/err"; then
		bad=$((bad + 1))
		sed 's/^/# /' "$tmp/err"
	fi
	rm -f "$tmp/s.rft"
	(ulimit -v $kib && "$REFAULT" trace slice "$tmp/t.rft" -o "$tmp/s.rft" --from 0) > /dev/null 2> "$tmp/serr"
	if [ -e "$tmp/s.rft" ] && ! "$REFAULT" trace verify -q "$tmp/s.rft" 2>/dev/null; then
		bad=$((bad + 1))
		echo "# slice at ulimit -v $kib wrote a trace that does not verify"
	fi
done
if [ $seen -eq 0 ]; then
	skip_test "no limit made verify run out of memory on this machine"
else
	check "out of memory under $seen limits: said so, no verdict on the trace, no empty slice" "[ $bad -eq 0 ]"
fi
done_testing
