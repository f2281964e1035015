#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerate the seed corpus of tests/fuzz/corpus (seed-* files; findings are kept as crash-*/finding-*).
#   tests/fuzz/make-corpus.sh BUILDDIR   (needs BUILDDIR/tests/format/write-sample and python3-msgpack)
set -eu
build=${1:?usage: make-corpus.sh BUILDDIR}
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus
ws=$build/tests/format/write-sample
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=python3
$py -c 'import msgpack' 2>/dev/null || py=/usr/bin/python3

mkdir -p "$out"
rm -f "$out"/seed-*
"$ws" -n 300 -c 50 "$out/seed-valid-indexed"
"$ws" -n 300 -c 50 -x "$out/seed-valid-noindex"
"$ws" -n 16 -c 16 -l 1 "$tmp/base"
# format 2.6's chunks (an array an event), which the reader still reads
"$ws" -n 300 -c 50 -V 2 "$out/seed-2.6-valid-indexed"
"$ws" -n 16 -c 16 -l 1 -V 2 "$tmp/base-2.6"
"$py" - "$tmp" "$out" <<'PY'
import io, struct, sys, random
import msgpack
tmp, out = sys.argv[1], sys.argv[2]
rng = random.Random(2)


valid = open(out + "/seed-valid-indexed", "rb").read()
base = open(tmp + "/base", "rb").read()
# damaged whole files
open(out + "/seed-truncated-mid", "wb").write(valid[: len(valid) * 2 // 3])
flipped = bytearray(valid)
for _ in range(3):
    i = rng.randrange(len(flipped))
    flipped[i] ^= 1 << rng.randrange(8)
open(out + "/seed-bitflips", "wb").write(bytes(flipped))
open(out + "/seed-no-footer", "wb").write(valid[:-32])
# frame payloads for the wrapping modes: decompress base with the zstd tool
import subprocess
raw = subprocess.run(["zstd", "-dcq"], input=base, stdout=subprocess.PIPE, check=True).stdout
u = msgpack.Unpacker(io.BytesIO(raw), raw=False, strict_map_key=False)
u.unpack()
hdr_end = u.tell()
open(out + "/seed-header", "wb").write(b"H" + raw[:hdr_end])
open(out + "/seed-chunk", "wb").write(b"C" + raw[hdr_end:])
raw26 = subprocess.run(["zstd", "-dcq"], input=open(tmp + "/base-2.6", "rb").read(),
                       stdout=subprocess.PIPE, check=True).stdout
u = msgpack.Unpacker(io.BytesIO(raw26), raw=False, strict_map_key=False)
u.unpack()
open(out + "/seed-2.6-chunk", "wb").write(b"C" + raw26[u.tell():])
# index payload of base, as its footer points to it
ioff, isize, crc = struct.unpack_from("<QII", base, len(base) - 16)
open(out + "/seed-index", "wb").write(b"I" + base[ioff + 8 : ioff + isize])
# a chunk payload with an unknown event type, trailing fields and nesting
chunk = msgpack.packb({"chunk": 0, "t": 0, "n": 3})
chunk += msgpack.packb([120, 5, 0, 1, {"x": [1, [2, [3, "deep"]]]}, b"bin"])
chunk += msgpack.packb([1, 10, 0, 1, 0x800001, 12, 7, 1, "newer", -3])
chunk += msgpack.packb([97, 10, 1, 2, "marker"])
open(out + "/seed-chunk-newer", "wb").write(b"C" + chunk)
# a chunk of columns (format 3.0) with a type and a field of a newer minor version, every mode
def col(mode, width, base, data, step=0):
    return [mode, width, base, step, data]
chunk = msgpack.packb({"chunk": 0, "t": 0, "n": 4, "enc": 3, "tu": 1000})
chunk += msgpack.packb({
    "type": col(0, 1, 0, bytes([1, 4, 120, 97])),
    "time": col(1, 2, 0, bytes([2, 4, 6, 8, 0, 0, 0, 0]), 3),
    "cpu": col(0, 0, 0, 1),
    "pid": col(1, 0, 84, 0),
    "file_read": {"dev": col(0, 0, 8, 0), "ino": col(0, 0, 12, 0), "index": col(1, 0, 7, 0, 1),
                  "nr": col(0, 0, 0, 1), "stack": col(0, 0, 0, 0), "newer": col(0, 0, 0, 3)},
    "anon_fault": {"mm": col(0, 0, 0, 33), "addr": col(2, 3, 4096, bytes([0, 0x20, 0]), 2),
                   "order": col(0, 0, 0, 0), "flags": col(0, 0, 0, 1), "stack": col(0, 0, 0, 0)},
    "from_the_future": {"x": col(3, 0, 0, [[1, "deep"]])},
    "marker": {"text": col(3, 0, 0, ["marker"])},
})
open(out + "/seed-chunk-columns-newer", "wb").write(b"C" + chunk)
PY
ls -l "$out"
