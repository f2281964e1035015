/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace dump`: its options; formats/tools/dump.c prints the events. */
#include <getopt.h>
#include <stdlib.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/dump.h"

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

/* Returns -1 to go on, or an exit status. */
static int parse(struct rf_tools_dump_opts *o, const struct rf_tools_log *log, int argc,
		 char **argv)
{
	bool first = true;
	int c, idx;

	o->limit = UINT64_MAX;
	o->names = true;
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
			o->names = false;
			break;
		case OPT_LIMIT:
			if (rf_parse_u64(optarg, &o->limit))
				return rf_usage_error(verb, "--limit needs a number");
			break;
		case OPT_FILTER:
			if (rf_tools_filter_option(o->filter, log, longopts[idx].name, optarg) < 0)
				return RF_EXIT_USAGE;
			break;
		default:
			return RF_EXIT_USAGE;
		}
	}
	o->path = trace_operand(verb, argc, argv);
	return o->path ? -1 : RF_EXIT_USAGE;
}

static int run(const struct rf_tools_dump_opts *o, const struct rf_tools_log *log)
{
	struct rf_trace_reader *r;
	bool damaged;
	int status;

	r = rf_tools_open(log, o->path, o->skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (!r)
		return RF_EXIT_FAILURE;
	if (rf_tools_filter_resolve(o->filter, log, r))
		status = RF_EXIT_USAGE;
	else if (rf_tools_dump(r, o, stdout, log, &damaged) || damaged)
		status = RF_EXIT_FAILURE;
	else
		status = RF_EXIT_OK;
	rf_trace_reader_close(r);
	return status;
}

int trace_dump(int argc, char **argv)
{
	struct rf_tools_log log = trace_log(verb, false);
	struct rf_tools_filter filter;
	struct rf_tools_dump_opts o = { .filter = &filter };
	int status;

	rf_tools_filter_init(&filter);
	status = parse(&o, &log, argc, argv);
	if (status < 0)
		status = run(&o, &log);
	rf_tools_filter_free(&filter);
	return status;
}
