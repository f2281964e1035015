# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/report/local.mk: refault compare (docs/compare.md).  Include it from replayer/local.mk.
noinst_LTLIBRARIES += librefault-report.la
librefault_report_la_SOURCES = \
	replayer/report/compare.h replayer/report/util.c replayer/report/run.c \
	replayer/report/load_results.c replayer/report/load_lkp.c replayer/report/side.c \
	replayer/report/names.c replayer/report/stats.c replayer/report/rows.c \
	replayer/report/table.c replayer/report/decisions.c replayer/report/export.c \
	replayer/report/gate.c replayer/report/plot.c replayer/report/html.c
librefault_report_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
librefault_report_la_LIBADD = $(JSONC_LIBS) -lm

refault_SOURCES += replayer/report/builtin-compare.c
REFAULT_VERB_LIBS += librefault-report.la

# Tests: the statistics on constructed samples (C), and the verb end to end (shell).
check_PROGRAMS += tests/compare/test-compare-rules
tests_compare_test_compare_rules_SOURCES = tests/compare/test-compare-rules.c
tests_compare_test_compare_rules_LDADD = librefault-report.la librefault-trace.la $(JSONC_LIBS) -lm
TESTS += tests/compare/test-compare-rules \
	tests/compare/test-compare-table.sh tests/compare/test-compare-gates.sh \
	tests/compare/test-compare-export.sh tests/compare/test-compare-errors.sh \
	tests/compare/test-compare-html.sh tests/compare/test-compare-kernel.sh
EXTRA_DIST += tests/compare/lib.sh tests/compare/mkresults.py tests/compare/expected \
	tests/compare/test-compare-table.sh tests/compare/test-compare-gates.sh \
	tests/compare/test-compare-export.sh tests/compare/test-compare-errors.sh \
	tests/compare/test-compare-html.sh tests/compare/test-compare-kernel.sh
