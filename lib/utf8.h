/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, nothing past
 * U+10FFFF), for the text refault writes as JSON: names that come from a trace
 * (cgroup paths, commands) can hold any bytes, and JSON must be UTF-8.
 */
#ifndef REFAULT_LIB_UTF8_H
#define REFAULT_LIB_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The length (1..4) of the well-formed sequence at @s, of the @n bytes there; 0 if ill-formed. */
size_t rf_utf8_seq(const unsigned char *s, size_t n);
/* @s is well-formed UTF-8 with no control character (below 0x20, or 0x7f). */
bool rf_utf8_printable(const char *s);
/*
 * Write @text (serialized JSON) to @out with every ill-formed byte replaced by
 * the escape \ufffd (U+FFFD, the replacement character): such bytes can only
 * be inside its strings, so what is written is JSON a strict parser reads.
 * A C1 control (U+0080..U+009F) is written as its escape \u00NN: the same
 * string, and nothing a terminal showing the JSON obeys.
 * Returns 0, or -1 if @out has an error or @text is NULL (ENOMEM: what
 * json-c's serializer returns out of memory).
 */
int rf_utf8_json_write(const char *text, FILE *out);
/* The same to a file descriptor, and a newline after it; 0, or -1 with errno set. */
int rf_utf8_json_write_fd(const char *text, int fd);

#endif /* REFAULT_LIB_UTF8_H */
