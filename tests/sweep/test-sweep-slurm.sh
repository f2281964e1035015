#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault sweep on a real Slurm: a single-node cluster started here (munged, slurmctld and slurmd
# of Debian's slurm-wlm, a slurm.conf for this host written below, everything under one temporary
# directory, on ports of its own), the emitted job array submitted with sbatch and waited for,
# then merged: byte-identical to the same sweep run by local processes.  Needs root (slurmd
# runs jobs as their users) and the packages (install-deps.sh --lab); skipped with the reason
# otherwise.  Run by `make check-sweeps` and .ci/run.
: "${REFAULT:?}" "${top_srcdir:?}"
. "$top_srcdir/tests/lib/tap.sh"
[ "$(id -u)" = 0 ] || { skip_all "needs root to start slurmd"; exit 0; }
for p in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
	command -v $p > /dev/null || [ -x /usr/sbin/$p ] ||
		{ skip_all "$p is not installed (Debian: slurmctld slurmd slurm-client munge)"; exit 0; }
done
PATH=$PATH:/usr/sbin
T=$(mktemp -d "${TMPDIR:-/tmp}/refault-slurm.XXXXXX") || exit 1
chmod 755 "$T"
cleanup() {
	[ -s "$T/slurmd.pid" ] && kill "$(cat "$T/slurmd.pid")" 2> /dev/null
	[ -s "$T/slurmctld.pid" ] && kill "$(cat "$T/slurmctld.pid")" 2> /dev/null
	[ -s "$T/munged.pid" ] && kill "$(cat "$T/munged.pid")" 2> /dev/null
	sleep 1
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T" || exit 1
host=$(hostname -s)
# two free ports, from the kernel
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
mkdir -p state spool munge
mungekey -c -k munge/munge.key > /dev/null 2>&1 || dd if=/dev/urandom of=munge/munge.key bs=1024 count=1 2> /dev/null
chmod 700 munge
chmod 600 munge/munge.key
munged --force --socket="$T/munge/munge.sock" --key-file="$T/munge/munge.key" \
	--pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" > munged.out 2>&1
cat > slurm.conf <<EOF
ClusterName=refault-test
SlurmctldHost=$host
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) RealMemory=4096 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF" > slurmctld.out 2>&1
slurmd -f "$SLURM_CONF" > slurmd.out 2>&1
up=1
for i in $(seq 60); do
	sinfo -h -o '%t' 2> /dev/null | grep -q '^idle' && { up=0; break; }
	sleep 1
done
check "a single-node Slurm came up (munged, slurmctld, slurmd; sinfo says idle)" "[ $up -eq 0 ]"
if [ $up -ne 0 ]; then
	for f in munged.log slurmctld.log slurmd.log; do tail -5 "$f" 2> /dev/null | sed "s/^/# $f: /"; done
	done_testing
fi

tr=$top_srcdir/traces
cat > s.spec <<EOF
trace $tr/cgroup-thrash.rft $tr/lru-file-readtwice.rft
matrix v6.1|v6.18 memory=64M|256M
matrix v6.1-mglru memory=64M|256M
repeat 2
group 3
EOF
"$REFAULT" sweep plan s.spec -o plan.json > /dev/null
"$REFAULT" sweep run plan.json --engine processes -j 2 > /dev/null 2>&1
"$REFAULT" sweep merge plan.json -o local.json > /dev/null 2>&1
rm -f sweep-store/*.json sweep-store/*.status sweep-store/*.log
"$REFAULT" sweep emit plan.json --slurm -o job.sh > /dev/null
n=$("$PYTHON3" -c 'import json; print(len(json.load(open("plan.json"))["tasks"]))')
rc=0
t0=$(date +%s.%N)
timeout 600 sbatch --wait --quiet job.sh > sbatch.out 2>&1 || rc=$?
t1=$(date +%s.%N)
# what docs/sweeps.md quotes: the array's wall time against its tasks' own
"$PYTHON3" -c 'import json,glob,sys; own=sum(json.load(open(f))["wall_seconds"] for f in glob.glob("sweep-store/*.status")); print("# sbatch --wait: %.2f s for %s tasks, their own %.2f s" % (float(sys.argv[2]) - float(sys.argv[1]), sys.argv[3], own))' "$t0" "$t1" "$n" 2> /dev/null
check "sbatch --wait of the emitted array ($n tasks): exit 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/# /' sbatch.out
check "every element ran on Slurm (its job id in each task's status)" \
	"[ \$(grep -l '\"slurm_job\"' sweep-store/*.status | wc -l) -eq $n ]"
rc=0
"$REFAULT" sweep merge plan.json -o slurm.json > merge.out 2>&1 || rc=$?
check "merged: complete, byte-identical to the same sweep run by local processes" \
	"[ $rc -eq 0 ] && cmp -s local.json slurm.json"
# a second submission of a finished sweep: every element ends at once, nothing rewritten
cat sweep-store/*.status sweep-store/*.log | cksum > before
rc=0
timeout 300 sbatch --wait --quiet job.sh > sbatch2.out 2>&1 || rc=$?
cat sweep-store/*.status sweep-store/*.log | cksum > after
check "submitted again: every task was done, none ran again (statuses and logs unchanged)" \
	"[ $rc -eq 0 ] && cmp -s before after"
outs=0
for i in $(seq 0 $((n - 1))); do
	[ "$(ls sweep-store/slurm-*_"$i".out 2> /dev/null | wc -l)" -eq 2 ] && outs=$((outs + 1))
done
check "each element's Slurm output in the store, named by job and index (both submissions)" \
	"[ $outs -eq $n ]"

# a store whose path is shell text, sbatch's quotes and '#', and Slurm's patterns: the #SBATCH
# --output line as sbatch reads it, the exec line as sh does; nothing else runs
H="$T/"'h d $(touch pwned1) `touch pwned2`; '"'q'"' "dq" # %A %% %j'
mkdir "$H" && chmod 755 "$H" && cp "$tr/validate-hot.rft" "$H/t.rft"
printf 'traces w t.rft\nmatrix v6.18 memory=64M|1G\ngroup 1\n' > "$H/s.spec"
"$REFAULT" sweep plan "$H/s.spec" -o "$H/p.json" > /dev/null
"$REFAULT" sweep emit "$H/p.json" --slurm -o "$H/job.sh" > /dev/null
rc=0
timeout 300 sbatch --wait --quiet "$H/job.sh" > sbatch3.out 2>&1 || rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' sbatch3.out
rc2=0
"$REFAULT" sweep status "$H/p.json" > status3.out 2>&1 || rc2=$?
check "a store of shell text, quotes, '#' and % patterns: both elements done on Slurm, nothing else ran" \
	"[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ -z \"\$(find \"\$T\" -name 'pwned*')\" ]"
check "... each element's Slurm output in that store, its % kept and the job's patterns expanded" \
	"[ \$(ls \"\$H\"/sweep-store/slurm-*_[01].out | wc -l) -eq 2 ]"
done_testing
