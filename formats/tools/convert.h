/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace convert`: between refault traces, JSON lines, libCacheSim
 * oracleGeneral and csv (docs/refault-trace.md, "convert").  A source
 * yields events, a sink takes them: convert.c has the driver and the trace
 * ones, jsonl.c the JSON-lines ones, pages.c the page-request formats.
 */
#ifndef REFAULT_FORMATS_TOOLS_CONVERT_H
#define REFAULT_FORMATS_TOOLS_CONVERT_H

#include "formats/tools/tools.h"

enum rf_tools_format { RF_TOOLS_TRACE, RF_TOOLS_JSONL, RF_TOOLS_ORACLE, RF_TOOLS_CSV };

/* "trace", "jsonl", "oracle", "oracleGeneral" or "csv" into *@fmt; -1 for anything else. */
RF_API int rf_tools_parse_format(const char *s, enum rf_tools_format *fmt);
/* By the file name: *.jsonl, *.oracleGeneral or *.bin, *.csv; any other a trace. */
RF_API enum rf_tools_format rf_tools_format_of_name(const char *path);

/*
 * --object-size: what the size of an oracle or csv request becomes.
 * folio: a power-of-two number of pages is a folio of that order, any other
 * size one page (the default); unit: every object is one page (libCacheSim's
 * --ignore-obj-size 1); pages: its size rounded up to whole pages, each page
 * an event, the object's keys a range of its own.
 */
enum rf_tools_object_size { RF_TOOLS_OBJ_FOLIO, RF_TOOLS_OBJ_UNIT, RF_TOOLS_OBJ_PAGES };

/* "folio", "unit" or "pages" into *@mode; -1 for anything else. */
RF_API int rf_tools_parse_object_size(const char *s, enum rf_tools_object_size *mode);

struct rf_tools_convert_opts {
	const char *in;			/* "-": standard input (jsonl, oracle, csv) */
	const char *out;		/* "-": standard output (jsonl, csv) */
	enum rf_tools_format from;
	enum rf_tools_format to;
	struct rf_writer_options wo;	/* a trace output's (folio_ids: see pfn_ids) */
	/* number the page-cache and LRU events' pfns as folio ids (rf_trace_folio_ids_*()) */
	bool pfn_ids;
	enum rf_tools_object_size object_size;	/* oracle and csv input */
};

/*
 * rf_tools_convert() - convert @o->in to @o->out (lib/outfile.h: an
 * existing OUT is replaced only by a whole new file)
 *
 * On damaged input, what was read before the damage is written (the file it
 * replaces kept as OUT.old), and the run fails.  When the output fails (a
 * full disk), nothing is written.  After a written output, the source and
 * the sink each say in a note what they read and wrote ("OUT: 12 events").
 * Return: 0, or a negative rf_err after a message.
 */
RF_API int rf_tools_convert(const struct rf_tools_convert_opts *o, const struct rf_tools_log *log);

#endif /* REFAULT_FORMATS_TOOLS_CONVERT_H */
