/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/term.c: what a terminal is shown of file-supplied text.  Plain UTF-8
 * passes; every control (C0, DEL, C1), every ill-formed byte and the
 * backslash are escaped, so no name can reach the terminal as a command.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/term.h"
#include "tests/lib/tap.h"

static const struct {
	const char *in;
	size_t len;
	const char *want;
	const char *what;
} cases[] = {
	{ "plain", 5, "plain", "ASCII passes" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", 14, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7",
	  "two-, three- and four-byte UTF-8 pass" },
	{ "\x1b]0;pwned\x07", 10, "\\x1b]0;pwned\\x07", "OSC 0 (retitle the window): ESC and BEL escaped" },
	{ "\x1b[2J", 4, "\\x1b[2J", "CSI clear screen: ESC escaped" },
	{ "a\nb\tc\r", 6, "a\\x0ab\\x09c\\x0d", "newline, tab, CR: one name stays on one line" },
	{ "\x7f", 1, "\\x7f", "DEL" },
	{ "\xc2\x9b" "31m", 5, "\\u009b31m", "C1 CSI (U+009B) as \\u009b" },
	{ "\xc2\x85", 2, "\\u0085", "C1 NEL" },
	{ "\xc2\xa0", 2, "\xc2\xa0", "U+00A0, the first after C1, passes" },
	{ "x\xffy", 3, "x\\xffy", "an ill-formed byte as \\xNN" },
	{ "\xe2\x82", 2, "\\xe2\\x82", "a cut sequence: each byte" },
	{ "\xc0\xaf", 2, "\\xc0\\xaf", "overlong form: each byte" },
	{ "a\\x41", 5, "a\\\\x41", "a backslash doubled, so an escape in the text reads as text" },
	{ "a\0b", 3, "a\\x00b", "a NUL inside counted text" },
};

static char *escaped(const char *s, size_t n)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f)
		return NULL;
	rf_term_escape(f, s, n);
	fclose(f);
	return buf;
}

int main(void)
{
	char *e;
	size_t i;

	plan((int)ARRAY_SIZE(cases) + 7);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		is_str(escaped(cases[i].in, cases[i].len), cases[i].want, "%s", cases[i].what);
	ok(rf_term_plain("/user.slice/caf\xc3\xa9"), "plain: a path with an accent");
	ok(!rf_term_plain("x\x1b") && !rf_term_plain("\xc2\x9b") && !rf_term_plain("\xff") &&
	   !rf_term_plain("a\\b"), "not plain: ESC, C1, ill-formed, backslash");
	e = rf_term_escaped("m\x1b]0;t\x07");
	is_str(e, "m\\x1b]0;t\\x07", "rf_term_escaped: the same text, allocated");
	free(e);
	e = rf_term_escaped("plain");
	is_str(e, "plain", "rf_term_escaped of plain text: a copy");
	free(e);
	is_int(rf_term_width("caf\xc3\xa9"), 4, "width: one column per code point");
	is_int(rf_term_width("\x1b[1m"), 7, "width: what the escape writes (\\x1b[1m)");
	is_int(rf_term_width("\xc2\x9b\xff"), 10, "width: \\u009b and \\xff");
	return done_testing();
}
