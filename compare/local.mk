# SPDX-License-Identifier: LGPL-2.1-or-later
# compare/: librefault-compare (`refault compare`), LKP tables, gates, plots and HTML over results
# files (docs/compare.md).  It reads results, never a trace.
noinst_LTLIBRARIES += librefault-compare.la
librefault_compare_la_SOURCES = \
	compare/compare.h compare/compare-local.h compare/util.c compare/run.c \
	compare/load_results.c compare/load_lkp.c compare/load_sweep.c compare/side.c \
	compare/names.c compare/stats.c compare/rows.c \
	compare/table.c compare/decisions.c compare/export.c \
	compare/gate.c compare/plot.c compare/axis.c compare/html.c compare/html_table.c \
	compare/html_sweep.c compare/svg.c \
	compare/jsonfile.h compare/jsonfile.c compare/files.c \
	compare/verb.c compare/verb_output.c compare/change.c
librefault_compare_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
COMPARE_LIBS = librefault-compare.la librefault-trace.la $(RF_UTIL) $(JSONC_LIBS) -lm
