# SPDX-License-Identifier: LGPL-2.1-or-later
# refault record: tracefs instance -> per-CPU sub-buffers -> merge -> normalize -> trace writer.
noinst_LTLIBRARIES += librefault-record.la
librefault_record_la_SOURCES = \
	recorder/record.h recorder/internal.h recorder/norm.h \
	recorder/hmap.c recorder/tp.c recorder/source.c recorder/vmas.c \
	recorder/counters.c recorder/cgroups.c recorder/tasks.c \
	recorder/normalize.c recorder/readahead.c recorder/recorder.c
librefault_record_la_CFLAGS = $(AM_CFLAGS) $(TRACEFS_CFLAGS) $(TRACEEVENT_CFLAGS)

refault_SOURCES += recorder/builtin-record.c
REFAULT_VERB_LIBS += librefault-record.la
REFAULT_VERB_EXTRA_LIBS += $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)

# Tests: real recordings when root and tracefs are there, skipped (with the reason) otherwise.
check_PROGRAMS += tests/record/workload-readtwice tests/record/check-trace tests/record/test-hmap \
	tests/record/workload-readahead tests/record/check-readahead tests/record/workload-drain \
	tests/record/test-norm
tests_record_test_hmap_SOURCES = tests/record/test-hmap.c
tests_record_test_hmap_LDADD = librefault-record.la
tests_record_test_norm_SOURCES = tests/record/test-norm.c
tests_record_test_norm_LDADD = librefault-record.la librefault-trace.la $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)
tests_record_workload_readtwice_SOURCES = tests/record/workload-readtwice.c
tests_record_check_trace_SOURCES = tests/record/check-trace.c
tests_record_check_trace_LDADD = librefault-trace.la
tests_record_workload_readahead_SOURCES = tests/record/workload-readahead.c
tests_record_check_readahead_SOURCES = tests/record/check-readahead.c
tests_record_workload_drain_SOURCES = tests/record/workload-drain.c
tests_record_check_readahead_LDADD = librefault-trace.la librefault-record.la
TESTS += tests/record/test-hmap tests/record/test-norm tests/record/test-record-workload.sh tests/record/test-record-errors.sh \
	tests/record/test-record-kill.sh tests/record/test-record-readahead.sh \
	tests/record/test-record-drain.sh tests/record/test-record-memstat.sh
EXTRA_DIST += tests/record/lib.sh tests/record/test-record-workload.sh \
	tests/record/test-record-errors.sh tests/record/test-record-kill.sh \
	tests/record/test-record-readahead.sh tests/record/test-record-drain.sh \
	tests/record/test-record-memstat.sh
