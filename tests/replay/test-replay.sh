#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault replay: determinism across thread counts, side-by-side configurations, damaged traces, bad input.
set -u
: "${REFAULT:?}" "${PYTHON3:=python3}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }

# Results without the "run" section, keys as written: byte-comparable.
strip_run() {
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("run"); print(json.dumps(d, indent=1))' "$1"
}
stat_of() {	# FILE CONFIG KEY
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1]))
c=[c for c in d["configs"] if c["name"]==sys.argv[2]][0]; print(c["stats"].get(sys.argv[3], "missing"))' "$1" "$2" "$3"
}

echo "1..40"
"$REFAULT" gen cgroup-thrash --seed 7 --mem 64M --cpus 4 --tasks 4 -o "$tmp/t.rft" >/dev/null 2>&1 ||
	"$REFAULT" gen lru-file-readtwice --seed 7 --mem 64M --cpus 4 --tasks 4 -o "$tmp/t.rft" >/dev/null 2>&1
check "a generated trace to replay" "test -s '$tmp/t.rft'"

profiles=v4.5,v4.6,v4.6+55779ec
"$REFAULT" replay "$tmp/t.rft" -p $profiles --threads 1 -q -o "$tmp/r1.json"
check "replay with --threads 1 succeeds" "test \$? -eq 0 -a -s '$tmp/r1.json'"
"$REFAULT" replay "$tmp/t.rft" -p $profiles --threads 2 -q -o "$tmp/r2.json"
"$REFAULT" replay "$tmp/t.rft" -p $profiles --threads 5 -q -o "$tmp/r5.json"
strip_run "$tmp/r1.json" > "$tmp/r1.txt"; strip_run "$tmp/r2.json" > "$tmp/r2.txt"; strip_run "$tmp/r5.json" > "$tmp/r5.txt"
check "results are byte-identical for --threads 1, 2 and 5 (run section aside)" \
	"cmp -s '$tmp/r1.txt' '$tmp/r2.txt' && cmp -s '$tmp/r1.txt' '$tmp/r5.txt'"
"$REFAULT" replay "$tmp/t.rft" -p $profiles --threads 2 -q -o "$tmp/r2b.json"
strip_run "$tmp/r2b.json" > "$tmp/r2b.txt"
check "results are byte-identical across runs" "cmp -s '$tmp/r2.txt' '$tmp/r2b.txt'"
check "one configuration per profile, named after it" \
	"test \"\$($PYTHON3 -c 'import json,sys; print(\",\".join(c[\"name\"] for c in json.load(open(sys.argv[1]))[\"configs\"]))' '$tmp/r1.json')\" = v4.5,v4.6,v4.6+55779ec"

# Each configuration alone gives the same counters as side by side.
"$REFAULT" replay "$tmp/t.rft" -p v4.6 --threads 2 -q -o "$tmp/alone.json"
a1=$(stat_of "$tmp/alone.json" v4.6 vmstat.pgactivate); g1=$(stat_of "$tmp/r1.json" v4.6 vmstat.pgactivate)
a2=$(stat_of "$tmp/alone.json" v4.6 cost.estimated_ns); g2=$(stat_of "$tmp/r1.json" v4.6 cost.estimated_ns)
check "a configuration replayed alone gives the same counters as in a group ($a1 activations)" \
	"test '$a1' != missing && test '$a1' = '$g1' && test '$a2' != missing && test '$a2' = '$g2'"

# --set overrides appear in the name and in "overridden"
"$REFAULT" replay "$tmp/t.rft" -p v4.6 --set memory=32M -q -o "$tmp/set.json"
check "--set is applied and recorded" \
	"$PYTHON3 -c 'import json,sys; c=json.load(open(sys.argv[1]))[\"configs\"][0]; assert c[\"name\"]==\"v4.6,memory=32M\", c[\"name\"]; assert \"memory\" in c[\"overridden\"]' '$tmp/set.json'"

# A matrix expands alternatives
printf 'v4.5|v4.6 memory=32M|48M  # sweep\n' > "$tmp/matrix"
"$REFAULT" replay "$tmp/t.rft" --matrix "$tmp/matrix" -q -o "$tmp/m.json"
check "--matrix expands to the cartesian product, in order" \
	"test \"\$($PYTHON3 -c 'import json,sys; print(\" \".join(c[\"name\"] for c in json.load(open(sys.argv[1]))[\"configs\"]))' '$tmp/m.json')\" = 'v4.5,memory=32M v4.5,memory=48M v4.6,memory=32M v4.6,memory=48M'"

# A word with no value, or a product over the limit, is refused before anything is expanded
printf 'v4.5|v4.6|v4.9|v5.10|v6.18 memory=1G|2G|3G|4G|5G|6G|7G|8G swappiness=1|2|3|4|5|6|7|8|9 cpus=1|2|3|4|5|6|7|8 x=\n' > "$tmp/matrix"
"$REFAULT" replay "$tmp/t.rft" --matrix "$tmp/matrix" -q 2>"$tmp/err"
rc=$?
check "--matrix: a word with no value is an error that names line and word (exit 2)" \
	"test $rc -eq 2 && grep -q 'matrix:1: .x=. has no value' '$tmp/err'"
printf 'v4.5|v4.6|v4.9|v5.10|v6.18 memory=1G|2G|3G|4G|5G|6G|7G|8G swappiness=1|2|3|4|5|6|7|8|9 cpus=1|2|3|4|5|6|7|8|9|10|11|12\n' > "$tmp/matrix"
"$REFAULT" replay "$tmp/t.rft" --matrix "$tmp/matrix" -q 2>"$tmp/err"
rc=$?
check "--matrix: 4320 configurations on one line are refused (exit 2)" \
	"test $rc -eq 2 && grep -q 'more than 4096 configurations' '$tmp/err'"

# Damage: flip a byte in the middle of the trace
cp "$tmp/t.rft" "$tmp/bad.rft"
size=$(stat -c %s "$tmp/bad.rft")
printf '\377\377\377\377' | dd of="$tmp/bad.rft" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$REFAULT" replay "$tmp/bad.rft" -p v4.6 -q -o "$tmp/bad.json" 2>"$tmp/err"
rc=$?
check "a damaged trace fails with exit 1 and names file, chunk and offset, writing no results" \
	"test $rc -eq 1 && grep -q 'bad.rft: chunk [0-9]* at offset [0-9]*' '$tmp/err' && test ! -e '$tmp/bad.json'"
"$REFAULT" validate "$tmp/bad.rft" 2>"$tmp/err"
check "... and validate names them too" "grep -q 'bad.rft: chunk [0-9]* at offset [0-9]*' '$tmp/err'"
"$REFAULT" replay "$tmp/bad.rft" -p v4.6 -q --skip-damaged -o "$tmp/skip.json" 2>"$tmp/err"
check "--skip-damaged goes on and the results say what was skipped" \
	"$PYTHON3 -c 'import json,sys; t=json.load(open(sys.argv[1]))[\"trace\"]; assert t[\"chunks_damaged\"]>=1 and t[\"events_skipped\"]>0, t' '$tmp/skip.json'"

"$REFAULT" replay "$tmp/t.rft" -p v9.99 -q 2>"$tmp/err"
rc=$?
check "an unknown profile is refused (exit 2) with its name" "test $rc -eq 2 && grep -q 'v9.99' '$tmp/err'"
"$REFAULT" replay "$tmp/nonexistent.rft" -q 2>"$tmp/err"
rc=$?
"$REFAULT" replay "$tmp/t.rft" --set nonsense=1 -q 2>"$tmp/err2"
rc2=$?
check "a missing trace (exit 1) and an unknown key (exit 2) get clear errors" \
	"test $rc -eq 1 && grep -q nonexistent '$tmp/err' && test $rc2 -eq 2 && grep -q nonsense '$tmp/err2'"

"$REFAULT" replay --list-keys > "$tmp/keys"
check "--list-keys names every key --set takes, with what it takes" \
	"grep -q '^memory  *SIZE' '$tmp/keys' && grep -q '^swappiness  *0\.\.200' '$tmp/keys' && grep -q '^limit\.CGROUP' '$tmp/keys' && grep -q '^cost\.lru_lock' '$tmp/keys'"
check "... and one per profile switch, named after it, with its citation" \
	"grep -q '^rand_no_recency  *off|on  *v6\.3+ vma_has_recency() (8788f678)' '$tmp/keys' && grep -q '^balance  *rotated|cost|cost-io ' '$tmp/keys'"
# A profile file: a base and the switches a patch changes, named by its own name.
cat > "$tmp/revert.profile" << 'EOF2'
# 9cecde80aae0 ("mm: increase folio batch size") reverted
name v6.12-9cecde80
base v6.12
description v6.12, folio batches of 15
pagevec_size = 15
EOF2
"$REFAULT" replay "$top_srcdir/traces/pvec-thp-mix.rft" -p "v6.12,$tmp/revert.profile" -q -o "$tmp/pf.json"
check "-p v6.12,FILE.profile: a configuration named by the file, its base and switch in the results" \
	"$PYTHON3 -c 'import json,sys; c=json.load(open(sys.argv[1]))[\"configs\"]; assert [x[\"name\"] for x in c] == [\"v6.12\", \"v6.12-9cecde80\"], c; s=c[1][\"settings\"]; assert s[\"base\"] == \"v6.12\" and s[\"pagevec_size\"] == \"15\" and \"pagevec_size\" in c[1][\"overridden\"] and c[0][\"settings\"][\"pagevec_size\"] == \"31\", s' '$tmp/pf.json'"
printf 'name x\nbase v6.12\nrand_no_recency = maybe\n' > "$tmp/bad.profile"
"$REFAULT" replay "$top_srcdir/traces/pvec-thp-mix.rft" -p "$tmp/bad.profile" -q > /dev/null 2> "$tmp/err3"
rc3=$?
check "a wrong line of a profile file: usage error naming the file, the line and the values" \
	"test $rc3 -eq 2 && grep -q 'bad.profile:3: rand_no_recency=maybe: want off or on' '$tmp/err3'"
# The warm stage on a recording: the pages it reads that were cached before it began.
rec=$top_srcdir/traces/validate-read2-large.rft
"$REFAULT" replay "$rec" -p v6.18 -q -o "$tmp/cold.json"
"$REFAULT" replay "$rec" -p v6.18 -q --warm-cache -o "$tmp/warm.json"
"$REFAULT" replay "$rec" -p v6.18 -q --warm-cache -j 3 -o "$tmp/warm3.json"
check "--warm-cache gives the models the pages cached before the trace, and says how many" \
	"$PYTHON3 -c 'import json,sys; w=json.load(open(sys.argv[1])); c=json.load(open(sys.argv[2])); assert w[\"trace\"][\"warm_cache_pages\"] > 0 and \"warm_cache_pages\" not in c[\"trace\"], w[\"trace\"]' '$tmp/warm.json' '$tmp/cold.json'"
check "--warm-cache results are the same at any --threads" \
	"$PYTHON3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); a.pop(\"run\"); b.pop(\"run\"); assert a==b' '$tmp/warm.json' '$tmp/warm3.json'"

# The recent refaults of folios cached (and evicted) before the trace: an observed add of a
# folio never mentioned before, inserted on the active file list (lru 3) after at most one
# reference, is a refault the kernel found recent; the model is given its shadow.  Pages 0
# and 1: active; page 2: inactive (an old shadow, or none); page 3: active, but read twice
# in between (it may have been activated in the CPU's batch).  Not for a multi-gen LRU
# recording, whose faults insert active whatever the history.
refault_trace() {	# LRU_GEN
	head -n 1 "$top_srcdir/tests/cli/data/small.jsonl" |
		sed "s/\"thp_mode\":\"never\"/&,\"lru_gen\":\"$1\"/"
	sed -n 2,6p "$top_srcdir/tests/cli/data/small.jsonl"
	for i in 0 1 2 3; do
		echo "{\"t\":100000100$i,\"cpu\":1,\"pid\":200,\"type\":\"pagecache_add\",\"dev\":8388609,\"ino\":12,\"index\":$i,\"order\":0,\"pfn\":$((1000 + i)),\"cgroup\":7}"
	done
	for t in 1000002000 1000002001; do
		echo "{\"t\":$t,\"cpu\":1,\"pid\":200,\"type\":\"file_read\",\"dev\":8388609,\"ino\":12,\"index\":3,\"nr\":1}"
	done
	for i in 0 1 2 3; do
		lru=3; [ $i -eq 2 ] && lru=2
		echo "{\"t\":100000300$i,\"cpu\":1,\"pid\":200,\"type\":\"lru_add\",\"pfn\":$((1000 + i)),\"order\":0,\"lru\":$lru,\"cgroup\":7}"
	done
	echo '{"t":1000004000,"cpu":1,"pid":200,"type":"file_read","dev":8388609,"ino":12,"index":0,"nr":4}'
}
# convert NAME...: $tmp/NAME.jsonl into $tmp/NAME.rft
convert() {
	for c; do "$REFAULT" trace convert "$tmp/$c.jsonl" "$tmp/$c.rft" 2>/dev/null || return 1; done
}
refault_trace "" > "$tmp/refault.jsonl"
refault_trace 0x0007 > "$tmp/refault-mglru.jsonl"
convert refault refault-mglru &&
"$REFAULT" replay "$tmp/refault.rft" -p v6.18 -q --warm-cache -o "$tmp/refault.json" &&
"$REFAULT" replay "$tmp/refault-mglru.rft" -p v6.18-mglru -q --warm-cache -o "$tmp/refault-mglru.json"
check "--warm-cache: a folio the kernel inserted active at its first add is a recent refault for the model (2 of 4)" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d[\"configs\"][0][\"stats\"]; assert d[\"trace\"][\"warm_shadow_pages\"] == 2 and s[\"vmstat.workingset_refault_file\"] == 2 and s[\"vmstat.workingset_activate_file\"] == 2, (d[\"trace\"], s[\"vmstat.workingset_refault_file\"])' '$tmp/refault.json'"
check "--warm-cache: none from a multi-gen LRU recording" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d[\"configs\"][0][\"stats\"]; assert d[\"trace\"][\"warm_shadow_pages\"] == 0 and s[\"vmstat.workingset_refault_file\"] == 0' '$tmp/refault-mglru.json'"

# With the memcg's refault counter: between its snapshots it counted 3 refaults; one is the
# re-add of page 3, which the trace saw the kernel delete; the other 2 are the first 2 first
# adds the workload used (pages 0 and 1 of ino 12; ino 13's pages are never used).  A final
# count of 1 leaves none to the first adds.
counted_trace() {	# FINAL_COUNT
	final=$1
	sed -n 1,6p "$top_srcdir/tests/cli/data/small.jsonl"
	echo '{"t":1000000900,"cpu":0,"pid":0,"type":"counters","source":1,"cgroup":7,"entries":{"workingset_refault_file":0}}'
	for f in "12 0" "12 1" "12 2" "12 3" "13 0" "13 1"; do
		set -- $f
		echo "{\"t\":100000100$(($1 * 4 - 48 + $2)),\"cpu\":1,\"pid\":200,\"type\":\"pagecache_add\",\"dev\":8388609,\"ino\":$1,\"index\":$2,\"order\":0,\"pfn\":$((1000 + $1 * 4 + $2)),\"cgroup\":7}"
	done
	echo '{"t":1000002000,"cpu":1,"pid":200,"type":"file_read","dev":8388609,"ino":12,"index":0,"nr":4}'
	echo '{"t":1000003000,"cpu":1,"pid":200,"type":"pagecache_del","dev":8388609,"ino":12,"index":3,"order":0,"pfn":1051}'
	echo '{"t":1000003100,"cpu":1,"pid":200,"type":"pagecache_add","dev":8388609,"ino":12,"index":3,"order":0,"pfn":1099,"cgroup":7}'
	echo '{"t":1000003200,"cpu":1,"pid":200,"type":"file_read","dev":8388609,"ino":12,"index":3,"nr":1}'
	echo "{\"t\":1000009000,\"cpu\":0,\"pid\":0,\"type\":\"counters\",\"source\":1,\"cgroup\":7,\"entries\":{\"workingset_refault_file\":$final}}"
}
counted_trace 3 > "$tmp/counted.jsonl"
counted_trace 1 > "$tmp/counted1.jsonl"
convert counted counted1 &&
"$REFAULT" replay "$tmp/counted.rft" -p v6.18 -q --warm-cache -o "$tmp/counted.json" &&
"$REFAULT" replay "$tmp/counted1.rft" -p v6.18 -q --warm-cache -o "$tmp/counted1.json"
check "--warm-cache: the memcg's refault count beyond its re-adds names the first adds that were refaults (2 pages, not recent)" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d[\"trace\"]; s=d[\"configs\"][0][\"stats\"]; assert t[\"warm_shadow_pages\"] == 2 and t[\"warm_shadow_recent_pages\"] == 0 and s[\"vmstat.workingset_refault_file\"] == 2 and s[\"vmstat.workingset_activate_file\"] == 0, (t, s[\"vmstat.workingset_refault_file\"])' '$tmp/counted.json'"
check "--warm-cache: a count its re-adds explain leaves the first adds alone" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"trace\"][\"warm_shadow_pages\"] == 0 and d[\"configs\"][0][\"stats\"][\"vmstat.workingset_refault_file\"] == 0' '$tmp/counted1.json'"

# The kernel's own reads: the adds of a file no reference names (a file system's metadata in the
# block device's cache, ino 20 here) are read into the model at each add, charged to the add's
# memcg, with the accesses the insertion implies: pages 0 and 1 inserted active (two: the second
# activates them in the CPU's batch), pages 2..39 inactive (one); page 0 again after the kernel
# deleted it (the model still has it).  40 pages: the batch drains.  A file the trace reads
# (ino 12) is the workload's, whatever its insertions say; a multi-gen LRU recording inserts
# everything on the inactive list: one access each.
kread_trace() {	# LRU_GEN
	head -n 1 "$top_srcdir/tests/cli/data/small.jsonl" |
		sed "s/\"thp_mode\":\"never\"/&,\"lru_gen\":\"$1\"/"
	sed -n 2,6p "$top_srcdir/tests/cli/data/small.jsonl"
	i=0
	while [ $i -lt 41 ]; do
		ino=20 idx=$i lru=2
		[ $i -lt 2 ] && lru=3
		[ $i -eq 40 ] && ino=12 idx=5 lru=3
		echo "{\"t\":$((1000001000 + 2 * i)),\"cpu\":1,\"pid\":200,\"type\":\"pagecache_add\",\"dev\":3,\"ino\":$ino,\"index\":$idx,\"order\":0,\"pfn\":$((2000 + i)),\"cgroup\":7}"
		echo "{\"t\":$((1000001001 + 2 * i)),\"cpu\":1,\"pid\":200,\"type\":\"lru_add\",\"pfn\":$((2000 + i)),\"order\":0,\"lru\":$lru,\"cgroup\":7}"
		i=$((i + 1))
	done
	echo '{"t":1000003000,"cpu":1,"pid":200,"type":"file_read","dev":3,"ino":12,"index":5,"nr":1}'
	echo '{"t":1000004000,"cpu":1,"pid":200,"type":"pagecache_del","dev":3,"ino":20,"index":0,"order":0,"pfn":2000}'
	echo '{"t":1000004100,"cpu":1,"pid":200,"type":"pagecache_add","dev":3,"ino":20,"index":0,"order":0,"pfn":2099,"cgroup":7}'
	echo '{"t":1000004200,"cpu":1,"pid":200,"type":"lru_add","pfn":2099,"order":0,"lru":2,"cgroup":7}'
}
kread_trace "" > "$tmp/kread.jsonl"
kread_trace 0x0007 > "$tmp/kread-mglru.jsonl"
# a write of one page of the block device (a file system dirtying an inode's block) names that
# page only; writes of more than 64 pages of it in all (two of 40, none of them pages it added)
# name the file, as a read does
write_line() {	# INDEX NR
	echo "{\"t\":1000005000,\"cpu\":1,\"pid\":200,\"type\":\"file_write\",\"dev\":3,\"ino\":20,\"index\":$1,\"nr\":$2}"
}
{ kread_trace ""; write_line 5 1; } > "$tmp/kread-w1.jsonl"
{ kread_trace ""; write_line 100 40; write_line 140 40; } > "$tmp/kread-w100.jsonl"
convert kread kread-mglru kread-w1 kread-w100 &&
"$REFAULT" replay "$tmp/kread.rft" -p v6.18 -q --warm-cache -o "$tmp/kread.json" &&
"$REFAULT" replay "$tmp/kread.rft" -p v6.18 -q -o "$tmp/kread-nowarm.json" &&
"$REFAULT" replay "$tmp/kread-mglru.rft" -p v6.18 --allow-mglru -q --warm-cache -o "$tmp/kread-mglru.json"
check "--warm-cache: the adds of a file no reference names are read into the model, two of them accessed twice (41 adds, 2 pages active)" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d[\"configs\"][0][\"stats\"]; assert d[\"trace\"][\"warm_kernel_read_pages\"] == 41 and s[\"vmstat.nr_active_file\"] == 2 and s[\"memcg./job.usage\"] == 41, (d[\"trace\"], s)' '$tmp/kread.json'"
check "--warm-cache: from a multi-gen LRU recording, once each (none active); without --warm-cache, none read" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=json.load(open(sys.argv[2])); s=d[\"configs\"][0][\"stats\"]; assert d[\"trace\"][\"warm_kernel_read_pages\"] == 41 and s.get(\"vmstat.nr_active_file\", 0) == 0 and \"warm_kernel_read_pages\" not in n[\"trace\"] and n[\"configs\"][0][\"stats\"][\"memcg./job.usage\"] == 1, (d[\"trace\"], s)' '$tmp/kread-mglru.json' '$tmp/kread-nowarm.json'"

"$REFAULT" replay "$tmp/kread-w1.rft" -p v6.18 -q --warm-cache -o "$tmp/kread-w1.json" &&
"$REFAULT" replay "$tmp/kread-w100.rft" -p v6.18 -q --warm-cache -o "$tmp/kread-w100.json"
check "--warm-cache: a one-page write of that file leaves the others the kernel's (40 pages read in); two writes of 40 pages make it the workload's (none)" \
	"$PYTHON3 -c 'import json,sys; a=json.load(open(sys.argv[1]))[\"trace\"]; b=json.load(open(sys.argv[2]))[\"trace\"]; assert a[\"warm_kernel_read_pages\"] == 40 and b.get(\"warm_kernel_read_pages\", 0) == 0, (a, b)' '$tmp/kread-w1.json' '$tmp/kread-w100.json'"

# Lost records are said first, by replay, compare and validate, and are in the results
# (1238 added to the 20 small.jsonl loses itself).
{ head -n 1 "$top_srcdir/tests/cli/data/small.jsonl"
  echo '{"t":1000000001,"cpu":0,"pid":0,"type":"lost","lost_cpu":0,"count":1238,"t_begin":0,"t_end":1000000001}'
  tail -n +2 "$top_srcdir/tests/cli/data/small.jsonl"; } > "$tmp/lost.jsonl"
"$REFAULT" trace convert "$tmp/lost.jsonl" "$tmp/lost.rft" 2>/dev/null
"$REFAULT" replay "$tmp/lost.rft" -p v6.18 -o "$tmp/lost.json" > "$tmp/out" 2>&1
check "replay: the lost records are the first line of the summary, and in the results" \
	"head -n 1 '$tmp/out' | grep -q '^WARNING: the kernel lost 1258 records' && $PYTHON3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"trace\"][\"lost_events\"] == 1258' '$tmp/lost.json'"
"$REFAULT" compare "$tmp/lost.json:v6.18@kernel" "$tmp/lost.json:v6.18" > "$tmp/out" 2> "$tmp/err"
check "compare: each side's lost records, first" \
	"head -n 1 '$tmp/err' | grep -q 'WARNING: .*lost.json:v6.18@kernel: the kernel lost 1258 records'"
"$REFAULT" trace convert "$rec" "$tmp/rec.jsonl" 2>/dev/null
{ head -n 1 "$tmp/rec.jsonl"
  echo '{"t":1,"cpu":0,"pid":0,"type":"lost","lost_cpu":0,"count":1238,"t_begin":0,"t_end":1}'
  tail -n +2 "$tmp/rec.jsonl"; } > "$tmp/rec-lost.jsonl"
"$REFAULT" trace convert "$tmp/rec-lost.jsonl" "$tmp/rec-lost.rft" 2>/dev/null
"$REFAULT" validate "$tmp/rec-lost.rft" --no-series > "$tmp/out" 2>&1
check "validate: the lost records first" "head -n 1 '$tmp/out' | grep -q '^WARNING: the kernel lost 1238 records'"
# Names from a trace can hold any bytes (a cgroup path is the kernel's); the results are UTF-8 JSON
# all the same, the ill-formed bytes written as U+FFFD.
"$REFAULT" trace convert "$tmp/t.rft" "$tmp/t.jsonl" 2>/dev/null
LC_ALL=C sed 's|"path":"/hot"|"path":"/h\xff\xfeot"|' "$tmp/t.jsonl" > "$tmp/bytes.jsonl"
"$REFAULT" trace convert "$tmp/bytes.jsonl" "$tmp/bytes.rft" 2>/dev/null
"$REFAULT" replay "$tmp/bytes.rft" -q -o "$tmp/bytes.json"
check "a cgroup path of bytes that are not UTF-8: the results are strict UTF-8 JSON, U+FFFD in their place" \
	"$PYTHON3 -c 'import json,sys; d=json.loads(open(sys.argv[1],\"rb\").read().decode(\"utf-8\")); assert \"memcg./h\ufffd\ufffdot.usage\" in d[\"configs\"][0][\"stats\"]' '$tmp/bytes.json'"
"$REFAULT" replay "$tmp/t.rft" -q -o "$tmp/x.json" --set "$(printf 'limit./a\001=1G')" 2> "$tmp/err"
check "--set with a control character: exit 2, said so" \
	"test \$? -eq 2 && grep -q 'a key with a control character' '$tmp/err'"
"$REFAULT" replay "$tmp/t.rft" -q -o "$tmp/x.json" --set "$(printf 'limit./a=1G\377')" 2> "$tmp/err"
check "--set with a value that is not UTF-8: exit 2, said so, the key named" \
	"test \$? -eq 2 && grep -q 'limit./a: a value with a control character or bytes that are not UTF-8' '$tmp/err'"
# 70 more cgroups made halfway: the first 64 keep their series to the end (were frozen there).
"$PYTHON3" - "$tmp/t.jsonl" "$tmp/many.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
half = len(lines) // 2
t = json.loads(lines[half])["t"]
extra = [json.dumps({"t": t, "cpu": 0, "pid": 0, "type": "cgroup_mkdir", "id": 5000 + i,
                     "parent": 1, "path": "/extra%d" % i}) for i in range(70)]
open(sys.argv[2], "w").write("\n".join(lines[:half] + extra + lines[half:]) + "\n")
EOF
"$REFAULT" trace convert "$tmp/many.jsonl" "$tmp/many.rft" 2>/dev/null
"$REFAULT" replay "$tmp/many.rft" -p v4.5 -q -o "$tmp/many.json"
check "past 64 cgroups the first ones' series go on: each ends at its total" \
	"$PYTHON3 -c 'import json,sys; c=json.load(open(sys.argv[1]))[\"configs\"][0]; ts=c[\"timeseries\"][\"series\"]; k=[x for x in ts if x.startswith(\"memcg./\") and x.endswith(\".pgscan_kswapd\") and c[\"stats\"].get(x)]; assert k and all(ts[x][-1] == c[\"stats\"][x] for x in k), k' '$tmp/many.json'"
# A trace recorded with the multi-gen LRU on (header host.lru_gen, format 2.3): classic-LRU
# configurations alone are refused beside its kernel's numbers, unless --allow-mglru says so;
# with an -mglru profile among them the classic ones are comparisons.
sed '1s|"lru_gen":""|"lru_gen":"0x0007"|' "$tmp/t.jsonl" > "$tmp/mglru.jsonl"
"$REFAULT" trace convert "$tmp/mglru.jsonl" "$tmp/mglru.rft" 2>/dev/null
"$REFAULT" replay "$tmp/mglru.rft" -q -o "$tmp/mglru.json" 2> "$tmp/err"
check "replay of a trace recorded with MGLRU on, classic profiles only: exit 2, the file and the ways out named, no results" \
	"test \$? -eq 2 && grep -q 'mglru.rft was recorded with the multi-gen LRU on (lru_gen/enabled 0x0007).*-mglru profile.*--allow-mglru' '$tmp/err' && test ! -e '$tmp/mglru.json'"
"$REFAULT" replay "$tmp/mglru.rft" -q --allow-mglru -o "$tmp/mglru.json"
check "replay --allow-mglru replays it" "test \$? -eq 0 -a -s '$tmp/mglru.json'"
rm -f "$tmp/mglru.json"
"$REFAULT" replay "$tmp/mglru.rft" -q --profile v6.12-mglru,v6.12 -o "$tmp/mglru.json"
check "replay with an -mglru profile beside a classic one: no refusal" "test \$? -eq 0 -a -s '$tmp/mglru.json'"
"$REFAULT" validate "$tmp/mglru.rft" -q --profile v6.12 > /dev/null 2> "$tmp/err"
check "validate of a trace recorded with MGLRU on against a classic --profile: exit 2 with the same message" \
	"test \$? -eq 2 && grep -q 'recorded with the multi-gen LRU on.*--allow-mglru' '$tmp/err'"
"$REFAULT" trace convert "$top_srcdir/traces/validate-hot.rft" "$tmp/hot.jsonl" 2>/dev/null
sed '1s|"lru_gen":"[^"]*"|"lru_gen":"0x0007"|; 1s|"kernel_release":"[^"]*"|"kernel_release":"6.12.117"|' \
	"$tmp/hot.jsonl" > "$tmp/mglru612.jsonl"
"$REFAULT" trace convert "$tmp/mglru612.jsonl" "$tmp/mglru612.rft" 2>/dev/null
"$REFAULT" validate "$tmp/mglru612.rft" --json > "$tmp/v.json" 2>/dev/null
check "validate of a 6.12 trace recorded with MGLRU on picks v6.12-mglru" \
	"grep -q '\"profile\": *\"v6.12-mglru\"' '$tmp/v.json'"
exit $fail
