/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page reclaim, mm/vmscan.c.  The structure is v4.6.2's; later kernels are
 * switch points (profile fields) inside the same functions:
 *
 *   do_try_to_free_pages  priority loop 12..0, may_thrash retry
 *   shrink_node           (shrink_zone in v4.6) walk the memcgs of the target
 *   shrink_lruvec         (shrink_zone_memcg) proportional scan of 4 lists
 *   get_scan_count        anon/file balance (rotated ratios; v5.8+ costs)
 *   shrink_active_list    deactivation, page_referenced()
 *   shrink_inactive_list  isolate, shrink_page_list, putback
 *   page_check_references the two-look rule for mapped pages
 *   balance_pgdat         kswapd, order 0, one zone
 *
 * Decisions (docs/model.md "reclaim"): one node with one zone; order-0
 * reclaim; swap writeback is asynchronous and completes right after the
 * pass that started it (end_swap_writeback()), so a page written to swap is
 * freed by a later pass; dirty file pages are taken as cleaned by the
 * flusher before reclaim reaches them; try_to_unmap() always succeeds;
 * page_referenced() sees one young bit per page; kswapd runs to completion
 * at the moment it is woken, on its own CPU (whose batches are empty).
 */
#include "lib/compiler.h"
#include "lib/units.h"
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"
#include "memcg.h"
#include "mm.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "readahead.h"
#include "swap.h"
#include "vmscan.h"
#include "workingset.h"
#include "writeback.h"

#define DEACTIVATE_ANON	1u
#define DEACTIVATE_FILE	2u

enum page_references {
	PAGEREF_RECLAIM,
	PAGEREF_RECLAIM_CLEAN,
	PAGEREF_KEEP,
	PAGEREF_ACTIVATE,
};

static uint32_t reclaim_root(const struct scan_control *sc)
{
	return sc->target == RF_NONE ? 0 : sc->target;
}

static uint64_t node_lru_pages(struct rf_model *m, int lru)
{
	return m->memcgs[0]->lruvec.hier_size[lru];
}

/* the comment table in mm/vmscan.c: 1GB -> 3, 10GB -> 10, 100GB -> 31 */
static bool sqrt_ratio_low(struct rf_model *m, uint64_t inactive, uint64_t active)
{
	unsigned int shift = 30 - __builtin_ctz(m->cfg.page_size);
	uint64_t gb = (inactive + active) >> shift;
	uint64_t ratio = gb ? rf_int_sqrt(10 * gb) : 1;

	return inactive * ratio < active;
}

/* zone_reclaimable(), v4.6.2 (pgdat_reclaimable in v4.8/v4.9) */
static bool zone_reclaimable(struct rf_model *m)
{
	uint64_t r = node_lru_pages(m, LRU_INACTIVE_FILE) + node_lru_pages(m, LRU_ACTIVE_FILE);

	if (m->swap_total > m->swap_used)
		r += node_lru_pages(m, LRU_INACTIVE_ANON) + node_lru_pages(m, LRU_ACTIVE_ANON);
	return m->nr_pages_scanned < r * 6;
}

/*
 * inactive_list_is_low(): v4.6.2 inactive_file_is_low() (active > inactive)
 * and mem_cgroup_inactive_anon_is_low() (sqrt rule on the lruvec); v4.9 the
 * sqrt rule for both; v5.4 ratio 0 for file while refaults happen.
 */
static bool inactive_list_is_low(struct rf_model *m, uint32_t memcg, bool file)
{
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);
	uint64_t inactive = lv->size[file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON];
	uint64_t active = lv->size[file ? LRU_ACTIVE_FILE : LRU_ACTIVE_ANON];

	if (!file && !m->swap_total)
		return false;
	if (file && m->p->file_low == FILE_LOW_HALF)
		return active > inactive;
	if (file && m->p->file_low == FILE_LOW_SQRT_REFAULT &&
	    m->memcgs[memcg]->ev[EV_WORKINGSET_ACTIVATE_FILE] != lv->refaults[1])
		return active > 0;
	return sqrt_ratio_low(m, inactive, active);
}

/*
 * inactive_is_low(), v5.10.7: hierarchical sizes of the reclaim root.  Read
 * exactly even where the profile reads refault statistics as flushed
 * (memcg-stats.c): see there why.
 */
static bool inactive_is_low_hier(struct rf_model *m, uint32_t memcg, bool file)
{
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);

	return sqrt_ratio_low(m, lv->hier_size[file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON],
			      lv->hier_size[file ? LRU_ACTIVE_FILE : LRU_ACTIVE_ANON]);
}

/*
 * lru_note_cost(), v5.10.7 mm/swap.c (v6.12, 0538a82c39e9: cost = nr_io *
 * SWAP_CLUSTER_MAX + nr_rotated): charge the cost to the lruvec and its
 * ancestors, halving both costs when they exceed a quarter of the LRU.
 */
void lru_note_cost(struct rf_model *m, uint32_t memcg, bool file, uint64_t nr_io,
		   uint64_t nr_rotated)
{
	uint64_t cost = nr_io;

	if (m->p->balance == BALANCE_ROTATED)
		return;
	if (m->p->balance == BALANCE_COST_IO)
		cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated;
	for (; memcg != RF_NONE; memcg = m->memcgs[memcg]->parent) {
		struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);
		uint64_t lrusize = lv->hier_size[0] + lv->hier_size[1] + lv->hier_size[2] +
			lv->hier_size[3];

		if (file)
			lv->file_cost += cost;
		else
			lv->anon_cost += cost;
		if (lv->file_cost + lv->anon_cost > lrusize / 4) {
			lv->file_cost /= 2;
			lv->anon_cost /= 2;
		}
	}
}

static void lru_drain_for_reclaim(struct rf_model *m)
{
	if (m->cfg.drain_all)
		lru_add_drain_all(m);
	else
		lru_add_drain(m);
}

/* isolate_lru_pages(), v4.6.2: from the tail; busy pages rotate to the head */
static uint32_t isolate_lru_pages(struct rf_model *m, uint64_t nr_to_scan, uint32_t memcg, int lru,
				  struct scan_control *sc, uint32_t *dst, uint64_t *nr_scanned,
				  uint64_t *nr_taken)
{
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);
	uint64_t scan, taken = 0;
	uint32_t n = 0;

	for (scan = 0; scan < nr_to_scan && taken < nr_to_scan && lv->tail[lru] != RF_NIL;) {
		uint32_t idx = lv->tail[lru];
		struct rf_page *p = P(m, idx);

		/* v4.x counts page structs, v5.x base pages (compound_nr) */
		scan += m->p->pgactivate_nr_pages ? page_nr(p) : 1;
		del_page_from_lru_list(m, idx);
		if ((p->flags & PG_orphan) || (!sc->may_unmap && p->mapcount)) {
			add_page_to_lru_list(m, idx, lru);	/* -EBUSY: back to the head */
			continue;
		}
		taken += page_nr(p);
		dst[n++] = idx;
	}
	*nr_scanned = scan;
	*nr_taken = taken;
	return n;
}

/*
 * page_referenced(), v4.6.2 mm/rmap.c: young PTEs, cleared as they are
 * read; VM_SEQ_READ mappings do not count; limit reclaim counts only
 * references from inside the target (approximated: the page's memcg is in
 * the target's subtree).
 */
static int page_referenced(struct rf_model *m, struct rf_page *p, const struct scan_control *sc)
{
	bool young;
	uint32_t c;

	if (!p->mapcount)
		return 0;
	cost_add(m, COST_RMAP_WALK, 1);
	/*
	 * folio_referenced_one(): a mapping without recency counts for nothing
	 * (v6.3+ vma_has_recency() returns before the PTE; v6.1's multi-gen LRU
	 * skips look-around for it, and VM_SEQ_READ was never counted).
	 */
	if (p->flags & PG_seqread) {
		p->flags &= ~(PG_young | PG_idle_young);
		return 0;
	}
	if (lru_gen_on(m)) {
		/* folio_referenced_one(), v6.1+: the PTE and its neighbours */
		young = lru_gen_look_around(m, (uint32_t)(p - m->pages));
	} else {
		young = p->flags & PG_young;
		p->flags &= ~PG_young;
	}
	/* folio_referenced_one(): folio_test_clear_young(), the bit DAMON's check left */
	if (p->flags & PG_idle_young) {
		p->flags &= ~PG_idle_young;
		young = true;
	}
	if (!young)
		return 0;
	if (sc->target != RF_NONE) {
		for (c = p->memcg; c != RF_NONE && c != sc->target; c = m->memcgs[c]->parent)
			;
		if (c == RF_NONE)
			return 0;
	}
	return 1;
}

/* page_check_references(), v4.6.2 (v5.9+: anon_two_look) */
static enum page_references page_check_references(struct rf_model *m, struct rf_page *p,
						  const struct scan_control *sc)
{
	int referenced_ptes = page_referenced(m, p, sc);
	bool referenced_page = p->flags & PG_referenced;
	bool anon = !page_is_file(p);

	/* v6.18 folio_check_references() with the multi-gen LRU: lru_gen_set_refs() decides */
	if (lru_gen_on(m) && m->p->lru_gen_refs_sticky) {
		if (!referenced_ptes)
			return PAGEREF_RECLAIM;
		return lru_gen_set_refs(p) ? PAGEREF_ACTIVATE : PAGEREF_KEEP;
	}

	p->flags &= ~PG_referenced;
	if (referenced_ptes) {
		if (anon && !m->p->anon_two_look)
			return PAGEREF_ACTIVATE;
		p->flags |= PG_referenced;
		if (referenced_page || referenced_ptes > 1)
			return PAGEREF_ACTIVATE;
		if ((p->flags & PG_exec) && !anon)
			return PAGEREF_ACTIVATE;
		return PAGEREF_KEEP;
	}
	if (referenced_page && !anon)
		return PAGEREF_RECLAIM_CLEAN;
	return PAGEREF_RECLAIM;
}

/*
 * __remove_mapping() and the free at the end of shrink_page_list(): a file
 * page leaves a shadow, an anon page a swap entry (mem_cgroup_swapout()).
 */
static void remove_mapping_and_free(struct rf_model *m, uint32_t idx, const struct scan_control *sc)
{
	struct rf_page *p = P(m, idx);
	uint64_t nr = page_nr(p);
	uint64_t shadow = workingset_eviction(m, p, sc->target);

	model_decide(m, RF_MODEL_EVICT, p);
	if (page_is_file(p)) {
		xa_erase_page(m, idx, shadow);
	} else {
		xa_erase_page(m, idx, shadow);
		m->nr_swap_shadow += nr;
		mem_cgroup_swapout(m, p->memcg, nr);
		p->flags = (p->flags | PG_uncharged) & ~PG_swapcache;	/* the slot is the entry */
	}
	p->mapcount = 0;
	free_page_final(m, idx);
}

/*
 * shrink_page_list(), v4.6.2: the fate of each isolated page, in isolation
 * order.  Survivors are left in @list (compacted) and returned by count.
 */
uint32_t shrink_page_list(struct rf_model *m, uint32_t *list, uint32_t n, struct scan_control *sc,
			  struct shrink_stat *st)
{
	uint32_t i, kept = 0;

	for (i = 0; i < n; i++) {
		uint32_t idx = list[i];
		struct rf_page *p = P(m, idx);
		uint64_t nr = page_nr(p);
		enum page_references ref;

		/*
		 * v4.6.2 and v6.18 alike: a folio that cannot be locked is kept
		 * before it is counted as scanned.
		 */
		if (p->flags & PG_locked)
			goto keep;		/* readahead in progress: folio_trylock() fails */
		if ((p->flags & PG_reading) && ra_read_busy(m, p))
			goto keep;		/* its read in flight: folio_trylock() fails */
		sc->nr_scanned += m->p->scan_nr_pages ? nr : 1;
		if (!sc->may_unmap && p->mapcount)
			goto keep;
		/* v6.1..v6.12 shrink_folio_list(): folio_update_gen() tried to promote it */
		if (lru_gen_on(m) && p->mapcount && (p->flags & PG_referenced) &&
		    sc->kind != RECLAIM_PAGEOUT && !m->p->lru_gen_refs_sticky)
			goto keep;
		/*
		 * folio_check_dirty_writeback(): a dirty file folio not under
		 * writeback (writeback=recorded or flusher; anon ones are reclaim's to write)
		 */
		if (writeback_tracked(m) && page_is_file(p) && (p->flags & PG_dirty)) {
			st->nr_unqueued_dirty += nr;
			m->nr_dirty_met += nr;
			/* met before and still not written: cycling through the LRU faster */
			if (folio_test_reclaim(m, idx))
				st->nr_congested += nr;
		}
		/* before v5.3: double the slab pressure for mapped and swap-cache pages */
		if (!m->p->scan_nr_pages && (p->mapcount || (p->flags & PG_swapcache)))
			sc->nr_scanned++;
		if (p->batch_refs)
			goto keep;		/* an activate batch holds it: freeze fails */
		ref = page_check_references(m, p, sc);
		if (ref == PAGEREF_ACTIVATE)
			goto activate;
		if (ref == PAGEREF_KEEP)
			goto keep;
		if (!page_is_file(p) && !(p->flags & PG_swapcache)) {
			/* add_to_swap(): v4.x always splits a THP, v4.13+ when slots are short */
			if (p->order && sc->may_swap && p->where == WHERE_ISOLATED &&
			    (!m->p->thp_swap || m->swap_total - m->swap_used < nr)) {
				if (split_huge_page(m, idx))
					return kept;
				p = P(m, idx);
				nr = 1;
			}
			if (!sc->may_swap || !add_to_swap(m, p))
				goto activate;
			/*
			 * pageout() -> swap_writepage() starts the write (pswpout)
			 * and the page stays under writeback: "goto keep" (v4.6.2
			 * shrink_page_list(), v6.18 shrink_folio_list()).  A later
			 * pass finds it written and clean and frees it.
			 */
			m->ev[EV_PSWPOUT] += nr;
			count_memcg_event(m, p->memcg, EV_PSWPOUT, nr);
			st->nr_pageout += nr;
			p->flags = (p->flags | PG_swapcache | PG_writeback) &
				   ~(PG_dirty | PG_young);
			goto keep;
		}
		/*
		 * v6.12 shrink_folio_list(): only kswapd writes file folios, and
		 * only ones it met before with PGDAT_DIRTY set; the others get
		 * PG_reclaim and go to the active list until the flusher has
		 * written them (v4.11+; v4.6.2 kept them on the inactive list:
		 * "goto keep_locked").  SIMPLIFIED: kswapd's own pageout() of
		 * file folios is not modelled.
		 */
		if (writeback_tracked(m) && page_is_file(p) && (p->flags & PG_dirty)) {
			if (folio_set_reclaim(m, idx))
				return kept;	/* no memory: m->error says so */
			if (m->p->dirty_file_activate)
				goto activate;
			goto keep;
		}
		if (p->flags & PG_pinned)
			goto keep;		/* __remove_mapping(): the reader's reference */
		remove_mapping_and_free(m, idx, sc);
		st->nr_reclaimed += nr;
		continue;
activate:
		p->flags |= PG_active;
		st->nr_activate += m->p->pgactivate_nr_pages ? nr : 1;
		count_memcg_event(m, p->memcg, EV_PGACTIVATE, m->p->pgactivate_nr_pages ? nr : 1);
		model_decide(m, RF_MODEL_ACTIVATE, p);
keep:
		if (!(p->flags & PG_writeback))
			swap_cache_drop(m, p);	/* kept after all: the slot goes */
		list[kept++] = idx;
	}
	m->ev[EV_PGACTIVATE] += st->nr_activate;
	return kept;
}

/*
 * putback_inactive_pages(), v4.6.2 (move_pages_to_lru(), v5.10.7): each
 * survivor to the head of its list in processing order; rotated pages feed
 * recent_rotated (v4.x) or age the nonresident counter (v5.9+).
 */
static void putback_inactive_pages(struct rf_model *m, uint32_t *list, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct rf_page *p = P(m, list[i]);
		int lru = page_lru(p);

		add_page_to_lru_list(m, list[i], lru);
		if (!is_active_lru(lru))
			continue;
		if (m->p->balance == BALANCE_ROTATED)
			page_lruvec(m, p)->recent_rotated[is_file_lru(lru)] += page_nr(p);
		if (m->p->ws_domain == WS_RECLAIM_ROOT)
			workingset_age_nonresident(m, p->memcg, page_nr(p));
	}
}

/*
 * The swap writes this pass started complete now, after putback:
 * end_page_writeback() -> rotate_reclaimable_page() (v4.6.2;
 * folio_end_writeback() -> folio_rotate_reclaimable(), v6.18) moves each page
 * still on an inactive list to its tail (pgrotated), where the next pass
 * meets it first.  SIMPLIFIED: the kernel's I/O completes some time later.
 */
void end_swap_writeback(struct rf_model *m, const uint32_t *list, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct rf_page *p = P(m, list[i]);

		if (!(p->flags & PG_writeback))
			continue;
		p->flags &= ~PG_writeback;
		if (p->where != WHERE_LRU || (p->flags & PG_active))
			continue;
		del_page_from_lru_list(m, list[i]);
		p->flags &= ~PG_active;		/* lru_move_tail(); lru_gen: the oldest generation */
		add_page_to_lru_list_tail(m, list[i], page_lru(p));
		m->ev[EV_PGROTATED] += page_nr(p);
	}
}

/* shrink_inactive_list(), v4.6.2 (v5.10.7 counters and lru_note_cost) */
static uint64_t shrink_inactive_list(struct rf_model *m, uint64_t nr_to_scan, uint32_t memcg,
				     struct scan_control *sc, int lru)
{
	uint32_t list[SWAP_CLUSTER_MAX], n, kept;
	uint64_t nr_scanned, nr_taken;
	struct shrink_stat st = { 0 };
	bool file = is_file_lru(lru), global = global_reclaim(sc);
	bool kswapd = sc->kind == RECLAIM_KSWAPD;

	lru_drain_for_reclaim(m);
	cost_add(m, COST_LRU_LOCK, 1);
	n = isolate_lru_pages(m, nr_to_scan, memcg, lru, sc, list, &nr_scanned, &nr_taken);
	if (global)
		m->nr_pages_scanned += nr_scanned;
	count_both(m, memcg, kswapd ? EV_PGSCAN_KSWAPD : EV_PGSCAN_DIRECT, nr_scanned, global);
	count_both(m, memcg, file ? EV_PGSCAN_FILE : EV_PGSCAN_ANON, nr_scanned, true);
	if (!n)
		return 0;
	kept = shrink_page_list(m, list, n, sc, &st);
	if (m->p->balance == BALANCE_ROTATED)
		mem_cgroup_lruvec(m, memcg)->recent_scanned[file] += nr_taken;
	count_both(m, memcg, kswapd ? EV_PGSTEAL_KSWAPD : EV_PGSTEAL_DIRECT, st.nr_reclaimed,
		   global);
	count_both(m, memcg, file ? EV_PGSTEAL_FILE : EV_PGSTEAL_ANON, st.nr_reclaimed, true);
	cost_add(m, COST_LRU_LOCK, 1);
	putback_inactive_pages(m, list, kept);
	end_swap_writeback(m, list, kept);
	/*
	 * v6.12 (v4.11+): every folio taken was dirty and not queued for I/O:
	 * wake the flushers.  SIMPLIFIED: v4.6.2 woke them from
	 * do_try_to_free_pages() after scanning 1.5 x nr_to_reclaim.
	 */
	if (st.nr_unqueued_dirty && st.nr_unqueued_dirty == nr_taken)
		wakeup_flusher_threads(m);
	sc->nr_dirty += st.nr_unqueued_dirty;
	sc->nr_congested += st.nr_congested;
	/*
	 * v6.12 (0538a82c39e9): what was scanned and not reclaimed rotated;
	 * before, the pages paged out alone.
	 */
	lru_note_cost(m, memcg, file, st.nr_pageout,
		      m->p->balance == BALANCE_COST_IO && nr_scanned > st.nr_reclaimed ?
		      nr_scanned - st.nr_reclaimed : 0);
	return st.nr_reclaimed;
}

/* shrink_active_list(), v4.6.2 (v4.20+ PG_workingset, v5.9+ rotation rules) */
static void shrink_active_list(struct rf_model *m, uint64_t nr_to_scan, uint32_t memcg,
			       struct scan_control *sc, int lru)
{
	uint32_t list[SWAP_CLUSTER_MAX], n, i;
	uint32_t keep_active[SWAP_CLUSTER_MAX], n_active = 0;
	uint32_t to_inactive[SWAP_CLUSTER_MAX], n_inactive = 0;
	uint64_t nr_scanned, nr_taken, nr_rotated = 0, nr_deactivate = 0;
	bool file = is_file_lru(lru), global = global_reclaim(sc);
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);

	lru_drain_for_reclaim(m);
	cost_add(m, COST_LRU_LOCK, 1);
	n = isolate_lru_pages(m, nr_to_scan, memcg, lru, sc, list, &nr_scanned, &nr_taken);
	if (global)
		m->nr_pages_scanned += nr_scanned;
	if (m->p->balance == BALANCE_ROTATED)
		lv->recent_scanned[file] += nr_taken;
	count_both(m, memcg, EV_PGREFILL, nr_scanned, global || !m->p->memcg_vm_events);
	for (i = 0; i < n; i++) {
		struct rf_page *p = P(m, list[i]);

		if (page_referenced(m, p, sc)) {
			if ((p->flags & PG_exec) && file) {
				nr_rotated += page_nr(p);
				keep_active[n_active++] = list[i];
				continue;
			}
			if (m->p->balance == BALANCE_ROTATED)
				/* v4.x counts every referenced page */
				nr_rotated += page_nr(p);
		}
		p->flags &= ~PG_active;
		if (m->p->deactivate_workingset)
			p->flags |= PG_workingset;
		to_inactive[n_inactive++] = list[i];
	}
	if (m->p->balance == BALANCE_ROTATED)
		lv->recent_rotated[file] += nr_rotated;
	cost_add(m, COST_LRU_LOCK, 1);
	for (i = 0; i < n_active; i++) {
		add_page_to_lru_list(m, keep_active[i], lru);
		if (m->p->ws_domain == WS_RECLAIM_ROOT)
			workingset_age_nonresident(m, memcg, page_nr(P(m, keep_active[i])));
	}
	for (i = 0; i < n_inactive; i++) {
		add_page_to_lru_list(m, to_inactive[i], lru - 1);
		nr_deactivate += page_nr(P(m, to_inactive[i]));
	}
	count_both(m, memcg, EV_PGDEACTIVATE, nr_deactivate, true);
	/* v6.12 (0538a82c39e9): rotations are a cost; v6.1 noted none here */
	if (m->p->balance == BALANCE_COST_IO && nr_rotated)
		lru_note_cost(m, memcg, file, 0, nr_rotated);
}

/* shrink_list(), v4.6.2 (v5.9+: sc->may_deactivate decided at the root) */
static uint64_t shrink_list(struct rf_model *m, int lru, uint64_t nr_to_scan, uint32_t memcg,
			    struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		bool file = is_file_lru(lru);
		bool low = m->p->file_low == FILE_LOW_AT_ROOT ?
			!!(sc->may_deactivate & (file ? DEACTIVATE_FILE : DEACTIVATE_ANON)) :
			inactive_list_is_low(m, memcg, file);

		if (low)
			shrink_active_list(m, nr_to_scan, memcg, sc, lru);
		return 0;
	}
	return shrink_inactive_list(m, nr_to_scan, memcg, sc, lru);
}

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

/*
 * The "cache trap" test of get_scan_count() (v4.6.2) and of
 * prepare_scan_count()'s file_is_tiny (v5.10.7): the node's file pages and
 * free pages together at most its high watermark.
 */
static bool node_file_tiny(struct rf_model *m)
{
	uint64_t file = node_lru_pages(m, LRU_ACTIVE_FILE) + node_lru_pages(m, LRU_INACTIVE_FILE);

	return file + (m->nr_free > 0 ? (uint64_t)m->nr_free : 0) <= m->wmark_high;
}

/*
 * The SCAN_FRACT part of get_scan_count(): anon's and file's shares.
 * v4.6.2 (BALANCE_ROTATED): swappiness and 200 - swappiness, each weighted
 * by the lruvec's recent_scanned / recent_rotated of its type, which are
 * halved once past a quarter of its lists.  v5.10.7: the costs snapshotted
 * at the reclaim root (prepare_scan_count()), each type's pressure inverse
 * to its cost.
 */
static void scan_fraction(struct rf_model *m, struct rf_lruvec *lv, const struct scan_control *sc,
			  uint64_t swappiness, uint64_t fraction[2], uint64_t *denominator)
{
	uint64_t ap, fp;

	if (m->p->balance == BALANCE_ROTATED) {
		uint64_t anon = lv->size[LRU_ACTIVE_ANON] + lv->size[LRU_INACTIVE_ANON];
		uint64_t file = lv->size[LRU_ACTIVE_FILE] + lv->size[LRU_INACTIVE_FILE];

		if (lv->recent_scanned[0] > anon / 4) {
			lv->recent_scanned[0] /= 2;
			lv->recent_rotated[0] /= 2;
		}
		if (lv->recent_scanned[1] > file / 4) {
			lv->recent_scanned[1] /= 2;
			lv->recent_rotated[1] /= 2;
		}
		ap = swappiness * (lv->recent_scanned[0] + 1) / (lv->recent_rotated[0] + 1);
		fp = (200 - swappiness) * (lv->recent_scanned[1] + 1) / (lv->recent_rotated[1] + 1);
		*denominator = ap + fp + 1;
	} else {
		uint64_t total = sc->anon_cost + sc->file_cost;
		uint64_t anon_cost = total + sc->anon_cost, file_cost = total + sc->file_cost;

		total = anon_cost + file_cost;
		ap = swappiness * (total + 1) / (anon_cost + 1);
		fp = (200 - swappiness) * (total + 1) / (file_cost + 1);
		*denominator = ap + fp;
	}
	fraction[0] = ap;
	fraction[1] = fp;
}

/*
 * get_scan_count(), v4.6.2 and v5.10.7 (the profile's balance rule): the
 * pages of each list to scan at sc->priority.  Without swap to use, or in
 * limit reclaim at swappiness 0, file only; at priority 0, as much of each.
 * Then v4.6.2: anon only in the cache trap (node_file_tiny()), file only
 * while its inactive list is not low and holds pages at this priority;
 * v5.10.7: anon only when file is tiny, file only in cache trim mode (both
 * decided at the reclaim root, prepare_scan_count()).  Else by the shares
 * (scan_fraction()).  v4.6.2 makes a second pass, forcing up to
 * SWAP_CLUSTER_MAX pages of a list where the first scanned nothing, for
 * limit reclaim and for kswapd on an unreclaimable zone or an offline
 * memcg; v5.10.7 scans that much of an offline memcg's lists at once,
 * rounding its share up.
 */
static void get_scan_count(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
			   uint64_t nr[4])
{
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);
	uint64_t fraction[2] = { 0, 0 }, denominator = 1;
	uint64_t swappiness = (uint64_t)mem_cgroup_swappiness(m, memcg);
	bool v4 = m->p->balance == BALANCE_ROTATED, online = m->memcgs[memcg]->online;
	bool force_scan = false, some_scanned = false;
	enum scan_balance b;
	int pass, lru;

	if (v4)
		force_scan = (sc->kind == RECLAIM_KSWAPD && (!zone_reclaimable(m) || !online)) ||
			!global_reclaim(sc);
	if (!sc->may_swap || mem_cgroup_get_nr_swap_pages(m, memcg) == 0 ||
	    (!global_reclaim(sc) && !swappiness))
		b = SCAN_FILE;
	else if (!sc->priority && swappiness)
		b = SCAN_EQUAL;
	else if (v4 ? global_reclaim(sc) && node_file_tiny(m) : sc->file_is_tiny)
		b = SCAN_ANON;
	else if (v4 ? !inactive_list_is_low(m, memcg, true) &&
		 (lv->size[LRU_INACTIVE_FILE] >> sc->priority) : sc->cache_trim_mode)
		b = SCAN_FILE;
	else
		b = SCAN_FRACT;
	if (b == SCAN_FRACT)
		scan_fraction(m, lv, sc, swappiness, fraction, &denominator);
	for (pass = 0; !some_scanned && pass < 2; pass++) {
		for (lru = 0; lru < 4; lru++) {
			int file = is_file_lru(lru);
			uint64_t size = lv->size[lru], scan = size >> sc->priority;

			if (!scan && (v4 ? pass && force_scan : !online))
				scan = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
			switch (b) {
			case SCAN_EQUAL:
				break;
			case SCAN_FRACT:
				if (v4 || online)
					scan = scan * fraction[file] / denominator;
				else
					scan = (scan * fraction[file] + denominator - 1) /
					       denominator;
				break;
			case SCAN_FILE:
			case SCAN_ANON:
				if ((b == SCAN_FILE) != file)
					scan = 0;
				break;
			}
			nr[lru] = scan;
			some_scanned |= scan != 0;
		}
		if (!v4)
			break;
	}
}

/* shrink_zone_memcg(), v4.6.2 (shrink_node_memcg v4.9, shrink_lruvec v5.x) */
static void shrink_lruvec(struct rf_model *m, uint32_t memcg, struct scan_control *sc)
{
	uint64_t nr[4], targets[4], nr_reclaimed = 0;
	uint64_t nr_to_reclaim = sc->nr_to_reclaim;
	bool scan_adjusted;
	int lru;

	/* v6.12 shrink_lruvec(): memcg reclaim; v6.1: every lruvec (no memcg LRU) */
	if (lru_gen_on(m) && (!root_reclaim(sc) || !m->p->lru_gen_memcg_lru)) {
		lru_gen_shrink_lruvec(m, memcg, sc);
		return;
	}
	get_scan_count(m, memcg, sc, nr);
	for (lru = 0; lru < 4; lru++)
		targets[lru] = nr[lru];
	scan_adjusted = global_reclaim(sc) && sc->kind != RECLAIM_KSWAPD &&
		sc->priority == DEF_PRIORITY;
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		uint64_t nr_anon, nr_file, percentage;
		int small_inactive, big;

		for (lru = 0; lru < 4; lru++) {
			if (nr[lru]) {
				uint64_t n = RF_MIN(nr[lru], (uint64_t)SWAP_CLUSTER_MAX);

				nr[lru] -= n;
				nr_reclaimed += shrink_list(m, lru, n, memcg, sc);
			}
		}
		if (nr_reclaimed < nr_to_reclaim || scan_adjusted)
			continue;
		nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			percentage = nr_anon * 100 /
				(targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1);
			small_inactive = LRU_INACTIVE_ANON;
			big = LRU_INACTIVE_FILE;
		} else {
			percentage = nr_file * 100 /
				(targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1);
			small_inactive = LRU_INACTIVE_FILE;
			big = LRU_INACTIVE_ANON;
		}
		nr[small_inactive] = nr[small_inactive + 1] = 0;
		for (lru = big; lru <= big + 1; lru++) {
			uint64_t scanned = targets[lru] - nr[lru];

			nr[lru] = targets[lru] * (100 - percentage) / 100;
			nr[lru] -= nr[lru] < scanned ? nr[lru] : scanned;
		}
		scan_adjusted = true;
	}
	sc->nr_reclaimed += nr_reclaimed;
	/* rebalance anon even when only file was scanned */
	if (inactive_list_is_low(m, memcg, false))
		shrink_active_list(m, SWAP_CLUSTER_MAX, memcg, sc, LRU_ACTIVE_ANON);
}

/*
 * snapshot_refaults(), v5.4/v5.10/v6.18: remember the refault activations
 * seen so far: v5.9+ the reclaim root's hierarchical WORKINGSET_ACTIVATE_*
 * (as of the last stats flush in v6.x), v5.4 each lruvec's local count.
 */
static void snapshot_refaults(struct rf_model *m, uint32_t root)
{
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, root);

	if (m->p->file_low == FILE_LOW_AT_ROOT) {
		lv->refaults[0] = memcg_stat_activate(m, root, false);
		lv->refaults[1] = memcg_stat_activate(m, root, true);
		return;
	}
	for (uint32_t c = root; c != RF_NONE; c = memcg_next_preorder(m, root, c))
		m->memcgs[c]->lruvec.refaults[1] = m->memcgs[c]->ev[EV_WORKINGSET_ACTIVATE_FILE];
}

/* shrink_node(), v5.10.7: deactivation and cost decisions at the reclaim root */
static void prepare_scan_count(struct rf_model *m, struct scan_control *sc)
{
	uint32_t root = reclaim_root(sc);
	struct rf_lruvec *lv = mem_cgroup_lruvec(m, root);

	sc->anon_cost = lv->anon_cost;
	sc->file_cost = lv->file_cost;
	sc->may_deactivate = 0;
	if (memcg_stat_activate(m, root, false) != lv->refaults[0] ||
	    inactive_is_low_hier(m, root, false))
		sc->may_deactivate |= DEACTIVATE_ANON;
	if (memcg_stat_activate(m, root, true) != lv->refaults[1] ||
	    inactive_is_low_hier(m, root, true))
		sc->may_deactivate |= DEACTIVATE_FILE;
	sc->cache_trim_mode = (lv->hier_size[LRU_INACTIVE_FILE] >> sc->priority) &&
		!(sc->may_deactivate & DEACTIVATE_FILE);
	sc->file_is_tiny = false;
	if (global_reclaim(sc))
		sc->file_is_tiny = node_file_tiny(m) && !(sc->may_deactivate & DEACTIVATE_ANON) &&
			(node_lru_pages(m, LRU_INACTIVE_ANON) >> sc->priority);
}

/* all the pages on the LRU lists of @memcg's own lruvec (v4.6 get_scan_count()'s lru_pages) */
static uint64_t memcg_lru_pages(struct rf_model *m, uint32_t memcg)
{
	const struct rf_lruvec *lv = mem_cgroup_lruvec(m, memcg);

	return lv->size[0] + lv->size[1] + lv->size[2] + lv->size[3];
}

/* shrink_slab(memcg) for the shadow-node shrinker, after @memcg's LRU scan of @scanned pages */
void shrink_shadow_slab(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
			uint64_t scanned)
{
	if (sc->kind != RECLAIM_PAGEOUT)
		shrink_shadow_nodes(m, memcg, scanned, memcg_lru_pages(m, memcg), sc->priority);
}

/*
 * shrink_zone(), v4.6.2 / shrink_node() v4.9 / shrink_node_memcgs() v5.10.7,
 * v6.18.  The shadow shrinker: memcg-aware since v4.6 (0a6b76dd), it runs
 * after each memcg's LRU scan, global and limit reclaim alike
 * (shrink_slab(memcg) in shrink_node_memcgs(); v4.x: with the memcg's scanned
 * and LRU pages); v4.5 has one list, shrunk after a global pass only.
 */
static void shrink_node(struct rf_model *m, struct scan_control *sc)
{
	uint32_t root = reclaim_root(sc), memcg;
	uint64_t scanned0 = sc->nr_scanned;
	bool done = false, per_memcg = m->p->shadow_shrinker == SHADOW_SHRINKER_MEMCG;

	if (lru_gen_on(m) && root_reclaim(sc) && m->p->lru_gen_memcg_lru) {
		lru_gen_shrink_node(m, sc);		/* v6.12 shrink_node() */
		return;
	}
	if (m->p->file_low == FILE_LOW_AT_ROOT && !lru_gen_on(m))
		prepare_scan_count(m, sc);
	for (memcg = mem_cgroup_iter(m, root, RF_NONE, sc->priority, &done); memcg != RF_NONE;
	     memcg = mem_cgroup_iter(m, root, memcg, sc->priority, &done)) {
		uint64_t scanned = sc->nr_scanned;

		if (mem_cgroup_low(m, root, memcg)) {
			if (!sc->may_thrash)
				continue;
			count_memcg_event(m, memcg, EV_MEMCG_LOW, 1);
		}
		shrink_lruvec(m, memcg, sc);
		if (per_memcg)
			shrink_shadow_slab(m, memcg, sc, sc->nr_scanned - scanned);
		if (m->p->memcg_iter_cookie && !global_reclaim(sc) &&
		    sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;		/* mem_cgroup_iter_break(); the cursor stays here */
	}
	if (!per_memcg && global_reclaim(sc)) {
		uint64_t lru = node_lru_pages(m, 0) + node_lru_pages(m, 1) + node_lru_pages(m, 2) +
			node_lru_pages(m, 3);

		shrink_shadow_nodes(m, 0, sc->nr_scanned - scanned0, lru, sc->priority);
	}
	/*
	 * v6.12 shrink_node(): every dirty folio limit reclaim met was met
	 * before and is still not written (nr.dirty == nr.congested): the
	 * memcg is congested (LRUVEC_CGROUP_CONGESTED) and the reclaimer
	 * sleeps in reclaim_throttle(VMSCAN_THROTTLE_CONGESTED) while the
	 * disk writes.  No time passes inside a model's reclaim, so it stops
	 * there and the memcg's charges go through without reclaim for a
	 * jiffy of trace time (memcg.c try_charge()): what the trace's own
	 * writes did while the recording kernel's reclaimer slept.
	 * SIMPLIFIED: the same for every profile (before v5.16 the reclaimer
	 * waited in wait_iff_congested(); the multi-gen LRU's evict_folios()
	 * counts no nr.dirty: memcg.c's OOM path throttles it).
	 */
	if (!global_reclaim(sc) && sc->nr_dirty && sc->nr_dirty == sc->nr_congested) {
		m->memcgs[sc->target]->throttled_until = m->now + RECLAIM_THROTTLE_NS;
		sc->throttled = true;
	}
	sc->nr_dirty = sc->nr_congested = 0;
}

/* do_try_to_free_pages(), v4.6.2 */
static uint64_t do_try_to_free_pages(struct rf_model *m, struct scan_control *sc)
{
retry:
	if (global_reclaim(sc))
		m->ev[EV_ALLOCSTALL]++;
	do {
		sc->nr_scanned = 0;
		if (!global_reclaim(sc) || sc->priority == DEF_PRIORITY || zone_reclaimable(m))
			shrink_node(m, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim || sc->throttled)
			break;
	} while (--sc->priority >= 0);
	if ((m->p->file_low == FILE_LOW_AT_ROOT || m->p->file_low == FILE_LOW_SQRT_REFAULT) &&
	    !lru_gen_on(m))
		snapshot_refaults(m, reclaim_root(sc));
	if (sc->nr_reclaimed || sc->throttled)
		return sc->nr_reclaimed;
	if (!sc->may_thrash) {
		sc->priority = DEF_PRIORITY;
		sc->may_thrash = true;
		goto retry;
	}
	return 0;
}

static uint32_t enter_reclaim(struct rf_model *m, uint32_t cpu)
{
	uint32_t saved = m->cur_cpu;

	m->in_reclaim = true;
	m->cur_cpu = cpu;
	return saved;
}

static void leave_reclaim(struct rf_model *m, uint32_t saved)
{
	m->cur_cpu = saved;
	m->in_reclaim = false;
}

/* try_to_free_pages(), v4.6.2: direct reclaim on the allocating CPU */
uint64_t try_to_free_pages(struct rf_model *m)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.target = RF_NONE,
		.priority = DEF_PRIORITY,
		.kind = RECLAIM_DIRECT,
		.may_unmap = true,
		.may_swap = true,
	};
	uint32_t saved = enter_reclaim(m, m->cur_cpu);
	uint64_t r = do_try_to_free_pages(m, &sc);

	leave_reclaim(m, saved);
	return r;
}

/* try_to_free_mem_cgroup_pages(), v4.6.2: limit reclaim of @memcg's subtree */
uint64_t try_to_free_mem_cgroup_pages(struct rf_model *m, uint32_t memcg, uint64_t nr,
				      bool may_swap)
{
	struct scan_control sc = {
		.nr_to_reclaim = nr > SWAP_CLUSTER_MAX ? nr : SWAP_CLUSTER_MAX,
		.target = memcg,
		.priority = DEF_PRIORITY,
		.kind = RECLAIM_MEMCG,
		.may_unmap = true,
		.may_swap = may_swap,
	};
	uint32_t saved = enter_reclaim(m, m->cur_cpu);
	uint64_t r = do_try_to_free_pages(m, &sc);

	leave_reclaim(m, saved);
	return r;
}

/* age_active_anon(), v4.6.2: every memcg, no cookie (kswapd_age_node(), v6.1+) */
static void age_active_anon(struct rf_model *m, struct scan_control *sc)
{
	uint32_t memcg;

	if (lru_gen_on(m)) {
		lru_gen_age_node(m, sc);
		return;
	}
	if (!m->swap_total)
		return;
	for (memcg = 0; memcg != RF_NONE; memcg = memcg_next_preorder(m, 0, memcg)) {
		if (!m->memcgs[memcg]->id && memcg)
			continue;
		if (inactive_list_is_low(m, memcg, false))
			shrink_active_list(m, SWAP_CLUSTER_MAX, memcg, sc, LRU_ACTIVE_ANON);
	}
}

bool zone_balanced(struct rf_model *m, uint64_t gap)
{
	return m->nr_free > 0 && (uint64_t)m->nr_free > m->wmark_high + gap;
}

/*
 * balance_pgdat(), v4.6.2 (v4.9: balance test before aging anon, no
 * balance gap), order 0, one zone.
 */
static void balance_pgdat(struct rf_model *m)
{
	struct scan_control sc = {
		.target = RF_NONE,
		.priority = DEF_PRIORITY,
		.kind = RECLAIM_KSWAPD,
		.may_unmap = true,
		.may_swap = true,
	};
	uint64_t gap = m->wmark_low < (m->managed + 99) / 100 ? m->wmark_low :
		(m->managed + 99) / 100;

	m->ev[EV_PAGEOUTRUN]++;
	do {
		bool raise_priority = true;

		sc.nr_reclaimed = 0;
		if (m->p->kswapd_check_first) {
			if (zone_balanced(m, 0))
				break;
			age_active_anon(m, &sc);
		} else {
			if (sc.priority != DEF_PRIORITY && !zone_reclaimable(m))
				break;
			age_active_anon(m, &sc);
			if (zone_balanced(m, 0))
				break;
		}
		sc.nr_scanned = 0;
		sc.nr_to_reclaim = m->wmark_high > SWAP_CLUSTER_MAX ? m->wmark_high :
			SWAP_CLUSTER_MAX;
		if (m->p->node_lru || !zone_balanced(m, gap))
			shrink_node(m, &sc);
		if (sc.nr_scanned >= sc.nr_to_reclaim)
			raise_priority = false;
		if (raise_priority || !sc.nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1 && !zone_balanced(m, 0));
	if ((m->p->file_low == FILE_LOW_AT_ROOT || m->p->file_low == FILE_LOW_SQRT_REFAULT) &&
	    !lru_gen_on(m))
		snapshot_refaults(m, 0);
}

void wakeup_kswapd(struct rf_model *m)
{
	if (!zone_balanced(m, 0))
		m->kswapd_wanted = true;
}

/* kswapd, run to completion now on its own CPU */
void kswapd_run(struct rf_model *m)
{
	uint32_t saved;

	if (!m->kswapd_wanted || m->in_reclaim)
		return;
	m->kswapd_wanted = false;
	saved = enter_reclaim(m, m->cfg.kswapd_cpu >= 0 ? (uint32_t)m->cfg.kswapd_cpu :
			      m->nr_cpus - 1);
	balance_pgdat(m);
	leave_reclaim(m, saved);
}

/*
 * reclaim_pages(), v5.10.7/v6.1 (MADV_PAGEOUT): shrink_page_list() on
 * isolated pages without pgscan/pgsteal counting; survivors go back through
 * putback_lru_page() -> lru_cache_add() on this CPU.
 */
uint64_t reclaim_pages(struct rf_model *m, uint32_t *list, uint32_t n)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.target = RF_NONE,
		.priority = DEF_PRIORITY,
		.kind = RECLAIM_PAGEOUT,
		.may_unmap = true,
		.may_swap = true,
	};
	struct shrink_stat st = { 0 };
	uint32_t kept, i, saved = enter_reclaim(m, m->cur_cpu);

	kept = shrink_page_list(m, list, n, &sc, &st);
	for (i = 0; i < kept; i++)
		lru_cache_add(m, list[i]);
	end_swap_writeback(m, list, kept);	/* in a batch, not on the LRU: no rotation */
	leave_reclaim(m, saved);
	return st.nr_reclaimed;
}
