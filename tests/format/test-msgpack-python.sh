#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The trace format is plain zstd + msgpack: `zstd -dc FILE` piped into an independent msgpack decoder
# (python3-msgpack, not msgpack-c) yields the header map, then per chunk a header map and its map of
# columns, with counts that match what the library wrote.  The index and footer are skippable
# frames zstd drops.  Then format 3.0's columns, decoded here from docs/trace-format.md alone
# (byte planes, the plain, delta and per-slot delta modes, base and step, zigzag, time in units),
# give back every field of a trace that python wrote as JSON lines and `refault trace convert`
# encoded.
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

echo "1..9"
n=0
check() { # check DESCRIPTION COMMAND...
	desc=$1; shift
	n=$((n + 1))
	if "$@" >"$tmp/out" 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; sed 's/^/# /' "$tmp/out"; fi
}

check "write-sample writes 1234 events in chunks of 100" "$writer" -n 1234 -c 100 "$tmp/t.rft"
check "zstd -dc decodes every frame (index and footer are skipped)" sh -c "zstd -dcq '$tmp/t.rft' > '$tmp/t.mp'"
check "zstd -t verifies every frame's checksum" zstd -tq "$tmp/t.rft"

# A decoder of format 3.0 written from docs/trace-format.md, not from the library.
cat >"$tmp/rft.py" <<'PY'
import msgpack
M64 = (1 << 64) - 1

def unzz(c):
    return (c >> 1) ^ -(c & 1)

def column(col, n, signed=False, key=None):
    mode, width, base, step, data = col
    if mode == 3:
        assert width == 0 and len(data) == n, col
        return list(data)
    if width == 0:
        coded = [data] * n
    else:
        assert isinstance(data, bytes) and len(data) == width * n, (width, n, len(data))
        coded = [sum(data[k * n + i] << (8 * k) for k in range(width)) for i in range(n)]
    if mode == 0:
        vals = [(base + c) & M64 for c in coded]
    else:
        vals, regs = [], [base] * 16
        for i, c in enumerate(coded):
            s = key[i] % 16 if mode == 2 else 0
            regs[s] = (regs[s] + step + unzz(c)) & M64
            vals.append(regs[s])
    return [v - (1 << 64) if signed and v >> 63 else v for v in vals]

SIGNED = {"pid", "child", "tgid", "target", "priority"}

def events(path):
    """(header, [(chunk header, [event dicts])])"""
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(open(path, "rb").read())
    objs = list(u)
    chunks = []
    for ch, cols in zip(objs[1::2], objs[2::2]):
        n, tu, t = ch["n"], ch["tu"], ch["t"]
        types = column(cols["type"], n)
        common = {k: column(cols[k], n, signed=(k == "pid")) for k in ("time", "cpu", "pid")}
        rows = {}
        for name, tab in cols.items():
            if name in ("type", "time", "cpu", "pid"):
                continue
            cnt = sum(1 for x in types if x == TYPES[name])
            first = None
            dec = {}
            for fname, col in tab.items():
                if first is None:
                    first = fname
                key = dec.get(first) if col[0] == 2 else None
                dec[fname] = column(col, cnt, fname in SIGNED, key)
            rows[TYPES[name]] = (name, dec, [0])
        evs = []
        for i, ty in enumerate(types):
            name, dec, at = rows[ty]
            e = {"t": t + common["time"][i] * tu, "cpu": common["cpu"][i],
                 "pid": common["pid"][i], "type": name}
            e.update({k: v[at[0]] for k, v in dec.items()})
            at[0] += 1
            evs.append(e)
        chunks.append((ch, cols, evs))
    return objs[0], chunks

TYPES = {"file_read": 1, "file_write": 2, "file_fault": 3, "anon_fault": 4, "access": 5,
         "file_readahead": 6, "damon_region": 7, "mmap": 16, "munmap": 17, "madvise": 18,
         "fadvise": 19, "truncate": 20, "fork": 21, "exec": 22, "exit": 23,
         "cgroup_mkdir": 24, "cgroup_rmdir": 25, "cgroup_attach": 26, "cgroup_limit": 27,
         "name_file": 28, "name_pid": 29, "name_stack": 30, "name_frame": 31,
         "pagecache_add": 48, "pagecache_del": 49, "lru_add": 50, "lru_activate": 51,
         "reclaim": 52, "counters": 53, "lost": 96, "marker": 97, "end": 98}
PY

cat >"$tmp/check.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[5])
from rft import events
want_events, want_chunks, what = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
hdr, chunks = events(sys.argv[1])
if what == "header":
    assert isinstance(hdr, dict), "first object is not a map"
    assert hdr["format"] == "refault-trace", hdr.get("format")
    assert hdr["version"][0] == 3, hdr["version"]
    assert hdr["time_resolution"] == 1, hdr.get("time_resolution")
    assert hdr["producer"] == "write-sample", hdr["producer"]
    assert "host" in hdr and "recording" in hdr
    sys.exit(0)
for k, (ch, cols, evs) in enumerate(chunks):
    assert ch["chunk"] == k and ch["enc"] == 3, ch
    assert isinstance(cols, dict) and list(cols)[:4] == ["type", "time", "cpu", "pid"], list(cols)
    assert len(evs) == ch["n"], (k, len(evs), ch["n"])
if what == "counts":
    got = (len(chunks), sum(len(c[2]) for c in chunks))
    assert got == (want_chunks, want_events), got
elif what == "times":
    # times restart from each chunk's base; write-sample's are i * 1000 + 1
    evs = [e for c in chunks for e in c[2]]
    for i, e in enumerate(evs):
        assert e["t"] == i * 1000 + 1, "event %d at %d" % (i, e["t"])
elif what == "constant":
    # a sequential stream: every column is five small integers, whatever its length
    ch, cols, evs = chunks[0]
    flat = [cols[k] for k in ("type", "cpu", "pid")] + list(cols["file_read"].values())
    assert all(c[1] == 0 for c in flat), flat
PY
check "the first object is the header map naming format refault-trace 3.x, time resolution 1 ns" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 0 0 header "$tmp"
check "13 chunks, each a header map {chunk, t, n, enc 3} then a map of columns, 1234 events in all" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 counts "$tmp"
check "event times decode from each chunk's time column to the times written" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 times "$tmp"

# python writes events as JSON lines, refault encodes them, python decodes the msgpack.
cat >"$tmp/mk.py" <<'PY'
import json, random, sys
random.seed(5)
print(json.dumps({"format": "refault-trace", "version": [3, 0], "producer": "python",
                  "clock": "mono", "time_resolution": 1000}))
if sys.argv[1] == "seq":
    for i in range(5000):
        print(json.dumps({"t": 10**9 + 1000 * i, "cpu": 1, "pid": 7, "type": "file_read",
                          "dev": 8, "ino": 12, "index": 100 + i, "nr": 1}))
    sys.exit(0)
t = 10**9 + 7
at = {17: 1 << 46, 33: 1 << 40, 5: 0x7f0000000000, 1 << 40: 1 << 30}
for i in range(3000):
    t += random.choice([0, 3, 250, 999, 1000, 1001, 15000, 123456])
    k = i % 6
    if k == 0:
        pfn = random.randrange(1 << 21) if i % 3 else 0x100000 + i
        e = {"type": "lru_add", "pfn": pfn, "order": 0, "lru": 2, "cgroup": 9}
    elif k == 1:
        e = {"type": "lru_activate", "pfn": random.randrange(1 << 40), "order": 1}
    elif k in (2, 3):  # each mm walks its own area; 17 and 33 share a slot (mod 16)
        mm = random.choice([17, 33, 5, 1 << 40])
        at[mm] += 4096 * random.choice([1, 1, 1, 2, -1])
        e = {"type": "anon_fault", "mm": mm, "addr": at[mm], "order": 0, "flags": 1}
    elif k == 4:
        e = {"type": "pagecache_del", "dev": 8, "ino": 12, "index": i, "order": 0,
             "pfn": (1 << 64) - 1 - i}
    else:
        e = {"type": "fork", "child": random.randrange(-5, 1 << 22), "tgid": -1, "mm": i,
             "flags": 1}
        if i % 4 == 1:
            e = {"type": "exec", "mm": i, "comm": random.choice(["sh", "", "a" * 40, None])}
    print(json.dumps(dict({"t": t, "cpu": i % 2, "pid": 7 - i % 3 * 5}, **e)))
PY
cat >"$tmp/dec.py" <<'PY'
import sys, json
sys.path.insert(0, sys.argv[3])
from rft import events
lines = [json.loads(l) for l in open(sys.argv[2])]
res = lines[0]["time_resolution"]
want = lines[1:]
hdr, chunks = events(sys.argv[1])
assert hdr["version"][0] == 3 and hdr["time_resolution"] == res, hdr
got = []
modes = set()
for ch, cols, evs in chunks:
    assert ch["enc"] == 3 and ch["tu"] == res, ch
    for tab in cols.values():
        modes |= {c[0] for c in (tab.values() if isinstance(tab, dict) else [tab])}
    for e in evs:
        if e.get("stack") == 0:
            del e["stack"]
        got.append(e)
assert len(got) == len(want), (len(got), len(want))
for g, w in zip(got, want):
    w = dict(w, t=w["t"] // res * res)
    assert g == w, "decoded %r, wrote %r" % (g, w)
print("modes", sorted(modes))
if sys.argv[4] == "mixed":
    assert modes == {0, 1, 2, 3}, modes
PY
if [ -z "${REFAULT:-}" ]; then
	for k in 7 8 9; do echo "ok $k # SKIP \$REFAULT not set"; done
	exit 0
fi
"$py" "$tmp/mk.py" mixed > "$tmp/d.jsonl"
check "refault trace convert encodes python's JSON lines (time resolution 1000 ns)" \
	sh -c "'$REFAULT' trace convert '$tmp/d.jsonl' '$tmp/d.rft' && zstd -dcq '$tmp/d.rft' > '$tmp/d.mp'"
check "python decodes byte planes, zigzag, plain, delta, per-slot delta and value columns" \
	"$py" "$tmp/dec.py" "$tmp/d.mp" "$tmp/d.jsonl" "$tmp" mixed
"$py" "$tmp/mk.py" seq > "$tmp/s.jsonl"
"$REFAULT" trace convert "$tmp/s.jsonl" "$tmp/s.rft" && zstd -dcq "$tmp/s.rft" > "$tmp/s.mp"
check "a sequential stream: its columns are constants (width 0), and decode to what was written" \
	sh -c "'$py' '$tmp/dec.py' '$tmp/s.mp' '$tmp/s.jsonl' '$tmp' seq &&
	       '$py' '$tmp/check.py' '$tmp/s.mp' 5000 1 constant '$tmp'"
