#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write a refault results file (docs/results-format.md) for the compare tests.

mkresults.py OUT [--trace PATH] [--fp FINGERPRINT] [--wall SECONDS] [--series]
             --config NAME key=value ... [--config NAME key=value ...]

--series adds a time series per configuration (10 samples, one per second), derived from the
final counters so that different configurations draw different curves.
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
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
