#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A command recorded twice: the second run refaults the first run's shadow entries, which the
# kernel counts in the recorded cgroup's workingset_refault_file.  validate (replay's warm pass,
# replayer/replay/warm.c) finds those refaults from the cgroup's counter and the trace's own
# re-adds, and the model refaults them too.  After --cold there are none to find.  Skipped
# where the first run's shadows were dropped before the second (the kernel then counts no more
# refaults than the first time).  --cold drops the system's page cache: in the chain of
# recording tests (local.mk).
. "$top_srcdir/tests/record/lib.sh"
record_begin
echo "1..3"
wl="$top_builddir/tests/validate/vworkload"
head -c 128M /dev/urandom > "$dir/f.dat"
sync

# recorded NAME [--cold]: two passes over the 128 MiB file in a 32 MiB cgroup, into NAME.rft
recorded() {
	rec -q $2 -o "$dir/$1.rft" --memcg-limit 32M --snapshot-interval 100ms -- \
		"$wl" read "$dir/f.dat" 2 > /dev/null 2> "$dir/err"
	st=$?
	sed 's/^/# /' "$dir/err"
}
# row NAME [OPTION]: the recorded cgroup's workingset_refault_file row, kernel and model, and the
# shadows the warm pass found
row() {
	"$REFAULT" validate "$dir/$1.rft" $2 --json 2> /dev/null | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
r = [r for r in d["rows"] if r["quantity"] == "workingset_refault_file"
     and r["scope"].startswith("/")][0]
print(r["kernel"], r["model"], d["preloaded_shadow_pages"])'
}

# What is tested is the start state, not the model's level on these recordings (test-validate
# holds that, with its tolerances): after --cold no shadow is found; run again, the first run's
# shadows are, and what they add to the model's refaults (against the same trace without a start
# state, --cold-cache) is what the kernel counted more than the first time, within 20 %.
recorded first --cold
set -- $(row first)
k1=${1:-0}
[ $st -eq 0 ] && [ "${3:-1}" -eq 0 ]
tap $? "after --cold: no shadow from before the trace (exit $st; kernel $1 refaults, model $2, $3 pages found)"
recorded second
set -- $(row second)
s2_kernel=${1:-0} s2_model=${2:-0} s2_found=${3:-0}
# The premise: the first run's shadow entries are still there for the second.  Anything that
# drops the page cache in between (drop_caches, another test's) leaves none, and the kernel
# counts no more refaults than the first time: nothing to check then.
if [ "$s2_kernel" -le "$k1" ]; then
	for i in 2 3; do
		echo "ok $i # SKIP the first run's shadows were gone by the second (kernel $s2_kernel refaults, $k1 the first time): the cache was dropped between them"
	done
	exit $failed
fi
[ $st -eq 0 ] && [ "$s2_found" -gt 0 ]
tap $? "run again without --cold (the kernel counted $s2_kernel refaults, $k1 the first time): the first run's shadows found ($s2_found pages; exit $st)"
set -- $(row second --cold-cache)
md=$((s2_model - ${2:-0})) kd=$((s2_kernel - k1))
[ $((md > kd ? md - kd : kd - md)) -le $((kd / 5 + 64)) ]
tap $? "... and they add to the model's refaults what the second run added to the kernel's ($md: $s2_model with them, ${2:-?} without a start state; the kernel $kd: $s2_kernel, $k1 the first time)"
exit $failed
