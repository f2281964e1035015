/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A bounds-checked msgpack cursor for the chunk decoder's hot path.
 *
 * msgpack-c's unpacker builds an object tree per value, which costs more
 * than the whole rest of decoding; a chunk is flat arrays of small integers
 * (2.x events) or a few maps of columns (3.x), so this reads them straight
 * off the buffer.  Every read checks the end of
 * the buffer first and fails (returns false) instead of reading past it.
 * msgpack-c still writes every byte and reads the header and index.
 */
#ifndef REFAULT_MP_READ_H
#define REFAULT_MP_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mp_cur {
	const uint8_t *p;
	const uint8_t *end;
};

#define MP_LIKELY(x)	__builtin_expect(!!(x), 1)
#define MP_INLINE	static inline __attribute__((always_inline))

static inline uint64_t mp_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* A big-endian load of 1, 2, 4 or 8 bytes: one load and a byte swap, not a loop. */
MP_INLINE uint64_t mp_load_be(const uint8_t *p, unsigned int n)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (n) {
	case 1:
		return *p;
	case 2:
		__builtin_memcpy(&v16, p, 2);
		return __builtin_bswap16(v16);
	case 4:
		__builtin_memcpy(&v32, p, 4);
		return __builtin_bswap32(v32);
	default:
		__builtin_memcpy(&v64, p, 8);
		return __builtin_bswap64(v64);
	}
}

/* Any msgpack integer, as int64 (uint64 values above INT64_MAX are refused: *is_big set). */
static inline bool mp_read_int_slow(struct mp_cur *c, int64_t *out, uint64_t *uout, bool *is_u)
{
	const uint8_t *p = c->p;
	uint8_t b;
	unsigned int n;

	if (p >= c->end)
		return false;
	b = *p++;
	if (b >= 0xe0) {
		*out = (int8_t)b;
		*is_u = false;
		c->p = p;
		return true;
	}
	switch (b) {
	case 0xcc: n = 1; goto uns;
	case 0xcd: n = 2; goto uns;
	case 0xce: n = 4; goto uns;
	case 0xcf: n = 8; goto uns;
	case 0xd0: n = 1; goto sig;
	case 0xd1: n = 2; goto sig;
	case 0xd2: n = 4; goto sig;
	case 0xd3: n = 8; goto sig;
	default: return false;
	}
uns:
	if ((size_t)(c->end - p) < n)
		return false;
	*uout = mp_load_be(p, n);
	*is_u = true;
	c->p = p + n;
	return true;
sig:
	if ((size_t)(c->end - p) < n)
		return false;
	{
		uint64_t raw = mp_load_be(p, n);
		unsigned int bits = 8 * n;

		/* sign-extend from n bytes */
		if (bits < 64 && (raw >> (bits - 1)) & 1)
			raw |= ~0ull << bits;
		*out = (int64_t)raw;
	}
	*is_u = false;
	c->p = p + n;
	return true;
}

static __attribute__((noinline, unused)) bool mp_read_u64_slow(struct mp_cur *c, uint64_t *v)
{
	int64_t s;
	bool is_u;

	if (!mp_read_int_slow(c, &s, v, &is_u))
		return false;
	if (!is_u) {
		if (s < 0)
			return false;
		*v = (uint64_t)s;
	}
	return true;
}

static __attribute__((noinline, unused)) bool mp_read_i64_slow(struct mp_cur *c, int64_t *v)
{
	uint64_t u;
	bool is_u;

	if (!mp_read_int_slow(c, v, &u, &is_u))
		return false;
	if (is_u) {
		if (u > INT64_MAX)
			return false;
		*v = (int64_t)u;
	}
	return true;
}

/*
 * An unsigned value (non-negative integer of any width).  The decoder's hot
 * path: a positive fixint or a uint8..uint64 is read inline, the rest (signed
 * encodings of non-negative values, errors) out of line.
 */
MP_INLINE bool mp_read_u64(struct mp_cur *c, uint64_t *v)
{
	const uint8_t *p = c->p;

	if (MP_LIKELY(p < c->end)) {
		uint8_t b = *p;

		if (b < 0x80) {
			*v = b;
			c->p = p + 1;
			return true;
		}
		if (b >= 0xcc && b <= 0xcf) {
			unsigned int n = 1u << (b - 0xcc);

			if ((size_t)(c->end - p) <= n)
				return false;
			*v = mp_load_be(p + 1, n);
			c->p = p + 1 + n;
			return true;
		}
	}
	return mp_read_u64_slow(c, v);
}

/* A signed value; unsigned encodings above INT64_MAX are refused. */
MP_INLINE bool mp_read_i64(struct mp_cur *c, int64_t *v)
{
	const uint8_t *p = c->p;

	if (MP_LIKELY(p < c->end)) {
		uint8_t b = *p;

		if (b < 0x80 || b >= 0xe0) {
			*v = (int8_t)b;
			c->p = p + 1;
			return true;
		}
		if (b >= 0xcc && b <= 0xce) {
			unsigned int n = 1u << (b - 0xcc);

			if ((size_t)(c->end - p) <= n)
				return false;
			*v = (int64_t)mp_load_be(p + 1, n);
			c->p = p + 1 + n;
			return true;
		}
		if (b >= 0xd0 && b <= 0xd3) {	/* negative deltas: int8..int64 */
			unsigned int n = 1u << (b - 0xd0);
			uint64_t raw;

			if ((size_t)(c->end - p) <= n)
				return false;
			raw = mp_load_be(p + 1, n);
			*v = n == 1 ? (int8_t)raw : n == 2 ? (int16_t)raw : n == 4 ? (int32_t)raw : (int64_t)raw;
			c->p = p + 1 + n;
			return true;
		}
	}
	return mp_read_i64_slow(c, v);
}

static inline bool mp_read_container(struct mp_cur *c, uint32_t *n, uint8_t fix, uint8_t b16, uint8_t b32)
{
	uint8_t b;

	if (c->p >= c->end)
		return false;
	b = *c->p;
	if ((b & 0xf0) == fix) {
		*n = b & 0x0f;
		c->p++;
		return true;
	}
	if (b == b16 && c->end - c->p >= 3) {
		*n = (uint32_t)mp_be(c->p + 1, 2);
		c->p += 3;
		return true;
	}
	if (b == b32 && c->end - c->p >= 5) {
		*n = (uint32_t)mp_be(c->p + 1, 4);
		c->p += 5;
		return true;
	}
	return false;
}

static inline bool mp_read_array(struct mp_cur *c, uint32_t *n)
{
	return mp_read_container(c, n, 0x90, 0xdc, 0xdd);
}

static inline bool mp_read_map(struct mp_cur *c, uint32_t *n)
{
	return mp_read_container(c, n, 0x80, 0xde, 0xdf);
}

static inline bool mp_is_nil(const struct mp_cur *c)
{
	return c->p < c->end && *c->p == 0xc0;
}

/* A string (str or bin); *s points into the buffer, not NUL-terminated. */
static inline bool mp_read_str(struct mp_cur *c, const char **s, uint32_t *len)
{
	const uint8_t *p = c->p;
	uint32_t n;
	uint8_t b;

	if (p >= c->end)
		return false;
	b = *p++;
	if ((b & 0xe0) == 0xa0) {
		n = b & 0x1f;
	} else if ((b == 0xd9 || b == 0xc4) && c->end - p >= 1) {
		n = *p;
		p += 1;
	} else if ((b == 0xda || b == 0xc5) && c->end - p >= 2) {
		n = (uint32_t)mp_be(p, 2);
		p += 2;
	} else if ((b == 0xdb || b == 0xc6) && c->end - p >= 4) {
		n = (uint32_t)mp_be(p, 4);
		p += 4;
	} else {
		return false;
	}
	if ((size_t)(c->end - p) < n)
		return false;
	*s = (const char *)p;
	*len = n;
	c->p = p + n;
	return true;
}

/*
 * Skip one value of any type.  Containers are walked with an explicit
 * element budget instead of recursion, so hostile nesting costs no stack.
 */
static inline bool mp_skip(struct mp_cur *c)
{
	uint64_t pending = 1;
	uint32_t n;
	const char *s;
	uint8_t b;
	int64_t i;
	uint64_t u;
	bool is_u;

	while (pending--) {
		if (c->p >= c->end)
			return false;
		b = *c->p;
		if (b < 0x80 || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
			c->p++;
		} else if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
			if (!mp_read_array(c, &n))
				return false;
			pending += n;
		} else if ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf) {
			if (!mp_read_map(c, &n))
				return false;
			pending += 2ull * n;
		} else if ((b & 0xe0) == 0xa0 || b == 0xd9 || b == 0xda || b == 0xdb ||
			   b == 0xc4 || b == 0xc5 || b == 0xc6) {
			if (!mp_read_str(c, &s, &n))
				return false;
		} else if (b == 0xca || b == 0xcb) {
			n = b == 0xca ? 4 : 8;
			if ((size_t)(c->end - c->p) < 1 + n)
				return false;
			c->p += 1 + n;
		} else if (b >= 0xcc && b <= 0xd3) {
			if (!mp_read_int_slow(c, &i, &u, &is_u))
				return false;
		} else if (b == 0xd4 || b == 0xd5 || b == 0xd6 || b == 0xd7 || b == 0xd8) {
			n = 1u << (b - 0xd4);	/* fixext 1..16, plus the type byte */
			if ((size_t)(c->end - c->p) < 2 + n)
				return false;
			c->p += 2 + n;
		} else if (b == 0xc7 || b == 0xc8 || b == 0xc9) {
			unsigned int w = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;

			if ((size_t)(c->end - c->p) < 1 + w)
				return false;
			n = (uint32_t)mp_be(c->p + 1, w);
			if ((size_t)(c->end - c->p) < 2 + w + (size_t)n)
				return false;
			c->p += 2 + w + n;
		} else {
			return false;	/* 0xc1 is never used */
		}
		/* Every pending value needs at least one byte: a claim beyond the buffer is corrupt. */
		if (pending > (uint64_t)(c->end - c->p))
			return false;
	}
	return true;
}

#endif /* REFAULT_MP_READ_H */
