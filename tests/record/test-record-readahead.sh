#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A real recording of readahead: a cold sequential read() of a file, a warm re-read, a cold
# mmap'ed read of another, a file written anew.  The trace must carry file_readahead for
# every page the kernel brought in, with the folio orders its pagecache_add observations
# show, each before the reference that first touches its pages, and none for the warm
# re-read or the write (check-readahead).
. "$top_srcdir/tests/record/lib.sh"
record_begin memcg
head -c 32M /dev/urandom > "$dir/rd.dat"
head -c 16M /dev/urandom > "$dir/mm.dat"
checks=11

echo "1..$((checks + 1))"
# a limit far above the files: nothing is evicted, so each page is brought in exactly once
rec -q -o "$dir/ra.trace" --memcg-limit 256M -- \
	"$top_builddir/tests/record/workload-readahead" "$dir/rd.dat" "$dir/mm.dat" "$dir/wr.dat" \
	2> "$dir/err"
tap $? "refault record -- workload-readahead exits 0"
sed 's/^/# /' "$dir/err"
# check-readahead prints its own TAP: renumber it after ours
"$top_builddir/tests/record/check-readahead" "$dir/ra.trace" "$dir/rd.dat" "$dir/mm.dat" \
	"$dir/wr.dat" > "$dir/tap"
awk -v base=$n '/^1\.\./ { next }
	/^(not )?ok [0-9]+/ { sub(/ok [0-9]+/, "ok " (base + ++i)) } { print }' "$dir/tap"
! grep -q '^not ok' "$dir/tap" && [ "$(grep -c '^ok' "$dir/tap")" -eq $checks ] || failed=1
exit $failed
