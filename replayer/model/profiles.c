/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policy profiles: one const row of switches per kernel.  A new kernel is a
 * new row; the rules in the other files test switches, never profile names.
 * Each switch is documented where it is declared (profile.h, struct
 * rf_profile) with the kernel release or commit that made it so; the
 * facts are each release's own mm/ sources (vmscan.c, workingset.c, swap.c,
 * memcontrol.c, filemap.c), cited function by function where the rule is
 * modelled, and docs/model.md "Profiles" says what each row changes.
 */
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
#include "model-local.h"
#include "profile.h"

/*
 * v5.10's rules, which the later classic rows keep: PG_workingset and restore,
 * anon shadows, aging at the reclaim root, new anon pages inactive, the anon
 * two-look rule, deactivation decided at the root, pgscan/pgsteal per memcg,
 * a read holding its batch.  Its row adds its cost rule and batch size.
 */
#define CLASSIC_5_10								\
		.ws_domain = WS_RECLAIM_ROOT,						\
		.ws_cost = WSCOST_RCU,							\
		.node_lru = true,							\
		.ws_no_write_refault = true,						\
		.write_not_accessed = true,						\
		.dirty_file_activate = true,						\
		.ws_restore = true,							\
		.ws_anon = true,							\
		.ws_memcg_stats = true,							\
		.new_anon_inactive = true,						\
		.anon_two_look = true,							\
		.deactivate_workingset = true,						\
		.kswapd_check_first = true,						\
		.pgactivate_nr_pages = true,						\
		.vmstat_v58_names = true,						\
		.vmstat_v59_names = true,						\
		.memcg_vm_events = true,						\
		.file_low = FILE_LOW_AT_ROOT,						\
		.shadow_limit = SHADOW_LIMIT_LRU8,					\
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,				\
		.pvec_post_8f18 = true,							\
		.thp_swap = true,							\
		.scan_nr_pages = true,							\
		.read_batch = true,							\
		.swap_account = true,							\
		.swappiness_max = 200,							\
		.ra_charge_noretry = true,						\
		.memcg_reclaim_retries = 16,						\
		.shadow_seeks = 0

/*
 * What the 6.x classic rows share: v5.10's rules, the per-lruvec lock of
 * v5.11, the shadow stamped first from v5.12, per-memcg nr_deferred from
 * v5.13, pos_same_folio() from v5.19; each row adds what differs: the cost
 * (v6.2), the batch size (v6.9), the stats flush in reclaim (v6.12), ext4's
 * large folios (v6.16).  A field is set in one place only.
 */
#define CLASSIC_6X								\
		CLASSIC_5_10,								\
		.lruvec_lock = true,							\
		.ws_stamp_first = true,							\
		.read_same_folio = true,						\
		.shrink_deferred_memcg = true

/*
 * A 6.x release whose multi-gen LRU is modelled has a second row with
 * lru_gen_caps set: the sysfs value 7 (core, mm walk, non-leaf young).  The
 * rules are each release's own sources': v6.12.117 (Debian 6.12, "mm/mglru:
 * fix underprotected page cache" in it), v6.1.192 (Debian 6.1, which has
 * that fix too, but no memcg LRU and the older aging) and v6.18.2 (refs,
 * placement, aging and the controller reworked; from its sources, with no
 * 6.18 kernel with the multi-gen LRU in the lab to validate it against).
 */
#define LRU_GEN_CAPS_ALL (LRU_GEN_CAP_CORE | LRU_GEN_CAP_MM_WALK | LRU_GEN_CAP_NONLEAF)

#define V6_1									\
		CLASSIC_6X,								\
		.balance = BALANCE_COST,						\
		.pagevec_size = 15,							\
		.lru_gen_rules = true,							\
		.lru_gen_kswapd_ages = true,						\
		.lru_gen_sort_busy = true,						\
		.lru_gen_ws_v61 = true,							\
		.lru_gen_look_self = true

#define V6_12									\
		CLASSIC_6X,								\
		.rand_no_recency = true,						\
		.balance = BALANCE_COST_IO,						\
		.pagevec_size = 31,							\
		.stats_flushed = true,							\
		.lru_gen_rules = true,							\
		.lru_gen_memcg_lru = true

/* as v6.12, plus ext4's large folios and the multi-gen LRU's rework */
#define V6_18									\
		V6_12,									\
		.large_file_folios = true,						\
		.lru_gen_sort_busy = true,						\
		.lru_gen_refs_sticky = true,						\
		.lru_gen_place_seq = true,						\
		.lru_gen_recent_window = true,						\
		.lru_gen_aging_gens = true,						\
		.lru_gen_ctrl_all_tiers = true

/*
 * One row per profile: its name, the kernel release it models (major,
 * minor; 0, 0 for a release with a patch applied), what it models in a
 * line, and its switches.  The list of names and the pick by release
 * (rf_model_profile_for_release()) are made from these rows.
 */
#define PROFILE_ROWS(ROW)								\
	ROW("v4.5", 4, 5,								\
	    "v4.5 (parent of 23047a96): per-zone workingset, memcg-unaware",		\
		.ws_domain = WS_ZONE,							\
		.ws_cost = WSCOST_ATOMIC,						\
		.no_wmark_scale = true,							\
		.file_low = FILE_LOW_HALF,						\
		.balance = BALANCE_ROTATED,						\
		.shadow_limit = SHADOW_LIMIT_PRESENT16,					\
		.shadow_shrinker = SHADOW_SHRINKER_NODE,				\
		.memcg_iter_cookie = true,						\
		.pagevec_size = 14,							\
		.swap_account = true,							\
		.swappiness_max = 100,							\
		.memcg_reclaim_retries = 5,						\
		.shadow_seeks = 2)							\
	ROW("v4.6", 4, 6,								\
	    "v4.6 (23047a96): per-memcg lruvec age, memcg id in shadows",		\
		.ws_domain = WS_MEMCG,							\
		.ws_cost = WSCOST_LOCK_PAGE_MEMCG,					\
		.lruvec_call = true,							\
		.file_low = FILE_LOW_HALF,						\
		.balance = BALANCE_ROTATED,						\
		.shadow_limit = SHADOW_LIMIT_FILE16,					\
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,				\
		.memcg_iter_cookie = true,						\
		.pagevec_size = 14,							\
		.swap_account = true,							\
		.swappiness_max = 100,							\
		.memcg_reclaim_retries = 5,						\
		.shadow_seeks = 2)							\
	ROW("v4.6+55779ec", 0, 0,							\
	    "v4.6 + 55779ec: v4.6 decisions, RCU and inlined lookups in activation",	\
		.ws_domain = WS_MEMCG,							\
		.ws_cost = WSCOST_RCU,							\
		.file_low = FILE_LOW_HALF,						\
		.balance = BALANCE_ROTATED,						\
		.shadow_limit = SHADOW_LIMIT_FILE16,					\
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,				\
		.memcg_iter_cookie = true,						\
		.pagevec_size = 14,							\
		.swap_account = true,							\
		.swappiness_max = 100,							\
		.memcg_reclaim_retries = 5,						\
		.shadow_seeks = 2)							\
	ROW("v4.9", 4, 9,								\
	    "v4.9: node-based lruvecs, sqrt file ratio, 8f182270 batches",		\
		.ws_domain = WS_MEMCG,							\
		.ws_cost = WSCOST_RCU,							\
		.node_lru = true,							\
		.ws_no_write_refault = true,						\
		.write_not_accessed = true,						\
		.kswapd_check_first = true,						\
		.file_low = FILE_LOW_SQRT,						\
		.balance = BALANCE_ROTATED,						\
		.shadow_limit = SHADOW_LIMIT_FILE16,					\
		.shadow_shrinker = SHADOW_SHRINKER_MEMCG,				\
		.memcg_iter_cookie = true,						\
		.pagevec_size = 14,							\
		.pvec_post_8f18 = true,							\
		.swap_account = true,							\
		.swappiness_max = 100,							\
		.ra_charge_noretry = true,						\
		.memcg_reclaim_retries = 5,						\
		.shadow_seeks = 2)							\
	ROW("v5.10", 5, 10,								\
	    "v5.10: anon workingset, reclaim-root aging, cost-based anon/file balance",	\
		CLASSIC_5_10,								\
		.balance = BALANCE_COST,						\
		.pagevec_size = 15)							\
	ROW("v6.1", 6, 1,								\
	    "v6.1 classic (non-MGLRU) LRU: batches of 15, cost = pages written, exact stats",	\
		V6_1)									\
	ROW("v6.1-mglru", 6, 1,								\
	    "v6.1 multi-gen LRU (lru_gen enabled=7): kswapd ages, no memcg LRU, mm walk",	\
		V6_1,									\
		.lru_gen_caps = LRU_GEN_CAPS_ALL)					\
	ROW("v6.12", 6, 12,								\
	    "v6.12 classic (non-MGLRU) LRU: batches of 31, IO-weighted cost, no ext4 large folios",	\
		V6_12)									\
	ROW("v6.12-mglru", 6, 12,							\
	    "v6.12 multi-gen LRU (Debian's default): tiers, PID controller, memcg LRU, mm walk",	\
		V6_12,									\
		.lru_gen_caps = LRU_GEN_CAPS_ALL)					\
	ROW("v6.18", 6, 18,								\
	    "v6.18 classic (non-MGLRU) LRU: folio batches of 31, IO-weighted cost",	\
		V6_18)									\
	ROW("v6.18-mglru", 6, 18,							\
	    "v6.18 multi-gen LRU: sticky workingset tier, aging by generations (not lab-validated)",	\
		V6_18,									\
		.lru_gen_caps = LRU_GEN_CAPS_ALL)

static const struct rf_profile profiles[] = {
#define ROW(n, maj, min, sum, ...)						\
	{ .name = n, .major = maj, .minor = min, .summary = sum, __VA_ARGS__ },
	PROFILE_ROWS(ROW)
#undef ROW
};

#define NR_PROFILES ARRAY_SIZE(profiles)

static const char *const profile_names[] = {
#define ROW(n, ...) n,
	PROFILE_ROWS(ROW)
#undef ROW
	NULL
};

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

/* <0, 0, >0 as release @p is older than, the same as, newer than @major.@minor */
static int release_cmp(const struct rf_profile *p, unsigned int major, unsigned int minor)
{
	if (p->major != major)
		return p->major < major ? -1 : 1;
	return p->minor < minor ? -1 : p->minor > minor;
}

/*
 * The rows that are plain releases (major set): the newest one not newer
 * than @major.@minor, else the oldest one; with @newest, the newest one.
 */
static const struct rf_profile *release_row(unsigned int major, unsigned int minor, bool newest)
{
	const struct rf_profile *p, *pick = NULL, *oldest = NULL;

	for (p = profiles; p < profiles + NR_PROFILES; p++) {
		if (!p->major || p->lru_gen_caps)
			continue;	/* a patch, or a release's multi-gen LRU row */
		if (!oldest || release_cmp(p, oldest->major, oldest->minor) < 0)
			oldest = p;
		if ((newest || release_cmp(p, major, minor) <= 0) &&
		    (!pick || release_cmp(p, pick->major, pick->minor) > 0))
			pick = p;
	}
	return pick ? pick : oldest;
}

const char *rf_model_profile_for_release(const char *release, char *why, size_t whylen)
{
	const struct rf_profile *pick;
	unsigned int major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2) {
		snprintf(why, whylen, "kernel release '%s' unreadable: the newest profile",
			 release ? release : "");
		return release_row(0, 0, true)->name;
	}
	pick = release_row(major, minor, false);
	if (!release_cmp(pick, major, minor))
		snprintf(why, whylen, "recorded on %u.%u: the profile of that release", major,
			 minor);
	else if (release_cmp(pick, major, minor) > 0)
		snprintf(why, whylen, "recorded on %u.%u, older than every profile: the oldest",
			 major, minor);
	else
		snprintf(why, whylen, "recorded on %u.%u, which has no profile of its own: "
			 "the nearest older one (check docs/model.md for what changed since)",
			 major, minor);
	return pick->name;
}
