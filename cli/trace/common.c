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

int out_file_open(struct out_file *o, const char *path, const char *verb)
{
	size_t len = strlen(path);

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!strcmp(path, "-")) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->path = strdup(path);
	o->tmp = malloc(len + 16);
	if (!o->path || !o->tmp) {
		rf_err(verb, "out of memory");
		goto fail;
	}
	snprintf(o->tmp, len + 16, "%s.tmp-XXXXXX", path);
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		rf_err(verb, "cannot create %s: %s", o->tmp, strerror(errno));
		goto fail;
	}
	/* mkstemp makes it 0600; give it the mode a plain create would. */
	{
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(o->fd, 0666 & ~mask))
			rf_err(verb, "warning: cannot set the mode of %s: %s", o->tmp,
			       strerror(errno));
	}
	return 0;
fail:
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return -1;
}

FILE *out_file_stdio(struct out_file *o, const char *verb)
{
	if (o->fp)
		return o->fp;
	if (o->fd == STDOUT_FILENO) {
		o->fp = stdout;
		return o->fp;
	}
	o->fp = fdopen(o->fd, "w");
	if (!o->fp)
		rf_err(verb, "%s: %s", o->path, strerror(errno));
	return o->fp;
}

static void out_file_release(struct out_file *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
	o->fd = -1;
}

int out_file_commit(struct out_file *o, const char *verb)
{
	const char *name = o->path ? o->path : "standard output";
	int err = 0;

	if (o->fp && fflush(o->fp))
		err = errno;
	if (o->fd != STDOUT_FILENO) {
		if (o->fp) {
			if (fclose(o->fp) && !err)
				err = errno;
		} else if (o->fd >= 0 && close(o->fd) && !err) {
			err = errno;
		}
		if (!err && rename(o->tmp, o->path))
			err = errno;
		if (err)
			unlink(o->tmp);
	}
	if (err)
		rf_err(verb, "writing %s: %s", name, strerror(err));
	out_file_release(o);
	return err ? -1 : 0;
}

void out_file_discard(struct out_file *o)
{
	if (o->fd != STDOUT_FILENO) {
		if (o->fp)
			fclose(o->fp);
		else if (o->fd >= 0)
			close(o->fd);
		if (o->tmp)
			unlink(o->tmp);
	} else if (o->fp) {
		fflush(o->fp);
	}
	out_file_release(o);
}
