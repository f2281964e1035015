# SPDX-License-Identifier: LGPL-2.1-or-later
# librefault-trace: the trace format library (installed, with include/refault/trace.h and refault-trace.pc).
lib_LTLIBRARIES += librefault-trace.la
librefault_trace_la_SOURCES = \
	formats/format-local.h formats/mp_read.h \
	formats/errors.c formats/event_types.c formats/schema.c formats/header.c formats/host.c formats/crc32c.c \
	formats/arena.c formats/chunk_encode.c formats/chunk_decode.c formats/index.c \
	formats/writer.c formats/reader.c formats/event_json.c
librefault_trace_la_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(MSGPACK_CFLAGS) $(JSONC_CFLAGS)
librefault_trace_la_LIBADD = $(ZSTD_LIBS) $(MSGPACK_LIBS) $(JSONC_LIBS)
librefault_trace_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^rf_'
refaultinclude_HEADERS += include/refault/trace-json.h

include formats/gen/local.mk

# A 2.0 trace (bundled) reads under 2.1: reclaim's appended field reads as "not said".
TESTS += tests/format/test-compat-2.0.sh
EXTRA_DIST += tests/format/test-compat-2.0.sh
