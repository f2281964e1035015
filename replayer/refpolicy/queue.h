/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The resident set of LRU and CLOCK: units in one doubly linked queue,
 * oldest at the head, threaded through an array by u32 indices, and found
 * by key through an rp_keymap.  LRU moves a unit to the tail on a hit;
 * CLOCK only sets its reference bit and lets the hand (the head) decide.
 */
#ifndef REFAULT_REFPOLICY_QUEUE_H
#define REFAULT_REFPOLICY_QUEUE_H

#include "replayer/refpolicy/refpolicy-local.h"

struct rp_unit {
	uint64_t key;
	uint32_t prev, next;	/* RP_NIL ends the queue; next also links the free list */
	uint8_t order;
	uint8_t referenced;	/* CLOCK's reference bit */
};

struct rp_queue {
	struct rp_keymap index;
	struct rp_unit *units;	/* units[0] is the unused RP_NIL */
	uint32_t nr_units;	/* slots handed out so far, RP_NIL included */
	size_t cap_units;
	uint32_t free;		/* a free-list of evicted slots */
	uint32_t head, tail;
};

int rp_queue_init(struct rp_queue *q);
void rp_queue_destroy(struct rp_queue *q);

static inline struct rp_unit *rp_queue_unit(struct rp_queue *q, uint32_t u)
{
	return &q->units[u];
}

static inline uint32_t rp_queue_find(const struct rp_queue *q, uint64_t key)
{
	return rp_keymap_find(&q->index, key);
}

/* A new unit for @key at the tail; RP_NIL when out of memory. */
uint32_t rp_queue_push(struct rp_queue *q, uint64_t key, unsigned int order);
/* Move @u (queued) to the tail. */
void rp_queue_requeue(struct rp_queue *q, uint32_t u);
/* Take @u out of the queue and the index, and free its slot. */
void rp_queue_remove(struct rp_queue *q, uint32_t u);

#endif /* REFAULT_REFPOLICY_QUEUE_H */
