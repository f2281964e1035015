/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The hash map of the tree: open addressing with linear probing, a power-of-two
 * table, and deletion by backward shift (Knuth vol. 3, 6.4, Algorithm R), so a
 * table that sees a delete for every insert (the page cache, the LRU) never
 * fills with tombstones and a miss stops at the first free slot.
 *
 * One definition makes a typed map, all of whose functions are static inline
 * (the model's lookups are on its per-event path):
 *
 *	RF_HASHMAP_DEFINE(pfn_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)
 *
 * defines struct pfn_map (a zeroed one is an empty map: no init needed) and
 *
 *	int       pfn_map_init(struct pfn_map *h, size_t hint);   room for @hint entries
 *	void      pfn_map_destroy(struct pfn_map *h);             frees; the map is empty again
 *	uint32_t *pfn_map_get(const struct pfn_map *h, uint64_t key);      NULL if absent
 *	uint32_t *pfn_map_get_hashed(const struct pfn_map *h, uint64_t key, uint64_t hash);
 *	          the same with HASH(key) given
 *	int       pfn_map_put(struct pfn_map *h, uint64_t key, uint32_t val); insert or replace
 *	uint32_t *pfn_map_slot(struct pfn_map *h, uint64_t key, bool *fresh);
 *	          find or insert: a fresh value is zeroed; NULL when out of memory
 *	bool      pfn_map_del(struct pfn_map *h, uint64_t key, uint32_t *old); old may be NULL
 *	size_t    pfn_map_count(const struct pfn_map *h);
 *	struct pfn_map_slot *pfn_map_next(const struct pfn_map *h, struct pfn_map_slot *s);
 *	          iteration: s = NULL first, then each used slot ({ key, val }), then NULL
 *
 * HASH(key) gives a uint64_t (rf_hash64, rf_hash2...: lib/hash.h); EQ(a, b)
 * compares two keys (RF_HASHMAP_EQ for scalars); the table grows (doubles)
 * before its load passes LOAD percent.  Pointers from get/slot stay valid
 * until the next put, slot or del.  Iteration order is the slot order: it
 * depends on the hash and the history, so nothing a user sees may depend on
 * it (sort first).  Errors are RF_ERR_NOMEM; a failed put changes nothing.
 */
#ifndef REFAULT_LIB_HASHMAP_H
#define REFAULT_LIB_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#define RF_HASHMAP_EQ(a, b) ((a) == (b))

#define RF_HASHMAP_DEFINE(name, key_t, val_t, HASH, EQ, LOAD)					\
struct name##_slot {										\
	key_t key;										\
	val_t val;										\
	uint8_t used;										\
};												\
struct name {											\
	struct name##_slot *slots;								\
	size_t mask;		/* slots - 1; 0 with no table yet */				\
	size_t nr;										\
};												\
												\
static inline __attribute__((unused)) size_t name##_count(const struct name *h)			\
{												\
	return h->nr;										\
}												\
												\
static inline __attribute__((unused)) void name##_destroy(struct name *h)			\
{												\
	free(h->slots);										\
	h->slots = NULL;									\
	h->mask = 0;										\
	h->nr = 0;										\
}												\
												\
static inline __attribute__((unused)) int name##_init(struct name *h, size_t hint)		\
{												\
	size_t cap = 16;									\
												\
	while (cap * (LOAD) / 100 < hint + 1) {							\
		if (cap > SIZE_MAX / 2 / sizeof(struct name##_slot))				\
			return RF_ERR_NOMEM;							\
		cap *= 2;									\
	}											\
	h->slots = calloc(cap, sizeof(*h->slots));						\
	h->mask = h->slots ? cap - 1 : 0;							\
	h->nr = 0;										\
	return h->slots ? 0 : RF_ERR_NOMEM;							\
}												\
												\
static inline __attribute__((unused)) struct name##_slot *name##_find_h_(const struct name *h,	\
									 key_t key, uint64_t hash) \
{												\
	size_t i;										\
												\
	if (!h->slots)										\
		return NULL;									\
	for (i = (size_t)hash & h->mask;; i = (i + 1) & h->mask) {				\
		struct name##_slot *s = &h->slots[i];						\
												\
		if (!s->used)									\
			return NULL;								\
		if (EQ(s->key, key))								\
			return s;								\
	}											\
}												\
												\
static inline __attribute__((unused)) struct name##_slot *name##_find_(const struct name *h, key_t key) \
{												\
	return name##_find_h_(h, key, (uint64_t)(HASH(key)));					\
}												\
												\
static inline __attribute__((unused)) val_t *name##_get(const struct name *h, key_t key)	\
{												\
	struct name##_slot *s = name##_find_(h, key);						\
												\
	return s ? &s->val : NULL;								\
}												\
												\
/* As get, with HASH(@key) known (computed once for a lookup split in steps). */		\
static inline __attribute__((unused)) val_t *name##_get_hashed(const struct name *h, key_t key,	\
								 uint64_t hash)			\
{												\
	struct name##_slot *s = name##_find_h_(h, key, hash);					\
												\
	return s ? &s->val : NULL;								\
}												\
												\
/* The free slot for @key, which is not in the table; the table has room. */			\
static inline __attribute__((unused)) struct name##_slot *name##_claim_(struct name *h, key_t key) \
{												\
	size_t i;										\
												\
	for (i = (size_t)(HASH(key)) & h->mask; h->slots[i].used; i = (i + 1) & h->mask)	\
		;										\
	h->slots[i].key = key;									\
	h->slots[i].used = 1;									\
	h->nr++;										\
	return &h->slots[i];									\
}												\
												\
static inline __attribute__((unused)) int name##_reserve_(struct name *h)			\
{												\
	struct name n;										\
	size_t i;										\
												\
	if (h->slots && (h->nr + 1) * 100 <= (h->mask + 1) * (LOAD))				\
		return 0;									\
	if (name##_init(&n, h->slots ? (h->mask + 1) * (LOAD) / 100 + 1 : 0))			\
		return RF_ERR_NOMEM;								\
	for (i = 0; h->slots && i <= h->mask; i++)						\
		if (h->slots[i].used)								\
			name##_claim_(&n, h->slots[i].key)->val = h->slots[i].val;		\
	free(h->slots);										\
	*h = n;											\
	return 0;										\
}												\
												\
static inline __attribute__((unused)) val_t *name##_slot(struct name *h, key_t key, bool *fresh) \
{												\
	struct name##_slot *s = name##_find_(h, key);						\
												\
	*fresh = false;										\
	if (s)											\
		return &s->val;									\
	if (name##_reserve_(h))									\
		return NULL;									\
	s = name##_claim_(h, key);								\
	memset(&s->val, 0, sizeof(s->val));							\
	*fresh = true;										\
	return &s->val;										\
}												\
												\
static inline __attribute__((unused)) int name##_put(struct name *h, key_t key, val_t val)	\
{												\
	bool fresh;										\
	val_t *v = name##_slot(h, key, &fresh);							\
												\
	if (!v)											\
		return RF_ERR_NOMEM;								\
	*v = val;										\
	return 0;										\
}												\
												\
static inline __attribute__((unused)) bool name##_del(struct name *h, key_t key, val_t *old)	\
{												\
	struct name##_slot *s = name##_find_(h, key);						\
	size_t i, j, home;									\
												\
	if (!s)											\
		return false;									\
	if (old)										\
		*old = s->val;									\
	i = (size_t)(s - h->slots);								\
	for (j = (i + 1) & h->mask; h->slots[j].used; j = (j + 1) & h->mask) {			\
		home = (size_t)(HASH(h->slots[j].key)) & h->mask;				\
		/* move slot j into the hole at i unless its home lies in (i, j] */		\
		if (((j - home) & h->mask) >= ((j - i) & h->mask)) {				\
			h->slots[i] = h->slots[j];						\
			i = j;									\
		}										\
	}											\
	memset(&h->slots[i], 0, sizeof(h->slots[i]));						\
	h->nr--;										\
	return true;										\
}												\
												\
static inline __attribute__((unused)) struct name##_slot *name##_next(const struct name *h,	\
					       struct name##_slot *s)				\
{												\
	size_t i = s ? (size_t)(s - h->slots) + 1 : 0;						\
												\
	for (; h->slots && i <= h->mask; i++)							\
		if (h->slots[i].used)								\
			return &h->slots[i];							\
	return NULL;										\
}

#endif /* REFAULT_LIB_HASHMAP_H */
