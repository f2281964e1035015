#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Regenerate the measured tables of docs/fidelity.md: record every workload of the
# validation suite (cases.sh) RUNS times, each in a fresh 64 MiB memory cgroup, validate
# each recording on its own, and write one table per workload (kernel and model mean,
# %stddev, worst run, verdict: tests/validate/fidelity-table.py) between the
# "fidelity:begin/end" markers of docs/fidelity.md.
#
#   cd BUILDDIR && sudo $SRCDIR/tests/validate/fidelity.sh
#
# Needs root, tracefs and the v1 memory hierarchy.  RUNS (default 5) recordings of each
# case, run after run (every case once, then again), so a disturbance on the host falls on
# every case rather than on all runs of one.  VCASES_ONLY="case ..." records a subset.
# DOC=FILE writes there instead of the source tree's docs/fidelity.md (a copy of it is
# made first when FILE does not exist).  REFAULT and VWORKLOAD default to ./refault and
# ./tests/validate/vworkload; WORKDIR (default: a directory under the build tree, on disk)
# gets the traces and validate's JSON, kept with KEEP=1.  The header names the commit the
# source tree is at ("+ changes" when its C sources differ from it), or REV when set.
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
REFAULT=${REFAULT:-$PWD/refault}
VWORKLOAD=${VWORKLOAD:-$PWD/tests/validate/vworkload}
PYTHON3=${PYTHON3:-python3}
RUNS=${RUNS:-5}
doc=${DOC:-$top_srcdir/docs/fidelity.md}
export REFAULT
. "$top_srcdir/tests/validate/cases.sh"

case $RUNS in
''|*[!0-9]*|0) echo "fidelity.sh: RUNS must be a positive number (got '$RUNS')" >&2; exit 1;;
esac
mkdir -p "$PWD/tests/validate"
dir=${WORKDIR:-$(mktemp -d "$PWD/tests/validate/fidelity.XXXXXX")} || exit 1
[ -n "$KEEP" ] || trap 'vswap_off; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM
why=$(vcannot_run "$dir")
[ -z "$why" ] || { echo "fidelity.sh: cannot run: $why" >&2; exit 1; }
[ -x "$VWORKLOAD" ] || { echo "fidelity.sh: no $VWORKLOAD (make check builds it)" >&2; exit 1; }
"$PYTHON3" -c '' 2> /dev/null || { echo "fidelity.sh: no python3 (\$PYTHON3)" >&2; exit 1; }
if [ -n "$DOC" ] && [ ! -e "$DOC" ]; then
	cp "$top_srcdir/docs/fidelity.md" "$DOC" || exit 1
fi
vmake_files "$dir" || exit 1

# jstr FILE: the text of FILE as the inside of a JSON string (lines joined; quotes, backslashes
# and control characters dropped)
jstr() {
	[ -r "$1" ] && tr '\000-\037' ' ' < "$1" | tr -d '"\\'
}

# measure CASE RUN: record and validate one run into $dir/CASE.RUN.json ({"error": ...}
# when it could not be recorded or validated).  The trace goes once validated, unless KEEP.
measure() {
	# no locals in sh: names of their own (vrecord sets name, dir, wl)
	mcase=$1 mout=$dir/$1.$2
	rm -f "$dir/$mcase.err"
	if vrecord "$mcase" "$dir" "$VWORKLOAD"; then
		"$REFAULT" validate "$dir/$mcase.rft" --slack 0 --json > "$mout.json" 2> "$mout.verr"
		mst=$?
		[ $mst -eq 0 ] || [ $mst -eq 3 ] || printf '{"error": "refault validate exit %d: %s"}\n' \
			$mst "$(jstr "$mout.verr")" > "$mout.json"
	else
		mwhy=$(jstr "$dir/$mcase.err")
		printf '{"error": "%s"}\n' "${mwhy:-refault record -- vworkload failed}" > "$mout.json"
	fi
	if [ -n "$KEEP" ]; then
		mv "$dir/$mcase.rft" "$mout.rft" 2>/dev/null
	else
		rm -f "$dir/$mcase.rft"
	fi
}

# a reused WORKDIR may hold the runs of an earlier, longer series: they are not this one's
for c in $VCASES; do
	rm -f "$dir/$c".[0-9]*.json
done
start=$(date +%s)
r=1
while [ $r -le "$RUNS" ]; do
	for c in $VCASES; do
		echo "fidelity.sh: run $r of $RUNS: $c ($(($(date +%s) - start)) s)" >&2
		measure "$c" "$r"
	done
	r=$((r + 1))
done
for c in $VCASES; do
	vcase_describe "$c" > "$dir/$c.desc"
done
echo "fidelity.sh: $RUNS runs of $(echo "$VCASES" | wc -w) cases in $(($(date +%s) - start)) s" >&2

cmd="cd BUILDDIR && sudo"
[ "$RUNS" = 5 ] || cmd="$cmd RUNS=$RUNS"
[ -z "$VCASES_ONLY" ] || cmd="$cmd VCASES_ONLY='$VCASES_ONLY'"
cmd="$cmd \$SRCDIR/tests/validate/fidelity.sh"
# The commit the model and recorder were built from; "+ changes" when their sources differ
# from it (plain diff: it takes no index lock, others may be committing).
# REV overrides it (binaries built from an exported tree).
tree=${REV:-$(git -C "$top_srcdir" rev-parse --short HEAD 2>/dev/null)}
[ -n "$REV" ] || [ -z "$tree" ] || git -C "$top_srcdir" diff --quiet HEAD -- cli formats \
	replayer recorder include 2>/dev/null || tree="$tree + changes"
# shellcheck disable=SC2086
"$PYTHON3" "$top_srcdir/tests/validate/fidelity-table.py" --doc "$doc" \
	--tolerances "$top_srcdir/tests/validate/tolerances" --command "$cmd" \
	--date "$(date -u +%Y-%m-%d)" ${tree:+--tree "$tree"} "$dir" $VCASES || exit 1
echo "fidelity.sh: wrote $doc" >&2
