/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Faults and unmaps: mm/memory.c.  Anonymous faults (do_anonymous_page(),
 * and mm/huge_memory.c's do_huge_pmd_anonymous_page(); do_swap_page() is in
 * swap.c), the mapping of a page by a fault, and zap_pte_range() for munmap,
 * exit and MADV_DONTNEED.
 */
#include <stdlib.h>

#include "lib/grow.h"
#include "model-local.h"
#include "lru.h"
#include "mm.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "swap.h"
#include "writeback.h"

/* A PTE of @idx made young by an access, dirty if it wrote; its vma's hints noted. */
static void pte_mkyoung(struct rf_model *m, uint32_t idx, uint8_t flags, bool exec)
{
	struct rf_page *p = P(m, idx);

	p->flags |= PG_young;
	/* a file folio's dirtying is the trace's own file_write where writeback is tracked */
	if ((flags & RF_REF_WRITE) && !(page_is_file(p) && writeback_tracked(m)))
		p->flags |= PG_dirty;
	if ((flags & RF_REF_SEQ) || ((flags & RF_REF_RAND) && m->p->rand_no_recency))
		p->flags |= PG_seqread;
	if (exec)
		p->flags |= PG_exec;
}

/*
 * A fault maps @idx (do_set_pte(), v4.6.2; set_pte_range(), v6.18): one
 * more PTE maps it (the rmap count), young, dirty if the access wrote; a
 * VM_EXEC mapping, and one without recency (VM_SEQ_READ; VM_RAND_READ too
 * from v6.3, vma_has_recency()) are noted for reclaim (RF_REF_* @flags).
 */
void map_page(struct rf_model *m, uint32_t idx, uint8_t flags, bool exec)
{
	struct rf_page *p = P(m, idx);

	if (p->mapcount < 255)
		p->mapcount++;
	pte_mkyoung(m, idx, flags, exec);
}

/*
 * Which file folios an mm maps.  The kernel has a PTE per mm and page; the
 * model an entry per mm and folio, (mapping, head index) -> the folio's slab
 * index, so that a fault-around maps in this mm what another maps already
 * (filemap_map_folio_range() skips only this mm's PTEs that are not none,
 * v6.12; filemap_map_pages(), v6.1), and an unmap takes this mm's PTEs
 * alone, each young one a folio_mark_accessed() (zap_file_slot()): every
 * process that maps a library's page and exits marks it once, and the
 * second activates it.  Before, one count per folio was all, and an exit
 * took the count of every cached folio its vmas covered, mapped or not
 * (refault workload seed 6 on 6.18, a shell script's processes: the whole
 * trace's pgactivate 178, now 165, the kernel's 153).  An entry is stale once its
 * folio was unmapped by reclaim (try_to_unmap(): mapcount 0) or its slab
 * slot went to another folio.  SIMPLIFIED: a folio reclaimed and read
 * again into the same slot, mapped by another mm, revives the entry.
 */
static uint64_t file_pte_key(uint32_t mapping, uint64_t index)
{
	return (uint64_t)mapping << 40 | (index & ((1ull << 40) - 1));
}

bool file_pte_mapped(struct rf_model *m, struct rf_mm *x, uint32_t mapping, uint64_t index)
{
	uint32_t v = x ? id_map_find(&x->file_ptes, file_pte_key(mapping, index)) : RF_NONE;
	const struct rf_page *p;

	if (v == RF_NONE)
		return false;
	p = P(m, v);
	return p->mapcount && p->mapping == mapping && p->index == index && page_is_file(p);
}

/*
 * Reclaim unmaps a folio from every mm (try_to_unmap()) and the model cannot
 * find their entries then: they go stale, and would pile up in an mm that
 * maps more of a file than memory holds.  Once an mm has twice the entries
 * it had live at its last sweep (and 4096 more), the stale ones go.
 */
static void file_ptes_sweep(struct rf_model *m, struct rf_mm *x)
{
	struct id_map_slot *sl = NULL;
	uint64_t *stale = NULL;
	size_t nr = 0, cap = 0, i;

	while ((sl = id_map_next(&x->file_ptes, sl))) {
		const struct rf_page *p = P(m, sl->val);

		if (p->mapcount && file_pte_key(p->mapping, p->index) == sl->key && page_is_file(p))
			continue;
		if (RF_GROW(stale, cap, nr + 1)) {
			free(stale);
			m->error = RF_ERR_NOMEM;
			return;
		}
		stale[nr++] = sl->key;
	}
	for (i = 0; i < nr; i++)
		id_map_del(&x->file_ptes, stale[i], NULL);
	free(stale);
	x->file_ptes_sweep = 2 * id_map_count(&x->file_ptes) + 4096;
}

void file_pte_map(struct rf_model *m, struct rf_mm *x, uint32_t idx, uint8_t flags, bool exec)
{
	struct rf_page *p = P(m, idx);

	if (!x) {
		map_page(m, idx, flags, exec);	/* an mm the trace never named */
		return;
	}
	if (file_pte_mapped(m, x, p->mapping, p->index)) {
		pte_mkyoung(m, idx, flags, exec);	/* a write fault on its read-only PTE */
		return;
	}
	if (id_map_put(&x->file_ptes, file_pte_key(p->mapping, p->index), idx)) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	map_page(m, idx, flags, exec);
	if (id_map_count(&x->file_ptes) > x->file_ptes_sweep)
		file_ptes_sweep(m, x);
}

void file_ptes_free(struct rf_mm *x)
{
	id_map_destroy(&x->file_ptes);
	x->file_ptes_sweep = 0;
}

/*
 * do_anonymous_page() / do_huge_pmd_anonymous_page(), v4.6.2: new anon
 * pages go to the active list (lru_cache_add_active_or_unevictable); v5.9+
 * to the inactive list.  A swap entry in the slot means do_swap_page(); a
 * present page just gets its PTE young bit; a read fault of an empty slot,
 * the zero page.
 */
void anon_touch(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		uint8_t flags, uint32_t memcg, enum anon_touch_kind kind)
{
	bool fault = kind != ANON_ACCESS;
	uint64_t e, nr;
	uint32_t idx;

	/*
	 * thp=never: __handle_mm_fault() takes no huge PMD and
	 * alloc_anon_folio() no mTHP; the pages the folio held fault one by
	 * one.  SIMPLIFIED: all at the recorded fault, in order.
	 */
	if (order && m->cfg.thp_never) {
		uint64_t first = index & ~((1ull << order) - 1);

		for (nr = 0; nr < 1ull << order; nr++)
			anon_touch(m, mapping, first + nr, 0, flags, memcg, kind);
		return;
	}
	e = xa_load(m, mapping, index);
	if (fault) {
		m->ev[EV_PGFAULT]++;
		count_memcg_event(m, memcg, EV_PGFAULT, 1);
	}
	if (e && ((e & SLOT_TAG_MASK) == SLOT_PAGE || (e & SLOT_TAG_MASK) == SLOT_TAIL)) {
		P(m, (uint32_t)(e >> 2))->flags |= PG_young;
		return;
	}
	/*
	 * do_anonymous_page(), v4.6.2 .. v6.18: a read fault where nothing was
	 * ever written maps the shared zero page (my_zero_pfn()), read-only,
	 * and allocates, charges and adds nothing; do_huge_pmd_anonymous_page()
	 * maps the huge zero page (transparent_hugepage_use_zero_page(), on by
	 * default), so a read fault that allocated a folio (order above 0 in
	 * the trace) is not one.  The first write faults again (do_wp_page()
	 * -> wp_page_copy()), and that fault, RF_REF_WRITE in the trace, makes
	 * the page.  Only where the trace has the mm's whole life: an empty
	 * slot of a process older than the trace may be a page the kernel
	 * swapped out before it, which a read fault swaps in.  Off (the
	 * zero_page key) where the recording kernel forbade the zero page.
	 */
	if (kind == ANON_FAULT_ZERO && m->cfg.zero_page && !(flags & RF_REF_WRITE) && !order && !e)
		return;
	m->in_lru_fault = fault && lru_gen_on(m) && !(flags & (RF_REF_SEQ | RF_REF_RAND));
	if (e && (e & SLOT_TAG_MASK) == SLOT_SWAP) {
		do_swap_page(m, mapping, index, e, memcg, flags);
		m->in_lru_fault = false;
		return;
	}
	nr = 1ull << order;
	if (order && range_free(m, mapping, index & ~(nr - 1), nr))
		index &= ~(nr - 1);
	else
		order = 0;	/* the huge range is partly used: a base page */
	idx = new_page(m, mapping, index, order, memcg,
		       PG_swapbacked | (m->p->new_anon_inactive ? 0 : PG_active), RF_GFP_KERNEL);
	if (idx == RF_NIL) {
		m->in_lru_fault = false;
		return;
	}
	map_page(m, idx, flags | RF_REF_WRITE, false);
	xa_store_page(m, idx);
	lru_cache_add(m, idx);
	m->in_lru_fault = false;
}

/* --------------------------------------------------------------- unmaps */

struct zap_ctx {
	struct rf_mm *x;
	uint32_t mapping;
	bool seqread;
	uint64_t first, last;	/* the file pages the zap covers */
};

/*
 * zap_pte_range(), v4.6.2: a young file PTE outside VM_SEQ_READ ->
 * mark_page_accessed (v6.18 zap_present_folio_ptes(): once per folio).  Only
 * the folios this mm maps (file_pte_mapped()): its PTE goes, and one count
 * of the folio's mappings with it (SIMPLIFIED: a folio is one mapping per
 * mm, whatever number of its pages the mm mapped).
 */
static void zap_file_slot(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct zap_ctx *z = ctx;
	uint32_t idx;
	struct rf_page *p;

	/* a folio's head slot, or its tail at the first page when the range starts inside it */
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE &&
	    ((e & SLOT_TAG_MASK) != SLOT_TAIL || index != z->first))
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (!p->mapcount || !file_pte_mapped(m, z->x, z->mapping, p->index))
		return;
	id_map_del(&z->x->file_ptes, file_pte_key(z->mapping, p->index), NULL);
	p->mapcount--;
	if ((p->flags & PG_young) && !z->seqread && !(p->flags & PG_seqread))
		mark_page_accessed(m, idx);
	if (!p->mapcount)
		p->flags &= ~(PG_young | PG_exec | PG_seqread);
}

/* zap_pte_range() on anonymous memory: pages freed, swap entries released */
static void zap_anon_slot(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	uint64_t tag = e & SLOT_TAG_MASK;

	if (tag == SLOT_SWAP) {
		swap_entry_free(m, e, 1);
		xa_store(m, *(uint32_t *)ctx, index, 0);
	} else if (tag == SLOT_PAGE) {
		release_page(m, (uint32_t)(e >> 2));
	}
}

/* unmap_page_range() on [@start, @end) of @x: the file pages its vmas map, then its anon memory */
void zap_range(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	unsigned int shift = page_shift(m);
	uint32_t i;

	if (end <= start)
		return;
	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint64_t s = start > v->start ? start : v->start;
		uint64_t e = end < v->end ? end : v->end;
		uint32_t mp;
		struct zap_ctx z = { .x = x, .seqread = false };

		if (!v->ino || s >= e)
			continue;
		mp = mapping_find(m, MAPPING_FILE, v->dev, v->ino);
		if (mp == RF_NONE)
			continue;
		z.mapping = mp;
		z.first = v->pgoff + ((s - v->start) >> shift);
		z.last = v->pgoff + ((e - v->start - 1) >> shift);
		xa_for_each_range(m, mp, z.first, z.last, zap_file_slot, &z);
	}
	xa_for_each_range(m, x->anon_mapping, start >> shift, (end - 1) >> shift, zap_anon_slot,
			  &x->anon_mapping);
}
