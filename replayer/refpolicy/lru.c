/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plain LRU: a hit moves the unit to the most recently used end (the
 * queue's tail); a miss evicts from the head until the new unit fits.
 * One list, no second chance, no ghost entries: the textbook yardstick.
 */

#include "replayer/refpolicy/queue.h"

static int lru_ref(struct rf_refpolicy *p, uint64_t key, unsigned int order)
{
	struct rp_queue *q = p->state;
	uint32_t u = rp_queue_find(q, key);
	uint64_t pages = 1ull << order;

	if (u != RP_NIL) {
		rp_count_hit(p, 1ull << rp_queue_unit(q, u)->order);
		rp_queue_requeue(q, u);
		return 0;
	}
	rp_count_miss(p, pages);
	if (pages > p->capacity)
		return 0;
	while (p->used + pages > p->capacity) {
		uint32_t victim = q->head;

		rp_count_evict(p, 1ull << rp_queue_unit(q, victim)->order);
		rp_queue_remove(q, victim);
	}
	if (rp_queue_push(q, key, order) == RP_NIL)
		return RF_ERR_NOMEM;
	rp_count_load(p, pages);
	return 0;
}

static int lru_finish(struct rf_refpolicy *p)
{
	(void)p;
	return 0;
}

const struct rp_ops rp_lru_ops = {
	.init = rp_queue_state_init,
	.ref = lru_ref,
	.finish = lru_finish,
	.destroy = rp_queue_state_destroy,
};
