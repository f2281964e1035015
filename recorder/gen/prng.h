/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generators' own PRNG: xoshiro256** seeded through splitmix64.
 *
 * rand() and time() are never used: a trace must be a pure function of the
 * command line.  Each task draws from its own stream (seed, stream number), so
 * the pages a task touches do not depend on how tasks interleave.
 */
#ifndef REFAULT_GEN_PRNG_H
#define REFAULT_GEN_PRNG_H

#include <stdint.h>

struct rf_prng {
	uint64_t s[4];
};

void rf_prng_seed(struct rf_prng *p, uint64_t seed, uint64_t stream);
uint64_t rf_prng_next(struct rf_prng *p);
/* Uniform in [0, n), without modulo bias; 0 when n is 0. */
uint64_t rf_prng_below(struct rf_prng *p, uint64_t n);

#endif /* REFAULT_GEN_PRNG_H */
