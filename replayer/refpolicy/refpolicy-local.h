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

#define RP_MAX_ORDER	20u
#define RP_NIL		0u	/* entry 0 is never used, so 0 means "none" */

/*
 * Open addressing with linear probing and backward-shift deletion (no
 * tombstones, so a long LRU run does not degrade the table).  A slot with
 * val == RP_NIL is empty.
 */
struct rp_slot {
	uint64_t key;
	uint32_t val;
};

struct rp_keymap {
	struct rp_slot *slots;
	uint32_t mask;		/* slots - 1; the size is a power of two */
	uint32_t count;
};

int rp_keymap_init(struct rp_keymap *km, uint32_t hint);
void rp_keymap_destroy(struct rp_keymap *km);
/* The value of @key, or RP_NIL. */
uint32_t rp_keymap_get(const struct rp_keymap *km, uint64_t key);
/* Insert @key (not present) with @val (not RP_NIL); grows the table. */
int rp_keymap_put(struct rp_keymap *km, uint64_t key, uint32_t val);
/* Remove @key if present. */
void rp_keymap_del(struct rp_keymap *km, uint64_t key);

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
