/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU LRU batches (pagevecs, folio batches from v6.0) and
 * mark_page_accessed().  mm/swap.c, v4.6.2 unless noted.
 *
 * A page in a CPU's lru_add batch is allocated and charged but on no LRU
 * (PageLRU clear): reclaim, MADV_PAGEOUT and the size counters do not see
 * it.  Only lru_add_drain() on that CPU, a full batch, or (8f182270 and
 * later) the arrival of a compound page moves it.  Reclaim drains only the
 * CPU it runs on (config drain=all changes that, to show what draining
 * everything would do; no kernel read does it).  A page whose last user
 * went while a batch held it is an orphan: it is freed when the batch
 * drains; until then it is "stranded" (Odzioba, linux-mm 2016-04-27).
 */
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "workingset.h"

static void pvec_note_stranded(struct rf_model *m)
{
	if (m->pvec_pages > m->pvec_pages_peak)
		m->pvec_pages_peak = m->pvec_pages;
	if (m->stranded > m->stranded_peak)
		m->stranded_peak = m->stranded;
}

static void lru_lock(struct rf_model *m, uint32_t *locked_memcg, uint32_t memcg)
{
	if (*locked_memcg == RF_NONE || (m->p->lruvec_lock && *locked_memcg != memcg)) {
		cost_add(m, COST_LRU_LOCK, 1);
		*locked_memcg = memcg;
	}
}

/*
 * mm/swap.c: __pagevec_lru_add() -> __pagevec_lru_add_fn(), v4.6.2: each
 * page to the head of page_lru(page) in batch order, reclaim stat updated
 * (v4.x), then release_pages() frees pages nobody else holds.
 */
static void pagevec_lru_add(struct rf_model *m, uint32_t cpu)
{
	struct rf_pvec *pv = &m->cpus[cpu].lru_add;
	uint32_t i, locked = RF_NONE;

	for (i = 0; i < pv->nr; i++) {
		uint32_t idx = pv->pages[i];
		struct rf_page *p = P(m, idx);
		uint64_t nr = page_nr(p);
		int file = page_is_file(p);

		m->pvec_pages -= nr;
		lru_lock(m, &locked, p->memcg);
		if (p->flags & PG_orphan) {
			m->stranded -= nr;
			free_page_final(m, idx);
			continue;
		}
		add_page_to_lru_list(m, idx, page_lru(p));
		if (m->p->balance == BALANCE_ROTATED) {
			struct rf_lruvec *lv = page_lruvec(m, p);

			lv->recent_scanned[file]++;
			if (p->flags & PG_active)
				lv->recent_rotated[file]++;
		}
	}
	pv->nr = 0;
}

/* mm/swap.c: __activate_page(), v4.6.2 */
static void pagevec_activate(struct rf_model *m, uint32_t cpu)
{
	struct rf_pvec *pv = &m->cpus[cpu].activate;
	uint32_t i, locked = RF_NONE;

	for (i = 0; i < pv->nr; i++) {
		uint32_t idx = pv->pages[i];
		struct rf_page *p = P(m, idx);
		uint64_t nr = page_nr(p);
		int file = page_is_file(p);

		p->batch_refs--;
		lru_lock(m, &locked, p->memcg);
		if (p->flags & PG_orphan) {
			if (!p->batch_refs && p->where != WHERE_PVEC) {
				if (p->where == WHERE_LRU)
					del_page_from_lru_list(m, idx);
				free_page_final(m, idx);
			}
			continue;
		}
		if (p->where != WHERE_LRU || (p->flags & PG_active))
			continue;
		del_page_from_lru_list(m, idx);
		p->flags |= PG_active;
		add_page_to_lru_list(m, idx, page_lru(p));
		nr = m->p->pgactivate_nr_pages ? nr : 1;
		m->ev[EV_PGACTIVATE] += nr;
		count_memcg_event(m, p->memcg, EV_PGACTIVATE, nr);
		model_decide(m, RF_MODEL_ACTIVATE, p);
		if (m->p->balance == BALANCE_ROTATED) {
			page_lruvec(m, p)->recent_scanned[file]++;
			page_lruvec(m, p)->recent_rotated[file]++;
		}
	}
	pv->nr = 0;
}

/* lru_add_drain_cpu(), v4.6.2: lru_add first, then the move batches */
static void lru_add_drain_cpu(struct rf_model *m, uint32_t cpu)
{
	if (cpu >= m->nr_cpus)
		return;
	if (m->cpus[cpu].lru_add.nr)
		pagevec_lru_add(m, cpu);
	if (m->cpus[cpu].activate.nr)
		pagevec_activate(m, cpu);
}

/* lru_add_drain(): the current CPU only */
void lru_add_drain(struct rf_model *m)
{
	lru_add_drain_cpu(m, m->cur_cpu);
}

/* lru_add_drain_all(): every CPU with a non-empty batch */
void lru_add_drain_all(struct rf_model *m)
{
	uint32_t cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		lru_add_drain_cpu(m, cpu);
}

/*
 * mm/swap.c: __lru_cache_add(), v4.6.2 (PVEC_PRE_8f18): drain only when the
 * batch is already full, then add - so a THP can sit in the batch.
 * 8f182270 (v4.7; v4.9, v5.10 lru_cache_add(), v6.18
 * __folio_batch_add_and_move()): add, then drain if the batch is now full
 * or the page is compound.
 */
void lru_cache_add(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	uint32_t cpu = m->cur_cpu;
	struct rf_pvec *pv = &m->cpus[cpu].lru_add;
	uint32_t size = m->p->pagevec_size;

	/* folio_add_lru(), v6.1+: a folio added in a fault joins the youngest generation */
	if (m->in_lru_fault && !m->in_reclaim)
		p->flags |= PG_active;
	p->where = WHERE_PVEC;
	p->cpu = cpu;
	m->pvec_pages += page_nr(p);
	pvec_note_stranded(m);
	if (!m->p->pvec_post_8f18) {
		if (pv->nr >= size)
			pagevec_lru_add(m, cpu);
		pv->pages[pv->nr++] = idx;
		return;
	}
	pv->pages[pv->nr++] = idx;
	if (pv->nr >= size || p->order > 0)
		pagevec_lru_add(m, cpu);
}

/*
 * mm/swap.c: activate_page(), v4.6.2 SMP: queue on this CPU's
 * activate_page_pvecs; drain when the add fills the batch (and, after
 * 8f182270, for a compound page).
 */
void activate_page(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_pvec *pv = &m->cpus[m->cur_cpu].activate;

	if (p->where != WHERE_LRU || (p->flags & PG_active))
		return;
	p->batch_refs++;
	pv->pages[pv->nr++] = idx;
	if (pv->nr >= m->p->pagevec_size || (m->p->pvec_post_8f18 && p->order > 0))
		pagevec_activate(m, m->cur_cpu);
}

/*
 * __lru_cache_activate_page(), v4.6.2: a page not on the LRU is searched in
 * this CPU's lru_add batch only (backwards); elsewhere the activation is lost.
 */
static void lru_cache_activate_page(struct rf_model *m, uint32_t idx)
{
	struct rf_pvec *pv = &m->cpus[m->cur_cpu].lru_add;
	uint32_t i;

	for (i = pv->nr; i-- > 0;) {
		if (pv->pages[i] == idx) {
			P(m, idx)->flags |= PG_active;
			return;
		}
	}
}

/*
 * mm/swap.c: mark_page_accessed(), v4.6.2 - the two-touch rule:
 *   inactive,unreferenced -> inactive,referenced
 *   inactive,referenced   -> active,unreferenced (via the activate batch,
 *                            or in the local lru_add batch), and
 *                            workingset_activation() for file pages
 *   active,unreferenced   -> active,referenced
 * PG_referenced is cleared even when the activation is lost.  v5.9+ ages
 * the workingset for anon pages too (ws_anon).
 */
void mark_page_accessed(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (lru_gen_on(m)) {
		lru_gen_inc_refs(m, p);		/* folio_mark_accessed(), v6.1+ */
		return;
	}
	if (!(p->flags & PG_active) && (p->flags & PG_referenced)) {
		if (p->where == WHERE_LRU)
			activate_page(m, idx);
		else
			lru_cache_activate_page(m, idx);
		p->flags &= ~PG_referenced;
		if (page_is_file(p) || m->p->ws_anon)
			workingset_activation(m, p);
	} else if (!(p->flags & PG_referenced)) {
		p->flags |= PG_referenced;
	}
}

/*
 * The owner lets go (truncate, munmap, exit, fadvise): the page leaves its
 * mapping at once; if a per-CPU batch still holds it, it is freed when that
 * batch drains (release_pages() in __pagevec_lru_add()).
 */
void release_page(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (p->flags & PG_orphan)
		return;
	xa_erase_page(m, idx, 0);
	p->mapcount = 0;
	if (p->where == WHERE_PVEC || p->batch_refs) {
		p->flags |= PG_orphan;
		if (p->where == WHERE_PVEC) {
			m->stranded += page_nr(p);
			pvec_note_stranded(m);
		}
		return;
	}
	if (p->where == WHERE_LRU)
		del_page_from_lru_list(m, idx);
	p->flags |= PG_orphan;
	free_page_final(m, idx);
}
