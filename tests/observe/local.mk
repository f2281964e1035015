# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/observe/: the kernel's account of a trace (replayer/observe/).
check_PROGRAMS += tests/observe/test-observe
tests_observe_test_observe_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
tests_observe_test_observe_LDADD = $(OBSERVE_LIBS)
TESTS += tests/observe/test-observe
