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

/*
 * The switches, one row each: the field, what it takes, and what it does
 * with the release or commit that made it so (the help of its --set key).
 *
 *	BOOL(field, help)			on/off
 *	UINT(field, min, max, help)		a number
 *	ENUM(type, field, help)			a value of enum @type (names: config.c)
 *	OWN(type, field, help)			set by a key of its own name (config.c)
 *
 * struct rf_profile is made of it, and so are the --set keys
 * (rf_model_config_set()): a switch a patch adds is one row here, one value
 * in each profile row that differs from false/0 (profiles.c), and the rule.
 */
#define RF_PROFILE_SWITCHES(BOOL, UINT, ENUM, OWN)					\
	ENUM(enum ws_domain, ws_domain,							\
	     "where refault distance is measured: zone (v4.5: zone->inactive_age, "	\
	     "memcg-unaware), memcg (23047a96, v4.6..v5.8: the page's lruvec), "		\
	     "reclaim-root (v5.9+: hierarchical nonresident_age, evicted at the reclaim root)") \
	ENUM(enum ws_activation_cost, ws_cost,						\
	     "what workingset_activation() costs: atomic (v4.5), lock-page-memcg (23047a96: "	\
	     "lock_page_memcg and an out-of-line lruvec lookup), rcu (55779ec)")		\
	BOOL(lruvec_call, "out-of-line mem_cgroup_zone_lruvec() (v4.6 before 55779ec)")	\
	BOOL(node_lru, "v4.8+: per-node lruvecs, counters without a zone suffix")		\
	BOOL(ws_no_write_refault, "v4.9+: no refault activation for __GFP_WRITE inserts")	\
	BOOL(dirty_file_activate,							\
	     "v4.11+ shrink_page_list(): a dirty file page reclaim meets is activated (\"mm: " \
	     "vmscan: move dirty pages out of the way until they're flushed\"); before, kept " \
	     "(writeback=flusher only)")							\
	BOOL(write_not_accessed,							\
	     "v4.7+: grab_cache_page_write_begin() without FGP_ACCESSED: a write marks "	\
	     "nothing accessed")								\
	BOOL(ws_restore, "v4.20+: PG_workingset in shadows, workingset_restore")		\
	BOOL(ws_anon, "v5.9+: anon shadows in swap entries")				\
	BOOL(ws_memcg_stats, "v5.4+: workingset_* are lruvec (memcg) stats")		\
	BOOL(new_anon_inactive, "v5.9+: new anon pages start inactive")			\
	BOOL(anon_two_look, "v5.9+: page_check_references() treats anon like file")	\
	BOOL(rand_no_recency,								\
	     "v6.3+ vma_has_recency() (8788f678): references through a VM_RAND_READ vma are " \
	     "ignored, as VM_SEQ_READ ones always were")					\
	BOOL(deactivate_workingset, "v4.20+: shrink_active_list() sets PG_workingset")	\
	BOOL(memcg_iter_cookie, "v4.x: shared iterator cursor, early break in limit reclaim") \
	BOOL(kswapd_check_first, "v4.8+: kswapd's balance test before age_active_anon()")	\
	BOOL(pgactivate_nr_pages, "v5.x: pgactivate counts base pages, not page structs")	\
	BOOL(scan_nr_pages, "v5.3+: sc->nr_scanned adds base pages, mapped ones once")	\
	BOOL(vmstat_v58_names, "v5.8+: pgscan_anon/file, pgsteal_anon/file")		\
	BOOL(vmstat_v59_names, "v5.9+: workingset_*_anon/_file")				\
	BOOL(memcg_vm_events, "v5.x: pgscan/pgsteal always counted per memcg")		\
	BOOL(lruvec_lock, "v5.11+: one LRU lock per lruvec, not per node or zone")		\
	OWN(bool, no_wmark_scale, "v4.5: low = min * 5/4, high = min * 3/2 (key watermarks)") \
	BOOL(thp_swap, "v4.13+: an anon THP is swapped out whole if slots allow")		\
	OWN(bool, stats_flushed,							\
	    "v6.12+: reclaim reads memcg stats as last flushed "				\
	    "(mem_cgroup_flush_stats_ratelimited()) (key memcg_stats)")			\
	BOOL(ws_stamp_first,								\
	     "v5.12+ (\"mm: workingset: clarify eviction order and distance calculation\"): " \
	     "the shadow holds the age before eviction ages it")				\
	BOOL(large_file_folios,								\
	     "readahead in large folios, page_cache_ra_order() (v5.18), on ext4 from v6.16 "	\
	     "(7ac67301e82f)")								\
	BOOL(read_same_folio,								\
	     "v5.19+ (5ccc944dce3d) filemap_read(): a read's first folio judged by "	\
	     "pos_same_folio(), not prev_index")						\
	BOOL(read_batch,								\
	     "v5.10+: a read holds up to pagevec_size cached folios across readahead "	\
	     "(filemap_get_pages()); before, the one page it copies")			\
	BOOL(ra_charge_noretry,								\
	     "v4.7+ (\"mm, memcg: use consistent gfp flags during readahead\"): readahead " \
	     "charges __GFP_NORETRY")							\
	ENUM(enum file_low_rule, file_low,						\
	     "when the inactive file list is low: half (v4.5, v4.6: active > inactive), "	\
	     "sqrt (v4.8, v4.9: the sqrt ratio for file too), sqrt-refault (v5.4: ratio 0 "	\
	     "while refaults happen), at-root (v5.9+: decided once at the reclaim root)")	\
	ENUM(enum scan_balance_rule, balance,						\
	     "the anon/file balance of get_scan_count(): rotated (v4.x..v5.7: "		\
	     "recent_scanned / recent_rotated), cost (v5.8+: lru_note_cost(nr_pages)), "	\
	     "cost-io (v6.2+, 0538a82c39e9: nr_io * SWAP_CLUSTER_MAX + nr_rotated)")	\
	OWN(enum shadow_limit_rule, shadow_limit, "count_shadow_nodes()'s limit (key shadow_limit)") \
	OWN(enum shadow_shrinker_mode, shadow_shrinker, "the shadow shrinker (key shadow_shrinker)") \
	OWN(unsigned int, pagevec_size, "pages per LRU batch (key pagevec_size)")	\
	OWN(bool, pvec_post_8f18, "8f182270: compound pages drained at once (key pagevec)") \
	OWN(bool, swap_account, "memcg swap accounting (key swap_account)")		\
	UINT(swappiness_max, 100, 200,							\
	     "the highest vm.swappiness: 100 (v4.x), 200 (v5.8+, c843966c556d)")		\
	UINT(memcg_reclaim_retries, 1, 64,						\
	     "limit reclaim's rounds before OOM: 5 (MEM_CGROUP_RECLAIM_RETRIES, v4.x), 16 "	\
	     "(MAX_RECLAIM_RETRIES, v5.x+)")						\
	UINT(shadow_seeks, 0, 16, "the shadow shrinker's .seeks: 2 (v4.x), 0 (v5.x+)")	\
	BOOL(shrink_deferred_memcg, "v5.13+: nr_deferred per memcg, used as nr >> priority") \
	OWN(unsigned int, lru_gen_caps,							\
	    "/sys/kernel/mm/lru_gen/enabled: LRU_GEN_CAP_*, 0 = classic (key lru_gen)")	\
	BOOL(lru_gen_rules,								\
	     "the release has its multi-gen LRU modelled (docs/model.md \"MGLRU\"): "	\
	     "v6.12.117's rules, with the switches below for v6.1.192's")			\
	BOOL(lru_gen_memcg_lru,								\
	     "v6.12 (not v6.1): root reclaim walks the per-node memcg LRU (shrink_many()), " \
	     "aging in eviction only")							\
	BOOL(lru_gen_kswapd_ages,							\
	     "v6.1: kswapd ages in lru_gen_age_node() (age_lruvec()); v6.1's "		\
	     "get_nr_to_scan() and should_abort_scan()")					\
	BOOL(lru_gen_sort_busy,								\
	     "v6.1: sort_folio() moves locked and writeback folios a generation up "	\
	     "(PG_reclaim)")									\
	BOOL(lru_gen_ws_v61,								\
	     "v6.1: a refault counts only when recent, and workingset_activate counts "	\
	     "sort_folio()'s protection")							\
	BOOL(lru_gen_look_self,								\
	     "v6.1: look-around marks the reclaimed folio's own young PTE (PG_referenced: "	\
	     "activated); fewer than 15 neighbours to promote: folio_activate()")		\
	BOOL(lru_gen_refs_sticky,							\
	     "v6.18.2: refs count from PG_referenced, PG_workingset stays (tier 3) and marks " \
	     "a second young sighting (lru_gen_set_refs(), folio_update_gen())")		\
	BOOL(lru_gen_place_seq, "v6.18.2 lru_gen_folio_seq(): placement counted from max_seq") \
	BOOL(lru_gen_recent_window,							\
	     "v6.18.2 lru_gen_test_recent(): recent within MAX_NR_GENS of max_seq")		\
	BOOL(lru_gen_aging_gens,							\
	     "v6.18.2 should_run_aging(): by the number of generations only; anon and file " \
	     "min_seq apart by at most one")						\
	BOOL(lru_gen_ctrl_all_tiers,							\
	     "v6.18.2 get_type_to_scan(): from all tiers, tier gains 2:3")

#define RF_PROFILE_BOOL_(f, h)		bool f;
#define RF_PROFILE_UINT_(f, lo, hi, h)	unsigned int f;
#define RF_PROFILE_TYPED_(t, f, h)	t f;

struct rf_profile {
	const char *name;
	unsigned int major, minor;	/* the kernel release it models; 0, 0: one with a patch */
	const char *summary;
	RF_PROFILE_SWITCHES(RF_PROFILE_BOOL_, RF_PROFILE_UINT_, RF_PROFILE_TYPED_, RF_PROFILE_TYPED_)
};

/* The row named @name, or NULL. */
const struct rf_profile *rf_profile_find(const char *name);

#endif /* REFAULT_MODEL_PROFILE_H */
