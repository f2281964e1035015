/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Transparent huge pages: mm/huge_memory.c. */
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"
#include "mm.h"
#include "pagecache.h"

/*
 * split_huge_page_to_list(), v4.6.2 (SIMPLIFIED): the head becomes a base
 * page, each tail a base page with the head's state, put on the head's
 * list (just before the head, i.e. older) or, when the head is isolated,
 * on the inactive list's tail so this reclaim round finds them next.
 */
int split_huge_page(struct rf_model *m, uint32_t head)
{
	struct rf_page *h = P(m, head);
	uint64_t i, nr = page_nr(h);
	int lru = page_lru(h);
	uint32_t tails[1u << MAX_ORDER_MODEL];
	bool gen_list = lru_gen_on(m) && h->where == WHERE_LRU;

	for (i = 1; i < nr; i++) {
		uint32_t idx = page_alloc_slot(m);
		struct rf_page *t;

		if (idx == RF_NIL)
			return m->error = RF_ERR_NOMEM;
		h = P(m, head);
		t = P(m, idx);
		*t = *h;
		t->order = 0;
		t->index = h->index + i;
		t->batch_refs = 0;
		t->prev = t->next = RF_NIL;
		xa_store(m, t->mapping, t->index, (uint64_t)idx << 2 | SLOT_PAGE);
		if (gen_list)
			tails[i - 1] = idx;
		else if (h->where == WHERE_LRU || h->where == WHERE_ISOLATED)
			add_page_to_lru_list_tail(m, idx, lru);
		else
			t->where = WHERE_FREE;
	}
	h = P(m, head);
	if (gen_list) {
		lru_gen_split_folio(m, head, tails, (uint32_t)(nr - 1));
	} else if (h->where == WHERE_LRU) {
		/* the head keeps its place; its size on the list shrinks */
		del_page_from_lru_list(m, head);
		h->order = 0;
		add_page_to_lru_list(m, head, lru);
	} else {
		h->order = 0;
	}
	/* the same entry again: its node now holds base pages (pagecache.c counts them) */
	if (xa_load(m, h->mapping, h->index) == ((uint64_t)head << 2 | SLOT_PAGE))
		xa_store(m, h->mapping, h->index, (uint64_t)head << 2 | SLOT_PAGE);
	return 0;
}
