/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the `refault trace` subcommands share: the operand, the library's messages. */
#include <getopt.h>
#include <sys/stat.h>

#include "cli/trace/trace-local.h"

const char *trace_operand(const char *verb, int argc, char **argv)
{
	if (optind == argc - 1)
		return argv[optind];
	rf_usage_error(verb, optind >= argc ? "no TRACE given" : "one TRACE only");
	return NULL;
}

bool trace_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A note after what standard output holds so far, as rf_err() does for errors. */
static void say(void *verb, enum rf_tools_say kind, const char *text)
{
	if (kind == RF_TOOLS_ERROR) {
		rf_err(verb, "%s", text);
		return;
	}
	fflush(stdout);
	fprintf(stderr, "%s\n", text);
}

static void say_errors(void *verb, enum rf_tools_say kind, const char *text)
{
	if (kind == RF_TOOLS_ERROR)
		rf_err(verb, "%s", text);
}

struct rf_tools_log trace_log(const char *verb, bool quiet)
{
	struct rf_tools_log log = { quiet ? say_errors : say, (void *)verb };

	return log;
}
