/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Workingset detection (workingset.c, mm/workingset.c): the shadow an
 * evicted page leaves (in the page index, pagecache.h, or as the swap entry
 * of an anonymous page), the refault test against it, the nonresident age,
 * the multi-gen LRU's own eviction and refault, and the shadow-node lists
 * and their shrinker.
 */
#ifndef REFAULT_MODEL_WORKINGSET_H
#define REFAULT_MODEL_WORKINGSET_H

#include "model-local.h"

/* ------------------------------------------------------------- shadows */

/*
 * workingset_eviction(): the shadow (a swap entry for an anonymous page) @p
 * leaves, evicted by reclaim of @target (a memcg slot, RF_NONE: global).
 */
uint64_t workingset_eviction(struct rf_model *m, struct rf_page *p, uint32_t target);
/*
 * workingset_refault(): @p was just allocated and charged for a slot that
 * held @shadow; counts the refault and sets PG_active (and PG_workingset)
 * when it is to be activated.
 */
void workingset_refault(struct rf_model *m, struct rf_page *p, uint64_t shadow);
/* workingset_activation(): @p was activated out of the inactive list (the domain ages). */
void workingset_activation(struct rf_model *m, struct rf_page *p);
/* workingset_age_nonresident(), v5.9+: @memcg's lruvec and every ancestor age by @nr. */
void workingset_age_nonresident(struct rf_model *m, uint32_t memcg, uint64_t nr);
/* WORKINGSET_ACTIVATE_ANON/FILE of @memcg, and of its subtree's count up to the root. */
void workingset_count_activate(struct rf_model *m, uint32_t memcg, bool file, uint64_t nr);
/* The memcg id of the slot's owner (swap_cgroup) a swap entry carries. */
uint16_t swap_entry_owner(uint64_t entry);

/* -------------------------------------------------------- shadow nodes */

/* workingset_update_node(): node @node onto its memcg's shadow list or off it, by its counts. */
void workingset_update_node(struct rf_model *m, uint32_t node);
/* Node @node off its shadow list (list_lru_del()). */
void shadow_node_remove(struct rf_model *m, uint32_t node);
/* css offline: @memcg's shadow nodes, deferred count and slab to its online parent. */
void shadow_nodes_reparent(struct rf_model *m, uint32_t memcg);
/*
 * do_shrink_slab() for the shadow shrinker on @memcg's list, after a scan of
 * @nr_scanned pages of @nr_eligible at @priority; the nodes freed.
 */
uint64_t shrink_shadow_nodes(struct rf_model *m, uint32_t memcg, uint64_t nr_scanned,
			     uint64_t nr_eligible, int priority);

#endif /* REFAULT_MODEL_WORKINGSET_H */
