#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Format 2.1 appended `list` to `reclaim` (which LRU list a scan was of).  A 2.0 trace, whose
# reclaim events have nine fields (the bundled validate-hot recording), still reads, each of them
# with list 0 ("not said"), and so does 2.0 JSON without the field; what today's writer writes
# says 3.0 and carries the list through msgpack and JSON.
: "${REFAULT:?}" "${top_srcdir:?}"
old="$top_srcdir/traces/validate-hot.rft"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/refault-compat2.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "1..11"
n=0
check() {
	n=$((n + 1))
	name=$1
	shift
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}
"$REFAULT" trace info "$old" >"$tmp/info" 2>&1
check "the bundled trace is format 2.0" grep -q '^format: *refault-trace 2\.0$' "$tmp/info"
"$REFAULT" trace dump --json --type reclaim "$old" >"$tmp/old.jsonl" 2>"$tmp/old.err"
dumped=$?
check "its $(wc -l <"$tmp/old.jsonl") reclaim events decode, each with list 0" \
	sh -c "test $dumped -eq 0 && test \$(wc -l <'$tmp/old.jsonl') -eq 383 &&
	       test \$(grep -c '\"list\":0}\$' '$tmp/old.jsonl') -eq 383"
"$REFAULT" validate "$old" >"$tmp/validate" 2>&1
st=$?
check "validate reads it (exit 0 or 3, got $st)" test $st -eq 0 -o $st -eq 3
# 2.0 JSON (no "list") and 2.1 JSON (list 2) through today's writer and back
"$REFAULT" trace convert "$old" "$tmp/all.jsonl" 2>"$tmp/conv.err"
{
	head -n 1 "$tmp/all.jsonl"
	sed -n 1p "$tmp/old.jsonl" | sed 's/,"list":0}$/}/'
	sed -n 2p "$tmp/old.jsonl" | sed 's/"list":0}$/"list":2}/'
} >"$tmp/mixed.jsonl"
"$REFAULT" trace convert "$tmp/mixed.jsonl" "$tmp/new.rft" 2>"$tmp/new.err"
check "JSON without \"list\" converts" test $? -eq 0
"$REFAULT" trace info "$tmp/new.rft" >"$tmp/info2" 2>&1
check "today's writer writes format 3.4 (2.1's list, 2.2's header cgroup, 2.3's lru_gen, 2.4's lru_gen counters, 2.5's damon_region, 2.6's stacks; 3.0's columns; 3.1's recording.pfns; 3.2's pte_young; 3.3's file_sync; 3.4's file_write order)" grep -q '^format: *refault-trace 3\.4$' "$tmp/info2"
"$REFAULT" trace dump --json "$tmp/new.rft" 2>/dev/null | grep -o '"list":[0-9]*' >"$tmp/lists"
check "the lists read back: 0 where the JSON had none, 2 where it said so" \
	sh -c "test \"\$(tr '\n' ' ' <'$tmp/lists')\" = '\"list\":0 \"list\":2 '"
# Format 2.6 for a 2.x reader: the whole 2.0 trace through --format-version 2 and back to 3.0.
"$REFAULT" trace convert "$old" "$tmp/as26.rft" --format-version 2 2>"$tmp/c26.err" &&
	"$REFAULT" trace info "$tmp/as26.rft" >"$tmp/info3" 2>&1
check "trace convert --format-version 2 writes format 2.6" grep -q '^format: *refault-trace 2\.6$' "$tmp/info3"
"$REFAULT" trace convert "$tmp/as26.rft" "$tmp/as30.rft" 2>>"$tmp/c26.err"
"$REFAULT" trace dump --json "$tmp/as26.rft" > "$tmp/as26.jsonl" 2>>"$tmp/c26.err"
"$REFAULT" trace dump --json "$tmp/as30.rft" > "$tmp/as30.jsonl" 2>>"$tmp/c26.err"
check "the 2.6 and 3.0 rewrites of the 2.0 trace hold the same $(wc -l <"$tmp/as30.jsonl") events" \
	sh -c "test \$(wc -l <'$tmp/as30.jsonl') -gt 50000 && cmp -s '$tmp/as26.jsonl' '$tmp/as30.jsonl'"
# 3.4 appended `order` to file_write (the folio the write dirtied); a 2.6 event array keeps 2.6's
# fields, so a 2.x reader still reads it, and the order reads back as 0 from it
{
	head -n 1 "$tmp/all.jsonl"
	echo '{"t":1000,"cpu":0,"pid":1,"type":"file_write","dev":3,"ino":7,"index":16,"nr":16,"order":4}'
} >"$tmp/w.jsonl"
"$REFAULT" trace convert "$tmp/w.jsonl" "$tmp/w34.rft" 2>"$tmp/w.err" &&
	"$REFAULT" trace convert "$tmp/w.jsonl" "$tmp/w26.rft" --format-version 2 2>>"$tmp/w.err"
"$REFAULT" trace dump --json "$tmp/w34.rft" 2>>"$tmp/w.err" | grep file_write >"$tmp/w34.txt"
"$REFAULT" trace dump --json "$tmp/w26.rft" 2>>"$tmp/w.err" | grep file_write >"$tmp/w26.txt"
check "a file_write's order reads back from format 3.4" grep -q '"nr":16,"order":4' "$tmp/w34.txt"
check "... and as 0 from format 2.6, its other fields as they were" grep -q '"index":16,"nr":16,"order":0' "$tmp/w26.txt"
"$REFAULT" trace convert "$old" "$tmp/x.rft" --format-version 1 2>"$tmp/c1.err"
check "--format-version 1 is a usage error (exit 2)" sh -c "test $? -eq 2 && grep -q 'format-version' '$tmp/c1.err'"
