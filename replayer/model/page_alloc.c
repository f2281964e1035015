/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page allocator of the single node: mm/page_alloc.c.  alloc_pages()
 * and the watermarks (init_per_zone_wmark_min(), __setup_per_zone_wmarks()),
 * the allocation of a new page or folio with its memcg charge, and the free
 * of the last reference.
 */
#include "lib/units.h"
#include "model-local.h"
#include "memcg.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "swap.h"
#include "vmscan.h"
#include "writeback.h"

/*
 * __alloc_pages_nodemask() and __alloc_pages_slowpath(), v4.6.2, at order 0
 * for every size (SIMPLIFIED, docs/model.md "Decisions", Allocator): the
 * fast path above the low watermark; else wake kswapd (wakeup_kswapd();
 * here it runs to completion at once), retry at the min watermark, then
 * direct reclaim (try_to_free_pages()) up to 16 rounds while it makes
 * progress (MAX_RECLAIM_RETRIES, v4.7+).  A failure is counted as "oom" and
 * the page is given anyway: the model kills nothing.  A readahead's
 * allocation (__GFP_NORETRY) gives up after the first round instead
 * (__alloc_pages_slowpath(): "goto noretry", v4.6.2; "goto nopage", v6.18)
 * and returns -1.
 */
int alloc_pages(struct rf_model *m, uint64_t nr, enum rf_gfp gfp)
{
	int tries;

	cost_add(m, COST_PAGE_ALLOC, 1);
	if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_low || m->in_reclaim || m->oom)
		goto take;
	wakeup_kswapd(m);
	kswapd_run(m);
	if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_min)
		goto take;
	for (tries = 0; tries < 16; tries++) {
		uint64_t progress = try_to_free_pages(m);

		if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_min)
			goto take;
		if (gfp == RF_GFP_READAHEAD)
			return -1;
		if (!progress)
			break;
	}
	m->ev[EV_OOM]++;
	m->oom = true;
take:
	m->nr_free -= nr;
	return 0;
}

/* The last reference is gone: back to the free pool, uncharged. */
void free_page_final(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	uint64_t nr = page_nr(p);

	if (!(p->flags & PG_orphan)) {
		if (xa_lookup_page(m, p->mapping, p->index) == idx)
			xa_erase_page(m, idx, 0);
	}
	swap_cache_drop(m, p);		/* freed by its owner while in the swap cache */
	if (writeback_tracked(m))
		folio_account_cleaned(m, p);	/* truncated dirty: the dirty count goes */
	if (!(p->flags & PG_uncharged))
		mem_cgroup_uncharge(m, p->memcg, nr);
	if (page_is_file(p))
		m->nr_file_pages -= nr;
	else
		m->nr_anon_pages -= nr;
	m->nr_free += nr;
	m->oom = false;
	m->nr_pages_scanned = 0;	/* free_pcppages_bulk() resets NR_PAGES_SCANNED */
	m->ev[EV_PGFREE] += nr;
	page_free_slot(m, idx);
}

/*
 * A new page (folio of 2^@order pages) for (@mapping, @index), allocated and
 * charged to @memcg before anything sees it (folio_alloc() and
 * mem_cgroup_charge(), as do_anonymous_page() and filemap_add_folio() call
 * them); not yet in the tree nor on an LRU.  RF_NIL if a readahead's
 * allocation or charge failed (@gfp), or without memory (m->error set).
 */
uint32_t new_page(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		  uint32_t memcg, uint16_t flags, enum rf_gfp gfp)
{
	uint64_t nr = 1ull << order;
	uint32_t idx;
	struct rf_page *p;

	if (alloc_pages(m, nr, gfp))
		return RF_NIL;
	if (try_charge(m, memcg, nr, gfp)) {
		m->nr_free += nr;	/* folio_put() of the folio no one saw */
		return RF_NIL;
	}
	idx = page_alloc_slot(m);
	if (idx == RF_NIL) {
		m->error = RF_ERR_NOMEM;
		return RF_NIL;
	}
	p = P(m, idx);
	p->mapping = mapping;
	p->index = index;
	p->order = order;
	p->memcg = memcg;
	p->flags = flags;
	if (flags & PG_swapbacked)
		m->nr_anon_pages += nr;
	else {
		m->nr_file_pages += nr;
		m->file_pages_added += nr;
	}
	return idx;
}

/* init_per_zone_wmark_min() and __setup_per_zone_wmarks(), v4.6.2 (v4.5: no scale factor) */
void setup_watermarks(struct rf_model *m)
{
	uint64_t kb = m->managed * (m->cfg.page_size / 1024), min_kb = m->cfg.min_free_kbytes, tmp;

	if (!min_kb) {
		min_kb = rf_int_sqrt(kb * 16);
		if (min_kb < 128)
			min_kb = 128;
		if (min_kb > 65536)
			min_kb = 65536;
	}
	m->wmark_min = min_kb / (m->cfg.page_size / 1024);
	if (m->p->no_wmark_scale) {
		m->wmark_low = m->wmark_min + m->wmark_min / 4;
		m->wmark_high = m->wmark_min + m->wmark_min / 2;
		return;
	}
	tmp = m->managed * m->cfg.watermark_scale_factor / 10000;
	if (tmp < m->wmark_min / 4)
		tmp = m->wmark_min / 4;
	m->wmark_low = m->wmark_min + tmp;
	m->wmark_high = m->wmark_min + 2 * tmp;
}
