#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Which code refaults, on a real recording: workload-two-paths (gcc -O2, no frame pointers)
# re-reads a 48 MiB file through main > reread_big > read_file and a 1 MiB one through
# main > read_hot > read_file, in a 32 MiB memory cgroup, recorded with --call-graph dwarf.
# `refault report --by callsite` must put 95 % or more of the refaults on the reread_big path
# by symbol name, for the kernel's own decisions and for the v6.18 model's; --folded and the
# HTML page must show the same, and no sample may fail to unwind.
. "$top_srcdir/tests/record/lib.sh"
record_begin memcg
[ "$(uname -m)" = x86_64 ] || skip_all "user stacks are unwound on x86-64 only"
[ -r /proc/sys/kernel/perf_event_paranoid ] || skip_all "no perf events"
echo "1..8"
head -c 48M /dev/urandom > "$dir/big"
head -c 1M /dev/urandom > "$dir/hot"
sync
echo 1 > /proc/sys/vm/drop_caches 2>/dev/null

"$REFAULT" record -q -o "$dir/s.rft" --memcg-limit 32M --call-graph dwarf -- \
	"$top_builddir/tests/record/workload-two-paths" "$dir/big" "$dir/hot" 3 2> "$dir/err"
tap $? "refault record --memcg-limit 32M --call-graph dwarf -- workload-two-paths exits 0"
sed 's/^/# /' "$dir/err"
"$REFAULT" trace info "$dir/s.rft" > "$dir/info"
sed -n 's/^\(stacks\|lost events\): */# \1: /p' "$dir/info"
# every sample unwinds, those in ld.so's start-up too (its entry stub has no CFI)
grep -q '^stacks: .* 0 failed;' "$dir/info"
tap $? "no sample fails to unwind: $(sed -n 's/^stacks: .*, \([0-9]* failed\);.*/\1/p' "$dir/info")"

"$REFAULT" report "$dir/s.rft" --by callsite -p kernel,v6.18 --json -n 0 > "$dir/r.json" 2> "$dir/err"
tap $? "refault report --by callsite -p kernel,v6.18 --json"
sed 's/^/# /' "$dir/err"

# share SOURCE: "ON_BIG TOTAL" refaults, ON_BIG those whose stack has reread_big under main
share() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
src = sys.argv[2]
big = total = 0
others = []
for r in d["rows"]:
    n = r[src]["refaults"]
    names = [f["symbol"] or "" for f in r.get("frames", [])]
    base = [s.split(".")[0] for s in names]
    total += n
    if "reread_big" in base and "main" in base and "read_hot" not in base:
        big += n
    elif n:
        others.append((n, ";".join(names) or "(no stack)"))
print(big, d["totals"][src]["refaults"], total)
for n, stack in sorted(others, reverse=True)[:5]:
    print("#   not reread_big\x27s: %d refaults on %s" % (n, stack), file=sys.stderr)' "$dir/r.json" "$1"
}
for src in kernel v6.18; do
	set -- $(share $src 2> "$dir/others")
	echo "# $src: $1 of $2 refaults on main > reread_big > read_file (rows sum to $3)"
	cat "$dir/others"
	[ "$2" -gt 1000 ] && [ $(($1 * 100)) -ge $(($2 * 95)) ]
	tap $? "$src: 95 % or more of the refaults are reread_big's ($1 of $2)"
done

"$REFAULT" report "$dir/s.rft" -p kernel --folded > "$dir/folded" 2> "$dir/err"
tap $? "--folded"
awk '{ n[$1 ~ /;main;reread_big[^;]*;read_file;/ ? "big" : "other"] += $NF }
     END { exit !(n["big"] * 100 >= (n["big"] + n["other"]) * 95) }' "$dir/folded"
tap $? "the folded stacks say the same ($(grep -c . "$dir/folded") stacks)"

"$REFAULT" report "$dir/s.rft" --by callsite -p kernel,v6.18 --html "$dir/r.html" > /dev/null 2>&1 &&
	grep -q '<svg' "$dir/r.html" && grep -q 'reread_big' "$dir/r.html"
tap $? "the HTML page has its flame graphs, reread_big in them"
exit $failed
