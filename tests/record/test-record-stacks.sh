#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault record --call-graph dwarf on a real recording: workload-two-paths (built -O2 without
# frame pointers) re-reads a file that does not fit its memory cgroup through reread_big and a
# small one through read_hot, both through read_file.  The references must carry stacks that
# name those functions, most samples must unwind to the outermost frame, and the trace must say
# what it cost (counters source 4).  Bad --call-graph values are usage errors.
. "$top_srcdir/tests/record/lib.sh"
record_begin memcg
[ "$(uname -m)" = x86_64 ] || skip_all "user stacks are unwound on x86-64 only"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) ||
	skip_all "no perf events (/proc/sys/kernel/perf_event_paranoid)"
echo "1..11"
head -c 48M /dev/urandom > "$dir/big"
head -c 1M /dev/urandom > "$dir/hot"

"$REFAULT" record -o "$dir/s.rft" --memcg-limit 32M --call-graph dwarf -- \
	"$top_builddir/tests/record/workload-two-paths" "$dir/big" "$dir/hot" 3 2> "$dir/err"
tap $? "refault record --call-graph dwarf -- workload-two-paths exits 0 (perf_event_paranoid $paranoid)"
sed 's/^/# /' "$dir/err"
grep -q '^refault record: stacks: [0-9]* samples' "$dir/err"
tap $? "the summary says how many samples were taken, lost and unwound"

"$REFAULT" trace dump --json "$dir/s.rft" > "$dir/all.json" 2> "$dir/derr"
tap $? "the trace dumps"
# stacks.X=N of the recorder's counters (source 4)
counter() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["type"] == "counters" and e["source"] == 4:
        print(e["entries"][sys.argv[2]])' "$dir/all.json" "stacks.$1"
}
samples=$(counter samples) unwound=$(counter unwound) refs=$(counter refs)
without=$(counter refs_without) lost=$(counter lost)
echo "# samples $samples, lost $lost, unwound $unwound, references with a stack $refs, without $without"
[ -n "$samples" ] && [ "$samples" -gt 100 ]
tap $? "the recorder's counters are in the trace (samples $samples)"
# a sample lost is a reference without a stack, never one with another's
[ -n "$refs" ] && [ $((refs * 100)) -ge $(((refs + without - lost) * 90)) ]
tap $? "90 % or more of the references whose sample was not lost have a stack ($refs with, $without without, $lost lost)"
truncated=$(counter truncated) ufailed=$(counter failed)
tried=$((unwound + truncated + ufailed))
[ "$tried" -gt 0 ] && [ $((unwound * 100)) -ge $((tried * 90)) ]
tap $? "90 % or more of the samples unwind to the outermost frame without frame pointers ($unwound of $tried; $truncated truncated, $ufailed failed)"

python3 - "$dir/all.json" > "$dir/paths" <<'PY'
import json, sys
frames, stacks, count = {}, {}, {}
for l in open(sys.argv[1]):
    e = json.loads(l)
    t = e["type"]
    if t == "name_frame":
        frames[e["id"]] = e["symbol"] or "?"
    elif t == "name_stack":
        stacks[e["id"]] = [frames.get(f, "?") for f in e["frames"]]
    elif t == "file_read" and e.get("stack"):
        names = stacks.get(e["stack"], [])
        key = ">".join(n.split(".")[0] for n in reversed(names) if n.split(".")[0] in
                       ("main", "reread_big", "read_hot", "read_file"))
        count[key] = count.get(key, 0) + 1
for k in sorted(count):
    print(count[k], k)
PY
sed 's/^/# /' "$dir/paths"
grep -q ' main>reread_big>read_file$' "$dir/paths"
tap $? "file reads name the stack main > reread_big > read_file"
grep -q ' main>read_hot>read_file$' "$dir/paths"
tap $? "and main > read_hot > read_file"

# A command that is gone before the recorder unwinds its samples: its mappings come from the
# kernel's PERF_RECORD_MMAP2 records, not /proc.
"$REFAULT" record -q -o "$dir/dd.rft" --call-graph dwarf -- \
	dd if="$dir/hot" of=/dev/null bs=64k status=none 2> "$dir/err3"
tap $? "refault record --call-graph dwarf -- dd (a short command) exits 0"
"$REFAULT" trace dump --json "$dir/dd.rft" | python3 -c 'import json, sys
ino = int(sys.argv[1])
frames, stacks, n, named = {}, {}, 0, 0
for l in sys.stdin:
    e = json.loads(l)
    if e["type"] == "name_frame":
        frames[e["id"]] = e["dso"] or ""
    elif e["type"] == "name_stack":
        stacks[e["id"]] = [frames.get(f, "") for f in e["frames"]]
    elif e["type"] == "file_read" and e["ino"] == ino:
        n += 1
        # libc read() called from dd itself
        s = stacks.get(e.get("stack", 0), [])
        named += any("libc" in d for d in s) and any(d.endswith("/dd") for d in s)
print(n, named)' "$(stat -c %i "$dir/hot")" > "$dir/dd.count"
read -r ddn ddnamed < "$dir/dd.count"
[ "${ddn:-0}" -gt 0 ] && [ $((ddnamed * 100)) -ge $((ddn * 90)) ]
tap $? "90 % or more of its reads of the file have a stack from dd through libc ($ddnamed of $ddn)"

"$REFAULT" record -o "$dir/x.rft" --call-graph fp -- true 2> "$dir/err2"
rc=$?
[ $rc -eq 2 ] && grep -q 'only dwarf' "$dir/err2"
tap $? "--call-graph fp is a usage error naming what is supported (exit $rc)"
exit $failed
