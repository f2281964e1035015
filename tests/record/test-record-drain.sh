#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Activations another task drains: the workload leaves its pages queued for activation in CPU 0's
# per-CPU batch and waits; a task outside the recording's scope then drains it on CPU 0
# (madvise(MADV_COLD) -> lru_add_drain()).  `refault record -- COMMAND` follows the command's pids in
# the kernel, which used to drop those mm_lru_activate; the kernel counted them in pgactivate.
# Every page read twice must be activated once in the trace, and the drains outside the scope
# carry their own pid.
. "$top_srcdir/tests/record/lib.sh"
record_begin
pages=20
head -c $((pages * 4096)) /dev/urandom > "$dir/f.dat"
ino=$(stat -c %i "$dir/f.dat")
echo "1..4"
"$REFAULT" record -q -o "$dir/d.trace" -- "$top_builddir/tests/record/workload-drain" \
	"$dir/f.dat" $pages "$dir/ready" "$dir/go" 2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/ready' ] || ! running $pid"
# outside the scope: not a descendant of the command
"$top_builddir/tests/record/workload-drain" drain
touch "$dir/go"
wait_bounded $pid 120 "refault record -- workload-drain"
tap $? "refault record -- workload-drain exits 0"
sed 's/^/# /' "$dir/err"
"$REFAULT" trace dump "$dir/d.trace" --type exec,pagecache_add,lru_activate > "$dir/dump" 2>&1
tap $? "the trace dumps"
# pfns of the file's pages, then activations of them: count, and how many by the workload's pid
awk -v ino="$ino" -v pages=$pages '
	$4 == "exec" && !wl { wl = $3 }
	$4 == "pagecache_add" && $6 == "ino=" ino { split($9, a, "="); file[a[2]] = 1 }
	$4 == "lru_activate" { split($5, a, "="); if (a[2] in file) { n++; if ($3 != wl) other++ } }
	END { printf "%d %d\n", n, other }' "$dir/dump" > "$dir/counts"
read -r act other < "$dir/counts"
echo "# $act activations of the file's $pages pages, $other drained outside the scope"
# .ci/run's sanitizer pass: an instrumented workload does not leave its batch the same way
why=${REFAULT_TEST_NO_KERNEL_VALIDATION:-}
if [ -n "$why" ]; then
	echo "ok 3 # SKIP $why"
	echo "ok 4 # SKIP $why"
	exit $failed
fi
[ "$act" -eq $pages ]
tap $? "each of the $pages pages read twice is activated once (got $act)"
[ "$other" -gt 0 ]
tap $? "activations drained by tasks outside the scope are recorded, with their pid ($other)"
exit $failed
