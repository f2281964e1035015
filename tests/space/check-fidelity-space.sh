#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check-fidelity-space: the model checked on a seeded space of workloads, not the suite's
# hand-made cases.  Each seed is drawn by `refault workload` (docs/workload.md), recorded from
# a cold start under a memory.max of the draw's limit with the description in the trace's
# header (record --params), and validated (refault validate --json, its own tolerance); then
# space-table.py prints TAP and the summary (docs/fidelity.md "A seeded space of workloads").
#
#   SPACE_SEEDS    the seeds: "1-10", "3 7 12" or both (default 1-10)
#   SPACE_CONFIGS  where they are recorded (default host):
#                    host           this machine's kernel (root, tracefs, a memory cgroup)
#                    6.1-v2         linux-image-6.1.0-57-amd64 in the lab, cgroup v2
#                    6.12-v2        linux-image-6.12.117+deb12-amd64, cgroup v2, MGLRU off
#                    6.12-v2-mglru  the same with the multi-gen LRU on
#                    6.12-lab       Debian's linux-source-6.12 built with lab/lab.config
#                                   (refault lab build, cached), cgroup v2, MGLRU off
#                    6.12-lab-idle  the same kernel, each seed recorded with
#                                   --idle-pages=100ms (the mapped pages' accesses)
#   SPACE_LIMIT    the draw's --limit and the recording's memory.max (default 32M)
#   SPACE_WORKLOAD_ARGS  more `refault workload` options for every draw (--swap, --scale 0.5)
#   SPACE_OUT      where traces, descriptions and validations go (default
#                  BUILDDIR/tests/space/out): SPACE_OUT/CONFIG/seed-S.*
#   SPACE_DOC      a file whose "fidelity:space" markers get the summary (docs/fidelity.md)
#   SPACE_REUSE=1  record nothing: validate and summarise the traces SPACE_OUT has
#   REFAULT_LAB_CACHE, LAB_ACCEL (auto|kvm|tcg), LAB_BUDGET (seconds per boot, default 3600)
#
# A seed that cannot be recorded or validated fails; rows out of tolerance are "not ok ... #
# TODO" with the cause tests/space/causes.txt gives them (or "cause not found"); the run fails
# when a configuration's share of gated rows within tolerance falls below its line in
# tests/space/floors (what was measured, less the spread of one recording to the next).
set -u
known='host 6.1-v2 6.12-v2 6.12-v2-mglru 6.12-lab 6.12-lab-idle'
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
REFAULT=${REFAULT:-$top_builddir/refault}
PYTHON3=${PYTHON3:-python3}
here=$top_srcdir/tests/space
out_top=${SPACE_OUT:-$top_builddir/tests/space/out}
limit=${SPACE_LIMIT:-32M}
read -r -a configs <<< "${SPACE_CONFIGS:-host}"
read -r -a wargs <<< "${SPACE_WORKLOAD_ARGS:-}"
export REFAULT_LAB_CACHE=${REFAULT_LAB_CACHE:-$HOME/.cache/refault-lab}

echo "TAP version 13"
"$PYTHON3" -c '' 2> /dev/null || { echo "Bail out! no python3 (\$PYTHON3)"; exit 1; }

# the seeds, ranges expanded
seeds=()
for s in ${SPACE_SEEDS:-1-10}; do
	case $s in
	*-*) seeds+=($(seq "${s%-*}" "${s#*-}"));;
	*) seeds+=("$s");;
	esac
done
[ ${#seeds[@]} -gt 0 ] || { echo "Bail out! SPACE_SEEDS names no seed"; exit 1; }

# wl SEED ARGS...: refault workload for SEED at the run's limit
wl() {
	local s=$1
	shift
	"$REFAULT" workload --seed "$s" --limit "$limit" "${wargs[@]}" "$@"
}

# describe DIR: each seed's description, as text (the trace's params) and JSON (the table's)
describe() {
	local d=$1 s
	for s in "${seeds[@]}"; do
		wl "$s" --describe > "$d/seed-$s.params" &&
			wl "$s" --describe=json > "$d/seed-$s.describe.json" ||
			{ echo "Bail out! refault workload --seed $s --limit $limit --describe failed"; exit 1; }
	done
}

# record_host DIR: every seed recorded on this machine, one after the other
record_host() {
	local d=$1 s st t0 files=$1/files
	if [ "$(id -u)" != 0 ]; then
		echo "# host: not root: nothing recorded (refault record --memcg-limit needs root)"
		return 1
	fi
	if [ ! -d /sys/kernel/tracing/instances ]; then
		echo "# host: no tracefs at /sys/kernel/tracing: nothing recorded"
		return 1
	fi
	mkdir -p "$files" || return 1
	for s in "${seeds[@]}"; do
		t0=$(date +%s.%N)
		if wl "$s" --dir "$files" -q prepare 2> "$d/seed-$s.err"; then
			"$REFAULT" record -q --cold --memcg-limit "$limit" --snapshot-interval 100ms \
				--params "@$d/seed-$s.params" -o "$d/seed-$s.rft" -- \
				"$REFAULT" workload --seed "$s" --limit "$limit" "${wargs[@]}" \
				--dir "$files" -q 2>> "$d/seed-$s.err"
			st=$?
		else
			st=$?
		fi
		echo "seed-$s $st $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" \
			>> "$d/jobs.txt"
		wl "$s" --dir "$files" -q clean 2>> "$d/seed-$s.err"
	done
	rmdir "$files" 2> /dev/null
	return 0
}

# record_lab DIR CONFIG: every seed recorded in one boot of CONFIG's kernel: the files made in
# the guest (a job that is not recorded), the seed recorded, its files removed
record_lab() {
	local d=$1 k=$2 s lab=() jobs=$1/jobs.in rec=''
	case $k in
	6.1-v2) lab=(--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v2);;
	6.12-v2) lab=(--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru off);;
	6.12-v2-mglru) lab=(--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru on);;
	6.12-lab) lab=(--build linux-source-6.12 --cgroup v2 --mglru off);;
	6.12-lab-idle)
		lab=(--build linux-source-6.12 --cgroup v2 --mglru off)
		rec=--idle-pages=100ms;;
	*) echo "Bail out! SPACE_CONFIGS: no configuration '$k' ($known)"
	   exit 1;;
	esac
	if ! command -v qemu-system-x86_64 > /dev/null 2>&1; then
		echo "# $k: no qemu-system-x86_64 (install-deps.sh --lab): nothing recorded"
		return 1
	fi
	{
		echo "# tests/space/check-fidelity-space.sh: seeds ${seeds[*]} at --limit $limit"
		for s in "${seeds[@]}"; do
			echo "prepare-$s bare -- $REFAULT workload --seed $s --limit $limit ${wargs[*]}" \
				"--dir . -q prepare"
			echo "seed-$s cold --memcg-limit $limit --snapshot-interval 100ms $rec" \
				"--params @seed-$s.params -- $REFAULT workload --seed $s --limit $limit" \
				"${wargs[*]} --dir . -q"
			echo "clean-$s bare -- $REFAULT workload --seed $s --limit $limit ${wargs[*]}" \
				"--dir . -q clean"
		done
	} > "$jobs" || return 1
	for s in "${seeds[@]}"; do
		lab+=(--file "$d/seed-$s.params:seed-$s.params")
	done
	"$REFAULT" lab record "${lab[@]}" --thp madvise --swap 256M --retries 1 \
		--accel "${LAB_ACCEL:-auto}" --budget "${LAB_BUDGET:-3600}s" -q -o "$d" \
		--job-file "$jobs" > "$d/lab.log" 2>&1
	echo "# $k: refault lab record: exit $? (its log: $d/lab.log)"
	return 0
}

# validate DIR: each recorded seed validated (exit 0: every gated row within, 3: some out)
validate() {
	local d=$1 s
	for s in "${seeds[@]}"; do
		rm -f "$d/seed-$s.validate.json" "$d/seed-$s.vst"
		[ -s "$d/seed-$s.rft" ] || continue
		"$REFAULT" validate "$d/seed-$s.rft" --json > "$d/seed-$s.validate.json" \
			2> "$d/seed-$s.verr"
		echo $? > "$d/seed-$s.vst"
	done
}

dirs=()
for k in "${configs[@]}"; do
	d=$out_top/$k
	mkdir -p "$d" || { echo "Bail out! cannot create $d"; exit 1; }
	dirs+=("$k=$d")
	if [ -z "${SPACE_REUSE:-}" ]; then
		rm -f "$d"/seed-* "$d/jobs.txt"
		describe "$d"
		start=$(date +%s)
		if [ "$k" = host ]; then
			record_host "$d" || { echo "1..0 # SKIP host: cannot record here"; exit 0; }
		else
			record_lab "$d" "$k" || { echo "1..0 # SKIP $k: no lab here"; exit 0; }
		fi
		echo "# $k: ${#seeds[@]} seeds recorded in $(( $(date +%s) - start )) s"
	fi
	validate "$d"
done

"$PYTHON3" "$here/space-table.py" --causes "$here/causes.txt" --floors "$here/floors" \
	--limit "$limit" --seeds "${seeds[*]}" ${SPACE_DOC:+--markdown "$out_top/space.md"} \
	"${dirs[@]}" > "$out_top/space.tap"
st=$?
echo "1..$(grep -c '^\(not \)\{0,1\}ok ' "$out_top/space.tap")"
cat "$out_top/space.tap"
if [ -n "${SPACE_DOC:-}" ] && [ -s "$out_top/space.md" ]; then
	rev=$(git -C "$top_srcdir" rev-parse --short HEAD 2> /dev/null) || rev='?'
	{
		echo "$(date -u +%Y-%m-%d); refault at $rev; \`make check-fidelity-space" \
			"SPACE_SEEDS=\"${SPACE_SEEDS:-1-10}\" SPACE_CONFIGS=\"${configs[*]}\"" \
			"SPACE_LIMIT=$limit${SPACE_WORKLOAD_ARGS:+ SPACE_WORKLOAD_ARGS=\"$SPACE_WORKLOAD_ARGS\"}\`."
		echo
		cat "$out_top/space.md"
	} > "$out_top/space.doc"
	awk -v table="$out_top/space.doc" '
		/<!-- fidelity:space:end/ { skip = 0 }
		!skip { print }
		/<!-- fidelity:space:begin/ {
			while ((getline line < table) > 0) print line
			skip = 1
		}' "$SPACE_DOC" > "$SPACE_DOC.tmp" && mv "$SPACE_DOC.tmp" "$SPACE_DOC"
fi
exit $st
