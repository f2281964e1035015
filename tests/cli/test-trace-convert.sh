#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace convert`: lossless JSON lines both ways; page requests for cache simulators.
. "$(dirname "$0")/trace-lib.sh"
plan 20
make_small && make_big
ok $? "test traces made"

rt convert "$TMP/big.trace" "$TMP/big2.jsonl" 2>/dev/null && rt convert "$TMP/big2.jsonl" "$TMP/big2.trace" 2>/dev/null
ok $? "trace -> jsonl -> trace"
rt dump --json "$TMP/big.trace" > "$TMP/a"; rt dump --json "$TMP/big2.trace" > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b"; ok $? "the round trip gives an identical 'dump --json'"
rt info "$TMP/big.trace" | sed -n '1,/^command/p' > "$TMP/a"
rt info "$TMP/big2.trace" | sed -n '1,/^command/p' > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b"; ok $? "and an identical header"
# -z: the zstd level changes the bytes, never the events
rt convert -z 1 "$TMP/big.trace" "$TMP/z1.trace" 2>/dev/null &&
	rt convert --compression-level 19 "$TMP/big.trace" "$TMP/z19.trace" 2>/dev/null &&
	rt dump --json "$TMP/big.trace" > "$TMP/a" && rt dump --json "$TMP/z1.trace" > "$TMP/b" &&
	rt dump --json "$TMP/z19.trace" > "$TMP/c" && cmp -s "$TMP/a" "$TMP/b" && cmp -s "$TMP/a" "$TMP/c"
ok $? "-z 1 and -z 19 convert to the same events"
[ "$(stat -c %s "$TMP/z19.trace")" -le "$(stat -c %s "$TMP/z1.trace")" ]
ok $? "-z 19 is no larger than -z 1 ($(stat -c %s "$TMP/z19.trace") and $(stat -c %s "$TMP/z1.trace") bytes)"

# small.trace's references: file_read of pages 0-3, an anon write fault, access key 5,
# file_read of pages 2-3, an access write to key 5: 9 page requests.
rt convert "$TMP/small.trace" "$TMP/s.csv" 2>/dev/null
is "$(sed -n 1p "$TMP/s.csv")" "time,obj_id,size,op" "csv: header line"
is "$(cut -d, -f1,3,4 "$TMP/s.csv" | sed 1d | tr '\n' ' ')" \
	"1000001000,4096,read 1000001000,4096,read 1000001000,4096,read 1000001000,4096,read 1500000000,4096,write 2000000000,4096,read 2500000000,4096,read 2500000000,4096,read 3000000000,4096,write " \
	"csv: one request per page, with time, size and op"
is "$(cut -d, -f2 "$TMP/s.csv" | sed -n '4p;8p;7p;9p' | sort -u | wc -l)" 3 \
	"csv: a file page has the same obj_id each time; an access's obj_id is its key"

if have_python; then
	rt convert "$TMP/small.trace" "$TMP/s.oracleGeneral" 2>/dev/null
	"$PYTHON3" - "$TMP/s.oracleGeneral" "$TMP/s.csv" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert len(data) == 9 * 24, len(data)
recs = [struct.unpack_from("<IQIq", data, i * 24) for i in range(9)]
csv = [l.split(",") for l in open(sys.argv[2]).read().split("\n")[1:] if l]
assert [r[1] for r in recs] == [int(c[1]) for c in csv], "obj_ids as in csv"
# whole seconds since the first reference (1.000001 s): access at 2.0 s is still second 0
assert [r[0] for r in recs] == [0, 0, 0, 0, 0, 0, 1, 1, 1], [r[0] for r in recs]
# next_access_vtime: 1-based number of the next request of the same object, -1 if none
want = []
for i, r in enumerate(recs):
    nxt = [j + 1 for j in range(i + 1, len(recs)) if recs[j][1] == r[1]]
    want.append(nxt[0] if nxt else -1)
assert [r[3] for r in recs] == want == [-1, -1, 7, 8, -1, 9, -1, -1, -1], [r[3] for r in recs]
assert all(r[2] == 4096 for r in recs)
# obj_ids as docs/refault-trace.md defines them
M = (1 << 64) - 1
def m(x):
    x ^= x >> 30; x = x * 0xbf58476d1ce4e5b9 & M; x ^= x >> 27; x = x * 0x94d049bb133111eb & M
    return x ^ (x >> 31)
H = lambda t, a, b, p: m(m(m(t ^ a) ^ b) ^ p)
FILE, ANON = 0x66696c6500000000, 0x616e6f6e00000000
want = [H(FILE, 8388609, 12, p) for p in range(4)] + [H(ANON, 8192, 0, 140737488351232 >> 12), 5,
        H(FILE, 8388609, 12, 2), H(FILE, 8388609, 12, 3), 5]
assert [r[1] for r in recs] == want, "obj_ids as documented"
PY
	ok $? "oracleGeneral: 24-byte records; seconds, documented obj_ids, sizes, next_access_vtime right"
	rt convert "$TMP/s.oracleGeneral" "$TMP/o.trace" 2>/dev/null &&
	is "$(rt dump "$TMP/o.trace" --type access | wc -l)" 9 "oracleGeneral -> trace: one access event per request"
else
	skip "no python3"; skip "no python3"
fi
rt convert "$TMP/s.csv" "$TMP/c.trace" 2>/dev/null && rt convert "$TMP/c.trace" "$TMP/c.csv" 2>/dev/null
cmp -s "$TMP/s.csv" "$TMP/c.csv"; ok $? "csv -> trace -> csv is lossless"
printf 'time,obj_id,size,op\n1,2,4096,read\n3,x,4096,read\n' > "$TMP/bad.csv"
rt convert "$TMP/bad.csv" "$TMP/bad.trace" 2> "$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "line 3" "$TMP/err" && [ "$(rt dump "$TMP/bad.trace" | wc -l)" -eq 1 ]
ok $? "bad csv line: exit 1, the line named, the lines before it converted"
# Two JSON values on one line: the second value's object was freed twice (json-c's refcount
# assertion, heap corruption without it) and the abort left the temporary behind.
printf '{"t":1,"cpu":0,"pid":1,"type":"marker","text":"a"}\n{"t":2,"cpu":0,"pid":1,"type":"marker","text":"b"} 1\n' \
	> "$TMP/two.jsonl"
rt convert "$TMP/two.jsonl" "$TMP/two.trace" 2> "$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "line 2: more than one JSON value" "$TMP/err"
ok $? "jsonl: two values on a line: exit 1 (no crash), the line named"
! ls -a "$TMP" | grep -q 'two.trace.tmp-' && [ "$(rt dump "$TMP/two.trace" | wc -l)" -eq 1 ]
ok $? "... the events before it converted, no temporary left"

# A full disk: exit 1 with the error, and no line saying what was written (there used to be
# one after the ENOSPC); an output that was there is kept as it was, no temporary left.
summary='header and\|page requests from'
for f in jsonl csv; do
	rt convert "$TMP/big.trace" /dev/full --to $f > /dev/null 2> "$TMP/err"
	rc=$?
	sed 's/^/# /' "$TMP/err"
	[ $rc -eq 1 ] && grep -q "/dev/full: No space left on device" "$TMP/err" &&
		! grep -q "$summary" "$TMP/err"
	ok $? "convert to $f on /dev/full: exit 1 (got $rc), the error, no success line"
done
mkdir "$TMP/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=8k refault-test "$TMP/full" 2> /dev/null; then
	trap 'umount "$TMP/full" 2> /dev/null; rm -rf "$TMP"' EXIT INT TERM
	for f in jsonl csv oracleGeneral; do
		echo keep > "$TMP/full/o.$f"
		rt convert "$TMP/big.trace" "$TMP/full/o.$f" > /dev/null 2> "$TMP/err"
		rc=$?
		sed 's/^/# /' "$TMP/err"
		[ $rc -eq 1 ] && grep -q "No space left on device; free some space" "$TMP/err" &&
			! grep -q "$summary" "$TMP/err" && [ "$(cat "$TMP/full/o.$f")" = keep ] &&
			[ "$(ls -a "$TMP/full" | grep -c tmp-)" -eq 0 ]
		ok $? "convert to $f on a full tmpfs: exit 1 (got $rc), no success line, o.$f kept, no temporary"
		rm -f "$TMP/full/o.$f"
	done
	umount "$TMP/full"
else
	skip "cannot mount a tmpfs (needs root)"; skip "cannot mount a tmpfs"
	skip "cannot mount a tmpfs"
fi
finish
