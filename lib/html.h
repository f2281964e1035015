/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Text from a trace or a results file (names can hold any bytes) into HTML and SVG, escaped. */
#ifndef REFAULT_LIB_HTML_H
#define REFAULT_LIB_HTML_H

#include <stddef.h>
#include <stdio.h>

/* @n bytes of @s with <, >, & and " as entities (safe in text and in quoted attributes). */
void rf_html_escape(FILE *out, const char *s, size_t n);
void rf_html_escape_str(FILE *out, const char *s);

#endif /* REFAULT_LIB_HTML_H */
