# SPDX-License-Identifier: LGPL-2.1-or-later
# formats/: librefault-trace, the trace format library (installed, with include/refault/trace.h,
# trace-json.h and refault-trace.pc).  Only the functions marked RF_API are exported.
lib_LTLIBRARIES += librefault-trace.la
librefault_trace_la_SOURCES = \
	formats/format-local.h formats/mp_read.h formats/mp_write.h formats/columns.h \
	formats/errors.c formats/event_types.c formats/event_pages.c formats/schema.c formats/header.c formats/host.c formats/crc32c.c \
	formats/arena.c formats/chunk_encode.c formats/chunk_decode.c formats/columns_encode.c \
	formats/columns_decode.c formats/index.c \
	formats/writer.c formats/folio_ids.c formats/reader.c formats/event_json.c
librefault_trace_la_CFLAGS = $(AM_CFLAGS) $(ZSTD_CFLAGS) $(MSGPACK_CFLAGS) $(JSONC_CFLAGS)
librefault_trace_la_LIBADD = $(RF_UTIL) $(ZSTD_LIBS) $(MSGPACK_LIBS) $(JSONC_LIBS)
librefault_trace_la_LDFLAGS = -version-info 0:0:0
refaultinclude_HEADERS += include/refault/trace-json.h
