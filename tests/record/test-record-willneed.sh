#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Readahead a program asks for: the folios posix_fadvise(POSIX_FADV_WILLNEED) brings into the page
# cache are file_readahead references (written at the syscall's exit), before the read that then
# finds them cached; the replay inserts them where the kernel did.
. "$top_srcdir/tests/record/lib.sh"
record_begin
wl="$top_builddir/tests/validate/vworkload"
echo "1..3"
head -c 8M /dev/urandom > "$dir/f.dat"
ino=$(stat -c %i "$dir/f.dat")
"$wl" drop "$dir/f.dat"
rec -q -o "$dir/w.rft" -- "$wl" willneed "$dir/f.dat" > /dev/null 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
# before the file's first file_read: the pages its pagecache_adds inserted, and the pages its
# file_readahead events name
set -- $("$REFAULT" trace dump --no-names "$dir/w.rft" | awk -v i="ino=$ino" '
	$0 !~ (" " i " ") { next }
	$4 == "file_read" { exit }
	$4 == "pagecache_add" { split($8, o, "="); added += 2 ^ o[2] }
	$4 == "file_readahead" { for (f = 5; f <= NF; f++) if ($f ~ /^nr=/) { split($f, x, "="); ra += x[2] } }
	END { print added + 0, ra + 0 }')
added=$1 ra=$2
[ $st -eq 0 ] && [ "$added" -gt 0 ]
tap $? "fadvise(WILLNEED) inserted pages before the read (exit $st, $added pages)"
[ "$ra" -eq "$added" ]
tap $? "each is in a file_readahead before the read ($ra of $added pages)"
"$REFAULT" replay -p v6.18 "$dir/w.rft" > "$dir/replay" 2>&1
tap $? "the trace replays"
exit $failed
