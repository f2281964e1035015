#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replay engine benchmark (issue 4): a generated stream of >= 20 M references, replayed with 1 and with 4
# configurations, each with --threads 1 and 2, against decode-only throughput and against 4 separate
# replays, all in one run so the ratios share the machine's noise.
#   REFAULT=./refault tests/bench/bench-replay.sh [MEM]     (MEM sizes the trace; default 10G = 20 M refs)
set -euo pipefail
: "${REFAULT:?set REFAULT to the refault binary}"
mem=${1:-10G}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=$tmp/readtwice.rft

"$REFAULT" gen lru-file-readtwice --mem "$mem" --cpus 4 --tasks 4 --seed 1 -o "$trace" >/dev/null
events=$("$REFAULT" trace info --json "$trace" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
refs=$("$REFAULT" trace info --json "$trace" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["per_class"].get("reference", 0))')
echo "trace: lru-file-readtwice --mem $mem: $events events ($refs references), $(stat -c %s "$trace") bytes"

# seconds and peak RSS (KiB) of one command
measure() {
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	cat "$tmp/time"
}

four=v4.5,v4.6,v4.6+55779ec,v4.9
read -r t_decode rss_decode < <(measure "$REFAULT" trace verify -q "$trace")
read -r t1j1 rss1j1 < <(measure "$REFAULT" replay "$trace" -p v4.6 -j1 -q)
read -r t1j2 rss1j2 < <(measure "$REFAULT" replay "$trace" -p v4.6 -j2 -q)
read -r t4j1 rss4j1 < <(measure "$REFAULT" replay "$trace" -p $four -j1 -q)
read -r t4j2 rss4j2 < <(measure "$REFAULT" replay "$trace" -p $four -j2 -q)
sep=0
for p in ${four//,/ }; do
	read -r t _ < <(measure "$REFAULT" replay "$trace" -p "$p" -j2 -q)
	sep=$(python3 -c "print($sep + $t)")
done

python3 - "$events" "$t_decode" "$t1j1" "$t1j2" "$t4j1" "$t4j2" "$sep" "$rss1j2" "$rss4j2" <<'PY'
import sys
ev, dec, a, b, c, d, sep = (float(x) for x in sys.argv[1:8])
rss1, rss4 = int(sys.argv[8]), int(sys.argv[9])
m = lambda t: ev / t / 1e6 if t > 0 else float("inf")
print(f"{'run':44s} {'seconds':>8s} {'M events/s':>11s}")
print(f"{'decode only (refault trace verify)':44s} {dec:8.2f} {m(dec):11.2f}")
print(f"{'1 configuration, --threads 1':44s} {a:8.2f} {m(a):11.2f}")
print(f"{'1 configuration, --threads 2':44s} {b:8.2f} {m(b):11.2f}")
print(f"{'4 configurations in one pass, --threads 1':44s} {c:8.2f} {m(c):11.2f}")
print(f"{'4 configurations in one pass, --threads 2':44s} {d:8.2f} {m(d):11.2f}")
print(f"{'4 separate replays, --threads 2 each (sum)':44s} {sep:8.2f} {m(sep/4):11.2f}")
print(f"ratio one pass / separate (2 threads): {d/sep:.2f}  (target <= 0.55)")
print(f"decode share of a 1-configuration replay (1 thread): {dec/a:.2f}  (decode is the bottleneck if ~1)")
print(f"peak RSS: 1 configuration {rss1/1024:.0f} MiB, 4 configurations {rss4/1024:.0f} MiB")
PY
