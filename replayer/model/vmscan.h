/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page reclaim (vmscan.c, mm/vmscan.c): direct, memcg limit and kswapd
 * reclaim over the classic LRU lists, shrink_page_list() for every reclaim
 * (the multi-gen LRU's eviction, lru_gen.h, too), the anon/file cost and the
 * shadow shrinker's turn after each memcg.  struct scan_control is the
 * kernel's, the fields the model uses.
 */
#ifndef REFAULT_MODEL_VMSCAN_H
#define REFAULT_MODEL_VMSCAN_H

#include "model-local.h"

enum reclaim_kind {
	RECLAIM_KSWAPD,
	RECLAIM_DIRECT,
	RECLAIM_MEMCG,
	RECLAIM_PAGEOUT,
};

struct scan_control {
	uint64_t nr_to_reclaim;
	uint64_t nr_reclaimed;
	uint64_t nr_scanned;
	uint32_t target;		/* target_mem_cgroup slot; RF_NONE = global */
	int priority;
	enum reclaim_kind kind;
	bool may_unmap, may_swap, may_thrash;
	/* v5.9+ (prepare_scan_count) */
	uint64_t anon_cost, file_cost;
	unsigned int may_deactivate;
	bool cache_trim_mode, file_is_tiny;
	/* v6.1 multi-gen LRU: lru_gen_age_node()'s shortcut and kswapd's progress mark */
	bool memcgs_need_aging;
	uint64_t last_reclaimed;
	/* v6.12 shrink_node(): sc->nr.dirty, sc->nr.congested, and a throttled reclaim */
	uint64_t nr_dirty, nr_congested;
	bool throttled;
};

/* What shrink_page_list() did with a batch (struct reclaim_stat's part the model counts). */
struct shrink_stat {
	uint64_t nr_reclaimed;
	uint64_t nr_pageout;
	uint64_t nr_activate;
	/*
	 * dirty file pages met (writeback=flusher, recorded): the model's dirty
	 * is dirty or under writeback, so this is the kernel's nr_dirty too
	 */
	uint64_t nr_unqueued_dirty;
	uint64_t nr_congested;		/* of them, met before: PG_reclaim set */
};

static inline bool global_reclaim(const struct scan_control *sc)
{
	return sc->target == RF_NONE;
}

/* root_reclaim(), v6.12: global reclaim or reclaim of the root memcg */
static inline bool root_reclaim(const struct scan_control *sc)
{
	return sc->target == RF_NONE || sc->target == 0;
}

/* The reclaim events (pgscan, pgsteal, pgrefill...): the node's count only for @global reclaim. */
static inline void count_both(struct rf_model *m, uint32_t memcg, enum rf_vm_event ev,
			      uint64_t nr, bool global)
{
	if (global)
		m->ev[ev] += nr;
	count_memcg_event(m, memcg, ev, nr);
}

/* ------------------------------------------------------------ entries */

/* try_to_free_pages(): direct reclaim on the allocating CPU; the pages reclaimed. */
uint64_t try_to_free_pages(struct rf_model *m);
/* try_to_free_mem_cgroup_pages(): limit reclaim of @memcg's subtree, at least @nr pages. */
uint64_t try_to_free_mem_cgroup_pages(struct rf_model *m, uint32_t memcg, uint64_t nr,
				      bool may_swap);
/* wakeup_kswapd(): kswapd is wanted when the zone is not balanced. */
void wakeup_kswapd(struct rf_model *m);
/* kswapd, if wanted, run to completion now on its own CPU (balance_pgdat()). */
void kswapd_run(struct rf_model *m);
/* reclaim_pages() (MADV_PAGEOUT): the isolated pages of @list; the pages reclaimed. */
uint64_t reclaim_pages(struct rf_model *m, uint32_t *list, uint32_t nr);
/* Whether the zone's free pages are above its high watermark plus @gap. */
bool zone_balanced(struct rf_model *m, uint64_t gap);

/* ------------------------------------- steps the multi-gen LRU shares */

/*
 * shrink_page_list() (shrink_folio_list()): the fate of each isolated page
 * of @list, in order; the survivors are left at the front of @list, their
 * number returned, what happened counted in @st.
 */
uint32_t shrink_page_list(struct rf_model *m, uint32_t *list, uint32_t n, struct scan_control *sc,
			  struct shrink_stat *st);
/* The swap writes a pass started complete: each still inactive page to its list's tail. */
void end_swap_writeback(struct rf_model *m, const uint32_t *list, uint32_t n);
/* shrink_slab(@memcg) for the shadow-node shrinker, after a scan of @scanned pages. */
void shrink_shadow_slab(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
			uint64_t scanned);
/* lru_note_cost(), v5.8+: the cost of @nr_io pages of I/O and @nr_rotated rotations, upwards. */
void lru_note_cost(struct rf_model *m, uint32_t memcg, bool file, uint64_t nr_io,
		   uint64_t nr_rotated);

#endif /* REFAULT_MODEL_VMSCAN_H */
