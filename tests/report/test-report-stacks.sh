#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report --by callsite / symbol and --folded: which code refaults.  A hand-written trace
# with call stacks (tests/report/data/stacks.jsonl) whose every count is known for the kernel
# source; a trace of references only, with the same stacks, for a model; the bracketed keys;
# the folded stacks line for line; the JSON's frames; the HTML page's flame graph.
. "$top_srcdir/tests/report/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report-stacks.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/report/data
"$REFAULT" trace convert "$d/stacks.jsonl" "$tmp/s.rft" 2> /dev/null

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

# --- --children (the symbol view): a decision counts once to every function on its stack
# rowself FILE KEY SOURCE: that row's self counts
rowself() {
	"$PYTHON3" -c "
import json, sys
j = json.load(open(sys.argv[1]))
r = [x for x in j['rows'] if x['key'] == sys.argv[2]]
print(' '.join(str(r[0]['self'][sys.argv[3]][m]) for m in ('refaults', 'misses', 'evictions', 'activations')) if r else 'none')" "$1" "$2" "$3"
}
# children_ok FILE: every source's self rows plus its unattributed make its totals, and no
# row's children pass them or fall short of its self
children_ok() {
	"$PYTHON3" -c "
import json, sys
j = json.load(open(sys.argv[1]))
M = ('refaults', 'misses', 'evictions', 'activations')
print(j['children'] and all(sum(r['self'][s][m] for r in j['rows']) + j['unattributed'][s][m] == j['totals'][s][m]
          and all(r['self'][s][m] <= r[s][m] <= j['totals'][s][m] - j['unattributed'][s][m] for r in j['rows'])
          for s in j['sources'] for m in M))" "$1"
}
"$REFAULT" report "$tmp/s.rft" --by symbol --children --json > "$tmp/c.json"
check "--children: main has every decision with a stack through it" \
	'[ "$(row "$tmp/c.json" main kernel)" = "10 24 11 1" ] && [ "$(rowself "$tmp/c.json" main kernel)" = "0 0 0 0" ]'
check "--children: read_file has both paths, all of them its own (self)" \
	'[ "$(row "$tmp/c.json" read_file kernel)" = "10 22 11 1" ] && [ "$(rowself "$tmp/c.json" read_file kernel)" = "10 22 11 1" ]'
check "--children: reread_big has its path, read_hot its own, neither any self" \
	'[ "$(row "$tmp/c.json" reread_big kernel)" = "9 20 10 0" ] && [ "$(rowself "$tmp/c.json" reread_big kernel)" = "0 0 0 0" ] && [ "$(row "$tmp/c.json" read_hot kernel)" = "1 2 1 1" ] && [ "$(rowself "$tmp/c.json" read_hot kernel)" = "0 0 0 0" ]'
check "--children: the unnamed frames and the bracketed keys as the symbol view has them" \
	'[ "$(row "$tmp/c.json" "[no stack]" kernel)" = "0 3 0 0" ] && [ "$(rowself "$tmp/c.json" "[no stack]" kernel)" = "0 3 0 0" ] && [ "$(row "$tmp/c.json" "[stack 7]" kernel)" = "0 1 0 0" ] && [ "$(row "$tmp/c.json" "[unknown]" kernel)" = "0 1 0 0" ] && [ "$(rowself "$tmp/c.json" "[libc.so.6+0x2a1ca]" kernel)" = "0 1 0 0" ] && [ "$(jget "$tmp/c.json" "len(j[\"rows\"])")" = 8 ]'
check "--children: the totals are the symbol view's, the self rows add up to them, no row passes them" \
	'[ "$(jget "$tmp/c.json" "j[\"totals\"]")" = "$(jget "$tmp/sym.json" "j[\"totals\"]")" ] && [ "$(children_ok "$tmp/c.json")" = True ] && [ "$(jget "$tmp/c.json" "sorted((r[\"key\"], r[\"self\"][\"kernel\"]) for r in j[\"rows\"] if any(r[\"self\"][\"kernel\"].values()))")" = "$(jget "$tmp/sym.json" "sorted((r[\"key\"], r[\"kernel\"]) for r in j[\"rows\"])")" ]'
check "--children: a row's frame is the function's own" \
	'[ "$(jget "$tmp/c.json" "[(r[\"key\"], [(f[\"name\"], f[\"line\"]) for f in r[\"frames\"]]) for r in j[\"rows\"][:3]]")" = "[('"'main', [('main', 40)]), ('read_file', [('read_file', 10)]), ('reread_big', [('reread_big', 20)])]"'" ]'
"$REFAULT" report "$tmp/s.rft" --children > "$tmp/t.txt"
check "--children table: Children and Self shares, the children's counts; without --by, the symbol view" \
	'grep -q "^Children     Self   Refaults     Misses  Evictions Activations  symbol$" "$tmp/t.txt" && grep -q "^ 100.00%    0.00%         10         24         11           1  main$" "$tmp/t.txt" && grep -q "^ 100.00%  100.00%         10         22         11           1  read_file$" "$tmp/t.txt" && grep -q "^  90.00%    0.00%          9         20         10           0  reread_big$" "$tmp/t.txt" && grep -q "^                          10         28         11           1  (total)$" "$tmp/t.txt"'
"$REFAULT" report "$tmp/s.rft" --children -p kernel,v6.18 --sort misses > "$tmp/t2.txt"
check "--children, two sources: each one's count and its self beside it" \
	'grep -q "^      kernel       self   %change        v6.18       self  symbol$" "$tmp/t2.txt" && grep -q "^          22         22    -45.5%           12         12  read_file$" "$tmp/t2.txt" && grep -q "^          24          0    -41.7%           14          0  main$" "$tmp/t2.txt"'
check "--children --folded: the self counts, the symbol view's lines" \
	'"$REFAULT" report "$tmp/s.rft" --children --folded --sort misses > "$tmp/f1" && "$REFAULT" report "$tmp/s.rft" --by symbol --folded --sort misses > "$tmp/f2" && cmp -s "$tmp/f1" "$tmp/f2" && [ -s "$tmp/f1" ]'
"$REFAULT" report "$tmp/s.rft" --children --html "$tmp/c.html" > /dev/null
check "--children HTML: children and self columns, the symbol view's flame graph" \
	'grep -q "<th>children</th><th>self</th>" "$tmp/c.html" && grep -q "<td>100.00%</td><td>0.00%</td><td>10</td><td>24</td><td>11</td><td>1</td><td class=\"key\">main</td>" "$tmp/c.html" && [ $(grep -c "<rect class=\"flame\"" "$tmp/c.html") -eq 2 ]'
# a recursion (read_file twice on one stack) counts once; a stack named only after a reference
# used its id names that reference's row too (the recorder names stacks and frames when it can)
{
	sed -n '1,/"type":"name_stack","id":6,/p' "$d/stacks.jsonl"
	printf '%s\n' '{"t":20,"cpu":0,"pid":100,"type":"name_stack","id":8,"frames":[3,2,5,1]}' \
		'{"t":21,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":0,"order":0,"pfn":1001,"cgroup":0}' \
		'{"t":22,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":0,"nr":1,"stack":8}' \
		'{"t":23,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":1,"order":0,"pfn":1002,"cgroup":0}' \
		'{"t":24,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":1,"nr":1,"stack":9}' \
		'{"t":25,"cpu":0,"pid":100,"type":"name_stack","id":9,"frames":[4,1]}' \
		'{"t":26,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":2,"order":0,"pfn":1003,"cgroup":0}' \
		'{"t":27,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":2,"nr":1,"stack":9}'
} > "$tmp/rec.jsonl"
"$REFAULT" trace convert "$tmp/rec.jsonl" "$tmp/rec.rft" 2> /dev/null
"$REFAULT" report "$tmp/rec.rft" --children --sort misses --json > "$tmp/rc.json"
check "--children: a function twice on a stack counts once" \
	'[ "$(row "$tmp/rc.json" read_file kernel)" = "0 1 0 0" ] && [ "$(rowself "$tmp/rc.json" read_file kernel)" = "0 1 0 0" ] && [ "$(row "$tmp/rc.json" main kernel)" = "0 3 0 0" ] && [ "$(children_ok "$tmp/rc.json")" = True ]'
"$REFAULT" report "$tmp/rec.rft" --by callsite --sort misses --json > "$tmp/rk.json"
check "a stack id named after a reference used it: that reference's too, no [stack 9] (table, JSON frames, folded)" \
	'[ "$(row "$tmp/rk.json" "[stack 9]" kernel)" = none ] && [ "$(row "$tmp/rk.json" "read_hot <- main" kernel)" = "0 2 0 0" ] && [ "$(jget "$tmp/rk.json" "[[f[\"name\"] for f in r[\"frames\"]] for r in j[\"rows\"] if r[\"key\"] == \"read_hot <- main\"]")" = "[['"'read_hot', 'main'"']]" ] && "$REFAULT" report "$tmp/rec.rft" --folded --sort misses | grep -qx "main;read_hot 2"'

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
# two readaheads of one read before it (the model releases the first at the second): theirs too
{ head -n 1 "$d/stacks.jsonl"; grep -E '"type":"(name_pid|name_file|name_frame|name_stack)"' "$d/stacks.jsonl"
	printf '%s\n' '{"t":100,"cpu":0,"pid":100,"type":"file_readahead","dev":8388609,"ino":7,"index":0,"nr":32,"order":0}' \
	'{"t":101,"cpu":0,"pid":100,"type":"file_readahead","dev":8388609,"ino":7,"index":32,"nr":32,"order":0}' \
	'{"t":102,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":0,"nr":64,"stack":1}'
} > "$tmp/ra.jsonl"
"$REFAULT" trace convert "$tmp/ra.jsonl" "$tmp/ra.rft" 2> /dev/null
"$REFAULT" report "$tmp/ra.rft" -p v6.18 --by callsite --json > "$tmp/ra.json"
check "v6.18 by callsite: two readaheads of one read have its stack (64 misses), not [no stack]" \
	'[ "$(row "$tmp/ra.json" "read_file <- reread_big <- main" v6.18 | cut -d" " -f2)" = 64 ] && [ "$(row "$tmp/ra.json" "[no stack]" v6.18)" = none ]'
check "v6.18 --children: main has every decision but the read without a stack's" \
	'"$REFAULT" report "$tmp/refs.rft" -p v6.18 --set memory=1M --children --json > "$tmp/mc.json" && [ "$(children_ok "$tmp/mc.json")" = True ] && [ "$(row "$tmp/mc.json" main "$src" | cut -d" " -f1,2)" = "$(jget "$tmp/mc.json" "str(j[\"totals\"][\"$src\"][\"refaults\"]) + \" \" + str(j[\"totals\"][\"$src\"][\"misses\"] - 1)")" ] && [ "$(row "$tmp/mc.json" reread_big "$src" | cut -d" " -f1)" = 1536 ]'
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
for by in callsite file; do
	"$REFAULT" report "$tmp/s.rft" --by $by --children > /dev/null 2> "$tmp/e"; st=$?
	check "--children --by $by: exit 2, saying it is of --by symbol" \
		'[ $st -eq 2 ] && grep -q "children is of --by symbol" "$tmp/e"'
done
done_testing
