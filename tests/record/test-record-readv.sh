#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The other read syscalls: readv(), preadv(), preadv2() and sendfile() read the file as read()
# does.  Each call is one file_read of the pages it returned (preadv's exactly, from its offset),
# and the folios it brought into the page cache are file_readahead before it, as a read()'s are
# (before, only the reads were there, from filemap_get_pages alone, and every add was left out).
# cp (copy_file_range(), spliced in the kernel) reads its source so too, and the pages it adds to
# its copy are the copy's writes, not readahead.
. "$top_srcdir/tests/record/lib.sh"
record_begin
wl="$top_builddir/tests/validate/vworkload"
echo "1..7"
head -c 4M /dev/urandom > "$dir/f.dat"
ino=$(stat -c %i "$dir/f.dat")
"$wl" drop "$dir/f.dat"
rec -q -o "$dir/v.rft" -- "$wl" vread "$dir/f.dat" 1 > /dev/null 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
# counts TRACE INO: the file's file_read events, the pages they name (with repeats), the pages its
# pagecache_adds inserted, and the pages its file_readahead events name
counts() {
	"$REFAULT" trace dump --no-names "$1" | awk -v i="ino=$2" '
	$0 !~ (" " i " ") { next }
	{ nr = 1; for (f = 5; f <= NF; f++) if ($f ~ /^nr=/) { split($f, x, "="); nr = x[2] } }
	$4 == "file_read" { reads++; pages += nr }
	$4 == "pagecache_add" { split($8, o, "="); added += 2 ^ o[2] }
	$4 == "file_readahead" { ra += nr }
	END { print reads + 0, pages + 0, added + 0, ra + 0 }'
}
set -- $(counts "$dir/v.rft" "$ino")
reads=$1 pages=$2 added=$3 ra=$4
[ $st -eq 0 ] && [ "$reads" -eq 64 ]
tap $? "64 calls of 64 KiB, 64 file_read (exit $st, $reads)"
[ "$pages" -eq 1024 ]
tap $? "they name the file's 1024 pages, once each ($pages)"
[ "$added" -gt 0 ] && [ "$ra" -eq "$added" ]
tap $? "every page they brought in is in a file_readahead ($ra of $added pages)"
"$REFAULT" replay -p v6.18 "$dir/v.rft" > "$dir/replay" 2>&1
tap $? "the trace replays"

"$wl" drop "$dir/f.dat"
rec -q -o "$dir/c.rft" -- cp "$dir/f.dat" "$dir/g.dat" > /dev/null 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
set -- $(counts "$dir/c.rft" "$ino")
[ $st -eq 0 ] && [ "$2" -ge 1024 ] && [ "$3" -gt 0 ] && [ "$4" -eq "$3" ]
tap $? "cp: the source's pages read, what it brought in readahead (exit $st; $2 pages read, $4 of $3 pages)"
set -- $(counts "$dir/c.rft" "$(stat -c %i "$dir/g.dat")")
[ "$3" -gt 0 ] && [ "$4" -eq 0 ]
tap $? "cp: the copy's $3 pages added are no readahead ($4 pages)"
"$REFAULT" trace dump --no-names "$dir/c.rft" | grep -q " file_write .* ino=$(stat -c %i "$dir/g.dat") "
tap $? "cp: the copy's pages are its file_write"
exit $failed
