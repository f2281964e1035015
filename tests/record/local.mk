# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/record/: the recorder; real recordings when root and tracefs are there, skipped (with the
# reason) otherwise.
check_PROGRAMS += tests/record/workload-readtwice tests/record/check-trace \
	tests/record/workload-readahead tests/record/check-readahead tests/record/workload-drain \
	tests/record/workload-kfault tests/record/test-norm
tests_record_test_norm_SOURCES = tests/record/test-norm.c
tests_record_test_norm_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
tests_record_workload_readtwice_SOURCES = tests/record/workload-readtwice.c
tests_record_check_trace_SOURCES = tests/record/check-trace.c
tests_record_check_trace_LDADD = librefault-trace.la $(RF_UTIL)
tests_record_workload_readahead_SOURCES = tests/record/workload-readahead.c
tests_record_check_readahead_SOURCES = tests/record/check-readahead.c
tests_record_check_readahead_LDADD = librefault-trace.la $(RF_UTIL)
tests_record_workload_drain_SOURCES = tests/record/workload-drain.c
tests_record_workload_kfault_SOURCES = tests/record/workload-kfault.c
record_sh_tests = tests/record/test-record-workload.sh tests/record/test-record-errors.sh \
	tests/record/test-record-kill.sh tests/record/test-record-signals.sh \
	tests/record/test-record-readahead.sh \
	tests/record/test-record-drain.sh tests/record/test-record-memstat.sh \
	tests/record/test-record-safety.sh tests/record/test-record-faults.sh \
	tests/record/test-record-duration.sh tests/record/test-record-kprobes.sh \
	tests/record/test-record-cold.sh tests/record/test-record-thp.sh \
	tests/record/test-record-willneed.sh tests/record/test-record-writes.sh \
	tests/record/test-record-rerun.sh tests/record/test-record-readv.sh \
	tests/record/test-record-kfault.sh
TESTS += tests/record/test-norm $(record_sh_tests)
EXTRA_DIST += tests/record/lib.sh $(record_sh_tests)
# debugfs's multi-gen LRU state into counters, from text in the kernel's own formats.
check_PROGRAMS += tests/record/test-lru-gen
tests_record_test_lru_gen_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
TESTS += tests/record/test-lru-gen
# The command of record -- COMMAND: held, released, killed as a group, run as the sudo user.
check_PROGRAMS += tests/record/test-workload
tests_record_test_workload_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
TESTS += tests/record/test-workload
# User stacks: a sample of the test itself unwound with DWARF CFI (no frame pointers) and named.
check_PROGRAMS += tests/record/test-unwind
tests_record_test_unwind_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
TESTS += tests/record/test-unwind
# Which of a thread's stack samples each reference takes: preempted probes, losses, order.
check_PROGRAMS += tests/record/test-stackmatch
tests_record_test_stackmatch_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
TESTS += tests/record/test-stackmatch
# --call-graph dwarf on a program with two call paths to one read loop (also tests/report's).
check_PROGRAMS += tests/record/workload-two-paths
tests_record_workload_two_paths_SOURCES = tests/record/workload-two-paths.c
# built as a user's program is on Debian (-O2 -g, no frame pointers), whatever the tree's flags:
# neither the sanitizers' runtime nor their frame pointers in the stacks it is about
tests_record_workload_two_paths_CFLAGS = -O2 -g -fomit-frame-pointer -Wall
tests_record_workload_two_paths_LDFLAGS =
record_sh_tests += tests/record/test-record-stacks.sh
tests/record/test-record-stacks.log: tests/record/test-record-kprobes.log
# The recording session as a library (recorder/session.h): its output, notes and errors without
# tracefs, and as root a recording of a command and one stopped by a signal.
check_PROGRAMS += tests/record/test-session
tests_record_test_session_LDADD = $(RECORD_LIBS) librefault-trace.la $(RF_UTIL)
TESTS += tests/record/test-session
# The tests that record run one after another: every recording removes the tracefs instances and
# memory cgroups a SIGKILLed recorder left, so one running beside test-record-safety's or
# test-record-faults' kill cases would remove what they check is left.
tests/record/test-record-workload.log: tests/record/test-session.log
tests/record/test-record-errors.log: tests/record/test-record-workload.log
tests/record/test-record-kill.log: tests/record/test-record-errors.log
tests/record/test-record-signals.log: tests/record/test-record-kill.log
tests/record/test-record-readahead.log: tests/record/test-record-signals.log
tests/record/test-record-drain.log: tests/record/test-record-readahead.log
tests/record/test-record-memstat.log: tests/record/test-record-drain.log
tests/record/test-record-safety.log: tests/record/test-record-memstat.log
tests/record/test-record-faults.log: tests/record/test-record-safety.log
tests/record/test-record-duration.log: tests/record/test-record-faults.log
tests/record/test-record-kprobes.log: tests/record/test-record-duration.log
# --cold drops the system's page cache: after the other recordings, before test-validate; the
# later recording tests after it, one at a time like the others (the rerun records --cold too)
tests/record/test-record-cold.log: tests/record/test-record-kprobes.log
# and after test-report-recorded-stacks, whose drop_caches would empty what they find cached
tests/record/test-record-cold.log: tests/report/test-report-recorded-stacks.log
tests/record/test-record-thp.log: tests/record/test-record-cold.log
tests/record/test-record-willneed.log: tests/record/test-record-thp.log
tests/record/test-record-writes.log: tests/record/test-record-willneed.log
tests/record/test-record-rerun.log: tests/record/test-record-writes.log
tests/record/test-record-readv.log: tests/record/test-record-rerun.log
tests/record/test-record-kfault.log: tests/record/test-record-readv.log
tests/validate/test-validate.log: tests/record/test-record-kfault.log
tests/report/test-report-recorded-stacks.log: tests/record/test-record-stacks.log
tests/validate/test-validate.log: tests/report/test-report-recorded-stacks.log
tests/cli/test-outputs.log: tests/validate/test-validate.log
