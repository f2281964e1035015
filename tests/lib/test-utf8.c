/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/utf8.c against RFC 3629 section 4: the edges of each sequence length,
 * and the forms it rules out (overlong, surrogates, past U+10FFFF, a
 * continuation byte alone, a sequence cut short); what rf_utf8_json_write()
 * makes of them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/utf8.h"
#include "tests/lib/tap.h"

static const struct {
	const char *bytes;
	size_t len;
	size_t want;
	const char *what;
} seqs[] = {
	{ "A", 1, 1, "ASCII" },
	{ "\xc2\x80", 2, 2, "U+0080, the first two-byte" },
	{ "\xdf\xbf", 2, 2, "U+07FF, the last two-byte" },
	{ "\xe0\xa0\x80", 3, 3, "U+0800, the first three-byte" },
	{ "\xed\x9f\xbf", 3, 3, "U+D7FF, below the surrogates" },
	{ "\xee\x80\x80", 3, 3, "U+E000, above them" },
	{ "\xef\xbf\xbd", 3, 3, "U+FFFD" },
	{ "\xf0\x90\x80\x80", 4, 4, "U+10000, the first four-byte" },
	{ "\xf4\x8f\xbf\xbf", 4, 4, "U+10FFFF, the last" },
	{ "\xc0\xaf", 2, 0, "overlong '/' (C0 AF)" },
	{ "\xc1\xbf", 2, 0, "overlong (C1)" },
	{ "\xe0\x9f\xbf", 3, 0, "overlong three-byte (E0 9F)" },
	{ "\xf0\x8f\xbf\xbf", 4, 0, "overlong four-byte (F0 8F)" },
	{ "\xed\xa0\x80", 3, 0, "a surrogate, U+D800" },
	{ "\xf4\x90\x80\x80", 4, 0, "past U+10FFFF" },
	{ "\xf5\x80\x80\x80", 4, 0, "F5" },
	{ "\x80", 1, 0, "a continuation byte alone" },
	{ "\xe2\x82", 2, 0, "a sequence cut short" },
	{ "\xff", 1, 0, "FF" },
};

static char *written(const char *text)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return NULL;
	rf_utf8_json_write(text, f);
	fclose(f);
	return buf;
}

int main(void)
{
	size_t i;

	plan((int)ARRAY_SIZE(seqs) + 6);
	for (i = 0; i < ARRAY_SIZE(seqs); i++)
		is_int(rf_utf8_seq((const unsigned char *)seqs[i].bytes, seqs[i].len), seqs[i].want,
		       "%s: %s", seqs[i].what, seqs[i].want ? "well-formed" : "ill-formed");
	ok(rf_utf8_printable("/user.slice/caf\xc3\xa9"), "a path with an accent is printable");
	ok(!rf_utf8_printable("/a\x01") && !rf_utf8_printable("/a\x7f"),
	   "control characters are not");
	ok(!rf_utf8_printable("/a\xff"), "nor ill-formed bytes");
	is_str(written("{\"a\":\"x\xffy\xe2\x82\"}"), "{\"a\":\"x\\ufffdy\\ufffd\\ufffd\"}",
	       "each ill-formed byte is written as \\ufffd");
	is_str(written("{\"caf\xc3\xa9\":1}"), "{\"caf\xc3\xa9\":1}", "well-formed text is kept");
	ok(rf_utf8_json_write(NULL, stdout) == -1, "no text (the serializer out of memory): -1");
	return done_testing();
}
