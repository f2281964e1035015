/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The queue of resident units shared by LRU and CLOCK (queue.h). */
#include <stdlib.h>

#include "lib/grow.h"
#include "replayer/refpolicy/queue.h"

int rp_queue_init(struct rp_queue *q)
{
	q->cap_units = 1024;
	q->units = calloc(q->cap_units, sizeof(*q->units));
	if (!q->units)
		return RF_ERR_NOMEM;
	q->nr_units = 1;
	q->free = RP_NIL;
	q->head = q->tail = RP_NIL;
	if (rp_keymap_init(&q->index, q->cap_units)) {
		free(q->units);
		q->units = NULL;
		return RF_ERR_NOMEM;
	}
	return 0;
}

void rp_queue_destroy(struct rp_queue *q)
{
	rp_keymap_destroy(&q->index);
	free(q->units);
	q->units = NULL;
}

static uint32_t alloc_unit(struct rp_queue *q)
{
	uint32_t u = q->free;

	if (u != RP_NIL) {
		q->free = q->units[u].next;
		return u;
	}
	/* unit indices are 32 bits */
	if (q->nr_units == UINT32_MAX || RF_GROW(q->units, q->cap_units, (size_t)q->nr_units + 1))
		return RP_NIL;
	return q->nr_units++;
}

static void link_tail(struct rp_queue *q, uint32_t u)
{
	struct rp_unit *x = &q->units[u];

	x->next = RP_NIL;
	x->prev = q->tail;
	if (q->tail != RP_NIL)
		q->units[q->tail].next = u;
	else
		q->head = u;
	q->tail = u;
}

static void unlink_unit(struct rp_queue *q, uint32_t u)
{
	struct rp_unit *x = &q->units[u];

	if (x->prev != RP_NIL)
		q->units[x->prev].next = x->next;
	else
		q->head = x->next;
	if (x->next != RP_NIL)
		q->units[x->next].prev = x->prev;
	else
		q->tail = x->prev;
}

uint32_t rp_queue_push(struct rp_queue *q, uint64_t key, unsigned int order)
{
	uint32_t u = alloc_unit(q);
	struct rp_unit *x;

	if (u == RP_NIL)
		return RP_NIL;
	if (rp_keymap_put(&q->index, key, u)) {
		q->units[u].next = q->free;
		q->free = u;
		return RP_NIL;
	}
	x = &q->units[u];
	x->key = key;
	x->order = (uint8_t)order;
	x->referenced = 0;
	link_tail(q, u);
	return u;
}

void rp_queue_requeue(struct rp_queue *q, uint32_t u)
{
	if (q->tail == u)
		return;
	unlink_unit(q, u);
	link_tail(q, u);
}

void rp_queue_remove(struct rp_queue *q, uint32_t u)
{
	unlink_unit(q, u);
	rp_keymap_del(&q->index, q->units[u].key, NULL);
	q->units[u].next = q->free;
	q->free = u;
}

int rp_queue_state_init(struct rf_refpolicy *p)
{
	struct rp_queue *q = calloc(1, sizeof(*q));

	if (!q)
		return RF_ERR_NOMEM;
	p->state = q;
	p->index = &q->index;
	return rp_queue_init(q);
}

void rp_queue_state_destroy(struct rf_refpolicy *p)
{
	struct rp_queue *q = p->state;

	if (q && q->units)
		rp_queue_destroy(q);
	free(q);
}
