#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write a refault results file (docs/results-format.md) for the compare tests.

mkresults.py OUT [--trace PATH] [--fp FINGERPRINT] [--wall SECONDS] [--series] [--kernel N]
             --config NAME key=value ... [--config NAME key=value ...]

--series adds a time series per configuration (10 samples, one per second), derived from the
final counters so that different configurations draw different curves.  --kernel N gives each
configuration the recording kernel's numbers ("observed": its vmstat. and memcg. counters at 1.5
times the model's) and their series at N counter snapshots spread over the 9 s (2: a recording's
default, the start and the end).
"""
import json
import sys


def series_for(stats):
    t = [i * 1000000000 for i in range(10)]
    out = {}
    act = stats.get("gauge.nr_active_file", 600)
    ina = stats.get("gauge.nr_inactive_file", 400)
    out["nr_active_file"] = [int(act * (0.5 + 0.05 * i)) for i in range(10)]
    out["nr_inactive_file"] = [int(ina * (1.0 - 0.04 * i)) for i in range(10)]
    for key in ("vmstat.workingset_refault_file", "vmstat.pgscan_kswapd"):
        final = stats.get(key, 0)
        out[key] = [int(final * (i * i) / 81) for i in range(10)]
    return {"interval_ns": 1000000000, "t": t, "series": out}


def main(argv):
    out = argv[0]
    doc = {"format": "refault-results", "version": [1, 0],
           "trace": {"path": "traces/test.rft", "bytes": 4096, "fingerprint": "f00d" * 16,
                     "header": {}, "events": 1000, "events_skipped": 0, "chunks_damaged": 0},
           "configs": [], "run": {"threads": 1, "wall_seconds": 1.0, "events_per_second": 1e6,
                                  "peak_rss_bytes": 1 << 24}}
    series = False
    kernel = 0
    cfg = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--trace":
            doc["trace"]["path"] = argv[i + 1]
            i += 1
        elif a == "--fp":
            doc["trace"]["fingerprint"] = argv[i + 1]
            i += 1
        elif a == "--wall":
            doc["run"]["wall_seconds"] = float(argv[i + 1])
            i += 1
        elif a == "--series":
            series = True
        elif a == "--kernel":
            kernel = int(argv[i + 1])
            i += 1
        elif a == "--config":
            cfg = {"name": argv[i + 1], "profile": argv[i + 1].split("+")[0],
                   "settings": {"memory": "1073741824"}, "overridden": {}, "stats": {},
                   "observed": {}}
            doc["configs"].append(cfg)
            i += 1
        else:
            k, v = a.split("=", 1)
            cfg["stats"][k] = float(v) if "." in v else int(v)
        i += 1
    if series:
        for c in doc["configs"]:
            c["timeseries"] = series_for(c["stats"])
    for c in doc["configs"] if kernel else []:
        c["observed"] = {k: int(v * 1.5) for k, v in c["stats"].items()
                         if k.startswith(("vmstat.", "memcg."))}
        t = [int(9e9 * j / (kernel - 1)) if kernel > 1 else 0 for j in range(kernel)]
        obs = {}
        for k, v in c["observed"].items():
            if k.startswith("vmstat.nr_") or k.endswith("_file") and "active" in k:
                obs[k] = [int(v * (0.6 + 0.4 * j / max(kernel - 1, 1))) for j in range(kernel)]
            else:
                obs[k] = [int(v * j / max(kernel - 1, 1)) for j in range(kernel)]
        c["observed_timeseries"] = {"interval_ns": 0, "t": t, "series": obs}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
