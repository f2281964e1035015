#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A real recording: a workload reads a file twice in a memory-limited cgroup, reads and
# touches an mmap'ed file, dirties and pages out an anonymous region.  The trace must show
# what the kernel did (check-trace), and nothing may be left behind.
. "$top_srcdir/tests/record/lib.sh"
record_begin memcg
head -c 32M /dev/urandom > "$dir/rd.dat"
head -c 8M /dev/urandom > "$dir/mm.dat"
limit=25165824
checks=18

echo "1..$((checks + 6))"
"$REFAULT" record -q -o "$dir/w.trace" --memcg-limit 24M -- \
	"$top_builddir/tests/record/workload-readtwice" "$dir/rd.dat" "$dir/mm.dat" 8 32 \
	2> "$dir/err" &
pid=$!
wait_bounded $pid 300 "refault record -- workload-readtwice"
tap $? "refault record -- workload exits 0"
sed 's/^/# /' "$dir/err"
! leftover_instance $pid
tap $? "the tracefs instance is removed"
! leftover_cgroup $pid
tap $? "the --memcg-limit cgroup is removed"
if "$REFAULT" trace verify "$dir/w.trace" > "$dir/verify" 2>&1; then
	tap 0 "refault trace verify passes"
elif "$REFAULT" trace --help > /dev/null 2>&1; then
	sed 's/^/# /' "$dir/verify"
	tap 1 "refault trace verify passes"
else
	n=$((n + 1)); echo "ok $n # SKIP no 'refault trace' verb in this build"
fi
# The loader closes each library's fd and the workload's files take the number next: by the
# time the recorder looks at /proc, the fd names another file than the one mapped.
if "$REFAULT" trace --help > /dev/null 2>&1; then
	rd_ino=$(stat -c %i "$dir/rd.dat")
	mm_ino=$(stat -c %i "$dir/mm.dat")
	"$REFAULT" trace dump --type mmap "$dir/w.trace" > "$dir/mmaps"
	dumped=$?
	on_rd=$(grep -c " ino=$rd_ino " "$dir/mmaps")
	on_mm=$(grep -c " ino=$mm_ino " "$dir/mmaps")
	# the workload's shared libraries (libc): their segments must carry their own inode
	on_lib=0
	for lib in $(ldd "$top_builddir/tests/record/workload-readtwice" 2>/dev/null |
		     awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
		lib_ino=$(stat -L -c %i "$lib") || continue
		on_lib=$((on_lib + $(grep -c " ino=$lib_ino " "$dir/mmaps")))
	done
	# the mapped file's own mmap is unmapped before the recorder looks: anonymous, or its file
	[ $dumped -eq 0 ] && [ "$on_lib" -gt 0 ] && [ "$on_rd" -eq 0 ] && [ "$on_mm" -le 1 ]
	tap $? "library mmaps carry their library, none the file read after it (dump status $dumped, library $on_lib, read file $on_rd, mapped file $on_mm)"
else
	n=$((n + 1)); echo "ok $n # SKIP no 'refault trace' verb in this build"
fi
[ "$(stat -c %s "$dir/w.trace")" -lt 1048576 ]
tap $? "the trace is compact ($(stat -c %s "$dir/w.trace") bytes)"
# check-trace prints its own TAP: renumber it after ours
"$top_builddir/tests/record/check-trace" workload "$dir/w.trace" "$dir/rd.dat" "$dir/mm.dat" \
	8 32 $limit "refault-record-$pid" > "$dir/tap"
awk -v base=$n '/^1\.\./ { next }
	/^(not )?ok [0-9]+/ { sub(/ok [0-9]+/, "ok " (base + ++i)) } { print }' "$dir/tap"
! grep -q '^not ok' "$dir/tap" && [ "$(grep -c '^ok' "$dir/tap")" -eq $checks ] || failed=1
exit $failed
