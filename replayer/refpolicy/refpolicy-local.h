/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the reference policies: a hash map from u64 keys to u32
 * slots shared by all three, and one set of operations per policy.
 */
#ifndef REFAULT_REFPOLICY_LOCAL_H
#define REFAULT_REFPOLICY_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include <refault/refpolicy.h>

#include "lib/hashmap.h"

#define RP_MAX_ORDER	20u
#define RP_NIL		0u	/* entry 0 is never used, so 0 means "none" */

/*
 * Key -> u32 map (lib/hashmap.h) at load at most 1/2: a miss, the common
 * case of a cache that thrashes, then probes 2.5 slots on average, against
 * 8.5 at 3/4.  The slot comes from a multiplicative hash (the key times
 * 2^64 / phi, its upper half), so small dense keys (hand-written tests)
 * spread as well as the already hashed keys of rf_refpolicy_page_refs(); with
 * rf_hash64() the policies ran 9 % more instructions (bench-model).
 */
static inline uint64_t rp_key_hash(uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> 32;
}

RF_HASHMAP_DEFINE(rp_keymap, uint64_t, uint32_t, rp_key_hash, RF_HASHMAP_EQ, 50)

/* The value of @key, or RP_NIL. */
static inline uint32_t rp_keymap_find(const struct rp_keymap *km, uint64_t key)
{
	const uint32_t *v = rp_keymap_get(km, key);

	return v ? *v : RP_NIL;
}

struct rp_ops {
	int (*init)(struct rf_refpolicy *p);	/* sets p->state */
	int (*ref)(struct rf_refpolicy *p, uint64_t key, unsigned int order);
	int (*finish)(struct rf_refpolicy *p);
	void (*destroy)(struct rf_refpolicy *p);
};

struct rf_refpolicy {
	enum rf_refpolicy_kind kind;
	const struct rp_ops *ops;
	uint64_t capacity;		/* pages */
	uint64_t used;			/* pages resident */
	bool finished;
	struct rf_refpolicy_stats st;
	void *state;			/* the policy's own */
	const struct rp_keymap *index;	/* the map a reference looks its key up in */
};

extern const struct rp_ops rp_lru_ops;
extern const struct rp_ops rp_clock_ops;
extern const struct rp_ops rp_opt_ops;

/* LRU and CLOCK: p->state is a struct rp_queue. */
int rp_queue_state_init(struct rf_refpolicy *p);
void rp_queue_state_destroy(struct rf_refpolicy *p);

/* Book-keeping shared by the policies. */
static inline void rp_count_hit(struct rf_refpolicy *p, uint64_t pages)
{
	p->st.hits++;
	p->st.hit_pages += pages;
}

static inline void rp_count_miss(struct rf_refpolicy *p, uint64_t pages)
{
	p->st.misses++;
	p->st.miss_pages += pages;
}

static inline void rp_count_load(struct rf_refpolicy *p, uint64_t pages)
{
	p->used += pages;
	p->st.resident_units++;
}

static inline void rp_count_evict(struct rf_refpolicy *p, uint64_t pages)
{
	p->used -= pages;
	p->st.resident_units--;
	p->st.evictions++;
	p->st.evicted_pages += pages;
}

#endif /* REFAULT_REFPOLICY_LOCAL_H */
