/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace slice`: the selected events of a trace, as a new trace that
 * replays on its own (slice.h); what is kept before the range: keeps_state().
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/slice.h"
#include "formats/tools/tools-local.h"

struct slice {
	const char *in;
	const char *out;
	struct rf_tools_filter *filter;
	const struct rf_tools_log *log;
	struct rf_tools_slice_result *res;
	bool out_failed;		/* the writer failed: the output is of no use */
};

/* Naming and set-up events that precede the range and the slice needs (.slice of the type). */
static bool keeps_state(const struct rf_tools_filter *f, const struct rf_event *ev)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);

	if (!ti)
		return false;
	return ti->slice == RF_SLICE_STATE ||
	       (ti->slice == RF_SLICE_TASK_STATE && tools_filter_match_task(f, ev));
}

static bool chunk_inside(const struct slice *s, const struct rf_event_batch *b)
{
	struct rf_chunk_info ci;

	if (tools_filter_per_event(s->filter))
		return false;
	rf_event_batch_summary(b, &ci);
	return b->nr && ci.t_first >= s->filter->from && ci.t_last <= s->filter->to;
}

static int slice_batch(struct slice *s, struct rf_trace_writer *w, const struct rf_frame *f,
		       const struct rf_event_batch *b)
{
	size_t i;
	int err;

	if (chunk_inside(s, b)) {
		s->res->copied_chunks++;
		s->res->kept += b->nr;
		return rf_trace_writer_copy_chunk(w, f->data, f->size, b);
	}
	for (i = 0; i < b->nr; i++) {
		const struct rf_event *ev = &b->events[i];
		bool keep;

		err = tools_filter_learn(s->filter, ev);
		if (err)
			return err;
		keep = tools_filter_match(s->filter, ev);
		if (!keep && ev->time < s->filter->from && keeps_state(s->filter, ev)) {
			keep = true;
			s->res->state_kept++;
		}
		if (!keep)
			continue;
		err = rf_trace_writer_append(w, ev);
		if (err)
			return err;
		s->res->kept++;
	}
	return 0;
}

/* A chunk that starts after --to can hold nothing for the slice. */
static bool after_range(const struct slice *s, const struct rf_chunk_info *chunks, long n,
			const struct rf_frame *f)
{
	return f->ordinal < (uint64_t)n && chunks[f->ordinal].offset == f->offset &&
	       chunks[f->ordinal].t_first > s->filter->to;
}

static int copy(struct slice *s, struct rf_trace_reader *r, struct rf_trace_writer *w)
{
	const struct rf_chunk_info *chunks = NULL;
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	long n = 0;
	int err;

	if (s->filter->to_arg)
		n = rf_trace_reader_chunks(r, &chunks);
	err = rf_chunk_decoder_new(&d);
	if (err)
		return err;
	rf_event_batch_init(&b);
	while ((err = rf_trace_reader_next_frame(r, &f)) == 1) {
		if (n > 0 && after_range(s, chunks, n, &f))
			continue;
		err = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (err) {
			tools_err(s->log, "%s: chunk %" PRIu64 " at offset %" PRIu64 ": %s", s->in,
				  f.ordinal, f.offset, rf_chunk_decoder_errmsg(d));
			break;
		}
		err = slice_batch(s, w, &f, &b);
		if (err) {
			tools_err(s->log, "%s: %s", s->out, *rf_trace_writer_errmsg(w) ?
				  rf_trace_writer_errmsg(w) : rf_strerror(err));
			s->out_failed = true;
			break;
		}
	}
	if (err < 0 && err != RF_ERR_NOMEM && !*rf_chunk_decoder_errmsg(d) &&
	    *rf_trace_reader_errmsg(r))
		tools_err(s->log, "%s: %s", s->in, rf_trace_reader_errmsg(r));
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	return err;
}

/* Close the writer: the index and footer.  0, or an error after a message. */
static int finish(struct slice *s, struct rf_trace_writer *w)
{
	int err = rf_trace_writer_close(w);

	if (err) {
		tools_err(s->log, "%s: cannot write the index: %s", s->out, rf_strerror(err));
		s->out_failed = true;
	}
	return err;
}

int rf_tools_slice(struct rf_trace_reader *r, const char *in, const char *out,
		   struct rf_tools_filter *f, struct rf_tools_slice_result *res,
		   const struct rf_tools_log *log)
{
	struct slice s = { .in = in, .out = out, .filter = f, .log = log, .res = res };
	struct rf_trace_writer *w = NULL;
	struct rf_outfile of;
	int err, cerr;

	memset(res, 0, sizeof(*res));
	if (tools_out_open(&of, out, log))
		return RF_ERR_IO;
	err = rf_trace_writer_fdopen(&w, of.fd, rf_trace_reader_header(r), NULL);
	if (err)
		tools_err(log, "%s: %s", out, w ? rf_trace_writer_errmsg(w) : rf_strerror(err));
	else
		err = copy(&s, r, w);
	/* after damage in the input, OUT still gets the events before it */
	if (w && (cerr = finish(&s, w)))
		err = err ? err : cerr;
	/* the output's own failure, or memory: what it holds is of no use (damage is another thing) */
	if (!w || s.out_failed || err == RF_ERR_NOMEM) {
		tools_out_discard(&of);
		return err ? err : RF_ERR_IO;
	}
	/* damaged input: OUT gets the events before it, and the file it replaces is kept */
	if (err)
		of.flags |= RF_OUTFILE_KEEP_OLD;
	if (tools_out_commit(&of, log))
		return RF_ERR_IO;
	res->written = true;
	return err;
}
