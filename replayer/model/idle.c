/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pte_young events (`refault record --idle-pages`): the mapped pages a scan
 * of the recorded processes found accessed through their page tables since
 * the scan before, with no fault (mm/page_idle.c, v4.3+, CONFIG_IDLE_PAGE_
 * TRACKING: the recorder marks the pages idle, page_idle_bitmap_write() ->
 * page_idle_clear_pte_refs(); an access through a PTE sets its accessed bit,
 * which the next marking finds).  Marking moves each young PTE bit to the
 * folio's own young flag (folio_set_young()), which folio_referenced()
 * counts (folio_test_clear_young()) and the multi-gen LRU's page-table walk,
 * which reads PTEs alone (walk_pte_range()), does not: in the model, the
 * page's PTE bit (PG_young) moves to PG_idle_young, as after DAMON's check
 * (damon.c).  The event comes at the scan, after the accesses: reclaim
 * between an access and the scan sees the bit in the kernel, not in the
 * model, so the interval bounds the error.  A page the scan found that the
 * model has not resident or not mapped (it evicted or never faulted it)
 * is left alone.  Pages faulted in since the scan before are not in the
 * event (their idle flag was never set): the model keeps their bit in the
 * PTE, where the kernel's scan moved it to the folio too.
 */
#include "model-local.h"
#include "mm.h"
#include "pagecache.h"

static void young_visit(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct rf_page *p;

	(void)index;
	(void)ctx;
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;	/* a large folio's tail (its head is visited), a shadow, swap */
	p = P(m, (uint32_t)(e >> 2));
	if (!p->mapcount || (p->flags & PG_orphan))
		return;
	p->flags = (p->flags & ~PG_young) | PG_idle_young;
	m->idle_young++;
}

void pte_young(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_mm *x = mm_find(m, ev->u.young.mm);
	uint64_t start = ev->u.young.start, end = ev->u.young.end;

	if (!x || end <= start) {
		m->nr_ignored++;
		return;
	}
	m->idle_scans++;
	mm_for_each_range(m, x, start, end, young_visit, NULL);
}
