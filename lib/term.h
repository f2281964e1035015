/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text a file supplies (a metric or configuration name from a results file, a
 * trace's command, cgroup path or file name), shown on a terminal: the one
 * escaping rule every verb uses, so that no file can move the cursor, retitle
 * the window or feed the terminal bytes it was not meant to read.
 *
 * What passes: well-formed UTF-8 (RFC 3629) that is not a control character.
 * What is escaped, visibly and reversibly (vis(3)'s C style):
 *   a backslash                                  \\
 *   a C0 control (below 0x20) and DEL (0x7f)      \xNN   (ESC is \x1b, BEL \x07)
 *   a C1 control, U+0080..U+009F (C2 80..C2 9F)  \u00NN (the 8-bit CSI is \u009b)
 *   each byte of an ill-formed sequence           \xNN
 * A tab and a newline are controls too: one name stays on one line.
 */
#ifndef REFAULT_LIB_TERM_H
#define REFAULT_LIB_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* @n bytes of @s (which may hold NULs: each is \x00), escaped, to @out. */
void rf_term_escape(FILE *out, const char *s, size_t n);
void rf_term_escape_str(FILE *out, const char *s);
/* @s needs no escaping: rf_term_escape_str() would write it as it is. */
bool rf_term_plain(const char *s);
/*
 * @s escaped, as a new NUL-terminated string (free() it), for callers that
 * measure or format what they print; NULL out of memory.
 */
char *rf_term_escaped(const char *s);
/* The number of columns rf_term_escape_str() writes for @s, counting one per code point. */
size_t rf_term_width(const char *s);

#endif /* REFAULT_LIB_TERM_H */
