#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The trace format is plain zstd + msgpack: `zstd -dc FILE` piped into an independent msgpack decoder
# (python3-msgpack, not msgpack-c) yields the header map, then per chunk a header map and its events,
# with counts that match what the library wrote.  The index and footer are skippable frames zstd drops.
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

echo "1..6"
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
    assert hdr["version"][0] == 1, hdr["version"]
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
    t, k, idx = 0, 0, 0
    for o in objs[1:]:
        if isinstance(o, dict):
            t = o["t"]
            continue
        t += o[1]
        assert t == k * 1000 + 1, "event %d at %d" % (k, t)
        k += 1
PY
check "the first object is the header map naming format refault-trace 1.x" "$py" "$tmp/check.py" "$tmp/t.mp" 0 0 header
check "13 chunks, each a header map {chunk, t, n} then n event arrays, 1234 events in all" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 counts
check "event times decode from the per-chunk deltas to the times written" \
	"$py" "$tmp/check.py" "$tmp/t.mp" 1234 13 times
