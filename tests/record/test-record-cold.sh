#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault record --cold: a known start.  A file read before the recording is in the page cache,
# and a recording of a second read shows no insertion of its pages; with --cold every page of it
# is inserted again (the cache was dropped), and two recordings of the same read, each --cold,
# reference the same pages in the same order.  A page of the file may be reclaimed between the
# read before and the recording (a CI run once saw 1 of 1,024 inserted again, cause not found, on
# a host with 23 GB free): the warm case reads and records again, up to 3 times, and says how
# many it took; 3 in a row would be the recorder's (or --cold's) fault.  --cold drops the whole system's page cache: the
# recorder's tests run one after the other, and test-validate after them (local.mk).
. "$top_srcdir/tests/record/lib.sh"
record_begin
echo "1..5"
head -c 4M /dev/urandom > "$dir/f.dat"
sync
ino=$(stat -c %i "$dir/f.dat")
# its device as the kernel's tracepoints give it (MAJOR:MINOR, as trace dump prints it): an inode
# of the same number on another file system is not this file
sdev=$(stat -c %d "$dir/f.dat")
dev="$(( sdev >> 8 & 0xfff )):$(( (sdev & 0xff) | (sdev >> 12 & 0xfff00) ))"

# inserted PATH: the pages of the file inserted into the page cache in the trace (a folio of
# order N is 2^N pages from its index)
inserted() {
	"$REFAULT" trace dump --no-names "$1" |
		awk -v i="dev=$dev ino=$ino" '$4 == "pagecache_add" && $0 ~ (" " i " ") {
			split($7, x, "="); split($8, o, "=")
			for (p = 0; p < 2 ^ o[2]; p++) seen[x[2] + p] = 1 }
			END { for (p in seen) k++; print k + 0 }'
}
# reads PATH: the file's read references, as index and length, in order
reads() {
	"$REFAULT" trace dump --no-names "$1" |
		awk -v i="dev=$dev ino=$ino" '$4 == "file_read" && $0 ~ (" " i " ") { print $7, $8 }'
}

# recorded NAME [--cold]: cat of the file recorded into NAME.rft: $st its status, $np the pages
# of the file it inserted
recorded() {
	rec -q $2 -o "$dir/$1.rft" -- cat "$dir/f.dat" > /dev/null 2> "$dir/err"
	st=$?
	sed 's/^/# /' "$dir/err"
	np=$(inserted "$dir/$1.rft")
}

try=0
while [ $try -lt 3 ]; do
	try=$((try + 1))
	cat "$dir/f.dat" > /dev/null
	recorded warm
	[ $st -eq 0 ] && [ "$np" -eq 0 ] && break
	echo "# attempt $try: exit $st, $np pages inserted"
done
[ $st -eq 0 ] && [ "$np" -eq 0 ]
tap $? "without --cold, a file read before is not inserted again (exit $st, $np pages inserted; attempt $try of 3)"
recorded cold1 --cold
[ $st -eq 0 ] && [ "$np" -eq 1024 ]
tap $? "with --cold, every page of it is inserted (exit $st, $np of 1024 pages)"
recorded cold2 --cold
[ $st -eq 0 ] && [ "$np" -eq 1024 ]
tap $? "and again on a second --cold recording (exit $st, $np of 1024 pages)"
reads "$dir/cold1.rft" > "$dir/r1"
reads "$dir/cold2.rft" > "$dir/r2"
[ -s "$dir/r1" ] && cmp -s "$dir/r1" "$dir/r2"
tap $? "two --cold recordings of one read reference the same pages in the same order ($(wc -l < "$dir/r1") reads)"
"$REFAULT" trace info "$dir/cold2.rft" > "$dir/info" 2>&1
grep -q -- "--cold" "$dir/info"
tap $? "the trace's header says it was --cold (its command line)"
exit $failed
