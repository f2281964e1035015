# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/fuzz/: a libFuzzer target per input surface (docs/reliability.md):
#   reader   trace files (the format library)
#   compare  results files, LKP stats.json/matrix.json, through `refault compare`'s library (compare/)
#   gate     `compare --fail-if` expressions, through the same
#   config   `--set KEY=VALUE` strings and `--matrix` files
#   convert  csv, oracleGeneral and jsonl through `refault trace convert`'s library (formats/tools/)
#   lrugen   debugfs's lru_gen_full as `refault record` reads it
#   report   event programs through `refault report`'s attribution (kernel and model)
#   sweep    `refault sweep`'s spec, plan, and a task's status and results files
# `make fuzz` builds them with clang (-fsanitize=fuzzer,address,undefined) straight from the
# sources; regress-TARGET replays the target's corpus (every seed and past finding) in `make check`
# with the normal compiler, under ASan/UBSan in the sanitizer builds.
FUZZ_TARGETS = reader compare gate config convert lrugen report sweep
fuzz_reader_SRC = $(librefault_trace_la_SOURCES) $(librefault_util_la_SOURCES)
fuzz_compare_SRC = $(librefault_compare_la_SOURCES) $(fuzz_reader_SRC)
fuzz_gate_SRC = $(fuzz_compare_SRC)
fuzz_config_SRC = replayer/replay/config_list.c replayer/replay/policy.c $(librefault_refpolicy_la_SOURCES) \
	$(librefault_model_la_SOURCES) $(fuzz_reader_SRC)
fuzz_convert_SRC = $(librefault_tracetools_la_SOURCES) $(fuzz_reader_SRC)
fuzz_lrugen_SRC = recorder/lru_gen.c
fuzz_sweep_SRC = $(librefault_sweep_la_SOURCES) compare/jsonfile.c $(librefault_replay_la_SOURCES) \
	$(librefault_observe_la_SOURCES) $(librefault_refpolicy_la_SOURCES) $(librefault_model_la_SOURCES) \
	$(fuzz_reader_SRC)
fuzz_report_SRC = $(librefault_report_la_SOURCES) compare/jsonfile.c $(librefault_replay_la_SOURCES) \
	$(librefault_observe_la_SOURCES) $(librefault_refpolicy_la_SOURCES) $(librefault_model_la_SOURCES) \
	$(fuzz_reader_SRC)
FUZZ_LIBS = $(ZSTD_LIBS) $(MSGPACK_LIBS) $(JSONC_LIBS) $(UNWIND_LIBS) $(URCU_LIBS) -lpthread -lm

regress_programs = tests/fuzz/regress-reader tests/fuzz/regress-compare tests/fuzz/regress-gate \
	tests/fuzz/regress-config tests/fuzz/regress-convert tests/fuzz/regress-lrugen \
	tests/fuzz/regress-report tests/fuzz/regress-sweep
check_PROGRAMS += $(regress_programs)
TESTS += $(regress_programs)
tests_fuzz_regress_reader_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-reader.c
tests_fuzz_regress_reader_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) -DFUZZ_CORPUS='"corpus"'
tests_fuzz_regress_reader_LDADD = librefault-trace.la $(RF_UTIL) $(ZSTD_LIBS)
tests_fuzz_regress_compare_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-compare.c
tests_fuzz_regress_compare_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"corpus-compare"'
tests_fuzz_regress_compare_LDADD = $(COMPARE_LIBS)
tests_fuzz_regress_gate_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-gate.c
tests_fuzz_regress_gate_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"corpus-gate"'
tests_fuzz_regress_gate_LDADD = $(COMPARE_LIBS)
tests_fuzz_regress_config_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-config.c
tests_fuzz_regress_config_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -DFUZZ_CORPUS='"corpus-config"'
tests_fuzz_regress_config_LDADD = $(REPLAY_LIBS)
tests_fuzz_regress_convert_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-convert.c
tests_fuzz_regress_convert_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -DFUZZ_CORPUS='"corpus-convert"'
tests_fuzz_regress_convert_LDADD = $(TRACETOOLS_LIBS)
tests_fuzz_regress_lrugen_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-lrugen.c
tests_fuzz_regress_lrugen_CFLAGS = $(AM_CFLAGS) -DFUZZ_CORPUS='"corpus-lrugen"'
tests_fuzz_regress_lrugen_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
tests_fuzz_regress_report_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-report.c
tests_fuzz_regress_report_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -DFUZZ_CORPUS='"corpus-report"'
tests_fuzz_regress_report_LDADD = librefault-report.la librefault-compare.la $(REPLAY_LIBS)
tests_fuzz_regress_sweep_SOURCES = tests/fuzz/fuzz-regress.c tests/fuzz/fuzz-sweep.c
tests_fuzz_regress_sweep_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) -DFUZZ_CORPUS='"corpus-sweep"'
tests_fuzz_regress_sweep_LDADD = $(SWEEP_LIBS)
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/corpus-compare tests/fuzz/corpus-gate \
	tests/fuzz/corpus-config tests/fuzz/corpus-convert tests/fuzz/corpus-lrugen \
	tests/fuzz/corpus-report tests/fuzz/corpus-sweep \
	tests/fuzz/make-corpus.sh \
	tests/fuzz/fuzz-memfile.h tests/fuzz/campaign.sh

FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_NOCMP_CFLAGS = -g -O1 -std=gnu11 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-coverage=trace-cmp -fno-sanitize-recover=undefined
FUZZ_BINS = tests/fuzz/fuzz-reader tests/fuzz/fuzz-compare tests/fuzz/fuzz-gate \
	tests/fuzz/fuzz-config tests/fuzz/fuzz-convert tests/fuzz/fuzz-lrugen tests/fuzz/fuzz-report \
	tests/fuzz/fuzz-sweep
# In fuzz-report, the model's sources keep their edge coverage but not libFuzzer's comparison
# tracing (-fsanitize-coverage=trace-cmp): there the model compares its own state, not the input's
# bytes, and tracing its reclaim loops' comparisons was 40 % of the target's time (a pass over its
# corpus: 39.3 s with it, 23.6 s without, the same 3,560 edges).  Not in config's and sweep's,
# whose inputs reach the model's key parser (config.c).
FUZZ_NOCMP_SRC = $(librefault_model_la_SOURCES)
FUZZ_CPPFLAGS = -include config.h -I$(top_srcdir)/include -I$(top_srcdir) -I$(top_builddir) \
	$(ZSTD_CFLAGS) $(MSGPACK_CFLAGS) $(JSONC_CFLAGS) $(UNWIND_CFLAGS) $(URCU_CFLAGS)
# one clang link of the target's file ($<) and the sources of what it reaches ($$list), those of
# $$nocmp compiled first, without trace-cmp, into objects of the target's own ($@.nocmp/)
# Each target is rebuilt when any of its sources changes (found through VPATH).
FUZZ_LINK = srcs=; objs=; rm -rf $@.nocmp && $(MKDIR_P) $@.nocmp && \
	for f in $$list; do case $$f in *.c) ;; *) continue;; esac; \
	case " $$nocmp " in \
	*" $$f "*) o=$@.nocmp/`echo $$f | tr / _ | sed 's/\.c$$/.o/'`; objs="$$objs $$o"; \
		$(FUZZ_CC) $(FUZZ_NOCMP_CFLAGS) $(FUZZ_CPPFLAGS) -c -o $$o $(top_srcdir)/$$f || exit 1;; \
	*) srcs="$$srcs $(top_srcdir)/$$f";; esac; done; \
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@ $< $$srcs $$objs $(FUZZ_LIBS) && rm -rf $@.nocmp
tests/fuzz/fuzz-reader: $(top_srcdir)/tests/fuzz/fuzz-reader.c config.h $(fuzz_reader_SRC)
	$(AM_V_CCLD)list='$(fuzz_reader_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-compare: $(top_srcdir)/tests/fuzz/fuzz-compare.c config.h $(fuzz_compare_SRC)
	$(AM_V_CCLD)list='$(fuzz_compare_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-gate: $(top_srcdir)/tests/fuzz/fuzz-gate.c config.h $(fuzz_gate_SRC)
	$(AM_V_CCLD)list='$(fuzz_gate_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-config: $(top_srcdir)/tests/fuzz/fuzz-config.c config.h $(fuzz_config_SRC)
	$(AM_V_CCLD)list='$(fuzz_config_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-convert: $(top_srcdir)/tests/fuzz/fuzz-convert.c config.h $(fuzz_convert_SRC)
	$(AM_V_CCLD)list='$(fuzz_convert_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-lrugen: $(top_srcdir)/tests/fuzz/fuzz-lrugen.c config.h $(fuzz_lrugen_SRC)
	$(AM_V_CCLD)list='$(fuzz_lrugen_SRC)'; nocmp=; $(FUZZ_LINK)
tests/fuzz/fuzz-report: $(top_srcdir)/tests/fuzz/fuzz-report.c config.h $(fuzz_report_SRC)
	$(AM_V_CCLD)list='$(fuzz_report_SRC)'; nocmp='$(FUZZ_NOCMP_SRC)'; $(FUZZ_LINK)
tests/fuzz/fuzz-sweep: $(top_srcdir)/tests/fuzz/fuzz-sweep.c config.h $(fuzz_sweep_SRC)
	$(AM_V_CCLD)list='$(fuzz_sweep_SRC)'; nocmp=; $(FUZZ_LINK)
# make fuzz [FUZZ_TIME=seconds]: build every target and run each for FUZZ_TIME (default 60);
# make fuzz-build: only build them (for tests/fuzz/campaign.sh)
FUZZ_TIME = 60
fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz-work/$$t; \
		corpus=$(top_srcdir)/tests/fuzz/corpus; [ $$t = reader ] || corpus=$$corpus-$$t; \
		echo "== fuzz-$$t for $(FUZZ_TIME) s (new inputs in fuzz-work/$$t)"; \
		tests/fuzz/fuzz-$$t -max_total_time=$(FUZZ_TIME) -max_len=65536 -print_final_stats=1 \
			fuzz-work/$$t $$corpus 2>&1 | tail -12 || exit 1; \
	done
.PHONY: fuzz fuzz-build
CLEANFILES += $(FUZZ_BINS)
clean-local: clean-fuzz-nocmp
clean-fuzz-nocmp:
	rm -rf tests/fuzz/*.nocmp
.PHONY: clean-fuzz-nocmp
