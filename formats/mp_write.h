/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * msgpack written straight into a buffer whose room the caller reserved:
 * the shortest form of every integer (what msgpack-c writes too), without
 * msgpack-c's callback per value, which cost the recorder several times
 * what zstd does.  Each function returns the byte after what it wrote.
 */
#ifndef REFAULT_MP_WRITE_H
#define REFAULT_MP_WRITE_H

#include <stdint.h>

/* Most bytes one integer, or one container, string or bin header, takes. */
#define MP_MAX_INT_BYTES	9u

static inline uint8_t *mp_put_be(uint8_t *q, uint8_t tag, uint64_t v, unsigned int bytes)
{
	*q++ = tag;
	while (bytes--)
		*q++ = (uint8_t)(v >> (8 * bytes));
	return q;
}

static inline uint8_t *mp_put_uint(uint8_t *q, uint64_t v)
{
	if (v < 0x80) {
		*q = (uint8_t)v;
		return q + 1;
	}
	if (v <= UINT8_MAX)
		return mp_put_be(q, 0xcc, v, 1);
	if (v <= UINT16_MAX)
		return mp_put_be(q, 0xcd, v, 2);
	if (v <= UINT32_MAX)
		return mp_put_be(q, 0xce, v, 4);
	return mp_put_be(q, 0xcf, v, 8);
}

static inline uint8_t *mp_put_int(uint8_t *q, int64_t v)
{
	if (v >= 0)
		return mp_put_uint(q, (uint64_t)v);
	if (v >= -32) {
		*q = (uint8_t)v;	/* negative fixint */
		return q + 1;
	}
	if (v >= INT8_MIN)
		return mp_put_be(q, 0xd0, (uint64_t)v, 1);
	if (v >= INT16_MIN)
		return mp_put_be(q, 0xd1, (uint64_t)v, 2);
	if (v >= INT32_MIN)
		return mp_put_be(q, 0xd2, (uint64_t)v, 4);
	return mp_put_be(q, 0xd3, (uint64_t)v, 8);
}

/* Header of an array (0x90, 0xdc, 0xdd) or a map (0x80, 0xde, 0xdf) of @n. */
static inline uint8_t *mp_put_container(uint8_t *q, uint8_t fix, uint8_t tag16, uint32_t n)
{
	if (n < 16) {
		*q = (uint8_t)(fix | n);
		return q + 1;
	}
	if (n <= UINT16_MAX)
		return mp_put_be(q, tag16, n, 2);
	return mp_put_be(q, tag16 + 1, n, 4);
}

static inline uint8_t *mp_put_array(uint8_t *q, uint32_t n)
{
	return mp_put_container(q, 0x90, 0xdc, n);
}

static inline uint8_t *mp_put_map(uint8_t *q, uint32_t n)
{
	return mp_put_container(q, 0x80, 0xde, n);
}

/* The header of a str of @len bytes (fixstr, str8, str16, str32). */
static inline uint8_t *mp_put_str_hdr(uint8_t *q, uint32_t len)
{
	if (len < 32) {
		*q = (uint8_t)(0xa0 | len);
		return q + 1;
	}
	if (len <= UINT8_MAX)
		return mp_put_be(q, 0xd9, len, 1);
	if (len <= UINT16_MAX)
		return mp_put_be(q, 0xda, len, 2);
	return mp_put_be(q, 0xdb, len, 4);
}

/* The header of a bin of @len bytes (bin8, bin16, bin32). */
static inline uint8_t *mp_put_bin_hdr(uint8_t *q, uint32_t len)
{
	if (len <= UINT8_MAX)
		return mp_put_be(q, 0xc4, len, 1);
	if (len <= UINT16_MAX)
		return mp_put_be(q, 0xc5, len, 2);
	return mp_put_be(q, 0xc6, len, 4);
}

#endif /* REFAULT_MP_WRITE_H */
