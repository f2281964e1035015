/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's own numbers, gathered from the observations a recording
 * carries, under the keys the model's counters use where they mean the same:
 *
 * - counter snapshots (/proc/vmstat, memory.stat): last minus first for
 *   cumulative counters ("vmstat.pgscan_kswapd"), the last value for gauges
 *   ("vmstat.nr_active_file"), per cgroup as "memcg.<path>.<name>"; the
 *   sizes memory.stat gives in bytes are given in pages, the model's unit
 *   (limits, "hierarchical_*", stay in bytes, as the model's settings are);
 * - page-cache and LRU tracepoints, in base pages: "obs.pagecache_add",
 *   "obs.pagecache_del", "obs.lru_activate", "obs.lru_add.<list>";
 * - reclaim summaries: "obs.reclaim.<kind>.nr_scanned" and friends;
 * - lost events: "obs.lost_events".
 */
#include <stdlib.h>
#include <string.h>

#include "replayer/replay/replay.h"

struct obs_value {
	char *key;
	uint64_t first;
	uint64_t last;
	bool gauge;
};

struct cgroup_name {
	uint64_t id;
	char *path;
};

struct rf_observed {
	uint32_t page_size;
	struct obs_value *vals;		/* in first-seen order: deterministic */
	size_t nr, cap;
	struct cgroup_name *cgroups;
	size_t nr_cg, cap_cg;
};

struct rf_observed *rf_observed_new(uint32_t page_size)
{
	struct rf_observed *o = calloc(1, sizeof(*o));

	if (o)
		o->page_size = page_size ? page_size : 4096;
	return o;
}

void rf_observed_free(struct rf_observed *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nr; i++)
		free(o->vals[i].key);
	for (i = 0; i < o->nr_cg; i++)
		free(o->cgroups[i].path);
	free(o->vals);
	free(o->cgroups);
	free(o);
}

static struct obs_value *lookup(struct rf_observed *o, const char *key, bool *fresh)
{
	size_t i;

	*fresh = false;
	/* Few distinct keys (hundreds): a linear scan from the end is fine. */
	for (i = o->nr; i-- > 0;)
		if (!strcmp(o->vals[i].key, key))
			return &o->vals[i];
	if (o->nr == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 64;
		struct obs_value *n = realloc(o->vals, cap * sizeof(*n));

		if (!n)
			return NULL;
		o->vals = n;
		o->cap = cap;
	}
	memset(&o->vals[o->nr], 0, sizeof(o->vals[0]));
	o->vals[o->nr].key = strdup(key);
	if (!o->vals[o->nr].key)
		return NULL;
	*fresh = true;
	return &o->vals[o->nr++];
}

static int add(struct rf_observed *o, const char *key, uint64_t v)
{
	bool fresh;
	struct obs_value *ov = lookup(o, key, &fresh);

	if (!ov)
		return RF_ERR_NOMEM;
	ov->last += v;
	return 0;
}

/* Cumulative event counters count up; everything named nr_* or a size is a gauge. */
static bool is_gauge(const char *name)
{
	static const char *const prefixes[] = { "nr_", "total_nr_", "cache", "rss", "mapped_file",
						"active_", "inactive_", "total_active_",
						"total_inactive_", "hierarchical_", "swap", "dirty",
						"writeback", "unevictable", "total_cache", "total_rss",
						"total_swap", "total_dirty", "total_unevictable" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static const char *cgroup_path(const struct rf_observed *o, uint64_t id)
{
	size_t i;

	for (i = 0; i < o->nr_cg; i++)
		if (o->cgroups[i].id == id)
			return o->cgroups[i].path;
	return NULL;
}

static int note_cgroup(struct rf_observed *o, uint64_t id, const char *path)
{
	char *p;

	if (!path || cgroup_path(o, id))
		return 0;
	if (o->nr_cg == o->cap_cg) {
		size_t cap = o->cap_cg ? o->cap_cg * 2 : 16;
		struct cgroup_name *n = realloc(o->cgroups, cap * sizeof(*n));

		if (!n)
			return RF_ERR_NOMEM;
		o->cgroups = n;
		o->cap_cg = cap;
	}
	p = strdup(path);
	if (!p)
		return RF_ERR_NOMEM;
	o->cgroups[o->nr_cg].id = id;
	o->cgroups[o->nr_cg++].path = p;
	return 0;
}

/*
 * memory.stat sizes in bytes (v1 mem_cgroup_v1_stat_show(): the memcg1_stats
 * and LRU sizes times PAGE_SIZE, with their total_ forms; v2 memory_stat_format():
 * every entry but the event counts and nr_ counts).  Event counts (pgfault,
 * workingset_*, ...) and /proc/vmstat are counts already.
 */
static bool in_bytes(const char *name)
{
	static const char *const sizes[] = {
		"cache", "rss", "rss_huge", "shmem", "mapped_file", "dirty", "writeback", "swap",
		"swapcached", "inactive_anon", "active_anon", "inactive_file", "active_file",
		"unevictable", "anon", "file", "kernel", "kernel_stack", "pagetables",
		"sec_pagetables", "percpu", "sock", "vmalloc", "zswap", "zswapped", "file_mapped",
		"file_dirty", "file_writeback", "anon_thp", "file_thp", "shmem_thp", "slab",
		"slab_reclaimable", "slab_unreclaimable",
	};
	size_t i;

	if (!strncmp(name, "total_", 6))
		name += 6;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(name, sizes[i]))
			return true;
	return false;
}

static int snapshot(struct rf_observed *o, const struct rf_event *ev)
{
	const char *path = NULL;
	char key[512], idbuf[32];
	struct obs_value *ov;
	uint32_t i;
	bool fresh;

	if (ev->u.counters.source != RF_COUNTERS_VMSTAT) {
		path = cgroup_path(o, ev->u.counters.cgroup);
		if (!path) {
			snprintf(idbuf, sizeof(idbuf), "id%llu", (unsigned long long)ev->u.counters.cgroup);
			path = idbuf;
		}
	}
	for (i = 0; i < ev->u.counters.nr; i++) {
		const struct rf_counter *c = &ev->u.counters.entries[i];
		uint64_t value = c->value;

		if (path && in_bytes(c->name))
			value /= o->page_size;
		if (path)
			snprintf(key, sizeof(key), "memcg.%s.%s", path, c->name);
		else
			snprintf(key, sizeof(key), "vmstat.%s", c->name);
		ov = lookup(o, key, &fresh);
		if (!ov)
			return RF_ERR_NOMEM;
		if (fresh) {
			ov->first = value;
			ov->gauge = is_gauge(c->name) || (path && in_bytes(c->name));
		}
		ov->last = value;
	}
	return 0;
}

static const char *const lru_names[] = { "inactive_anon", "active_anon", "inactive_file", "active_file",
					 "unevictable" };
static const char *const reclaim_kinds[] = { "kswapd", "direct", "memcg", "pageout" };

int rf_observed_feed(struct rf_observed *o, const struct rf_event *ev)
{
	char key[128];
	const char *kind;
	int rc = 0;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		return note_cgroup(o, ev->u.cgroup.id, ev->u.cgroup.path);
	case RF_EV_COUNTERS:
		return snapshot(o, ev);
	case RF_EV_PAGECACHE_ADD:
		return add(o, "obs.pagecache_add", 1ull << ev->u.file.order);
	case RF_EV_PAGECACHE_DEL:
		return add(o, "obs.pagecache_del", 1ull << ev->u.file.order);
	case RF_EV_LRU_ACTIVATE:
		return add(o, "obs.lru_activate", 1ull << ev->u.lru.order);
	case RF_EV_LRU_ADD:
		if (ev->u.lru.lru >= sizeof(lru_names) / sizeof(lru_names[0]))
			return 0;
		snprintf(key, sizeof(key), "obs.lru_add.%s", lru_names[ev->u.lru.lru]);
		return add(o, key, 1ull << ev->u.lru.order);
	case RF_EV_RECLAIM:
		kind = ev->u.reclaim.kind < 4 ? reclaim_kinds[ev->u.reclaim.kind] : "other";
		snprintf(key, sizeof(key), "obs.reclaim.%s.nr_scanned", kind);
		rc = add(o, key, ev->u.reclaim.nr_scanned);
		snprintf(key, sizeof(key), "obs.reclaim.%s.nr_reclaimed", kind);
		rc = rc ? rc : add(o, key, ev->u.reclaim.nr_reclaimed);
		snprintf(key, sizeof(key), "obs.reclaim.%s.nr_activated", kind);
		rc = rc ? rc : add(o, key, ev->u.reclaim.nr_activated);
		return rc;
	case RF_EV_LOST:
		return add(o, "obs.lost_events", ev->u.lost.count);
	default:
		return 0;
	}
}

void rf_observed_to_json(const struct rf_observed *o, json_object *obj)
{
	size_t i;

	for (i = 0; i < o->nr; i++) {
		const struct obs_value *v = &o->vals[i];
		uint64_t val = v->gauge ? v->last : v->last - v->first;

		json_object_object_add(obj, v->key, json_object_new_uint64(val));
	}
}
