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

#include "lib/prng.h"

struct gen_prng {
	struct rf_xoshiro x;
};

void gen_prng_seed(struct gen_prng *p, uint64_t seed, uint64_t stream);
uint64_t gen_prng_next(struct gen_prng *p);
/* Uniform in [0, n), without modulo bias; 0 when n is 0. */
uint64_t gen_prng_below(struct gen_prng *p, uint64_t n);

#endif /* REFAULT_GEN_PRNG_H */
