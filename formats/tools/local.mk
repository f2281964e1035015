# SPDX-License-Identifier: LGPL-2.1-or-later
# formats/tools/: librefault-tracetools, what `refault trace` does to traces (dump, info's counts,
# verify, slice, recover, convert, the event filter and printers), over librefault-trace.  A
# convenience library of the refault program and the fuzz targets; headers in formats/tools/*.h,
# nothing installed.  cli/trace/ keeps each subcommand's options, usage and printing of results.
noinst_LTLIBRARIES += librefault-tracetools.la
librefault_tracetools_la_SOURCES = \
	formats/tools/tools.h formats/tools/tools-local.h formats/tools/common.c \
	formats/tools/filter.h formats/tools/filter.c formats/tools/print.c formats/tools/names.c \
	formats/tools/dump.h formats/tools/dump.c formats/tools/info.h formats/tools/info.c \
	formats/tools/verify.h formats/tools/verify.c formats/tools/slice.h formats/tools/slice.c \
	formats/tools/recover.h formats/tools/recover.c \
	formats/tools/convert.h formats/tools/convert-local.h formats/tools/convert.c \
	formats/tools/jsonl.c formats/tools/pages.c
librefault_tracetools_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
TRACETOOLS_LIBS = librefault-tracetools.la librefault-trace.la $(RF_UTIL) $(JSONC_LIBS)
