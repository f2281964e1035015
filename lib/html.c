/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "lib/html.h"

void rf_html_escape(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(s[i], out);
		}
	}
}

void rf_html_escape_str(FILE *out, const char *s)
{
	rf_html_escape(out, s, strlen(s));
}
