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

/*
 * @text in parts for @put: its well-formed runs, "\ufffd" for each ill-formed
 * byte, and a C1 control (U+0080..U+009F, which a terminal may obey as the
 * 8-bit CSI and the like) as its JSON escape "\u00NN": the same string to a
 * parser, nothing a terminal acts on (lib/term.h escapes them too).
 */
static int each_part(const char *text, int (*put)(void *ctx, const void *p, size_t n), void *ctx)
{
	const unsigned char *p = (const unsigned char *)text, *run = p;
	char esc[8];
	size_t n, k;

	if (!text)	/* json-c's serializer out of memory */
		return errno = ENOMEM, -1;
	for (n = strlen(text); n; p += k, n -= k) {
		k = rf_utf8_seq(p, n);
		if (k == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
			snprintf(esc, sizeof(esc), "\\u00%02x", p[1]);
			if (put(ctx, run, (size_t)(p - run)) || put(ctx, esc, 6))
				return -1;
			run = p + 2;
			continue;
		}
		if (k)
			continue;
		k = 1;
		if (put(ctx, run, (size_t)(p - run)) || put(ctx, "\\ufffd", 6))
			return -1;
		run = p + 1;
	}
	return put(ctx, run, (size_t)(p - run));
}

static int put_fd(void *ctx, const void *buf, size_t n)
{
	const char *p = buf;
	int fd = *(int *)ctx;

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

static int put_file(void *ctx, const void *p, size_t n)
{
	return fwrite(p, 1, n, ctx) == n ? 0 : -1;
}

int rf_utf8_json_write_fd(const char *text, int fd)
{
	return each_part(text, put_fd, &fd) || put_fd(&fd, "\n", 1) ? -1 : 0;
}

int rf_utf8_json_write(const char *text, FILE *out)
{
	return each_part(text, put_file, out) || ferror(out) ? -1 : 0;
}
