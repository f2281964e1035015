/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small string helpers for librefault-compare (no global state). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/term.h"
#include "lib/utf8.h"

void compare_term_field(FILE *out, const char *s, size_t width, int align)
{
	char *e = rf_term_escaped(s);
	const char *t = e ? e : "?";
	size_t n = strlen(t), i = 0, w = 0, k;

	/* the escaped text is well-formed UTF-8: one column a code point, as rf_term_width() */
	while (i < n && (!width || w < width)) {
		k = rf_utf8_seq((const unsigned char *)t + i, n - i);
		i += k ? k : 1;
		w++;
	}
	if (align > 0 && w < width)
		fprintf(out, "%*s", (int)(width - w), "");
	fwrite(t, 1, i, out);
	if (align < 0 && w < width)
		fprintf(out, "%*s", (int)(width - w), "");
	free(e);
}

char *compare_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int compare_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(out, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*out = NULL;
		return RF_ERR_NOMEM;
	}
	return n;
}

void compare_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void compare_say(const struct rf_compare_log *log, FILE *out, enum rf_compare_say kind,
		 const char *fmt, ...)
{
	char *msg = NULL, *esc = NULL;
	va_list ap;
	int n;

	if (!log || !log->say)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		msg = NULL;	/* undefined after a failure */
	else
		esc = rf_term_escaped(msg);
	if (out)
		fflush(out);
	log->say(log->arg, kind, esc ? esc : "out of memory");
	free(esc);
	free(msg);
}
