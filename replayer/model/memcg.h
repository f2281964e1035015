/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory cgroups (mm/memcontrol.c, mm/page_counter.c): the tree, ids,
 * limits and charging (memcg.c), and the statistics as reclaim reads them,
 * exact or as of the last rstat flush (memcg-stats.c).  struct rf_memcg
 * itself is in model-local.h: every rule counts per memcg.
 */
#ifndef REFAULT_MODEL_MEMCG_H
#define REFAULT_MODEL_MEMCG_H

#include "model-local.h"

/* ----------------------------------------------------- the tree (memcg.c) */

/* The slot of trace cgroup @cgid (or of the ancestor it is folded into), or RF_NONE. */
uint32_t memcg_slot_by_cgid(const struct rf_model *m, uint64_t cgid);
/* mem_cgroup_from_id(): the slot of memcg id @id, RF_NONE if free; counted as a cost. */
uint32_t mem_cgroup_from_id(struct rf_model *m, uint16_t id);

/* The slot of memcg id @id, RF_NONE if free (as mem_cgroup_from_id(), not counted as a cost). */
static inline uint32_t memcg_id_slot(const struct rf_model *m, uint32_t id)
{
	return id && id < m->nr_ids ? m->id_to_slot[id] : RF_NONE;
}

/* @memcg or, when it is offline, its nearest online ancestor (the root is always online). */
static inline uint32_t memcg_online_ancestor(const struct rf_model *m, uint32_t memcg)
{
	while (memcg && !m->memcgs[memcg]->online)
		memcg = m->memcgs[memcg]->parent;
	return memcg;
}

/* css_next_descendant_pre() restricted to @root's subtree: after @pos (RF_NONE: @root first). */
uint32_t memcg_next_preorder(struct rf_model *m, uint32_t root, uint32_t pos);
/*
 * mem_cgroup_iter(): the next memcg of @root's subtree after @prev
 * (RF_NONE: the first), released ones skipped; with the shared cursor
 * (memcg_iter_cookie) from where the last walk at @priority stopped,
 * *@gen_done set at the end of the pre-order.  RF_NONE at the end.
 */
uint32_t mem_cgroup_iter(struct rf_model *m, uint32_t root, uint32_t prev, int priority,
			 bool *gen_done);
/* The root memcg: 0 or RF_ERR_NOMEM. */
int memcg_root_init(struct rf_model *m);
/*
 * A cgroup created: 0, or 1 if the model folds it into its parent (its
 * tasks are charged there, its limits ignored) because it is nested deeper
 * than MAX_MEMCG_DEPTH, under a folded one, or past MAX_MEMCGS memcgs (the
 * kernel's MEM_CGROUP_ID_MAX: mkdir fails with -ENOSPC); RF_ERR_NOMEM.
 */
int memcg_mkdir(struct rf_model *m, uint64_t cgid, uint64_t parent, const char *path);
/* css offline: its pages stay; its id goes once nothing pins it. */
void memcg_rmdir(struct rf_model *m, uint64_t cgid);
/* A limit (RF_LIMIT_* @kind) of the trace's for cgroup @cgid, unless the configuration set it. */
void memcg_set_limit(struct rf_model *m, uint64_t cgid, uint32_t kind, uint64_t bytes);
/* Every memcg freed (rf_model_free()). */
void memcg_free_all(struct rf_model *m);

/* --------------------------------------------------- charges (memcg.c) */

/*
 * try_charge(): @nr pages to @memcg and its ancestors, reclaiming the level
 * over its limit; out of retries the charge is forced, but a readahead's
 * (@gfp RF_GFP_READAHEAD): -1, nothing charged.  0 when charged.
 */
int try_charge(struct rf_model *m, uint32_t memcg, uint64_t nr, enum rf_gfp gfp);
/* mem_cgroup_uncharge(): @nr pages freed. */
void mem_cgroup_uncharge(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* do_swap_account / !cgroup_memory_noswap: memcg swap accounting is on (each test a cost). */
bool swap_account_on(struct rf_model *m);
/* mem_cgroup_swapout(): @nr pages leave memory for a swap slot (memsw stays charged). */
void mem_cgroup_swapout(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* mem_cgroup_try_charge_swap(): @nr slots to @memcg; false over memory.swap.max. */
bool mem_cgroup_try_charge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* mem_cgroup_uncharge_swap(): @nr slots freed. */
void mem_cgroup_uncharge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* A slot freed while its page is still resident: only the swap charge goes back. */
void mem_cgroup_cancel_charge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* mem_cgroup_low(): @memcg (below @root) is within its memory.low protection. */
bool mem_cgroup_low(struct rf_model *m, uint32_t root, uint32_t memcg);
/* mem_cgroup_swappiness(): @memcg's own, else vm.swappiness. */
int mem_cgroup_swappiness(struct rf_model *m, uint32_t memcg);
/* mem_cgroup_get_nr_swap_pages(): the swap slots @memcg may still take. */
uint64_t mem_cgroup_get_nr_swap_pages(struct rf_model *m, uint32_t memcg);

/* ------------------------------------------- statistics (memcg-stats.c) */

/* lruvec_page_state(NR_LRU_BASE + @lru) of @memcg: hierarchical, as last flushed. */
uint64_t memcg_stat_lru(struct rf_model *m, uint32_t memcg, int lru);
/* lruvec_page_state_local(NR_LRU_BASE + @lru): @memcg's own pages. */
uint64_t memcg_stat_lru_local(struct rf_model *m, uint32_t memcg, int lru);
/* The page-cache nodes charged to @memcg: its part of NR_SLAB_RECLAIMABLE_B. */
uint64_t memcg_stat_xa_nodes_local(struct rf_model *m, uint32_t memcg);
/* lruvec_page_state(WORKINGSET_ACTIVATE_ANON + @file): hierarchical. */
uint64_t memcg_stat_activate(struct rf_model *m, uint32_t memcg, bool file);
/* mem_cgroup_flush_stats(): the current values into @memcg's subtree's flushed ones. */
void mem_cgroup_flush_stats(struct rf_model *m, uint32_t memcg);
/* flush_memcg_stats_dwork(): the whole tree every FLUSH_TIME of trace time. */
void memcg_stats_tick_due(struct rf_model *m, uint64_t now);

/* Every event: the periodic flush, when one is due (the first event sets the clock). */
static inline void memcg_stats_tick(struct rf_model *m, uint64_t now)
{
	if (m->p->stats_flushed && now >= m->next_stats_flush)
		memcg_stats_tick_due(m, now);
}

#endif /* REFAULT_MODEL_MEMCG_H */
