#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare --change PA,PB A B (compare/change.c): the kernel's A -> B change per counter
# of the recorded cgroup (its @kernel numbers, LKP's noise rules over three runs a side) beside
# the models' PA -> PB change from A's recordings and from B's, and whether each agrees (the same
# way, 0.75x to 1.33x of the kernel's, or within 2 points where it moved under 5 %).  Crafted
# results files, so that every verdict is known.
. "$top_srcdir/tests/compare/lib.sh"
cd "$T" || exit 1
# mk FILE FP KERNEL PA PB: KERNEL, PA, PB "name=value,..." of memcg.recorded.*
cat > mk.py <<'PY'
import json, sys
out, fp, kern, pa, pb = sys.argv[1:6]
def d(s):
    return {"memcg.recorded." + k: float(v) for k, v in (x.split("=") for x in s.split(","))}
obs = d(kern)
doc = {"format": "refault-results", "version": [1, 0],
       "trace": {"path": out + ".rft", "bytes": 1, "fingerprint": fp * 8, "header": {},
                 "events": 1, "events_skipped": 0, "chunks_damaged": 0},
       "configs": [{"name": n, "profile": n, "settings": {}, "overridden": {}, "stats": d(s),
                    "observed": obs} for n, s in (("v6.12", pa), ("v6.12+mine", pb))],
       "run": {"threads": 1, "wall_seconds": 1.0, "events_per_second": 1.0, "peak_rss_bytes": 1}}
json.dump(doc, open(out, "w"))
PY
# The kernel: refaults +50 %, pgactivate +100 %, pgscan still, a counter no model has +30 %.
# From A's runs the model moves refaults +48 % (agrees), pgactivate -50 % (the wrong way);
# from B's runs refaults +20 % (too short) and pgactivate +110 % (agrees).
i=0
for k in 1000 1010 990; do
	i=$((i + 1))
	$PYTHON3 mk.py a$i.json a$i "workingset_refault_file=$k,pgactivate=100,pgscan_direct=5000,other=$k" \
		"workingset_refault_file=1000,pgactivate=100,pgscan_direct=5000" \
		"workingset_refault_file=1480,pgactivate=50,pgscan_direct=5010"
	$PYTHON3 mk.py b$i.json b$i "workingset_refault_file=$((k + 500)),pgactivate=200,pgscan_direct=$((5000 + i)),other=$((k * 13 / 10))" \
		"workingset_refault_file=1000,pgactivate=100,pgscan_direct=5000" \
		"workingset_refault_file=1200,pgactivate=210,pgscan_direct=5000"
done
A=a1.json,a2.json,a3.json B=b1.json,b2.json,b3.json
row() { grep " memcg\.recorded\.$1\$" "$T/out" > "$T/row"; }
run --change v6.12,v6.12+mine $A $B
check "the table: exit 0, both kernels and both models named" \
	sh -c "test $rc -eq 0 && grep -q '^the kernel: a1.json:v6.12@kernel,.* (3 runs) -> b1.json:v6.12+mine@kernel' '$T/out' && grep -q '^the models: v6.12 -> v6.12+mine' '$T/out'"
row workingset_refault_file
check "refaults: the kernel +50.0 %, from A's runs +48.0 % agrees, from B's +20.0 % does not" \
	grep -q '+50.0% .* +48.0% yes  *+20.0% no ' "$T/row"
row pgactivate
check "pgactivate: +100 %; from A's runs the wrong way, from B's +110 % agrees" \
	grep -q '+100.0% .* -50.0% no  *+110.0% yes' "$T/row"
row pgscan_direct
check "a counter the kernel kept (pgscan_direct) is shown, nothing to agree with" \
	sh -c "test -s '$T/row' && ! grep -q 'yes\|no ' '$T/row'"
row other
check "a counter only the kernel has, moved: shown, the models '-', not agreeing" \
	grep -q '+30.0% .* - no  *- no ' "$T/row"
check "the sum: 2 of 6 model changes agree" grep -q '^2 of 6 model changes agree' "$T/out"
run --change v6.12,v6.12+mine $A $B --json
check "--json: the rows, the kernel's runs and whether each model agrees" \
	$PYTHON3 -c "
import json; d = json.load(open('$T/out'))
r = {x['metric']: x for x in d['rows']}
x = r['memcg.recorded.workingset_refault_file']
assert d['profile_b'] == 'v6.12+mine' and x['kernel']['runs_a'] == 3 and x['kernel']['moved']
assert x['agree_from_a'] is True and x['agree_from_b'] is False, x
assert abs(x['model_from_a']['change_percent'] - 48) < 1e-9
assert r['memcg.recorded.pgscan_direct']['agree_from_a'] is None"
run --change v6.12,v6.12+mine $A $B --html "$T/change.html"
check "--html: the page, each model change coloured by whether it agrees" \
	sh -c "test $rc -eq 0 && grep -q '<td class=\"yes\">+48.0%' '$T/change.html' && grep -q '<td class=\"no\">+20.0%' '$T/change.html' && grep -q '2 of 6 model changes agree' '$T/change.html'"
run --change v6.12 $A $B
check "--change with one profile: exit 2" sh -c "test $rc -eq 2 && grep -q 'two profiles' '$T/err'"
run --change v6.12,v6.12+mine $A
check "--change with one side: exit 2" sh -c "test $rc -eq 2 && grep -q 'two sides' '$T/err'"
run --change v6.12,v6.12+mine --csv $A $B
check "--change with --csv: exit 2" sh -c "test $rc -eq 2 && grep -q 'not with --csv' '$T/err'"
cp "$T/change.html" "$T/keep.html"
run --change v6.12,v6.13 $A $B --html "$T/change.html"
check "a failed run keeps the page there was" cmp -s "$T/change.html" "$T/keep.html"
run --change v6.12,v6.13 $A $B
check "a profile the files lack: exit 1, named" sh -c "test $rc -eq 1 && grep -q 'v6.13' '$T/err'"
# 40,000 counters a file: the rows are joined by name, not searched for one by one
$PYTHON3 - <<'PY'
import json
for s in ("a", "b"):
    d = json.load(open(s + "1.json"))
    for c in d["configs"]:
        c["stats"].update({"memcg.recorded.x%05d" % i: i for i in range(40000)})
        c["observed"].update({"memcg.recorded.x%05d" % i: i + (s == "b") * i for i in range(40000)})
    json.dump(d, open(s + "big.json", "w"))
PY
start=$(date +%s)
run --change v6.12,v6.12+mine --all abig.json bbig.json
secs=$(( $(date +%s) - start ))
check "40,000 counters: the table in ${secs} s (under 20)" sh -c "test $rc -eq 0 && test $secs -lt 20"
echo "1..$n"
