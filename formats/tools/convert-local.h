/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace convert`: event sources (readers of each format) and sinks
 * (writers of each format).  cli/trace/convert.c has the trace and JSON-lines
 * ones, cli/trace/pages.c the page-request formats (oracleGeneral, csv).
 */
#ifndef REFAULT_CLI_TRACE_CONVERT_H
#define REFAULT_CLI_TRACE_CONVERT_H

#include "cli/trace/trace-local.h"

enum conv_format { FMT_TRACE, FMT_JSONL, FMT_ORACLE, FMT_CSV };

struct conv_source {
	const char *path;
	struct rf_trace_header hdr;
	/* 1 with *ev, 0 at the end, negative after printing what is wrong and where */
	int (*next)(struct conv_source *src, struct rf_event *ev);
	/* what stderr should know of how the input was read, or NULL; before close */
	void (*summary)(struct conv_source *src);
	void (*close)(struct conv_source *src);
	void *priv;
};

/*
 * --object-size: what the size of an oracle or csv request becomes.
 * folio: a power-of-two number of pages is a folio of that order, any other
 * size one page (the default, as before there was a choice); unit: every
 * object is one page (libCacheSim's --ignore-obj-size 1); pages: its size
 * rounded up to whole pages, each page an event, the object's keys a range
 * of its own.
 */
enum conv_object_size { OBJ_SIZE_FOLIO, OBJ_SIZE_UNIT, OBJ_SIZE_PAGES };

/* "folio", "unit" or "pages" into *@mode; -1 for anything else. */
int conv_parse_object_size(const char *s, enum conv_object_size *mode);

/*
 * A sink writes @of; the driver commits it under its name after @finish, or
 * discards it (after @abort when the output failed, or when the sink could
 * not open).
 */
struct conv_sink {
	const char *path;
	struct rf_outfile of;
	int (*put)(struct conv_sink *sink, const struct rf_event *ev);
	/* write what ends the file, or NULL; -1 after a message */
	int (*finish)(struct conv_sink *sink);
	/* let go of what the sink holds of the output, or NULL */
	void (*abort)(struct conv_sink *sink);
	/* one line on stderr of what was written, or NULL */
	void (*summary)(struct conv_sink *sink);
	void *priv;
};

/* "PATH: what failed", and what to do when the disk is full. */
void conv_write_error(const char *path, int err);

/* Each returns 0, or -1 after a message (the sink's priv, if set, is the caller's to free). */
int page_source_open(struct conv_source *src, enum conv_format fmt, const char *path,
		     enum conv_object_size obj_size);
int page_sink_open(struct conv_sink *sink, enum conv_format fmt, const char *path,
		   const struct rf_trace_header *h);

/* The page requests a reference event makes (see docs/refault-trace.md, "convert"). */
struct page_req {
	uint64_t obj_id;
	bool write;
};

/*
 * Expand @ev into page requests: calls @fn for each page, in address order.
 * Returns 0, 1 for an event that is not a reference (nothing done), or
 * RF_ERR_RANGE when it covers more than PAGES_PER_EVENT_MAX pages.
 */
#define PAGES_PER_EVENT_MAX (1u << 24)
int page_requests(const struct rf_event *ev, unsigned int page_shift,
		  int (*fn)(void *arg, const struct page_req *req), void *arg);

#endif /* REFAULT_CLI_TRACE_CONVERT_H */
