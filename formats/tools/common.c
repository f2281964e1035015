/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the trace tools share: their messages, opening a trace, output files. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/tools-local.h"

/* Format the message whole (a path may be long), then hand it to the log. */
static void say(const struct rf_tools_log *log, enum rf_tools_say kind, const char *fmt,
		va_list ap)
{
	char buf[1024], *text = buf;
	va_list again;
	int n;

	if (!log || !log->say)
		return;
	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf)) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, again);
		else
			text = buf;	/* cut short rather than not said */
	}
	va_end(again);
	if (n >= 0)
		log->say(log->arg, kind, text);
	if (text != buf)
		free(text);
}

void tools_err(const struct rf_tools_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(log, RF_TOOLS_ERROR, fmt, ap);
	va_end(ap);
}

void tools_note(const struct rf_tools_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(log, RF_TOOLS_NOTE, fmt, ap);
	va_end(ap);
}

struct rf_trace_reader *rf_tools_open(const struct rf_tools_log *log, const char *path,
				      unsigned int flags)
{
	struct rf_trace_reader *r = NULL;
	int err = rf_trace_reader_open(&r, path, flags);

	if (!err)
		return r;
	if (r && *rf_trace_reader_errmsg(r))
		tools_err(log, "%s: %s", path, rf_trace_reader_errmsg(r));
	else
		tools_err(log, "%s: %s", path, rf_strerror(err));
	rf_trace_reader_close(r);
	return NULL;
}

int tools_out_open(struct rf_outfile *o, const char *path, const struct rf_tools_log *log)
{
	char msg[1024];

	if (rf_outfile_open(o, path, 0, msg, sizeof(msg))) {
		tools_err(log, "%s", msg);
		return -1;
	}
	return 0;
}

FILE *tools_out_stdio(struct rf_outfile *o, const struct rf_tools_log *log)
{
	FILE *fp = rf_outfile_stdio(o);

	if (!fp)
		tools_err(log, "%s: %s", o->path ? o->path : "standard output", strerror(errno));
	return fp;
}

int tools_out_commit(struct rf_outfile *o, const struct rf_tools_log *log)
{
	char msg[1024];

	if (rf_outfile_commit(o, msg, sizeof(msg))) {
		tools_err(log, "%s", msg);
		return -1;
	}
	return 0;
}

void tools_out_discard(struct rf_outfile *o)
{
	rf_outfile_abandon(o);
}
