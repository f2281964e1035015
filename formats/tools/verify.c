/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace verify`: check every frame of a trace (verify.h).  The
 * frames are walked by a second reader, RF_READ_NO_INDEX | SKIP_DAMAGED.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/tools-local.h"
#include "formats/tools/verify.h"
#include "lib/grow.h"

#define MAX_REPORTS 50

struct verify {
	const char *path;
	const struct rf_tools_log *log;
	struct rf_tools_verify_result *res;
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

/*
 * A problem: said in a note "PATH: ...", the first MAX_REPORTS of them.  The
 * text holds at most a reader's, decoder's or index's message (under 1 KiB)
 * and numbers.
 */
static void __attribute__((format(printf, 2, 3))) problem(struct verify *v, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	if (v->res->problems < MAX_REPORTS) {
		va_start(ap, fmt);
		vsnprintf(text, sizeof(text), fmt, ap);
		va_end(ap);
		tools_note(v->log, "%s: %s", v->path, text);
	} else if (v->res->problems == MAX_REPORTS) {
		tools_note(v->log, "%s: more problems not shown", v->path);
	}
	v->res->problems++;
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
		v->res->chunks++;
		rc = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (rc == RF_ERR_NOMEM) {
			/* no verdict on the trace: it could not be read to the end */
			tools_err(v->log, "%s: chunk %" PRIu64 " at offset %" PRIu64 ": %s", v->path,
				  f.ordinal, f.offset, rf_chunk_decoder_errmsg(d));
			v->res->incomplete = true;
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
		v->res->events += b.nr;
		describe(&ci, &f, &b);
		rc = remember(v, &ci);
	}
	if (rc < 0 && !v->res->incomplete)
		tools_err(v->log, "%s: %s", v->path, rf_strerror(rc));
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

int rf_tools_verify(const char *path, struct rf_tools_verify_result *res,
		    const struct rf_tools_log *log)
{
	struct verify v = { .path = path, .log = log, .res = res };
	int rc;

	memset(res, 0, sizeof(*res));
	rc = walk(&v);
	if (!rc)
		rc = check_index(&v);
	res->good_chunks = v.nr_found;
	free(v.found);
	return rc;
}
