/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace verify`: its options and verdict; formats/tools/verify.c checks the trace. */
#include <getopt.h>
#include <inttypes.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/verify.h"

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

int trace_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct rf_tools_verify_result res;
	struct rf_tools_log log;
	const char *path;
	bool first = true, quiet = false;
	int c, idx, rc;

	while ((c = rf_getopt(verb, argc, argv, ":hq", longopts, &idx, &first)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return RF_EXIT_OK;
		}
		if (c != 'q')
			return RF_EXIT_USAGE;
		quiet = true;
	}
	path = trace_operand(verb, argc, argv);
	if (!path)
		return RF_EXIT_USAGE;
	/* -q: the problems are not shown; an error that leaves no verdict is */
	log = trace_log(verb, quiet);
	rc = rf_tools_verify(path, &res, &log);
	if (res.incomplete)
		return RF_EXIT_FAILURE;
	if (rc || res.problems) {
		if (!quiet)
			fprintf(stderr, "%s: NOT whole: %" PRIu64 " problem%s, %zu good chunks "
				"(%" PRIu64 " events)\n", path, res.problems,
				res.problems == 1 ? "" : "s", res.good_chunks, res.events);
		return RF_EXIT_FAILURE;
	}
	if (!quiet)
		printf("%s: whole: %" PRIu64 " chunks, %" PRIu64 " events, index matches\n", path,
		       res.chunks, res.events);
	return RF_EXIT_OK;
}
