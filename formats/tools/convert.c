/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace convert IN OUT`: between refault traces, JSON lines,
 * libCacheSim oracleGeneral and csv (convert.h).  A source yields events, a
 * sink takes them; this file has the trace ones and the driver.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/convert-local.h"

int rf_tools_parse_format(const char *s, enum rf_tools_format *fmt)
{
	static const struct { const char *name; enum rf_tools_format fmt; } names[] = {
		{ "trace", RF_TOOLS_TRACE }, { "jsonl", RF_TOOLS_JSONL },
		{ "oracle", RF_TOOLS_ORACLE }, { "oracleGeneral", RF_TOOLS_ORACLE },
		{ "csv", RF_TOOLS_CSV },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name)) {
			*fmt = names[i].fmt;
			return 0;
		}
	return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

enum rf_tools_format rf_tools_format_of_name(const char *path)
{
	if (ends_with(path, ".jsonl"))
		return RF_TOOLS_JSONL;
	if (ends_with(path, ".oracleGeneral") || ends_with(path, ".bin"))
		return RF_TOOLS_ORACLE;
	if (ends_with(path, ".csv"))
		return RF_TOOLS_CSV;
	return RF_TOOLS_TRACE;
}

void conv_write_error(const struct conv_sink *sink, int err)
{
	tools_err(sink->log, "%s: %s%s", sink->path, rf_strerror(err),
		  err == -ENOSPC || err == -EDQUOT ? "; free some space or choose another place "
		  "(an existing file of that name is kept)" : "");
}

/* ------------------------------------------------------------ trace in/out */

static int trace_src_next(struct conv_source *src, struct rf_event *ev)
{
	struct rf_trace_reader *r = src->priv;
	int rc = rf_trace_reader_next(r, ev);

	if (rc < 0)
		tools_err(src->log, "%s: %s", src->path,
			  *rf_trace_reader_errmsg(r) ? rf_trace_reader_errmsg(r) : rf_strerror(rc));
	return rc;
}

static void trace_src_close(struct conv_source *src)
{
	rf_trace_reader_close(src->priv);
}

static int trace_source_open(struct conv_source *src)
{
	struct rf_trace_reader *r = rf_tools_open(src->log, src->path, 0);

	if (!r)
		return -1;
	src->hdr = *rf_trace_reader_header(r);
	src->next = trace_src_next;
	src->close = trace_src_close;
	src->priv = r;
	return 0;
}

struct trace_sink {
	struct rf_trace_writer *w;
	uint64_t events;
};

static int trace_sink_put(struct conv_sink *sink, const struct rf_event *ev)
{
	struct trace_sink *ts = sink->priv;
	int err = rf_trace_writer_append(ts->w, ev);

	if (err)
		tools_err(sink->log, "%s: %s", sink->path, *rf_trace_writer_errmsg(ts->w) ?
			  rf_trace_writer_errmsg(ts->w) : rf_strerror(err));
	ts->events += !err;
	return err;
}

static int trace_sink_finish(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;
	int err = rf_trace_writer_close(ts->w);

	if (err)
		tools_err(sink->log, "%s: closing the trace: %s", sink->path, rf_strerror(err));
	return err ? -1 : 0;
}

static void trace_sink_abort(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;

	rf_trace_writer_abandon(ts->w);
}

static void trace_sink_summary(struct conv_sink *sink)
{
	struct trace_sink *ts = sink->priv;

	tools_note(sink->log, "%s: %" PRIu64 " events", sink->path, ts->events);
}

static int trace_sink_open(struct conv_sink *sink, const struct rf_trace_header *h,
			   const struct rf_writer_options *wo)
{
	struct trace_sink *ts = calloc(1, sizeof(*ts));
	int err;

	sink->priv = ts;
	if (!ts || tools_out_open(&sink->of, sink->path, sink->log))
		return -1;
	err = rf_trace_writer_fdopen(&ts->w, sink->of.fd, h, wo);
	if (err) {
		tools_err(sink->log, "%s: %s", sink->path, rf_strerror(err));
		return -1;
	}
	sink->put = trace_sink_put;
	sink->finish = trace_sink_finish;
	sink->abort = trace_sink_abort;
	sink->summary = trace_sink_summary;
	return 0;
}

/* ---------------------------------------------------------------- driver */

static int source_open(struct conv_source *src, const struct rf_tools_convert_opts *o,
		       const struct rf_tools_log *log)
{
	memset(src, 0, sizeof(*src));
	src->path = o->in;
	src->log = log;
	switch (o->from) {
	case RF_TOOLS_TRACE:
		return trace_source_open(src);
	case RF_TOOLS_JSONL:
		return conv_jsonl_source_open(src);
	default:
		return conv_page_source_open(src, o->from, o->object_size);
	}
}

static int sink_open(struct conv_sink *sink, const struct rf_tools_convert_opts *o,
		     const struct rf_trace_header *h, const struct rf_tools_log *log)
{
	memset(sink, 0, sizeof(*sink));
	sink->path = o->out;
	sink->log = log;
	sink->of.fd = -1;	/* no file yet: discarding it does nothing */
	switch (o->to) {
	case RF_TOOLS_TRACE:
		return trace_sink_open(sink, h, &o->wo);
	case RF_TOOLS_JSONL:
		return conv_jsonl_sink_open(sink, h);
	default:
		return conv_page_sink_open(sink, o->to, h);
	}
}

/*
 * Every event of @src into @sink: 0 at the end of the input, negative when
 * it is damaged, 1 when the output failed.
 */
static int pump(struct conv_source *src, struct conv_sink *sink,
		struct rf_trace_folio_ids *ids)
{
	struct rf_event ev;
	int rc;

	while ((rc = src->next(src, &ev)) == 1) {
		if (ids && rf_trace_folio_ids_apply(ids, &ev)) {
			tools_err(sink->log, "%s: folio ids: %s", sink->path,
				  rf_strerror(RF_ERR_NOMEM));
			break;
		}
		if (sink->put(sink, &ev))
			break;
	}
	return rc;
}

/*
 * The end: the output failed (@rc 1) and is discarded, or it is committed
 * with what came before the end or the damage (@rc < 0: and the file it
 * replaces kept too, as OUT.old, since the run fails).  0, or an error.
 */
static int end(struct conv_source *src, struct conv_sink *sink, int rc)
{
	bool bad;

	if (rc == 1) {
		/* the output failed: what it holds is of no use */
		if (sink->abort)
			sink->abort(sink);
		tools_out_discard(&sink->of);
		return RF_ERR_IO;
	}
	bad = sink->finish && sink->finish(sink);
	if (rc < 0)
		sink->of.flags |= RF_OUTFILE_KEEP_OLD;
	if (bad)
		tools_out_discard(&sink->of);
	else
		bad = tools_out_commit(&sink->of, sink->log) != 0;
	/* what was written, said only of an output that was (the old one is kept otherwise) */
	if (!bad && src->summary)
		src->summary(src);
	if (!bad && sink->summary)
		sink->summary(sink);
	return bad ? RF_ERR_IO : rc < 0 ? rc : 0;
}

int rf_tools_convert(const struct rf_tools_convert_opts *o, const struct rf_tools_log *log)
{
	struct rf_trace_folio_ids *ids = NULL;
	struct conv_source src;
	struct conv_sink sink;
	int rc;

	if (source_open(&src, o, log))
		return RF_ERR_INVAL;
	/* a trace of folio ids already: numbering them again would give the same ids */
	if (o->pfn_ids && strcmp(src.hdr.pfns, "ids")) {
		snprintf(src.hdr.pfns, sizeof(src.hdr.pfns), "ids");
		ids = rf_trace_folio_ids_new();
		if (!ids) {
			tools_err(log, "%s: folio ids: %s", o->out, rf_strerror(RF_ERR_NOMEM));
			src.close(&src);
			return RF_ERR_NOMEM;
		}
	}
	if (sink_open(&sink, o, &src.hdr, log)) {
		rf_trace_folio_ids_free(ids);
		tools_out_discard(&sink.of);
		free(sink.priv);
		src.close(&src);
		return RF_ERR_IO;
	}
	rc = pump(&src, &sink, ids);
	rf_trace_folio_ids_free(ids);
	rc = end(&src, &sink, rc);
	src.close(&src);
	free(sink.priv);
	return rc;
}
