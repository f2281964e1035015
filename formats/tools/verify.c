/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace verify`: check every frame of a trace.
 *
 * The header is checked by opening the trace; then the frames are walked
 * without the index (a second reader, RF_READ_NO_INDEX | SKIP_DAMAGED), every
 * chunk is decompressed (zstd content checksum) and decoded, and what the
 * chunks hold is compared with what the index says of them.  A trace is
 * whole when all of that holds and the index and footer are present.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/trace/trace-local.h"
#include "lib/grow.h"

#define MAX_REPORTS 50

static const char verb[] = "trace verify";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace verify TRACE [-q]\n\n"
		"Check every frame of TRACE: the header, that every chunk decompresses with a\n"
		"matching checksum and decodes, that the index matches what the chunks hold\n"
		"(offset, size, sequence number, first/last time, event counts), and that the\n"
		"index and footer are present.  Problems are printed with chunk number and file\n"
		"offset.\n\n"
		"  -q, --quiet   print nothing; the exit status says it all\n\n"
		"Exit status: 0 the trace is whole, 1 it is not (or cannot be read),\n"
		"2 bad command line.\n");
}

struct verify {
	const char *path;
	bool quiet;
	uint64_t problems;
	bool incomplete;		/* out of memory: no verdict */
	uint64_t chunks;
	uint64_t events;
	struct rf_chunk_info *found;	/* what the walk found, for the index check */
	size_t nr_found;
	size_t cap_found;
	uint64_t damaged[MAX_REPORTS];	/* offsets of chunks that failed to decode */
	size_t nr_damaged;
};

static bool known_damaged(const struct verify *v, uint64_t off)
{
	size_t i;

	for (i = 0; i < v->nr_damaged; i++)
		if (v->damaged[i] == off)
			return true;
	return false;
}

static void __attribute__((format(printf, 2, 3))) problem(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	if (!v->quiet && v->problems < MAX_REPORTS) {
		fflush(stdout);
		fprintf(stderr, "%s: ", v->path);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	} else if (!v->quiet && v->problems == MAX_REPORTS) {
		fprintf(stderr, "%s: more problems not shown\n", v->path);
	}
	v->problems++;
}

/* Open @v->path; a header that does not read is a problem like any other. */
static struct rf_trace_reader *verify_open(struct verify *v, unsigned int flags)
{
	struct rf_trace_reader *r = NULL;
	int err = rf_trace_reader_open(&r, v->path, flags);

	if (!err)
		return r;
	problem(v, "%s", r && *rf_trace_reader_errmsg(r) ? rf_trace_reader_errmsg(r) :
		rf_strerror(err));
	rf_trace_reader_close(r);
	return NULL;
}

static int remember(struct verify *v, const struct rf_chunk_info *ci)
{
	if (RF_GROW(v->found, v->cap_found, v->nr_found + 1))
		return RF_ERR_NOMEM;
	v->found[v->nr_found++] = *ci;
	return 0;
}

static void describe(struct rf_chunk_info *ci, const struct rf_frame *f,
		     const struct rf_event_batch *b)
{
	ci->offset = f->offset;
	ci->size = f->size;
	rf_event_batch_summary(b, ci);
	if (!b->nr)
		ci->t_first = 0;
}

/* Walk and decode every chunk frame. */
static int walk(struct verify *v)
{
	struct rf_trace_reader *r = verify_open(v, RF_READ_NO_INDEX | RF_READ_SKIP_DAMAGED);
	struct rf_chunk_decoder *d = NULL;
	struct rf_event_batch b;
	struct rf_chunk_info ci;
	struct rf_frame f;
	int rc;

	if (!r)
		return RF_ERR_IO;
	rf_event_batch_init(&b);
	rc = rf_chunk_decoder_new(&d);
	while (!rc && (rc = rf_trace_reader_next_frame(r, &f)) != 0) {
		if (rc < 0) {
			/* framing damage; the reader has moved on to the next zstd magic */
			problem(v, "%s", rf_trace_reader_errmsg(r));
			rc = rc == RF_ERR_NOMEM ? rc : 0;
			continue;
		}
		v->chunks++;
		rc = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (rc == RF_ERR_NOMEM) {
			/* no verdict on the trace: it could not be read to the end */
			rf_err(verb, "%s: chunk %" PRIu64 " at offset %" PRIu64 ": %s", v->path,
			       f.ordinal, f.offset, rf_chunk_decoder_errmsg(d));
			v->incomplete = true;
			break;
		}
		if (rc) {
			problem(v, "chunk %" PRIu64 " at offset %" PRIu64 " (%zu bytes): %s",
				f.ordinal, f.offset, f.size, rf_chunk_decoder_errmsg(d));
			rc = 0;
			if (v->nr_damaged < MAX_REPORTS)
				v->damaged[v->nr_damaged++] = f.offset;
			continue;
		}
		v->events += b.nr;
		describe(&ci, &f, &b);
		rc = remember(v, &ci);
	}
	if (rc < 0 && !v->incomplete)
		rf_err(verb, "%s: %s", v->path, rf_strerror(rc));
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	rf_trace_reader_close(r);
	return rc;
}

static void compare_entry(struct verify *v, size_t i, const struct rf_chunk_info *ix,
			  const struct rf_chunk_info *got)
{
	static const char *const names[] = { "offset", "size", "seq", "t_first", "t_last",
					     "nr_events", "nr_refs" };
	const uint64_t a[] = { ix->offset, ix->size, ix->seq, ix->t_first, ix->t_last,
			       ix->nr_events, ix->nr_refs };
	const uint64_t b[] = { got->offset, got->size, got->seq, got->t_first, got->t_last,
			       got->nr_events, got->nr_refs };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(a); k++)
		if (a[k] != b[k])
			problem(v, "index entry %zu (chunk at offset %" PRIu64 "): %s is %" PRIu64
				" in the index but %" PRIu64 " in the chunk", i, got->offset, names[k],
				a[k], b[k]);
}

/* The index (read by a normal open) against the walk. */
static int check_index(struct verify *v)
{
	struct rf_trace_reader *r = verify_open(v, 0);
	const struct rf_chunk_info *ix;
	size_t i, j;
	long n;

	if (!r)
		return RF_ERR_IO;
	if (*rf_trace_reader_index_problem(r))
		problem(v, "index: %s", rf_trace_reader_index_problem(r));
	else if (!rf_trace_reader_has_index(r))
		problem(v, "no index and footer at the end (the writer did not finish?); "
			"'refault trace recover' rebuilds them");
	if (!rf_trace_reader_has_index(r)) {
		rf_trace_reader_close(r);
		return 0;
	}
	n = rf_trace_reader_chunks(r, &ix);
	if (n >= 0 && (size_t)n != v->nr_found)
		problem(v, "index lists %ld chunks, the file holds %zu good ones", n, v->nr_found);
	/* match entries by offset so one missing chunk does not flag all that follow */
	for (i = 0, j = 0; n > 0 && i < (size_t)n; i++) {
		while (j < v->nr_found && v->found[j].offset < ix[i].offset)
			j++;
		if (j < v->nr_found && v->found[j].offset == ix[i].offset)
			compare_entry(v, i, &ix[i], &v->found[j]);
		else if (!known_damaged(v, ix[i].offset))
			problem(v, "index entry %zu points at offset %" PRIu64
				", where no good chunk starts", i, ix[i].offset);
	}
	rf_trace_reader_close(r);
	return 0;
}

int trace_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct verify v = { 0 };
	bool first = true;
	int c, idx, rc;

	while ((c = rf_getopt(verb, argc, argv, ":hq", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return RF_EXIT_OK;
		}
		if (c != 'q')
			return RF_EXIT_USAGE;
		v.quiet = true;
	}
	v.path = trace_operand(verb, argc, argv);
	if (!v.path)
		return RF_EXIT_USAGE;
	rc = walk(&v);
	if (!rc)
		rc = check_index(&v);
	free(v.found);
	if (v.incomplete)
		return RF_EXIT_FAILURE;
	if (rc || v.problems) {
		if (!v.quiet)
			fprintf(stderr, "%s: NOT whole: %" PRIu64 " problem%s, %zu good chunks "
				"(%" PRIu64 " events)\n", v.path, v.problems,
				v.problems == 1 ? "" : "s", v.nr_found, v.events);
		return RF_EXIT_FAILURE;
	}
	if (!v.quiet)
		printf("%s: whole: %" PRIu64 " chunks, %" PRIu64 " events, index matches\n", v.path,
		       v.chunks, v.events);
	return RF_EXIT_OK;
}
