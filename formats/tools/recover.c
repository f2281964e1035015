/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace recover`: rebuild a truncated or damaged trace.
 *
 * The frames are walked without the index (RF_READ_NO_INDEX), skipping
 * damage (RF_READ_SKIP_DAMAGED: past a bad frame the reader looks for the
 * next zstd magic number); every chunk that decompresses with a good
 * checksum and decodes is copied verbatim into a new trace, which gets a
 * fresh index and footer.  What could not be kept is reported.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/trace/trace-local.h"

#define MAX_REPORTS 50

static const char verb[] = "trace recover";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace recover TRACE [-o OUT]\n\n"
		"Write a new trace with every good chunk of TRACE copied verbatim and a fresh\n"
		"index, for a trace whose writer was killed (no index) or that is damaged\n"
		"(truncated, bit flips).  Damaged chunks are skipped and reported with their\n"
		"chunk number and offset, as are the bytes after the last good chunk.\n\n"
		"  -o, --output OUT   where to write (default: TRACE.recovered)\n\n"
		"Exit status: 0 at least one chunk was recovered, 1 nothing could be recovered\n"
		"or I/O error, 2 bad command line.\n");
}

struct recover {
	const char *in;
	const char *out;
	uint64_t good_chunks;
	uint64_t good_events;
	uint64_t bad_frames;
	uint64_t bad_bytes;	/* sizes of the frames that failed to decode */
	uint64_t good_end;	/* end of the last good chunk */
	bool had_index;		/* TRACE ends with a sound index and footer */
	uint64_t indexed_events;	/* events the old index lists */
};

static void report(struct recover *rc, const char *fmt, const char *msg)
{
	if (rc->bad_frames < MAX_REPORTS)
		rf_err(verb, fmt, rc->in, msg);
	else if (rc->bad_frames == MAX_REPORTS)
		rf_err(verb, "%s: more damage not shown", rc->in);
	rc->bad_frames++;
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
			report(rc, "%s: skipped: %s", rf_trace_reader_errmsg(r));
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
			report(rc, "%s: skipped: %s", msg);
			rc->bad_bytes += f.size;
			continue;
		}
		err = rf_trace_writer_copy_chunk(w, f.data, f.size, &b);
		if (err) {
			rf_err(verb, "%s: %s", rc->out, rf_trace_writer_errmsg(w));
			break;
		}
		rc->good_chunks++;
		rc->good_events += b.nr;
		rc->good_end = f.offset + f.size;
	}
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	return err;
}

static int run(struct recover *rc)
{
	struct rf_trace_reader *r;
	struct rf_trace_writer *w = NULL;
	struct rf_outfile of;
	uint64_t size;
	int err;

	r = trace_open(verb, rc->in, 0);
	if (!r)
		return RF_EXIT_FAILURE;
	rc->had_index = rf_trace_reader_has_index(r);
	if (rc->had_index) {
		const struct rf_chunk_info *chunks;
		long i, n = rf_trace_reader_chunks(r, &chunks);

		for (i = 0; i < n; i++)
			rc->indexed_events += chunks[i].nr_events;
	}
	rf_trace_reader_close(r);
	r = trace_open(verb, rc->in, RF_READ_NO_INDEX | RF_READ_SKIP_DAMAGED);
	if (!r)
		return RF_EXIT_FAILURE;
	if (out_file_open(&of, rc->out, verb)) {
		rf_trace_reader_close(r);
		return RF_EXIT_FAILURE;
	}
	err = rf_trace_writer_fdopen(&w, of.fd, rf_trace_reader_header(r), NULL);
	if (err)
		rf_err(verb, "%s: %s", rc->out, w ? rf_trace_writer_errmsg(w) : rf_strerror(err));
	if (!err)
		err = copy_chunks(rc, r, w);
	if (err == RF_ERR_NOMEM)
		rf_err(verb, "out of memory");
	if (w) {
		int cerr = rf_trace_writer_close(w);

		if (cerr && !err) {
			rf_err(verb, "%s: cannot write the index: %s", rc->out, rf_strerror(cerr));
			err = cerr;
		}
	}
	size = rf_trace_reader_file_size(r);
	rf_trace_reader_close(r);
	if (err || !rc->good_chunks) {
		out_file_discard(&of);
		if (!err)
			rf_err(verb, "%s: no good chunk found: nothing to recover", rc->in);
		return RF_EXIT_FAILURE;
	}
	if (out_file_commit(&of, verb))
		return RF_EXIT_FAILURE;
	printf("%s: recovered %" PRIu64 " chunks, %" PRIu64 " events into %s\n", rc->in,
	       rc->good_chunks, rc->good_events, rc->out);
	printf("%s: %" PRIu64 " damaged frames skipped (%" PRIu64 " bytes of whole bad chunks)\n",
	       rc->in, rc->bad_frames, rc->bad_bytes);
	printf("%s: %" PRIu64 " bytes after the last good chunk (offset %" PRIu64 ") %s\n", rc->in,
	       size - rc->good_end, rc->good_end, rc->had_index ?
	       "hold the old index and footer, rebuilt" : "not recovered");
	if (rc->had_index)
		printf("%s: %" PRIu64 " of the %" PRIu64 " events the old index lists were lost\n",
		       rc->in, rc->indexed_events - (rc->good_events < rc->indexed_events ?
						     rc->good_events : rc->indexed_events),
		       rc->indexed_events);
	return RF_EXIT_OK;
}

int trace_recover(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct recover rc = { 0 };
	char *def = NULL;
	bool first = true;
	int c, idx, status;

	while ((c = rf_getopt(verb, argc, argv, ":ho:", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return RF_EXIT_OK;
		}
		if (c != 'o')
			return RF_EXIT_USAGE;
		rc.out = optarg;
	}
	rc.in = trace_operand(verb, argc, argv);
	if (!rc.in)
		return RF_EXIT_USAGE;
	if (!rc.out) {
		size_t len = strlen(rc.in) + sizeof(".recovered");

		def = malloc(len);
		if (!def) {
			rf_err(verb, "out of memory");
			return RF_EXIT_FAILURE;
		}
		snprintf(def, len, "%s.recovered", rc.in);
		rc.out = def;
	}
	if (same_file(rc.in, rc.out) || !strcmp(rc.out, "-")) {
		free(def);
		return rf_usage_error(verb, "OUT must be a new file, not TRACE or '-'");
	}
	status = run(&rc);
	free(def);
	return status;
}
