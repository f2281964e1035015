#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A recording's fixed cost (issue 18; docs/performance.md, "A recording's fixed cost"): recording
# /bin/true is nothing but starting and stopping, refault record (its default events, following
# the command, and -a) against perf record with the same tracepoints, with hyperfine.  Prints
# each mean and refault's ratio to perf's (target: perf's order, <= 1).
#
# usage: REFAULT=BUILD/refault sh tests/bench/bench-record-fixed.sh     env: RUNS (10)
set -u
RUNS=${RUNS:-10}
[ "$(id -u)" -eq 0 ] || { echo "bench-record-fixed: needs root (recording)"; exit 0; }
command -v hyperfine > /dev/null ||
	{ echo "bench-record-fixed: no hyperfine (apt-get install hyperfine)"; exit 0; }
command -v perf > /dev/null || { echo "bench-record-fixed: no perf (apt-get install linux-perf)"; exit 0; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-record-fixed.XXXXXX")
trap 'rm -rf "$dir"' EXIT
# the tracepoints refault record enables by default, those perf knows
events=$("$REFAULT" record --list-events | awk '/^  / { print $2 }' | while read -r e; do
	perf list "$e" 2> /dev/null | grep -q "$e" && printf -- "-e %s " "$e"; done)
hyperfine -N -w 2 --runs "$RUNS" --export-json "$dir/h.json" \
	-n "refault record -- /bin/true" "$REFAULT record -q -o $dir/o.rft -- /bin/true" \
	-n "refault record -a -- /bin/true" "$REFAULT record -q -a -o $dir/o.rft -- /bin/true" \
	-n "perf record -a -- /bin/true" "perf record -q -a -k mono $events -o $dir/p.data -- /bin/true" \
	> /dev/null || exit 1
python3 - "$dir/h.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
perf = r["perf record -a -- /bin/true"]["mean"]
for name, x in r.items():
    line = f"  {name:<32} {x['mean'] * 1000:7.0f} ms ± {x['stddev'] * 1000:4.0f}"
    if not name.startswith("perf"):
        line += f"   × perf {x['mean'] / perf:.2f} (target <= 1: {'met' if x['mean'] <= perf else 'MISSED'})"
    print(line)
PY
