#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write the crafted inputs of tests/hostile/test-hostile-compare.sh into DIR.

gen-compare.py DIR [SCALE]

Files modest in bytes but large in what `refault compare` makes of them (docs/reliability.md):
  samples.json    an LKP stats.json of one metric with 1 M samples
  padded.json     an LKP stats.json: 200,000 samples of one metric beside 20,000 scalar ones, each
                  padded to 200,000 runs by LKP's rule (a missing sample counts as 0): 4 x 10^9 samples
  names.json      a results file, two configurations of 150,000 metrics each (the same names; the
                  first with the kernel's numbers too, "observed")
  distinct.json   a results file, two configurations of 150,000 metrics each (no name in both)
  configs.json    a results file of 8,000 configurations of 8 metrics each ("v4,memory=64M", ...)
  configs-distinct.json  8,000 configurations, each with 8 metrics no other one has
  series.json     a results file, two configurations with time series of 100,000 samples (and the
                  kernel's, "observed_timeseries")
  many-series.json  two configurations with 60,000 charted time series of 8 samples each
  sweep.json      a sweep file: two workloads x 200 configurations ("v4.5,memory=NM") x 30 runs
  sweep-distinct.json  a sweep file: one configuration of 8,000 runs, each with 8 metrics of its own
SCALE (default 1) multiplies every count.  Then it prints the names, one a line.
"""
import json
import os
import sys

FP = "5eed" * 16


def results(configs, trace=None):
    return {"format": "refault-results", "version": [1, 0],
            "trace": {"path": "traces/hostile.rft", "bytes": 4096, "fingerprint": FP,
                      "events": 1000, "events_skipped": 0, "chunks_damaged": 0},
            "configs": configs,
            "run": {"threads": 1, "wall_seconds": 1.0, "events_per_second": 1e6,
                    "peak_rss_bytes": 1 << 24}}


def config(name, stats, observed=None, **extra):
    c = {"name": name, "profile": name.split(",")[0], "settings": {}, "overridden": {},
         "stats": stats, "observed": observed or {}}
    c.update(extra)
    return c


def dump(d, path, obj):
    with open(os.path.join(d, path), "w") as f:
        json.dump(obj, f, separators=(",", ":"))


def main(argv):
    d = argv[0]
    k = float(argv[1]) if len(argv) > 1 else 1.0

    def n(x):
        return max(1, int(x * k))

    out = []
    # one metric, 3 M samples: every mode that reads samples (the statistics, --json's arrays, plots)
    dump(d, "samples.json", {"m": [i % 10 for i in range(n(1000000))]})
    out.append("samples.json")
    # 1 M runs by the longest array; 100,000 other metrics each padded to it
    p = {"k%06d" % i: 1 for i in range(n(20000))}
    p["m"] = [i % 10 for i in range(n(200000))]
    dump(d, "padded.json", p)
    out.append("padded.json")
    # many metric names: the row order (LKP's groups), JSON, the gates' name resolution
    names = ["g%d.metric_%06d" % (i % 1000, i) for i in range(n(150000))]
    dump(d, "names.json", results([
        config("v4.5", {m: i for i, m in enumerate(names)},
               {m: i + (i % 5) * 1000 for i, m in enumerate(names)}),
        config("v4.6", {m: i + (i % 3) * 1000 for i, m in enumerate(names)})]))
    out.append("names.json")
    dump(d, "distinct.json", results([
        config("v4.5", {m + "a": i for i, m in enumerate(names)}),
        config("v4.6", {m + "b": i for i, m in enumerate(names)})]))
    out.append("distinct.json")
    # many configurations: every column loads the same file, labels, the axis plot
    cs = []
    for i in range(n(8000)):
        st = {"vmstat.workingset_refault_file": i, "vmstat.pgscan_kswapd": 2 * i + 1,
              "vmstat.pgactivate": i % 7, "cost.estimated_ns": 1000 + i,
              "memcg.recorded.workingset_refault_file": i // 2, "gauge.nr_active_file": 5,
              "replay.events.file_read": 100, "vmstat.nr_inactive_file": i % 100}
        cs.append(config("v%d,memory=%dM" % (4 + i % 2, 64 + i // 2), st))
    dump(d, "configs.json", results(cs))
    out.append("configs.json")
    cs = []
    for i in range(n(8000)):
        cs.append(config("c%05d,memory=%dM" % (i, 64 + i),
                         {"x%05d.m%d" % (i, j): j for j in range(8)}))
    dump(d, "configs-distinct.json", results(cs))
    out.append("configs-distinct.json")
    # long time series, the model's and the kernel's
    ns = n(100000)
    t = list(range(ns))

    def ts(scale):
        return {"interval_ns": 1, "t": t, "series": {
            "vmstat.nr_active_file": [(i * scale) % 977 for i in range(ns)],
            "vmstat.workingset_refault_file": [i // 8 * scale for i in range(ns)],
            "vmstat.pgscan_kswapd": [i // 4 * scale for i in range(ns)]}}
    st = {"vmstat.workingset_refault_file": 1, "vmstat.pgscan_kswapd": 2, "vmstat.nr_active_file": 3}
    dump(d, "series.json", results([
        config("v4.5", st, timeseries=ts(1), observed_timeseries=ts(1)),
        config("v4.6", st, timeseries=ts(2), observed_timeseries=ts(2))]))
    out.append("series.json")
    # many series, each charted (list sizes and refault/scan rates)
    nm = n(60000)

    def many(scale):
        s = {}
        for i in range(nm):
            name = "memcg./c%05d.%s" % (i, ("pgscan_file", "active_file")[i % 2])
            s[name] = [j * scale for j in range(8)]
        return {"interval_ns": 1000, "t": [j * 1000 for j in range(8)], "series": s}
    dump(d, "many-series.json", results([
        config("v4.5", st, timeseries=many(1)), config("v4.6", st, timeseries=many(2))]))
    out.append("many-series.json")
    # sweep files: groups of many runs, many configurations over a memory axis
    runs = n(30)

    def run(i, name, extra):
        s = {"vmstat.workingset_refault_file": i % 13, "vmstat.pgscan_kswapd": i % 17}
        s.update(extra)
        r = results([{"name": name, "profile": name, "stats": s}])
        r["trace"] = {"path": "t%d.rft" % (i % 3), "fingerprint": "%064x" % (i % 3)}
        del r["run"]
        return r
    sc = []
    for w in ("wa", "wb"):
        for m in range(n(200)):
            c = "v4.%d,memory=%dM" % (5 + m % 2, 64 + m // 2)
            sc.append({"name": "%s/%s" % (w, c), "workload": w, "config": c, "profile": c,
                       "runs": [run(i, c, {}) for i in range(runs)]})
    dump(d, "sweep.json", {"format": "refault-sweep", "version": [1, 0],
                           "tasks": {"done": len(sc) * runs, "failed": 0, "missing": 0},
                           "configs": sc})
    out.append("sweep.json")
    nr = n(8000)
    sc = [{"name": c, "workload": "w", "profile": c,
           "runs": [run(i, c, {"x%05d.m%d" % (i, j): j for j in range(8)})
                    for i in range(nr)]}
          for c in ("v4.5", "v4.6")]
    dump(d, "sweep-distinct.json", {"format": "refault-sweep", "version": [1, 0],
                                    "tasks": {"done": 2 * nr, "failed": 0, "missing": 0},
                                    "configs": sc})
    out.append("sweep-distinct.json")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
