#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault sweep end to end on the bundled traces: a plan (workloads, matrix, repetitions,
# groups), run three ways (processes, GNU parallel, parallel fed the emitted command list) with
# byte-identical merged results, skipped when done, a Slurm script run as its array elements
# would, failed and missing tasks reported with why and never merged as zeros, and compare
# reading the merged file (per workload, groups of runs, gates, a plot against memory).
: "${REFAULT:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/refault-sweep.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
tr=$top_srcdir/traces
cp "$tr/validate-hot.rft" hot.rft
cp "$tr/validate-read2-large.rft" read2.rft
cat > s.spec <<EOF
# two workloads: "val" with two recordings, "thrash" with one
traces val hot.rft read2.rft
trace $tr/cgroup-thrash.rft
matrix v6.1|v6.18 memory=64M|1G
matrix v6.1-mglru memory=64M|1G   # MGLRU: its memcg bins are random, so 'repeat' applies
repeat 2
group 3
EOF

rc=0
"$REFAULT" sweep plan s.spec -o plan.json > out 2> err || rc=$?
# per trace 4 classic runs + 2 x 2 MGLRU runs = 8, in groups of at most 3: 3 tasks; 3 traces
check "plan: 9 tasks, 3 traces, 6 configurations (8 runs of each trace)" \
	"[ $rc -eq 0 ] && grep -q '^plan.json: 9 tasks: 2 workloads, 3 traces' out && grep -q '6 configurations (8 runs of each trace)' out"
check "plan: a matrix per task in the store beside the plan" \
	"[ \$(ls sweep-store/*.matrix | wc -l) -eq 9 ]"
check "plan: MGLRU configurations repeated with lru_gen.seed=1 and 2, classic ones once" \
	"grep -hq 'v6.1-mglru memory=64M lru_gen.seed=2' sweep-store/*.matrix && ! grep -hq 'v6.1 memory=64M lru_gen.seed' sweep-store/*.matrix"
check "plan: the axes are the settings that vary" \
	"$PYTHON3 -c 'import json,sys; a=json.load(open(\"plan.json\"))[\"axes\"]; sys.exit(a != {\"profile\": [\"v6.1\", \"v6.18\", \"v6.1-mglru\"], \"memory\": [\"64M\", \"1G\"]})'"
cp plan.json plan1.json
"$REFAULT" sweep plan s.spec -o plan.json > /dev/null 2>&1
check "plan: the same spec gives the same plan (task names are hashes of their inputs)" "cmp -s plan.json plan1.json"

# spec errors name the file and line
printf 'traces a hot.rft\nmatrix v6.18 memory=64M\nbogus 1\n' > bad1.spec
printf 'traces a hot.rft\nmatrix v6.18 nosuchkey=1\n' > bad2.spec
printf 'traces a nosuch-*.rft\nmatrix v6.18\n' > bad3.spec
printf 'traces a hot.rft\nmatrix v6.1-mglru lru_gen.seed=3\nrepeat 2\n' > bad4.spec
head -c 100 "$tr/cgroup-thrash.rft" > badhdr.rft
printf 'traces a badhdr.rft\nmatrix v6.18\n' > bad5.spec
for b in 1 2 3 4 5; do
	rc=0
	"$REFAULT" sweep plan bad$b.spec -o bad.json > /dev/null 2> err$b || rc=$?
	eval "rc$b=$rc"
done
check "a spec's unknown directive: exit 1, SPEC:LINE: and the directives" \
	"[ $rc1 -eq 1 ] && grep -q 'bad1.spec:3: unknown directive .bogus. (traces, trace, matrix' err1"
check "a spec's bad setting: exit 1, SPEC:LINE: and the key" \
	"[ $rc2 -eq 1 ] && grep -q 'bad2.spec:2: .*nosuchkey' err2"
check "a glob that matches nothing: exit 1, says which" \
	"[ $rc3 -eq 1 ] && grep -q 'no file matches .*nosuch-\\*.rft' err3"
check "a trace whose header is cut: exit 1, the reader's message with the file" \
	"[ $rc5 -eq 1 ] && grep -q 'badhdr.rft' err5"
check "repeat with a fixed lru_gen.seed: exit 1, says to drop one" \
	"[ $rc4 -eq 1 ] && grep -q 'sets lru_gen.seed, which .repeat 2. varies' err4 && [ ! -e bad.json ]"

# 1. by processes
rc=0
"$REFAULT" sweep run plan.json --local --engine processes -j 2 > run1 2>&1 || rc=$?
check "run by processes: every task ran" "[ $rc -eq 0 ] && grep -q '^9 tasks: 9 ran, 0 failed, 0 done before;.* 2 at a time by processes' run1"
"$REFAULT" sweep run plan.json --engine processes > run2 2>&1
check "run again: nothing runs, every task was done before" "grep -q '^9 tasks: 0 ran, 0 failed, 9 done before' run2"
rc=0
"$REFAULT" sweep merge plan.json -o m1.json > merge1 2>&1 || rc=$?
check "merge: complete, 12 configurations (6 per workload), 24 runs" \
	"[ $rc -eq 0 ] && grep -q '9 of 9 tasks done (0 failed, 0 missing, 0 past damaged chunks); 12 configurations, 24 runs$' merge1"
check "merge: the 'val' group of an MGLRU configuration has its 2 traces x 2 seeds" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(\"m1.json\")); c=[c for c in d[\"configs\"] if c[\"name\"]==\"val/v6.1-mglru,memory=64M\"][0]; sys.exit(len(c[\"runs\"]) != 4 or d[\"complete\"] is not True)'"
check "merge: each run is its replay's, trace fingerprint included" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(\"m1.json\")); fps={r[\"trace\"][\"fingerprint\"] for c in d[\"configs\"] for r in c[\"runs\"]}; sys.exit(len(fps) != 3)'"

clean_store() { rm -f sweep-store/*.json sweep-store/*.status sweep-store/*.log sweep-store/*.joblog; }

# 2. by GNU parallel, 3. by parallel fed the emitted command list
if parallel --version 2> /dev/null | grep -q '^GNU parallel'; then
	clean_store
	rc=0
	"$REFAULT" sweep run plan.json -j 2 --engine parallel > run3 2>&1 || rc=$?
	"$REFAULT" sweep merge plan.json -o m2.json > /dev/null 2>&1
	check "run by GNU parallel: every task ran, its joblog in the store" \
		"[ $rc -eq 0 ] && grep -q '9 ran, 0 failed.* by GNU parallel' run3 && [ \$(grep -c . sweep-store/parallel.joblog) -eq 10 ]"
	check "GNU parallel and processes: byte-identical merged results" "cmp -s m1.json m2.json"
	clean_store
	"$REFAULT" sweep emit plan.json --parallel -o cmds > /dev/null 2> emit-err
	check "emit --parallel: one 'refault sweep task PLAN I' a line, and how to run it" \
		"[ \$(grep -c ' sweep task .*plan.json. [0-9]*\$' cmds) -eq 9 ] && grep -q 'parallel --sshloginfile HOSTS' emit-err"
	# as on many hosts, with this one as the only "host" (':' is GNU parallel's local login)
	echo '2/:' > hosts
	rc=0
	parallel --will-cite --sshloginfile hosts < cmds > /dev/null 2>&1 || rc=$?
	"$REFAULT" sweep merge plan.json -o m3.json > /dev/null 2>&1
	check "the emitted list under parallel --sshloginfile: byte-identical merged results" \
		"[ $rc -eq 0 ] && cmp -s m1.json m3.json"
else
	skip_test "GNU parallel is not installed (Debian: parallel)"
	skip_test "GNU parallel is not installed"
	skip_test "GNU parallel is not installed"
	skip_test "GNU parallel is not installed"
fi

# a Slurm array script, its elements run as Slurm would run them (the real Slurm: test-sweep-slurm)
clean_store
"$REFAULT" sweep emit plan.json --slurm --max-running 4 -o job.sh > /dev/null 2>&1
check "emit --slurm: an array of the 9 tasks, memory, time and logs from the plan" \
	"grep -q '^#SBATCH --array=0-8%4\$' job.sh && grep -q '^#SBATCH --mem=[0-9]*M\$' job.sh && grep -q '^#SBATCH --time=[0-9]*\$' job.sh && grep -q '^#SBATCH --output=\".*/sweep-store/slurm-%A_%a.out\"\$' job.sh && sh -n job.sh"
for i in 0 1 2 3 4 5 6 7 8; do SLURM_ARRAY_TASK_ID=$i sh job.sh; done > /dev/null 2>&1
"$REFAULT" sweep merge plan.json -o m4.json > /dev/null 2>&1
check "the array's elements: byte-identical merged results" "cmp -s m1.json m4.json"

# failed and missing tasks
id0=$($PYTHON3 -c 'import json; print(json.load(open("plan.json"))["tasks"][0]["id"])')
rm -f "sweep-store/$id0.json" "sweep-store/$id0.status" "sweep-store/$id0.log"
head -c 5000 "$tr/validate-read2-large.rft" > read2.rft	# a recording that went bad since the plan
rm -f sweep-store/*.json sweep-store/*.status
rc=0
"$REFAULT" sweep run plan.json --engine processes -j 2 > run5 2> err5 || rc=$?
check "run: a task whose trace is damaged fails, exit 1, named with the replay's own message" \
	"[ $rc -eq 1 ] && grep -q 'failed' run5 && grep -q 'task [0-9]* (.*): replay exited 1: .*read2.rft' err5"
rm -f "sweep-store/$id0.json" "sweep-store/$id0.status" "sweep-store/$id0.log"
rc=0
"$REFAULT" sweep merge plan.json -o m5.json > merge5 2> err6 || rc=$?
check "merge of a partial sweep: written, exit 3, says so" \
	"[ $rc -eq 3 ] && [ -s m5.json ] && grep -q '5 of 9 tasks done (3 failed, 1 missing, 0 past damaged chunks); 12 configurations, 13 runs: a partial sweep' merge5"
"$REFAULT" --help > help.out 2>&1
check "refault --help lists merge's exit 3 among the verbs' own statuses" \
	"grep -q 'sweep merge: 3 when\$' help.out && grep -q '^the sweep file it wrote is partial' help.out"
check "merge: each task not done named with why (failed: the log's last line; missing: not run)" \
	"grep -q 'task 0 (.*): missing: not run' err6 && grep -q 'failed: replay exited 1: .*read2.rft' err6"
check "merge: a partial sweep's file is not complete and lists what is not done; no zero runs" \
	"$PYTHON3 -c 'import json,sys; d=json.load(open(\"m5.json\")); r=sum(len(c[\"runs\"]) for c in d[\"configs\"]); sys.exit(d[\"complete\"] or len(d[\"not_done\"]) != 4 or r != 13)'"
rc=0
"$REFAULT" sweep status plan.json > status 2>&1 || rc=$?
check "status: exit 1, the counts" "[ $rc -eq 1 ] && grep -q '^9 tasks: 5 done, 3 failed, 1 missing\$' status"
cp "$tr/validate-read2-large.rft" read2.rft
"$REFAULT" sweep run plan.json --engine processes > run6 2>&1
"$REFAULT" sweep merge plan.json -o m6.json > /dev/null 2>&1
check "the trace restored, run again: only the 4 tasks not done run; merged as before" \
	"grep -q '^9 tasks: 4 ran, 0 failed, 5 done before' run6 && cmp -s m1.json m6.json"

# compare reads the merged sweep
rc=0
"$REFAULT" compare m1.json > cmp1 2> cmp1.err || rc=$?
check "compare SWEEP.json: a table per workload" \
	"[ $rc -eq 0 ] && grep -q '^== workload val ==' cmp1 && grep -q '^== workload cgroup-thrash ==' cmp1"
check "compare SWEEP.json: a configuration's column is its runs (2 traces x 2 seeds)" \
	"grep -q '^  v6.1-mglru,memory=64M (m1.json:val/v6.1-mglru,memory=64M, 4 runs)' cmp1"
rc=0
"$REFAULT" compare m1.json --fail-if 'workingset_refault_file < -100%' > /dev/null 2>&1 || rc=$?
rc2=0
"$REFAULT" compare m1.json --fail-if 'pgscan_kswapd > 0' > /dev/null 2> gate.err || rc2=$?
check "compare SWEEP.json --fail-if: gates over every workload (one holds: 0; one trips: 3)" \
	"[ $rc -eq 0 ] && [ $rc2 -eq 3 ] && grep -q 'gate tripped' gate.err"
"$REFAULT" compare m1.json:cgroup-thrash/v6.1,memory=64M m1.json:cgroup-thrash/v6.18,memory=64M \
	--plot pgscan_kswapd > /dev/null 2> sides.err
check "compare SWEEP.json:WORKLOAD/CONFIG sides (names with commas)" "[ ! -s sides.err ]"
"$REFAULT" compare m1.json --plot workingset_refault_file --over memory > plot 2>&1
check "compare --over memory: a line per profile against the sweep's memory axis" \
	"grep -q '64M  *1G  (memory)' plot && grep -q '^\[O\] v6.18\$' plot"
rc=0
"$REFAULT" compare m5.json > /dev/null 2> cmp5.err || rc=$?
check "compare of a partial sweep warns that it is partial" "grep -q 'a partial sweep: 4 of its tasks' cmp5.err"
rc=0
"$REFAULT" compare m1.json --json > /dev/null 2> cmpj.err || rc=$?
check "compare --json of several workloads: exit 1, says how to name one" \
	"[ $rc -eq 1 ] && grep -q '^refault compare: m1.json holds several workloads: .*(m1.json:WORKLOAD/CONFIG ...)\$' cmpj.err"
"$REFAULT" replay "$tr/cgroup-thrash.rft" --matrix sweep-store/"$id0".matrix -o r.json -q 2> /dev/null ||
	"$REFAULT" replay "$tr/cgroup-thrash.rft" -p v6.1,v6.18 --set memory=1G -o r.json -q
rc=0
"$REFAULT" compare r.json > /dev/null 2> r.err || rc=$?
check "compare of a results file whose configuration names hold commas (v6.1,memory=1G)" \
	"[ $rc -eq 0 ] && [ ! -s r.err ]"
done_testing
