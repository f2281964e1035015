/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Workingset (refault) detection, mm/workingset.c.
 *
 * Each LRU domain keeps an age counter that moves on every eviction from and
 * every activation out of the inactive list.  An evicted page leaves a shadow
 * entry holding the age at eviction; when the page comes back the refault
 * distance (age now - age then) is compared with what the page would have
 * needed to stay resident.  Three domains, chosen by the profile:
 *   WS_ZONE          v4.5 (parent of 23047a96): zone->inactive_age, one for
 *                    every cgroup, threshold the zone's NR_ACTIVE_FILE;
 *   WS_MEMCG         23047a96 (v4.6) .. v5.8: lruvec->inactive_age of the
 *                    page's memcg, memcg id in the shadow, refault judged
 *                    in the evicting memcg's lruvec, gone memcg -> not counted;
 *   WS_RECLAIM_ROOT  v5.9+: nonresident_age aged up the hierarchy, eviction
 *                    recorded at the reclaim root, anon shadows too.
 *
 * Shadow layout in the model (docs/model.md): tag:2 | workingset:1 |
 * memcg id:16 | folio order:4 | eviction:41 (the order is the page cache's:
 * pagecache.c, xa_erase_page()).  There is one node and one zone, so the kernel's
 * nid/zid fields are absent; bucket_order is 0 (it is for 64-bit machines
 * below 2^34 pages).  v4.5 shadows carry memcg id 0.
 */
#include "model-local.h"
#include "filemap.h"
#include "lru.h"
#include "lru_gen.h"
#include "memcg.h"
#include "pagecache.h"
#include "vmscan.h"
#include "workingset.h"

#define SHADOW_ID_SHIFT		3
#define SHADOW_EVICTION_SHIFT	(SHADOW_ORDER_SHIFT + 5)	/* after SHADOW_PLANTED */
#define SWAP_OWNER_SHIFT	19
#define SWAP_EVICTION_SHIFT	35

/*
 * Swap entries carry two ids: the memcg that owns the slot (swap_cgroup)
 * and the memcg whose age the shadow refers to (the reclaim root in v5.9+),
 * so their timestamp field is 29 bits wide.
 */
static unsigned int eviction_shift(uint64_t tag)
{
	return tag == SLOT_SWAP ? SWAP_EVICTION_SHIFT : SHADOW_EVICTION_SHIFT;
}

static uint64_t eviction_mask(const struct rf_model *m, uint64_t tag)
{
	(void)m;
	return ~0ull >> eviction_shift(tag);
}

static uint64_t pack_shadow(const struct rf_model *m, uint64_t tag, uint16_t memcgid,
			    uint64_t eviction, bool workingset)
{
	return ((eviction & eviction_mask(m, tag)) << eviction_shift(tag)) |
		((uint64_t)memcgid << SHADOW_ID_SHIFT) | ((uint64_t)workingset << 2) | tag;
}

static uint64_t pack_swap_entry(const struct rf_model *m, uint16_t owner, uint16_t memcgid,
				uint64_t eviction, bool workingset)
{
	return pack_shadow(m, SLOT_SWAP, memcgid, eviction, workingset) |
		((uint64_t)owner << SWAP_OWNER_SHIFT);
}

uint16_t swap_entry_owner(uint64_t entry)
{
	return (uint16_t)(entry >> SWAP_OWNER_SHIFT);
}

static void unpack_shadow(const struct rf_model *m, uint64_t entry, uint16_t *memcgid,
			  uint64_t *eviction, bool *workingset)
{
	uint64_t tag = entry & SLOT_TAG_MASK;

	*eviction = (entry >> eviction_shift(tag)) & eviction_mask(m, tag);
	*memcgid = (uint16_t)(entry >> SHADOW_ID_SHIFT);
	*workingset = (entry >> 2) & 1;
}

static void count_ws(struct rf_model *m, uint32_t memcg, enum rf_vm_event ev, uint64_t nr)
{
	m->ev[ev] += nr;
	count_memcg_event(m, memcg, ev, nr);
}

/*
 * WORKINGSET_ACTIVATE_ANON/FILE of @memcg and, for the hierarchical
 * lruvec_page_state() that prepare_scan_control() compares with the
 * snapshot, of every ancestor.
 */
void workingset_count_activate(struct rf_model *m, uint32_t memcg, bool file, uint64_t nr)
{
	count_ws(m, memcg, file ? EV_WORKINGSET_ACTIVATE_FILE : EV_WORKINGSET_ACTIVATE_ANON, nr);
	for (; memcg != RF_NONE; memcg = m->memcgs[memcg]->parent)
		m->memcgs[memcg]->ws_activate_hier[file] += nr;
}

/* --------------------------------------------------------- multi-gen LRU */

/*
 * lru_gen_eviction(), v6.12: the token is the folio's lruvec's min_seq of
 * its type and its refs beyond the first (refs - 1), the workingset bit
 * says it had any; evicted[] of its tier counts it for the PID controller.
 * No nonresident age, and the folio's own memcg (not the reclaim root).
 * v6.18: the workingset bit is PG_workingset itself.
 */
static uint64_t lru_gen_eviction(struct rf_model *m, struct rf_page *p)
{
	struct rf_lrugen *g = &page_lruvec(m, p)->lrugen;
	bool pg_ws = p->flags & PG_workingset;
	int type = page_is_file(p), refs = folio_lru_refs(m, p);
	int tier = lru_tier_from_refs(m, refs, pg_ws);
	bool ws = m->p->lru_gen_refs_sticky ? pg_ws : refs != 0;
	uint16_t id = m->memcgs[p->memcg]->id;
	uint64_t token = (g->min_seq[type] << LRU_REFS_WIDTH) | (uint64_t)(refs > 1 ? refs - 1 : 0);

	g->evicted[type][tier] += page_nr(p);
	cost_add(m, COST_ATOMIC, 1);
	if (!type)
		return pack_swap_entry(m, id, id, token, ws);
	return pack_shadow(m, SLOT_SHADOW, id, token, ws);
}

/*
 * lru_gen_test_recent(), v6.12.117: the folio left from the generation
 * that is still the oldest of its type (min_seq, as far as the token holds
 * it; v6.18: within MAX_NR_GENS of max_seq).
 */
static bool lru_gen_test_recent(struct rf_model *m, uint64_t shadow, int type, uint32_t *memcg,
				uint64_t *token, bool *workingset)
{
	uint64_t mask = eviction_mask(m, shadow & SLOT_TAG_MASK) >> LRU_REFS_WIDTH, seq;
	const struct rf_lrugen *g;
	uint16_t id;

	unpack_shadow(m, shadow, &id, token, workingset);
	*memcg = mem_cgroup_from_id(m, id);
	if (*memcg == RF_NONE)
		*memcg = 0;		/* mem_cgroup_lruvec(NULL): the root's */
	g = &m->memcgs[*memcg]->lruvec.lrugen;
	seq = *token >> LRU_REFS_WIDTH;
	if (m->p->lru_gen_recent_window) {
		uint64_t max = g->max_seq & mask;

		return (max > seq ? max - seq : seq - max) < MAX_NR_GENS;	/* abs_diff() */
	}
	return seq == (g->min_seq[type] & mask);
}

/*
 * lru_gen_refault(), v6.12.117: counted only in the lruvec the shadow
 * names when the folio is charged there; a recent refault counts in
 * refaulted[] of its tier and as an activation, and restores the folio to
 * the top tier (refs saturated, PG_workingset) when it faulted, or had been
 * read at least 3 times (refs >= BIT(LRU_REFS_WIDTH) - 1).  v6.1
 * (lru_gen_ws_v61) counts nothing for a refault that is not recent and no
 * activation at all (sort_folio() counts those).  v6.18
 * (lru_gen_refs_sticky): refs from the token plus the first access, the
 * activation counted only in a fault, PG_workingset and the restore only
 * with the shadow's bit, else the refs bits back (without PG_referenced).
 */
static void lru_gen_refault(struct rf_model *m, struct rf_page *p, uint64_t shadow)
{
	int type = page_is_file(p), refs, tier;
	uint64_t nr = page_nr(p), token;
	uint32_t memcg;
	uint16_t id;
	bool ws, recent;

	if (shadow & SHADOW_PLANTED) {	/* the recording kernel's verdict, in the folio's memcg */
		unpack_shadow(m, shadow, &id, &token, &ws);
		memcg = p->memcg;
		recent = token & 1;
		token = 0;
	} else {
		recent = lru_gen_test_recent(m, shadow, type, &memcg, &token, &ws);
	}
	if (memcg != p->memcg || (!recent && m->p->lru_gen_ws_v61))
		return;
	count_ws(m, memcg, type ? EV_WORKINGSET_REFAULT_FILE : EV_WORKINGSET_REFAULT_ANON, nr);
	model_decide(m, RF_MODEL_REFAULT, p);
	if (!recent)
		return;
	if (m->p->lru_gen_refs_sticky) {
		refs = (int)(token & ((1u << LRU_REFS_WIDTH) - 1)) + 1;
		tier = lru_tier_from_refs(m, refs, ws);
		m->memcgs[memcg]->lruvec.lrugen.refaulted[type][tier] += nr;
		if (m->in_lru_fault)
			workingset_count_activate(m, memcg, type, nr);
		if (ws) {
			p->flags |= PG_workingset;
			count_ws(m, memcg, type ? EV_WORKINGSET_RESTORE_FILE :
				 EV_WORKINGSET_RESTORE_ANON, nr);
		} else {
			p->gen = (uint8_t)((p->gen & ~LRU_REFS_MASK) |
					   ((unsigned int)(refs - 1) << LRU_REFS_SHIFT));
		}
		return;
	}
	refs = (int)(token & ((1u << LRU_REFS_WIDTH) - 1)) + ws;
	tier = lru_tier_from_refs(m, refs, ws);
	m->memcgs[memcg]->lruvec.lrugen.refaulted[type][tier] += nr;
	if (!m->p->lru_gen_ws_v61)
		workingset_count_activate(m, memcg, type, nr);
	if (m->in_lru_fault || refs >= (1 << LRU_REFS_WIDTH) - 1) {
		p->gen |= LRU_REFS_MASK;
		p->flags |= PG_workingset;
		count_ws(m, memcg, type ? EV_WORKINGSET_RESTORE_FILE : EV_WORKINGSET_RESTORE_ANON,
			 nr);
	}
}

/* workingset_age_nonresident(), v5.10.7: the lruvec and every ancestor */
void workingset_age_nonresident(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	for (; memcg != RF_NONE; memcg = m->memcgs[memcg]->parent) {
		m->memcgs[memcg]->lruvec.inactive_age += nr;
		cost_add(m, COST_ATOMIC, 1);
	}
}

/*
 * A shadow from before the trace (include/refault/model.h), stored where
 * page_cache_delete() stores one, in an empty range, with the recording
 * kernel's verdict in place of the age (SHADOW_PLANTED): the root memcg's,
 * which no longer holds the folio.
 */
int rf_model_plant_shadow(struct rf_model *m, uint32_t dev, uint64_t ino, uint64_t index,
			  unsigned int order, bool recent)
{
	unsigned int o = clamp_order(order);
	uint64_t i, nr = 1ull << o;
	uint32_t mapping;
	int ret;

	mapping = entry_folio_mapping(m, dev, ino, &index, o, &ret);
	if (mapping == RF_NONE)
		return ret;
	for (i = 0; i < nr; i++)
		if (xa_load(m, mapping, index + i))
			return 0;
	if (xa_store(m, mapping, index, shadow_with_order(pack_shadow(m, SLOT_SHADOW,
			m->memcgs[0]->id, recent, false), o) | SHADOW_PLANTED))
		m->error = RF_ERR_NOMEM;
	return m->error;
}

/* The lookup of a page's lruvec: out of line before 55779ec, inline after. */
static void lruvec_lookup_cost(struct rf_model *m)
{
	if (m->p->lruvec_call)
		cost_add(m, COST_CALL, 1);
}

/*
 * workingset_eviction(): the shadow a reclaimed file page (or, v5.9+, a
 * swapped-out anon page) leaves behind.
 *   v4.5:      E = ++zone->inactive_age                    [v4.5]
 *   23047a96:  E = ++lruvec(page memcg)->inactive_age, id  [23047a96]
 *   v5.9+:     age the reclaim root by nr, E = its age, id of the root,
 *              PG_workingset in the shadow                 [v5.10.7]
 *   v6.x:      E = the root's age, then age it by nr       [v6.18]
 */
uint64_t workingset_eviction(struct rf_model *m, struct rf_page *p, uint32_t target)
{
	uint64_t tag = page_is_file(p) ? SLOT_SHADOW : SLOT_SWAP;
	bool ws = m->p->ws_restore && (p->flags & PG_workingset);
	uint16_t owner = m->memcgs[p->memcg]->id;
	uint16_t id = 0;
	uint64_t eviction = 0;

	if (tag == SLOT_SWAP && !m->p->ws_anon)
		return pack_swap_entry(m, owner, 0, 0, false);	/* no anon workingset */
	if (lru_gen_on(m))
		return lru_gen_eviction(m, p);
	switch (m->p->ws_domain) {
	case WS_ZONE:
		cost_add(m, COST_ATOMIC, 1);
		eviction = ++m->zone_inactive_age;
		break;
	case WS_MEMCG:
		lruvec_lookup_cost(m);
		cost_add(m, COST_ATOMIC, 1);
		eviction = ++page_lruvec(m, p)->inactive_age;
		id = owner;
		break;
	case WS_RECLAIM_ROOT:
	default:
		if (target == RF_NONE)
			target = 0;
		if (m->p->ws_stamp_first)
			eviction = m->memcgs[target]->lruvec.inactive_age;
		workingset_age_nonresident(m, target, page_nr(p));
		if (!m->p->ws_stamp_first)
			eviction = m->memcgs[target]->lruvec.inactive_age;
		id = m->memcgs[target]->id;
		break;
	}
	if (tag == SLOT_SWAP)
		return pack_swap_entry(m, owner, id, eviction, ws);
	return pack_shadow(m, tag, id, eviction, ws);
}

/*
 * workingset_activation(): a page was activated out of the inactive list
 * by mark_page_accessed() or by a refault.  v4.5 one atomic; 23047a96
 * lock_page_memcg() + out-of-line lruvec lookup; 55779ec rcu_read_lock() +
 * page_memcg_rcu() + inline lookup; v5.9+ ages the page's lruvec upwards.
 */
void workingset_activation(struct rf_model *m, struct rf_page *p)
{
	switch (m->p->ws_domain) {
	case WS_ZONE:
		cost_add(m, COST_ATOMIC, 1);
		m->zone_inactive_age++;
		break;
	case WS_MEMCG:
		if (m->p->ws_cost == WSCOST_LOCK_PAGE_MEMCG) {
			/* v4.6.2 lock_page_memcg() is rcu_read_lock() + a move_lock check */
			cost_add(m, COST_LOCK_PAGE_MEMCG, 1);
			cost_add(m, COST_RCU_READ, 1);
			cost_add(m, COST_CALL, 2);	/* lock_page_memcg, unlock_page_memcg */
		} else {
			cost_add(m, COST_RCU_READ, 1);
		}
		lruvec_lookup_cost(m);
		cost_add(m, COST_ATOMIC, 1);
		page_lruvec(m, p)->inactive_age++;
		break;
	case WS_RECLAIM_ROOT:
	default:
		cost_add(m, COST_RCU_READ, 1);
		workingset_age_nonresident(m, p->memcg, page_nr(p));
		break;
	}
}

/*
 * workingset_test_recent(), v6.18.2 (the test inside workingset_refault() in
 * v5.10.7 and v4.6.2): whether the refault distance of @shadow, the age of
 * the domain it names now less the age it holds, is within the workingset;
 * -1 when the memcg it names is gone.  *@evm: that memcg (v4.5: 0);
 * *@workingset: the page had PG_workingset.  The domain and the workingset:
 *   v4.5       the zone's inactive_age; the node's active file pages;
 *   23047a96   the evicting lruvec's inactive_age (its lookup out of line
 *   (v4.6)     before 55779ec); its own active file list;
 *   v5.9+      its nonresident_age; its hierarchical active file list, the
 *              inactive one too for anon, and the anon lists with swap to
 *              use, as of the last stats flush where the profile has one
 *              (memcg-stats.c); the swap asked of the page's memcg, as
 *              v5.10.7 does.
 */
static int workingset_test_recent(struct rf_model *m, const struct rf_page *p, uint64_t shadow,
				  uint32_t *evm, bool *workingset)
{
	bool file = page_is_file(p);
	uint64_t eviction, now, size;
	uint16_t id;

	unpack_shadow(m, shadow, &id, &eviction, workingset);
	*evm = 0;
	if (shadow & SHADOW_PLANTED) {	/* the recording kernel's verdict */
		*evm = p->memcg;
		return (int)(eviction & 1);
	}
	if (m->p->ws_domain == WS_ZONE) {
		cost_add(m, COST_ATOMIC, 1);
		now = m->zone_inactive_age;
		size = m->memcgs[0]->lruvec.hier_size[LRU_ACTIVE_FILE];
	} else {
		*evm = mem_cgroup_from_id(m, id);
		if (*evm == RF_NONE)
			return -1;
		now = m->memcgs[*evm]->lruvec.inactive_age;
		if (m->p->ws_domain == WS_MEMCG) {
			lruvec_lookup_cost(m);
			size = lruvec_lru_size(m, *evm, LRU_ACTIVE_FILE);
		} else {
			size = memcg_stat_lru(m, *evm, LRU_ACTIVE_FILE);
			if (!file)
				size += memcg_stat_lru(m, *evm, LRU_INACTIVE_FILE);
			if (mem_cgroup_get_nr_swap_pages(m, p->memcg) > 0) {
				size += memcg_stat_lru(m, *evm, LRU_ACTIVE_ANON);
				if (file)
					size += memcg_stat_lru(m, *evm, LRU_INACTIVE_ANON);
			}
		}
	}
	return ((now - eviction) & eviction_mask(m, shadow & SLOT_TAG_MASK)) <= size;
}

/*
 * workingset_refault(), v6.18.2 (v5.10.7; v4.6.2's with what its caller,
 * add_to_page_cache_lru(), does with the answer): @p was just allocated and
 * charged for a slot that held @shadow.  The refault is counted in the
 * page's memcg (v5.4's memcg stats without reclaim-root aging: the evicting
 * one), per page struct before v5.9; if recent, @p is activated: PG_active,
 * the domain aged (v5.9+ workingset_age_nonresident(); before,
 * workingset_activation()), and restored when the shadow says PG_workingset
 * (v4.20+): PG_workingset again and, from v5.8, the refault's cost
 * (lru_note_cost()).  A refault whose evicting memcg is gone counts nothing
 * (v5.10.7's order; the model keeps it for v6.x).
 */
void workingset_refault(struct rf_model *m, struct rf_page *p, uint64_t shadow)
{
	bool v5 = m->p->ws_domain == WS_RECLAIM_ROOT, file = page_is_file(p), ws;
	uint64_t nr = v5 ? page_nr(p) : 1;
	uint32_t evm, memcg;
	int recent;

	if (lru_gen_on(m)) {
		lru_gen_refault(m, p, shadow);
		return;
	}
	recent = workingset_test_recent(m, p, shadow, &evm, &ws);
	if (recent < 0)
		return;
	memcg = !v5 && m->p->ws_memcg_stats ? evm : p->memcg;
	count_ws(m, memcg, file ? EV_WORKINGSET_REFAULT_FILE : EV_WORKINGSET_REFAULT_ANON, nr);
	model_decide(m, RF_MODEL_REFAULT, p);
	if (!recent)
		return;
	p->flags |= PG_active;
	if (v5)
		workingset_age_nonresident(m, p->memcg, nr);
	else
		workingset_activation(m, p);
	workingset_count_activate(m, memcg, file, nr);
	if (!ws)
		return;
	p->flags |= PG_workingset;
	lru_note_cost(m, p->memcg, file, nr, 0);	/* none before v5.8: BALANCE_ROTATED */
	count_ws(m, memcg, file ? EV_WORKINGSET_RESTORE_FILE : EV_WORKINGSET_RESTORE_ANON, nr);
}

/* ---------------------------------------------------------- shadow nodes */

#define XA_NODE_BYTES		576u	/* sizeof(struct xa_node), 64-bit: slab of the memcg */
#define SHRINK_BATCH		128u

/* The memcg whose part of the shadow-node list_lru holds @idx (the node's one, v4.5: root) */
static struct rf_memcg *shadow_list_of(struct rf_model *m, uint32_t idx)
{
	if (m->p->shadow_shrinker != SHADOW_SHRINKER_MEMCG)
		return m->memcgs[0];
	return m->memcgs[m->nodes[idx].memcg];
}

void shadow_node_remove(struct rf_model *m, uint32_t idx)
{
	struct rf_xnode *n = &m->nodes[idx];
	struct rf_memcg *mc = shadow_list_of(m, idx);

	if (n->lru_prev != RF_NIL)
		m->nodes[n->lru_prev].lru_next = n->lru_next;
	else
		mc->shadow_head = n->lru_next;
	if (n->lru_next != RF_NIL)
		m->nodes[n->lru_next].lru_prev = n->lru_prev;
	else
		mc->shadow_tail = n->lru_prev;
	n->lru_prev = n->lru_next = RF_NIL;
	n->on_lru = 0;
	mc->nr_shadow_nodes--;
	m->nr_shadow_nodes--;
}

/*
 * workingset_update_node(), v6.18 (v5.10; page_cache_tree_delete/insert,
 * v4.6): a node with shadows and no pages goes to the tail of its memcg's
 * shadow list (list_lru_add_obj(): the memcg the node's slab object is
 * charged to); a page arriving takes it off.
 */
void workingset_update_node(struct rf_model *m, uint32_t idx)
{
	struct rf_xnode *n = &m->nodes[idx];
	bool shadow_only = n->level ? n->nr_values && !n->nr_pages && !n->nr_children :
		n->nr_leaf_shadows && !n->nr_pages;
	struct rf_memcg *mc;

	if (shadow_only && !n->on_lru) {
		xa_node_memcg(m, idx);
		mc = shadow_list_of(m, idx);
		n->lru_next = RF_NIL;
		n->lru_prev = mc->shadow_tail;
		if (mc->shadow_tail != RF_NIL)
			m->nodes[mc->shadow_tail].lru_next = idx;
		else
			mc->shadow_head = idx;
		mc->shadow_tail = idx;
		n->on_lru = 1;
		mc->nr_shadow_nodes++;
		m->nr_shadow_nodes++;
	} else if (!shadow_only && n->on_lru) {
		shadow_node_remove(m, idx);
	}
}

/*
 * css offline, memcg_reparent_list_lrus() (v6.18; memcg_drain_all_list_lrus()
 * v4.6): the memcg's shadow nodes go to the head of its parent's list, its
 * deferred scan count (reparent_shrinker_deferred()) and slab to the parent.
 */
void shadow_nodes_reparent(struct rf_model *m, uint32_t memcg)
{
	struct rf_memcg *mc = m->memcgs[memcg], *pm;
	uint32_t parent = mc->parent, i;

	if (!memcg)
		return;
	parent = memcg_online_ancestor(m, parent);
	pm = m->memcgs[parent];
	pm->nr_xa_nodes += mc->nr_xa_nodes;
	mc->nr_xa_nodes = 0;
	pm->shadow_deferred += mc->shadow_deferred;
	mc->shadow_deferred = 0;
	if (m->p->shadow_shrinker != SHADOW_SHRINKER_MEMCG || mc->shadow_head == RF_NIL)
		return;
	for (i = mc->shadow_head; i != RF_NIL; i = m->nodes[i].lru_next)
		m->nodes[i].memcg = (uint16_t)parent;
	m->nodes[mc->shadow_tail].lru_next = pm->shadow_head;
	if (pm->shadow_head != RF_NIL)
		m->nodes[pm->shadow_head].lru_prev = mc->shadow_tail;
	else
		pm->shadow_tail = mc->shadow_tail;
	pm->shadow_head = mc->shadow_head;
	pm->nr_shadow_nodes += mc->nr_shadow_nodes;
	mc->shadow_head = mc->shadow_tail = RF_NIL;
	mc->nr_shadow_nodes = 0;
}

/*
 * The pages count_shadow_nodes() sizes @memcg's allowance from: v6.18 and
 * v5.x, lruvec_page_state_local() of every LRU list plus the memcg's slab
 * (as of the last rstat flush in v6.x: a cgroup born after the last flush
 * reads 0); v4.6-v4.9, mem_cgroup_node_nr_lru_pages(LRU_ALL_FILE), exact.
 * SIMPLIFIED: the memcg's slab is the page-cache nodes charged to it (the
 * kernel adds every reclaimable and unreclaimable slab object it owns).
 */
static uint64_t shadow_allowance_pages(struct rf_model *m, uint32_t memcg)
{
	uint64_t pages = 0;
	int lru;

	if (m->p->shadow_limit == SHADOW_LIMIT_FILE16)
		return m->memcgs[memcg]->lruvec.size[LRU_ACTIVE_FILE] +
			m->memcgs[memcg]->lruvec.size[LRU_INACTIVE_FILE];
	for (lru = 0; lru < NR_LRU_LISTS; lru++)
		pages += memcg_stat_lru_local(m, memcg, lru);
	return pages + memcg_stat_xa_nodes_local(m, memcg) * XA_NODE_BYTES / m->cfg.page_size;
}

/* count_shadow_nodes(): the shadow nodes of @memcg's list beyond its allowance */
static uint64_t count_shadow_nodes(struct rf_model *m, uint32_t memcg)
{
	uint64_t nodes = m->memcgs[memcg]->nr_shadow_nodes, max;
	bool per_memcg = m->p->shadow_shrinker == SHADOW_SHRINKER_MEMCG;

	switch (m->p->shadow_limit) {
	case SHADOW_LIMIT_PRESENT16:
		max = m->managed >> 4;
		break;
	case SHADOW_LIMIT_FILE16:
		max = per_memcg ? shadow_allowance_pages(m, memcg) >> 4 :
			(m->memcgs[0]->lruvec.hier_size[LRU_ACTIVE_FILE] +
			 m->memcgs[0]->lruvec.hier_size[LRU_INACTIVE_FILE]) >> 4;
		break;
	case SHADOW_LIMIT_LRU8:
	default:
		/* without memcg (one list): node_present_pages() */
		max = per_memcg ? shadow_allowance_pages(m, memcg) >> 3 : m->managed >> 3;
		break;
	}
	return nodes > max ? nodes - max : 0;
}

/*
 * shadow_lru_isolate(): drop every shadow of a shadow node, and the node
 * (xa_delete_node(); its parent may become a shadow node in turn).  A
 * level-1 node's shadows are those of order >= 6, each in the first slot of
 * its leaf.
 */
static void shadow_node_reclaim(struct rf_model *m, uint32_t idx)
{
	struct rf_xnode *n = &m->nodes[idx];
	uint32_t mapping = n->mapping, memcg = xa_node_memcg(m, idx);
	uint64_t base = n->base << XA_CHUNK_SHIFT;
	uint64_t slots[XA_CHUNK_SIZE];
	unsigned int i;

	if (n->level) {
		for (i = 0; i < XA_CHUNK_SIZE; i++) {
			uint64_t index = (base + i) << XA_CHUNK_SHIFT;
			uint64_t e = xa_load(m, mapping, index);

			if (slot_is_shadow(e) && shadow_order(e) >= XA_CHUNK_SHIFT)
				xa_store(m, mapping, index, 0);
		}
	} else {
		for (i = 0; i < XA_CHUNK_SIZE; i++)
			slots[i] = n->slots[i];
		for (i = 0; i < XA_CHUNK_SIZE; i++)
			if (slots[i] && slot_is_shadow(slots[i]))
				xa_store(m, mapping, base + i, 0);
	}
	m->ev[EV_WORKINGSET_NODERECLAIM]++;
	if (m->p->ws_memcg_stats)	/* __inc_lruvec_kmem_state(): the node's memcg */
		count_memcg_event(m, memcg, EV_WORKINGSET_NODERECLAIM, 1);
}

/* list_lru_walk_one() with shadow_lru_isolate(): up to @nr nodes from the head */
static uint64_t shadow_list_walk(struct rf_model *m, struct rf_memcg *mc, uint64_t nr)
{
	uint64_t freed = 0;

	for (; nr && mc->shadow_head != RF_NIL; nr--, freed++)
		shadow_node_reclaim(m, mc->shadow_head);
	return freed;
}

/* How far do_shrink_slab() would scan: delta for this call, the deferred part added */
static uint64_t shrink_delta(struct rf_model *m, uint64_t freeable, uint64_t nr_scanned,
			     uint64_t nr_eligible, int priority)
{
	if (!m->p->shadow_seeks)		/* zero-seek shrinker (4b85afbd, v4.19) */
		return freeable / 2;
	if (m->p->memcg_iter_cookie) {		/* v4.x: proportional to the LRU scan */
		if (!nr_scanned)
			nr_scanned = SWAP_CLUSTER_MAX;
		return (4 * nr_scanned / m->p->shadow_seeks) * freeable / (nr_eligible + 1);
	}
	return (freeable >> priority) * 4 / m->p->shadow_seeks;
}

/*
 * do_shrink_slab() for the shadow shrinker on @memcg's list (mm/shrinker.c,
 * v6.18; mm/vmscan.c v5.10.7, v4.6.2), batch SHRINK_BATCH:
 *   v6.18 (v5.13+): nr_deferred per memcg, total = (nr >> priority) + delta,
 *     at most 2 * freeable; next = nr + delta - scanned, at most 2 * freeable;
 *   v5.10: one nr_deferred, total = nr + delta (at most freeable / 2 when
 *     delta < freeable / 4, at most 2 * freeable), next = nr + delta - scanned;
 *   v4.x: the same total; what was not scanned of it is deferred.
 * A batch scans from the head of the list; it counts slabs_scanned whole.
 */
uint64_t shrink_shadow_nodes(struct rf_model *m, uint32_t memcg, uint64_t nr_scanned,
			     uint64_t nr_eligible, int priority)
{
	struct rf_memcg *mc = m->memcgs[memcg];
	bool v6 = m->p->shrink_deferred_memcg;
	/*
	 * v6.18: every memcg, the root included (shrink_slab() passes
	 * root_mem_cgroup as sc->memcg), keeps nr_deferred in its own
	 * shrinker_info, which is also where reparent_shrinker_deferred() adds
	 * an offlined child's count; before, one count for the shrinker.
	 */
	uint64_t *deferred = v6 ? &mc->shadow_deferred : &m->shadow_deferred;
	uint64_t freeable = count_shadow_nodes(m, memcg), nr, delta, total, scanned = 0;
	uint64_t freed = 0;

	if (!freeable || m->p->shadow_shrinker == SHADOW_SHRINKER_OFF)
		return 0;
	nr = *deferred;
	*deferred = 0;
	delta = shrink_delta(m, freeable, nr_scanned, nr_eligible, priority);
	if (v6) {
		total = (nr >> priority) + delta;
	} else {
		total = nr + delta;
		if (delta < freeable / 4 && total > freeable / 2)
			total = freeable / 2;
	}
	if (total > 2 * freeable)
		total = 2 * freeable;
	while (total >= SHRINK_BATCH || total >= freeable) {
		uint64_t batch = total < SHRINK_BATCH ? total : SHRINK_BATCH;

		freed += shadow_list_walk(m, mc, batch);
		m->ev[EV_SLABS_SCANNED] += batch;
		total -= batch;
		scanned += batch;
	}
	if (!m->p->shadow_seeks) {		/* v5.x+: new work not done is deferred */
		total = nr + delta > scanned ? nr + delta - scanned : 0;
		if (v6 && total > 2 * freeable)
			total = 2 * freeable;
	}
	*deferred += total;
	return freed;
}
