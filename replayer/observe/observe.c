/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rf_observe_new/feed/free, reclaim summaries and lost events; the quantities' names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "replayer/observe/observe-local.h"

static const char *const q_names[RF_OBS_NR] = {
	[RF_OBS_ADD] = "pagecache_add", [RF_OBS_DEL] = "pagecache_del",
	[RF_OBS_REFAULT_FILE] = "workingset_refault_file",
	[RF_OBS_REFAULT_ANON] = "workingset_refault_anon",
	[RF_OBS_PGACTIVATE] = "pgactivate", [RF_OBS_PGREFILL] = "pgrefill",
	[RF_OBS_SCAN_FILE] = "pgscan_file", [RF_OBS_SCAN_ANON] = "pgscan_anon",
	[RF_OBS_STEAL_FILE] = "pgsteal_file", [RF_OBS_STEAL_ANON] = "pgsteal_anon",
	[RF_OBS_ACTIVE_FILE] = "active_file", [RF_OBS_INACTIVE_FILE] = "inactive_file",
	[RF_OBS_ACTIVE_ANON] = "active_anon", [RF_OBS_INACTIVE_ANON] = "inactive_anon",
	[RF_OBS_GEN_MAX_SEQ] = "lru_gen_max_seq", [RF_OBS_GEN_MIN_SEQ_ANON] = "lru_gen_min_seq_anon",
	[RF_OBS_GEN_MIN_SEQ_FILE] = "lru_gen_min_seq_file",
};

const char *rf_obs_q_name(enum rf_obs_q q)
{
	return (unsigned int)q < RF_OBS_NR ? q_names[q] : "?";
}

bool rf_obs_q_is_gauge(enum rf_obs_q q)
{
	return q >= RF_OBS_ACTIVE_FILE;
}

bool rf_obs_q_is_gen(enum rf_obs_q q)
{
	return q >= RF_OBS_GEN_MAX_SEQ && q <= RF_OBS_GEN_MIN_SEQ_FILE;
}

const char *rf_obs_q_source(enum rf_obs_q q, bool memstat)
{
	if (memstat && !rf_obs_q_is_gen(q))
		return "memory.stat";	/* v2's has pgactivate and pgrefill too */
	switch (q) {
	case RF_OBS_ADD: return "mm_filemap_add_to_page_cache";
	case RF_OBS_DEL: return "mm_filemap_delete_from_page_cache";
	case RF_OBS_REFAULT_FILE:
	case RF_OBS_REFAULT_ANON: return "/proc/vmstat";
	case RF_OBS_PGACTIVATE: return "mm_lru_activate + shrink_inactive nr_activate";
	case RF_OBS_PGREFILL: return "mm_vmscan_lru_shrink_active nr_taken";
	case RF_OBS_SCAN_FILE:
	case RF_OBS_SCAN_ANON: return "mm_vmscan_lru_shrink_inactive nr_scanned";
	case RF_OBS_STEAL_FILE:
	case RF_OBS_STEAL_ANON: return "mm_vmscan_lru_shrink_inactive nr_reclaimed";
	case RF_OBS_GEN_MAX_SEQ:
	case RF_OBS_GEN_MIN_SEQ_ANON:
	case RF_OBS_GEN_MIN_SEQ_FILE: return "debugfs lru_gen_full";
	default: return "memory.stat";
	}
}

/*
 * Whether anything below looks at an event of each type (o->looks[]): the
 * observations and meta events, cgroups made, readahead seen, and the
 * references that read file pages (the type table's, obs_reads_pages())
 * only when pages are followed.  A replay feeds every event here, most of
 * them references: this keeps their cost to a lookup (4 % of a replay's
 * instructions before).
 */
static void init_looks(struct rf_observe *o)
{
	unsigned int t;

	for (t = 0; t < RF_EV_TYPE_MAX; t++) {
		enum rf_event_class c = rf_event_class(t);

		o->looks[t] = c == RF_CLASS_OBSERVATION || c == RF_CLASS_META ||
			      t == RF_EV_CGROUP_MKDIR || t == RF_EV_FILE_READAHEAD ||
			      ((o->flags & RF_OBSERVE_PAGES) && obs_reads_pages(t));
	}
}

int rf_observe_new(struct rf_observe **out, uint32_t page_size, unsigned int flags)
{
	struct rf_observe *o = calloc(1, sizeof(*o));

	*out = NULL;
	if (!o)
		return RF_ERR_NOMEM;
	o->page_size = page_size ? page_size : 4096;
	o->flags = flags;
	init_looks(o);
	if (obs_add_cgroup(o, 0, 0, NULL) < 0) {
		rf_observe_free(o);
		return RF_ERR_NOMEM;
	}
	*out = o;
	return 0;
}

void rf_observe_free(struct rf_observe *o)
{
	if (!o)
		return;
	obs_cgroups_free(o);
	obs_values_free(o);
	obs_pages_free(o);
	free(o);
}

/*
 * shrink_active_list and shrink_inactive_list both become RF_EV_RECLAIM,
 * which says which since format 2.1 (.list).  Before, a guess: the recorder
 * fills nr_deactivated only for the active list, and nr_reclaimed only for
 * the inactive one.  An active scan that moved nothing (all rotated) looks
 * like an inactive scan that activated every page it took and freed none:
 * read as active (see docs/fidelity.md).
 */
static bool active_scan(const struct rf_event *ev)
{
	if (ev->u.reclaim.list != RF_RECLAIM_LIST_UNKNOWN)
		return ev->u.reclaim.list == RF_RECLAIM_LIST_ACTIVE;
	return ev->u.reclaim.nr_deactivated ||
	       (!ev->u.reclaim.nr_reclaimed && ev->u.reclaim.nr_scanned &&
		ev->u.reclaim.nr_activated == ev->u.reclaim.nr_scanned);
}

static void count_reclaim(struct rf_observe *o, const struct rf_event *ev)
{
	uint64_t *c = o->cgs[obs_cg_index(o, ev->u.reclaim.cgroup)].cnt;
	bool file = ev->u.reclaim.file;

	if (ev->u.reclaim.kind < ARRAY_SIZE(o->reclaim_ev))
		o->reclaim_ev[ev->u.reclaim.kind]++;
	if (ev->u.reclaim.kind == RF_RECLAIM_PAGEOUT) {
		/* reclaim_pages(): counted as pgactivate when a page is kept, not as scans */
		c[RF_OBS_PGACTIVATE] += ev->u.reclaim.nr_activated;
		return;
	}
	if (active_scan(ev)) {
		c[RF_OBS_PGREFILL] += ev->u.reclaim.nr_scanned;
		return;
	}
	c[file ? RF_OBS_SCAN_FILE : RF_OBS_SCAN_ANON] += ev->u.reclaim.nr_scanned;
	c[file ? RF_OBS_STEAL_FILE : RF_OBS_STEAL_ANON] += ev->u.reclaim.nr_reclaimed;
	c[RF_OBS_PGACTIVATE] += ev->u.reclaim.nr_activated;
}

static int on_reclaim(struct rf_observe *o, const struct rf_event *ev)
{
	static const char *const kinds[] = { "kswapd", "direct", "memcg", "pageout" };
	const char *kind = ev->u.reclaim.kind < ARRAY_SIZE(kinds) ? kinds[ev->u.reclaim.kind] :
			   "other";
	char key[128];
	int rc;

	count_reclaim(o, ev);
	snprintf(key, sizeof(key), "obs.reclaim.%s.nr_scanned", kind);
	rc = obs_tally(o, key, ev->u.reclaim.nr_scanned);
	snprintf(key, sizeof(key), "obs.reclaim.%s.nr_reclaimed", kind);
	rc = rc ? rc : obs_tally(o, key, ev->u.reclaim.nr_reclaimed);
	snprintf(key, sizeof(key), "obs.reclaim.%s.nr_activated", kind);
	return rc ? rc : obs_tally(o, key, ev->u.reclaim.nr_activated);
}

static bool looks_at(const struct rf_observe *o, uint16_t type)
{
	return type < RF_EV_TYPE_MAX && o->looks[type];
}

/* What rf_observe_feed() does with an event it looks at. */
static rf_noinline int observe(struct rf_observe *o, const struct rf_event *ev)
{
	if (rf_event_class(ev->type) == RF_CLASS_OBSERVATION)
		o->any = true;
	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		if (obs_map_get(&o->by_id, ev->u.cgroup.id))
			return 0;
		return obs_add_cgroup(o, ev->u.cgroup.id, ev->u.cgroup.parent,
				      ev->u.cgroup.path) < 0 ? RF_ERR_NOMEM : 0;
	case RF_EV_COUNTERS:
		return obs_on_counters(o, ev);
	case RF_EV_RECLAIM:
		return on_reclaim(o, ev);
	case RF_EV_LOST:
		o->lost += ev->u.lost.count;
		return obs_tally(o, "obs.lost_events", ev->u.lost.count);
	default:
		return obs_on_page(o, ev);
	}
}

int rf_observe_feed(struct rf_observe *o, const struct rf_event *ev)
{
	return looks_at(o, ev->type) ? observe(o, ev) : 0;
}

uint64_t rf_observe_lost_events(const struct rf_observe *o)
{
	return o->lost;
}

uint64_t rf_observe_reclaim_events(const struct rf_observe *o, uint32_t kind)
{
	return kind < ARRAY_SIZE(o->reclaim_ev) ? o->reclaim_ev[kind] : 0;
}

bool rf_observe_any(const struct rf_observe *o)
{
	return o->any;
}
