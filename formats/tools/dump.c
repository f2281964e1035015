/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace dump`: print events as text (perf-script-like) or JSON lines, with filters. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/trace/trace-local.h"

static const char verb[] = "trace dump";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault trace dump TRACE [--json] [--type T[,T...]] [--class C[,C...]]\n"
		"                         [--pid P] [--cgroup ID] [--from T] [--to T] [--limit N]\n"
		"                         [--skip-damaged] [--no-names]\n\n"
		"Print the events of TRACE in file order, one per line:\n"
		"  text:  SECONDS.NANOSECONDS [CPU] PID TYPE field=value ... [comm=\"...\"]\n"
		"         [file=\"...\"] [memcg=\"...\"]: the thread's command, the file's path and\n"
		"         the memory cgroup's path, as far as the events read so far named them\n"
		"  --json: one JSON object per line, as 'convert' reads and writes them.\n\n"
		"  --type T,...    only these event types (file_read, anon_fault, access, mmap, ...)\n"
		"  --class C,...   only these classes: reference, state, observation, meta\n"
		"  --pid P         events of process P: its threads, and events naming it\n"
		"  --cgroup ID     events charged to memory cgroup ID or its descendants\n"
		"  --from T        events at or after T (seeks with the index); T is seconds on the\n"
		"                  trace clock as printed (\"12.5\", \"12500ms\"), or \"+2s\" from the\n"
		"                  first event\n"
		"  --to T          events at or before T\n"
		"  --limit N       stop after N events\n"
		"  --skip-damaged  report a damaged chunk and go on with the next one\n"
		"  --no-names      no comm=, file=, memcg= (and --from seeks: names are learnt from\n"
		"                  the events before it, so with them --from reads from the start)\n\n"
		"On damage, the events before it are printed, then the error (chunk and offset);\n"
		"the exit status is then 1, with --skip-damaged too.\n"
		"Exit status: 0 success, 1 bad data or I/O error, 2 bad command line.\n");
}

enum { OPT_JSON = 256, OPT_LIMIT, OPT_SKIP, OPT_NO_NAMES, OPT_FILTER };

static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "skip-damaged", no_argument, NULL, OPT_SKIP },
	{ "no-names", no_argument, NULL, OPT_NO_NAMES },
	TRACE_FILTER_LONGOPTS(OPT_FILTER),
	{ NULL, 0, NULL, 0 },
};

struct dump_opts {
	const char *path;
	bool json;
	bool skip_damaged;
	bool no_names;
	uint64_t limit;
	struct trace_filter filter;
};

/* Returns -1 to go on, or an exit status. */
static int parse(struct dump_opts *o, int argc, char **argv)
{
	bool first = true;
	int c, idx;

	o->limit = UINT64_MAX;
	while ((c = rf_getopt(verb, argc, argv, ":h", longopts, &idx, &first)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return RF_EXIT_OK;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_SKIP:
			o->skip_damaged = true;
			break;
		case OPT_NO_NAMES:
			o->no_names = true;
			break;
		case OPT_LIMIT:
			if (rf_parse_u64(optarg, &o->limit))
				return rf_usage_error(verb, "--limit needs a number");
			break;
		case OPT_FILTER:
			if (trace_filter_option(&o->filter, verb, longopts[idx].name, optarg) < 0)
				return RF_EXIT_USAGE;
			break;
		default:
			return RF_EXIT_USAGE;
		}
	}
	o->path = trace_operand(verb, argc, argv);
	return o->path ? -1 : RF_EXIT_USAGE;
}

/*
 * Where to start and which chunk is the last that may hold events up to
 * --to.  Seeking skips the events before --from, so it is only done when
 * no pid or cgroup filter, and no names (text without --no-names), need to learn from them.
 */
static int position(struct dump_opts *o, struct rf_trace_reader *r, uint64_t *first_chunk,
		    uint64_t *last_chunk)
{
	const struct rf_chunk_info *chunks;
	bool seek = o->filter.from_arg && !o->filter.by_pid && !o->filter.by_cgroup &&
		    (o->json || o->no_names);
	long n = 0, i;

	*first_chunk = 0;
	*last_chunk = UINT64_MAX;
	if (!seek && !o->filter.to_arg)
		return 0;
	n = rf_trace_reader_chunks(r, &chunks);
	if (n < 0)
		return (int)n;
	if (o->filter.to_arg) {
		*last_chunk = 0;
		for (i = 0; i < n; i++)
			if (chunks[i].t_first <= o->filter.to)
				*last_chunk = (uint64_t)i;
	}
	if (!seek)
		return 0;
	for (i = 0; i < n && chunks[i].t_last < o->filter.from; i++)
		;
	*first_chunk = (uint64_t)i;
	return rf_trace_reader_seek_time(r, o->filter.from);
}

static int run(struct dump_opts *o, struct rf_trace_reader *r, struct trace_names *names)
{
	struct rf_reader_stats st;
	uint64_t first_chunk, last_chunk, base, printed = 0;
	struct rf_event ev;
	int rc, err = 0;
	bool damaged = false;

	if (trace_filter_resolve(&o->filter, verb, r))
		return RF_EXIT_USAGE;
	rc = position(o, r, &first_chunk, &last_chunk);
	if (rc < 0) {
		rf_err(verb, "%s: %s", o->path, rf_trace_reader_errmsg(r));
		return RF_EXIT_FAILURE;
	}
	rf_trace_reader_stats(r, &st);
	base = st.chunks_read;
	while (printed < o->limit && (rc = rf_trace_reader_next(r, &ev)) != 0) {
		if (rc < 0 && o->skip_damaged && rc != RF_ERR_NOMEM && rc != RF_ERR_STATE) {
			/* the reader goes on with the next chunk */
			rf_err(verb, "%s: skipped: %s", o->path, rf_trace_reader_errmsg(r));
			damaged = true;
			continue;
		}
		if (rc < 0)
			break;
		if (last_chunk != UINT64_MAX) {
			rf_trace_reader_stats(r, &st);
			/* the event came from the chunk opened last */
			if (first_chunk + (st.chunks_read - base) - 1 > last_chunk)
				break;
		}
		err = trace_filter_learn(&o->filter, &ev);
		if (!err && names)
			err = trace_names_learn(names, &ev);
		if (err)
			break;
		if (!trace_filter_match(&o->filter, &ev))
			continue;
		if (o->json)
			err = trace_print_event_json(stdout, &ev, true);
		else
			err = trace_print_event(stdout, &ev, names);
		if (err)
			break;
		printed++;
	}
	if (err) {
		rf_err(verb, "%s", rf_strerror(err));
		return RF_EXIT_FAILURE;
	}
	if (rc < 0) {
		rf_err(verb, "%s: %s", o->path,
		       *rf_trace_reader_errmsg(r) ? rf_trace_reader_errmsg(r) : rf_strerror(rc));
		return RF_EXIT_FAILURE;
	}
	return damaged ? RF_EXIT_FAILURE : RF_EXIT_OK;
}

int trace_dump(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	struct trace_names names = { 0 };
	struct rf_trace_reader *r;
	int status;

	trace_filter_init(&o.filter);
	status = parse(&o, argc, argv);
	if (status >= 0)
		goto out;
	r = trace_open(verb, o.path, o.skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (!r) {
		status = RF_EXIT_FAILURE;
		goto out;
	}
	status = run(&o, r, o.json || o.no_names ? NULL : &names);
	trace_names_free(&names);
	rf_trace_reader_close(r);
out:
	trace_filter_free(&o.filter);
	return status;
}
