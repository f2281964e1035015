#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault validate without recording: command line, bad and synthetic traces, and the
# bundled real recording (traces/validate-*.rft), whose comparison is deterministic.
t=$top_srcdir/traces
tmp=$(mktemp -d "${TMPDIR:-/tmp}/validate-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
tap() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
status() { "$@" > "$tmp/out" 2> "$tmp/err"; echo $?; }

echo "1..22"
tap $([ "$(status "$REFAULT" validate)" -eq 2 ]; echo $?) "no trace: usage error, exit 2"
tap $([ "$(status "$REFAULT" validate "$t/validate-read2-large.rft" --tolerance x)" -eq 2 ]; \
	echo $?) "a bad --tolerance: exit 2"
tap $([ "$(status "$REFAULT" validate "$t/validate-read2-large.rft" --set nosuchkey=1)" -eq 2 ]; \
	echo $?) "an unknown --set key: exit 2"
grep -q nosuchkey "$tmp/err"
tap $? "... and the message names the key"
tap $([ "$(status "$REFAULT" validate "$tmp/missing.rft")" -eq 1 ]; echo $?) "a missing trace: exit 1"
tap $([ "$(status "$REFAULT" validate "$t/lru-file-readtwice.rft")" -eq 1 ]; echo $?) \
	"a synthetic trace (no kernel observations): exit 1"
grep -q "no kernel observations" "$tmp/err"
tap $? "... and it says why"

# The bundled recording: read a 256 MiB file twice in a 64 MiB cgroup (traces/README.md).
st=$(status "$REFAULT" validate "$t/validate-read2-large.rft" --slack 0 --json)
tap $([ "$st" -eq 0 ]; echo $?) "bundled read-twice recording validates within 5 %, no slack (exit $st)"
cp "$tmp/out" "$tmp/a.json"
"$PYTHON3" - "$tmp/a.json" > "$tmp/check" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
rows = {(r['scope'].rsplit('/', 1)[-1], r['quantity']): r for r in v['rows']}
main = [r for r in v['rows'] if r['kernel_source'] == 'memory.stat'][0]['scope'].rsplit('/', 1)[-1]
ref = rows[(main, 'workingset_refault_file')]
print(v['profile'], v['profile_reason'])
print('refaults', ref['kernel'], ref['model'])
print('series', len(ref['series']), len(v['phases']))
PY
grep -q "^v6.18 recorded on 6.18: the profile of that release" "$tmp/check"
tap $? "profile v6.18 picked from the header's kernel release, and why"
grep -q "^refaults 65536 65536" "$tmp/check"
tap $? "every one of the second pass's 65536 pages refaults, kernel and model"
awk '/^series/ { exit !($2 > 3 && $2 == $3) }' "$tmp/check"
tap $? "a time series with a point per counter snapshot"
"$REFAULT" validate "$t/validate-read2-large.rft" --slack 0 --json > "$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json"
tap $? "two runs give byte-identical JSON"
st=$(status "$REFAULT" validate "$t/validate-read2-large.rft" --profile v4.5)
tap $([ "$st" -eq 0 ] || [ "$st" -eq 3 ]; echo $?) "--profile overrides the choice (exit $st)"

# Pages the trace reads but never saw enter were cached before it (the program, its libraries):
# the model starts with them, outside the recorded cgroup, and counts them nowhere.
"$REFAULT" validate "$t/validate-read2-large.rft" --no-series > "$tmp/warm.txt"
grep -q "^cache: *[1-9][0-9]* pages cached before the trace pre-loaded" "$tmp/warm.txt"
tap $? "the text output says how many pages were pre-loaded"
"$REFAULT" validate "$t/validate-read2-large.rft" --slack 0 --json --cold-cache > "$tmp/cold.json"
"$PYTHON3" - "$tmp/a.json" "$tmp/cold.json" > "$tmp/warm" <<'PY'
import json, sys
warm, cold = (json.load(open(p)) for p in sys.argv[1:3])
def add(v, scope):
    rows = [r for r in v['rows'] if r['quantity'] == 'pagecache_add']
    if scope == 'main':
        return [r for r in rows if r['scope'] not in ('(trace)', '(host)')][0]
    return [r for r in rows if r['scope'] == scope][0]
m, t, c = add(warm, 'main'), add(warm, '(trace)'), add(cold, 'main')
print('preloaded', warm['preloaded_pages'], warm['precached_pages'], warm['slack_pages'])
print('recorded', m['kernel'], m['model'])
print('trace', t['kernel'], t['model'])
print('cold', c['model'] - m['model'] == warm['preloaded_pages'] > 0,
      cold['slack_pages'] == cold['precached_pages'], cold['preloaded_pages'])
PY
awk '/^preloaded/ { exit !($2 > 0 && $2 == $3 && $4 == 0) }' "$tmp/warm"
tap $? "as many pre-loaded as the kernel side counts cached before the trace, and no slack"
grep -q "^recorded 131072 131072$" "$tmp/warm"
tap $? "the recorded cgroup's insertions agree to the page: none of them pre-loaded"
grep -q "^trace 131072 131072$" "$tmp/warm"
tap $? "... and the whole trace's: the pre-loaded pages are no insertion"
grep -q "^cold True True 0$" "$tmp/warm"
tap $? "--cold-cache: the model misses exactly those pages, and they become slack"
cat "$tmp/check" "$tmp/warm" | sed 's/^/# /'

# Defaults a user can trust: a floor of 64 pages, said in the output and beside the rows it
# holds.  40 activations the model cannot see (the kernel's lru_activate of pages no reference
# of the trace touches, as the loader's text pages are): out with --slack 0.
"$REFAULT" trace convert "$t/validate-read2-large.rft" "$tmp/v.jsonl" 2>/dev/null
"$PYTHON3" - "$tmp/v.jsonl" "$tmp/act.jsonl" "$tmp/norecl.jsonl" "$tmp/onephase.jsonl" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split('\n')
head, evs = json.loads(lines[0]), [json.loads(l) for l in lines[1:] if l]
stats = [i for i, e in enumerate(evs) if e['type'] == 'counters' and e['source'] == 1]
def write(path, h, es):
    with open(path, 'w') as f:
        f.write(json.dumps(h) + '\n' + ''.join(json.dumps(e) + '\n' for e in es))
cg = evs[stats[0]]['cgroup']
added = [i for i, e in enumerate(evs) if e['type'] == 'lru_add' and e['cgroup'] == cg][:40]
act = list(evs)
for i in reversed(added):
    a = dict(evs[i]); a['type'] = 'lru_activate'; a.pop('lru', None); a.pop('cgroup', None)
    act.insert(i + 1, a)
write(sys.argv[2], head, act)
# recorded with --events refs,tasks,cgroup: no vmscan or LRU tracepoints
h = dict(head); h['recording'] = dict(h['recording'])
h['recording']['sources'] = 'filemap:mm_filemap_get_pages,filemap:mm_filemap_add_to_page_cache,' \
    'filemap:mm_filemap_delete_from_page_cache,syscalls:sys_enter_read'
write(sys.argv[3], h, [e for e in evs if e['type'] not in ('reclaim', 'lru_add', 'lru_activate')])
# counters at the start and the end only (and the 40 activations)
cs = [i for i, e in enumerate(act) if e['type'] == 'counters']
keep = set(cs[:2] + cs[-2:])
write(sys.argv[4], head, [e for i, e in enumerate(act) if e['type'] != 'counters' or i in keep])
PY
for c in act norecl onephase; do "$REFAULT" trace convert "$tmp/$c.jsonl" "$tmp/$c.rft" 2>/dev/null; done
st=$(status "$REFAULT" validate "$tmp/act.rft" --slack 0 --no-series)
tap $([ "$st" -eq 3 ]; echo $?) "40 activations no trace shows: out of tolerance with --slack 0 (exit $st)"
st=$(status "$REFAULT" validate "$tmp/act.rft" --no-series)
grep -q "tolerance: 5.0% + 64 pages (the default floor" "$tmp/out" &&
	grep -q "pgactivate .* yes  \[[0-9]\]" "$tmp/out" && grep -q "by the absolute slack alone" "$tmp/out"
tap $([ $? -eq 0 ] && [ "$st" -eq 0 ]; echo $?) \
	"... within the default 64-page floor, said in the header and beside the row (exit $st)"
st=$(status "$REFAULT" validate "$tmp/norecl.rft" --no-series)
grep -q "pgscan_file .*not recorded" "$tmp/out" && ! grep -q "pgscan_file .* NO" "$tmp/out"
tap $([ $? -eq 0 ] && [ "$st" -ne 3 ]; echo $?) \
	"a trace recorded without the vmscan tracepoints: its reclaim rows say 'not recorded', not NO"
st=$(status "$REFAULT" validate "$tmp/onephase.rft" --slack 0 --no-series)
grep -q "record with --snapshot-interval" "$tmp/out"
tap $? "counters at the start and end only: a divergence suggests --snapshot-interval"
exit $failed
