/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory cgroup statistics as reclaim reads them (mm/memcontrol.c, v6.18).
 *
 * Since the rstat conversion (v5.13, per-memcg flushing in v6.8), memcg
 * statistics are per-CPU deltas that reach the hierarchical totals only when
 * flushed, and lruvec_page_state() returns the flushed value.  So the rules
 * that read memcg statistics decide on numbers as old as the last flush:
 * workingset_test_recent() (the workingset size), count_shadow_nodes() (the
 * memcg's own LRU and slab pages: a cgroup's shadow-node allowance), and prepare_scan_control()
 * and snapshot_refaults() (WORKINGSET_ACTIVATE_*; also the inactive:active
 * ratio and cache_trim_mode, which the model reads exactly: see below).  Flushes happen
 *   - every FLUSH_TIME (2 s) for the whole tree, flush_memcg_stats_dwork();
 *   - when memory.stat of a memcg is read, mem_cgroup_flush_stats(memcg), for
 *     its subtree, once more than MEMCG_CHARGE_BATCH * CPUs updates pend;
 *   - in workingset_test_recent() and prepare_scan_control() only when the
 *     periodic flush is a full cycle late (never, in the model).
 * A recorded trace carries its memory.stat reads (RF_EV_COUNTERS), so the
 * model flushes where the kernel did.  The periodic flush runs on the trace
 * clock from the first event (the kernel's phase is unknown).
 * SIMPLIFIED: a memory.stat read always flushes; under reclaim far more than
 * 128 updates pend between two reads.
 * DECIDED: only the refault statistics are read as flushed (the workingset
 * size in the refault test, WORKINGSET_ACTIVATE_* in prepare_scan_control and
 * snapshot_refaults); the list sizes behind the inactive:active ratio and
 * cache_trim_mode stay exact.  Read as flushed, a fresh cgroup's lists are 0
 * until the first flush, so cache_trim_mode stays off and the model scanned
 * anon 11101 pages where the kernel scanned 414 (anon-noswap recorded with
 * swap on, docs/fidelity.md); something in the kernel keeps those fresher
 * than the flushes modelled here, not identified yet.
 * Until the first flush the values read are the exact ones (the kernel's
 * were flushed at some point before the trace began), so a trace with
 * neither a clock nor memory.stat reads gets exact statistics throughout.
 * With stats_flushed off (profiles before v6.x, or memcg_stats=exact) the
 * rules read the exact current values.
 */
#include "model-local.h"
#include "memcg.h"

#define FLUSH_TIME_NS	2000000000ull	/* FLUSH_TIME = 2 * HZ */

/* lruvec_page_state(NR_LRU_BASE + lru) of @memcg's lruvec: hierarchical */
uint64_t memcg_stat_lru(struct rf_model *m, uint32_t memcg, int lru)
{
	const struct rf_lruvec *lv = &m->memcgs[memcg]->lruvec;

	return m->stats_ever_flushed ? lv->flushed_size[lru] : lv->hier_size[lru];
}

/* lruvec_page_state_local(NR_LRU_BASE + lru): @memcg's own pages (count_shadow_nodes()) */
uint64_t memcg_stat_lru_local(struct rf_model *m, uint32_t memcg, int lru)
{
	const struct rf_lruvec *lv = &m->memcgs[memcg]->lruvec;

	return m->stats_ever_flushed ? lv->flushed_local[lru] : lv->size[lru];
}

/* the page-cache nodes charged to @memcg, its part of NR_SLAB_RECLAIMABLE_B */
uint64_t memcg_stat_xa_nodes_local(struct rf_model *m, uint32_t memcg)
{
	const struct rf_memcg *mc = m->memcgs[memcg];

	return m->stats_ever_flushed ? mc->lruvec.flushed_xa_nodes : mc->nr_xa_nodes;
}

/* lruvec_page_state(WORKINGSET_ACTIVATE_ANON + file): hierarchical */
uint64_t memcg_stat_activate(struct rf_model *m, uint32_t memcg, bool file)
{
	const struct rf_memcg *mc = m->memcgs[memcg];

	return m->stats_ever_flushed ? mc->lruvec.flushed_activate[file] :
		mc->ws_activate_hier[file];
}

/* mem_cgroup_flush_stats(): fold the current values into @root's subtree */
void mem_cgroup_flush_stats(struct rf_model *m, uint32_t root)
{
	uint32_t c;
	int lru;

	if (!m->p->stats_flushed)
		return;
	if (!m->stats_ever_flushed) {
		/* from now on everything reads flushed values: bring the whole tree */
		m->stats_ever_flushed = true;
		root = 0;
	}
	for (c = root; c != RF_NONE; c = memcg_next_preorder(m, root, c)) {
		struct rf_memcg *mc = m->memcgs[c];

		for (lru = 0; lru < NR_LRU_LISTS; lru++) {
			mc->lruvec.flushed_size[lru] = mc->lruvec.hier_size[lru];
			mc->lruvec.flushed_local[lru] = mc->lruvec.size[lru];
		}
		mc->lruvec.flushed_xa_nodes = mc->nr_xa_nodes;
		mc->lruvec.flushed_activate[0] = mc->ws_activate_hier[0];
		mc->lruvec.flushed_activate[1] = mc->ws_activate_hier[1];
	}
}

/* flush_memcg_stats_dwork(): the whole tree every FLUSH_TIME of trace time */
void memcg_stats_tick_due(struct rf_model *m, uint64_t now)
{
	if (!m->p->stats_flushed)
		return;
	if (!m->next_stats_flush) {
		m->next_stats_flush = now + FLUSH_TIME_NS;
		return;
	}
	if (now < m->next_stats_flush)
		return;
	mem_cgroup_flush_stats(m, 0);
	m->next_stats_flush = now + FLUSH_TIME_NS;
}
