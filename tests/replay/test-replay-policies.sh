#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault replay --profile lru,clock,opt: the reference policies beside the kernel profiles.
# Plain LRU's misses equal those of the tiny independent LRU of gen-lru-stream exactly; OPT is
# never worse than LRU or CLOCK; results do not depend on --threads; a policy's capacity comes
# from "cache", else the recorded cgroup's memory limit.
set -u
: "${REFAULT:?}" "${PYTHON3:=python3}" "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stat_of() {	# FILE CONFIG KEY
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1]))
c=[c for c in d["configs"] if c["name"]==sys.argv[2]][0]; print(c["stats"].get(sys.argv[3], "missing"))' "$1" "$2" "$3"
}
setting_of() {	# FILE CONFIG KEY
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1]))
c=[c for c in d["configs"] if c["name"]==sys.argv[2]][0]; print(c["settings"].get(sys.argv[3], "missing"))' "$1" "$2" "$3"
}
strip_run() {
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("run"); print(json.dumps(d, indent=1))' "$1"
}

"$top_builddir/tests/replay/gen-lru-stream" "$tmp/s.rft" > "$tmp/expected"
check "gen-lru-stream writes a trace and its LRU misses" "test -s '$tmp/s.rft' -a -s '$tmp/expected'"

while read -r cap refs misses evictions; do
	"$REFAULT" replay -q -p lru,clock,opt --set cache=$((cap * 4))K "$tmp/s.rft" -o "$tmp/r$cap.json"
	name=lru,cache=$((cap * 4))K
	check "lru at $cap pages: $refs references, as the independent LRU counts them" \
		"test \"\$(stat_of '$tmp/r$cap.json' $name policy.refs)\" = $refs"
	check "lru at $cap pages: $misses misses, exactly the independent LRU's" \
		"test \"\$(stat_of '$tmp/r$cap.json' $name policy.misses)\" = $misses"
	check "lru at $cap pages: $evictions evictions, exactly the independent LRU's" \
		"test \"\$(stat_of '$tmp/r$cap.json' $name policy.evictions)\" = $evictions"
	opt=$(stat_of "$tmp/r$cap.json" opt,cache=$((cap * 4))K policy.misses)
	clock=$(stat_of "$tmp/r$cap.json" clock,cache=$((cap * 4))K policy.misses)
	check "opt at $cap pages ($opt misses) is no worse than lru ($misses) or clock ($clock)" \
		"test $opt -le $misses -a $opt -le $clock"
done < "$tmp/expected"

"$REFAULT" replay -q -p v6.18,lru,opt,clock --threads 1 "$tmp/s.rft" -o "$tmp/t1.json"
"$REFAULT" replay -q -p v6.18,lru,opt,clock --threads 3 "$tmp/s.rft" -o "$tmp/t3.json"
strip_run "$tmp/t1.json" > "$tmp/t1.txt"
strip_run "$tmp/t3.json" > "$tmp/t3.txt"
check "policies beside a kernel profile: byte-identical results at 1 and 3 threads" \
	"cmp -s '$tmp/t1.txt' '$tmp/t3.txt'"
check "without cache=, the capacity is the recorded cgroup's 1 MiB limit: 256 pages" \
	"test \"\$(stat_of '$tmp/t1.json' lru policy.capacity_pages)\" = 256"
check "the results say where the capacity came from" \
	"test \"\$(setting_of '$tmp/t1.json' opt cache_from)\" = 'memory limit of the recorded cgroup'"
check "lru and clock have a time series, opt (simulated at the end) none" \
	"$PYTHON3 -c 'import json,sys; c={c[\"name\"]: c for c in json.load(open(sys.argv[1]))[\"configs\"]}
sys.exit(not (\"timeseries\" in c[\"lru\"] and \"timeseries\" in c[\"clock\"] and \"timeseries\" not in c[\"opt\"]))' '$tmp/t1.json'"

"$REFAULT" replay -p lru,v6.18 --set swappiness=10 "$tmp/s.rft" -o "$tmp/mixed.json" > "$tmp/summary" 2>&1
check "a kernel profile's setting is accepted for a mixed list, kept as ignored by the policy" \
	"test \"\$(setting_of '$tmp/mixed.json' lru,swappiness=10 ignored.swappiness)\" = 10 &&
	 test \"\$(setting_of '$tmp/t1.json' lru memory)\" = 67108864 &&
	 grep -q '^policy ' '$tmp/summary' && grep -q '^lru,swappiness=10 ' '$tmp/summary'"
"$REFAULT" replay -q -p lru --set nosuchkey=1 "$tmp/s.rft" -o "$tmp/bad.json" 2> "$tmp/err"
rc=$?
check "an unknown key is refused, naming the policy's keys" \
	"test $rc -eq 2 && grep -q 'cache, memory, page_size' '$tmp/err' && test ! -e '$tmp/bad.json'"
"$REFAULT" replay -q -p opt --set cache=1 "$tmp/s.rft" 2> "$tmp/err"
rc=$?
check "a capacity below one page is refused" "test $rc -eq 2 && grep -q 'cache=1' '$tmp/err'"
"$REFAULT" validate -p lru "$tmp/s.rft" > "$tmp/out" 2>&1
rc=$?
check "validate refuses a reference policy, saying why" \
	"test $rc -ne 0 && grep -q 'reference policy' '$tmp/out'"

done_testing
