/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Well-formed UTF-8 (RFC 3629, section 4: the syntax of UTF-8 byte sequences). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/utf8.h"

static bool cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t rf_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c;

	if (!n)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return n >= 2 && cont(s[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;

		return n >= 3 && s[1] >= lo && s[1] <= hi && cont(s[2]) ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;

		return n >= 4 && s[1] >= lo && s[1] <= hi && cont(s[2]) && cont(s[3]) ? 4 : 0;
	}
	return 0;
}

bool rf_utf8_printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;

	while (n) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		k = rf_utf8_seq(p, n);
		if (!k)
			return false;
		p += k;
		n -= k;
	}
	return true;
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int rf_utf8_json_write_fd(const char *text, int fd)
{
	const unsigned char *p = (const unsigned char *)text, *run = p;
	size_t n, k;
	int r = 0;

	if (!text)	/* json-c's serializer out of memory */
		return errno = ENOMEM, -1;
	n = strlen(text);
	for (; n && !r; p += k, n -= k) {
		k = rf_utf8_seq(p, n);
		if (k)
			continue;
		k = 1;
		r = write_all(fd, run, (size_t)(p - run)) || write_all(fd, "\\ufffd", 6) ? -1 : 0;
		run = p + 1;
	}
	return r || write_all(fd, run, (size_t)(p - run)) || write_all(fd, "\n", 1) ? -1 : 0;
}

int rf_utf8_json_write(const char *text, FILE *out)
{
	const unsigned char *p = (const unsigned char *)text, *run = p;
	size_t n, k;

	if (!text)
		return errno = ENOMEM, -1;
	n = strlen(text);
	for (; n; p += k, n -= k) {
		k = rf_utf8_seq(p, n);
		if (k)
			continue;
		k = 1;
		fwrite(run, 1, (size_t)(p - run), out);
		fputs("\\ufffd", out);
		run = p + 1;
	}
	fwrite(run, 1, (size_t)(p - run), out);
	return ferror(out) ? -1 : 0;
}
