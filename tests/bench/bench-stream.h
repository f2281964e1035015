/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the generated page streams of bench-model and bench-scale share: a
 * seeded generator (splitmix64) and Zipf draws over a hot set.
 */
#ifndef REFAULT_TESTS_BENCH_STREAM_H
#define REFAULT_TESTS_BENCH_STREAM_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/prng.h"

static inline uint64_t rand64(uint64_t *s)
{
	return rf_splitmix64(s);
}

/* uniform in [0, 1) */
static inline double rand01(uint64_t *s)
{
	return (double)(rand64(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Cumulative Zipf(@exponent) weights of ranks 1..@n, normalised (malloc'd); NULL if out of memory. */
static inline double *zipf_cdf(uint64_t n, double exponent)
{
	double *cdf = malloc(n * sizeof(*cdf)), sum = 0;
	uint64_t i;

	if (!cdf)
		return NULL;
	for (i = 0; i < n; i++) {
		sum += pow((double)(i + 1), -exponent);
		cdf[i] = sum;
	}
	for (i = 0; i < n; i++)
		cdf[i] /= sum;
	return cdf;
}

/* The rank (0-based) of uniform draw @u, by bisection of @cdf. */
static inline uint64_t zipf_draw(const double *cdf, uint64_t n, double u)
{
	uint64_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
