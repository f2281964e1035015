/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small string helpers for librefault-compare (no global state). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

char *rf_compare_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

int rf_compare_asprintf(char **out, const char *fmt, ...)
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

void rf_compare_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
