/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace slice`: its options and what it wrote; formats/tools/slice.c slices. */
#include <getopt.h>
#include <inttypes.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/slice.h"

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

static int run(const char *in, const char *out, struct rf_tools_filter *f,
	       const struct rf_tools_log *log)
{
	struct rf_tools_slice_result res;
	struct rf_trace_reader *r;
	int err;

	r = rf_tools_open(log, in, 0);
	if (!r)
		return RF_EXIT_FAILURE;
	if (rf_tools_filter_resolve(f, log, r)) {
		rf_trace_reader_close(r);
		return RF_EXIT_USAGE;
	}
	err = rf_tools_slice(r, in, out, f, &res, log);
	rf_trace_reader_close(r);
	/* after damage in the input too, OUT holds the events before it */
	if (res.written)
		fprintf(stderr, "%s: %" PRIu64 " events kept (%" PRIu64 " of them state before the "
			"range, %" PRIu64 " chunks copied verbatim)\n", out, res.kept,
			res.state_kept, res.copied_chunks);
	return err ? RF_EXIT_FAILURE : RF_EXIT_OK;
}

int trace_slice(int argc, char **argv)
{
	struct rf_tools_log log = trace_log(verb, false);
	struct rf_tools_filter filter;
	const char *in = NULL, *out = NULL;
	bool first = true;
	int c, idx, status = -1;

	rf_tools_filter_init(&filter);
	while (status < 0 &&
	       (c = rf_getopt(verb, argc, argv, ":ho:", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			status = RF_EXIT_OK;
		} else if (c == 'o') {
			out = optarg;
		} else if (c != OPT_FILTER ||
			   rf_tools_filter_option(&filter, &log, longopts[idx].name, optarg) < 0) {
			status = RF_EXIT_USAGE;
		}
	}
	if (status < 0) {
		in = trace_operand(verb, argc, argv);
		if (!in)
			status = RF_EXIT_USAGE;
	}
	if (status < 0 && !out)
		status = rf_usage_error(verb, "-o OUT is required");
	if (status < 0) {
		if (trace_same_file(in, out))
			status = rf_usage_error(verb, "OUT must not be TRACE");
		else
			status = run(in, out, &filter, &log);
	}
	rf_tools_filter_free(&filter);
	return status;
}
