/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the `refault trace` subcommands share: opening traces, output files. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/trace/trace-local.h"

const char *trace_operand(const char *verb, int argc, char **argv)
{
	if (optind == argc - 1)
		return argv[optind];
	rf_usage_error(verb, optind >= argc ? "no TRACE given" : "one TRACE only");
	return NULL;
}

struct rf_trace_reader *trace_open(const char *verb, const char *path, unsigned int flags)
{
	struct rf_trace_reader *r = NULL;
	int err = rf_trace_reader_open(&r, path, flags);

	if (!err)
		return r;
	if (r && *rf_trace_reader_errmsg(r))
		rf_err(verb, "%s: %s", path, rf_trace_reader_errmsg(r));
	else
		rf_err(verb, "%s: %s", path, rf_strerror(err));
	rf_trace_reader_close(r);
	return NULL;
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int out_file_open(struct rf_outfile *o, const char *path, const char *verb)
{
	char msg[1024];

	if (rf_outfile_open(o, path, 0, msg, sizeof(msg))) {
		rf_err(verb, "%s", msg);
		return -1;
	}
	return 0;
}

FILE *out_file_stdio(struct rf_outfile *o, const char *verb)
{
	FILE *fp = rf_outfile_stdio(o);

	if (!fp)
		rf_err(verb, "%s: %s", o->path ? o->path : "standard output", strerror(errno));
	return fp;
}

int out_file_commit(struct rf_outfile *o, const char *verb)
{
	char msg[1024];

	if (rf_outfile_commit(o, msg, sizeof(msg))) {
		rf_err(verb, "%s", msg);
		return -1;
	}
	return 0;
}

void out_file_discard(struct rf_outfile *o)
{
	rf_outfile_abandon(o);
}
