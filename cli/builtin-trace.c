/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace`: inspect, verify, slice, recover and convert traces.
 * This file only dispatches; each subcommand lives in cli/trace/<sub>.c.
 */
#include <string.h>

#include "cli/builtin.h"
#include "cli/trace/trace-local.h"

struct trace_sub {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct trace_sub subs[] = {
	{ "info", trace_info, "header, duration, event counts, chunks, bytes/event, lost events" },
	{ "dump", trace_dump, "print events as text or JSON lines, with filters" },
	{ "verify", trace_verify, "check every frame, checksum and index; exit 0 only if whole" },
	{ "slice", trace_slice, "write the events of a time range, pid or cgroup to a new trace" },
	{ "recover", trace_recover, "rebuild a truncated or damaged trace from its good chunks" },
	{ "convert", trace_convert, "convert between trace, jsonl, oracleGeneral and csv" },
};

#define NR_SUBS ARRAY_SIZE(subs)

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: refault trace <subcommand> [<args>]\n\nsubcommands:\n");
	for (i = 0; i < NR_SUBS; i++)
		fprintf(out, "   %-9s %s\n", subs[i].name, subs[i].summary);
	fprintf(out, "\n'refault trace <subcommand> --help' describes one.\n"
		     "Exit status: 0 success, 1 bad data or I/O error, 2 bad command line.\n");
}

int cmd_trace(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return RF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return RF_EXIT_OK;
	}
	for (i = 0; i < NR_SUBS; i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return rf_usage_error("trace", "unknown option '%s'", argv[1]);
	rf_err("trace", "'%s' is not a trace subcommand. See 'refault trace --help'.", argv[1]);
	return RF_EXIT_USAGE;
}
