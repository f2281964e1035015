#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report --by callsite / symbol and --folded: which code refaults.  A hand-written trace
# with call stacks (tests/report/data/stacks.jsonl) whose every count is known for the kernel
# source; a trace of references only, with the same stacks, for a model; the bracketed keys;
# the folded stacks line for line; the JSON's frames; the HTML page's flame graph.
. "$top_srcdir/tests/lib/tap.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" > /dev/null 2>&1 || { skip_all "no python3 to read the JSON"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report-stacks.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/report/data
"$REFAULT" trace convert "$d/stacks.jsonl" "$tmp/s.rft" 2> /dev/null

jget() { "$PYTHON3" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
# row FILE KEY SOURCE: that row's counts "refaults misses evictions activations"
row() {
	"$PYTHON3" -c "
import json, sys
j = json.load(open(sys.argv[1]))
r = [x for x in j['rows'] if x['key'] == sys.argv[2]]
print(' '.join(str(r[0][sys.argv[3]][m]) for m in ('refaults', 'misses', 'evictions', 'activations')) if r else 'none')" "$1" "$2" "$3"
}
# rows_add_up FILE: every source's rows plus its unattributed make its totals
rows_add_up() {
	"$PYTHON3" -c "
import json, sys
j = json.load(open(sys.argv[1]))
print(all(sum(r[s][m] for r in j['rows']) + j['unattributed'][s][m] == j['totals'][s][m]
          for s in j['sources'] for m in ('refaults', 'misses', 'evictions', 'activations')))" "$1"
}

# --- the kernel, by hand.  Frames: main, reread_big, read_file (three addresses: stacks 1 and
# 4 are named alike), read_hot, a libc frame without a symbol; stack 5 has a frame id that no
# name_frame names.  pid 100 (app) reads pages 0-9 of /data/big through reread_big (stack 1;
# the adds and a file_readahead before the read, as the recorder writes them) and page 0 of
# /data/hot through read_hot (stack 2); pid 42 evicts all 11; reread_big reads pages 0-8 again
# (stack 4): 9 refaults; read_hot reads its page again: 1 refault, then an activation of it.
# Then one read each without a stack, of stack 5, of stack 7 (never named), of stack 6 (the
# libc frame); pid 301 adds page 15 and exits before a reference, and its pid, used again,
# reads page 16 through stack 1; pid 300 adds page 14 and makes no reference after it.
"$REFAULT" report "$tmp/s.rft" --by callsite --json > "$tmp/k.json"
check "kernel by callsite: reread_big's path has the 9 refaults, its misses and evictions" \
	'[ "$(row "$tmp/k.json" "read_file <- reread_big <- main" kernel)" = "9 20 10 0" ]'
check "kernel by callsite: read_hot's path has 1 refault, its eviction and its activation" \
	'[ "$(row "$tmp/k.json" "read_file <- read_hot <- main" kernel)" = "1 2 1 1" ]'
check "two stacks whose frames are named alike are one key: 6 rows" \
	'[ "$(jget "$tmp/k.json" "len(j[\"rows\"])")" = 6 ]'
check "[no stack]: the read without one, the add of a task that exited, the add no reference claimed" \
	'[ "$(row "$tmp/k.json" "[no stack]" kernel)" = "0 3 0 0" ]'
check "a frame id no name_frame names is [unknown]" \
	'[ "$(row "$tmp/k.json" "[unknown] <- main" kernel)" = "0 1 0 0" ]'
check "a stack id never named is [stack 7]" \
	'[ "$(row "$tmp/k.json" "[stack 7]" kernel)" = "0 1 0 0" ]'
check "a frame without a symbol is [its dso's basename+0xaddr]" \
	'[ "$(row "$tmp/k.json" "[libc.so.6+0x2a1ca] <- main" kernel)" = "0 1 0 0" ]'
"$REFAULT" report "$tmp/s.rft" --by file --json > "$tmp/kf.json"
check "the callsite view's totals are the file view's, and its rows add up to them" \
	'[ "$(jget "$tmp/k.json" "j[\"totals\"]")" = "$(jget "$tmp/kf.json" "j[\"totals\"]")" ] && [ "$(rows_add_up "$tmp/k.json")" = True ]'
check "JSON: a row's frames, innermost first, with symbol, dso, file and line" \
	'[ "$(jget "$tmp/k.json" "[(f[\"name\"], f[\"symbol\"], f[\"dso\"], f[\"file\"], f[\"line\"]) for f in j[\"rows\"][0][\"frames\"]]")" = "[('"'read_file', 'read_file', '/usr/bin/app', 'app.c', 10), ('reread_big', 'reread_big', '/usr/bin/app', 'app.c', 20), ('main', 'main', '/usr/bin/app', 'app.c', 40)]"'" ]'
check "JSON: the unnamed frames' symbol is null; the bracketed keys have no frames" \
	'[ "$(jget "$tmp/k.json" "[(r[\"key\"], [f[\"symbol\"] for f in r[\"frames\"]]) for r in j[\"rows\"] if r[\"key\"].startswith(\"[\")]")" = "[('"'[libc.so.6+0x2a1ca] <- main', [None, 'main']), ('[no stack]', []), ('[stack 7]', []), ('[unknown] <- main', [None, 'main'])]"'" ]'
check "the table: the callsite column, the key as inner <- caller <- ..." \
	'"$REFAULT" report "$tmp/s.rft" --by callsite > "$tmp/t.txt" && grep -q "  callsite$" "$tmp/t.txt" && grep -q "^  90.00%  *9  *20  *10  *0  read_file <- reread_big <- main$" "$tmp/t.txt"'
check "--by symbol: the innermost frame alone, its stacks together" \
	'[ "$("$REFAULT" report "$tmp/s.rft" --by symbol --json > "$tmp/sym.json" && row "$tmp/sym.json" read_file kernel)" = "10 22 11 1" ]'
check "--callsite-depth 2: the two innermost frames" \
	'[ "$("$REFAULT" report "$tmp/s.rft" --by callsite --callsite-depth 2 --json > "$tmp/d2.json" && row "$tmp/d2.json" "read_file <- reread_big" kernel)" = "9 20 10 0" ]'

# --- folded stacks
printf '%s\n' 'main;read_hot;read_file 1' 'main;reread_big;read_file 9' > "$tmp/want"
check "--folded: outermost first, the refaults, one line per stack, sorted, none of 0" \
	'"$REFAULT" report "$tmp/s.rft" --folded > "$tmp/f" && cmp -s "$tmp/want" "$tmp/f"'
printf '%s\n' '[no stack] 3' '[stack 7] 1' 'main;[libc.so.6+0x2a1ca] 1' 'main;[unknown] 1' \
	'main;read_hot;read_file 2' 'main;reread_big;read_file 20' > "$tmp/want"
check "--folded --sort misses: every stack, the bracketed keys as one frame" \
	'"$REFAULT" report "$tmp/s.rft" --folded --sort misses > "$tmp/f" && cmp -s "$tmp/want" "$tmp/f"'
printf '%s\n' 'read_file 10' > "$tmp/want"
check "--folded --by symbol" \
	'"$REFAULT" report "$tmp/s.rft" --folded --by symbol > "$tmp/f" && cmp -s "$tmp/want" "$tmp/f"'
printf '%s\n' '[no stack] 1' '[stack 7] 1' 'main;[libc.so.6+0x2a1ca] 1' 'main;[unknown] 1' \
	'main;read_hot;read_file 1' 'main;reread_big;read_file 11' > "$tmp/want"
check "--folded=v6.18: the second source's (the readahead's misses with the read after it)" \
	'"$REFAULT" report "$tmp/s.rft" -p kernel,v6.18 --folded=v6.18 --sort misses > "$tmp/f" && cmp -s "$tmp/want" "$tmp/f"'

# --- a model: references only, the same stacks; /data/big (512 pages) read 4 times in reads of
# 16 pages, by reread_big (stacks 1 and 4 in turn), /data/hot's page between them, one read
# without a stack; in 1 MiB the big file's last 3 passes refault, 1536 pages.
{
	sed -n '1,/"type":"name_stack","id":6,/p' "$d/stacks.jsonl"
	t=1000
	for pass in 1 2 3 4; do
		s=$((pass % 2 ? 1 : 4))
		for c in $(seq 0 16 511); do
			t=$((t + 1))
			printf '{"t":%d,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":%d,"nr":16,"stack":%d}\n' $t $c $s
			t=$((t + 1))
			printf '{"t":%d,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":8,"index":0,"nr":1,"stack":2}\n' $t
		done
	done
	printf '{"t":%d,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":600,"nr":1}\n' $((t + 1))
} > "$tmp/refs.jsonl"
"$REFAULT" trace convert "$tmp/refs.jsonl" "$tmp/refs.rft" 2> /dev/null
"$REFAULT" report "$tmp/refs.rft" -p v6.18 --set memory=1M --by callsite --json > "$tmp/m.json"
"$REFAULT" replay "$tmp/refs.rft" -p v6.18 -s memory=1M -q -o "$tmp/r.json"
src='v6.18,memory=1M'
check "v6.18 by callsite: the rows' refaults add up to its workingset_refault_file" \
	'[ "$(rows_add_up "$tmp/m.json")" = True ] && [ "$(jget "$tmp/m.json" "sum(r[\"$src\"][\"refaults\"] for r in j[\"rows\"])")" = "$(jget "$tmp/r.json" "j[\"configs\"][0][\"stats\"][\"vmstat.workingset_refault_file\"]")" ]'
check "v6.18 by callsite: the big file's 1536 refaults on reread_big's path" \
	'[ "$(row "$tmp/m.json" "read_file <- reread_big <- main" "$src" | cut -d" " -f1)" = 1536 ]'
check "v6.18 by callsite: the read without a stack is [no stack]" \
	'[ "$(row "$tmp/m.json" "[no stack]" "$src" | cut -d" " -f2)" = 1 ]'
check "the same report at 1 and 3 threads, byte for byte (two models, --json and --folded)" \
	'"$REFAULT" report "$tmp/refs.rft" -p v6.18,v4.5 --set memory=1M -b callsite --json -j 1 > "$tmp/j1" && "$REFAULT" report "$tmp/refs.rft" -p v6.18,v4.5 --set memory=1M -b callsite --json -j 3 > "$tmp/j3" && cmp -s "$tmp/j1" "$tmp/j3" && "$REFAULT" report "$tmp/refs.rft" -p v6.18,v4.5 --set memory=1M --folded=v4.5,memory=1M -j 1 > "$tmp/j1" && "$REFAULT" report "$tmp/refs.rft" -p v6.18,v4.5 --set memory=1M --folded=v4.5,memory=1M -j 3 > "$tmp/j3" && cmp -s "$tmp/j1" "$tmp/j3" && [ -s "$tmp/j1" ]'

# --- a recording without stacks: everything is [no stack]
h=$top_srcdir/traces/validate-hot.rft
"$REFAULT" report "$h" --by callsite --json > "$tmp/h.json"
check "a trace without stacks: one row, [no stack], with every attributed decision" \
	'[ "$(jget "$tmp/h.json" "\"|\".join(r[\"key\"] for r in j[\"rows\"]), all(j[\"rows\"][0][\"kernel\"][m] + j[\"unattributed\"][\"kernel\"][m] == j[\"totals\"][\"kernel\"][m] for m in j[\"totals\"][\"kernel\"])")" = "[no stack] True" ]'

# --- the HTML page's flame graph
"$REFAULT" report "$tmp/s.rft" -p kernel,v6.18 --by callsite --html "$tmp/s.html" > /dev/null
check "HTML: the kernel's flame graph, a frame each for all, main, the two callers and read_file twice" \
	'[ $(grep -c "<svg class=\"flame\"" "$tmp/s.html") -eq 1 ] && [ $(grep -c "<rect class=\"flame\"" "$tmp/s.html") -eq 6 ]'
check "HTML: v6.18 refaults nowhere here, and says so instead of a flame graph" \
	'grep -q "<p class=\"note\">No refaults to draw.</p>" "$tmp/s.html"'
check "HTML: the frames' tooltips give their count and share; reread_big 9 of the kernel's 10" \
	'grep -q "<title>reread_big: 9 refaults (90.00%)</title>" "$tmp/s.html" && grep -q "<title>all: 10 refaults (100.00%)</title>" "$tmp/s.html"'
check "HTML: the same page at 1 and 3 threads" \
	'"$REFAULT" report "$tmp/s.rft" -p kernel,v6.18 --by callsite --html "$tmp/s3.html" -j 3 > /dev/null && cmp -s "$tmp/s.html" "$tmp/s3.html"'

# --- errors
"$REFAULT" report "$tmp/s.rft" --folded --by file > /dev/null 2> "$tmp/e"; st=$?
check "--folded --by file: exit 2, saying which views have stacks" \
	'[ $st -eq 2 ] && grep -q "callsite or symbol" "$tmp/e"'
"$REFAULT" report "$tmp/s.rft" --by pid --callsite-depth 2 > /dev/null 2>&1; st=$?
check "--callsite-depth without --by callsite: exit 2" '[ $st -eq 2 ]'
"$REFAULT" report "$tmp/s.rft" --folded=v6.18 -o "$tmp/none" > /dev/null 2> "$tmp/e"; st=$?
check "--folded=SOURCE of a source not asked for: exit 2, naming the sources, nothing written" \
	'[ $st -eq 2 ] && grep -q "^  kernel$" "$tmp/e" && [ ! -e "$tmp/none" ]'
done_testing
