# SPDX-License-Identifier: LGPL-2.1-or-later
# recorder/: librefault-record (`refault record`): tracefs instance -> per-CPU sub-buffers -> merge
# -> normalize -> events; the session (session.h) writes them into a trace: output, header, writer,
# memcg, command, loop.  recorder/gen/ writes traces of synthetic workloads.
noinst_LTLIBRARIES += librefault-record.la
librefault_record_la_SOURCES = \
	recorder/record.h recorder/record-local.h recorder/norm.h recorder/tp.h recorder/stacks.h \
	recorder/perfstack.h recorder/stackmatch.h recorder/stackpool.h recorder/session.h recorder/idle.h \
	recorder/tp.c recorder/kprobes.c recorder/source.c recorder/vmas.c \
	recorder/counters.c recorder/lru_gen.c recorder/knobs.c recorder/cgroups.c recorder/tasks.c \
	recorder/normalize.c recorder/readahead.c recorder/damon.c recorder/idle.c recorder/recorder.c \
	recorder/workload.c recorder/unwind.c recorder/symbols.c recorder/perfstack.c \
	recorder/stackmatch.c recorder/stackpool.c recorder/header.c recorder/session.c
librefault_record_la_CFLAGS = $(AM_CFLAGS) $(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS) $(BPF_CFLAGS) \
	$(UNWIND_CFLAGS) $(DW_CFLAGS) -pthread
RECORD_LIBS = librefault-record.la $(TRACEFS_LIBS) $(TRACEEVENT_LIBS) $(BPF_LIBS) $(UNWIND_LIBS) \
	$(DW_LIBS) -lpthread

include recorder/gen/local.mk
