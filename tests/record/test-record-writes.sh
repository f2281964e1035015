#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Writes: each folio a write() or a store through a shared mapping dirties is a file_write of
# that folio (writeback:writeback_dirty_folio in the writer's context, recorder/normalize.c
# on_dirty()), named by the file's own device: 8 MiB written twice, with fdatasync() after each
# MiB (so each pass dirties every page again), is 2 x 2,048 pages of file_write; a pass over
# pages still dirty dirties nothing and records nothing; a store into each page of a shared
# mapping (page_mkwrite) is one a page.  The calls that start writeback are file_sync events
# (format 3.3): each fdatasync() one of the whole file, the mapping's msync(MS_SYNC) one of
# its 1,024 pages.  Each file_write carries its folio's order (format 3.4): the order of the
# folio's add, 2^order pages from an aligned index.
. "$top_srcdir/tests/record/lib.sh"
record_begin
wl="$top_builddir/tests/validate/vworkload"
echo "1..8"
dev=$(stat -c '%d' "$dir")
kdev=$(( (dev >> 8 & 0xfff) << 20 | (dev & 0xff) | (dev >> 12 & 0xfff00) ))

# written PATH FILE: the pages of FILE's file_write events in PATH, and how many name its device
written() {
	ino=$(stat -c %i "$2")
	"$REFAULT" trace dump --no-names "$1" | awk -v i="ino=$ino" -v d="dev=$3" '
		$4 == "file_write" && $0 ~ (" " i " ") {
			for (f = 5; f <= NF; f++) if ($f ~ /^nr=/) { split($f, x, "="); p += x[2] }
			n++; if ($0 ~ (" " d " ")) on++ }
		END { print p + 0, n + 0, on + 0 }'
}

# syncs PATH FILE: the file_sync events of FILE in PATH, as "index nr flags" lines
syncs() {
	ino=$(stat -c %i "$2")
	"$REFAULT" trace dump --no-names "$1" | awk -v i="ino=$ino" '
		$4 == "file_sync" && $0 ~ (" " i " ") {
			for (f = 5; f <= NF; f++) { split($f, x, "="); v[x[1]] = x[2] }
			print v["index"], v["nr"], v["flags"] }'
}

rec -q -o "$dir/w.rft" -- "$wl" write "$dir/w.dat" 8 2 > /dev/null 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
set -- $(written "$dir/w.rft" "$dir/w.dat" "$(printf '%d:%d' $((kdev >> 20)) $((kdev & 0xfffff)))")
[ $st -eq 0 ] && [ "$1" -eq 4096 ]
tap $? "two passes over 8 MiB, each synced: 4096 pages of file_write (exit $st, $1 pages in $2 events)"
[ "$3" -eq "$2" ]
tap $? "each names the file's device ($3 of $2)"
# file_write orders against the adds': "writes bad" (bad: nr is not 2^order, or the add of its
# first page had another order, or there was none)
ino=$(stat -c %i "$dir/w.dat")
set -- $("$REFAULT" trace dump --no-names "$dir/w.rft" | awk -v i="ino=$ino" '
	$0 !~ (" " i " ") { next }
	{ delete v; for (f = 5; f <= NF; f++) { split($f, x, "="); v[x[1]] = x[2] } }
	$4 == "pagecache_add" { added[v["index"]] = v["order"] }
	$4 == "file_write" { w++; big += v["order"] > 0
		if (v["nr"] != 2 ^ v["order"] || v["index"] % v["nr"] || added[v["index"]] != v["order"]) bad++ }
	END { print w + 0, bad + 0, big + 0 }')
[ "$1" -gt 0 ] && [ "$2" -eq 0 ]
tap $? "each file_write has its folio's order, the order of that folio's add ($2 of $1 not; $3 of order above 0)"
nsync=$(syncs "$dir/w.rft" "$dir/w.dat" | grep -c "^0 0 0x1$")
[ "$nsync" -eq 16 ]
tap $? "each of the 16 fdatasync() calls is a file_sync of the whole file, flags 0x1 ($nsync)"

# without the syncs the second pass finds the pages dirty: nothing more to record
cat > "$dir/rewrite.sh" << 'SH'
dd if=/dev/zero of="$1" bs=64k count=16 conv=notrunc status=none
dd if=/dev/zero of="$1" bs=64k count=16 conv=notrunc status=none
SH
rm -f "$dir/w2.dat"
sync
rec -q -o "$dir/w2.rft" -- sh "$dir/rewrite.sh" "$dir/w2.dat" > /dev/null 2> "$dir/err"
st=$?
set -- $(written "$dir/w2.rft" "$dir/w2.dat" x)
[ $st -eq 0 ] && [ "$1" -eq 256 ]
tap $? "1 MiB written twice with no sync between: 256 pages, once (exit $st, $1 pages)"
# stores through a shared mapping: page_mkwrite dirties each folio once (its cache dropped
# first, so that the recording sees each folio's order: a fault maps a whole large folio)
head -c 4M /dev/urandom > "$dir/m.dat"
"$wl" drop "$dir/m.dat"
rec -q -o "$dir/m.rft" -- "$wl" mwrite "$dir/m.dat" > /dev/null 2> "$dir/err"
st=$?
set -- $(written "$dir/m.rft" "$dir/m.dat" x)
[ $st -eq 0 ] && [ "$1" -eq 1024 ]
tap $? "a byte stored into each page of a 4 MiB shared mapping: 1024 pages of file_write (exit $st, $1 pages)"
s=$(syncs "$dir/m.rft" "$dir/m.dat")
[ "$s" = "0 1024 0x4" ]
tap $? "its msync(MS_SYNC) is a file_sync of the mapped range, flags 0x4 ($s)"
"$REFAULT" validate "$dir/w.rft" > "$dir/v" 2>&1
vst=$?
sed 's/^/# /' "$dir/v" | head -20
[ $vst -eq 0 ] || [ $vst -eq 3 ]
tap $? "the trace validates (exit $vst)"
exit $failed
