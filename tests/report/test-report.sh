#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report: the kernel's decisions from a hand-written trace whose every count is known
# (tests/report/data/decisions.jsonl), the models' totals against the replay's own counters,
# the kernel's attributed refaults against its workingset_refault_file, byte-identical output
# at any thread count, and the errors.
. "$top_srcdir/tests/report/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/report/data
"$REFAULT" trace convert "$d/decisions.jsonl" "$tmp/dec.rft" 2> /dev/null


# --- the kernel's decisions, by hand: 4 pages added by pid 100 (reader); 2 evicted by
# another task, 2 deleted inside pid 200's fadvise(DONTNEED) (no shadow); pid 300 (other)
# adds page 0 (a refault) and page 2 (not one); one activation by pfn of each adder's page,
# and one of a pfn never added.
for by in file pid comm cgroup; do
	"$REFAULT" report "$tmp/dec.rft" --by $by --json > "$tmp/dec-$by.json"
done
check "by file: 6 misses, 1 refault, 2 evictions (not the 2 pages fadvise dropped), 2 activations" \
	'[ "$(row "$tmp/dec-file.json" /data/big kernel)" = "1 6 2 2" ]'
check "the activation of a pfn never added is counted, as unattributed" \
	'[ "$(jget "$tmp/dec-file.json" "j[\"unattributed\"][\"kernel\"][\"activations\"], j[\"totals\"][\"kernel\"][\"activations\"]")" = "1 3" ]'
check "by pid: the evictions and the activation go to the pages' adder" \
	'[ "$(row "$tmp/dec-pid.json" 100:reader kernel)" = "0 4 2 1" ]'
check "by pid: the refault goes to the task that brought the page back" \
	'[ "$(row "$tmp/dec-pid.json" 300:other kernel)" = "1 2 0 1" ]'
check "by comm: the commands name_pid gave" \
	'[ "$(row "$tmp/dec-comm.json" reader kernel) / $(row "$tmp/dec-comm.json" other kernel)" = "0 4 2 1 / 1 2 0 1" ]'
check "by cgroup: the path cgroup_mkdir gave, written as the model writes it" \
	'[ "$(row "$tmp/dec-cgroup.json" /jobs/a kernel)" = "1 6 2 2" ]'
check "rows are sorted by the metric asked for (--sort misses)" \
	'"$REFAULT" report "$tmp/dec.rft" --by pid --sort misses --json | "$PYTHON3" -c "import json,sys; print([r[\"key\"] for r in json.load(sys.stdin)[\"rows\"]])" | grep -qx "\[.100:reader., .300:other.\]"'
check "the table: a header, the rows, the total and the unattributed line" \
	'"$REFAULT" report "$tmp/dec.rft" --by pid > "$tmp/t.txt" && grep -q "^ 100.00%  *1  *2  *0  *1  300:other$" "$tmp/t.txt" && grep -q "(total)$" "$tmp/t.txt" && grep -q "^# kernel, not attributed to a pid: 1 activations" "$tmp/t.txt"'

# --- a model's decisions add up to its own counters (a generated trace: no kernel source)
t=$top_srcdir/traces/cgroup-thrash.rft
"$REFAULT" replay "$t" -p v4.5,v6.18,v6.12-mglru -q -o "$tmp/r.json"
"$REFAULT" report "$t" -p v4.5,v6.18,v6.12-mglru --by cgroup --json -j 2 > "$tmp/m.json"
counters() {	# counters CONFIG: refaults activations evictions from the results
	"$PYTHON3" -c "
import json, sys
c = [c for c in json.load(open(sys.argv[1]))['configs'] if c['name'] == sys.argv[2]][0]['stats']
g = lambda k: c.get('vmstat.' + k, 0)
print(g('workingset_refault_file') + g('workingset_refault_anon'), g('pgactivate'),
      g('pgsteal_kswapd') + g('pgsteal_direct'))" "$tmp/r.json" "$1"
}
totals() {
	jget "$tmp/m.json" "'%d %d %d' % tuple(j['totals']['$1'][m] for m in ('refaults', 'activations', 'evictions'))"
}
check "v4.5: refaults, activations and evictions add up to its workingset_refault, pgactivate, pgsteal" \
	'[ "$(totals v4.5)" = "$(counters v4.5)" ]'
check "v6.18: the same" '[ "$(totals v6.18)" = "$(counters v6.18)" ]'
check "v6.12-mglru: the same, through the multi-gen LRU's eviction and refault" \
	'[ "$(totals v6.12-mglru)" = "$(counters v6.12-mglru)" ]'
check "by cgroup: /hot refaults 5896 times under v4.5 (traces/README.md)" \
	'[ "$(row "$tmp/m.json" /hot v4.5 | cut -d" " -f1)" = 5896 ]'
q="'"
check "a trace without page-cache observations is reported through v6.18 by default" \
	'[ "$("$REFAULT" report "$t" --json | "$PYTHON3" -c "import json,sys; print(json.load(sys.stdin)[\"sources\"])")" = "[${q}v6.18${q}]" ]'
check "the same report at 1 and 3 threads, byte for byte" \
	'"$REFAULT" report "$t" -p v4.6,v6.18 -b pid --json -j 1 > "$tmp/j1" && "$REFAULT" report "$t" -p v4.6,v6.18 -b pid --json -j 3 > "$tmp/j3" && cmp -s "$tmp/j1" "$tmp/j3"'

# --- a recording: the kernel's attributed refaults against its own counter
h=$top_srcdir/traces/validate-hot.rft
"$REFAULT" report "$h" -p kernel,v6.18 --json > "$tmp/h.json"
check "validate-hot: the refaults attributed to files are within 2 % of workingset_refault_file" \
	'jget "$tmp/h.json" "abs(j[\"totals\"][\"kernel\"][\"refaults\"] - j[\"kernel_counted\"][\"workingset_refault_file\"]) <= 0.02 * j[\"kernel_counted\"][\"workingset_refault_file\"]" | grep -qx True'
check "validate-hot: kernel and v6.18 side by side, with %change" \
	'"$REFAULT" report "$h" -p kernel,v6.18 | grep -q "^ *[0-9][0-9]* *[-+][0-9.]*% *[0-9][0-9]*  /var/tmp/vsuite/f256$"'

# --- the heatmap
"$REFAULT" report "$h" -p kernel,v6.18 --heatmap --heatmap-size 30x8 --json > "$tmp/hm.json"
check "heatmap: every source's cells add up to its refaults of the file" \
	'jget "$tmp/hm.json" "[sum(map(sum, j[\"heatmap\"][\"cells\"][s])) == [r for r in j[\"rows\"] if r[\"key\"] == j[\"heatmap\"][\"key\"]][0][s][\"refaults\"] for s in j[\"sources\"]]" | grep -qx "\[True, True\]"'
check "heatmap: 8 rows of 30 cells over the refaults' pages, the hot set (pages 0 to 8191, the first 32 MiB), every row with some" \
	'jget "$tmp/hm.json" "(len(j[\"heatmap\"][\"cells\"][\"kernel\"]), set(map(len, j[\"heatmap\"][\"cells\"][\"kernel\"])), j[\"heatmap\"][\"index_first\"], j[\"heatmap\"][\"index_end\"], min(map(sum, j[\"heatmap\"][\"cells\"][\"kernel\"])) > 0)" | grep -qx "(8, {30}, 0, 8192, True)"'
"$REFAULT" report "$tmp/dec.rft" --sort misses --heatmap=/data/big --heatmap-size 4x2 --json > "$tmp/hd.json"
# the time axis spans the file's misses, t=6 to t=18, in 4 columns, pages 0..3 in 2 rows: the
# adds at t=6..9 in the first column, page 0's at t=17 and page 2's at t=18 in the fourth
check "heatmap by hand: each add in the cell of its time and page, the axis from the first miss to the last" \
	'[ "$(jget "$tmp/hd.json" "j[\"heatmap\"][\"cells\"][\"kernel\"], j[\"heatmap\"][\"t_first_ns\"], j[\"heatmap\"][\"t_last_ns\"]")" = "[[2, 0, 0, 1], [2, 0, 0, 1]] 6 18" ]'
# two files (inodes 7 and 9) named with one path: one row, whose counts are both files' (the
# join added them up, not the last one's alone), and the heatmap of that row has both too
{
	head -1 "$d/decisions.jsonl"
	printf '%s\n' '{"t":1,"cpu":0,"pid":100,"type":"name_file","dev":8388609,"ino":7,"size":4096,"path":"/data/same"}' \
		'{"t":2,"cpu":0,"pid":100,"type":"name_file","dev":8388609,"ino":9,"size":4096,"path":"/data/same"}' \
		'{"t":3,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":0,"order":0,"pfn":1,"cgroup":0}' \
		'{"t":4,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":9,"index":0,"order":0,"pfn":2,"cgroup":0}' \
		'{"t":5,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":9,"index":1,"order":0,"pfn":3,"cgroup":0}'
} > "$tmp/same.jsonl"
"$REFAULT" trace convert "$tmp/same.jsonl" "$tmp/same.rft" 2> /dev/null
"$REFAULT" report "$tmp/same.rft" --sort misses --heatmap --heatmap-size 3x1 --json > "$tmp/same.json"
check "two files with one path: one row with both files' misses, the heatmap's cells too" \
	'[ "$(row "$tmp/same.json" /data/same kernel)" = "0 3 0 0" ] && [ "$(jget "$tmp/same.json" "len(j[\"rows\"]), j[\"heatmap\"][\"cells\"][\"kernel\"]")" = "1 [[1, 1, 1]]" ]'
# a page cached before the trace, evicted twice (its second delete after an add by another task
# in cgroup 5): both evictions unattributed in the pid and cgroup views, none counted to cgroup
# 5 or to [no task]
{
	head -1 "$d/decisions.jsonl"
	printf '%s\n' '{"t":1,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":5,"parent":1,"path":"jobs/a"}' \
		'{"t":2,"cpu":0,"pid":42,"type":"pagecache_del","dev":8388609,"ino":7,"index":5,"order":0,"pfn":9}' \
		'{"t":3,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":0,"order":0,"pfn":1,"cgroup":5}' \
		'{"t":4,"cpu":0,"pid":42,"type":"pagecache_del","dev":8388609,"ino":7,"index":5,"order":0,"pfn":9}'
} > "$tmp/old.jsonl"
"$REFAULT" trace convert "$tmp/old.jsonl" "$tmp/old.rft" 2> /dev/null
check "a page evicted twice, never added: both evictions unattributed (pid, cgroup views)" \
	'"$REFAULT" report "$tmp/old.rft" --by pid --json > "$tmp/old-pid.json" && "$REFAULT" report "$tmp/old.rft" --by cgroup --json > "$tmp/old-cg.json" && [ "$(jget "$tmp/old-pid.json" "j[\"unattributed\"][\"kernel\"][\"evictions\"], sum(r[\"kernel\"][\"evictions\"] for r in j[\"rows\"])")" = "2 0" ] && [ "$(jget "$tmp/old-cg.json" "j[\"unattributed\"][\"kernel\"][\"evictions\"], sum(r[\"kernel\"][\"evictions\"] for r in j[\"rows\"])")" = "2 0" ]'
check "heatmap in the table: one grid per source after the rows" \
	'"$REFAULT" report "$h" -p kernel,v6.18 --heatmap --heatmap-size 20x4 | grep -c "^ *[0-9][0-9]* |.\{20\}|$" | grep -qx 8'
"$REFAULT" report "$h" --by pid --heatmap > /dev/null 2> "$tmp/e"; st=$?
check "heatmap --by pid: exit 2, a heatmap is of a file" '[ $st -eq 2 ] && grep -q "by file" "$tmp/e"'
"$REFAULT" report "$h" --heatmap=/nosuch > /dev/null 2> "$tmp/e"; st=$?
check "heatmap of a file not in the table: exit 2, naming it" '[ $st -eq 2 ] && grep -q "/nosuch" "$tmp/e"'

# --- results files as sources: their configurations replayed again on the trace they name
cp "$t" "$tmp/ct.rft"
(cd "$tmp" && "$REFAULT" replay ct.rft -p v4.5,v4.6 -q -o ct.json && "$REFAULT" replay ct.rft -p v4.6 \
	-s memory=48M -q -o ct48.json)
"$REFAULT" report "$tmp/ct.rft" -p v4.5,v4.6 -b cgroup --json > "$tmp/from-trace.json"
"$REFAULT" report "$tmp/ct.json:v4.5" "$tmp/ct.json:v4.6" -b cgroup --json > "$tmp/from-results.json"
check "RESULTS.json:CONFIG sides: the rows of the trace with those profiles (the trace found beside the results)" \
	'[ "$(jget "$tmp/from-trace.json" "j[\"rows\"], j[\"totals\"]")" = "$(jget "$tmp/from-results.json" "j[\"rows\"], j[\"totals\"]")" ]'
check "a configuration with settings: its name gives them (v4.6,memory=48M refaults more)" \
	'"$REFAULT" report "$tmp/ct.json:v4.6" "$tmp/ct48.json" -b cgroup --json | "$PYTHON3" -c "import json,sys; t=json.load(sys.stdin)[\"totals\"]; sys.exit(not t[\"v4.6,memory=48M\"][\"refaults\"] > t[\"v4.6\"][\"refaults\"])"'
"$REFAULT" report "$tmp/ct.json" > /dev/null 2> "$tmp/e"; st=$?
check "a results file of two configurations without :NAME: exit 2, saying so" \
	'[ $st -eq 2 ] && grep -q "say which" "$tmp/e"'
"$REFAULT" report "$tmp/ct.json:v4.5" -p v6.18 > /dev/null 2>&1; st=$?
check "--profile with results sides: exit 2" '[ $st -eq 2 ]'
cp "$top_srcdir/traces/lru-file-readtwice.rft" "$tmp/ct.rft"
"$REFAULT" report "$tmp/ct.json:v4.5" > /dev/null 2> "$tmp/e"; st=$?
check "the trace at the results' path is another one: exit 1, the fingerprints named" \
	'[ $st -eq 1 ] && grep -q "not the trace the results replayed" "$tmp/e"'

# --- errors
"$REFAULT" report "$t" --by nonsense > /dev/null 2> "$tmp/e"; st=$?
check "--by nonsense: exit 2, naming the choices" \
	'[ $st -eq 2 ] && grep -q "file, cgroup, pid, comm, callsite or symbol" "$tmp/e"'
"$REFAULT" report "$t" -p v9.99 > /dev/null 2>&1; st=$?
check "an unknown profile: exit 2" '[ $st -eq 2 ]'
"$REFAULT" report "$tmp/nosuch.rft" > /dev/null 2> "$tmp/e"; st=$?
check "a trace that is not there: exit 1, naming it" '[ $st -eq 1 ] && grep -q "nosuch.rft" "$tmp/e"'
head -c 3000 "$t" > "$tmp/cut.rft"
echo precious > "$tmp/keep"
"$REFAULT" report "$tmp/cut.rft" -o "$tmp/keep" > /dev/null 2>&1; st=$?
check "a damaged trace fails and leaves -o's file as it was" \
	'[ $st -eq 1 ] && [ "$(cat "$tmp/keep")" = precious ] && ! ls -a "$tmp" | grep -q tmp-'
check "-o writes the report when it succeeds" \
	'"$REFAULT" report "$tmp/dec.rft" -o "$tmp/keep" && grep -q /data/big "$tmp/keep"'
"$REFAULT" report "$t" -p kernel,kernel > /dev/null 2>&1; st=$?
check "a source listed twice: exit 2" '[ $st -eq 2 ]'
done_testing
