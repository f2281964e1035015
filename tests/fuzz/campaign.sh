#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A fuzzing campaign: every target of tests/fuzz for RUNS executions (default 10 million) or
# SECONDS each, in turn, from its corpus; prints per target the executions, the edges covered
# (libFuzzer's "cov") and the findings (crash-*/leak-*/timeout-* files) for docs/reliability.md.
#   cd BUILDDIR && make fuzz-build && sh SRCDIR/tests/fuzz/campaign.sh [TARGET...]
# WORK (default fuzz-work) keeps each target's new inputs and findings; a finding goes into the
# target's corpus once fixed (renamed finding-*), so `make check` replays it forever.
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-10000000}
# The targets that write files (sweep's plans, each committed with an fsync) write them under
# TMPDIR: tmpfs where there is one, so that an execution waits on no disk (sweep: 380 -> 960 a
# second from the same corpus).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
WORK=${WORK:-fuzz-work}
targets=${*:-"reader compare gate config convert lrugen report sweep"}
for t in $targets; do
	corpus=$top_srcdir/tests/fuzz/corpus
	[ "$t" = reader ] || corpus=$corpus-$t
	mkdir -p "$WORK/$t" "$WORK/$t-findings"
	start=$(date +%s)
	"./tests/fuzz/fuzz-$t" -runs="$RUNS" ${SECONDS_EACH:+-max_total_time=$SECONDS_EACH} \
		-max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$WORK/$t-findings/" "$WORK/$t" "$corpus" > "$WORK/$t.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t.log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$WORK/$t.log" | tail -1 | cut -d' ' -f2)
	found=$(ls "$WORK/$t-findings" | wc -l)
	echo "$t: ${execs:-?} executions, ${cov:-?} edges, $found findings, exit $rc," \
		"$(($(date +%s) - start)) s"
done
