#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace recover` keeps every complete chunk of a truncated or damaged trace.
. "$(dirname "$0")/trace-lib.sh"
plan 10
make_big
events() { rt info "$1" 2>/dev/null | sed -n 's/^events: *//p'; }

# Cut in the middle of chunk 6: chunks 0-5 (600 events) are complete.
off=$(chunk_field "$TMP/big.trace" 6 offset)
size=$(chunk_field "$TMP/big.trace" 6 size)
head -c $((off + size / 2)) "$TMP/big.trace" > "$TMP/cut.trace"
is "$(rt dump "$TMP/cut.trace" 2>/dev/null | wc -l)" 600 "dump of the cut trace prints the 600 events before the cut"
rt recover "$TMP/cut.trace" > "$TMP/out" 2> "$TMP/err"; ok $? "recover exits 0"
is "$(events "$TMP/cut.trace.recovered")" 600 "the default output TRACE.recovered holds all 600"
rt verify "$TMP/cut.trace.recovered" > /dev/null 2>&1; ok $? "the recovered trace verifies whole (fresh index)"
grep -q "$((size / 2)) bytes after the last good chunk (offset $off) not recovered" "$TMP/out"
ok $? "the report says how many bytes were lost and where"
rt dump --json "$TMP/cut.trace.recovered" > "$TMP/a"
rt dump --json "$TMP/big.trace" --limit 600 > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b"; ok $? "the recovered events are the original first 600"

# A flipped byte in chunk 3: that chunk alone is lost.
cp "$TMP/big.trace" "$TMP/flip.trace"
off=$(chunk_field "$TMP/big.trace" 3 offset)
printf '\377' | dd of="$TMP/flip.trace" bs=1 seek=$((off + 50)) conv=notrunc 2>/dev/null
rt recover "$TMP/flip.trace" -o "$TMP/flip.rec" > /dev/null 2> "$TMP/err"
is "$(events "$TMP/flip.rec")" 910 "a damaged chunk in the middle: the 10 others are kept (910 events)"
grep -q "chunk 3 at offset $off" "$TMP/err"; ok $? "the skipped chunk is named with its offset"
rt recover "$TMP/flip.trace" -o "$TMP/flip.rec" 2>/dev/null | grep -q "100 of the 1010 events the old index lists were lost"
ok $? "with the old index, the report counts the events lost"

head -c 100 "$TMP/big.trace" > "$TMP/tiny.trace"
rt recover "$TMP/tiny.trace" -o "$TMP/tiny.rec" > /dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && [ ! -e "$TMP/tiny.rec" ]; ok $? "nothing recoverable: exit 1 and no output file"
finish
