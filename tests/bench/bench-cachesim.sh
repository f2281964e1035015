#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault replay against libCacheSim's cachesim on one page stream (issue 18), all in one run.
#
# The stream is bench-model's (a seeded mix of files read twice by four readers and a Zipf hot
# set; 23 M references over 4.6 M distinct pages by default), written by `bench-model -w` as a
# refault trace whose header gives 25 % of the distinct pages as memory, and converted by
# `refault trace convert` to libCacheSim's oracleGeneral.  Each kernel profile and reference
# policy replays it alone, one worker (`-j1`); cachesim runs plain LRU over the same number of
# pages, one thread, reading its own uncompressed format.  Both plain LRUs must miss exactly as
# often: the same policy on the same requests.
#
#   REFAULT=./refault BENCH_MODEL=tests/bench/bench-model [LIBCACHESIM=/path/to/cachesim] \
#       tests/bench/bench-cachesim.sh [REFS]
# PROFILES (comma-separated) replaces the list: every profile of --list-profiles by default.
# Without LIBCACHESIM the ratios to libCacheSim are left out, saying so.
set -euo pipefail
: "${REFAULT:?set REFAULT to the refault binary}"
: "${BENCH_MODEL:?set BENCH_MODEL to tests/bench/bench-model}"
refs=${1:-23068672}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=$tmp/stream.rft

"$BENCH_MODEL" -n "$refs" -w "$trace"
pages=$("$REFAULT" trace info --json "$trace" |
	python3 -c 'import json,sys; h=json.load(sys.stdin)["header"]["host"]; print(h["mem_bytes"] // h["page_size"])')
echo "trace: $(stat -c %s "$trace") bytes; cache: $pages pages"
profiles=${PROFILES:-$("$REFAULT" replay --list-profiles | awk '{print $1}' | paste -sd,)}

# wall seconds, CPU seconds (user + system) and peak RSS (KiB) of one command; its output in $tmp/out
measure() {
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$tmp/time"
}

: > "$tmp/runs"
if [ -n "${LIBCACHESIM:-}" ]; then
	"$REFAULT" trace convert "$trace" "$tmp/stream.oracleGeneral" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	read -r w c rss < <(measure "$LIBCACHESIM" "$tmp/stream.oracleGeneral" oracleGeneral lru \
		"$pages" --ignore-obj-size 1 --num-thread 1)
	# its result line: "... LRU cache size N, R req, miss ratio 0.2631, throughput ..."
	cat "$tmp/out" "$tmp/err" | sed -n 's/.* \([0-9]*\) req, miss ratio \([0-9.]*\),.*/\1 \2/p' \
		> "$tmp/lcs-result"
	echo "libcachesim $w $c $rss $(cat "$tmp/lcs-result")" >> "$tmp/runs"
	rm -f "$tmp/stream.oracleGeneral"
fi
for p in ${profiles//,/ }; do
	read -r w c rss < <(measure "$REFAULT" replay "$trace" -p "$p" -j1 -q -o "$tmp/$p.json")
	echo "$p $w $c $rss" >> "$tmp/runs"
done

python3 - "$tmp" "$refs" <<'PY'
import json, sys
tmp, refs = sys.argv[1], int(sys.argv[2])
runs = {}
for line in open(f"{tmp}/runs"):
    f = line.split()
    runs[f[0]] = dict(wall=float(f[1]), cpu=float(f[2]), rss=int(f[3]) / 1024, extra=f[4:])

def misses(name):
    st = json.load(open(f"{tmp}/{name}.json"))["configs"][0]["stats"]
    if "policy.misses" in st:
        return st["policy.misses"]
    # pages brought in: every page ever added, evicted or still resident at the end
    return sum(st.get("vmstat." + k, 0) for k in
               ("pgsteal_kswapd", "pgsteal_direct", "nr_file_pages", "nr_anon_pages"))

lru = runs.get("lru")
lcs = runs.get("libcachesim")
print(f"{'run':14s} {'wall s':>7s} {'CPU s':>7s} {'M ev/s':>7s} {'x lru':>6s} {'x cachesim':>10s} {'RSS MiB':>8s} {'misses':>10s}  target")
order = (["libcachesim"] if lcs else []) + [k for k in runs if k != "libcachesim"]
missed = []
for name in order:
    r = runs[name]
    speed = refs / r["cpu"] / 1e6 if r["cpu"] else float("inf")
    xl = r["cpu"] / lru["cpu"] if lru and name != "libcachesim" else None
    xc = lcs["cpu"] / r["cpu"] if lcs and name != "libcachesim" else None
    if name == "libcachesim":
        # cachesim prints a rounded miss ratio only
        m = f"~{round(int(r['extra'][0]) * float(r['extra'][1]))}" if len(r["extra"]) == 2 else None
        target = "(baseline)"
    else:
        m = misses(name)
        target = ""
        if name not in ("lru", "clock", "opt") and xl is not None:
            ok = xl <= 2.0
            target = f"<= 2x lru: {'ok' if ok else 'MISSED'}"
            if not ok:
                missed.append(name)
        if name == "v6.18" and xc is not None:
            ok = xc >= 2.0
            target += f"; >= 2x cachesim: {'ok' if ok else 'MISSED'}"
            if not ok:
                missed.append(name + " vs cachesim")
    print(f"{name:14s} {r['wall']:7.2f} {r['cpu']:7.2f} {speed:7.2f} "
          f"{xl if xl is not None else float('nan'):6.2f} {xc if xc is not None else float('nan'):10.2f} "
          f"{r['rss']:8.0f} {m if m is not None else '-':>10}  {target}")
print("CPU s: user + system of the whole command (refault: its decoder and its worker); x lru: CPU time over")
print("refault's plain LRU's; x cachesim: cachesim's CPU time over this run's (speed per core, higher is faster).")
if lcs:
    if len(lcs["extra"]) == 2 and lru:
        st = json.load(open(f"{tmp}/lru.json"))["configs"][0]["stats"]
        mine = st["policy.misses"] / st["policy.refs"]
        same = f"{mine:.4f}" == lcs["extra"][1] and int(lcs["extra"][0]) == st["policy.refs"]
        print(f"plain LRU miss ratio: refault {mine:.4f} over {st['policy.refs']} references, "
              f"cachesim {lcs['extra'][1]} over {lcs['extra'][0]}: {'the same' if same else 'DIFFERENT'}")
        if not same:
            sys.exit(1)
else:
    print("LIBCACHESIM is not set: no comparison with libCacheSim (build its cachesim from "
          "https://github.com/1a1a11a/libCacheSim and point LIBCACHESIM at it)")
if missed:
    print("targets missed:", ", ".join(missed))
PY
