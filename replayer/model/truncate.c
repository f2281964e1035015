/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Dropping page cache: mm/truncate.c (truncate_inode_pages_range(),
 * invalidate_mapping_pages()).
 */
#include "model-local.h"
#include "filemap.h"
#include "lru.h"
#include "pagecache.h"
#include "readahead.h"
#include "writeback.h"

/*
 * invalidate_mapping_pages(), v4.6.2: clean, unmapped LRU pages go (no
 * shadow); mapped ones are deactivated (deactivate_file_page(),
 * SIMPLIFIED: moved at once, not through the per-CPU batch); pages a
 * batch holds are busy and retried after lru_add_drain_all(); a page
 * under read is skipped (trylock_page() fails; folio_trylock() in v6.18
 * mapping_try_invalidate()).  Where writeback is tracked a dirty page's
 * write starts (generic_fadvise()'s __filemap_fdatawrite_range() first;
 * writeback=flusher: written at once, recorded: when the trace says) and,
 * dirty or under writeback, it is not invalidated but deactivated as a
 * mapped one.
 */
struct invalidate_ctx {
	uint32_t busy;
};

static void invalidate_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	struct invalidate_ctx *c = vctx;
	uint32_t idx;
	struct rf_page *p;

	(void)index;
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (p->where != WHERE_LRU || p->batch_refs) {
		c->busy++;
		return;
	}
	if ((p->flags & PG_reading) && ra_read_busy(m, p))
		return;		/* its read in flight: trylock_page() fails */
	if (writeback_tracked(m) && page_is_file(p) && (p->flags & PG_dirty)) {
		folio_write_now(m, idx);	/* under writeback now: not invalidated */
	} else if (!p->mapcount) {
		release_page(m, idx);
		return;
	}
	if (lru_gen_on(m)) {
		/* v6.12 lru_deactivate_file(): to the oldest generation's tail */
		del_page_from_lru_list(m, idx);
		p->flags &= ~(PG_active | PG_referenced);
		add_page_to_lru_list_tail(m, idx, page_lru(p));
	} else if (p->flags & PG_active) {
		del_page_from_lru_list(m, idx);
		p->flags &= ~(PG_active | PG_referenced);
		add_page_to_lru_list(m, idx, page_lru(p));
		m->ev[EV_PGDEACTIVATE] += page_nr(p);
		count_memcg_event(m, p->memcg, EV_PGDEACTIVATE, page_nr(p));
	}
}

/* invalidate_mapping_pages() on [@first, @last]: the number of pages a batch held (busy). */
uint32_t invalidate_mapping_pages(struct rf_model *m, uint32_t mapping, uint64_t first,
				  uint64_t last)
{
	struct invalidate_ctx c = { 0 };

	xa_for_each_range(m, mapping, first, last, invalidate_slot, &c);
	return c.busy;
}

/* truncate_inode_pages_range(), v4.6.2: pages and shadows from @index on */
static void truncate_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	uint32_t mapping = *(uint32_t *)vctx;

	if (slot_is_shadow(e)) {
		xa_store(m, mapping, index, 0);
		return;
	}
	if ((e & SLOT_TAG_MASK) == SLOT_PAGE)
		release_page(m, (uint32_t)(e >> 2));
}

/*
 * A truncate from page @start (the whole file with @unlink: the inode is
 * evicted, truncate_inode_pages_final()); __pagevec_release() drains this
 * CPU first.
 */
void truncate_inode_pages_range(struct rf_model *m, uint32_t mapping, uint64_t start, bool unlink)
{
	lru_add_drain(m);	/* __pagevec_release() */
	if (!unlink)
		xa_drop_covering_shadow(m, mapping, start);
	xa_for_each_range(m, mapping, unlink ? 0 : start, UINT64_MAX >> 1, truncate_slot, &mapping);
}
