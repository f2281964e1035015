#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace dump`: text and JSON lines, and every filter.
. "$(dirname "$0")/trace-lib.sh"
plan 22
make_small && make_big
ok $? "test traces made"
count() { rt dump "$@" | wc -l; }
is "$(count "$TMP/small.trace")" 13 "all events, one line each"
is "$(rt dump "$TMP/small.trace" | sed -n 6p)" \
	"     1.000001000 [001]    200 file_read      dev=8:1 ino=12 index=0 nr=4 comm=\"reader\" file=\"/data/a\"" \
	"text line: time s.ns, cpu, pid, type, fields, names"
is "$(count "$TMP/small.trace" --type file_read,access)" 4 "--type with two types"
is "$(count "$TMP/small.trace" --class meta)" 3 "--class meta"
is "$(count "$TMP/small.trace" --pid 200)" 6 "--pid: its events, and the fork that names it"
is "$(count "$TMP/small.trace" --cgroup 7 --class reference)" 3 \
	"--cgroup: references of the task attached to it"
is "$(count "$TMP/small.trace" --cgroup 1 --class reference)" 3 "--cgroup includes descendants"
is "$(count "$TMP/small.trace" --from 2 --to 3)" 4 "--from/--to in seconds, inclusive"
is "$(count "$TMP/small.trace" --from +1.5s)" 4 "--from relative to the first event"
is "$(count "$TMP/big.trace" --from 1.5005 --to 1.7 --no-names)" 202 "--from/--to across chunks (seek)"
is "$(rt dump "$TMP/big.trace" --from 1.5005 --limit 1 --no-names | awk '{print $1}')" 1.501000000 \
	"--from seeks to the first event at or after the time"
is "$(count "$TMP/big.trace" --limit 7)" 7 "--limit"
cp "$TMP/big.trace" "$TMP/flip.trace"
off=$(chunk_field "$TMP/big.trace" 3 offset)
printf '\377' | dd of="$TMP/flip.trace" bs=1 seek=$((off + 50)) conv=notrunc 2>/dev/null
n=$(rt dump "$TMP/flip.trace" 2> "$TMP/err" | wc -l)
[ "$n" -eq 300 ] && grep -q "chunk 3 at offset $off" "$TMP/err"
ok $? "damage: the 300 events before it are printed, then chunk and offset named"
rt dump "$TMP/flip.trace" --skip-damaged > "$TMP/out" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$TMP/out")" -eq 910 ]
ok $? "--skip-damaged: the 910 events of the other chunks, and exit 1"
# No index and the first chunk damaged: --from found nothing to seek to and printed nothing, exit 0.
last_off=$(chunk_field "$TMP/big.trace" 10 offset)
last_size=$(chunk_field "$TMP/big.trace" 10 size)
head -c $((last_off + last_size)) "$TMP/big.trace" > "$TMP/noidx.trace"
off=$(chunk_field "$TMP/big.trace" 0 offset)
printf '\377\377\377\377' | dd of="$TMP/noidx.trace" bs=1 seek=$((off + 50)) conv=notrunc 2>/dev/null
rt dump "$TMP/noidx.trace" --from 1.5005 --no-names > "$TMP/out" 2> "$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "chunk 0 at offset $off" "$TMP/err" && grep -q "no index" "$TMP/err"
ok $? "no index, first chunk damaged: --from fails naming the damage, not an empty success"
rt dump "$TMP/noidx.trace" --from 1.5005 --skip-damaged --no-names > "$TMP/out" 2>/dev/null; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$TMP/out")" -eq 505 ]
ok $? "... and with --skip-damaged reads past it: the 505 events from then on, exit 1"
if have_python; then
	rt dump --json "$TMP/small.trace" | "$PYTHON3" -c 'import json, sys
evs = [json.loads(l) for l in sys.stdin]
assert len(evs) == 13 and evs[5] == {"t": 1000001000, "cpu": 1, "pid": 200, "type": "file_read",
	"dev": 8388609, "ino": 12, "index": 0, "nr": 4}, evs[5]'
	ok $? "--json: one JSON object per line with every field"
else
	skip "no python3"
fi
line=$(rt dump "$TMP/small.trace" --type file_read --limit 1)
is "${line#*nr=4 }" 'comm="reader" file="/data/a"' \
	"names: the thread's command (exec) and the file's path (name_file), as perf script"
is "$(rt dump "$TMP/small.trace" --type cgroup_attach | sed 's/.* memcg=//')" '"/job"' \
	"names: the memory cgroup's path (cgroup_mkdir)"
is "$(rt dump "$TMP/small.trace" --type file_read --limit 1 --no-names | sed 's/.*nr=4//')" "" \
	"--no-names: the event's own fields only"
is "$(rt dump "$TMP/small.trace" --from 2.5 --type file_read | sed 's/.*nr=2 //')" 'comm="reader" file="/data/a"' \
	"--from: the names given before it are known (it reads from the start)"
finish
