#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What `refault record --call-graph dwarf` costs (docs/recording.md, "Call stacks"): the same
# program (tests/record/workload-two-paths: two call paths to one pread loop) alone, under
# `refault record`, under `refault record --call-graph dwarf`, and under `perf record
# --call-graph dwarf` on the tracepoints the stacks are sampled at, with hyperfine, the page cache
# dropped before each run; then the sizes of what each wrote.
#
# usage: top_builddir=BUILD REFAULT=BUILD/refault sh tests/bench/bench-stacks.sh
# env:   RUNS (5)  BIG_MB (96)  HOT_MB (2)  PASSES (20)  BENCH_DIR (a dir on disk)
set -u
RUNS=${RUNS:-5}
BIG_MB=${BIG_MB:-96}
HOT_MB=${HOT_MB:-2}
PASSES=${PASSES:-20}
work="${top_builddir:-.}/tests/record/workload-two-paths"
[ "$(id -u)" -eq 0 ] || { echo "bench-stacks: needs root (recording, drop_caches)"; exit 0; }
[ -x "$work" ] || { echo "bench-stacks: build $work first (make check_PROGRAMS)"; exit 1; }
command -v hyperfine > /dev/null || { echo "bench-stacks: no hyperfine (apt-get install hyperfine)"; exit 0; }
command -v perf > /dev/null || { echo "bench-stacks: no perf (apt-get install linux-perf)"; exit 0; }
dir=$(mktemp -d "${BENCH_DIR:-${top_builddir:-.}}/bench-stacks.XXXXXX")
trap 'rm -rf "$dir"' EXIT
head -c "${BIG_MB}M" /dev/urandom > "$dir/big"
head -c "${HOT_MB}M" /dev/urandom > "$dir/hot"
args="$dir/big $dir/hot $PASSES"

hyperfine -N --runs "$RUNS" \
	--prepare "sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches; rm -f $dir/o.rft $dir/perf.data'" \
	-n "the program alone" "$work $args" \
	-n "refault record" "$REFAULT record -q -o $dir/o.rft -- $work $args" \
	-n "refault record --call-graph dwarf" \
	"$REFAULT record -q -o $dir/o.rft --call-graph dwarf -- $work $args" \
	-n "perf record --call-graph dwarf" \
	"perf record -q -o $dir/perf.data --call-graph dwarf -e syscalls:sys_enter_pread64 -e exceptions:page_fault_user -e exceptions:page_fault_kernel -e raw_syscalls:sys_exit -- $work $args"

# what each writes, one more run of each
"$REFAULT" record -q -o "$dir/plain.rft" -- $work $args
"$REFAULT" record -o "$dir/stacks.rft" --call-graph dwarf -- $work $args 2>&1 | sed -n 's/^refault record: stacks:/stacks:/p'
perf record -q -o "$dir/perf.data" --call-graph dwarf -e syscalls:sys_enter_pread64 \
	-e exceptions:page_fault_user -e exceptions:page_fault_kernel -e raw_syscalls:sys_exit \
	-- $work $args 2> /dev/null
echo "written: refault record $(stat -c %s "$dir/plain.rft") bytes, with --call-graph dwarf" \
	"$(stat -c %s "$dir/stacks.rft") bytes, perf record --call-graph dwarf $(stat -c %s "$dir/perf.data") bytes"
