/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Numbers as people write them on command lines and in configuration keys. */
#ifndef REFAULT_LIB_UNITS_H
#define REFAULT_LIB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Unsigned integer, decimal or 0x hex; the whole string must be a number. 0 or -1. */
int rf_parse_u64(const char *s, uint64_t *out);
/* Sizes: "4096", "64K", "512M", "2G", "1T", "1P" (powers of 1024; "KiB", "kb" too). 0 or -1. */
int rf_parse_size(const char *s, uint64_t *out);
/* Durations in ns: "1500", "10ns", "5us", "20ms", "1.5s", "2m", "1h"; a bare number is seconds. */
int rf_parse_duration(const char *s, uint64_t *out_ns);
/* Human-readable byte count into @buf ("1.5 GiB"); returns @buf. */
const char *rf_format_bytes(uint64_t bytes, char *buf, size_t len);

/* floor(sqrt(x)), exactly, by the kernel's digit-by-digit method (linux/lib/math/int_sqrt.c). */
uint64_t rf_int_sqrt(uint64_t x);

#endif /* REFAULT_LIB_UNITS_H */
