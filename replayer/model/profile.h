/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile: one row of switches per kernel (profiles.c), each switch
 * documented here with the release or commit that made it so.  The rules in
 * the other files test switches, never profile names; a model reads its row
 * as m->p (a copy in its configuration, config.h, which keys may override).
 * model-local.h includes this header: every rule reads the switches.
 */
#ifndef REFAULT_MODEL_PROFILE_H
#define REFAULT_MODEL_PROFILE_H

#include <stdbool.h>

enum ws_domain {
	WS_ZONE,		/* v4.5: zone->inactive_age, memcg-unaware */
	WS_MEMCG,		/* 23047a96 (v4.6) .. v5.8: inactive_age of the page's lruvec */
	WS_RECLAIM_ROOT,	/* v5.9+: nonresident_age, hierarchical, eviction at reclaim root */
};

enum ws_activation_cost {
	WSCOST_ATOMIC,		/* v4.5: one atomic increment of the zone counter */
	WSCOST_LOCK_PAGE_MEMCG,	/* 23047a96: lock_page_memcg + out-of-line lruvec lookup */
	WSCOST_RCU,		/* 55779ec: rcu_read_lock + page_memcg_rcu + inline lookup */
};

enum file_low_rule {
	FILE_LOW_HALF,		/* v4.5/v4.6 inactive_file_is_low: active > inactive */
	FILE_LOW_SQRT,		/* v4.8/v4.9 inactive_list_is_low: sqrt ratio for file too */
	FILE_LOW_SQRT_REFAULT,	/* v5.4: ratio 0 while refaults happen since the last snapshot */
	FILE_LOW_AT_ROOT,	/* v5.9+: sc->may_deactivate decided once at the reclaim root */
};

enum scan_balance_rule {
	BALANCE_ROTATED,	/* v4.x-v5.7: recent_scanned / recent_rotated */
	BALANCE_COST,		/* v5.8+: anon_cost / file_cost, lru_note_cost(nr_pages) */
	BALANCE_COST_IO,	/* v6.2+ (0538a82c39e9): cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated */
};

/* count_shadow_nodes(): how many shadow nodes a list may keep */
enum shadow_limit_rule {
	SHADOW_LIMIT_PRESENT16,	/* v4.5: node_present_pages >> 4, one list for the node */
	SHADOW_LIMIT_FILE16,	/* v4.6-v4.9 (0a6b76dd): the memcg's own file LRU pages >> 4 */
	SHADOW_LIMIT_LRU8,	/* v5.x+: the memcg's own LRU + slab pages >> 3 (flushed, v6.x) */
};

/* where shadow nodes are listed and when the shadow shrinker runs */
enum shadow_shrinker_mode {
	SHADOW_SHRINKER_OFF,	/* never (not a kernel: to measure what the shrinker does) */
	SHADOW_SHRINKER_NODE,	/* v4.5: one list for the node, after global reclaim passes */
	SHADOW_SHRINKER_MEMCG,	/* v4.6+ (0a6b76dd): a list per memcg, after each memcg's scan */
};

struct rf_profile {
	const char *name;
	unsigned int major, minor;	/* the kernel release it models; 0, 0: one with a patch */
	const char *summary;
	enum ws_domain ws_domain;
	enum ws_activation_cost ws_cost;
	bool lruvec_call;		/* out-of-line mem_cgroup_zone_lruvec() (v4.6 < 55779ec) */
	bool node_lru;			/* v4.8+: per-node lruvec, counters without a zone suffix */
	bool ws_no_write_refault;	/* v4.9+: no refault activation for __GFP_WRITE inserts */
	bool dirty_file_activate;	/* v4.11+ shrink_page_list(): a dirty file page reclaim
					 * meets is activated ("mm: vmscan: move dirty pages out
					 * of the way until they're flushed"); before, kept */
	bool write_not_accessed;	/* v4.7+: grab_cache_page_write_begin() without
					 * FGP_ACCESSED: a write marks nothing accessed */
	bool ws_restore;		/* v4.20+: PG_workingset in shadows, workingset_restore */
	bool ws_anon;			/* v5.9+: anon shadows in swap entries */
	bool ws_memcg_stats;		/* v5.4+: workingset_* are lruvec (memcg) stats */
	bool new_anon_inactive;		/* v5.9+: new anon pages start inactive */
	bool anon_two_look;		/* v5.9+: page_check_references treats anon like file */
	bool rand_no_recency;		/* v6.3+ vma_has_recency() (8788f678): references through a
					 * VM_RAND_READ vma are ignored, as VM_SEQ_READ ones always were */
	bool deactivate_workingset;	/* v4.20+: shrink_active_list sets PG_workingset */
	bool memcg_iter_cookie;		/* v4.x: shared iterator cursor, early break in limit */
	bool kswapd_check_first;	/* v4.8+: balance test before age_active_anon */
	bool pgactivate_nr_pages;	/* v5.x: per base page instead of per page struct */
	bool scan_nr_pages;		/* v5.3+: sc->nr_scanned += base pages, mapped ones once */
	bool vmstat_v58_names;		/* v5.8+: pgscan_anon/file, pgsteal_anon/file */
	bool vmstat_v59_names;		/* v5.9+: workingset_*_anon/_file */
	bool memcg_vm_events;		/* v5.x: pgscan/pgsteal always counted per memcg */
	bool lruvec_lock;		/* v5.11+: one lock per lruvec, not per node/zone */
	bool no_wmark_scale;		/* v4.5: low = min * 5/4, high = min * 3/2 */
	bool thp_swap;			/* v4.13+: an anon THP is swapped whole if slots allow */
	bool stats_flushed;		/* v6.12+: reclaim reads memcg stats as last flushed
					 * (mem_cgroup_flush_stats_ratelimited()); v5.13..v6.11
					 * prepare_scan_count() flushes them first: exact */
	bool ws_stamp_first;		/* v5.12+ (Salvador, "clarify eviction order"): the
					 * shadow holds the age before eviction ages it */
	bool large_file_folios;		/* readahead in large folios, page_cache_ra_order()
					 * (v5.18), on ext4 from v6.16 (7ac67301e82f) */
	bool read_same_folio;		/* v5.19+ (5ccc944dce3d) filemap_read(): pos_same_folio(),
					 * not prev_index */
	bool read_batch;		/* v5.10+: a read holds up to pagevec_size cached
					 * folios across readahead (filemap_get_pages()); before,
					 * the one page it copies (do_generic_file_read()) */
	bool ra_charge_noretry;		/* v4.7+ (Hocko, "mm, memcg: use consistent gfp flags
					 * during readahead"): readahead charges __GFP_NORETRY */
	enum file_low_rule file_low;
	enum scan_balance_rule balance;
	enum shadow_limit_rule shadow_limit;
	enum shadow_shrinker_mode shadow_shrinker;
	unsigned int pagevec_size;
	bool pvec_post_8f18;		/* 8f182270: compound pages drained at once */
	bool swap_account;
	unsigned int swappiness_max;
	unsigned int memcg_reclaim_retries;
	unsigned int shadow_seeks;	/* shadow shrinker .seeks: 2 (v4.x), 0 (v5.x) */
	bool shrink_deferred_memcg;	/* v5.13+: nr_deferred per memcg, used as nr >> priority */
	/* the multi-gen LRU (lru_gen.c, lru_gen_evict.c), on when lru_gen_caps is set */
	unsigned int lru_gen_caps;	/* /sys/kernel/mm/lru_gen/enabled: LRU_GEN_CAP_*, 0 = classic */
	bool lru_gen_rules;		/* the row's release has its multi-gen LRU modelled
					 * (docs/model.md "MGLRU"): v6.12.117's rules, with
					 * the switches below for v6.1.192's */
	bool lru_gen_memcg_lru;		/* v6.12 (not v6.1): root reclaim walks the per-node
					 * memcg LRU (shrink_many()), aging in eviction only */
	bool lru_gen_kswapd_ages;	/* v6.1: kswapd ages in lru_gen_age_node()
					 * (age_lruvec()); get_nr_to_scan() and
					 * should_abort_scan() of v6.1 */
	bool lru_gen_sort_busy;		/* v6.1: sort_folio() moves locked and writeback
					 * folios a generation up (PG_reclaim) */
	bool lru_gen_ws_v61;		/* v6.1: a refault counts only when recent, and
					 * workingset_activate counts sort_folio()'s protection */
	bool lru_gen_look_self;		/* v6.1: look-around marks the reclaimed folio's own
					 * young PTE (PG_referenced: activated); fewer than 15
					 * neighbours to promote: folio_activate() */
	/* v6.18.2's rework (docs/model.md "MGLRU"), each a switch of the v6.18-mglru row */
	bool lru_gen_refs_sticky;	/* refs count from PG_referenced, PG_workingset stays
					 * (tier 3) and marks a second young sighting
					 * (lru_gen_set_refs(), folio_update_gen()) */
	bool lru_gen_place_seq;		/* lru_gen_folio_seq(): placement counted from max_seq */
	bool lru_gen_recent_window;	/* lru_gen_test_recent(): within MAX_NR_GENS of max_seq */
	bool lru_gen_aging_gens;	/* should_run_aging() by the number of generations only;
					 * anon and file min_seq apart by at most one */
	bool lru_gen_ctrl_all_tiers;	/* get_type_to_scan() from all tiers, tier gains 2:3 */
};

/* The row named @name, or NULL. */
const struct rf_profile *rf_profile_find(const char *name);

#endif /* REFAULT_MODEL_PROFILE_H */
