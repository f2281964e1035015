/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CLOCK (second chance, Corbato 1968): units sit on a ring in load order;
 * a hit only sets the unit's reference bit.  To make room the hand looks
 * at the oldest unit: referenced, it loses the bit and goes round again;
 * unreferenced, it is evicted.  A loaded unit starts unreferenced (the
 * fault itself does not count as a second use), as in libCacheSim's Clock,
 * so a stream with no reuse behaves as FIFO.  The ring is the queue with
 * the hand at its head; going round is a move to the tail.
 */

#include "replayer/refpolicy/queue.h"

/* The hand sweeps: after one full turn every bit is clear, so this ends. */
static void clock_evict_one(struct rf_refpolicy *p, struct rp_queue *q)
{
	for (;;) {
		uint32_t hand = q->head;
		struct rp_unit *x = rp_queue_unit(q, hand);

		if (!x->referenced) {
			rp_count_evict(p, 1ull << x->order);
			rp_queue_remove(q, hand);
			return;
		}
		x->referenced = 0;
		rp_queue_requeue(q, hand);
	}
}

static int clock_ref(struct rf_refpolicy *p, uint64_t key, unsigned int order)
{
	struct rp_queue *q = p->state;
	uint32_t u = rp_queue_find(q, key);
	uint64_t pages = 1ull << order;

	if (u != RP_NIL) {
		rp_count_hit(p, 1ull << rp_queue_unit(q, u)->order);
		rp_queue_unit(q, u)->referenced = 1;
		return 0;
	}
	rp_count_miss(p, pages);
	if (pages > p->capacity)
		return 0;
	while (p->used + pages > p->capacity)
		clock_evict_one(p, q);
	if (rp_queue_push(q, key, order) == RP_NIL)
		return RF_ERR_NOMEM;
	rp_count_load(p, pages);
	return 0;
}

static int clock_finish(struct rf_refpolicy *p)
{
	(void)p;
	return 0;
}

const struct rp_ops rp_clock_ops = {
	.init = rp_queue_state_init,
	.ref = clock_ref,
	.finish = clock_finish,
	.destroy = rp_queue_state_destroy,
};
