#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A command recorded twice: the second run refaults the first run's shadow entries, which the
# kernel counts in the recorded cgroup's workingset_refault_file.  validate (replay's warm pass,
# replayer/replay/warm.c) finds those refaults from the cgroup's counter and the trace's own
# re-adds, and the model refaults them too: the second recording validates as the first does.
# After --cold there are none to find.  Skipped where the first run's shadows were dropped
# before the second (the kernel then counts no more refaults than the first time).  --cold
# drops the system's page cache: in the chain of recording tests (local.mk).
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
# row NAME: the recorded cgroup's workingset_refault_file row (kernel model ok) and the shadows
# the warm pass found
row() {
	"$REFAULT" validate "$dir/$1.rft" --json 2> /dev/null | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
r = [r for r in d["rows"] if r["quantity"] == "workingset_refault_file"
     and r["scope"].startswith("/")][0]
print(r["kernel"], r["model"], "ok" if r["within_tolerance"] else "NO", d["preloaded_shadow_pages"])'
}

recorded first --cold
set -- $(row first)
[ $st -eq 0 ] && [ "$3" = ok ] && [ "$4" -eq 0 ]
tap $? "after --cold: refaults within tolerance, none from before the trace (exit $st; kernel $1, model $2, $4 found)"
recorded second
set -- $(row second)
s2_kernel=$1 s2_model=$2 s2_ok=$3 s2_found=$4
set -- $(row first)
# The premise: the first run's shadow entries are still there for the second.  Anything that
# drops the page cache in between (drop_caches, another test's) leaves none, and the kernel
# counts no more refaults than the first time: nothing to check then.
if [ "${s2_kernel:-0}" -le "${1:-0}" ]; then
	for i in 2 3; do
		echo "ok $i # SKIP the first run's shadows were gone by the second (kernel ${s2_kernel:-?} refaults, ${1:-?} the first time): the cache was dropped between them"
	done
	exit $failed
fi
[ $st -eq 0 ] && [ "$s2_ok" = ok ] && [ "$s2_found" -gt 0 ]
tap $? "run again without --cold (the kernel counted $s2_kernel refaults, $1 the first time): the first run's shadows found, refaults within tolerance (exit $st; model $s2_model, $s2_found pages found)"
# without the warm pass's shadows (--cold-cache: nothing before the trace) the model misses them
"$REFAULT" validate "$dir/second.rft" --cold-cache --json 2> /dev/null | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
r = [r for r in d["rows"] if r["quantity"] == "workingset_refault_file"
     and r["scope"].startswith("/")][0]
sys.exit(0 if r["model"] < r["kernel"] * 0.9 else 1)'
tap $? "with --cold-cache (no start state) the model counts 10 % fewer or less"
exit $failed
