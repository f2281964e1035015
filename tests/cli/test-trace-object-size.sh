#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace convert --object-size` from libCacheSim's oracleGeneral: what an object's size
# becomes.  unit (libCacheSim's --ignore-obj-size 1): `replay -p lru` at N pages has exactly the
# misses of an object-count LRU, computed here by a tiny independent one; pages: every page of an
# object, its size rounded up, in a key range of its own: the misses of a page-level LRU over
# (object, page); folio (the default, as before): the requests whose size is not a power-of-two
# number of pages are counted on stderr.  The crafted file mixes small adjacent ids with 64-bit
# ones, sizes below, at, between and above powers of two pages, and records of size 0.
. "$(dirname "$0")/trace-lib.sh"
plan 13
if ! have_python; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do skip "no python3"; done
	finish
fi

"$PYTHON3" - "$TMP/s.oracleGeneral" "$TMP/expected" <<'EOF'
import random, struct, sys
from collections import OrderedDict
rnd = random.Random(38)
objs = list(range(100, 160)) + [rnd.getrandbits(64) for _ in range(240)]
sizes = [100, 4096, 5000, 8192, 12288, 16384, 65536, 200000]
size_of = {o: rnd.choice(sizes) for o in objs}
reqs = []
t = 0
for i in range(4000):
    # skewed: a hot fifth of the objects takes most requests
    o = objs[int(len(objs) * rnd.random() ** 3)]
    t += rnd.random() < 0.01
    reqs.append((t, o, size_of[o]))
    if i % 500 == 0:
        reqs.append((t, o, 0))          # size 0: libCacheSim skips it, so does convert
with open(sys.argv[1], 'wb') as f:
    for t, o, s in reqs:
        f.write(struct.pack('<IQIq', t, o, s, -1))
reqs = [r for r in reqs if r[2]]

def lru(keys, cap):
    c, misses = OrderedDict(), 0
    for k in keys:
        if k in c:
            c.move_to_end(k)
            continue
        misses += 1
        c[k] = True
        if len(c) > cap:
            c.popitem(last=False)
    return misses

unit = [o for _, o, _ in reqs]
pages = [(o, p) for _, o, s in reqs for p in range(-(-s // 4096))]
pow2 = lambda n: n & (n - 1) == 0
rounded = sum(1 for _, _, s in reqs if s % 4096 or not pow2(s // 4096))
larger = sum(1 for _, _, s in reqs if s > 4096 and (s % 4096 or not pow2(s // 4096)))
with open(sys.argv[2], 'w') as f:
    f.write('requests %d\ntotal_pages %d\nfolio_rounded %d\nfolio_larger %d\n' % (len(reqs), len(pages), rounded, larger))
    for cap in (10, 50, 150):
        f.write('unit %d %d\n' % (cap, lru(unit, cap)))
    for cap in (64, 512):
        f.write('pages %d %d\n' % (cap, lru(pages, cap)))
EOF
ok $? "a crafted oracleGeneral file and the misses of an independent LRU"
val() { awk -v k="$1" -v c="${2:-}" '$1 == k && (c == "" || $2 == c) { print $NF }' "$TMP/expected"; }
requests=$(val requests)

stat() {	# stat RESULTS KEY: the lru configuration's counter
	"$PYTHON3" -c 'import json, sys
c = [c for c in json.load(open(sys.argv[1]))["configs"] if c["name"].startswith("lru")][0]
print(c["stats"].get(sys.argv[2], "missing"))' "$1" "$2"
}
replay_lru() {	# replay_lru TRACE PAGES: results of lru at PAGES pages of 4 KiB
	"$REFAULT" replay -q -p lru --set cache=$(($2 * 4))K "$1" -o "$TMP/r.json" 2> "$TMP/rerr" ||
		sed 's/^/# /' "$TMP/rerr"
}

# unit: every object one page
rt convert --object-size unit "$TMP/s.oracleGeneral" "$TMP/unit.trace" 2> "$TMP/err"
st=$?
sed 's/^/# /' "$TMP/err"
[ $st -eq 0 ] && [ "$(rt info "$TMP/unit.trace" | sed -n 's/^  access *//p')" = "$requests" ]
ok $? "--object-size unit: one access a request ($requests), the size-0 records left out"
for cap in 10 50 150; do
	replay_lru "$TMP/unit.trace" $cap
	is "$(stat "$TMP/r.json" policy.misses)" "$(val unit $cap)" \
		"--object-size unit, replay -p lru at $cap pages: the misses of an object-count LRU"
done
grep -q "requests are of an object whose size .* is not one page" "$TMP/err"
ok $? "... stderr says how many requests' sizes unit set aside"

# pages: each page of the object, rounded up, keys of its own
rt convert --object-size pages "$TMP/s.oracleGeneral" "$TMP/pages.trace" 2> "$TMP/err"
st=$?
sed 's/^/# /' "$TMP/err"
[ $st -eq 0 ] && [ "$(rt info "$TMP/pages.trace" | sed -n 's/^  access *//p')" = "$(val total_pages)" ]
ok $? "--object-size pages: one access a page, $(val total_pages) in all (sizes rounded up to pages)"
for cap in 64 512; do
	replay_lru "$TMP/pages.trace" $cap
	is "$(stat "$TMP/r.json" policy.misses)" "$(val pages $cap)" \
		"--object-size pages, replay -p lru at $cap pages: the misses of a page-level LRU over (object, page)"
done
rt info "$TMP/pages.trace" | grep -q '^params: *converted-from=oracleGeneral object-size=pages$'
ok $? "... the header's params say how the sizes were read"

# folio, the default: what it did before, now said
rt convert "$TMP/s.oracleGeneral" "$TMP/folio.trace" 2> "$TMP/err"
st=$?
sed 's/^/# /' "$TMP/err"
r=$(val folio_rounded) l=$(val folio_larger)
[ $st -eq 0 ] && grep -q "^$TMP/s.oracleGeneral: $r of the $requests requests are of an object whose size ($l of them larger than a page of 4096 bytes) is not a power-of-two number of pages: each is one page" "$TMP/err"
ok $? "the default (folio): stderr counts the $r requests whose size is not a power-of-two number of pages ($l above a page)"
rt info "$TMP/folio.trace" | grep -q '^params: *converted-from=oracleGeneral object-size=folio$'
ok $? "... and the header names the mode"

rt convert --object-size bytes "$TMP/s.oracleGeneral" "$TMP/x.trace" 2> "$TMP/err"
st=$?
rt convert --object-size unit "$TMP/unit.trace" "$TMP/x2.trace" 2>> "$TMP/err"
st2=$?
[ $st -eq 2 ] && [ $st2 -eq 2 ] && grep -q "folio, unit or pages" "$TMP/err" &&
	grep -q "for oracle and csv input" "$TMP/err"
ok $? "an unknown mode, and --object-size with a trace for input: usage errors"
finish
