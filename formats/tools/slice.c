/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace slice`: the selected events of a trace, as a new trace that
 * replays on its own.
 *
 * Before the time range, the events that name things or set up state are
 * kept (see keeps_state()), so that the slice knows its files, cgroups,
 * processes and mappings.  Chunks that lie wholly inside the range are
 * copied verbatim when no per-event filter applies; others are decoded and
 * their selected events re-encoded.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/trace/trace-local.h"

static const char verb[] = "trace slice";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace slice TRACE -o OUT [--from T] [--to T] [--pid P] [--cgroup ID]\n"
		"                           [--type T[,T...]] [--class C[,C...]]\n\n"
		"Write the events of TRACE selected as in 'refault trace dump' to a new trace OUT.\n"
		"State that precedes the range is kept so that OUT replays on its own: name_file,\n"
		"name_pid, name_stack, name_frame, cgroup_mkdir/rmdir/attach/limit (all of them),\n"
		"and fork, exec, exit, mmap, munmap, madvise (of the selected pid/cgroup, if one\n"
		"is given).\n"
		"Inside the range only the selected events are kept.\n\n"
		"  -o, --output OUT  the new trace (required)\n"
		"  --from T, --to T  time range: seconds on the trace clock as dump prints them,\n"
		"                    or \"+2s\" from the first event\n"
		"  --pid P, --cgroup ID, --type T,..., --class C,...  as in dump\n\n"
		"Exit status: 0 success, 1 bad data or I/O error (OUT then holds the events before\n"
		"the damage), 2 bad command line.\n");
}

enum { OPT_FILTER = 256 };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "output", required_argument, NULL, 'o' },
	TRACE_FILTER_LONGOPTS(OPT_FILTER),
	{ NULL, 0, NULL, 0 },
};

struct slice {
	const char *in;
	const char *out;
	struct trace_filter filter;
	uint64_t kept;
	uint64_t state_kept;
	uint64_t copied_chunks;
	bool out_failed;		/* the writer failed: the output is of no use */
};

/* Naming and set-up events that precede the range and the slice needs (.slice of the type). */
static bool keeps_state(const struct trace_filter *f, const struct rf_event *ev)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);

	if (!ti)
		return false;
	return ti->slice == RF_SLICE_STATE ||
	       (ti->slice == RF_SLICE_TASK_STATE && trace_filter_match_task(f, ev));
}

static bool chunk_inside(const struct slice *s, const struct rf_event_batch *b)
{
	struct rf_chunk_info ci;

	if (trace_filter_per_event(&s->filter))
		return false;
	rf_event_batch_summary(b, &ci);
	return b->nr && ci.t_first >= s->filter.from && ci.t_last <= s->filter.to;
}

static int slice_batch(struct slice *s, struct rf_trace_writer *w, const struct rf_frame *f,
		       const struct rf_event_batch *b)
{
	size_t i;
	int err;

	if (chunk_inside(s, b)) {
		s->copied_chunks++;
		s->kept += b->nr;
		return rf_trace_writer_copy_chunk(w, f->data, f->size, b);
	}
	for (i = 0; i < b->nr; i++) {
		const struct rf_event *ev = &b->events[i];
		bool keep;

		err = trace_filter_learn(&s->filter, ev);
		if (err)
			return err;
		keep = trace_filter_match(&s->filter, ev);
		if (!keep && ev->time < s->filter.from && keeps_state(&s->filter, ev)) {
			keep = true;
			s->state_kept++;
		}
		if (!keep)
			continue;
		err = rf_trace_writer_append(w, ev);
		if (err)
			return err;
		s->kept++;
	}
	return 0;
}

/* A chunk that starts after --to can hold nothing for the slice. */
static bool after_range(const struct slice *s, const struct rf_chunk_info *chunks, long n,
			const struct rf_frame *f)
{
	return f->ordinal < (uint64_t)n && chunks[f->ordinal].offset == f->offset &&
	       chunks[f->ordinal].t_first > s->filter.to;
}

static int copy(struct slice *s, struct rf_trace_reader *r, struct rf_trace_writer *w)
{
	const struct rf_chunk_info *chunks = NULL;
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	long n = 0;
	int err;

	if (s->filter.to_arg)
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
			rf_err(verb, "%s: chunk %" PRIu64 " at offset %" PRIu64 ": %s", s->in,
			       f.ordinal, f.offset, rf_chunk_decoder_errmsg(d));
			break;
		}
		err = slice_batch(s, w, &f, &b);
		if (err) {
			rf_err(verb, "%s: %s", s->out, *rf_trace_writer_errmsg(w) ?
			       rf_trace_writer_errmsg(w) : rf_strerror(err));
			s->out_failed = true;
			break;
		}
	}
	if (err < 0 && err != RF_ERR_NOMEM && !*rf_chunk_decoder_errmsg(d) &&
	    *rf_trace_reader_errmsg(r))
		rf_err(verb, "%s: %s", s->in, rf_trace_reader_errmsg(r));
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	return err;
}

static int run(struct slice *s)
{
	struct rf_trace_reader *r = trace_open(verb, s->in, 0);
	struct rf_trace_writer *w = NULL;
	struct rf_outfile of;
	int err;

	if (!r)
		return RF_EXIT_FAILURE;
	if (trace_filter_resolve(&s->filter, verb, r)) {
		rf_trace_reader_close(r);
		return RF_EXIT_USAGE;
	}
	if (out_file_open(&of, s->out, verb)) {
		rf_trace_reader_close(r);
		return RF_EXIT_FAILURE;
	}
	err = rf_trace_writer_fdopen(&w, of.fd, rf_trace_reader_header(r), NULL);
	if (err)
		rf_err(verb, "%s: %s", s->out, w ? rf_trace_writer_errmsg(w) : rf_strerror(err));
	else
		err = copy(s, r, w);
	rf_trace_reader_close(r);
	/* after damage in the input, OUT still gets the events before it */
	if (w) {
		int cerr = rf_trace_writer_close(w);

		if (cerr) {
			rf_err(verb, "%s: cannot write the index: %s", s->out, rf_strerror(cerr));
			err = err ? err : cerr;
			s->out_failed = true;
		}
	}
	/* the output's own failure, or memory: what it holds is of no use (damage is another thing) */
	if (!w || s->out_failed || err == RF_ERR_NOMEM) {
		out_file_discard(&of);
		return RF_EXIT_FAILURE;
	}
	/* damaged input: OUT gets the events before it, and the file it replaces is kept */
	if (err)
		of.flags |= RF_OUTFILE_KEEP_OLD;
	if (out_file_commit(&of, verb))
		return RF_EXIT_FAILURE;
	fprintf(stderr, "%s: %" PRIu64 " events kept (%" PRIu64 " of them state before the "
		"range, %" PRIu64 " chunks copied verbatim)\n", s->out, s->kept, s->state_kept,
		s->copied_chunks);
	return err ? RF_EXIT_FAILURE : RF_EXIT_OK;
}

int trace_slice(int argc, char **argv)
{
	struct slice s = { 0 };
	bool first = true;
	int c, idx, status = -1;

	trace_filter_init(&s.filter);
	while (status < 0 &&
	       (c = rf_getopt(verb, argc, argv, ":ho:", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			status = RF_EXIT_OK;
		} else if (c == 'o') {
			s.out = optarg;
		} else if (c != OPT_FILTER ||
			   trace_filter_option(&s.filter, verb, longopts[idx].name, optarg) < 0) {
			status = RF_EXIT_USAGE;
		}
	}
	if (status < 0) {
		s.in = trace_operand(verb, argc, argv);
		if (!s.in)
			status = RF_EXIT_USAGE;
	}
	if (status < 0 && !s.out)
		status = rf_usage_error(verb, "-o OUT is required");
	if (status < 0) {
		if (same_file(s.in, s.out))
			status = rf_usage_error(verb, "OUT must not be TRACE");
		else
			status = run(&s);
	}
	trace_filter_free(&s.filter);
	return status;
}
