/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU's generations: placement, access accounting and aging.
 * include/linux/mm_inline.h (lru_gen_add_folio(), lru_gen_del_folio(),
 * lru_gen_update_size(), folio_lru_refs()), mm/swap.c (folio_inc_refs()),
 * mm/vmscan.c's "the aging" and "rmap/PT walk feedback" sections
 * (folio_update_gen(), folio_inc_gen(), inc_min_seq(), try_to_inc_min_seq(),
 * inc_max_seq(), try_to_inc_max_seq()); the page-table walk and
 * look-around are in lru_gen_walk.c.  The rules are v6.12.117's, with
 * v6.1.192's and v6.18.2's as profile switches (profile.h lru_gen_*;
 * docs/model.md "MGLRU").
 *
 * A folio's generation is in rf_page.gen (gen + 1, as folio->flags holds
 * it) and the list it sits on in rf_page.lru: the two differ after a lazy
 * promotion (folio_update_gen() changes the flags, sort_folio() moves it),
 * as in the kernel.  Sizes (nr_pages[], and the active/inactive sizes that
 * vmstat and memory.stat show: the two youngest generations are "active",
 * lru_gen_is_active()) follow the flags.  One node, one zone.
 */
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"

int get_nr_gens(const struct rf_lrugen *g, int type)
{
	return (int)(g->max_seq - g->min_seq[type] + 1);
}

/* lru_gen_is_active(): the two youngest generations, for the active/inactive sizes */
static bool lru_gen_is_active(const struct rf_lrugen *g, int gen)
{
	return gen == lru_gen_from_seq(g->max_seq) || gen == lru_gen_from_seq(g->max_seq - 1);
}

/* lru_gen_init_lruvec(), v6.12: max_seq = MIN_NR_GENS + 1 (mm_state seq one less), all born now */
void lru_gen_init_lruvec(struct rf_model *m, uint32_t memcg)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int gen, type;

	g->max_seq = MIN_NR_GENS + 1;
	g->mm_seq = MIN_NR_GENS;
	for (gen = 0; gen < (int)MAX_NR_GENS; gen++) {
		g->timestamps[gen] = m->now;
		for (type = 0; type < 2; type++)
			g->head[gen][type] = g->tail[gen][type] = RF_NIL;
	}
	g->memcg_prev = g->memcg_next = RF_NONE;
}

/* ---------------------------------------------------------------- lists */

static void gen_link(struct rf_model *m, uint32_t idx, int gen, bool tail)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int type = page_is_file(p);

	page_list_add(m, idx, &g->head[gen][type], &g->tail[gen][type], tail);
	p->where = WHERE_LRU;
	p->lru = (uint8_t)gen;		/* the list it is on */
	cost_add(m, COST_PAGE_MOVE, 1);
}

static void gen_unlink(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int type = page_is_file(p), gen = p->lru;

	page_list_del(m, idx, &g->head[gen][type], &g->tail[gen][type]);
}

/* list_move() / list_move_tail() of a folio on the lists onto generation @gen's list */
void lru_gen_list_move(struct rf_model *m, uint32_t idx, int gen, bool tail)
{
	gen_unlink(m, idx);
	gen_link(m, idx, gen, tail);
}

/*
 * lru_gen_update_size(): the generation sizes, and the active/inactive
 * sizes (__update_lru_size()) of an addition (@old -1), a deletion (@new
 * -1) or a promotion.
 */
static void lru_gen_update_size(struct rf_model *m, const struct rf_page *p, int old, int new)
{
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int type = page_is_file(p), lru = type * LRU_INACTIVE_FILE;
	int64_t delta = (int64_t)page_nr(p);

	if (old >= 0)
		g->nr_pages[old][type] -= delta;
	if (new >= 0)
		g->nr_pages[new][type] += delta;
	if (old < 0) {
		update_lru_size(m, p->memcg, lru + lru_gen_is_active(g, new), delta);
		return;
	}
	if (new < 0) {
		update_lru_size(m, p->memcg, lru + lru_gen_is_active(g, old), -delta);
		return;
	}
	if (!lru_gen_is_active(g, old) && lru_gen_is_active(g, new)) {
		update_lru_size(m, p->memcg, lru, -delta);
		update_lru_size(m, p->memcg, lru + 1, delta);
	}
}

static void set_gen(struct rf_page *p, int gen)
{
	p->gen = (uint8_t)((p->gen & ~LRU_GEN_MASK) | (gen + 1));
}

/*
 * lru_gen_add_folio(), v6.12.117 (08148805 in it): the generation a folio
 * joins.  Active (added in a fault) -> max_seq; anon outside the swap
 * cache, or under writeback for reclaim -> max_seq - 1; rotated by reclaim,
 * or with the window at MIN_NR_GENS + 1 -> min_seq; else min_seq + 1.
 * PG_active is never kept on a generation list; an active folio loses its
 * refs and PG_referenced (not PG_workingset).  Reclaim's rotations go to the
 * list's tail (folio_rotate_reclaimable()).  v6.18 (lru_gen_place_seq)
 * counts back from max_seq: active -> max_seq - 1, max_seq with
 * PG_workingset; rotated -> min_seq; anon outside the swap cache and
 * reclaim writeback -> max_seq - 1; else min_seq, one up with PG_workingset
 * (lru_gen_folio_seq()), and keeps the refs.
 */
static uint64_t lru_gen_folio_seq(const struct rf_model *m, const struct rf_lrugen *g,
				  const struct rf_page *p, bool reclaiming)
{
	int type = page_is_file(p);

	if (m->p->lru_gen_place_seq) {
		uint64_t ws = !!(p->flags & PG_workingset), gen, seq;

		if (p->flags & PG_active)
			gen = MIN_NR_GENS - ws;
		else if (reclaiming)
			gen = MAX_NR_GENS;
		else if ((!type && !(p->flags & PG_swapcache)) || (p->flags & PG_writeback))
			gen = MIN_NR_GENS;
		else
			gen = MAX_NR_GENS - ws;
		seq = g->max_seq - gen + 1;
		return seq > g->min_seq[type] ? seq : g->min_seq[type];
	}
	if (p->flags & PG_active)
		return g->max_seq;
	if ((!type && !(p->flags & PG_swapcache)) || (p->flags & PG_writeback))
		return g->max_seq - 1;
	if (reclaiming || g->min_seq[type] + MIN_NR_GENS >= g->max_seq)
		return g->min_seq[type];
	return g->min_seq[type] + 1;
}

/* the seq lru_gen_add_folio() would give @idx now, outside reclaim */
uint64_t lru_gen_add_seq(struct rf_model *m, uint32_t idx)
{
	const struct rf_page *p = P(m, idx);

	return lru_gen_folio_seq(m, lrugen_of(m, p->memcg), p, false);
}

void lru_gen_add_folio(struct rf_model *m, uint32_t idx, bool reclaiming)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int gen = lru_gen_from_seq(lru_gen_folio_seq(m, g, p, reclaiming));

	if ((p->flags & PG_active) && !m->p->lru_gen_refs_sticky) {
		p->gen &= (uint8_t)~LRU_REFS_MASK;
		p->flags &= ~PG_referenced;
	}
	p->flags &= ~PG_active;
	set_gen(p, gen);
	lru_gen_update_size(m, p, -1, gen);
	gen_link(m, idx, gen, reclaiming);
}

/*
 * lru_gen_del_folio(): off its list; outside reclaim a folio of the two
 * youngest generations leaves with PG_active (for folio_migrate_flags(), and
 * so lru_activate(), folio_isolate_lru() and the like see it active).
 */
void lru_gen_del_folio(struct rf_model *m, uint32_t idx, bool reclaiming)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int gen = folio_lru_gen(p);

	if (gen < 0)
		return;
	if (!reclaiming && lru_gen_is_active(g, gen))
		p->flags |= PG_active;
	p->gen &= (uint8_t)~LRU_GEN_MASK;
	lru_gen_update_size(m, p, gen, -1);
	gen_unlink(m, idx);
	p->where = WHERE_ISOLATED;
}

/*
 * A large folio split (huge_memory.c) on a generation list: the head keeps
 * its generation at a base page's size, each tail joins the same generation
 * behind it (lru_add_split_folio(): list_add_tail() after the head).
 */
void lru_gen_split_folio(struct rf_model *m, uint32_t head, const uint32_t *tails, uint32_t nr)
{
	struct rf_page *h = P(m, head);
	int gen = folio_lru_gen(h);
	uint32_t i;

	lru_gen_update_size(m, h, gen, -1);
	h->order = 0;
	lru_gen_update_size(m, h, -1, gen);
	for (i = 0; i < nr; i++) {
		struct rf_page *t = P(m, tails[i]);

		t->gen = h->gen;
		lru_gen_update_size(m, t, -1, gen);
		gen_link(m, tails[i], h->lru, true);
	}
}

/* ---------------------------------------------------------- refs, tiers */

static int refs_bits(const struct rf_page *p)
{
	return (p->gen & LRU_REFS_MASK) >> LRU_REFS_SHIFT;
}

/*
 * folio_lru_refs(): accesses through file descriptors.  v6.12.117: the
 * refs bits + PG_workingset, beyond the first (PG_referenced counts zero);
 * v6.18 (lru_gen_refs_sticky): with PG_referenced, all of them (the bits +
 * 1), else 0.
 */
int folio_lru_refs(const struct rf_model *m, const struct rf_page *p)
{
	if (m->p->lru_gen_refs_sticky)
		return (p->flags & PG_referenced) ? refs_bits(p) + 1 : 0;
	return refs_bits(p) + !!(p->flags & PG_workingset);
}

static int order_base_2(unsigned int n)
{
	return n <= 1 ? 0 : 32 - __builtin_clz(n - 1);
}

/*
 * lru_tier_from_refs(): v6.12.117 order_base_2(refs + 1), tiers 0, 1, 2, 2,
 * 3 for refs 0..4; v6.18 tier 3 with PG_workingset, else order_base_2(refs).
 */
int lru_tier_from_refs(const struct rf_model *m, int refs, bool workingset)
{
	if (m->p->lru_gen_refs_sticky)
		return workingset ? (int)MAX_NR_TIERS - 1 : order_base_2((unsigned int)refs);
	return order_base_2((unsigned int)refs + 1);
}

/*
 * folio_clear_lru_refs(): LRU_REFS_FLAGS and the refs bits: PG_referenced
 * and PG_workingset (v6.12.117); v6.18 keeps PG_workingset.
 */
void folio_clear_lru_refs(const struct rf_model *m, struct rf_page *p)
{
	p->gen &= (uint8_t)~LRU_REFS_MASK;
	p->flags &= ~PG_referenced;
	if (!m->p->lru_gen_refs_sticky)
		p->flags &= ~PG_workingset;
}

/*
 * lru_gen_set_refs(), v6.18: a young PTE seen: the first time PG_referenced
 * (false), after that PG_workingset (true); the refs bits start again.
 */
bool lru_gen_set_refs(struct rf_page *p)
{
	p->gen &= (uint8_t)~LRU_REFS_MASK;
	if (!(p->flags & (PG_referenced | PG_workingset))) {
		p->flags |= PG_referenced;
		return false;
	}
	p->flags = (p->flags & ~PG_referenced) | PG_workingset;
	return true;
}

/*
 * folio_mark_accessed() with the multi-gen LRU on: folio_inc_refs(),
 * v6.12.117 mm/swap.c: PG_referenced, then PG_workingset, then the refs bits
 * up to their maximum.  v6.18 lru_gen_inc_refs(): PG_referenced (the bits
 * cleared), then the bits, then, saturated, PG_workingset.  No list move,
 * no workingset aging, no pgactivate.
 */
void lru_gen_inc_refs(struct rf_model *m, struct rf_page *p)
{
	int refs;

	if (!(p->flags & PG_referenced)) {
		p->flags |= PG_referenced;
		if (m->p->lru_gen_refs_sticky)
			p->gen &= (uint8_t)~LRU_REFS_MASK;
		return;
	}
	if (!m->p->lru_gen_refs_sticky && !(p->flags & PG_workingset)) {
		p->flags |= PG_workingset;
		return;
	}
	refs = refs_bits(p);
	if (refs < (1 << LRU_REFS_WIDTH) - 1)
		p->gen = (uint8_t)((p->gen & ~LRU_REFS_MASK) | ((refs + 1) << LRU_REFS_SHIFT));
	else if (m->p->lru_gen_refs_sticky)
		p->flags |= PG_workingset;
}

/* ----------------------------------------------------------- generations */

/*
 * folio_update_gen(), v6.12: promote a folio seen young in a page table to
 * @gen (its flags only: sort_folio() moves it); an isolated folio gets
 * PG_referenced for shrink_folio_list().  The old generation, or -1.  v6.18
 * gives a second chance: the first sighting only sets PG_referenced, the
 * next promotes and sets PG_workingset.
 */
int folio_update_gen(struct rf_model *m, uint32_t idx, int gen)
{
	struct rf_page *p = P(m, idx);
	int old = folio_lru_gen(p);

	if (m->p->lru_gen_refs_sticky) {
		if (!(p->flags & (PG_referenced | PG_workingset))) {
			p->gen &= (uint8_t)~LRU_REFS_MASK;
			p->flags |= PG_referenced;
			return -1;
		}
		if (old < 0)
			return -1;
		folio_clear_lru_refs(m, p);
		p->flags |= PG_workingset;
	} else {
		if (old < 0) {
			p->flags |= PG_referenced;
			return -1;
		}
		folio_clear_lru_refs(m, p);
	}
	set_gen(p, gen);
	if (old != gen)
		lru_gen_update_size(m, p, old, gen);
	return old;
}

/*
 * folio_inc_gen(), v6.12: a folio of the oldest generation moves to the
 * next one, losing its refs (the caller moves it to that list; v6.18 keeps
 * PG_workingset); one already promoted keeps its generation.  (Its
 * reclaiming argument sets PG_reclaim, which the model does not keep.)
 */
int folio_inc_gen(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_lrugen *g = lrugen_of(m, p->memcg);
	int type = page_is_file(p), old = lru_gen_from_seq(g->min_seq[type]);
	int gen = folio_lru_gen(p);

	if (gen >= 0 && gen != old)
		return gen;
	gen = (old + 1) % (int)MAX_NR_GENS;
	folio_clear_lru_refs(m, p);
	set_gen(p, gen);
	lru_gen_update_size(m, p, old, gen);
	return gen;
}

/*
 * reset_ctrl_pos(), v6.12, NR_HIST_GENS == 1: carried over when min_seq
 * moves, the PID controller's averages take half of what the generation
 * saw (the I term: an EMA with smoothing 1/2) and its counts start again.
 * Without carryover (at inc_max_seq()) nothing changes with one history slot.
 */
static void reset_ctrl_pos(struct rf_lrugen *g, int type)
{
	unsigned int tier;

	for (tier = 0; tier < MAX_NR_TIERS; tier++) {
		uint64_t total = g->avg_total[type][tier] + g->evicted[type][tier] +
			g->protected[type][tier];	/* tier 0: none before v6.18 */

		g->avg_refaulted[type][tier] =
			(g->avg_refaulted[type][tier] + g->refaulted[type][tier]) / 2;
		g->avg_total[type][tier] = total / 2;
		g->refaulted[type][tier] = 0;
		g->evicted[type][tier] = 0;
		g->protected[type][tier] = 0;
	}
}

/*
 * inc_min_seq(), v6.12: fold the oldest generation of @type into the next
 * (at most MAX_LRU_BATCH folios a call: false, call again), then advance
 * min_seq.  Anon stays when it cannot be swapped.  v6.18 counts what it
 * moves as protected, but for the workingset being lazily promoted.
 */
static bool inc_min_seq(struct rf_model *m, uint32_t memcg, int type, bool can_swap)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int old = lru_gen_from_seq(g->min_seq[type]);
	unsigned int remaining = MAX_LRU_BATCH;

	if (type || can_swap) {
		while (g->tail[old][type] != RF_NIL) {
			uint32_t idx = g->tail[old][type];
			struct rf_page *p = P(m, idx);
			int refs = folio_lru_refs(m, p), gen;
			bool ws = p->flags & PG_workingset;

			gen = folio_inc_gen(m, idx);
			if (m->p->lru_gen_refs_sticky && refs + ws != (1 << LRU_REFS_WIDTH) + 1)
				g->protected[type][lru_tier_from_refs(m, refs, ws)] += page_nr(p);

			lru_gen_list_move(m, idx, gen, false);
			if (!--remaining)
				return false;
		}
	}
	reset_ctrl_pos(g, type);
	g->min_seq[type]++;
	return true;
}

/*
 * try_to_inc_min_seq(), v6.12: advance min_seq[type] past empty
 * generations; with swap the two are coupled: anon's min_seq never passes
 * file's, and file's moves only as far as anon's.  v6.18
 * (lru_gen_aging_gens) lets each move alone, but not one past max_seq -
 * MIN_NR_GENS while the other is behind it.
 */
bool try_to_inc_min_seq(struct rf_model *m, uint32_t memcg, bool can_swap)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	uint64_t min_seq[2] = { g->min_seq[0], g->min_seq[1] };
	bool success = false;
	int type;

	for (type = !can_swap; type < 2; type++) {
		while (min_seq[type] + MIN_NR_GENS <= g->max_seq) {
			int gen = lru_gen_from_seq(min_seq[type]);

			if (g->head[gen][type] != RF_NIL)
				break;
			min_seq[type]++;
		}
	}
	if (can_swap && m->p->lru_gen_aging_gens) {
		uint64_t seq = g->max_seq - MIN_NR_GENS;

		if (min_seq[0] > seq && min_seq[1] < seq)
			min_seq[0] = seq;
		else if (min_seq[1] > seq && min_seq[0] < seq)
			min_seq[1] = seq;
	} else if (can_swap) {
		min_seq[0] = min_seq[0] < min_seq[1] ? min_seq[0] : min_seq[1];
		min_seq[1] = min_seq[0] > g->min_seq[1] ? min_seq[0] : g->min_seq[1];
	}
	for (type = !can_swap; type < 2; type++) {
		if (min_seq[type] <= g->min_seq[type])
			continue;
		reset_ctrl_pos(g, type);
		g->min_seq[type] = min_seq[type];
		success = true;
	}
	return success;
}

/*
 * inc_max_seq(), v6.12: a new youngest generation.  A type already at
 * MAX_NR_GENS folds its oldest first; the active/inactive sizes move as
 * max_seq - 1 turns inactive and max_seq + 1 active; the new generation is
 * born now.
 */
static bool inc_max_seq(struct rf_model *m, uint32_t memcg, uint64_t seq, bool can_swap)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);
	int prev, next, type;

	if (seq != g->max_seq)
		return false;
	for (type = 1; type >= 0; type--) {
		if (get_nr_gens(g, type) != (int)MAX_NR_GENS)
			continue;
		while (!inc_min_seq(m, memcg, type, can_swap))
			;
	}
	prev = lru_gen_from_seq(g->max_seq - 1);
	next = lru_gen_from_seq(g->max_seq + 1);
	for (type = 0; type < 2; type++) {
		int64_t delta = g->nr_pages[prev][type] - g->nr_pages[next][type];
		int lru = type * LRU_INACTIVE_FILE;

		if (!delta)
			continue;
		update_lru_size(m, memcg, lru, delta);
		update_lru_size(m, memcg, lru + 1, -delta);
	}
	g->timestamps[next] = m->now;
	g->max_seq++;
	return true;
}

/*
 * try_to_inc_max_seq(), v6.12: once per generation (mm_state seq), walk
 * the page tables where the hardware sets accessed bits and the mm walk is
 * enabled (should_walk_mmu(): lru_gen cap 0x2; lru_gen_walk.c), else only
 * count (iterate_mm_list_nowalk()); then inc_max_seq().
 */
bool try_to_inc_max_seq(struct rf_model *m, uint32_t memcg, uint64_t seq, bool can_swap)
{
	struct rf_lrugen *g = lrugen_of(m, memcg);

	if (seq <= g->mm_seq)
		return false;
	if (m->p->lru_gen_caps & LRU_GEN_CAP_MM_WALK) {
		m->lru_gen_walk = true;		/* set_mm_walk(NULL, true): kept until reclaim ends */
		lru_gen_walk_mm(m, memcg, seq, can_swap);
	}
	g->mm_seq++;
	return inc_max_seq(m, memcg, seq, can_swap);
}
