/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace recover`: rebuild a truncated or damaged trace (recover.h):
 * the frames walked with RF_READ_NO_INDEX | RF_READ_SKIP_DAMAGED, the good
 * chunks copied verbatim, what could not be kept said.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/recover.h"
#include "formats/tools/tools-local.h"

#define MAX_REPORTS 50

struct recover {
	const char *in;
	const char *out;
	const struct rf_tools_log *log;
	struct rf_tools_recover_result *res;
};

/* A damaged frame skipped: "TRACE: skipped: @msg", the first MAX_REPORTS of them. */
static void report(struct recover *rc, const char *msg)
{
	if (rc->res->bad_frames < MAX_REPORTS)
		tools_err(rc->log, "%s: skipped: %s", rc->in, msg);
	else if (rc->res->bad_frames == MAX_REPORTS)
		tools_err(rc->log, "%s: more damage not shown", rc->in);
	rc->res->bad_frames++;
}

static int copy_chunks(struct recover *rc, struct rf_trace_reader *r, struct rf_trace_writer *w)
{
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	int err;

	err = rf_chunk_decoder_new(&d);
	if (err)
		return err;
	rf_event_batch_init(&b);
	while ((err = rf_trace_reader_next_frame(r, &f)) != 0) {
		if (err == RF_ERR_NOMEM)
			break;
		if (err < 0) {
			/* framing damage: the reader moved on to the next zstd magic number */
			report(rc, rf_trace_reader_errmsg(r));
			continue;
		}
		err = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (err == RF_ERR_NOMEM)
			break;
		if (err) {
			char msg[600];

			snprintf(msg, sizeof(msg), "chunk %" PRIu64 " at offset %" PRIu64
				 " (%zu bytes): %s", f.ordinal, f.offset, f.size,
				 rf_chunk_decoder_errmsg(d));
			report(rc, msg);
			rc->res->bad_bytes += f.size;
			continue;
		}
		err = rf_trace_writer_copy_chunk(w, f.data, f.size, &b);
		if (err) {
			tools_err(rc->log, "%s: %s", rc->out, rf_trace_writer_errmsg(w));
			break;
		}
		rc->res->good_chunks++;
		rc->res->good_events += b.nr;
		rc->res->good_end = f.offset + f.size;
	}
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	return err;
}

/* What the old index says: whether there is one, and the events it lists. */
static int old_index(struct recover *rc)
{
	struct rf_trace_reader *r = rf_tools_open(rc->log, rc->in, 0);
	const struct rf_chunk_info *chunks;
	long i, n;

	if (!r)
		return RF_ERR_IO;
	rc->res->had_index = rf_trace_reader_has_index(r);
	if (rc->res->had_index) {
		n = rf_trace_reader_chunks(r, &chunks);
		for (i = 0; i < n; i++)
			rc->res->indexed_events += chunks[i].nr_events;
	}
	rf_trace_reader_close(r);
	return 0;
}

/* Copy the good chunks of @r into @of as a trace; 0, or an error after a message. */
static int write_out(struct recover *rc, struct rf_trace_reader *r, struct rf_outfile *of)
{
	struct rf_trace_writer *w = NULL;
	int err, cerr;

	err = rf_trace_writer_fdopen(&w, of->fd, rf_trace_reader_header(r), NULL);
	if (err)
		tools_err(rc->log, "%s: %s", rc->out, w ? rf_trace_writer_errmsg(w) :
			  rf_strerror(err));
	if (!err)
		err = copy_chunks(rc, r, w);
	if (err == RF_ERR_NOMEM)
		tools_err(rc->log, "out of memory");
	if (w) {
		cerr = rf_trace_writer_close(w);
		if (cerr && !err) {
			tools_err(rc->log, "%s: cannot write the index: %s", rc->out,
				  rf_strerror(cerr));
			err = cerr;
		}
	}
	return err;
}

int rf_tools_recover(const char *in, const char *out, struct rf_tools_recover_result *res,
		     const struct rf_tools_log *log)
{
	struct recover rc = { .in = in, .out = out, .log = log, .res = res };
	struct rf_trace_reader *r;
	struct rf_outfile of;
	int err;

	memset(res, 0, sizeof(*res));
	err = old_index(&rc);
	if (err)
		return err;
	r = rf_tools_open(log, in, RF_READ_NO_INDEX | RF_READ_SKIP_DAMAGED);
	if (!r)
		return RF_ERR_IO;
	if (tools_out_open(&of, out, log)) {
		rf_trace_reader_close(r);
		return RF_ERR_IO;
	}
	err = write_out(&rc, r, &of);
	res->file_size = rf_trace_reader_file_size(r);
	rf_trace_reader_close(r);
	if (err || !res->good_chunks) {
		tools_out_discard(&of);
		if (!err)
			tools_err(log, "%s: no good chunk found: nothing to recover", in);
		return err ? err : RF_ERR_CORRUPT;
	}
	return tools_out_commit(&of, log) ? RF_ERR_IO : 0;
}
