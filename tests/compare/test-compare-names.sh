#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Names a user types, across kernel eras and repeated recordings, on real replays:
# - one quantity has one name in every profile (v4.5's workingset_refault is
#   vmstat.workingset_refault_file, its pgscan_kswapd_normal vmstat.pgscan_kswapd), the
#   kernel's own names kept as "aliases" and accepted by compare; the README's gate works;
# - a short name resolves to the recorded cgroup's, then the global one; else "ambiguous: ..."
#   with the candidates;
# - the recorded cgroup is memcg.recorded.* whatever its path, so repeated --memcg-limit
#   recordings (each in a group of its own name) are runs of one side; the cgroups outside it
#   are left out unless --all-cgroups;
# - the replay summary shows the recorded cgroup's reclaim, not the global zeroes.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..25"
cd "$T" || exit 1
thrash=$top_srcdir/traces/cgroup-thrash.rft
hot=$top_srcdir/traces/validate-hot.rft
"$REFAULT" replay -q "$thrash" -p v4.5,v4.6,v6.18 -o demo.json || exit 1

run demo.json:v4.5 demo.json:v4.6 --fail-if 'workingset_refault_file > +5%'
check "the README's gate runs on the demo: workingset_refault_file resolves (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q 'unknown metric' '$T/err'"
run demo.json:v4.5 demo.json:v6.18 --fail-if 'workingset_refault_file < -5%'
check "... across eras (v4.5 against v6.18): the gate trips on the one name (exit $rc)" \
	sh -c "[ $rc -eq 3 ] && grep -q 'vmstat.workingset_refault_file in v6.18' '$T/err'"
$PYTHON3 - demo.json > names.out <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["configs"]
names = [sorted(k for k in x["stats"] if k.startswith("vmstat.") and "restore" not in k
                and k != "vmstat.workingset_nodes") for x in c]
print("same" if names[0] == names[1] == names[2] else "differ")
a = c[0]["aliases"]
print("alias" if a.get("vmstat.workingset_refault") == "vmstat.workingset_refault_file"
      and a.get("vmstat.pgscan_kswapd_normal") == "vmstat.pgscan_kswapd"
      and c[2]["aliases"] == {} else "no-alias")
EOF
check "every profile's global counters carry the same names" grep -qx same names.out
check "... and the results keep each kernel's own names as aliases (v4.5's; none for v6.18)" \
	grep -qx alias names.out
run demo.json:v4.5 demo.json:v4.6 --fail-if 'vmstat.workingset_refault < -5%'
check "a kernel's own name (v4.5 vmstat.workingset_refault) is taken for today's (exit $rc)" \
	sh -c "[ $rc -eq 3 ] && grep -q \"'vmstat.workingset_refault < -5%': vmstat.workingset_refault_file\" '$T/err'"
run demo.json:v4.5 demo.json:v4.6 --fail-if 'pgscan_kswapd_normal > +1000%'
check "... and without its group (pgscan_kswapd_normal; exit $rc)" [ $rc -eq 0 ]
run demo.json:v4.5 demo.json:v4.6 --fail-if 'usage > 0'
check "an ambiguous short name lists its candidates" \
	sh -c "[ $rc -eq 1 ] && grep -q \"'usage' is ambiguous: memcg./.usage, memcg./hot.usage, memcg./stream.usage\" '$T/err'"

# Three "recordings" of one --memcg-limit workload: the bundled one (format 2.0: found by its
# command line and its group's name) and two copies as later recordings write them (format 2.2,
# the header naming their group, each refault-record-<its own pid>).
"$REFAULT" trace convert "$hot" hot.jsonl > /dev/null 2>&1 || exit 1
path=$(grep -o '"path":"[^"]*refault-record-5211"' hot.jsonl | head -1 | cut -d'"' -f4)
for p in 7001 7002; do
	sed -e "s|refault-record-5211|refault-record-$p|g" \
	    -e "1s|\"cgroup\":\"\"|\"cgroup\":\"${path%5211}$p\"|" hot.jsonl > r$p.jsonl
	"$REFAULT" trace convert r$p.jsonl r$p.rft > /dev/null 2>&1 || exit 1
done
"$REFAULT" trace info r7001.rft > info.out 2>&1
check "a 2.2 header names the recorded cgroup (trace info: cgroup:)" \
	grep -q "^cgroup: *${path%5211}7001\$" info.out
for r in hot r7001 r7002; do
	f=$hot
	[ $r = hot ] || f=$r.rft
	"$REFAULT" replay -q "$f" -p v4.5,v6.18 -o $r.json || exit 1
done
$PYTHON3 - hot.json r7001.json "$path" > rec.out <<'EOF'
import json, sys
for f in sys.argv[1:3]:
    d = json.load(open(f))
    s = d["configs"][1]["stats"]
    o = d["configs"][1]["observed"]
    print(d["trace"].get("recorded_cgroup", "").rsplit("-", 1)[0] == sys.argv[3].rsplit("-", 1)[0],
          "memcg.recorded.usage" in s, "memcg.recorded.workingset_refault_file" in o,
          any(k.startswith("memcg./") for k in list(s) + list(o)))
EOF
check "the recorded cgroup is memcg.recorded in the model's and the kernel's numbers, 2.0 and 2.2" \
	sh -c "[ \"\$(sort -u rec.out)\" = 'True True True False' ]"
run hot.json:v4.5,r7001.json:v4.5,r7002.json:v4.5 hot.json:v6.18,r7001.json:v6.18,r7002.json:v6.18
check "three recordings group as the runs of one side (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'v4.5 (hot.json:v4.5,r7001.json:v4.5,r7002.json:v4.5, 3 runs)' '$T/out'"
run hot.json:v4.5,r7001.json:v4.5,r7002.json:v4.5 hot.json:v6.18,r7001.json:v6.18,r7002.json:v6.18 \
	--fail-if 'pgscan_direct > +1000%' --fail-if 'pgscan_direct < -1000%'
check "a short name resolves to the recorded cgroup's, first (exit $rc)" \
	sh -c "[ $rc -eq 0 ] && \"$REFAULT\" compare hot.json:v4.5 hot.json:v6.18 --fail-if 'pgscan_direct > -100%' 2>&1 | grep -q 'memcg.recorded.pgscan_direct in v6.18'"
run hot.json:v6.18@kernel hot.json:v6.18 --fail-if 'memcg.recorded.workingset_refault_file > +1000%'
check "... in the kernel's column too (exit $rc)" [ $rc -eq 0 ]
run hot.json:v6.18@kernel hot.json:v6.18 --fail-if 'cost.estimated_ns > 0'
check "a gate on what the kernel's column lacks says so (was a message of stack garbage)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'metric cost.estimated_ns is not in every column' '$T/err'"
"$REFAULT" replay -q "$hot" -o all.json --all-cgroups
check "--all-cgroups keeps the others under their paths" \
	sh -c "grep -q '\"memcg./process_api.usage\"' all.json && grep -q '\"memcg.recorded.usage\"' all.json"

# Per-cgroup time series: the 23047a96 story is /hot's refaults against /stream's scans.
$PYTHON3 - demo.json hot.json > series.out <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["configs"][0]
ts, st = d["timeseries"]["series"], d["stats"]
k = "memcg./hot.workingset_refault_file"
print(k in ts and ts[k][0] == 0 and ts[k][-1] == st[k] and "memcg./stream.pgscan_kswapd" in ts)
r = json.load(open(sys.argv[2]))["configs"][1]["timeseries"]["series"]
print("memcg.recorded.inactive_file" in r and not any(x.startswith("memcg./") for x in r))
EOF
check "per-cgroup series: /hot's refaults from 0 to its total, /stream's scans" \
	sh -c "[ \"\$(sed -n 1p series.out)\" = True ]"
check "... a recorded trace's under memcg.recorded, the others left out" \
	sh -c "[ \"\$(sed -n 2p series.out)\" = True ]"
run demo.json:v4.5 demo.json:v4.6 --html demo.html
check "... and the HTML report draws them: /hot's refault rate, a line per column" \
	grep -q '>memcg./hot.workingset_refault_file per second<' demo.html
$PYTHON3 - hot.json > kseries.out <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["configs"][1]
k = "memcg.recorded.workingset_refault_file"
ts = c["observed_timeseries"]
print(len(ts["t"]) > 5 and ts["series"][k][0] == 0 and ts["series"][k][-1] == c["observed"][k])
EOF
check "the kernel's own series, a sample per counter snapshot, ending at its totals" \
	grep -qx True kseries.out
run hot.json:v6.18@kernel hot.json:v6.18 --html kernel.html
check "... drawn beside the model's in an @kernel report" \
	sh -c "grep -q '>memcg.recorded.inactive_file<' kernel.html && [ \$(grep -c '<title>v6.18@kernel</title>' kernel.html) -ge 4 ]"
"$REFAULT" replay "$hot" -p v4.5,v6.18 > sum.out 2>&1
sed 's/^/# /' sum.out
check "the summary says its counts are the recorded cgroup's" \
	grep -q "^counts of the recorded cgroup $path " sum.out
check "... and shows its reclaim (pgscan_direct > 0), which the global counters do not count" \
	sh -c "awk '\$1 == \"v6.18\" { seen = 1; ok = \$6 > 0 } END { exit !(seen && ok) }' sum.out"
check "... and says how est_kernel_ms compares across eras" grep -q "^est_kernel_ms prices" sum.out
# The same recording of a file read while it was cached: the kernel added nothing to the page
# cache, every model reads it from disk; the summary says so and what to do.
grep -v '"type":"pagecache_add"' hot.jsonl > cached.jsonl
"$REFAULT" trace convert cached.jsonl cached.rft > /dev/null 2>&1
"$REFAULT" replay cached.rft -o cached.json > cached.out 2>&1
check "a file cached before the recording: the summary says the models read it from disk, and --warm-cache" \
	grep -q "^note: the models read [0-9]* pages into the page cache where the kernel added 0: .*--warm-cache" cached.out
"$REFAULT" replay cached.rft -o cached.json --warm-cache > cached.out 2>&1
check "... and with --warm-cache it does not" sh -c "! grep -q '^note: the models read' cached.out"
check "... and the bundled recording, whose reads the kernel added, gets no such note" \
	sh -c "! grep -q '^note: the models read' sum.out"
exit 0
