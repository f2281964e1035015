#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace info` reports the numbers of a small hand-written trace exactly.
. "$(dirname "$0")/trace-lib.sh"
plan 17
make_small
ok $? "a hand-written JSONL file converts to a trace"
out=$(rt info "$TMP/small.trace"); ok $? "info exits 0 on a whole trace"
is "$(echo "$out" | sed -n 's/^events: *//p')" 13 "13 events"
is "$(echo "$out" | sed -n 's/^lost events: *//p')" 20 "lost events are the sum of the lost counts (17 + 3)"
is "$(echo "$out" | sed -n 's/^duration: *//p')" "2.500000000 s" "duration from the first to the last event"
is "$(echo "$out" | sed -n 's/^  file_read *//p')" 2 "per type: 2 file_read"
is "$(echo "$out" | sed -n 's/^  reference *//p')" 5 "per class: 5 references"
is "$(echo "$out" | sed -n 's/^index: *//p')" present "the index is present"
size=$(stat -c %s "$TMP/small.trace")
is "$(echo "$out" | sed -n 's/^bytes\/event: *//p')" "$(awk "BEGIN { printf \"%.3f\", $size / 13 }")" \
	"bytes/event is the file size over the events"
if have_python; then
	is "$(info_field "$TMP/small.trace" per_type.access)" 2 "--json: per_type.access"
	is "$(info_field "$TMP/small.trace" header.producer)" hand "--json: the header's producer"
else
	skip "no python3"; skip "no python3"
fi
# the recorder's counts of --call-graph (counters source 4) on a stacks: line
printf '%s\n' '{"t":1,"cpu":0,"pid":0,"type":"counters","source":4,"cgroup":0,"entries":{"stacks.samples":9,"stacks.lost":2,"stacks.unwound":6,"stacks.failed":1,"stacks.refs":7,"stacks.refs_without":3}}' \
	> "$TMP/st.jsonl"
rt convert "$TMP/st.jsonl" "$TMP/st.trace" 2> /dev/null
is "$(rt info "$TMP/st.trace" | sed -n 's/^stacks: *//p')" \
	"9 samples, 2 lost; 6 unwound to the outermost frame, 1 failed; 7 of 10 references with one" \
	"a stacks: line from the recorder's counters"
is "$(rt info "$TMP/small.trace" | grep -c '^stacks:')" 0 "none without them"
# A recording's end record counts the events before it, as record's summary does: "events" says
# the same number (it used to count the end record too), bytes/event divides by it.
{ cat "$DATA/small.jsonl"
  printf '%s\n' '{"t":3600000000,"cpu":0,"pid":0,"type":"end","nr_events":13,"nr_lost":20}'; } \
	> "$TMP/end.jsonl"
rt convert "$TMP/end.jsonl" "$TMP/end.trace" 2> /dev/null
out=$(rt info "$TMP/end.trace")
is "$(echo "$out" | sed -n 's/^events: *//p') / $(echo "$out" | sed -n 's/^end record: *//p')" \
	"13 / 13 events, 20 lost" "with an end record: events leaves it out, and agrees with its count"
size=$(stat -c %s "$TMP/end.trace")
is "$(echo "$out" | sed -n 's/^bytes\/event: *//p')" "$(awk "BEGIN { printf \"%.3f\", $size / 13 }")" \
	"... bytes/event over the same 13"
is "$(echo "$out" | sed -n 's/^  end  *//p') $(echo "$out" | sed -n 's/^  meta  *//p')" "1 4" \
	"... the per-type and per-class counts list it (end 1; meta 4: two lost, the marker and it)"
make_big
off=$(chunk_field "$TMP/big.trace" 5 offset)
head -c $((off + 20)) "$TMP/big.trace" > "$TMP/cut.trace"
rt info "$TMP/cut.trace" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q '^events: *500$' "$TMP/out" && grep -q 'chunk 5 at offset' "$TMP/err"
ok $? "a truncated trace: exit 1, the complete chunks counted, the damage named (chunk, offset)"
finish
