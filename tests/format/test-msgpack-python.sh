#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The trace format is plain zstd + msgpack: `zstd -dc FILE` piped into an independent msgpack decoder
# (python3-msgpack, not msgpack-c) yields the header map, then per chunk a header map and its events,
# with counts that match what the library wrote.  The index and footer are skippable frames zstd drops.
# Then the 2.0 delta rules of docs/trace-format.md, implemented here from the document alone (dt in
# time units, the pfn register, one address register per mm slot), decode a trace that python
# wrote as JSON lines and `refault trace convert` encoded: every field comes back as written.
set -u
builddir=${top_builddir:-.}
writer=$builddir/tests/format/write-sample

py=
for cand in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$cand" ] && command -v "$cand" >/dev/null 2>&1 || continue
	if "$cand" -c 'import msgpack' 2>/dev/null; then py=$cand; break; fi
done
if [ -z "$py" ]; then
	echo "1..0 # SKIP python3 with the msgpack module not found (apt-get install python3-msgpack)"
	exit 0
fi
if ! command -v zstd >/dev/null 2>&1; then
	echo "1..0 # SKIP the zstd command is not installed (apt-get install zstd)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..8"
n=0
check() { # check DESCRIPTION COMMAND...
	desc=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/out" 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; sed 's/^/# /' "$tmp/out"; fi
}

check "write-sample writes 1234 events in chunks of 100" "$writer" -n 1234 -c 100 "$tmp/t.rft"
check "zstd -dc decodes every frame (index and footer are skipped)" sh -c "zstd -dcq '$tmp/t.rft' > '$tmp/t.mp'"
check "zstd -t verifies every frame's checksum" zstd -tq "$tmp/t.rft"

cat >"$tmp/check.py" <<'PY'
import sys, msgpack
data = open(sys.argv[1], "rb").read()
want_events, want_chunks, what = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
u = msgpack.Unpacker(raw=False, strict_map_key=False)
u.feed(data)
objs = list(u)
hdr = objs[0]
if what == "header":
    assert isinstance(hdr, dict), "first object is not a map"
    assert hdr["format"] == "refault-trace", hdr.get("format")
    assert hdr["version"][0] == 2, hdr["version"]
    assert hdr["time_resolution"] == 1, hdr.get("time_resolution")
    assert hdr["producer"] == "write-sample", hdr["producer"]
    assert "host" in hdr and "recording" in hdr
    sys.exit(0)
chunks, events, seq, i = 0, 0, 0, 1
while i < len(objs):
    ch = objs[i]
    assert isinstance(ch, dict) and "chunk" in ch, "object %d is not a chunk header: %r" % (i, ch)
    assert ch["chunk"] == chunks, "chunk number %r, want %d" % (ch["chunk"], chunks)
    i += 1
    n = 0
    while i < len(objs) and isinstance(objs[i], list):
        ev = objs[i]
        assert len(ev) >= 4 and all(isinstance(x, int) for x in ev[:4]), ev
        n += 1
        i += 1
    assert n == ch["n"], "chunk %d declares %d events, holds %d" % (chunks, ch["n"], n)
    chunks += 1
    events += n
if what == "counts":
    assert (chunks, events) == (want_chunks, want_events), (chunks, events)
elif what == "times":
    # dt deltas restart at every chunk's base time; summing them gives the sample times (i * 1000 + 1)
    t, k, idx, tu = 0, 0, 0, 1
    for o in objs[1:]:
        if isinstance(o, dict):
            t, tu = o["t"], o.get("tu", 1)
            continue
        t += o[1] * tu
        assert t == k * 1000 + 1, "event %d at %d" % (k, t)
        k += 1
PY
check "the first object is the header map naming format refault-trace 2.x, time resolution 1 ns" "$py" "$tmp/check.py" "$tmp/t.mp" 0 0 header
check "13 chunks, each a header map {chunk, t, n} then n event arrays, 1234 events in all" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 counts
check "event times decode from the per-chunk deltas to the times written" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 times

# 2.0 deltas: python writes events as JSON lines, refault encodes them, python decodes the msgpack.
cat >"$tmp/mk.py" <<'PY'
import json, random
random.seed(5)
print(json.dumps({"format": "refault-trace", "version": [2, 0], "producer": "python",
                  "clock": "mono", "time_resolution": 1000}))
t = 10**9 + 7
for i in range(3000):
    t += random.choice([0, 3, 250, 999, 1000, 1001, 15000, 123456])
    k = i % 5
    if k == 0:
        pfn = random.randrange(1 << 21) if i % 3 else 0x100000 + i
        e = {"type": "lru_add", "pfn": pfn, "order": 0, "lru": 2, "cgroup": 9}
    elif k == 1:
        e = {"type": "lru_activate", "pfn": random.randrange(1 << 40), "order": 1}
    elif k in (2, 3):  # mm 17 and 33 share a slot (mod 16), 1 << 40 and 5 do not
        e = {"type": "anon_fault", "mm": random.choice([17, 33, 5, 1 << 40]),
             "addr": random.randrange(1 << 47) & ~4095, "order": 0, "flags": 1}
    else:
        e = {"type": "pagecache_del", "dev": 8, "ino": 12, "index": i, "order": 0,
             "pfn": (1 << 64) - 1 - i}
    print(json.dumps(dict({"t": t, "cpu": i % 2, "pid": 7}, **e)))
PY
cat >"$tmp/dec.py" <<'PY'
import sys, json, msgpack
# the fields of these types after [type, dt, cpu, pid], as docs/trace-format.md lists them
FIELDS = {50: ["pfn", "order", "lru", "cgroup"], 51: ["pfn", "order"],
          4: ["mm", "addr", "order", "flags"], 49: ["dev", "ino", "index", "order", "pfn"]}
NAMES = {50: "lru_add", 51: "lru_activate", 4: "anon_fault", 49: "pagecache_del"}
M64 = (1 << 64) - 1
lines = [json.loads(l) for l in open(sys.argv[2])]
res = lines[0]["time_resolution"]
want = lines[1:]
u = msgpack.Unpacker(raw=False, strict_map_key=False)
u.feed(open(sys.argv[1], "rb").read())
objs = list(u)
assert objs[0]["version"][0] == 2 and objs[0]["time_resolution"] == res, objs[0]
got = []
for o in objs[1:]:
    if isinstance(o, dict):  # a chunk: every register starts again
        assert o.get("enc") == 2 and o.get("tu") == res, o
        t, tu, pfn, index, addr = o["t"], o["tu"], 0, 0, [0] * 16
        continue
    t += o[1] * tu
    e = {"t": t, "cpu": o[2], "pid": o[3], "type": NAMES[o[0]]}
    e.update(zip(FIELDS[o[0]], o[4:]))
    if "pfn" in e:
        pfn = (pfn + e["pfn"]) & M64
        e["pfn"] = pfn
    if "index" in e:
        index = (index + e["index"]) & M64
        e["index"] = index
    if o[0] == 4:
        s = e["mm"] % 16
        addr[s] = (addr[s] + e["addr"]) & M64
        e["addr"] = addr[s]
    got.append(e)
assert len(got) == len(want), (len(got), len(want))
for g, w in zip(got, want):
    w = dict(w, t=w["t"] // res * res)
    assert g == w, "decoded %r, wrote %r" % (g, w)
PY
if [ -z "${REFAULT:-}" ]; then
	echo "ok 7 # SKIP \$REFAULT not set"
	echo "ok 8 # SKIP \$REFAULT not set"
	exit 0
fi
"$py" "$tmp/mk.py" > "$tmp/d.jsonl"
check "refault trace convert encodes python's JSON lines (time resolution 1000 ns)" \
	sh -c "'$REFAULT' trace convert '$tmp/d.jsonl' '$tmp/d.rft' && zstd -dcq '$tmp/d.rft' > '$tmp/d.mp'"
check "python decodes dt in time units, the pfn register and the per-mm-slot address registers" \
	"$py" "$tmp/dec.py" "$tmp/d.mp" "$tmp/d.jsonl"
