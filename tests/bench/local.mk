# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/bench/: `make bench` (docs/performance.md).  Programs are EXTRA_PROGRAMS (built on demand)
# listed in BENCH_BINS; scripts in BENCH_SH run with REFAULT set.
# The format's speed and size against a naive fixed-width encoding + zstd -3.
EXTRA_PROGRAMS += tests/bench/bench-format
BENCH_BINS += tests/bench/bench-format
tests_bench_bench_format_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_bench_bench_format_LDADD = librefault-trace.la $(RF_UTIL) $(ZSTD_LIBS)
# The Linux model's speed and memory against plain LRU.
EXTRA_PROGRAMS += tests/bench/bench-model
BENCH_BINS += tests/bench/bench-model
tests_bench_bench_model_LDADD = $(REFPOLICY_LIBS) $(MODEL_LIBS) -lm
BENCH_SH += tests/bench/bench-replay.sh
# A long replay over a bounded page set: memory and events/s from start to end.
EXTRA_PROGRAMS += tests/bench/bench-scale
BENCH_TOOLS += tests/bench/bench-scale
tests_bench_bench_scale_LDADD = librefault-trace.la $(RF_UTIL) -lm
BENCH_SH += tests/bench/bench-scale.sh
# refault replay against libCacheSim's cachesim (LIBCACHESIM=/path/to/cachesim) on bench-model's stream.
BENCH_SH += tests/bench/bench-cachesim.sh
# A recording's start and stop, against perf record's (root, hyperfine, perf).
BENCH_SH += tests/bench/bench-record-fixed.sh
# What --call-graph dwarf costs, against perf record --call-graph dwarf (root, hyperfine, perf).
BENCH_SH += tests/bench/bench-stacks.sh
# Recorded traces' bytes per event in format 3.0 and 2.6, the validation suite's nine workloads.
BENCH_SH += tests/bench/bench-trace-size.sh
EXTRA_DIST += tests/bench/bench-replay.sh tests/bench/bench-record.sh tests/bench/bench-stacks.sh \
	tests/bench/bench-cachesim.sh tests/bench/bench-scale.sh tests/bench/bench-record-fixed.sh \
	tests/bench/bench-trace-size.sh \
	tests/bench/bench-stream.h
CLEANFILES += $(EXTRA_PROGRAMS)
