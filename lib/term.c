/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One escaping rule for file-supplied text on a terminal (lib/term.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/term.h"
#include "lib/utf8.h"

/*
 * The bytes to write for the sequence at @s (@n bytes left) into @buf (at
 * least 7 bytes), and how many input bytes it took in *@took.  Returns the
 * length written to @buf, or 0 when the sequence passes as it is.
 */
static size_t escape_one(const unsigned char *s, size_t n, char *buf, size_t *took)
{
	size_t k = rf_utf8_seq(s, n);

	if (!k) {
		*took = 1;
		return (size_t)snprintf(buf, 7, "\\x%02x", s[0]);
	}
	*took = k;
	if (k == 1 && s[0] == '\\')
		return (size_t)snprintf(buf, 7, "\\\\");
	if (k == 1 && (s[0] < 0x20 || s[0] == 0x7f))
		return (size_t)snprintf(buf, 7, "\\x%02x", s[0]);
	if (k == 2 && s[0] == 0xc2 && s[1] <= 0x9f)
		return (size_t)snprintf(buf, 7, "\\u00%02x", s[1]);
	return 0;
}

void rf_term_escape(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, took, len;
	char buf[8];

	while (i < n) {
		len = escape_one(p + i, n - i, buf, &took);
		if (!len) {
			i += took;
			run += took;
			continue;
		}
		if (run)
			fwrite(p + i - run, 1, run, out);
		run = 0;
		fwrite(buf, 1, len, out);
		i += took;
	}
	if (run)
		fwrite(p + i - run, 1, run, out);
}

void rf_term_escape_str(FILE *out, const char *s)
{
	rf_term_escape(out, s, strlen(s));
}

bool rf_term_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, took;
	char buf[8];

	while (i < n) {
		if (escape_one(p + i, n - i, buf, &took))
			return false;
		i += took;
	}
	return true;
}

char *rf_term_escaped(const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (rf_term_plain(s))
		return strdup(s);
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	rf_term_escape_str(f, s);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

size_t rf_term_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, took, len, w = 0;
	char buf[8];

	while (i < n) {
		len = escape_one(p + i, n - i, buf, &took);
		w += len ? len : 1;
		i += took;
	}
	return w;
}
