#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The cgroup of a per-cgroup setting (limit., memsw., swap_max., high., low.), through the CLI:
# "recorded" (the cgroup the trace recorded, as results and compare name it: memcg.recorded)
# and recorded/CHILD are taken by replay, validate, a --matrix and a sweep, and act as the
# cgroup's path does; a cgroup the trace does not have is refused (exit 2) with the key and the
# trace's cgroups, as is "recorded" in a trace that recorded none, and the results file already
# there is left as it was.
: "${REFAULT:?}" "${top_srcdir:?}" "${PYTHON3:=python3}"
. "$top_srcdir/tests/lib/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/refault-cgset.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

# A hand-written recording of -G /rec: /rec with a child /rec/a where the task reads 2048
# pages twice (8 MiB: a 4M limit makes it reclaim), /other beside /rec; page-cache adds make
# it a trace validate takes.
header() {	# header CGROUP SCOPE
	printf '{"format":"refault-trace","version":[3,1],"producer":"tests/replay","producer_version":"1","created":0,"clock":"mono","time_resolution":1,"host":{"hostname":"test","kernel_release":"6.18.0","arch":"x86_64","page_size":4096,"cpus":2,"mem_bytes":1073741824,"swap_bytes":0,"numa_nodes":1,"thp_mode":"madvise","lru_gen":"","cgroup_version":2,"cgroup_mount":"/sys/fs/cgroup"},"recording":{"synthetic":false,"sources":"","scope":"%s","command":"hand-written: tests/replay/test-replay-cgroup-set.sh","params":"","cgroup":"%s"}}\n' "$2" "$1"
}
events() {
	cat <<EOF
{"t":1000,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":1,"parent":0,"path":"/"}
{"t":1001,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":2,"parent":1,"path":"/rec"}
{"t":1002,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":3,"parent":2,"path":"/rec/a"}
{"t":1003,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":4,"parent":1,"path":"/other"}
{"t":1004,"cpu":0,"pid":100,"type":"cgroup_attach","id":3,"target":100}
{"t":1005,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":0,"order":0,"pfn":1,"cgroup":3}
{"t":1006,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":1,"order":0,"pfn":2,"cgroup":3}
{"t":1010,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":0,"nr":2048}
{"t":2000,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":0,"nr":2048}
EOF
}
{ header /rec "-G /rec"; events; } > rec.jsonl
{ header "" "-a"; events; } > all.jsonl
"$REFAULT" trace convert rec.jsonl rec.rft > /dev/null 2>&1 &&
	"$REFAULT" trace convert all.jsonl all.rft > /dev/null 2>&1
check "a hand-written recording of -G /rec, and the same as -a" "test -s rec.rft -a -s all.rft"

# replay ARGS...: status in $rc, stderr in err
replay() {
	rc=0
	"$REFAULT" replay rec.rft -q -j 1 "$@" 2> err || rc=$?
}
# A configuration's stats and settings from results FILE, as JSON text (compared as text).
stats() {
	"$PYTHON3" -c 'import json,sys; c=json.load(open(sys.argv[1]))["configs"][0]; print(json.dumps(c["stats"], sort_keys=True))' "$1"
}
settings() {
	"$PYTHON3" -c 'import json,sys; c=json.load(open(sys.argv[1]))["configs"][0]; print(json.dumps(c["settings"], sort_keys=True))' "$1"
}
stat() {	# FILE KEY
	"$PYTHON3" -c 'import json,sys; print(json.load(open(sys.argv[1]))["configs"][0]["stats"].get(sys.argv[2], 0))' "$1" "$2"
}

replay -o none.json
replay --set limit.recorded=4M -o rec.json
check "replay --set limit.recorded=4M is taken" "[ $rc -eq 0 ] && test -s rec.json"
replay --set limit./rec=4M -o path.json
check "... and acts as limit./rec=4M: the same counters" \
	"[ -n \"\$(stats rec.json)\" ] && [ \"\$(stats rec.json)\" = \"\$(stats path.json)\" ]"
check "... which the limit changed: the recorded cgroup hit it, and reclaimed" \
	"[ \$(stat rec.json memcg.recorded.failcnt) -gt 0 ] && [ \$(stat none.json memcg.recorded.failcnt) -eq 0 ] && [ \$(stat rec.json vmstat.pgsteal_file) -gt 0 ]"
check "the results give the setting as set, the same in every recording" \
	"settings rec.json | grep -q '\"limit.recorded\"' && ! settings rec.json | grep -q 'limit./rec'"
replay --set limit.recorded/a=4M -o child.json
replay --set limit./rec/a=4M -o childpath.json
check "limit.recorded/a=4M is the child's limit, as limit./rec/a=4M" \
	"[ $rc -eq 0 ] && [ \"\$(stats child.json)\" = \"\$(stats childpath.json)\" ] && [ \$(stat child.json memcg.recorded/a.failcnt) -gt 0 ] && [ \$(stat child.json memcg.recorded.failcnt) -eq 0 ]"
ok=1
for k in memsw swap_max high low; do
	replay --set $k.recorded=1G --set $k.recorded/a=1G -o fam.json
	[ $rc -eq 0 ] || { ok=0; sed "s/^/# $k: /" err; }
done
check "memsw., swap_max., high. and low. take recorded and recorded/a too" "[ $ok -eq 1 ]"
printf 'v6.18 limit.recorded=4M|max\n' > m.txt
replay --matrix m.txt -o matrix.json
check "a --matrix line takes limit.recorded=4M|max" \
	"[ $rc -eq 0 ] && grep -q 'v6.18,limit.recorded=4M' matrix.json && grep -q 'v6.18,limit.recorded=max' matrix.json"

# cgroups the trace does not have
cp none.json kept.json
replay --set limit./nonexistent=96M -o kept.json
check "limit./nonexistent=96M: exit 2, the key, and the trace's cgroups by the names settings take" \
	"[ $rc -eq 2 ] && grep -q 'limit./nonexistent: the trace has no cgroup /nonexistent; its cgroups are recorded (/rec), recorded/a, /, /other' err"
check "... and the results file there is left as it was" "cmp -s none.json kept.json"
replay --set high./rec/b=1M
check "high./rec/b: refused the same way" "[ $rc -eq 2 ] && grep -q 'high./rec/b: the trace has no cgroup /rec/b' err"
replay --set limit.recorded/b=1M
check "limit.recorded/b: refused, with the path it would be" \
	"[ $rc -eq 2 ] && grep -q 'limit.recorded/b: the trace has no cgroup /rec/b' err"
replay --set limit.rec=1M
check "limit.rec: neither a role nor a path: exit 2, says what names a cgroup" \
	"[ $rc -eq 2 ] && grep -q 'limit.rec: name the cgroup as recorded' err"
replay --set limit.recorded=4M --set limit./rec=8M
check "limit.recorded and limit./rec together: exit 2, they name one cgroup" \
	"[ $rc -eq 2 ] && grep -q 'limit.recorded and limit./rec name the same cgroup, /rec' err"
rc=0
"$REFAULT" replay all.rft -q -j 1 --set limit.recorded=4M 2> err || rc=$?
check "limit.recorded on a trace of -a: exit 2, it recorded no cgroup, and its cgroups" \
	"[ $rc -eq 2 ] && grep -q 'limit.recorded: all.rft names no recorded cgroup .*its cgroups are /, /rec, /rec/a, /other' err"

# validate and sweep take the same settings
rc=0
"$REFAULT" validate rec.rft -q -j 1 --set limit.recorded=4M > v.out 2> err || rc=$?
check "validate --set limit.recorded=4M is taken (exit $rc)" "[ $rc -eq 0 ] || [ $rc -eq 3 ]"
rc=0
"$REFAULT" validate rec.rft -q -j 1 --set limit./nonexistent=4M > v.out 2> err || rc=$?
check "validate --set limit./nonexistent=4M: exit 2 and the key" \
	"[ $rc -eq 2 ] && grep -q 'limit./nonexistent: the trace has no cgroup' err"
printf 'trace %s\nmatrix v6.18 limit.recorded=4M|max\n' "$T/rec.rft" > s.spec
rc=0
{ "$REFAULT" sweep plan s.spec -o plan.json && "$REFAULT" sweep run plan.json -j 1 --engine processes &&
	"$REFAULT" sweep merge plan.json -o sweep.json; } > sweep.out 2>&1 || rc=$?
check "a sweep's matrix takes limit.recorded=4M|max: planned, run and merged" \
	"[ $rc -eq 0 ] && grep -q 'limit.recorded' sweep.json"
[ $rc -eq 0 ] || sed 's/^/# /' sweep.out
done_testing
