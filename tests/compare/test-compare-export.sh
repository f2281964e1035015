#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --json / --csv carry the table's rows; --export-matrix round-trips through LKP.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..5"
cd "$T" || exit 1
story_cgroups s2.json
for i in 1 2 3; do
	$MK r$i.json --wall 1.$i --config v4.6 cost.estimated_ns=100 vmstat.workingset_refault_file=5000
done

run s2.json
grep -E '^ +[-0-9.e+]+ ' "$T/out" | awk '{print $NF}' >table.rows
"$REFAULT" compare --json s2.json >out.json
"$REFAULT" compare --csv s2.json >out.csv
check "--json: the same rows as the table, in the same order" \
	sh -c "$PYTHON3 -c 'import json,sys; print(\"\\n\".join(r[\"metric\"] for r in json.load(open(\"out.json\"))[\"rows\"]))' | cmp -s - table.rows"
check "--csv: the same rows and the same numbers as --json" $PYTHON3 - <<'PY'
import csv, json, math, sys
j = json.load(open("out.json"))
rows = list(csv.DictReader(open("out.csv")))
assert [r["metric"] for r in rows] == [r["metric"] for r in j["rows"]]
labels = [c["label"] for c in j["columns"]]
for r, jr in zip(rows, j["rows"]):
    for i, lab in enumerate(labels):
        col = jr["columns"][i]
        assert math.isclose(float(r[lab + ":mean"]), col["mean"]), (r, col)
        if i:
            assert math.isclose(float(r[lab + ":change"]), col["change_percent"])
            assert int(r[lab + ":changed"]) == int(col["changed"])
PY
"$REFAULT" compare --export-matrix m.json r1.json,r2.json,r3.json 2>err
check "--export-matrix: LKP names and one sample per run" $PYTHON3 - <<'PY'
import json
m = json.load(open("m.json"))
assert m["proc-vmstat.workingset_refault_file"] == [5000, 5000, 5000], m
assert m["run.wall_seconds"] == [1.1, 1.2, 1.3], m
assert len(m["stats_source"]) == 3
PY
run --all r1.json,r2.json,r3.json m.json
check "the exported matrix reads back as the same samples (--all: every row +0.0%)" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -c '   +0.0% ' '$T/out') -eq 5 ] && ! grep -q 'replay different' '$T/err'"
echo '{"proc-vmstat.workingset_refault_file": 7000, "cost.estimated_ns": 100, "vm-scalability.throughput": "n/a"}' >stats.json
run r1.json,r2.json,r3.json stats.json
check "an LKP stats.json mixes with refault results (proc-vmstat.X is vmstat.X)" \
	sh -c "[ $rc -eq 0 ] && grep -q '+40.0%.*vmstat.workingset_refault_file' '$T/out'"
