# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/format/: the trace format library.
TRACE_TEST_LIBS = librefault-trace.la $(RF_UTIL)
check_PROGRAMS += tests/format/test-roundtrip
tests_format_test_roundtrip_LDADD = $(TRACE_TEST_LIBS) $(JSONC_LIBS)
tests_format_test_roundtrip_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
TESTS += tests/format/test-roundtrip

# The per-type table (rf_event_type_info) and the chunk summary (rf_event_batch_summary).
check_PROGRAMS += tests/format/test-type-info
tests_format_test_type_info_LDADD = $(TRACE_TEST_LIBS)
TESTS += tests/format/test-type-info

# Which pages an event names (rf_event_pages), read from the table, and the one page identity.
check_PROGRAMS += tests/format/test-event-pages
tests_format_test_event_pages_LDADD = $(TRACE_TEST_LIBS)
TESTS += tests/format/test-event-pages

# Bad input: truncation, bit flips, hostile frames crafted with libzstd + msgpack-c.
check_PROGRAMS += tests/format/test-damage
tests_format_test_damage_SOURCES = tests/format/test-damage.c tests/format/sample.h \
	tests/format/bytes.h
tests_format_test_damage_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(MSGPACK_CFLAGS)
tests_format_test_damage_LDADD = $(TRACE_TEST_LIBS) $(ZSTD_LIBS) $(MSGPACK_LIBS)
TESTS += tests/format/test-damage

# The format is plain zstd + msgpack: an independent decoder (python3-msgpack) reads it.
# Old traces: a 1.0 file read event for event, a 2.0 one (bundled) under 2.1.
check_PROGRAMS += tests/format/write-sample
tests_format_write_sample_LDADD = $(TRACE_TEST_LIBS)
TESTS += tests/format/test-msgpack-python.sh tests/format/test-compat-1.0.sh \
	tests/format/test-compat-2.0.sh
EXTRA_DIST += tests/format/sample.h tests/format/test-msgpack-python.sh \
	tests/format/test-compat-1.0.sh tests/format/test-compat-2.0.sh \
	tests/format/compat-1.0-noswap-pageout.rft

# Folio ids in place of pfns (record's and trace convert's --pfns ids): the rules, and the writer's
# folio_ids option.
check_PROGRAMS += tests/format/test-folio-ids
tests_format_test_folio_ids_LDADD = $(TRACE_TEST_LIBS)
TESTS += tests/format/test-folio-ids
