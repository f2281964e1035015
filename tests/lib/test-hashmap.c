/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/hashmap.h: each function on its own, growth, deletion by backward
 * shift where keys collide on purpose (runs that wrap past the table's end),
 * and a long random run against a plain array, under a weak hash and a good
 * one.  After deletes the table must hold no hole inside a probe run: every
 * key sits at its home slot or after it with only used slots between.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "lib/compiler.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "tests/lib/tap.h"

/* Home slot = key >> 8 (modulo the table): the test places keys where it wants them. */
static uint64_t home_hash(uint64_t key)
{
	return key >> 8;
}

/* Eight homes only: long runs, and every delete shifts. */
static uint64_t weak_hash(uint64_t key)
{
	return key & 7;
}

RF_HASHMAP_DEFINE(good_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)
RF_HASHMAP_DEFINE(home_map, uint64_t, uint64_t, home_hash, RF_HASHMAP_EQ, 75)
RF_HASHMAP_DEFINE(weak_map, uint64_t, uint64_t, weak_hash, RF_HASHMAP_EQ, 50)

/*
 * The linear-probing invariant: from its home to its slot, every slot a key
 * passes is used.  A delete that left a hole in a run would break it (and
 * make later lookups miss).
 */
#define RUNS_INTACT(name, HASH)								\
static bool name##_runs_intact(const struct name *h)					\
{											\
	size_t i, j, used = 0;								\
											\
	for (i = 0; h->slots && i <= h->mask; i++) {					\
		if (!h->slots[i].used)							\
			continue;							\
		used++;									\
		for (j = (size_t)HASH(h->slots[i].key) & h->mask; j != i;		\
		     j = (j + 1) & h->mask)						\
			if (!h->slots[j].used)						\
				return false;						\
	}										\
	return used == h->nr;								\
}
RUNS_INTACT(home_map, home_hash)
RUNS_INTACT(weak_map, weak_hash)
RUNS_INTACT(good_map, rf_hash64)

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_basics(void)
{
	struct good_map h = { 0 };
	struct good_map_slot *s;
	uint64_t *v, old = 0, sum = 0;
	bool fresh = false;
	int err = 0, seen = 0;

	ok(!good_map_count(&h) && !good_map_get(&h, 1) && !good_map_del(&h, 1, NULL) &&
	   !good_map_next(&h, NULL), "a zeroed map is empty: no entry, nothing to delete or visit");

	err |= good_map_put(&h, 1, 10);
	err |= good_map_put(&h, 2, 20);
	v = good_map_get(&h, 1);
	ok(!err && v && *v == 10 && good_map_count(&h) == 2, "put then get");
	err |= good_map_put(&h, 1, 11);
	v = good_map_get(&h, 1);
	ok(!err && v && *v == 11 && good_map_count(&h) == 2,
	   "put of a present key replaces its value");

	v = good_map_slot(&h, 3, &fresh);
	ok(v && fresh && *v == 0, "slot of an absent key inserts it, its value zeroed");
	*v = 30;
	v = good_map_slot(&h, 3, &fresh);
	ok(v && !fresh && *v == 30 && good_map_count(&h) == 3,
	   "slot of a present key finds it, not fresh, with what was stored through the pointer");

	ok(good_map_del(&h, 2, &old) && old == 20 && !good_map_get(&h, 2) &&
	   good_map_count(&h) == 2, "del returns the old value and the key is gone");
	ok(!good_map_del(&h, 2, &old) && old == 20, "del of an absent key: false, old untouched");
	ok(good_map_del(&h, 3, NULL) && good_map_count(&h) == 1, "del with old NULL");

	good_map_put(&h, 4, 40);
	good_map_put(&h, 5, 50);
	for (s = good_map_next(&h, NULL); s; s = good_map_next(&h, s)) {
		seen++;
		sum += s->key * 1000 + s->val;
	}
	ok(seen == 3 && sum == 1 * 1000 + 11 + 4 * 1000 + 40 + 5 * 1000 + 50,
	   "next visits each entry once, with its key and value");

	good_map_destroy(&h);
	ok(!good_map_count(&h) && !good_map_get(&h, 1) && !good_map_next(&h, NULL),
	   "destroy leaves an empty map");
	err = good_map_put(&h, 7, 70);
	ok(!err && *good_map_get(&h, 7) == 70, "a destroyed map can be used again");
	good_map_destroy(&h);
}

static void test_growth(void)
{
	enum { N = 100000 };
	struct good_map h = { 0 };
	struct good_map_slot *before;
	size_t i, wrong = 0, grew = 0, cap = 0;
	int err = 0;

	for (i = 0; i < N; i++) {
		err |= good_map_put(&h, i * 4096, i);
		if (h.mask + 1 != cap) {
			grew++;
			cap = h.mask + 1;
		}
		/* never past the load factor, and a power of two */
		wrong += h.nr * 100 > (h.mask + 1) * 75 || (h.mask & (h.mask + 1));
	}
	for (i = 0; i < N; i++) {
		uint64_t *v = good_map_get(&h, i * 4096);

		wrong += !v || *v != i;
	}
	ok(!err && !wrong && good_map_count(&h) == N,
	   "%d puts: each key found with its value, load <= 75 %%, %zu slots", N, h.mask + 1);
	ok(grew > 10 && (h.mask + 1) / 2 * 75 / 100 < N,
	   "the table doubled as it filled (%zu times) and not once too often", grew);
	good_map_destroy(&h);

	err = good_map_init(&h, 1000);
	before = h.slots;
	for (i = 0; i < 1000; i++)
		err |= good_map_put(&h, i, i);
	ok(!err && h.slots == before, "init(1000) leaves room for 1000 entries without growing");
	good_map_destroy(&h);
}

/* A key with home slot @home (in a table of 16), told apart by @id. */
static uint64_t at(unsigned int home, unsigned int id)
{
	return (uint64_t)home << 8 | id;
}

/* @h holds the @nr keys of @keys but @gone, each with value key + 1, and no run has a hole. */
static bool holds(const struct home_map *h, const uint64_t *keys, size_t nr, uint64_t gone)
{
	size_t i, want = 0;

	for (i = 0; i < nr; i++) {
		uint64_t *v = home_map_get(h, keys[i]);

		if (keys[i] == gone)
			continue;
		want++;
		if (!v || *v != keys[i] + 1)
			return false;
	}
	return home_map_count(h) == want && home_map_runs_intact(h);
}

/* The key in slot @i, or UINT64_MAX for a free slot. */
static uint64_t key_in(const struct home_map *h, size_t i)
{
	return h->slots[i].used ? h->slots[i].key : UINT64_MAX;
}

/*
 * Runs across the end of a 16-slot table.  A delete shifts back the later
 * keys of its run that may move into the hole -- those whose home is not
 * after it -- and leaves the others where they are.
 */
static void test_collisions(void)
{
	/* homes 13, 13, 14, 15, 15, 0, 0, 1: slots 13, 14, 15, 0, 1, 2, 3, 4 */
	const uint64_t keys[] = { at(13, 1), at(13, 2), at(14, 1), at(15, 1), at(15, 2),
				  at(0, 1), at(0, 2), at(1, 1) };
	struct home_map h = { 0 };
	size_t i, used;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		err |= home_map_put(&h, keys[i], keys[i] + 1);
	ok(!err && h.mask == 15 && holds(&h, keys, ARRAY_SIZE(keys), 0) &&
	   key_in(&h, 0) == at(15, 1) && key_in(&h, 4) == at(1, 1),
	   "eight colliding keys fill one run from slot 13 round to slot 4");

	/* the head of the run: every later key may move, and does, across the end */
	home_map_del(&h, at(13, 1), NULL);
	ok(holds(&h, keys, ARRAY_SIZE(keys), at(13, 1)) && key_in(&h, 13) == at(13, 2) &&
	   key_in(&h, 15) == at(15, 1) && key_in(&h, 0) == at(15, 2) &&
	   key_in(&h, 3) == at(1, 1) && key_in(&h, 4) == UINT64_MAX,
	   "deleting the head of a wrapped run shifts the rest back across the table's end");
	home_map_put(&h, at(13, 1), at(13, 1) + 1);	/* back, at slot 4 */

	/* at(14, 1) is at its home: of the keys after it, homes 15, 15, 0, 0, 1 stay, 13 moves */
	home_map_del(&h, at(14, 1), NULL);
	ok(holds(&h, keys, ARRAY_SIZE(keys), at(14, 1)) && key_in(&h, 14) == at(13, 1) &&
	   key_in(&h, 15) == at(15, 1) && key_in(&h, 3) == at(1, 1) &&
	   key_in(&h, 4) == UINT64_MAX,
	   "keys whose home is after the hole stay; the last, whose home is before it, moves in");
	home_map_destroy(&h);

	/* slot 15: A (home 15), 0: B (home 0), 1: C (home 15): C passes B into A's slot */
	err |= home_map_put(&h, at(15, 1), 1);
	err |= home_map_put(&h, at(0, 1), 1);
	err |= home_map_put(&h, at(15, 2), 1);
	home_map_del(&h, at(15, 1), NULL);
	ok(!err && key_in(&h, 15) == at(15, 2) && key_in(&h, 0) == at(0, 1) &&
	   key_in(&h, 1) == UINT64_MAX && home_map_runs_intact(&h),
	   "a later key of the hole's home moves past one at its own home, which stays");

	for (i = 0; i < 16 * 75 / 100 - 2; i++)	/* one home for all: the longest run */
		err |= home_map_put(&h, at(9, 100 + i), 1);
	while (h.nr) {
		home_map_del(&h, home_map_next(&h, NULL)->key, NULL);
		err |= !home_map_runs_intact(&h);
	}
	for (i = 0, used = 0; i <= h.mask; i++)
		used += h.slots[i].used;
	ok(!err && h.mask == 15 && !used, "deleting every key of a full table leaves no slot used");
	home_map_destroy(&h);
}

#define KEYS	1024u
#define STEPS	300000u

/* A plain array of what the map must hold. */
struct reference {
	uint64_t val[KEYS];
	bool in[KEYS];
	size_t nr;
};

/* Key @k of the test: pfn-like (one bit pattern, clustered). */
static uint64_t key_of(size_t k)
{
	return 0x100000 + k * 512;
}

#define RANDOM_RUN(name)								\
static size_t name##_random_run(uint64_t seed)						\
{											\
	static struct reference ref;							\
	struct name h = { 0 };								\
	struct name##_slot *s;								\
	size_t step, k, wrong = 0;							\
											\
	memset(&ref, 0, sizeof(ref));							\
	for (step = 0; step < STEPS; step++) {						\
		uint64_t r = xorshift(&seed), *v;					\
		unsigned int op = r >> 61;						\
		bool fresh;								\
											\
		k = r % KEYS;								\
		if (op < 3) {			/* put */				\
			wrong += name##_put(&h, key_of(k), r) != 0;			\
			ref.nr += !ref.in[k];						\
			ref.in[k] = true;						\
			ref.val[k] = r;							\
		} else if (op < 4) {		/* slot, then add one */		\
			v = name##_slot(&h, key_of(k), &fresh);				\
			wrong += !v || fresh == ref.in[k] || (fresh && *v);		\
			if (v)								\
				*v += 1;						\
			ref.val[k] = ref.in[k] ? ref.val[k] + 1 : 1;			\
			ref.nr += !ref.in[k];						\
			ref.in[k] = true;						\
		} else if (op < 7) {		/* del */				\
			uint64_t old = 0;						\
											\
			wrong += name##_del(&h, key_of(k), &old) != ref.in[k];		\
			wrong += ref.in[k] && old != ref.val[k];			\
			ref.nr -= ref.in[k];						\
			ref.in[k] = false;						\
		} else {			/* get */				\
			v = name##_get(&h, key_of(k));					\
			wrong += !v != !ref.in[k] || (v && *v != ref.val[k]);		\
		}									\
		if (step % 4999)							\
			continue;							\
		/* all of it: every key, the iteration, the runs */			\
		for (k = 0; k < KEYS; k++) {						\
			v = name##_get(&h, key_of(k));					\
			wrong += !v != !ref.in[k] || (v && *v != ref.val[k]);		\
		}									\
		k = 0;									\
		for (s = name##_next(&h, NULL); s; s = name##_next(&h, s)) {		\
			size_t i = (s->key - 0x100000) / 512;				\
											\
			wrong += i >= KEYS || !ref.in[i] || s->val != ref.val[i];	\
			k++;								\
		}									\
		wrong += k != ref.nr || name##_count(&h) != ref.nr;			\
		wrong += !name##_runs_intact(&h);					\
	}										\
	name##_destroy(&h);								\
	return wrong;									\
}
RANDOM_RUN(weak_map)
RANDOM_RUN(good_map)

static void test_random(void)
{
	is_int(weak_map_random_run(88172645463325252ull), 0,
	       "%u random puts, slots, dels and gets under a hash of 8 values agree with an array",
	       STEPS);
	is_int(good_map_random_run(0x9e3779b97f4a7c15ull), 0,
	       "the same under rf_hash64()");
}

int main(void)
{
	plan(21);
	test_basics();
	test_growth();
	test_collisions();
	test_random();
	return done_testing();
}
