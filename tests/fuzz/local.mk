# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/fuzz/: fuzzing the reader.  `make fuzz` builds the libFuzzer binary with clang straight from
# the library's sources; fuzz-regress replays the corpus (every past finding) in `make check`.
check_PROGRAMS += tests/fuzz/fuzz-regress
tests_fuzz_fuzz_regress_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-reader.c \
	tests/format/bytes.h
tests_fuzz_fuzz_regress_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS)
tests_fuzz_fuzz_regress_LDADD = librefault-trace.la $(RF_UTIL) $(ZSTD_LIBS)
TESTS += tests/fuzz/fuzz-regress
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/make-corpus.sh

FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
tests/fuzz/fuzz-reader: $(top_srcdir)/tests/fuzz/fuzz-reader.c $(librefault_trace_la_SOURCES) \
		$(librefault_util_la_SOURCES) config.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)srcs=; for f in $(librefault_trace_la_SOURCES) $(librefault_util_la_SOURCES); do \
		case $$f in *.c) srcs="$$srcs $(top_srcdir)/$$f";; esac; done; \
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(top_srcdir)/include -I$(top_srcdir) -I$(top_builddir) \
		$(ZSTD_CFLAGS) $(MSGPACK_CFLAGS) $(JSONC_CFLAGS) \
		-o $@ $(top_srcdir)/tests/fuzz/fuzz-reader.c $$srcs $(ZSTD_LIBS) $(MSGPACK_LIBS) $(JSONC_LIBS) -lm
fuzz: tests/fuzz/fuzz-reader
	@echo "run: tests/fuzz/fuzz-reader -max_total_time=600 -max_len=65536 fuzz-work/ $(top_srcdir)/tests/fuzz/corpus"
.PHONY: fuzz
CLEANFILES += tests/fuzz/fuzz-reader
