#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every value of `refault workload --describe=json` draws (one object a line on stdin) within the
# bounds docs/workload.md gives, the summary and the budget consistent with the streams, and the
# space's coins near their probabilities over the draws.  Prints one line per violation (at most
# 40) and "draws N streams M" at the end; exit status 1 if anything was wrong.
import json
import sys

K, M = 1024, 1024 * 1024
ALIGN, PAGE = 64 * K, 4096
FILE_KINDS = {"read-seq", "pread-rand", "mmap-seq", "mmap-rand", "mmap-store", "write"}
READ_KINDS = {"read-seq", "pread-rand"}
MMAP_KINDS = {"mmap-seq", "mmap-rand", "mmap-store"}
KINDS = FILE_KINDS | {"anon"}
HINTS = ["fadvise-sequential", "fadvise-random", "fadvise-willneed", "fadvise-dontneed",
         "madvise-sequential", "madvise-random", "madvise-willneed", "madvise-hugepage"]
errors = []
coins = {"hot": [0, 0], "hint": [0, 0], "siblings": [0, 0], "whole": [0, 0]}
kinds_seen = set()


def bad(d, what):
    if len(errors) < 40:
        errors.append("seed %s limit %s: %s" % (d["seed"], d["limit"], what))


def up(v):
    return (v + ALIGN - 1) // ALIGN * ALIGN


def down(v):
    return v // ALIGN * ALIGN


def coin(name, on):
    coins[name][0] += 1 if on else 0
    coins[name][1] += 1


def check_stream(d, s, files, where):
    limit, kind = d["limit"], s["kind"]
    kinds_seen.add(kind)
    if kind not in KINDS:
        return bad(d, "%s: kind %s" % (where, kind))
    off, length = s["region"]["offset"], s["region"]["length"]
    if off % ALIGN or length % ALIGN or length < ALIGN:
        bad(d, "%s: region %d+%d not 64 KiB multiples" % (where, off, length))
    if kind in FILE_KINDS:
        size = files.get(s["file"])
        if size is None:
            return bad(d, "%s: file %s not drawn" % (where, s["file"]))
        if off + length > size or length < min(up(size // 4), size):
            bad(d, "%s: region %d@%d of a file of %d" % (where, length, off, size))
        if s["whole"] != (off == 0 and length == size):
            bad(d, "%s: whole %s for %d@%d of %d" % (where, s["whole"], length, off, size))
        coin("whole", s["whole"])
    else:
        cap = 2 * limit if d["swap"] else limit // 2
        if s["file"] is not None or off or length > cap or length < ALIGN:
            bad(d, "%s: anon region %d (cap %d)" % (where, length, cap))
    pages = length // PAGE
    sequential = s["order"] == "seq" or kind == "anon"
    if sequential:
        if s["passes"] not in (1, 2, 3) or s["factor"] is not None:
            bad(d, "%s: passes %s factor %s" % (where, s["passes"], s["factor"]))
        elif s["nominal_ops"] != s["passes"] * pages:
            bad(d, "%s: nominal %d != %d passes x %d pages" % (where, s["nominal_ops"], s["passes"], pages))
    else:
        f = s["factor"]
        if f is None or not 0.5 <= f <= 3 or s["passes"] is not None:
            bad(d, "%s: factor %s passes %s" % (where, f, s["passes"]))
        elif s["nominal_ops"] != max(pages * round(f * 100) // 100, 1):
            bad(d, "%s: nominal %d != %s x %d pages" % (where, s["nominal_ops"], f, pages))
    if (kind in ("pread-rand", "mmap-rand")) != (s["order"] == "rand") and kind != "mmap-store" and kind != "anon":
        bad(d, "%s: order %s" % (where, s["order"]))
    if s["ops"] < 1 or s["ops"] > s["nominal_ops"] * d["scale"] + 1:
        bad(d, "%s: ops %d, nominal %d x scale %s" % (where, s["ops"], s["nominal_ops"], d["scale"]))
    chunk = s["chunk"]
    if kind in ("read-seq", "write"):
        if chunk is None or chunk % (4 * K) or not 64 * K <= chunk <= 256 * K:
            bad(d, "%s: chunk %s" % (where, chunk))
    elif chunk is not None:
        bad(d, "%s: chunk %s for %s" % (where, chunk, kind))
    sync = s["sync_every"]
    if kind == "write":
        if sync is None or (sync and (sync % M or not M <= sync <= 8 * M)):
            bad(d, "%s: sync_every %s" % (where, sync))
    elif sync is not None:
        bad(d, "%s: sync_every for %s" % (where, kind))
    hot = s["hot"]
    if kind in READ_KINDS | MMAP_KINDS:
        coin("hot", hot is not None)
        if hot is not None:
            size = files[s["file"]]
            lo, hi = max(0.02 * limit - ALIGN / 2, ALIGN), min(0.3 * limit + ALIGN / 2, size)
            if hot["length"] % ALIGN or hot["offset"] % ALIGN or not lo <= hot["length"] <= hi:
                bad(d, "%s: hot length %d outside %d..%d" % (where, hot["length"], lo, hi))
            if hot["offset"] + hot["length"] > size:
                bad(d, "%s: hot range %d@%d past the file's %d" % (where, hot["length"], hot["offset"], size))
            if not 0.1 <= hot["rate"] <= 0.8:
                bad(d, "%s: hot rate %s" % (where, hot["rate"]))
    elif hot is not None:
        bad(d, "%s: a hot set for %s" % (where, kind))
    advice, hint = s["advice"], s["hint"]
    if kind == "write":
        if advice or hint or s["dontneed"]:
            bad(d, "%s: a hint for write" % where)
    else:
        coin("hint", hint is not None)
        want = "fadvise" if kind in READ_KINDS else "madvise"
        allowed = {"hugepage"} if kind == "anon" else {"sequential", "random", "willneed"}
        if (hint is None) != (advice is None) or (hint and (advice != want or hint not in allowed)):
            bad(d, "%s: %s=%s" % (where, advice, hint))
        if s["dontneed"] and (kind not in READ_KINDS or hint is None):
            bad(d, "%s: dontneed for %s with hint %s" % (where, kind, hint))


def summary_of(d, files, streams):
    kinds = [k for k in ["read-seq", "pread-rand", "mmap-seq", "mmap-rand", "mmap-store", "write", "anon"]
             if any(s["kind"] == k for s in streams)]
    hints = set()
    for s in streams:
        if s["hint"]:
            hints.add(s["advice"] + "-" + s["hint"])
        if s["dontneed"]:
            hints.add("fadvise-dontneed")
    return {
        "kinds": kinds,
        # the largest file / limit in hundredths, rounded half up as the C does
        "max_file_ratio": ((max(files.values()) * 100 + d["limit"] // 2) // d["limit"]) / 100,
        "tasks_max": max(len(p["tasks"]) for p in d["phases"]),
        "cgroups": "siblings" if any(p["cgroups"] == "siblings" for p in d["phases"]) else "one",
        "hot": any(s["hot"] for s in streams),
        "hints": [h for h in HINTS if h in hints],
        "writes": any(s["kind"] in ("write", "mmap-store") for s in streams),
        "anon": any(s["kind"] == "anon" for s in streams),
        "ops": sum(s["ops"] for s in streams),
        "nominal_ops": sum(s["nominal_ops"] for s in streams),
    }


def check(d):
    limit = d["limit"]
    files = {f["name"]: f["size"] for f in d["files"]}
    if not 1 <= len(files) <= 3:
        bad(d, "%d files" % len(files))
    for name, size in files.items():
        if size % ALIGN or not max(up(limit // 4), ALIGN) <= size <= down(4 * limit):
            bad(d, "file %s of %d outside [limit/4, 4 x limit] or not a 64 KiB multiple" % (name, size))
    if not 1 <= len(d["phases"]) <= 3:
        bad(d, "%d phases" % len(d["phases"]))
    streams = []
    for i, p in enumerate(d["phases"]):
        n = len(p["tasks"])
        if not 1 <= n <= 4:
            bad(d, "phase %d: %d tasks" % (i + 1, n))
        if n >= 2 and not d["no_cgroups"]:
            coin("siblings", p["cgroups"] == "siblings")
        if p["cgroups"] == "siblings" and (n < 2 or d["no_cgroups"]):
            bad(d, "phase %d: sibling cgroups with %d tasks, no_cgroups %s" % (i + 1, n, d["no_cgroups"]))
        anon = sum(t["region"]["length"] for t in p["tasks"] if t["kind"] == "anon")
        if anon > (2 * limit if d["swap"] else limit // 2):
            bad(d, "phase %d: %d bytes of anonymous memory" % (i + 1, anon))
        for j, t in enumerate(p["tasks"]):
            if t["name"] != "p%d.t%d" % (i + 1, j + 1):
                bad(d, "task name %s" % t["name"])
            check_stream(d, t, files, t["name"])
            streams.append(t)
    want = summary_of(d, files, streams)
    got = d["summary"]
    for key, value in want.items():
        if got.get(key) != value:
            bad(d, "summary %s: %r, the streams say %r" % (key, got.get(key), value))
    budget = int(8 * (limit // PAGE) * d["scale"])
    if abs(got["budget"] - budget) > 1:
        bad(d, "budget %d, 8 x limit pages x scale is %d" % (got["budget"], budget))
    if got["ops"] > got["budget"] + len(streams):
        bad(d, "%d page operations over the budget %d" % (got["ops"], got["budget"]))
    if got["nominal_ops"] * d["scale"] <= got["budget"]:
        for s in streams:
            if s["ops"] != max(int(s["nominal_ops"] * d["scale"] + 1e-9), 1):
                bad(d, "%s: ops %d, under the budget it is nominal x scale" % (s["name"], s["ops"]))
    if not d["text"].startswith("seed=%d limit=" % d["seed"]) or len(d["text"]) >= 4096:
        bad(d, "text: %.60s... (%d bytes)" % (d["text"], len(d["text"])))


draws = nstreams = 0
for line in sys.stdin:
    d = json.loads(line)
    check(d)
    draws += 1
    nstreams += sum(len(p["tasks"]) for p in d["phases"])
# the coins of the space, loosely (40 %, 30 %, 30 %, 50 %): these seeds give fixed counts
for name, (lo, hi) in {"hot": (0.25, 0.55), "hint": (0.18, 0.42), "siblings": (0.15, 0.45),
                       "whole": (0.35, 0.65)}.items():
    on, total = coins[name]
    if total and not lo <= on / total <= hi:
        errors.append("coin %s: %d of %d, outside %.2f..%.2f" % (name, on, total, lo, hi))
if draws >= 100 and kinds_seen != KINDS:
    errors.append("kinds never drawn: %s" % sorted(KINDS - kinds_seen))
for e in errors:
    print(e)
print("draws %d streams %d hot %d/%d hint %d/%d siblings %d/%d" % (
    draws, nstreams, coins["hot"][0], coins["hot"][1], coins["hint"][0], coins["hint"][1],
    coins["siblings"][0], coins["siblings"][1]))
sys.exit(1 if errors else 0)
