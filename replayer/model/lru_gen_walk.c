/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU's page-table walk and look-around: mm/vmscan.c's
 * "Bloom filters", "mm_struct list" and "the aging" walk (iterate_mm_list(),
 * walk_mm(), walk_pmd_range(), walk_pte_range(), suitable_to_scan()) and
 * "rmap/PT walk feedback" (lru_gen_look_around()), v6.12.117, with
 * v6.1.192's look-around (lru_gen_look_self) and v6.18.2's second chance
 * (lru_gen_refs_sticky) as switches.
 *
 * The model has no page tables: a PTE table is the range of a VMA one PMD
 * covers (2 MiB with 4 KiB pages), its young PTEs the young mapped folios
 * there.  An anon folio's address is its index in its mm's tree; a file
 * folio's comes from the VMA that maps it.  Each lruvec has the kernel's two
 * Bloom filters, flipped per generation, as exact sets of (mm, PMD)
 * (SIMPLIFIED: no false positives; the kernel's have about 1 in 5 at 10,000
 * tables, m = 2^15 bits, k = 2).  Walks visit the mms of tasks in the
 * lruvec's memcg (the mm list of the memcg its owner is in).
 */
#include "lib/compiler.h"
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"
#include "mm.h"
#include "pagecache.h"

#define PTES_PER_LINE		8	/* clamp(cache_line_size() / sizeof(pte_t), 2, 8) */
#define PAGEVEC_SIZE_V61	15	/* v6.1 look-around activates fewer candidates than this */

static unsigned int pmd_shift(const struct rf_model *m)
{
	return page_shift(m) + 9;
}

/* suitable_to_scan(): at least one young PTE per cache line */
static bool suitable_to_scan(uint64_t total, uint64_t young)
{
	return young * PTES_PER_LINE >= total;
}

/*
 * The filter of generation @seq: test_bloom_filter() holds for every key
 * while the filter was never made (the first walk walks everything).
 */
static bool test_bloom_filter(const struct rf_lrugen *g, uint64_t seq, uint64_t mm, uint64_t pmd)
{
	int i = (int)(seq % 2);

	return !g->bloom_made[i] || pair_map_get(&g->bloom[i], (struct rf_pair){ mm, pmd });
}

static void update_bloom_filter(struct rf_model *m, struct rf_lrugen *g, uint64_t seq, uint64_t mm,
				uint64_t pmd)
{
	int i = (int)(seq % 2);

	if (g->bloom_made[i] && pair_map_put(&g->bloom[i], (struct rf_pair){ mm, pmd }, 1))
		m->error = RF_ERR_NOMEM;
}

/* reset_bloom_filter(): the filter of @seq, made empty */
static void reset_bloom_filter(struct rf_lrugen *g, uint64_t seq)
{
	int i = (int)(seq % 2);

	pair_map_destroy(&g->bloom[i]);
	g->bloom_made[i] = true;
}

void lru_gen_free_filters(struct rf_lrugen *g)
{
	pair_map_destroy(&g->bloom[0]);
	pair_map_destroy(&g->bloom[1]);
}

struct walk {
	uint32_t memcg;
	bool can_swap, force_scan;
	int new_gen;
	uint64_t seq, mm;
	struct rf_lrugen *g;
};

/* One VMA's walk: the PTE table in progress and its young PTEs. */
struct vma_walk {
	struct walk *w;
	const struct rf_vma *v;
	bool anon;
	bool in_table;		/* a table is in progress */
	uint64_t pmd, young;
};

static uint64_t slot_addr(const struct rf_model *m, const struct vma_walk *vw, uint64_t index)
{
	uint64_t off = (vw->anon ? index : index - vw->v->pgoff) << page_shift(m);

	return vw->anon ? off : vw->v->start + off;
}

/*
 * The end of a PTE table's walk: worth walking at the next generation when
 * suitable_to_scan() (its PTEs: the slots of the VMA the PMD covers).
 */
static void end_table(struct rf_model *m, struct vma_walk *vw)
{
	unsigned int ps = pmd_shift(m);
	uint64_t start = RF_MAX(vw->pmd << ps, vw->v->start);
	uint64_t end = RF_MIN((vw->pmd + 1) << ps, vw->v->end);

	if (!vw->in_table)
		return;
	vw->in_table = false;
	m->walk_nonleaf_found++;
	m->walk_leaf_total += (end - start) >> page_shift(m);
	m->walk_leaf_young += vw->young;
	if (suitable_to_scan((end - start) >> page_shift(m), vw->young)) {
		m->walk_nonleaf_added++;
		update_bloom_filter(m, vw->w->g, vw->w->seq + 1, vw->w->mm, vw->pmd);
	}
}

/*
 * walk_pmd_range() and walk_pte_range(), v6.12, over the folios cached in
 * one VMA's range, in address order: a PTE table is walked when the walk is
 * forced (an mm new since the last walk) or this generation's filter holds
 * it.  Each young PTE of a folio of the walk's memcg (anon only when it can
 * swap; get_pfn_folio()) is cleared and the folio promoted
 * (folio_update_gen()).  A large folio's PTEs share its one young bit: they
 * count as one.  SIMPLIFIED: the non-leaf PMD young bit (cap 0x4) would skip
 * tables with nothing accessed, which hold no young PTE here either.
 */
static void walk_slot(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct vma_walk *vw = ctx;
	struct walk *w = vw->w;
	uint64_t pmd = slot_addr(m, vw, index) >> pmd_shift(m);
	struct rf_page *q;
	uint32_t n;

	if ((e & SLOT_TAG_MASK) != SLOT_PAGE && (e & SLOT_TAG_MASK) != SLOT_TAIL)
		return;
	if (!vw->in_table || pmd != vw->pmd) {
		end_table(m, vw);
		if (!w->force_scan && !test_bloom_filter(w->g, w->seq, w->mm, pmd))
			return;
		vw->in_table = true;
		vw->pmd = pmd;
		vw->young = 0;
	}
	n = (uint32_t)(e >> 2);
	q = P(m, n);
	if (q->memcg != w->memcg || !q->mapcount || !(q->flags & PG_young) ||
	    (q->flags & (PG_seqread | PG_orphan)) || (!w->can_swap && !page_is_file(q)))
		return;
	vw->young++;
	q->flags &= ~PG_young;
	cost_add(m, COST_ATOMIC, 1);
	folio_update_gen(m, n, w->new_gen);
}

static void walk_vma(struct rf_model *m, struct walk *w, const struct rf_vma *v, uint32_t mapping,
		     bool anon)
{
	unsigned int shift = page_shift(m);
	struct vma_walk vw = { .w = w, .v = v, .anon = anon };
	uint64_t first, last;

	if (v->end <= v->start)
		return;
	first = anon ? v->start >> shift : v->pgoff;
	last = first + ((v->end - v->start - 1) >> shift);
	if (last < first)
		return;
	xa_for_each_range(m, mapping, first, last, walk_slot, &vw);
	end_table(m, &vw);
}

/*
 * should_skip_vma(), v6.12: no recency (VM_SEQ_READ/VM_RAND_READ: the
 * model marks their folios PG_seqread instead), anon that cannot be
 * swapped, a file the model never cached.
 */
static void walk_mm(struct rf_model *m, struct walk *w, struct rf_mm *x)
{
	uint32_t i;

	for (i = 0; i < x->nr_vmas && !m->error; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint32_t mapping;

		if (!v->ino) {
			if (w->can_swap)
				walk_vma(m, w, v, x->anon_mapping, true);
			continue;
		}
		mapping = mapping_find(m, MAPPING_FILE, v->dev, v->ino);
		if (mapping != RF_NONE)
			walk_vma(m, w, v, mapping, false);
	}
}

/*
 * try_to_inc_max_seq()'s walk, v6.12: iterate_mm_list() over the mms whose
 * owner is in @memcg, the first resetting the next generation's filter; an
 * mm not walked before is walked whole (force_scan).
 */
void lru_gen_walk_mm(struct rf_model *m, uint32_t memcg, uint64_t seq, bool can_swap)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	struct walk w = { .memcg = memcg, .can_swap = can_swap, .seq = seq, .g = g,
			  .new_gen = lru_gen_from_seq(g->max_seq) };
	struct id_map owner = { 0 };
	uint32_t i;

	/* the mm list of the memcg: an mm is on its owner's (lru_gen_add_mm(), _migrate_mm()) */
	for (i = 0; i < m->nr_pids; i++) {
		uint32_t x;

		if (!m->pids[i].mm)
			continue;
		x = id_map_find(&m->mm_index, m->pids[i].mm);
		if (x != RF_NONE && id_map_put(&owner, x, m->pids[i].memcg)) {
			m->error = RF_ERR_NOMEM;
			break;
		}
	}
	reset_bloom_filter(g, seq + 1);
	for (i = 0; i < m->nr_mms && !m->error; i++) {
		struct rf_mm *x = &m->mms[i];

		if (!x->users || id_map_find(&owner, i) != memcg)
			continue;
		w.mm = x->mm;
		w.force_scan = !x->lru_gen_walked;
		x->lru_gen_walked = true;
		walk_mm(m, &w, x);
	}
	id_map_destroy(&owner);
}

/* ------------------------------------------------------------ look-around */

struct look_ctx {
	uint32_t mapping;	/* the neighbours' page-cache or anon tree */
	uint64_t first, last;	/* their indices in it */
	uint64_t mm, pmd;	/* the PTE table, for the filter */
};

/* The indices around @p one PTE table maps with it, in one VMA: lru_gen_look_around()'s window. */
static bool look_window(struct rf_model *m, const struct rf_page *p, struct look_ctx *c)
{
	uint64_t start, end, addr, vstart, vend, pgoff = 0;
	unsigned int shift = page_shift(m);
	uint64_t pmd = (uint64_t)1 << pmd_shift(m);
	uint64_t batch = (uint64_t)MIN_LRU_BATCH << shift;
	const struct rf_mapping *mp = &m->mappings[p->mapping];

	c->mapping = p->mapping;
	if (!page_is_file(p)) {
		/* an mm's anon tree is indexed by address */
		addr = p->index << shift;
		vstart = 0;
		vend = UINT64_MAX;
		c->mm = mp->ino;
	} else {
		const struct rf_vma *v = NULL;
		uint32_t i;

		if (mp->kind != MAPPING_FILE)
			return false;
		for (i = 0; i < m->nr_mms && !v; i++)
			if (m->mms[i].users)
				v = find_file_vma(&m->mms[i], mp->dev, mp->ino, p->index, shift);
		if (!v)
			return false;
		c->mm = m->mms[i - 1].mm;
		vstart = v->start;
		vend = v->end;
		pgoff = v->pgoff;
		addr = v->start + ((p->index - v->pgoff) << shift);
	}
	c->pmd = addr >> pmd_shift(m);
	start = addr & ~(pmd - 1);
	if (start < vstart)
		start = vstart;
	end = (addr | (pmd - 1)) < vend - 1 ? (addr | (pmd - 1)) + 1 : vend;
	if (end - start == ((uint64_t)1 << shift))
		return false;
	if (end - start > batch) {
		if (addr - start < batch / 2)
			end = start + batch;
		else if (end - addr < batch / 2)
			start = end - batch;
		else {
			start = addr - batch / 2;
			end = addr + batch / 2;
		}
	}
	if (!page_is_file(p)) {
		c->first = start >> shift;
		c->last = (end >> shift) - 1;
	} else {
		c->first = pgoff + ((start - vstart) >> shift);
		c->last = pgoff + ((end - vstart) >> shift) - 1;
	}
	return true;
}

/*
 * lru_gen_look_around(), v6.12, from the rmap walk of a folio reclaim found
 * young (its PTE cleared): the young neighbours in its PTE table (at most
 * MIN_LRU_BATCH around it, one VMA, the same memcg, anon only when the
 * folio is anon) are cleared and promoted: with a walk context
 * (set_mm_walk(): kswapd, or reclaim after an mm walk) to max_seq by
 * folio_update_gen(), else by folio_activate() (counted in pgactivate); an
 * isolated one gets PG_referenced.  A dense table goes into the filter of
 * this generation, for the next walk.  v6.1 (lru_gen_look_self) also marks
 * the folio itself PG_referenced, so shrink_folio_list() activates it, and
 * without a walk activates the neighbours only when fewer than 15
 * (PAGEVEC_SIZE), else updates their generations.  v6.18 skips isolated
 * neighbours and, without a walk, activates one only at its second young
 * sighting (lru_gen_set_refs()); the folio itself is left to
 * folio_check_references().
 */
bool lru_gen_look_around(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int new_gen = lru_gen_from_seq(g->max_seq);
	bool can_swap = !page_is_file(p), self = m->p->lru_gen_look_self;
	uint32_t memcg = p->memcg, cand[MIN_LRU_BATCH], nr_cand = 0, k;
	uint64_t i, young = 1;
	struct look_ctx c;

	if (!(p->flags & PG_young))
		return false;
	p->flags &= ~PG_young;
	if (self && p->where != WHERE_LRU)
		p->flags |= PG_referenced;
	if (!look_window(m, p, &c)) {
		m->look_young++;
		return true;
	}
	for (i = c.first; i <= c.last; i++) {
		uint32_t n = xa_lookup_page(m, c.mapping, i);
		struct rf_page *q;
		int old;

		if (n == RF_NIL || n == idx)
			continue;
		q = P(m, n);
		if (q->index != i || q->memcg != memcg || !q->mapcount ||
		    !(q->flags & PG_young) || (!can_swap && !page_is_file(q)) ||
		    (q->flags & PG_orphan))
			continue;
		old = folio_lru_gen(q);
		if (m->p->lru_gen_refs_sticky && old < 0)
			continue;	/* v6.18 get_pfn_folio(): on a generation list only */
		q->flags &= ~PG_young;
		young++;
		cost_add(m, COST_ATOMIC, 1);
		if (m->p->lru_gen_refs_sticky) {
			/* walk_update_folio() */
			if (m->lru_gen_walk)
				folio_update_gen(m, n, new_gen);
			else if (lru_gen_set_refs(q) && old != new_gen)
				activate_page(m, n);
			continue;
		}
		if (old < 0) {
			q->flags |= PG_referenced;
		} else if (m->lru_gen_walk && !self) {
			folio_update_gen(m, n, new_gen);
		} else if (old != new_gen) {
			cand[nr_cand++] = n;
		}
	}
	m->look_young += young;
	if (suitable_to_scan(c.last - c.first + 1, young))
		update_bloom_filter(m, g, g->max_seq, c.mm, c.pmd);
	if (self && (m->lru_gen_walk || nr_cand >= PAGEVEC_SIZE_V61)) {
		for (k = 0; k < nr_cand; k++)
			folio_update_gen(m, cand[k], new_gen);
		return true;
	}
	for (k = 0; k < nr_cand; k++) {
		folio_clear_lru_refs(m, P(m, cand[k]));
		activate_page(m, cand[k]);
	}
	return true;
}
