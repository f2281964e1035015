#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check-kernels: the validation suite's workloads recorded in qemu guests running other
# kernels (tests/kernels/lab.sh), each trace validated here on the host as
# tests/validate/test-validate.sh does (refault validate --slack 0 --json, then
# check-tolerance.py with tests/validate/tolerances; a case out of tolerance is recorded once
# more, in a second boot, and the second recording decides).  TAP on stdout.
#
#   KERNELS   the configurations (default all five):
#               6.1-v1   linux-image-6.1.0-57-amd64, cgroup v1, MGLRU as it boots (off)
#               6.1-v2   the same kernel, cgroup v2
#               6.12-v2  linux-image-6.12.117+deb12-amd64, cgroup v2 (it has no v1 memory
#                        controller), MGLRU off (echo 0 > /sys/kernel/mm/lru_gen/enabled)
#               6.1-v2-mglru   6.1, cgroup v2, MGLRU on (echo y): validated with v6.1-mglru
#               6.12-v2-mglru  6.12, cgroup v2, MGLRU on as it boots: v6.12-mglru
#   CASES     cases of tests/validate/cases.sh (default all twelve)
#   POLICY_CASES  recorded on 6.12 with and without the multi-gen LRU, for check-policy.py
#             (default mmap-hot; "" for none)
#   DAMON_CASES  recorded on 6.12 with the multi-gen LRU under record --damon, as CASE:damon
#             (default "mmap-small read2-small"; "" for none)
#   MADV_CASES  recorded on 6.12 with each algorithm and validated with the default tolerance
#             (default hot-mapped: references through a MADV_RANDOM mapping; "" for none)
#   REFAULT_LAB_CACHE  the lab's cache (default ~/.cache/refault-lab)
#   LAB_OUT   where traces and console logs go (default BUILDDIR/tests/kernels/out):
#             LAB_OUT/CONFIG/, and LAB_OUT/CONFIG/again/ for the second recordings
#   LAB_ACCEL auto|kvm|tcg (default auto), LAB_BUDGET seconds per boot (default 1800)
#   LAB_RERECORD=0  no second recording
#   LAB_REUSE=1  boot nothing: validate the traces a previous run left in LAB_OUT
# Set by the make target: top_srcdir, top_builddir, REFAULT, VWORKLOAD, PYTHON3 (by default:
# this script's source tree, the current directory as the build tree, its refault and
# tests/validate/vworkload, python3).
# A configuration whose kernel package is neither cached nor downloadable is skipped, with
# the reason; so is everything when qemu is missing.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
REFAULT=${REFAULT:-$top_builddir/refault}
VWORKLOAD=${VWORKLOAD:-$top_builddir/tests/validate/vworkload}
# shellcheck source=tests/validate/cases.sh disable=SC1091
. "$top_srcdir/tests/validate/cases.sh"
lab=$top_srcdir/tests/kernels/lab.sh
tol=$top_srcdir/tests/validate/tolerances
KERNELS=${KERNELS:-"6.1-v1 6.1-v2 6.12-v2 6.1-v2-mglru 6.12-v2-mglru"}
out_top=${LAB_OUT:-$top_builddir/tests/kernels/out}
PYTHON3=${PYTHON3:-python3}
read -r -a cases <<< "${CASES:-$VCASES}"
# On a kernel with the filemap tracepoints, these are recorded from them and from the kprobe
# events that stand in for them on older kernels (refault record --kprobes): the references
# must be the same, in the same order (EQUIV_CASES="" leaves the check out).
EQUIV_CASES=${EQUIV_CASES-"read2-small mmap-small"}
# Recorded on 6.12 with each reclaim algorithm: each algorithm's model must predict the
# refaults of the kernel that ran it from both traces (check-policy.py; POLICY_CASES=""
# leaves the check out).
POLICY_CASES=${POLICY_CASES-"mmap-hot"}
# Recorded on 6.12 with the multi-gen LRU under `record --damon` (as CASE:damon), one after the
# other: each trace has DAMON's regions of the workload, and the second recording could take
# DAMON's interface, so the first gave it back (DAMON_CASES="" leaves them out).
DAMON_CASES=${DAMON_CASES-"mmap-small read2-small"}
# Outside the twelve, on both 6.12 configurations: every row within validate's own tolerance.
MADV_CASES=${MADV_CASES-"hot-mapped"}

if ! command -v qemu-system-x86_64 > /dev/null 2>&1; then
	echo "1..0 # SKIP no qemu-system-x86_64 (apt-get install qemu-system-x86)"
	exit 0
fi
"$PYTHON3" -c '' 2> /dev/null || { echo "Bail out! no python3 (\$PYTHON3)"; exit 1; }

# run_lab DIR ARGS...: lab.sh into DIR, its progress as TAP comments as it goes; lab.sh's status
run_lab() {
	local d=$1
	shift
	mkdir -p "$d" || { echo "Bail out! cannot create $d"; exit 1; }
	"$lab" "$@" --refault "$REFAULT" --vworkload "$VWORKLOAD" --out "$d" \
		--accel "${LAB_ACCEL:-auto}" --budget "${LAB_BUDGET:-1800}" 2>&1 |
		tee "$d/lab.log" | sed -u 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# vcase K DIR C: the TAP lines of case C as recorded in DIR (numbered from 1) in DIR/C.tap;
# 0 when every line is ok
vcase() {
	local k=$1 d=$2 c=$3 cst vst what
	what="refault record -- vworkload $(vcase_args "$c" .)"
	cst=$(awk -v c="$c" '$1 == c { print $2 }' "$d/jobs.txt" 2> /dev/null | tail -n 1)
	{
		if [ -z "$cst" ]; then
			echo "not ok 1 - $k $c: $what (it never ran in the guest: $d/console.log)"
		else
			[ ! -s "$d/$c.err" ] || sed "s/^/# $k $c: /" "$d/$c.err"
			if [ "$cst" != 0 ] || [ ! -s "$d/$c.rft" ]; then
				echo "not ok 1 - $k $c: $what (exit $cst in the guest)"
			else
				echo "ok 1 - $k $c: $what"
				"$REFAULT" validate "$d/$c.rft" --slack 0 --json > "$d/$c.json" 2> "$d/$c.verr"
				vst=$?
				sed "s/^/# $k $c: /" "$d/$c.verr"
				if [ $vst -ne 0 ] && [ $vst -ne 3 ]; then
					echo "not ok 2 - $k $c: refault validate exits 0 or 3 (got $vst)"
				else
					echo "ok 2 - $k $c: refault validate exits 0 or 3 (got $vst)"
					"$PYTHON3" "$top_srcdir/tests/validate/check-tolerance.py" "$c" \
						"$d/$c.json" "$tol" 3 "$k" |
						sed "s/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1$k /"
				fi
			fi
		fi
	} > "$d/$c.tap"
	! failing "$d/$c.tap"
}

# failing FILE: 0 when it has a "not ok" line that is not a known divergence ("# TODO")
failing() {
	grep '^not ok' "$1" | grep -qv '# TODO'
}

# refs TRACE: the references to the workload's files (on the lab's disk: the program's own
# text and libraries, on the initramfs, fault by their ASLR placement) as the kernel named
# them: type, file, pages, flags; not the time, CPU, pid or address-space id, which differ
# from one recording to the next
refs() {
	"$REFAULT" trace dump --no-names "$1" |
		awk '$4 ~ /^(file_read|file_fault)$/ && $5 !~ /^dev=0:/ {
			$1 = $2 = $3 = ""; sub(/ mm=[^ ]*/, ""); sub(/^ */, ""); print }'
}

# equiv K DIR C: one TAP line: C:tracepoints and C:kprobes reference the same pages, the
# reads in the same order.  Faults are compared as sets: which of two recordings' faults
# comes first at a readahead window's edge is when the window's reads completed.
equiv() {
	local k=$1 d=$2 c=$3 a b na moved
	a=$d/$c:tracepoints.rft b=$d/$c:kprobes.rft
	if [ ! -s "$a" ] || [ ! -s "$b" ]; then
		echo "not ok 1 - $k $c: recorded from tracepoints and from kprobes (missing: $a or $b)"
		return
	fi
	refs "$a" > "$d/$c.tracepoints.refs"
	refs "$b" > "$d/$c.kprobes.refs"
	na=$(wc -l < "$d/$c.tracepoints.refs")
	moved=$(diff "$d/$c.tracepoints.refs" "$d/$c.kprobes.refs" | grep -c '^>')
	if "$REFAULT" trace info "$b" | tr -d '\n ' | grep -q 'mm_filemap_get_pages=kprobe:' &&
		[ "$na" -gt 0 ] &&
		cmp -s <(sort "$d/$c.tracepoints.refs") <(sort "$d/$c.kprobes.refs") &&
		cmp -s <(grep '^file_read' "$d/$c.tracepoints.refs") \
			<(grep '^file_read' "$d/$c.kprobes.refs"); then
		echo "ok 1 - $k $c: from kprobe events, the same $na references as from the" \
			"tracepoints, reads in the same order ($moved faults elsewhere in the order)"
	else
		echo "not ok 1 - $k $c: from kprobe events, the same references as from the" \
			"tracepoints ($na; diff $d/$c.tracepoints.refs $d/$c.kprobes.refs)"
		diff "$d/$c.tracepoints.refs" "$d/$c.kprobes.refs" | head -n 20 | sed 's/^/# /'
	fi
}

# madv K DIR C: DIR/C.rft validates with the default tolerance (exit 0)
madv() {
	local k=$1 d=$2 c=$3 st
	if [ ! -s "$d/$c.rft" ]; then
		echo "not ok 1 - $k $c: recorded (missing: $d/$c.rft)"
		return
	fi
	"$REFAULT" validate "$d/$c.rft" > "$d/$c.validate.txt" 2>&1
	st=$?
	if [ "$st" -eq 0 ]; then
		echo "ok 1 - $k $c: every gated row within validate's default tolerance"
	else
		echo "not ok 1 - $k $c: refault validate exits $st ($d/$c.validate.txt)"
		grep -E ' NO ' "$d/$c.validate.txt" | head -n 10 | sed 's/^/# /'
	fi
}

# damon K DIR C: the damon_region events of DIR/C:damon.rft, of the workload's address space
damon() {
	local k=$1 d=$2 c=$3 t=$2/$3:damon.rft regions accessed mms
	if [ ! -s "$t" ]; then
		echo "not ok 1 - $k $c:damon: recorded with --damon (missing: $t; $(head -n 1 \
			"$d/$c:damon.err" 2> /dev/null))"
		return
	fi
	"$REFAULT" trace dump --type damon_region --no-names "$t" > "$d/$c.damon.txt" 2>&1
	regions=$(grep -c ' damon_region ' "$d/$c.damon.txt")
	accessed=$(grep -c ' nr_accesses=[1-9]' "$d/$c.damon.txt")
	mms=$(sed -n 's/.* mm=\([^ ]*\) .*/\1/p' "$d/$c.damon.txt" | sort -u | wc -l)
	# the regions of the address space the workload execs into (how many DAMON saw accessed
	# depends on the guest's speed: 2 to 25 each under TCG, so it is said, not held)
	if [ "$regions" -gt 0 ] && [ "$mms" -le 2 ] &&
		"$REFAULT" trace verify -q "$t"; then
		echo "ok 1 - $k $c:damon: $regions DAMON regions ($accessed accessed) of $mms" \
			"address space(s)"
	else
		echo "not ok 1 - $k $c:damon: DAMON regions of the workload ($regions, $accessed" \
			"accessed, $mms address spaces; $d/$c.damon.txt)"
	fi
}

n=0
failed=0
emit() {	# emit FILE: its TAP lines numbered on from $n
	awk -v n="$n" '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) } { print }' "$1"
	n=$((n + $(grep -c '^\(not \)\{0,1\}ok [0-9]' "$1")))
	! failing "$1" || failed=1
}

t_all=$SECONDS
skipped=''
for k in $KERNELS; do
	case $k in
	6.1-v1) args=(--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v1);;
	6.1-v2) args=(--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v2);;
	6.12-v2) args=(--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru 0);;
	6.1-v2-mglru) args=(--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v2 --mglru 1);;
	6.12-v2-mglru) args=(--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru 1);;
	*) echo "Bail out! unknown configuration '$k' in KERNELS (6.1-v1, 6.1-v2, 6.12-v2," \
		"6.1-v2-mglru, 6.12-v2-mglru)"; exit 1;;
	esac
	out=$out_top/$k
	t0=$SECONDS
	if [ -n "${LAB_REUSE:-}" ]; then
		st=0
		[ ! -r "$out/lab.log" ] || sed 's/^/# /' "$out/lab.log"
	else
		rm -rf "$out/again"
		sel=()
		for c in "${cases[@]}"; do sel+=(--case "$c"); done
		if [ "$k" = 6.12-v2 ]; then
			for c in $EQUIV_CASES; do sel+=(--case "$c:tracepoints" --case "$c:kprobes"); done
		fi
		case $k in
		6.12-v2|6.12-v2-mglru) for c in $POLICY_CASES $MADV_CASES; do sel+=(--case "$c"); done;;
		esac
		if [ "$k" = 6.12-v2-mglru ]; then
			for c in $DAMON_CASES; do sel+=(--case "$c:damon"); done
		fi
		sel+=(--kprobes-kill)
		run_lab "$out" "${args[@]}" "${sel[@]}"
		st=$?
	fi
	if [ "$st" -eq 3 ]; then
		skipped+=" $k"
		n=$((n + 1))
		echo "ok $n # SKIP $k: $(grep -m 1 '^lab: error: ' "$out/lab.log" | sed 's/^lab: error: //')"
		continue
	fi
	# the guest booted when it ran jobs
	n=$((n + 1))
	if [ ! -s "$out/jobs.txt" ]; then
		echo "not ok $n - $k: the guest boots and runs the cases ($out/lab.log, $out/console.log)"
		failed=1
		continue
	fi
	echo "ok $n - $k: the guest boots and runs the cases in $((SECONDS - t0)) s" \
		"($(sed -n 's/^accel: //p' "$out/summary.txt"))"
	again=()
	for c in "${cases[@]}"; do
		vcase "$k" "$out" "$c" || again+=("$c")
	done
	# LAB_RERECORD=0: the first recordings decide
	[ "${LAB_RERECORD:-1}" != 0 ] || again=()
	if [ ${#again[@]} -gt 0 ]; then
		# The kernel does not repeat itself exactly (test-validate.sh): one more recording
		# of each case out of tolerance, in one more boot, decides.
		for c in "${again[@]}"; do
			echo "# $k $c: out of tolerance on the first recording:"
			grep '^not ok' "$out/$c.tap" | sed 's/^not ok [0-9]* - /#   first recording: not ok - /'
		done
		if [ -z "${LAB_REUSE:-}" ]; then
			sel=()
			for c in "${again[@]}"; do sel+=(--case "$c"); done
			echo "# $k: recording ${again[*]} once more"
			run_lab "$out/again" "${args[@]}" "${sel[@]}"
		elif [ -r "$out/again/lab.log" ]; then
			sed 's/^/# /' "$out/again/lab.log"
		fi
		if [ -s "$out/again/jobs.txt" ]; then
			for c in "${again[@]}"; do
				vcase "$k" "$out/again" "$c"
			done
		else
			again=()
		fi
	fi
	for c in "${cases[@]}"; do
		case " ${again[*]} " in
		*" $c "*) emit "$out/again/$c.tap";;
		*) emit "$out/$c.tap";;
		esac
	done
	kk=$out/kprobes-kill.out
	if [ -r "$kk" ]; then
		n=$((n + 1))
		if grep -q '^after-kill [1-9]' "$kk" && grep -q '^after-next 0$' "$kk"; then
			echo "ok $n - $k: a recorder killed leaves its kprobe events, the next recording" \
				"removes them ($(tr '\n' ' ' < "$kk"))"
		else
			echo "not ok $n - $k: a recorder killed leaves its kprobe events, the next" \
				"recording removes them ($(tr '\n' ' ' < "$kk"))"
			failed=1
		fi
	fi
	case $k in
	6.12-v2|6.12-v2-mglru)
		for c in $MADV_CASES; do
			madv "$k" "$out" "$c" > "$out/$c.madv.tap"
			emit "$out/$c.madv.tap"
		done;;
	esac
	if [ "$k" = 6.12-v2-mglru ]; then
		for c in $DAMON_CASES; do
			damon "$k" "$out" "$c" > "$out/$c.damon.tap"
			emit "$out/$c.damon.tap"
		done
	fi
	[ "$k" = 6.12-v2 ] || continue
	for c in $EQUIV_CASES; do
		equiv "$k" "$out" "$c" > "$out/$c.equiv.tap"
		emit "$out/$c.equiv.tap"
	done
done
# policy C: the classic and the multi-gen model on both 6.12 recordings of C
policy() {
	local c=$1 dc=$out_top/6.12-v2 dg=$out_top/6.12-v2-mglru d
	if [[ "$skipped " == *" 6.12-v2 "* || "$skipped " == *" 6.12-v2-mglru "* ]]; then
		echo "ok 1 # SKIP $c: a 6.12 configuration was skipped"
		return
	fi
	for d in "$dc" "$dg"; do
		if [ ! -s "$d/$c.rft" ]; then
			echo "not ok 1 - $c: recorded on 6.12 with each reclaim algorithm (missing: $d/$c.rft)"
			return
		fi
		"$REFAULT" validate "$d/$c.rft" --slack 0 --json > "$d/$c.json" 2> "$d/$c.verr"
		"$REFAULT" replay "$d/$c.rft" --warm-cache -q -p v6.12,v6.12-mglru \
			-o "$d/$c.policy.json" 2>> "$d/$c.verr" || {
			echo "not ok 1 - $c: refault replay of $d/$c.rft ($(head -n 1 "$d/$c.verr"))"
			return
		}
	done
	"$PYTHON3" "$top_srcdir/tests/kernels/check-policy.py" "$c" 1 v6.12 v6.12-mglru \
		"$dc/$c.json" "$dg/$c.json" "$dc/$c.policy.json" "$dg/$c.policy.json"
}
if [[ " $KERNELS " == *" 6.12-v2 "* && " $KERNELS " == *" 6.12-v2-mglru "* ]]; then
	for c in $POLICY_CASES; do
		policy "$c" > "$out_top/$c.policy.tap"
		emit "$out_top/$c.policy.tap"
	done
fi
echo "# all configurations: $((SECONDS - t_all)) s"
echo "1..$n"
exit $failed
