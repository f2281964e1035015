# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of the trace format library and the refault CLI; other parts register theirs in their own local.mk.
EXTRA_DIST += tests/lib/tap.h

TESTS_FORMAT_LDADD = librefault-trace.la $(JSONC_LIBS)
check_PROGRAMS += tests/format/test-roundtrip
tests_format_test_roundtrip_LDADD = $(TESTS_FORMAT_LDADD)
tests_format_test_roundtrip_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
TESTS += tests/format/test-roundtrip
