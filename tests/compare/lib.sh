# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by tests/compare/*.sh: TAP helpers and fixtures.
: "${REFAULT:?REFAULT must name the refault binary}"
: "${top_srcdir:?}"
PYTHON3=${PYTHON3:-python3}
MK="$PYTHON3 $top_srcdir/tests/compare/mkresults.py"
EXPECTED=$top_srcdir/tests/compare/expected
T=$(mktemp -d "${TMPDIR:-/tmp}/refault-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
check() {	# check "name" command...: ok if the command succeeds
	n=$((n + 1))
	name=$1
	shift
	if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; fi
}
# Run refault compare; keep stdout, stderr and the exit status in $T/out, $T/err, $rc.
rc=0
run() {
	rc=0
	"$REFAULT" compare "$@" >"$T/out" 2>"$T/err" || rc=$?
}
# The 23047a96 story on a single-cgroup read-twice trace: same decisions, the cost moves.
story_single() {
	$MK "$1" --trace recorded/readtwice.rft --fp 5eed0001 --series \
	  --config v4.5 vmstat.workingset_refault_file=0 vmstat.workingset_activate_file=0 \
	    vmstat.pgactivate=524288 vmstat.pgdeactivate=262144 vmstat.pgscan_kswapd=786432 \
	    gauge.nr_active_file=600 gauge.nr_inactive_file=400 \
	    cost.estimated_ns=28384711 cost.lru_lock=2062500 replay.events.file_read=1048576 \
	  --config v4.6 vmstat.workingset_refault_file=0 vmstat.workingset_activate_file=0 \
	    vmstat.pgactivate=524288 vmstat.pgdeactivate=262144 vmstat.pgscan_kswapd=786432 \
	    gauge.nr_active_file=600 gauge.nr_inactive_file=400 \
	    cost.estimated_ns=35146000 cost.lru_lock=2062500 replay.events.file_read=1048576 \
	  --config v4.6+55779ec vmstat.workingset_refault_file=0 vmstat.workingset_activate_file=0 \
	    vmstat.pgactivate=524288 vmstat.pgdeactivate=262144 vmstat.pgscan_kswapd=786432 \
	    gauge.nr_active_file=600 gauge.nr_inactive_file=400 \
	    cost.estimated_ns=31540000 cost.lru_lock=2062500 replay.events.file_read=1048576
}
# The same kernels on a multi-cgroup trace: per-cgroup detection changes decisions.
story_cgroups() {
	$MK "$1" --trace traces/cgroup-thrash.rft --fp 5eed0002 --series \
	  --config v4.5 vmstat.workingset_refault_file=1250 vmstat.workingset_activate_file=310 \
	    vmstat.pgactivate=98225 vmstat.pgscan_kswapd=412000 memcg./a.workingset_refault_file=1250 \
	    gauge.nr_active_file=700 gauge.nr_inactive_file=300 cost.estimated_ns=41000000 \
	    replay.events.file_read=900000 \
	  --config v4.6 vmstat.workingset_refault_file=98225 vmstat.workingset_activate_file=61000 \
	    vmstat.pgactivate=160000 vmstat.pgscan_kswapd=398000 memcg./a.workingset_refault_file=98225 \
	    gauge.nr_active_file=450 gauge.nr_inactive_file=550 cost.estimated_ns=52000000 \
	    replay.events.file_read=900000 \
	  --config v4.6+55779ec vmstat.workingset_refault_file=98225 vmstat.workingset_activate_file=61000 \
	    vmstat.pgactivate=160000 vmstat.pgscan_kswapd=398000 memcg./a.workingset_refault_file=98225 \
	    gauge.nr_active_file=450 gauge.nr_inactive_file=550 cost.estimated_ns=46100000 \
	    replay.events.file_read=900000
}
