/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For the tests that build trace files by hand (test-damage, the fuzz
 * harness): a growing byte buffer to append bytes and little-endian words
 * to, and the CRC32C the index footer carries, written apart from the
 * library's so that it checks it.  Out of memory aborts: a test has nothing
 * better to do.
 */
#ifndef REFAULT_TESTS_BYTES_H
#define REFAULT_TESTS_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"

struct buf {
	uint8_t *p;
	size_t len, cap;	/* a zeroed buf is empty */
};

static inline void buf_put(struct buf *b, const void *p, size_t n)
{
	if (RF_GROW(b->p, b->cap, b->len + n + 1))
		abort();
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void buf_le32(struct buf *b, uint32_t v)
{
	uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	buf_put(b, x, 4);
}

static inline void buf_le64(struct buf *b, uint64_t v)
{
	buf_le32(b, (uint32_t)v);
	buf_le32(b, (uint32_t)(v >> 32));
}

/* CRC32C (Castagnoli, reflected 0x82F63B78), bit by bit. */
static inline uint32_t crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = ~0u;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
	}
	return ~crc;
}

#endif /* REFAULT_TESTS_BYTES_H */
