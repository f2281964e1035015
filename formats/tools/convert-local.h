/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to convert: event sources (readers of each format) and sinks
 * (writers of each format).  convert.c has the trace ones and the driver,
 * jsonl.c the JSON-lines ones, pages.c the page-request formats
 * (oracleGeneral, csv).
 */
#ifndef REFAULT_FORMATS_TOOLS_CONVERT_LOCAL_H
#define REFAULT_FORMATS_TOOLS_CONVERT_LOCAL_H

#include "formats/tools/convert.h"
#include "formats/tools/tools-local.h"

struct conv_source {
	const char *path;
	const struct rf_tools_log *log;
	struct rf_trace_header hdr;
	/* 1 with *ev, 0 at the end, negative after saying what is wrong and where */
	int (*next)(struct conv_source *src, struct rf_event *ev);
	/* a note of how the input was read, or NULL; before close */
	void (*summary)(struct conv_source *src);
	void (*close)(struct conv_source *src);
	void *priv;
};

/*
 * A sink writes @of; the driver commits it under its name after @finish, or
 * discards it (after @abort when the output failed, or when the sink could
 * not open).
 */
struct conv_sink {
	const char *path;
	const struct rf_tools_log *log;
	struct rf_outfile of;
	int (*put)(struct conv_sink *sink, const struct rf_event *ev);
	/* write what ends the file, or NULL; -1 after a message */
	int (*finish)(struct conv_sink *sink);
	/* let go of what the sink holds of the output, or NULL */
	void (*abort)(struct conv_sink *sink);
	/* a note of what was written, or NULL */
	void (*summary)(struct conv_sink *sink);
	void *priv;
};

/* "PATH: what failed", and what to do when the disk is full. */
void conv_write_error(const struct conv_sink *sink, int err);

/*
 * Each opens @src or @sink (path and log set by the caller) and returns 0,
 * or -1 after a message (the sink's priv, if set, is the caller's to free;
 * a source that fails has let go of everything).
 */
int conv_jsonl_source_open(struct conv_source *src);
int conv_jsonl_sink_open(struct conv_sink *sink, const struct rf_trace_header *h);
int conv_page_source_open(struct conv_source *src, enum rf_tools_format fmt,
			  enum rf_tools_object_size obj_size);
int conv_page_sink_open(struct conv_sink *sink, enum rf_tools_format fmt,
			const struct rf_trace_header *h);

#endif /* REFAULT_FORMATS_TOOLS_CONVERT_LOCAL_H */
