/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Properties of the reference policies on seeded random streams:
 *  - OPT equals the true optimum, found by exhaustive search over the
 *    resident sets, on small streams;
 *  - LRU and CLOCK equal naive array implementations, miss for miss;
 *  - OPT <= LRU and OPT <= CLOCK on larger streams;
 *  - a cyclic scan of n + 1 pages at capacity n misses every time under
 *    LRU and CLOCK;
 *  - the same stream gives the same counters, run after run.
 */
#include <string.h>

#include <refault/refpolicy.h>

#include "tests/lib/tap.h"

#define SEED 0x5eed0f0123456789ull

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Half uniform, half from a small hot set, so there are hits to fight over. */
static void fill(uint64_t *rng, uint64_t *keys, size_t n, uint64_t distinct)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = next_rand(rng);

		keys[i] = (r & 1) ? (r >> 8) % distinct : (r >> 8) % (distinct / 8 + 1);
	}
}

static int simulate(enum rf_refpolicy_kind kind, uint64_t cap, const uint64_t *keys, size_t n,
		    struct rf_refpolicy_stats *st)
{
	struct rf_refpolicy *p;
	size_t i;
	int r = rf_refpolicy_new(&p, kind, cap);

	if (r)
		return r;
	for (i = 0; i < n && !r; i++)
		r = rf_refpolicy_ref(p, keys[i], 0);
	if (!r)
		r = rf_refpolicy_finish(p);
	rf_refpolicy_stats(p, st);
	rf_refpolicy_free(p);
	return r;
}

static uint64_t misses(enum rf_refpolicy_kind kind, uint64_t cap, const uint64_t *keys, size_t n)
{
	struct rf_refpolicy_stats st;

	return simulate(kind, cap, keys, n, &st) ? UINT64_MAX : st.misses;
}

/* Fewest misses of any demand-paging schedule: a search over resident sets (keys < 8). */
static uint64_t exhaustive_min(uint64_t cap, const uint64_t *keys, size_t n)
{
	uint64_t best[256], next[256];
	size_t i;
	unsigned int m, r;

	for (m = 0; m < 256; m++)
		best[m] = UINT64_MAX;
	best[0] = 0;
	for (i = 0; i < n; i++) {
		unsigned int k = 1u << keys[i];

		for (m = 0; m < 256; m++)
			next[m] = UINT64_MAX;
		for (m = 0; m < 256; m++) {
			if (best[m] == UINT64_MAX)
				continue;
			if (m & k) {
				next[m] = best[m] < next[m] ? best[m] : next[m];
				continue;
			}
			if ((uint64_t)__builtin_popcount(m) < cap) {
				if (best[m] + 1 < next[m | k])
					next[m | k] = best[m] + 1;
				continue;
			}
			for (r = 1; r < 256; r <<= 1)
				if ((m & r) && best[m] + 1 < next[(m & ~r) | k])
					next[(m & ~r) | k] = best[m] + 1;
		}
		memcpy(best, next, sizeof(best));
	}
	for (m = 0, r = 0; m < 256; m++)
		if (best[m] < best[r])
			r = m;
	return best[r];
}

/* LRU as a recency array, most recent first. */
static uint64_t naive_lru(uint64_t cap, const uint64_t *keys, size_t n)
{
	uint64_t stack[64], miss = 0;
	size_t used = 0, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < used && stack[j] != keys[i]; j++)
			;
		if (j == used) {
			miss++;
			if (used < cap)
				used++;
			j = used - 1;
		}
		memmove(stack + 1, stack, j * sizeof(stack[0]));
		stack[0] = keys[i];
	}
	return miss;
}

/* CLOCK as the textbook frame array and hand; new pages load unreferenced. */
static uint64_t naive_clock(uint64_t cap, const uint64_t *keys, size_t n)
{
	uint64_t frame[64], miss = 0;
	unsigned char ref[64];
	size_t used = 0, hand = 0, i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < used && frame[j] != keys[i]; j++)
			;
		if (j < used) {
			ref[j] = 1;
			continue;
		}
		miss++;
		if (used < cap) {
			frame[used] = keys[i];
			ref[used++] = 0;
			continue;
		}
		while (ref[hand]) {
			ref[hand] = 0;
			hand = (hand + 1) % cap;
		}
		frame[hand] = keys[i];
		ref[hand] = 0;
		hand = (hand + 1) % cap;
	}
	return miss;
}

static void against_exhaustive(uint64_t *rng)
{
	uint64_t keys[14];
	int round, bad = 0;

	for (round = 0; round < 300; round++) {
		uint64_t cap = 1 + round % 4;
		size_t i;

		for (i = 0; i < 14; i++)
			keys[i] = next_rand(rng) % 7;
		if (misses(RF_REFPOLICY_OPT, cap, keys, 14) != exhaustive_min(cap, keys, 14))
			bad++;
	}
	is_int(bad, 0, "opt = exhaustive optimum on 300 streams of 14 refs over 7 pages, caps 1-4");
}

static void against_naive(uint64_t *rng)
{
	static uint64_t keys[4000];
	int round, bad_lru = 0, bad_clock = 0;

	for (round = 0; round < 20; round++) {
		uint64_t cap = 1 + (uint64_t)round * 3;

		fill(rng, keys, 4000, 96);
		bad_lru += misses(RF_REFPOLICY_LRU, cap, keys, 4000) != naive_lru(cap, keys, 4000);
		bad_clock += misses(RF_REFPOLICY_CLOCK, cap, keys, 4000) !=
			     naive_clock(cap, keys, 4000);
	}
	is_int(bad_lru, 0, "lru = naive recency array on 20 streams of 4000 refs, caps 1-58");
	is_int(bad_clock, 0, "clock = naive frame array and hand on the same streams");
}

static void opt_is_a_bound(uint64_t *rng)
{
	static uint64_t keys[200000];
	static const uint64_t caps[] = { 16, 256, 1000, 4096 };
	int bad_lru = 0, bad_clock = 0, strict = 0;
	size_t c;

	fill(rng, keys, 200000, 20000);
	for (c = 0; c < 4; c++) {
		uint64_t opt = misses(RF_REFPOLICY_OPT, caps[c], keys, 200000);
		uint64_t lru = misses(RF_REFPOLICY_LRU, caps[c], keys, 200000);
		uint64_t clk = misses(RF_REFPOLICY_CLOCK, caps[c], keys, 200000);

		diag("capacity %llu: opt %llu, lru %llu, clock %llu misses",
		     (unsigned long long)caps[c], (unsigned long long)opt,
		     (unsigned long long)lru, (unsigned long long)clk);
		bad_lru += opt > lru;
		bad_clock += opt > clk;
		strict += opt < lru && opt < clk;
	}
	is_int(bad_lru, 0, "opt <= lru on 200000 refs over 20000 pages at 4 capacities");
	is_int(bad_clock, 0, "opt <= clock on the same stream");
	is_int(strict, 4, "and strictly fewer at every capacity (the stream has reuse)");
}

/*
 * Pages 0..n in a loop at capacity n: LRU always evicts exactly the page
 * needed next, and CLOCK (no page is referenced while resident) is FIFO,
 * which does the same.  OPT: after n compulsory misses, page n at position
 * n evicts n - 1 (farthest, at 2n); that miss at 2n evicts n - 2 (next at
 * 3n), and so on: one miss at every multiple of n.  With N = 101 * 50
 * references: n + floor((N - 1) / n) = 100 + 50 = 150 misses.
 */
static void cyclic_scan(void)
{
	static uint64_t keys[101 * 50];
	size_t i;
	uint64_t opt;

	for (i = 0; i < 101 * 50; i++)
		keys[i] = i % 101;
	is_int(misses(RF_REFPOLICY_LRU, 100, keys, 101 * 50), 101 * 50,
	       "lru: a loop over 101 pages at capacity 100 misses every reference");
	is_int(misses(RF_REFPOLICY_CLOCK, 100, keys, 101 * 50), 101 * 50,
	       "clock: the same loop misses every reference");
	opt = misses(RF_REFPOLICY_OPT, 100, keys, 101 * 50);
	is_int(opt, 150,
	       "opt: the same loop misses 150 times, once per 100 refs after the first 100");
}

static void determinism(uint64_t *rng)
{
	static uint64_t keys[50000];
	unsigned int k;

	fill(rng, keys, 50000, 5000);
	for (k = 0; k < RF_REFPOLICY_KIND_MAX; k++) {
		struct rf_refpolicy_stats a, b;

		memset(&a, 0, sizeof(a));
		memset(&b, 0xff, sizeof(b));
		simulate(k, 700, keys, 50000, &a);
		simulate(k, 700, keys, 50000, &b);
		ok(!memcmp(&a, &b, sizeof(a)) && a.refs == 50000,
		   "%s: the same stream twice gives identical counters", rf_refpolicy_name(k));
	}
}

int main(void)
{
	uint64_t rng = SEED;

	plan(1 + 2 + 3 + 3 + RF_REFPOLICY_KIND_MAX);
	against_exhaustive(&rng);
	against_naive(&rng);
	opt_is_a_bound(&rng);
	cyclic_scan();
	determinism(&rng);
	return done_testing();
}
