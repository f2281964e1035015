/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * xoshiro256** (Blackman and Vigna, public domain reference algorithm),
 * seeded by splitmix64 as its authors recommend, written from the published
 * description.
 */
#include "lib/hash.h"
#include "recorder/gen/prng.h"

/* splitmix64: a golden-ratio step, then its finaliser (rf_hash64). */
static uint64_t splitmix64(uint64_t *x)
{
	return rf_hash64(*x += 0x9e3779b97f4a7c15ull);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void gen_prng_seed(struct gen_prng *p, uint64_t seed, uint64_t stream)
{
	/* Mix the stream in through one splitmix round so streams 0, 1, 2... are unrelated. */
	uint64_t x = seed;
	uint64_t y = splitmix64(&x) ^ (stream * 0xd1b54a32d192ed03ull);
	int i;

	for (i = 0; i < 4; i++)
		p->s[i] = splitmix64(&y);
}

uint64_t gen_prng_next(struct gen_prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t gen_prng_below(struct gen_prng *p, uint64_t n)
{
	/* Reject the top partial range so every value is equally likely. */
	uint64_t limit, v;

	if (n == 0)
		return 0;
	limit = UINT64_MAX - (UINT64_MAX % n);
	do {
		v = gen_prng_next(p);
	} while (v >= limit);
	return v % n;
}
