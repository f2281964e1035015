#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every generated trace in traces/ is what its line in traces/README.md makes,
# byte for byte: the bundled traces cannot drift from the generators.
REFAULT=${REFAULT:-./refault}
top_srcdir=${top_srcdir:-.}
readme="$top_srcdir/traces/README.md"
tmp=$(mktemp -d /tmp/test-gen-bundled.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The commands, one per line: the text between backquotes that starts with 'refault gen '.
grep -o '`refault gen [^`]*`' "$readme" | tr -d '`' >"$tmp/commands"
total=$(wc -l <"$tmp/commands")
if [ "$total" -eq 0 ]; then
	echo "1..0 # SKIP no refault gen command in $readme"
	exit 0
fi
echo "1..$total"
n=0
while read -r line; do
	n=$((n + 1))
	out=$(printf '%s\n' "$line" | sed -n 's/.* -o \(traces\/[^ ]*\).*/\1/p')
	name=${out#traces/}
	args=$(printf '%s\n' "$line" | sed 's/^refault gen //; s/ -o traces\/[^ ]*//')
	# shellcheck disable=SC2086 # the arguments are words
	if [ -n "$out" ] && "$REFAULT" gen $args -o "$tmp/$name" 2>"$tmp/err" &&
	   cmp -s "$tmp/$name" "$top_srcdir/$out"; then
		echo "ok $n - $out is what '$line' makes"
	else
		echo "not ok $n - $out is what '$line' makes"
		sed 's/^/# /' "$tmp/err"
		[ -e "$tmp/$name" ] && cmp "$tmp/$name" "$top_srcdir/$out" | sed 's/^/# /'
	fi
done <"$tmp/commands"
