# SPDX-License-Identifier: LGPL-2.1-or-later
# The refault front command. Each verb adds its builtin source with 'refault_SOURCES += ...' in its own
# local.mk, its library with 'REFAULT_VERB_LIBS += lib.la' and external libs with 'REFAULT_VERB_EXTRA_LIBS +='.
bin_PROGRAMS += refault
refault_SOURCES = cli/refault.c cli/builtin.h cli/util.c cli/util.h
refault_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(UNWIND_CFLAGS)
refault_LDADD = $(REFAULT_VERB_LIBS) librefault-trace.la $(REFAULT_VERB_EXTRA_LIBS) $(JSONC_LIBS) $(UNWIND_LIBS) -lm
refault_SOURCES += cli/builtin-trace.c cli/trace-local.h cli/trace-common.c cli/trace-print.c \
	cli/trace-map.c cli/trace-filter.c cli/trace-info.c cli/trace-dump.c cli/trace-verify.c \
	cli/trace-slice.c cli/trace-recover.c cli/trace-convert.h cli/trace-convert.c cli/trace-pages.c
