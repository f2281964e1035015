#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Pages the kernel touches for a task (exceptions:page_fault_kernel at a user address): a read()
# into an anonymous buffer the program never touched maps every page of it from the kernel's
# copy, and each is an anon_fault in the trace (none were before: the program's own loads then
# found them mapped).  exec clears the tail of the program's data from the kernel (padzero()),
# and that fault's read-around brings the program's file into the page cache: each of its pages
# inserted is in a file_readahead (none were before, so a replay missed them).
. "$top_srcdir/tests/record/lib.sh"
record_begin
wl="$top_builddir/tests/record/workload-kfault"
vw="$top_builddir/tests/validate/vworkload"
echo "1..5"
head -c 4M /dev/urandom > "$dir/f.dat"
cp "$wl" "$dir/kfault"
"$vw" drop "$dir/f.dat" "$dir/kfault"
rec -q -o "$dir/k.rft" -- "$dir/kfault" "$dir/f.dat" > "$dir/out" 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
read -r buf len < "$dir/out"
"$REFAULT" trace dump --no-names "$dir/k.rft" > "$dir/dump"
# the pages of anon_faults in [buf, buf + len), from hex (mawk has no strtonum)
faulted=$(awk -v b="$buf" -v l="${len:-0}" '
	function hex(s,   i, v) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	BEGIN { lo = hex(b); hi = lo + l }
	$4 == "anon_fault" {
		for (f = 5; f <= NF; f++) {
			if ($f ~ /^addr=/) a = hex(substr($f, 6))
			if ($f ~ /^order=/) o = substr($f, 7) + 0
		}
		if (a >= lo && a < hi) k += 2 ^ o }
	END { print k + 0 }' "$dir/dump")
[ $st -eq 0 ] && [ -n "$len" ] && [ "$faulted" -eq $((len / 4096)) ]
tap $? "read() into an untouched buffer: each of its $((${len:-0} / 4096)) pages an anon_fault (exit $st, $faulted)"
ino=$(stat -c %i "$dir/kfault")
set -- $(awk -v i="ino=$ino" '
	$0 !~ (" " i " ") { next }
	$4 == "pagecache_add" { split($8, o, "="); added += 2 ^ o[2] }
	$4 == "file_readahead" { for (f = 5; f <= NF; f++) if ($f ~ /^nr=/) { split($f, x, "="); ra += x[2] } }
	END { print added + 0, ra + 0 }' "$dir/dump")
added=$1 ra=$2
[ "$added" -gt 0 ]
tap $? "exec read the program's file into the page cache ($added pages)"
[ "$ra" -eq "$added" ]
tap $? "each of those pages is in a file_readahead ($ra of $added)"
"$REFAULT" replay -p v6.18 "$dir/k.rft" > "$dir/replay" 2>&1
tap $? "the trace replays"

# The header says what a read fault of untouched anonymous memory does on this kernel (the
# model's zero_page): measured here on its own, 8 MiB of a fresh mapping loaded, RssAnon after.
truth=$("$PYTHON3" -c 'import mmap
def anon():
    for l in open("/proc/self/status"):
        if l.startswith("RssAnon:"):
            return int(l.split()[1])
m = mmap.mmap(-1, 8 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
before = anon()
s = sum(m[i] for i in range(0, 8 << 20, 4096))
grew = anon() - before
print(2 if grew >= 6 * 1024 else 1 if grew <= 2 * 1024 else 0)')
said=$("$REFAULT" trace info --json "$dir/k.rft" |
	"$PYTHON3" -c 'import json, sys; print(json.load(sys.stdin)["header"]["host"].get("zero_page", 0))')
[ -n "$truth" ] && [ "$truth" != 0 ] && [ "$said" = "$truth" ]
tap $? "the header's host.zero_page is what a read of fresh anonymous memory does here ($said; measured $truth: 1 maps the zero page, 2 allocates)"
exit $failed
