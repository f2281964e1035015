#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault compare NAME@kernel: the recording kernel's own numbers beside the model's, from a
# real recording (traces/validate-hot.rft: a hot set re-read under a stream in a 64 MiB memcg).
# The kernel's count comes from the trace, so a re-recorded bundled trace keeps the test true.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..7"
cd "$T" || exit 1
"$REFAULT" replay -q "$top_srcdir/traces/validate-hot.rft" -p v6.18 -o hot.json >/dev/null 2>&1
cg=$($PYTHON3 -c 'import json,sys; o=json.load(open("hot.json"))["configs"][0]["observed"]
print([k[6:-len(".workingset_refault_file")] for k in o
       if k.startswith("memcg.") and k.endswith(".workingset_refault_file")
       and not k.endswith(".total_workingset_refault_file")][0])')
# memory.stat (v1) gives sizes in bytes; the model counts pages: observed must be pages
check "observed memory.stat sizes are in pages, as the model's (active+inactive file <= 64 MiB)" \
	$PYTHON3 -c "import json; o=json.load(open('hot.json'))['configs'][0]['observed']
assert 0 < o['memcg.$cg.active_file'] + o['memcg.$cg.inactive_file'] <= 16384, o"
kref=$($PYTHON3 -c "import json; print(json.load(open('hot.json'))['configs'][0]['observed']['memcg.$cg.workingset_refault_file'])")
run --all hot.json:v6.18@kernel hot.json:v6.18
check "a kernel column against the model: exit 0" test "$rc" -eq 0
check "the kernel's refaults of the recorded cgroup beside the model's" \
	grep -q "^ *$kref .*memcg\.$cg\.workingset_refault_file\$" "$T/out"
check "only quantities both columns have (no cost.*, no memory.stat limits)" \
	sh -c "! grep -q 'cost\.\|hierarchical_memory_limit' '$T/out'"
check "no model-decisions summary against the kernel, and the host-wide vmstat note" \
	sh -c "! grep -q '^decisions:' '$T/out' && grep -q \"vmstat.* rows are the whole host\" '$T/err'"
run hot.json:@kernel hot.json --json
check "JSON names the kernel column's source" grep -q '"source":"kernel"' "$T/out"
run hot.json:v6.18@kernel,hot.json:v6.18 hot.json
check "a group mixing kernel and model numbers is refused" \
	sh -c "test $rc -ne 0 && grep -q 'cannot mix' '$T/err'"
