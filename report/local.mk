# SPDX-License-Identifier: LGPL-2.1-or-later
# report/: librefault-report (`refault report`), the kernel's and the models' decisions per
# file, cgroup, pid, command or call stack (docs/report.md).
noinst_LTLIBRARIES += librefault-report.la
librefault_report_la_SOURCES = \
	report/report.h report/report-local.h report/report.c report/names.c report/table.c \
	report/kernel.c report/source_model.c report/heatmap.c report/results.c report/print.c report/html.c \
	report/stacks.c report/folded.c report/flame.c
librefault_report_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) $(JSONC_CFLAGS)
