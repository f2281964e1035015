/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reference policies on small streams whose outcome is worked out by hand
 * in the comments.  The classic stream is Belady's (1969) anomaly stream.
 */
#include <refault/refpolicy.h>

#include "lib/compiler.h"
#include "tests/lib/tap.h"

static const uint64_t belady[] = { 1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5 };
#define NBELADY ARRAY_SIZE(belady)

static struct rf_refpolicy_stats run(enum rf_refpolicy_kind kind, uint64_t cap,
				     const uint64_t *keys, const unsigned int *orders, size_t n)
{
	struct rf_refpolicy_stats st = { 0 };
	struct rf_refpolicy *p;
	size_t i;

	if (rf_refpolicy_new(&p, kind, cap)) {
		st.refs = UINT64_MAX;
		return st;
	}
	for (i = 0; i < n; i++)
		if (rf_refpolicy_ref(p, keys[i], orders ? orders[i] : 0))
			st.refs = UINT64_MAX;
	if (rf_refpolicy_finish(p))
		st.refs = UINT64_MAX;
	if (st.refs != UINT64_MAX)
		rf_refpolicy_stats(p, &st);
	rf_refpolicy_free(p);
	return st;
}

/*
 * LRU, capacity 3: every reference misses except 1 and 2 right after 5
 * (1,2,5 resident) -> 10 misses.  Capacity 4: 1,2 hit after 1,2,3,4; 5
 * evicts 3; 1,2 hit; 3 evicts 4; 4 evicts 5; 5 evicts 1 -> 8 misses.
 * OPT, capacity 3: 1,2,3 load; 4 evicts 3 (next used at position 9, after
 * 1 at 4 and 2 at 5); 1,2 hit; 5 evicts 4 (next at 10, 1 at 7, 2 at 8); 1,2
 * hit; 3 evicts 1 or 2 (never used again); 4 evicts the other; 5 hits -> 7
 * misses.
 * Capacity 4: 1..4 load, 1,2 hit, 5 evicts 4 (farthest), 1,2,3 hit, 4
 * evicts 1 or 2, 5 hits -> 6 misses.
 * CLOCK (loads unreferenced), capacity 3: no hit until 1,2 after 5 -> the
 * ring is FIFO until then; 3 clears 1,2 and evicts 5; 4 evicts 1; 5 evicts
 * 2 -> 10 misses.  Capacity 4: 5 clears 1,2 and evicts 3; 1,2 hit again; 3
 * evicts 4; 4 clears 1,2 and evicts 5; 5 evicts 3 -> 8 misses.
 */
static void classic(void)
{
	static const struct {
		enum rf_refpolicy_kind kind;
		uint64_t cap, misses;
	} want[] = {
		{ RF_REFPOLICY_LRU, 3, 10 },   { RF_REFPOLICY_LRU, 4, 8 },
		{ RF_REFPOLICY_OPT, 3, 7 },    { RF_REFPOLICY_OPT, 4, 6 },
		{ RF_REFPOLICY_CLOCK, 3, 10 }, { RF_REFPOLICY_CLOCK, 4, 8 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct rf_refpolicy_stats st;

		st = run(want[i].kind, want[i].cap, belady, NULL, NBELADY);

		is_int(st.misses, want[i].misses, "%s, capacity %llu: %llu misses of 12",
		       rf_refpolicy_name(want[i].kind), (unsigned long long)want[i].cap,
		       (unsigned long long)want[i].misses);
		ok(st.hits + st.misses == 12 && st.refs == 12 &&
		   st.evictions == st.misses - want[i].cap && st.resident_units == want[i].cap,
		   "%s, capacity %llu: hits + misses = refs, every miss past the first %llu evicts",
		   rf_refpolicy_name(want[i].kind), (unsigned long long)want[i].cap,
		   (unsigned long long)want[i].cap);
	}
}

/*
 * Large units under LRU, capacity 4 pages: A(2) B(2) fill it; C(1) evicts A
 * (LRU) -> B C, 3 pages; A(2) evicts B -> C A; C hits -> A C; B(2) evicts A
 * -> C B.  Misses A B C A B = 5, one hit, 3 evictions of 6 pages, 3 pages
 * resident.  A unit of 8 pages never fits: a miss, nothing evicted.
 */
static void sized(void)
{
	static const uint64_t keys[] = { 'A', 'B', 'C', 'A', 'C', 'B', 'H' };
	static const unsigned int orders[] = { 1, 1, 0, 1, 0, 1, 3 };
	struct rf_refpolicy_stats st = run(RF_REFPOLICY_LRU, 4, keys, orders, 7);

	ok(st.misses == 6 && st.hits == 1 && st.evictions == 3 && st.evicted_pages == 6 &&
	   st.resident_pages == 3 && st.resident_units == 2 && st.miss_pages == 17,
	   "lru with orders: 6 misses (17 pages), 1 hit, 3 evictions of 6 pages, 3 pages left");
}

static void api(void)
{
	struct rf_refpolicy *p = NULL;
	unsigned int k;

	is_int(rf_refpolicy_new(&p, RF_REFPOLICY_KIND_MAX, 4), RF_ERR_INVAL,
	       "unknown kind refused");
	is_int(rf_refpolicy_new(&p, RF_REFPOLICY_LRU, 0), RF_ERR_INVAL, "zero capacity refused");
	for (k = 0; k < RF_REFPOLICY_KIND_MAX; k++)
		ok(rf_refpolicy_from_name(rf_refpolicy_name(k)) == k, "name round trip: %s",
		   rf_refpolicy_name(k));
	ok(rf_refpolicy_from_name("fifo") == RF_REFPOLICY_KIND_MAX, "unknown name: KIND_MAX");
	if (rf_refpolicy_new(&p, RF_REFPOLICY_OPT, 4)) {
		skip(3, "no policy");
		return;
	}
	is_int(rf_refpolicy_ref(p, 1, 21), RF_ERR_INVAL, "order over 20 refused");
	rf_refpolicy_finish(p);
	is_int(rf_refpolicy_ref(p, 1, 0), RF_ERR_STATE, "a reference after finish is refused");
	is_int(rf_refpolicy_finish(p), 0, "finish twice is harmless");
	rf_refpolicy_free(p);
}

int main(void)
{
	plan(12 + 1 + 2 + RF_REFPOLICY_KIND_MAX + 1 + 3);
	classic();
	sized();
	api();
	return done_testing();
}
