# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of the trace format library and the refault CLI; other parts register theirs in their own local.mk.
EXTRA_DIST += tests/lib/tap.h tests/format/sample.h

TESTS_FORMAT_LDADD = librefault-trace.la $(JSONC_LIBS)
check_PROGRAMS += tests/format/test-roundtrip
tests_format_test_roundtrip_LDADD = $(TESTS_FORMAT_LDADD)
tests_format_test_roundtrip_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
TESTS += tests/format/test-roundtrip

# Bad input: truncation, bit flips, hostile frames crafted with libzstd + msgpack-c.
check_PROGRAMS += tests/format/test-damage
tests_format_test_damage_SOURCES = tests/format/test-damage.c tests/format/sample.h
tests_format_test_damage_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(MSGPACK_CFLAGS)
tests_format_test_damage_LDADD = librefault-trace.la $(ZSTD_LIBS) $(MSGPACK_LIBS)
TESTS += tests/format/test-damage

# The format is plain zstd + msgpack: an independent decoder (python3-msgpack) reads it.
check_PROGRAMS += tests/format/write-sample
tests_format_write_sample_LDADD = librefault-trace.la
TESTS += tests/format/test-msgpack-python.sh tests/format/test-compat-1.0.sh
EXTRA_DIST += tests/format/test-msgpack-python.sh tests/format/test-compat-1.0.sh \
	tests/format/compat-1.0-noswap-pageout.rft

# Fuzzing the reader.  `make fuzz` builds the libFuzzer binary with clang straight from the
# library's sources; fuzz-regress replays the corpus (every past finding) in `make check`.
check_PROGRAMS += tests/fuzz/fuzz-regress
tests_fuzz_fuzz_regress_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-reader.c
tests_fuzz_fuzz_regress_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_fuzz_fuzz_regress_LDADD = librefault-trace.la $(ZSTD_LIBS)
TESTS += tests/fuzz/fuzz-regress
EXTRA_DIST += tests/fuzz/corpus

FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
tests/fuzz/fuzz-reader: $(top_srcdir)/tests/fuzz/fuzz-reader.c $(librefault_trace_la_SOURCES) config.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)srcs=; for f in $(librefault_trace_la_SOURCES); do \
		case $$f in *.c) srcs="$$srcs $(top_srcdir)/$$f";; esac; done; \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(top_srcdir)/include -I$(top_srcdir) -I$(top_builddir) \
		$(ZSTD_CFLAGS) $(MSGPACK_CFLAGS) $(JSONC_CFLAGS) \
		-o $@ $(top_srcdir)/tests/fuzz/fuzz-reader.c $$srcs $(ZSTD_LIBS) $(MSGPACK_LIBS) $(JSONC_LIBS)
fuzz: tests/fuzz/fuzz-reader
	@echo "run: tests/fuzz/fuzz-reader -max_total_time=600 -max_len=65536 fuzz-work/ $(top_srcdir)/tests/fuzz/corpus"
.PHONY: fuzz
CLEANFILES += tests/fuzz/fuzz-reader

# make bench: the format's speed and size against a naive fixed-width encoding + zstd -3.
EXTRA_PROGRAMS += tests/bench/bench-format
BENCH_BINS += tests/bench/bench-format
tests_bench_bench_format_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_bench_bench_format_LDADD = librefault-trace.la $(ZSTD_LIBS)
CLEANFILES += $(EXTRA_PROGRAMS)
include tests/cli/local.mk

# tests/validate/fidelity.sh's table generator (kernel and model mean, %stddev, verdict per
# quantity over N recordings) on two canned `refault validate --json` outputs; needs no root.
TESTS += tests/validate/test-fidelity-table.sh
EXTRA_DIST += tests/validate/test-fidelity-table.sh tests/validate/fidelity-table.py \
	tests/validate/fidelity-data/demo.1.json tests/validate/fidelity-data/demo.2.json
