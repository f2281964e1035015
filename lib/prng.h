/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seeded generators of the tree: nothing in refault draws from rand()
 * or the clock, so that what is drawn is a function of a seed alone, on
 * every libc.
 *
 * splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", 2014): a golden-ratio step of a 64-bit state, then its
 * finaliser (rf_hash64).  xoshiro256** (Blackman, Vigna: "Scrambled linear
 * pseudorandom number generators", 2018): 256 bits of state filled by
 * splitmix64 from a seed, as its authors advise.  Both written from the
 * published descriptions.  How a draw becomes a number in a range is each
 * user's own (a rejection loop, a 128-bit product): it decides which values
 * a seed gives, which tests and traces pin.
 */
#ifndef REFAULT_LIB_PRNG_H
#define REFAULT_LIB_PRNG_H

#include <stdint.h>

#include "lib/hash.h"

static inline uint64_t rf_splitmix64(uint64_t *x)
{
	return rf_hash64(*x += 0x9e3779b97f4a7c15ull);
}

struct rf_xoshiro {
	uint64_t s[4];
};

/* The state from @seed by four splitmix64 steps. */
static inline void rf_xoshiro_seed(struct rf_xoshiro *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = rf_splitmix64(&seed);
}

static inline uint64_t rf_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rf_xoshiro_next(struct rf_xoshiro *r)
{
	uint64_t *s = r->s, result = rf_rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rf_rotl64(s[3], 45);
	return result;
}

#endif /* REFAULT_LIB_PRNG_H */
