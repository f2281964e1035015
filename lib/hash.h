/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The hash functions of the tree.  Keys refault hashes (pfns, page indices,
 * pids, inode numbers) are far from random, so every table mixes them
 * through the splitmix64 finaliser (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", 2014), a bijection on 64 bits with full
 * avalanche.  Strings and byte streams use 64-bit FNV-1a.
 */
#ifndef REFAULT_LIB_HASH_H
#define REFAULT_LIB_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t rf_hash64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* Two words into one: a golden-ratio step between two finaliser rounds. */
static inline uint64_t rf_hash2(uint64_t a, uint64_t b)
{
	return rf_hash64(rf_hash64(a) + 0x9e3779b97f4a7c15ull + b);
}

#define RF_FNV1A_INIT 0xcbf29ce484222325ull

/* FNV-1a over @len bytes, continuing from @h (RF_FNV1A_INIT to start). */
static inline uint64_t rf_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

static inline uint64_t rf_hash_str(const char *s)
{
	uint64_t h = RF_FNV1A_INIT;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

#endif /* REFAULT_LIB_HASH_H */
