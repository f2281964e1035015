# SPDX-License-Identifier: LGPL-2.1-or-later
# Reference policies (issue 3): plain LRU, CLOCK and OPT over the model's page stream,
# their tests, and the model benchmark (make bench).
noinst_LTLIBRARIES += librefault-refpolicy.la
librefault_refpolicy_la_SOURCES = \
	replayer/refpolicy/refpolicy-local.h \
	replayer/refpolicy/keymap.c \
	replayer/refpolicy/queue.h \
	replayer/refpolicy/queue.c \
	replayer/refpolicy/lru.c \
	replayer/refpolicy/clock.c \
	replayer/refpolicy/opt.c \
	replayer/refpolicy/pagekey.c \
	replayer/refpolicy/refpolicy.c
# Not installed: the model libraries are internal for now; only librefault-trace is public.
noinst_HEADERS += include/refault/refpolicy.h

refpolicy_tests = \
	tests/refpolicy/test-refpolicy-classic \
	tests/refpolicy/test-refpolicy-props \
	tests/refpolicy/test-refpolicy-pagekey
check_PROGRAMS += $(refpolicy_tests)
TESTS += $(refpolicy_tests)
tests_refpolicy_test_refpolicy_classic_LDADD = librefault-refpolicy.la
tests_refpolicy_test_refpolicy_props_LDADD = librefault-refpolicy.la
tests_refpolicy_test_refpolicy_pagekey_LDADD = librefault-refpolicy.la

# make bench: the Linux model's speed and memory against plain LRU (issue 3, "Measured").
EXTRA_PROGRAMS += tests/bench/bench-model
BENCH_BINS += tests/bench/bench-model
tests_bench_bench_model_LDADD = librefault-refpolicy.la librefault-model.la librefault-trace.la -lm
