/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policy profiles: one const row of switches per kernel.  A new kernel is a
 * new row; the rules in the other files test switches, never profile names.
 * The switch each rule reads is documented where the switch is declared
 * (internal.h) and the per-version facts come from
 * shared/reference/linux-lru-model.md §2 (sources listed there).
 */
#include <string.h>

#include "model-local.h"

static const struct rf_profile profiles[] = {
	{
		.name = "v4.5",
		.summary = "v4.5 (parent of 23047a96): per-zone workingset, memcg-unaware",
		.ws_domain = WS_ZONE,
		.ws_cost = WSCOST_ATOMIC,
		.no_wmark_scale = true,
		.file_low = FILE_LOW_HALF,
		.balance = BALANCE_ROTATED,
		.shadow_limit = SHADOW_LIMIT_PRESENT16,
		.shadow_shrinker = SHADOW_SHRINKER_NODE,
		.memcg_iter_cookie = true,
		.pagevec_size = 14,
		.swap_account = true,
		.swappiness_max = 100,
		.memcg_reclaim_retries = 5,
		.shadow_seeks = 2,
	},
	{
		.name = "v4.6",
		.summary = "v4.6 (23047a96): per-memcg lruvec age, memcg id in shadows",
		.ws_domain = WS_MEMCG,
		.ws_cost = WSCOST_LOCK_PAGE_MEMCG,
		.lruvec_call = true,
		.file_low = FILE_LOW_HALF,
		.balance = BALANCE_ROTATED,
		.shadow_limit = SHADOW_LIMIT_FILE16,
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,
		.memcg_iter_cookie = true,
		.pagevec_size = 14,
		.swap_account = true,
		.swappiness_max = 100,
		.memcg_reclaim_retries = 5,
		.shadow_seeks = 2,
	},
	{
		.name = "v4.6+55779ec",
		.summary = "v4.6 + 55779ec: v4.6 decisions, RCU and inlined lookups in activation",
		.ws_domain = WS_MEMCG,
		.ws_cost = WSCOST_RCU,
		.file_low = FILE_LOW_HALF,
		.balance = BALANCE_ROTATED,
		.shadow_limit = SHADOW_LIMIT_FILE16,
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,
		.memcg_iter_cookie = true,
		.pagevec_size = 14,
		.swap_account = true,
		.swappiness_max = 100,
		.memcg_reclaim_retries = 5,
		.shadow_seeks = 2,
	},
	{
		.name = "v4.9",
		.summary = "v4.9: node-based lruvecs, sqrt file ratio, 8f182270 batches",
		.ws_domain = WS_MEMCG,
		.ws_cost = WSCOST_RCU,
		.node_lru = true,
		.ws_no_write_refault = true,
		.kswapd_check_first = true,
		.file_low = FILE_LOW_SQRT,
		.balance = BALANCE_ROTATED,
		.shadow_limit = SHADOW_LIMIT_FILE16,
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,
		.memcg_iter_cookie = true,
		.pagevec_size = 14,
		.pvec_post_8f18 = true,
		.swap_account = true,
		.swappiness_max = 100,
		.memcg_reclaim_retries = 5,
		.shadow_seeks = 2,
	},
	{
		.name = "v5.10",
		.summary = "v5.10: anon workingset, reclaim-root aging, cost-based anon/file balance",
		.ws_domain = WS_RECLAIM_ROOT,
		.ws_cost = WSCOST_RCU,
		.node_lru = true,
		.ws_no_write_refault = true,
		.ws_restore = true,
		.ws_anon = true,
		.ws_memcg_stats = true,
		.new_anon_inactive = true,
		.anon_two_look = true,
		.deactivate_workingset = true,
		.kswapd_check_first = true,
		.pgactivate_nr_pages = true,
		.vmstat_v58_names = true,
		.vmstat_v59_names = true,
		.memcg_vm_events = true,
		.file_low = FILE_LOW_AT_ROOT,
		.balance = BALANCE_COST,
		.shadow_limit = SHADOW_LIMIT_LRU8,
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,
		.pagevec_size = 15,
		.pvec_post_8f18 = true,
		.thp_swap = true,
		.scan_nr_pages = true,
		.swap_account = true,
		.swappiness_max = 200,
		.memcg_reclaim_retries = 16,
		.shadow_seeks = 0,
	},
	{
		.name = "v6.18",
		.summary = "v6.18 classic (non-MGLRU) LRU: folio batches of 31, IO-weighted cost",
		.ws_domain = WS_RECLAIM_ROOT,
		.ws_cost = WSCOST_RCU,
		.node_lru = true,
		.ws_no_write_refault = true,
		.ws_restore = true,
		.ws_anon = true,
		.ws_memcg_stats = true,
		.new_anon_inactive = true,
		.anon_two_look = true,
		.deactivate_workingset = true,
		.kswapd_check_first = true,
		.pgactivate_nr_pages = true,
		.vmstat_v58_names = true,
		.vmstat_v59_names = true,
		.memcg_vm_events = true,
		.lruvec_lock = true,
		.file_low = FILE_LOW_AT_ROOT,
		.balance = BALANCE_COST_IO,
		.shadow_limit = SHADOW_LIMIT_LRU8,
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,
		.pagevec_size = 31,
		.pvec_post_8f18 = true,
		.thp_swap = true,
		.scan_nr_pages = true,
		.stats_flushed = true,
		.ws_stamp_first = true,
		.large_file_folios = true,
		.read_same_folio = true,
		.swap_account = true,
		.swappiness_max = 200,
		.memcg_reclaim_retries = 16,
		.shadow_seeks = 0,
		.shrink_deferred_memcg = true,
	},
};

#define NR_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

static const char *const profile_names[NR_PROFILES + 1] = {
	"v4.5", "v4.6", "v4.6+55779ec", "v4.9", "v5.10", "v6.18", NULL,
};

_Static_assert(sizeof(profile_names) / sizeof(profile_names[0]) == NR_PROFILES + 1,
	       "profile_names must list every row of profiles[]");

const struct rf_profile *rf_profile_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < NR_PROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *const *rf_model_profiles(void)
{
	return profile_names;
}

const char *rf_model_profile_summary(const char *profile)
{
	const struct rf_profile *p = rf_profile_find(profile);

	return p ? p->summary : NULL;
}
