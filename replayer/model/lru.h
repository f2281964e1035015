/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LRU lists of a lruvec (lruvec.c: include/linux/mm_inline.h) and the
 * per-CPU batches in front of them with mark_page_accessed() (pagevec.c:
 * mm/swap.c).  One node and one zone: a memcg has exactly one lruvec; the
 * root memcg's holds the root cgroup's pages.  With the multi-gen LRU on,
 * adding to and taking off a list go to its generations (lru_gen.h).
 */
#ifndef REFAULT_MODEL_LRU_H
#define REFAULT_MODEL_LRU_H

#include "model-local.h"

/* A CPU's batches (pagevecs; folio batches from v6.0), up to the profile's pagevec_size. */
struct rf_pvec {
	uint32_t nr;
	uint32_t pages[MAX_PAGEVEC];
};

struct rf_cpu {
	struct rf_pvec lru_add;		/* lru_add_pvec / cpu_fbatches.lru_add */
	struct rf_pvec activate;	/* activate_page_pvecs */
};

/*
 * list_add() / list_add_tail() / list_del() of the page at @idx on a list kept
 * as @head and @tail indexes into the page array (prev/next; RF_NIL ends it):
 * the classic LRU lists and the multi-gen LRU's generation lists.
 */
static inline void page_list_add(struct rf_model *m, uint32_t idx, uint32_t *head,
				 uint32_t *tail, bool at_tail)
{
	struct rf_page *p = P(m, idx);

	if (!at_tail) {
		p->prev = RF_NIL;
		p->next = *head;
		if (*head != RF_NIL)
			P(m, *head)->prev = idx;
		else
			*tail = idx;
		*head = idx;
	} else {
		p->next = RF_NIL;
		p->prev = *tail;
		if (*tail != RF_NIL)
			P(m, *tail)->next = idx;
		else
			*head = idx;
		*tail = idx;
	}
}

static inline void page_list_del(struct rf_model *m, uint32_t idx, uint32_t *head,
				 uint32_t *tail)
{
	struct rf_page *p = P(m, idx);

	if (p->prev != RF_NIL)
		P(m, p->prev)->next = p->next;
	else
		*head = p->next;
	if (p->next != RF_NIL)
		P(m, p->next)->prev = p->prev;
	else
		*tail = p->prev;
	p->prev = p->next = RF_NIL;
}

/* ------------------------------------------------------ lists (lruvec.c) */

/* mem_cgroup_lruvec(): @memcg's lruvec. */
struct rf_lruvec *mem_cgroup_lruvec(struct rf_model *m, uint32_t memcg);
/* The lruvec of @p's memcg. */
struct rf_lruvec *page_lruvec(struct rf_model *m, const struct rf_page *p);
/* page_lru(): the list @p belongs on by its flags (file or anon, PG_active). */
int page_lru(const struct rf_page *p);
/* add_page_to_lru_list(): @page to the head of list @lru (multi-gen LRU: of its generation). */
void add_page_to_lru_list(struct rf_model *m, uint32_t page, int lru);
/* add_page_to_lru_list_tail(): to the tail, where reclaim meets it first. */
void add_page_to_lru_list_tail(struct rf_model *m, uint32_t page, int lru);
/* del_page_from_lru_list(): off its list, isolated; the caller decides where it goes. */
void del_page_from_lru_list(struct rf_model *m, uint32_t page);
/* __update_lru_size(): list @lru of @memcg by @nr base pages, hierarchically up to the root. */
void update_lru_size(struct rf_model *m, uint32_t memcg, int lru, int64_t nr);
/* The base pages on list @lru of @memcg's own lruvec (exact). */
uint64_t lruvec_lru_size(struct rf_model *m, uint32_t memcg, int lru);

/* --------------------------------------------- batches, accesses (pagevec.c) */

/* lru_cache_add() / folio_add_lru(): a new page into this CPU's lru_add batch. */
void lru_cache_add(struct rf_model *m, uint32_t page);
/* activate_page(): an LRU page queued for activation on this CPU's batch. */
void activate_page(struct rf_model *m, uint32_t page);
/* lru_add_drain(): this CPU's batches onto the lists. */
void lru_add_drain(struct rf_model *m);
/* lru_add_drain_all(): every CPU's. */
void lru_add_drain_all(struct rf_model *m);
/* mark_page_accessed(): the two-touch rule (multi-gen LRU: the refs, lru_gen_inc_refs()). */
void mark_page_accessed(struct rf_model *m, uint32_t page);
/* The owner lets page @page go: out of its mapping, freed now or when its batch drains. */
void release_page(struct rf_model *m, uint32_t page);

#endif /* REFAULT_MODEL_LRU_H */
