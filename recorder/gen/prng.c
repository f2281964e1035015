/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generators' streams: lib/prng.h's xoshiro256**, a stream's seed mixed
 * in; draws in a range by rejection (the traces the generators write, and the
 * tests that pin them, depend on which values a seed gives).
 */
#include "recorder/gen/prng.h"

void gen_prng_seed(struct gen_prng *p, uint64_t seed, uint64_t stream)
{
	/* Mix the stream in through one splitmix round so streams 0, 1, 2... are unrelated. */
	uint64_t x = seed;

	rf_xoshiro_seed(&p->x, rf_splitmix64(&x) ^ (stream * 0xd1b54a32d192ed03ull));
}

uint64_t gen_prng_next(struct gen_prng *p)
{
	return rf_xoshiro_next(&p->x);
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
