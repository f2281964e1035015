/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* madvise(): mm/madvise.c. */
#include <stdlib.h>

#include "lib/grow.h"
#include "model-local.h"
#include "lru.h"
#include "mm.h"
#include "pagecache.h"
#include "vmscan.h"

#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_DONTNEED	4
#define MADV_FREE	8
#define MADV_PAGEOUT	21

struct pageout_ctx {
	uint32_t *list;
	uint32_t nr;
	size_t cap;
};

/* madvise_cold_or_pageout_pte_range(), v6.1: exclusive LRU pages only */
static void pageout_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	struct pageout_ctx *c = vctx;
	uint32_t idx;
	struct rf_page *p;

	(void)index;
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (p->where != WHERE_LRU || p->mapcount != 1 || (p->flags & PG_orphan))
		return;
	if (RF_GROW(c->list, c->cap, c->nr + 1)) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	p->flags &= ~(PG_young | PG_idle_young | PG_referenced);
	del_page_from_lru_list(m, idx);
	c->list[c->nr++] = idx;
}

static void madvise_pageout(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	struct pageout_ctx c = { 0 };

	lru_add_drain(m);
	cost_add(m, COST_LRU_LOCK, 1);
	mm_for_each_range(m, x, start, end, pageout_slot, &c);
	if (c.nr)
		reclaim_pages(m, c.list, c.nr);
	free(c.list);
}

/*
 * do_madvise(): MADV_DONTNEED and MADV_FREE zap the range after a local
 * drain (madvise_dontneed_free(), zap_page_range()); MADV_PAGEOUT reclaims
 * it; MADV_SEQUENTIAL, MADV_RANDOM and MADV_NORMAL set the vmas' read hint
 * (mmap.c vma_set_read_hint()); other advice changes nothing the model keeps.
 */
void do_madvise(struct rf_model *m, struct rf_mm *x, uint32_t advice, uint64_t start, uint64_t end)
{
	if (advice == MADV_NORMAL || advice == MADV_RANDOM || advice == MADV_SEQUENTIAL) {
		vma_set_read_hint(m, x, start, end, advice == MADV_RANDOM ? RF_REF_RAND :
				  advice == MADV_SEQUENTIAL ? RF_REF_SEQ : 0);
	} else if (advice == MADV_DONTNEED || advice == MADV_FREE) {
		lru_add_drain(m);
		zap_range(m, x, start, end);
	} else if (advice == MADV_PAGEOUT) {
		madvise_pageout(m, x, start, end);
	}
}
