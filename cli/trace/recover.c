/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace recover`: its options and what it recovered; formats/tools/recover.c recovers. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/trace/trace-local.h"
#include "formats/tools/recover.h"

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

static int run(const char *in, const char *out)
{
	struct rf_tools_log log = trace_log(verb, false);
	struct rf_tools_recover_result res;
	uint64_t lost;

	if (rf_tools_recover(in, out, &res, &log))
		return RF_EXIT_FAILURE;
	printf("%s: recovered %" PRIu64 " chunks, %" PRIu64 " events into %s\n", in,
	       res.good_chunks, res.good_events, out);
	printf("%s: %" PRIu64 " damaged frames skipped (%" PRIu64 " bytes of whole bad chunks)\n",
	       in, res.bad_frames, res.bad_bytes);
	printf("%s: %" PRIu64 " bytes after the last good chunk (offset %" PRIu64 ") %s\n", in,
	       res.file_size - res.good_end, res.good_end, res.had_index ?
	       "hold the old index and footer, rebuilt" : "not recovered");
	lost = res.indexed_events - (res.good_events < res.indexed_events ? res.good_events :
				     res.indexed_events);
	if (res.had_index)
		printf("%s: %" PRIu64 " of the %" PRIu64 " events the old index lists were lost\n",
		       in, lost, res.indexed_events);
	return RF_EXIT_OK;
}

int trace_recover(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in, *out = NULL;
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
		out = optarg;
	}
	in = trace_operand(verb, argc, argv);
	if (!in)
		return RF_EXIT_USAGE;
	if (!out) {
		size_t len = strlen(in) + sizeof(".recovered");

		def = malloc(len);
		if (!def) {
			rf_err(verb, "out of memory");
			return RF_EXIT_FAILURE;
		}
		snprintf(def, len, "%s.recovered", in);
		out = def;
	}
	if (trace_same_file(in, out) || !strcmp(out, "-")) {
		free(def);
		return rf_usage_error(verb, "OUT must be a new file, not TRACE or '-'");
	}
	status = run(in, out);
	free(def);
	return status;
}
