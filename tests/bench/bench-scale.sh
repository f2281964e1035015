#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A long replay over a bounded set of pages (issue 18, "Scale"): its memory should follow the
# distinct pages, not the events, and its speed should be the same at the end as at the start.
#
# bench-scale writes a trace of SCALE_EVENTS events (default 1e8; the docs' curve is 1e9) over
# 2,097,152 distinct pages (files read twice by four readers, round a fixed set, and a Zipf hot
# set); each profile of SCALE_PROFILES (default lru,v6.18) replays it alone, one worker, while
# this script samples the process twice a second: its RSS (/proc/PID/status) and how far it has
# read the trace (/proc/PID/io rchar, as events: the stream is the same throughout, so bytes
# per event are too).  Printed per tenth of the trace: M events/s over that tenth, RSS at its end.
#
#   REFAULT=./refault BENCH_SCALE=tests/bench/bench-scale [SCALE_EVENTS=1e9] \
#       [SCALE_DIR=/big/disk] tests/bench/bench-scale.sh
set -euo pipefail
: "${REFAULT:?set REFAULT to the refault binary}"
: "${BENCH_SCALE:?set BENCH_SCALE to tests/bench/bench-scale}"
events=${SCALE_EVENTS:-1e8}
profiles=${SCALE_PROFILES:-lru,v6.18}
tmp=$(mktemp -d "${SCALE_DIR:-${TMPDIR:-/tmp}}/bench-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trace=$tmp/scale.rft
# seconds since $1 (a `date +%s.%N`)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }'; }

start=$(date +%s.%N)
"$BENCH_SCALE" -n "$events" "$trace"
echo "written in $(since "$start") s: $(stat -c %s "$trace") bytes"

for p in ${profiles//,/ }; do
	"$REFAULT" replay "$trace" -p "$p" -j1 -q -o "$tmp/$p.json" &
	pid=$!
	t0=$(date +%s.%N)
	: > "$tmp/$p.samples"
	while kill -0 "$pid" 2> /dev/null; do
		rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2> /dev/null || true)
		rchar=$(awk '/^rchar:/ {print $2}' "/proc/$pid/io" 2> /dev/null || true)
		[ -n "$rss" ] && [ -n "$rchar" ] &&
			echo "$(since "$t0") $rchar $rss" >> "$tmp/$p.samples"
		sleep 0.5
	done
	wait "$pid"
	echo "$p $(since "$t0")" >> "$tmp/walls"
done

python3 - "$tmp" "$profiles" <<'PY'
import json, sys
tmp, profiles = sys.argv[1], sys.argv[2].split(",")
walls = dict(l.split() for l in open(f"{tmp}/walls"))
for p in profiles:
    res = json.load(open(f"{tmp}/{p}.json"))
    events = res["trace"]["events"]
    s = [tuple(map(float, l.split())) for l in open(f"{tmp}/{p}.samples")]
    # bytes read per event, from what the whole run read (rchar counts the chunk list and
    # the index too: some 10 % over the file's size)
    per = s[-1][1] / events
    print(f"\n{p}: {events / 1e6:.0f} M events in {float(walls[p]):.1f} s "
          f"({events / float(walls[p]) / 1e6:.2f} M events/s), "
          f"peak RSS {res['run'].get('peak_rss_bytes', 0) / 2**20:.0f} MiB")
    print(f"  {'tenth':>5} {'M events/s':>10} {'RSS MiB at its end':>18}")
    prev_t, prev_e = 0.0, 0.0
    rates, rsses = [], []
    for k in range(1, 11):
        goal = events * k / 10
        # the first sample at or past this tenth (the replay reads a few chunks ahead of its
        # models); the last tenth ends when the process does
        hit = next((x for x in s if x[1] / per >= goal), None) if k < 10 else \
            (float(walls[p]), events * per, s[-1][2])
        if hit is None:
            print(f"  {k:>5} (no sample)")
            continue
        t, e, rss = hit[0], min(hit[1] / per, events), hit[2]
        rate = (e - prev_e) / (t - prev_t) / 1e6 if t > prev_t else float("nan")
        print(f"  {k:>5} {rate:>10.2f} {rss / 1024:>18.0f}")
        rates.append(rate)
        rsses.append(rss)
        prev_t, prev_e = t, e
    if len(rates) == 10 and rsses[0]:
        later = rates[1:]	# the first tenth warms the cache up
        mean = sum(later) / len(later)
        print(f"  memory: RSS at the end / at the first tenth {rsses[-1] / rsses[0]:.2f} "
              f"(target 1: it follows the distinct pages, not the events)")
        print(f"  speed: tenths 2-10 at {min(later) / mean:.2f}..{max(later) / mean:.2f} of their "
              f"mean, the last at {later[-1] / mean:.2f} (target: constant)")
PY
