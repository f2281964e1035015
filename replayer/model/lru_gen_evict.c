/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU's eviction: mm/vmscan.c's "the eviction", "PID
 * controller", "working set protection" and "memcg LRU" sections.
 *
 *   lru_gen_shrink_node    root reclaim (kswapd, direct): the memcg LRU
 *   shrink_many/shrink_one walk the memcgs by generation and bin
 *   lru_gen_shrink_lruvec  memcg limit reclaim, from shrink_lruvec()
 *   try_to_shrink_lruvec   age or evict until nr_to_scan is met
 *   evict_folios           isolate_folios() + shrink_folio_list()
 *   isolate_folios         the type (get_type_to_scan()), the tier
 *   scan_folios            sort_folio() or isolate_folio() each folio of
 *                          the oldest generation
 *
 * The rules are v6.12.117's; v6.1.192's are switches inside the same
 * functions (lru_gen_kswapd_ages: get_swappiness(), get_nr_to_scan(),
 * should_abort_scan(), the loop of try_to_shrink_lruvec(),
 * lru_gen_shrink_lruvec() and lru_gen_age_node() with its age_lruvec();
 * lru_gen_memcg_lru off: no memcg LRU), and so are v6.18.2's
 * (lru_gen_refs_sticky, lru_gen_aging_gens, lru_gen_ctrl_all_tiers).
 * The memcg LRU's random bins come from a generator seeded by the config
 * (lru_gen_seed, docs/model.md), so a replay is the same every time.  One
 * node, one zone, GFP_KERNEL (__GFP_IO) reclaim.
 */
#include "lib/compiler.h"
#include "lib/prng.h"
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"
#include "memcg.h"
#include "vmscan.h"
#include "workingset.h"
#include "writeback.h"

#define MAX_SWAPPINESS		200
#define MEMCG_LRU_HEAD		1
#define MEMCG_LRU_TAIL		2
#define MEMCG_LRU_OLD		3
#define MEMCG_LRU_YOUNG		4

/* get_random_u32_below(): splitmix64 of the model's own state, seeded by lru_gen_seed */
static uint32_t random_below(struct rf_model *m, uint32_t n)
{
	uint64_t z = rf_splitmix64(&m->rng);

	return (uint32_t)(((z >> 32) * n) >> 32);
}

/*
 * get_swappiness(), v6.12: 0 without swap to use (fewer than MIN_LRU_BATCH
 * slots) or without may_swap, else the memcg's swappiness.  v6.1.192
 * (lru_gen_kswapd_ages) has no may_swap test here: its
 * lru_gen_shrink_lruvec() makes it (try_to_shrink_lruvec()).
 */
static int get_swappiness(struct rf_model *m, uint32_t memcg, const struct scan_control *sc)
{
	if ((!sc->may_swap && !m->p->lru_gen_kswapd_ages) ||
	    mem_cgroup_get_nr_swap_pages(m, memcg) < MIN_LRU_BATCH)
		return 0;
	return mem_cgroup_swappiness(m, memcg);
}

/* --------------------------------------------------------- PID controller */

struct ctrl_pos {
	uint64_t refaulted, total;
	int gain;
};

/*
 * read_ctrl_pos(), v6.12: the P term and the I term (averages) of one
 * tier; v6.18: @tier MAX_NR_TIERS sums them all.
 */
static void read_ctrl_pos(const struct rf_lrugen *g, int type, int tier, int gain,
			  struct ctrl_pos *pos)
{
	int i, last = tier < (int)MAX_NR_TIERS ? tier : (int)MAX_NR_TIERS - 1;

	pos->refaulted = pos->total = 0;
	for (i = tier % (int)MAX_NR_TIERS; i <= last; i++) {
		pos->refaulted += g->avg_refaulted[type][i] + g->refaulted[type][i];
		pos->total += g->avg_total[type][i] + g->evicted[type][i] + g->protected[type][i];
	}
	pos->gain = gain;
}

/*
 * positive_ctrl_err(), v6.12: the process variable has few refaults
 * (< MIN_LRU_BATCH) or a refault rate, weighted by the gains, no higher
 * than the setpoint's.
 */
static bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv)
{
	return pv->refaulted < MIN_LRU_BATCH ||
	       pv->refaulted * (sp->total + MIN_LRU_BATCH) * (uint64_t)sp->gain <=
	       (sp->refaulted + 1) * pv->total * (uint64_t)pv->gain;
}

/*
 * get_tier_idx(), v6.12: the tiers above the first one that refaults more
 * (gains 1:2; v6.18 2:3) are protected.
 */
static int get_tier_idx(const struct rf_model *m, const struct rf_lrugen *g, int type)
{
	bool all = m->p->lru_gen_ctrl_all_tiers;
	struct ctrl_pos sp, pv;
	int tier;

	read_ctrl_pos(g, type, 0, all ? 2 : 1, &sp);
	for (tier = 1; tier < (int)MAX_NR_TIERS; tier++) {
		read_ctrl_pos(g, type, tier, all ? 3 : 2, &pv);
		if (!positive_ctrl_err(&sp, &pv))
			break;
	}
	return tier - 1;
}

/*
 * get_type_to_scan(), v6.12: the first tiers of anon (gain swappiness) and
 * file (gain 200 - swappiness) decide the type; the other type's first
 * tier is the setpoint for the chosen type's tiers.
 */
static int get_type_to_scan(const struct rf_lrugen *g, int swappiness, int *tier_idx)
{
	int gain[2] = { swappiness, MAX_SWAPPINESS - swappiness };
	struct ctrl_pos sp, pv;
	int type, tier;

	read_ctrl_pos(g, 0, 0, gain[0], &sp);
	read_ctrl_pos(g, 1, 0, gain[1], &pv);
	type = positive_ctrl_err(&sp, &pv);
	read_ctrl_pos(g, !type, 0, gain[!type], &sp);
	for (tier = 1; tier < (int)MAX_NR_TIERS; tier++) {
		read_ctrl_pos(g, type, tier, gain[type], &pv);
		if (!positive_ctrl_err(&sp, &pv))
			break;
	}
	*tier_idx = tier - 1;
	return type;
}

/* ------------------------------------------------------------- eviction */

/*
 * sort_folio(), v6.12.117, in its order: a folio promoted since (its flags
 * name a younger generation) goes to that list; a protected one (tier
 * above tier_idx, or refs saturated: "mm/mglru: fix underprotected page
 * cache") to min_seq + 1, counted in protected[] (v6.1: and as a workingset
 * activation).  v6.1 (lru_gen_sort_busy) moves a locked folio or one under
 * writeback a generation up (to the list's head), where v6.12 isolates it
 * and shrink_folio_list() keeps it.  (v6.1 and v6.18 sort dirty file folios
 * too; the model takes file folios as cleaned before reclaim meets them.)
 * v6.18 (lru_gen_refs_sticky): protected with a tier above tier_idx or
 * saturated refs and PG_workingset, to the head of min_seq + 1, counted
 * unless it is the workingset lazily promoted; under writeback, a
 * generation up (lru_gen_sort_busy).
 */
static bool sort_folio(struct rf_model *m, uint32_t idx, int tier_idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int gen = folio_lru_gen(p), type = page_is_file(p), refs = folio_lru_refs(m, p);
	bool ws = p->flags & PG_workingset, sticky = m->p->lru_gen_refs_sticky;
	int tier = lru_tier_from_refs(m, refs, ws);
	/* saturated: v6.12 the refs alone; v6.18 with PG_workingset (lazily promoted) */
	bool saturated = sticky ? refs + ws == (1 << LRU_REFS_WIDTH) + 1 :
		refs == 1 << LRU_REFS_WIDTH;

	if (gen != lru_gen_from_seq(g->min_seq[type])) {
		lru_gen_list_move(m, idx, gen, false);
		return true;
	}
	if (tier > tier_idx || saturated) {
		gen = folio_inc_gen(m, idx);
		lru_gen_list_move(m, idx, gen, !sticky);	/* v6.18: to the list's head */
		if (!sticky || !saturated)
			g->protected[type][tier] += page_nr(p);
		if (m->p->lru_gen_ws_v61)
			workingset_count_activate(m, p->memcg, type, page_nr(p));
		return true;
	}
	/* v6.1 sorts locked folios too, v6.18 only those under writeback */
	if (m->p->lru_gen_sort_busy &&
	    (p->flags & (sticky ? PG_writeback : PG_locked | PG_writeback))) {
		gen = folio_inc_gen(m, idx);
		lru_gen_list_move(m, idx, gen, false);
		return true;
	}
	return false;
}

/*
 * isolate_folio(), v6.12: a folio nobody else frees; it keeps its refs only
 * with PG_referenced, which it loses (for shrink_folio_list()); v6.18 keeps
 * PG_referenced and PG_workingset, which folio_check_references() reads.
 */
static bool isolate_folio(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (p->flags & PG_orphan)
		return false;		/* raced with release_pages() */
	if (m->p->lru_gen_refs_sticky) {
		/* v6.18: only the refs bits, and only without PG_referenced */
		if (!(p->flags & PG_referenced))
			p->gen &= (uint8_t)~LRU_REFS_MASK;
	} else {
		if (!(p->flags & PG_referenced))
			folio_clear_lru_refs(m, p);
		p->flags &= ~PG_referenced;
	}
	lru_gen_del_folio(m, idx, true);
	return true;
}

/*
 * scan_folios(), v6.12: from the tail of the oldest generation of @type,
 * until MIN_LRU_BATCH pages are isolated (or as many skipped) or
 * MAX_LRU_BATCH folios looked at.  pgscan counts the isolated pages,
 * pgrefill the sorted ones.  Returns the pages scanned, 0 if nothing could
 * be isolated with folios left.
 */
static uint64_t scan_folios(struct rf_model *m, uint32_t memcg, const struct scan_control *sc,
			    int type, int tier, uint32_t *list, uint32_t *n)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int gen = lru_gen_from_seq(g->min_seq[type]);
	uint32_t remaining = MAX_LRU_BATCH, first_moved = RF_NIL;
	uint64_t scanned = 0, sorted = 0, isolated = 0, skipped = 0;
	bool global = global_reclaim(sc), kswapd;

	*n = 0;
	if (get_nr_gens(g, type) == (int)MIN_NR_GENS)
		return 0;
	while (g->tail[gen][type] != RF_NIL && g->tail[gen][type] != first_moved) {
		uint32_t idx = g->tail[gen][type];
		uint64_t delta = page_nr(P(m, idx));

		scanned += delta;
		if (sort_folio(m, idx, tier)) {
			sorted += delta;
		} else if (isolate_folio(m, idx)) {
			list[(*n)++] = idx;
			isolated += delta;
		} else {
			/* moved aside and spliced back at the head: here, to the head at once */
			lru_gen_list_move(m, idx, gen, false);
			if (first_moved == RF_NIL)
				first_moved = idx;
			skipped += delta;
		}
		if (!--remaining || RF_MAX(isolated, skipped) >= MIN_LRU_BATCH ||
		    *n == MIN_LRU_BATCH)
			break;
	}
	kswapd = sc->kind == RECLAIM_KSWAPD;
	count_both(m, memcg, kswapd ? EV_PGSCAN_KSWAPD : EV_PGSCAN_DIRECT, isolated, global);
	count_both(m, memcg, EV_PGREFILL, sorted, global);
	count_both(m, memcg, type ? EV_PGSCAN_FILE : EV_PGSCAN_ANON, isolated, true);
	return isolated || !remaining ? scanned : 0;
}

/*
 * isolate_folios(), v6.12: the obvious type first (no swap: file; anon
 * older than file: anon; swappiness 1: file, 200: anon), else
 * get_type_to_scan(); the other type if the first yields nothing.
 */
static uint64_t isolate_folios(struct rf_model *m, uint32_t memcg, const struct scan_control *sc,
			       int swappiness, int *type_scanned, uint32_t *list, uint32_t *n)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int type, tier = -1, i;
	uint64_t scanned = 0;

	if (m->p->lru_gen_ctrl_all_tiers) {
		/* v6.18: all tiers of anon against all of file, no shortcuts but swappiness */
		struct ctrl_pos sp, pv;

		if (swappiness <= 1) {
			type = 1;
		} else if (swappiness >= MAX_SWAPPINESS) {
			type = 0;
		} else {
			read_ctrl_pos(g, 0, MAX_NR_TIERS, swappiness, &sp);
			read_ctrl_pos(g, 1, MAX_NR_TIERS, MAX_SWAPPINESS - swappiness, &pv);
			type = positive_ctrl_err(&sp, &pv);
		}
		for (i = !swappiness; i < 2; i++) {
			scanned = scan_folios(m, memcg, sc, type, get_tier_idx(m, g, type), list, n);
			if (scanned)
				break;
			type = !type;
		}
		*type_scanned = type;
		return scanned;
	}
	if (!swappiness)
		type = 1;
	else if (g->min_seq[0] < g->min_seq[1])
		type = 0;
	else if (swappiness == 1)
		type = 1;
	else if (swappiness == MAX_SWAPPINESS)
		type = 0;
	else
		type = get_type_to_scan(g, swappiness, &tier);
	for (i = !swappiness; i < 2; i++) {
		if (tier < 0)
			tier = get_tier_idx(m, g, type);
		scanned = scan_folios(m, memcg, sc, type, tier, list, n);
		if (scanned)
			break;
		type = !type;
		tier = -1;
	}
	*type_scanned = type;
	return scanned;
}

/*
 * What evict_folios() does with a folio shrink_folio_list() kept: true to
 * try it once more (a clean leftover, which may have missed
 * folio_rotate_reclaimable(); none on the retry itself, @skip_retry), else
 * its flags for its way back.  v6.12.117: one waiting for its reclaim
 * writeback goes back as it is (max_seq - 1), its PG_referenced restored
 * if it had PG_workingset; one rejected for a reason that lasts (active,
 * referenced, mapped, locked, dirty) with PG_active and its refs and
 * PG_workingset cleared, so it joins max_seq.  v6.18.2
 * (lru_gen_refs_sticky): a clean, unmapped one is tried once more; the
 * others come back active when they would go to min_seq (refs and
 * PG_referenced cleared, PG_workingset kept).
 */
static bool evict_retry(struct rf_model *m, uint32_t idx, int type, bool skip_retry)
{
	struct rf_page *p = P(m, idx);

	if (m->p->lru_gen_refs_sticky) {
		if (!skip_retry && !(p->flags & (PG_active | PG_dirty | PG_writeback)) &&
		    !p->mapcount)
			return true;
		if (lru_gen_add_seq(m, idx) == lrugen_of(m, p->memcg)->min_seq[type]) {
			p->gen &= (uint8_t)~LRU_REFS_MASK;
			p->flags = (p->flags & ~PG_referenced) | PG_active;
		}
		return false;
	}
	if ((p->flags & PG_writeback) ||
	    (writeback_tracked(m) && page_is_file(p) && (p->flags & PG_dirty))) {
		/*
		 * PG_reclaim and dirty or under writeback (the model's dirty
		 * file folios met in reclaim all got PG_reclaim there): as it
		 * is, active; restore LRU_REFS_FLAGS cleared by isolate_folio()
		 */
		if (p->flags & PG_workingset)
			p->flags |= PG_referenced;
		return false;
	}
	if (skip_retry || (p->flags & (PG_active | PG_referenced | PG_locked | PG_dirty)) ||
	    p->mapcount) {
		p->gen &= (uint8_t)~LRU_REFS_MASK;
		p->flags = (p->flags & ~(PG_referenced | PG_workingset)) | PG_active;
		return false;
	}
	return true;
}

/*
 * evict_folios(), v6.12: isolate a batch, shrink_folio_list() it, put back
 * what it kept (evict_retry() says how) and try the clean leftovers once
 * more.  The pages scanned, 0 when the evictable generations are down to
 * MIN_NR_GENS (v6.18: evictable_min_seq()).
 */
static uint64_t evict_folios(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
			     int swappiness, bool *need_swapping)
{
	uint32_t list[MIN_LRU_BATCH], clean[MIN_LRU_BATCH], n, kept, nr_clean, i;
	struct rf_lrugen *g = lrugen_of(m, memcg);
	bool global = global_reclaim(sc), kswapd = sc->kind == RECLAIM_KSWAPD, skip_retry = false;
	uint64_t scanned, taken = 0, unqueued_dirty = 0;
	int type;

	cost_add(m, COST_LRU_LOCK, 1);
	scanned = isolate_folios(m, memcg, sc, swappiness, &type, list, &n);
	scanned += try_to_inc_min_seq(m, memcg, swappiness);
	if (m->p->lru_gen_aging_gens) {
		/* v6.18: evictable_min_seq() */
		uint64_t min = swappiness ? RF_MIN(g->min_seq[0], g->min_seq[1]) : g->min_seq[1];

		if (min + MIN_NR_GENS > g->max_seq)
			scanned = 0;
	} else if (get_nr_gens(g, !swappiness) == (int)MIN_NR_GENS) {
		scanned = 0;
	}
	if (n && !type)
		*need_swapping = true;
	for (i = 0; i < n; i++)
		taken += page_nr(P(m, list[i]));
	while (n) {
		struct shrink_stat st = { 0 };

		kept = shrink_page_list(m, list, n, sc, &st);
		if (m->error)
			return 0;
		unqueued_dirty += st.nr_unqueued_dirty;
		sc->nr_reclaimed += st.nr_reclaimed;
		nr_clean = 0;
		for (i = 0; i < kept; i++) {
			if (evict_retry(m, list[i], type, skip_retry)) {
				clean[nr_clean++] = list[i];
				list[i] = RF_NIL;
			}
		}
		cost_add(m, COST_LRU_LOCK, 1);
		for (i = 0; i < kept; i++)		/* move_folios_to_lru() */
			if (list[i] != RF_NIL)
				add_page_to_lru_list(m, list[i], 0);
		for (i = 0; i < kept; i++)
			if (list[i] != RF_NIL)
				end_swap_writeback(m, &list[i], 1);
		count_both(m, memcg, kswapd ? EV_PGSTEAL_KSWAPD : EV_PGSTEAL_DIRECT,
			   st.nr_reclaimed, global);
		count_both(m, memcg, type ? EV_PGSTEAL_FILE : EV_PGSTEAL_ANON, st.nr_reclaimed,
			   true);
		for (i = 0; i < nr_clean; i++)
			list[i] = clean[i];
		n = nr_clean;
		skip_retry = true;
	}
	/*
	 * lru_gen_shrink_lruvec(), v6.12: the file folios taken were all dirty
	 * and not queued: wake the flushers.  SIMPLIFIED: per batch, not
	 * summed over the lruvec's batches (sc->nr.unqueued_dirty, file_taken).
	 */
	if (type && unqueued_dirty && unqueued_dirty == taken)
		wakeup_flusher_threads(m);
	return scanned;
}

/* ---------------------------------------------------------------- aging */

/*
 * should_run_aging(), v6.12.117: whether the lruvec needs a new generation,
 * and how much it holds (@nr_to_scan).  It must age when the evictable type
 * is down to MIN_NR_GENS generations; at MIN_NR_GENS + 1 it ages when the
 * youngest holds more than half of the pages or the oldest less than a
 * quarter (v6.18's reworked feedback ages at MIN_NR_GENS + 1 always).
 * v6.1 sizes @nr_to_scan even when it must age; v6.12 gives 0 then.
 */
static bool should_run_aging(struct rf_model *m, uint32_t memcg, bool can_swap,
			     uint64_t *nr_to_scan)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint64_t old = 0, young = 0, total = 0, seq;
	int type;

	if (m->p->lru_gen_aging_gens) {
		/* v6.18: the evictable min_seq, and the number of generations alone */
		uint64_t min = can_swap ? RF_MIN(g->min_seq[0], g->min_seq[1]) : g->min_seq[1];

		*nr_to_scan = 0;
		if (min + MIN_NR_GENS > g->max_seq)
			return true;
		for (type = !can_swap; type < 2; type++)
			for (seq = g->min_seq[type]; seq <= g->max_seq; seq++) {
				int64_t size = g->nr_pages[lru_gen_from_seq(seq)][type];

				*nr_to_scan += size > 0 ? (uint64_t)size : 0;
			}
		return min + MIN_NR_GENS == g->max_seq;
	}
	if (g->min_seq[!can_swap] + MIN_NR_GENS > g->max_seq && !m->p->lru_gen_kswapd_ages) {
		*nr_to_scan = 0;
		return true;
	}
	for (type = !can_swap; type < 2; type++) {
		for (seq = g->min_seq[type]; seq <= g->max_seq; seq++) {
			int64_t size = g->nr_pages[lru_gen_from_seq(seq)][type];
			uint64_t s = size > 0 ? (uint64_t)size : 0;

			total += s;
			if (seq == g->max_seq)
				young += s;
			else if (seq + MIN_NR_GENS == g->max_seq)
				old += s;
		}
	}
	*nr_to_scan = total;
	if (g->min_seq[!can_swap] + MIN_NR_GENS > g->max_seq)
		return true;
	if (g->min_seq[!can_swap] + MIN_NR_GENS < g->max_seq)
		return false;
	if (young * MIN_NR_GENS > total)
		return true;
	if (old * (MIN_NR_GENS + 2) < total)
		return true;
	return false;
}

/*
 * get_nr_to_scan(), v6.12: -1 stops (the memcg is protected, or aging ran),
 * else the pages to scan at this priority; no aging at DEF_PRIORITY.
 * v6.1.192 (lru_gen_kswapd_ages): the pages to scan at this priority (all
 * of an offline memcg's), 0 to stop; *@need_aging says whether it needs a
 * new generation, which is not made at DEF_PRIORITY nor by kswapd (it ages
 * in lru_gen_age_node()); direct reclaim ages and goes on evicting.
 */
static int64_t get_nr_to_scan(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
			      bool can_swap, bool *need_aging)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint64_t nr_to_scan;
	bool success = should_run_aging(m, memcg, can_swap, &nr_to_scan);

	if (m->p->lru_gen_kswapd_ages) {
		*need_aging = success;
		if (m->memcgs[memcg]->online)
			nr_to_scan >>= sc->priority;
		if (!success)
			return (int64_t)nr_to_scan;
		if (sc->priority != DEF_PRIORITY) {
			if (sc->kind == RECLAIM_KSWAPD)
				return 0;
			if (try_to_inc_max_seq(m, memcg, g->max_seq, can_swap))
				return (int64_t)nr_to_scan;
		}
		return g->min_seq[!can_swap] + MIN_NR_GENS <= g->max_seq ? (int64_t)nr_to_scan : 0;
	}
	if (nr_to_scan && !m->memcgs[memcg]->online)
		return (int64_t)nr_to_scan;
	if (!success || sc->priority == DEF_PRIORITY)
		return (int64_t)(nr_to_scan >> sc->priority);
	return try_to_inc_max_seq(m, memcg, g->max_seq, can_swap) ? -1 : 0;
}

/*
 * should_abort_scan(), v6.12: root reclaim stops with its target met, or
 * for kswapd with the zone above high + MIN_LRU_BATCH; memcg reclaim never.
 * v6.1.192 (lru_gen_kswapd_ages; @memcg's scan began at max_seq @seq, and
 * @need_swapping: it evicted anon): direct reclaim stops once it aged this
 * memcg twice, or met its target by swapping; memcg reclaim goes on; below
 * DEF_PRIORITY - 2, with the zone above its watermark (high for kswapd,
 * low otherwise; kswapd after reclaiming its target since its last aging
 * pass), it stops and counts MIN_LRU_BATCH more reclaimed.
 */
static bool should_abort_scan(struct rf_model *m, uint32_t memcg, uint64_t seq,
			      struct scan_control *sc, bool need_swapping)
{
	uint64_t wmark;

	if (!m->p->lru_gen_kswapd_ages) {
		if (!root_reclaim(sc))
			return false;
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			return true;
		return sc->kind == RECLAIM_KSWAPD && zone_balanced(m, MIN_LRU_BATCH);
	}
	if (sc->kind != RECLAIM_KSWAPD) {
		if (lrugen_of(m, memcg)->max_seq - seq > 1)
			return true;
		if (sc->nr_reclaimed >= sc->nr_to_reclaim && need_swapping)
			return true;
		if (!global_reclaim(sc))
			return false;
	} else if (sc->nr_reclaimed - sc->last_reclaimed < sc->nr_to_reclaim) {
		return false;
	}
	if (sc->priority > DEF_PRIORITY - 2)
		return false;
	wmark = sc->kind == RECLAIM_KSWAPD ? m->wmark_high : m->wmark_low;
	if (m->nr_free < 0 || wmark > (uint64_t)m->nr_free)
		return false;
	sc->nr_reclaimed += MIN_LRU_BATCH;
	return true;
}

/*
 * try_to_shrink_lruvec(), v6.12: evict until nr_to_scan pages are scanned,
 * the scan should stop, or nothing is left to evict; true if the lruvec
 * should be rotated (aged, or protected).  v6.1.192, where this loop is
 * lru_gen_shrink_lruvec()'s (lru_gen_kswapd_ages): the swappiness taken
 * again each round, 0 without may_swap but for global reclaim with swap to
 * use (1); a lruvec that got MIN_LRU_BATCH pages without needing to age
 * tells kswapd's next lru_gen_age_node() it may skip.
 */
static bool try_to_shrink_lruvec(struct rf_model *m, uint32_t memcg, struct scan_control *sc)
{
	bool v61 = m->p->lru_gen_kswapd_ages, need_aging = false, need_swapping = false;
	uint64_t seq = lrugen_of(m, memcg)->max_seq, reclaimed = sc->nr_reclaimed, scanned = 0;
	int swappiness = v61 ? 0 : get_swappiness(m, memcg, sc);
	int64_t nr_to_scan;

	for (;;) {
		uint64_t delta;

		if (v61) {
			swappiness = get_swappiness(m, memcg, sc);
			if (!sc->may_swap)
				swappiness = global_reclaim(sc) && swappiness ? 1 : 0;
		}
		nr_to_scan = get_nr_to_scan(m, memcg, sc, swappiness, &need_aging);
		if (nr_to_scan <= 0)
			return nr_to_scan < 0;
		delta = evict_folios(m, memcg, sc, swappiness, &need_swapping);
		if (!delta || m->error)
			return false;
		scanned += delta;
		if (scanned >= (uint64_t)nr_to_scan ||
		    should_abort_scan(m, memcg, seq, sc, need_swapping))
			break;
	}
	if (v61 && sc->nr_reclaimed - reclaimed >= MIN_LRU_BATCH && !need_aging)
		sc->memcgs_need_aging = false;
	return false;
}

/*
 * lruvec_is_sizable(), v6.12: its evictable generations hold pages worth
 * scanning at this priority (an offline memcg: any).
 */
static bool lruvec_is_sizable(struct rf_model *m, uint32_t memcg, const struct scan_control *sc)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	bool can_swap = get_swappiness(m, memcg, sc);
	uint64_t total = 0, seq;
	int type;

	for (type = !can_swap; type < 2; type++)
		for (seq = g->min_seq[type]; seq <= g->max_seq; seq++) {
			int64_t s = g->nr_pages[lru_gen_from_seq(seq)][type];

			total += s > 0 ? (uint64_t)s : 0;
		}
	return m->memcgs[memcg]->online ? (total >> sc->priority) != 0 : total != 0;
}

/*
 * lruvec_is_reclaimable(), v6.12: a memcg (not released) with pages worth
 * scanning whose oldest file generation is older than @min_ttl.
 */
static bool lruvec_is_reclaimable(struct rf_model *m, uint32_t memcg,
				  const struct scan_control *sc, uint64_t min_ttl)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint64_t birth = g->timestamps[lru_gen_from_seq(g->min_seq[1])];

	if (memcg && !m->memcgs[memcg]->id)
		return false;
	return lruvec_is_sizable(m, memcg, sc) && birth + min_ttl < m->now;
}

/*
 * age_lruvec(), v6.1.192: a memcg (not released) that needs a new
 * generation gets one, with kswapd's walk context; with @min_ttl, one whose
 * oldest file generation is younger, or that holds nothing worth scanning
 * below DEF_PRIORITY, is not reclaimable (false).
 */
static bool age_lruvec(struct rf_model *m, uint32_t memcg, struct scan_control *sc,
		       uint64_t min_ttl)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int swappiness = get_swappiness(m, memcg, sc);
	uint64_t nr;
	bool need;

	if (memcg && !m->memcgs[memcg]->id)
		return false;
	need = should_run_aging(m, memcg, swappiness, &nr);
	if (min_ttl) {
		if (g->timestamps[lru_gen_from_seq(g->min_seq[1])] + min_ttl > m->now)
			return false;
		if (!(m->memcgs[memcg]->online ? nr >> sc->priority : nr) &&
		    sc->priority != DEF_PRIORITY)
			return false;
	}
	if (need)
		try_to_inc_max_seq(m, memcg, g->max_seq, swappiness);
	return true;
}

/* ------------------------------------------------------------ memcg LRU */

static void memcg_lru_unlink(struct rf_model *m, uint32_t memcg)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint32_t *head = &m->memcg_lru_head[g->memcg_gen][g->bin];
	uint32_t *tail = &m->memcg_lru_tail[g->memcg_gen][g->bin];

	if (g->memcg_prev != RF_NONE)
		lrugen_of(m, g->memcg_prev)->memcg_next = g->memcg_next;
	else
		*head = g->memcg_next;
	if (g->memcg_next != RF_NONE)
		lrugen_of(m, g->memcg_next)->memcg_prev = g->memcg_prev;
	else
		*tail = g->memcg_prev;
	g->memcg_prev = g->memcg_next = RF_NONE;
}

static void memcg_lru_link(struct rf_model *m, uint32_t memcg, int gen, uint32_t bin, bool at_head)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint32_t *head = &m->memcg_lru_head[gen][bin], *tail = &m->memcg_lru_tail[gen][bin];

	g->memcg_gen = (uint8_t)gen;
	g->bin = (uint8_t)bin;
	if (at_head) {
		g->memcg_prev = RF_NONE;
		g->memcg_next = *head;
		if (*head != RF_NONE)
			lrugen_of(m, *head)->memcg_prev = memcg;
		else
			*tail = memcg;
		*head = memcg;
	} else {
		g->memcg_next = RF_NONE;
		g->memcg_prev = *tail;
		if (*tail != RF_NONE)
			lrugen_of(m, *tail)->memcg_next = memcg;
		else
			*head = memcg;
		*tail = memcg;
	}
}

/*
 * lru_gen_rotate_memcg(), v6.12: HEAD and TAIL keep the memcg's generation
 * and set its segment, OLD and YOUNG move it to the oldest or the next
 * generation; a random bin each time.  The oldest generation emptied, the
 * memcg LRU's seq moves on.
 */
static void lru_gen_rotate_memcg(struct rf_model *m, uint32_t memcg, int op)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint32_t bin = random_below(m, MEMCG_NR_BINS);
	int old = g->memcg_gen, new = old;
	uint8_t seg = 0;

	if (!g->on_memcg_lru)
		return;
	if (op == MEMCG_LRU_HEAD || op == MEMCG_LRU_TAIL)
		seg = (uint8_t)op;
	else if (op == MEMCG_LRU_OLD)
		new = (int)(m->memcg_lru_seq % MEMCG_NR_GENS);
	else
		new = (int)((m->memcg_lru_seq + 1) % MEMCG_NR_GENS);
	g->seg = seg;
	memcg_lru_unlink(m, memcg);
	memcg_lru_link(m, memcg, new, bin, op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD);
	m->memcg_lru_nr[old]--;
	m->memcg_lru_nr[new]++;
	if (!m->memcg_lru_nr[old] && old == (int)(m->memcg_lru_seq % MEMCG_NR_GENS))
		m->memcg_lru_seq++;
}

/* lru_gen_online_memcg(), v6.12: at the tail of a random bin of the current generation */
void lru_gen_online_memcg(struct rf_model *m, uint32_t memcg)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint32_t bin = random_below(m, MEMCG_NR_BINS);
	int gen = (int)(m->memcg_lru_seq % MEMCG_NR_GENS);

	if (!m->p->lru_gen_memcg_lru || g->on_memcg_lru)
		return;
	memcg_lru_link(m, memcg, gen, bin, false);
	g->on_memcg_lru = true;
	m->memcg_lru_nr[gen]++;
}

/* lru_gen_offline_memcg(), v6.12: to the oldest generation, reclaimed first */
void lru_gen_offline_memcg(struct rf_model *m, uint32_t memcg)
{
	lru_gen_rotate_memcg(m, memcg, MEMCG_LRU_OLD);
}

/* lru_gen_release_memcg(), v6.12: off the memcg LRU */
void lru_gen_release_memcg(struct rf_model *m, uint32_t memcg)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int gen = g->memcg_gen;

	if (!g->on_memcg_lru)
		return;
	memcg_lru_unlink(m, memcg);
	g->on_memcg_lru = false;
	m->memcg_lru_nr[gen]--;
	if (!m->memcg_lru_nr[gen] && gen == (int)(m->memcg_lru_seq % MEMCG_NR_GENS))
		m->memcg_lru_seq++;
}

/*
 * shrink_one(), v6.12: the memcg LRU operation for @memcg after trying it:
 * below memory.low it goes to the tail once before it is reclaimed (a low
 * event); aged (or protected) and online: YOUNG; too small or offline: one
 * retry at the TAIL, then YOUNG.
 */
static int shrink_one(struct rf_model *m, uint32_t memcg, struct scan_control *sc)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint64_t scanned = sc->nr_scanned;
	bool success;

	if (mem_cgroup_low(m, 0, memcg)) {
		if (g->seg != MEMCG_LRU_TAIL)
			return MEMCG_LRU_TAIL;
		count_memcg_event(m, memcg, EV_MEMCG_LOW, 1);
	}
	success = try_to_shrink_lruvec(m, memcg, sc);
	if (m->p->shadow_shrinker == SHADOW_SHRINKER_MEMCG)
		shrink_shadow_slab(m, memcg, sc, sc->nr_scanned - scanned);
	if (success && m->memcgs[memcg]->online)
		return MEMCG_LRU_YOUNG;
	if (!success && lruvec_is_sizable(m, memcg, sc))
		return 0;
	return g->seg != MEMCG_LRU_TAIL ? MEMCG_LRU_TAIL : MEMCG_LRU_YOUNG;
}

/*
 * shrink_many(), v6.12: the memcgs of the memcg LRU's oldest generation,
 * bin by bin from a random one, until the reclaim is met; each memcg's
 * rotation waits until the walk has stepped past it.
 */
static void shrink_many(struct rf_model *m, struct scan_control *sc)
{
	int gen = (int)(m->memcg_lru_seq % MEMCG_NR_GENS);
	uint32_t bin, first_bin = random_below(m, MEMCG_NR_BINS);

	bin = first_bin;
	do {
		uint32_t cur = m->memcg_lru_head[gen][bin], prev = RF_NONE;
		int op = 0;

		while (cur != RF_NONE) {
			if (op) {
				lru_gen_rotate_memcg(m, prev, op);
				op = 0;
			}
			if (lrugen_of(m, cur)->memcg_gen == gen) {
				op = shrink_one(m, cur, sc);
				if (m->error || should_abort_scan(m, cur, 0, sc, false)) {
					if (op)
						lru_gen_rotate_memcg(m, cur, op);
					return;
				}
			}
			prev = cur;
			cur = lrugen_of(m, cur)->memcg_next;
		}
		if (op)
			lru_gen_rotate_memcg(m, prev, op);
		bin = (bin + 1) % MEMCG_NR_BINS;
	} while (bin != first_bin);
}

/*
 * set_initial_priority(), v6.12: at DEF_PRIORITY with a target of at least
 * MIN_LRU_BATCH, the priority at which the inactive pages' share would meet
 * it: fls(reclaimable) - 1 - fls(nr_to_reclaim - 1), within 6..12.
 */
static void set_initial_priority(struct rf_model *m, struct scan_control *sc)
{
	uint64_t reclaimable;
	int priority;

	if (sc->priority != DEF_PRIORITY || sc->nr_to_reclaim < MIN_LRU_BATCH)
		return;
	reclaimable = m->memcgs[0]->lruvec.hier_size[LRU_INACTIVE_FILE];
	if (m->swap_total > m->swap_used)
		reclaimable += m->memcgs[0]->lruvec.hier_size[LRU_INACTIVE_ANON];
	priority = (reclaimable ? 64 - __builtin_clzll(reclaimable) : 0) - 1 -
		(sc->nr_to_reclaim > 1 ? 64 - __builtin_clzll(sc->nr_to_reclaim - 1) : 0);
	sc->priority = RF_MIN(RF_MAX(priority, DEF_PRIORITY / 2), DEF_PRIORITY);
}

/*
 * lru_gen_shrink_node(), v6.12: root reclaim, with a walk context for
 * kswapd (look-around promotes without folio_activate()).
 */
void lru_gen_shrink_node(struct rf_model *m, struct scan_control *sc)
{
	uint64_t reclaimed = sc->nr_reclaimed;

	if (!sc->may_unmap)
		return;
	lru_add_drain(m);
	m->lru_gen_walk = sc->kind == RECLAIM_KSWAPD;	/* set_mm_walk(pgdat, ...) */
	set_initial_priority(m, sc);
	if (sc->kind == RECLAIM_KSWAPD)
		sc->nr_reclaimed = 0;
	shrink_many(m, sc);
	if (sc->kind == RECLAIM_KSWAPD)
		sc->nr_reclaimed += reclaimed;
	m->lru_gen_walk = false;	/* clear_mm_walk() */
}

/*
 * lru_gen_shrink_lruvec(), v6.12: memcg reclaim of one lruvec, rotated YOUNG
 * when it aged.  v6.1.192 (lru_gen_kswapd_ages): every lruvec of the memcg
 * walk (shrink_node_memcgs(), root reclaim too; no memcg LRU), kswapd with
 * its walk context.
 */
void lru_gen_shrink_lruvec(struct rf_model *m, uint32_t memcg, struct scan_control *sc)
{
	bool v61 = m->p->lru_gen_kswapd_ages;

	lru_add_drain(m);
	if (v61)
		m->lru_gen_walk = sc->kind == RECLAIM_KSWAPD;	/* set_mm_walk(pgdat) */
	if (try_to_shrink_lruvec(m, memcg, sc) && !v61)
		lru_gen_rotate_memcg(m, memcg, MEMCG_LRU_YOUNG);
	m->lru_gen_walk = false;	/* clear_mm_walk() */
}

/*
 * lru_gen_age_node(), v6.12 (kswapd, each balance_pgdat() round): the
 * initial priority and, with min_ttl_ms, whether any memcg is reclaimable;
 * none is: the OOM killer (counted in model.lru_gen_min_ttl_oom; the model
 * kills nothing).  v6.1.192 (lru_gen_kswapd_ages): skipped once after
 * eviction cleared memcgs_need_aging; else every memcg that needs it ages
 * (age_lruvec(), with kswapd's walk context), and with min_ttl_ms none
 * reclaimable counts an OOM.
 */
void lru_gen_age_node(struct rf_model *m, struct scan_control *sc)
{
	uint64_t min_ttl = (uint64_t)m->cfg.lru_gen_min_ttl_ms * 1000000u;
	bool v61 = m->p->lru_gen_kswapd_ages, reclaimable = !min_ttl, success = false;
	uint32_t memcg;

	if (v61) {
		sc->last_reclaimed = sc->nr_reclaimed;
		if (!sc->memcgs_need_aging) {
			sc->memcgs_need_aging = true;
			return;
		}
		m->lru_gen_walk = true;
	} else {
		set_initial_priority(m, sc);
	}
	for (memcg = 0; memcg != RF_NONE && (v61 ? !m->error : !reclaimable);
	     memcg = memcg_next_preorder(m, 0, memcg)) {
		if (v61)
			success |= age_lruvec(m, memcg, sc, min_ttl);
		else
			reclaimable = lruvec_is_reclaimable(m, memcg, sc, min_ttl);
	}
	if (v61)
		m->lru_gen_walk = false;
	if (v61 ? !success && min_ttl : !reclaimable)
		m->nr_min_ttl_oom++;
}
