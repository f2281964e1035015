#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace verify`: exit 0 only for a whole trace; damage named by chunk and offset.
. "$(dirname "$0")/trace-lib.sh"
plan 9
make_big
rt verify "$TMP/big.trace" > "$TMP/out"; ok $? "a whole trace verifies (exit 0)"
grep -q "whole: 11 chunks, 1010 events" "$TMP/out"; ok $? "and says how many chunks and events"

# Cut at every chunk boundary, in the middle of every chunk, and inside the index.
size=$(stat -c %s "$TMP/big.trace")
rt info --chunks "$TMP/big.trace" | awk '/^chunk list:/ { on = 1; next }
	on && $1 ~ /^[0-9]+$/ { print $2; print $2 + int($3 / 2) }' > "$TMP/cuts"
echo $((size - 10)) >> "$TMP/cuts"
bad=0 n=0
while read -r off; do
	head -c "$off" "$TMP/big.trace" > "$TMP/cut.trace"
	rt verify "$TMP/cut.trace" > /dev/null 2>&1
	rc=$?
	n=$((n + 1))
	if [ $rc -ne 1 ]; then bad=$((bad + 1)); diag "cut at $off: exit $rc"; fi
done < "$TMP/cuts"
is "$bad" 0 "each of $n truncations (chunk boundaries, mid-chunk, index) exits 1"
off=$(chunk_field "$TMP/big.trace" 5 offset)
head -c $((off + 20)) "$TMP/big.trace" > "$TMP/cut.trace"
rt verify "$TMP/cut.trace" 2> "$TMP/err"
grep -q "chunk 5 at offset $off: truncated" "$TMP/err"; ok $? "truncation: message names chunk and offset"
cp "$TMP/big.trace" "$TMP/flip.trace"
off=$(chunk_field "$TMP/big.trace" 3 offset)
# a byte in the middle of chunk 3's compressed data (not its frame header)
printf '\377' | dd of="$TMP/flip.trace" bs=1 seek=$((off + 50)) conv=notrunc 2>/dev/null
rt verify "$TMP/flip.trace" 2> "$TMP/err"; is $? 1 "a flipped byte inside a chunk: exit 1"
grep -q "chunk 3 at offset $off" "$TMP/err"; ok $? "flipped byte: message names chunk and offset"
rt verify -q "$TMP/flip.trace" > "$TMP/out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ ! -s "$TMP/out" ]; ok $? "-q: exit 1 and nothing printed"
echo "not a trace" > "$TMP/junk"
rt verify "$TMP/junk" 2> "$TMP/err"; is $? 1 "not a trace: exit 1"
# drop the index and footer: what follows the last chunk
off=$(chunk_field "$TMP/big.trace" 10 offset)
head -c $((off + $(chunk_field "$TMP/big.trace" 10 size))) "$TMP/big.trace" > "$TMP/noidx.trace"
rt verify "$TMP/noidx.trace" 2>&1 | grep -q "no index"; ok $? "a trace without index is not whole"
finish
