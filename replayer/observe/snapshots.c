/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counter snapshots (/proc/vmstat, memory.stat) and the tallies of the
 * kernel's tracepoints, as the results' "observed" section gives them, and
 * memory.stat read into the quantities of enum rf_obs_q.
 *
 * What a cumulative counter counts from is decided in one place,
 * count_from(): the first snapshot of it, or zero for a memcg the trace saw
 * created after its first counter snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "replayer/observe/observe-local.h"

/* Cumulative event counters count up; everything named nr_* or a size is a gauge. */
static bool is_gauge(const char *name)
{
	static const char *const prefixes[] = { "nr_", "total_nr_", "cache", "rss", "mapped_file",
						"active_", "inactive_", "total_active_",
						"total_inactive_", "hierarchical_", "swap", "dirty",
						"writeback", "unevictable", "total_cache", "total_rss",
						"total_swap", "total_dirty", "total_unevictable",
						"lru_gen." };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
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
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		if (!strcmp(name, sizes[i]))
			return true;
	return false;
}

/* What a cumulative counter of cgroup @cg (NULL: /proc/vmstat) counts from, given its first value. */
static uint64_t count_from(const struct obs_cg *cg, uint64_t first)
{
	return cg && cg->born ? 0 : first;
}

static struct obs_value *value_of(struct rf_observe *o, const char *key, bool *fresh)
{
	struct obs_value *v;
	size_t *idx;

	idx = obs_keys_get(&o->by_key, key);
	*fresh = !idx;
	if (idx)
		return &o->vals[*idx];
	if (RF_GROW(o->vals, o->cap_vals, o->nr_vals + 1))
		return NULL;
	v = &o->vals[o->nr_vals];
	memset(v, 0, sizeof(*v));
	v->key = strdup(key);
	if (!v->key)
		return NULL;
	if (obs_keys_put(&o->by_key, v->key, o->nr_vals)) {
		free(v->key);
		return NULL;
	}
	o->nr_vals++;
	return v;
}

int obs_tally(struct rf_observe *o, const char *key, uint64_t n)
{
	bool fresh;
	struct obs_value *v = value_of(o, key, &fresh);

	if (!v)
		return RF_ERR_NOMEM;
	v->last += n;
	return 0;
}

void obs_values_free(struct rf_observe *o)
{
	size_t i;

	for (i = 0; i < o->nr_vals; i++)
		free(o->vals[i].key);
	free(o->vals);
	obs_keys_destroy(&o->by_key);
}

int rf_observe_to_json(const struct rf_observe *o, json_object *obj)
{
	size_t i;

	for (i = 0; i < o->nr_vals; i++) {
		const struct obs_value *v = &o->vals[i];
		json_object *n = json_object_new_uint64(v->gauge ? v->last : v->last - v->first);

		if (!n || json_object_object_add(obj, v->key, n)) {
			json_object_put(n);
			return RF_ERR_NOMEM;
		}
	}
	return 0;
}

/* Every counter of a snapshot into the "observed" values. */
static int snapshot_values(struct rf_observe *o, const struct rf_event *ev)
{
	const struct obs_cg *cg = NULL;
	const char *path = NULL;
	char key[512], idbuf[32];
	struct obs_value *v;
	uint32_t i;
	bool fresh;
	int pn, n;

	if (ev->u.counters.source != RF_COUNTERS_VMSTAT) {
		size_t idx = obs_cg_index(o, ev->u.counters.cgroup);

		if (idx) {
			cg = &o->cgs[idx];
			path = cg->cg.path;
		} else {
			snprintf(idbuf, sizeof(idbuf), "id%llu",
				 (unsigned long long)ev->u.counters.cgroup);
			path = idbuf;
		}
	}
	pn = path ? (int)strnlen(path, sizeof(key)) : 0;
	for (i = 0; i < ev->u.counters.nr; i++) {
		const struct rf_counter *c = &ev->u.counters.entries[i];
		uint64_t value = c->value;

		if (path && in_bytes(c->name))
			value /= o->page_size;
		/* no part longer than the key: snprintf() would read a long path to its end */
		n = (int)strnlen(c->name, sizeof(key));
		if (path)
			snprintf(key, sizeof(key), "memcg.%.*s.%.*s", pn, path, n, c->name);
		else
			snprintf(key, sizeof(key), "vmstat.%.*s", n, c->name);
		v = value_of(o, key, &fresh);
		if (!v)
			return RF_ERR_NOMEM;
		if (fresh) {
			v->first = count_from(cg, value);
			v->gauge = is_gauge(c->name) || (path && in_bytes(c->name));
		}
		v->last = value;
	}
	return 0;
}

/* ------------------------------------------------------- as quantities */

struct stat_name {
	const char *name;
	enum rf_obs_q q;
	bool bytes;		/* a size in bytes, not a count of pages */
};

/* v1 memory.stat (hierarchical total_*), then the v2 names of the same things */
static const struct stat_name memstat_names[] = {
	{ "total_workingset_refault_file", RF_OBS_REFAULT_FILE, false },
	{ "total_workingset_refault_anon", RF_OBS_REFAULT_ANON, false },
	{ "total_active_file", RF_OBS_ACTIVE_FILE, true },
	{ "total_inactive_file", RF_OBS_INACTIVE_FILE, true },
	{ "total_active_anon", RF_OBS_ACTIVE_ANON, true },
	{ "total_inactive_anon", RF_OBS_INACTIVE_ANON, true },
	{ "workingset_refault_file", RF_OBS_REFAULT_FILE, false },
	{ "workingset_refault_anon", RF_OBS_REFAULT_ANON, false },
	{ "active_file", RF_OBS_ACTIVE_FILE, true },
	{ "inactive_file", RF_OBS_INACTIVE_FILE, true },
	{ "active_anon", RF_OBS_ACTIVE_ANON, true },
	{ "inactive_anon", RF_OBS_INACTIVE_ANON, true },
	{ "pgactivate", RF_OBS_PGACTIVATE, false },
	{ "pgrefill", RF_OBS_PGREFILL, false },
};

#define GEN_BITS	(1u << RF_OBS_GEN_MAX_SEQ | 1u << RF_OBS_GEN_MIN_SEQ_ANON | \
			 1u << RF_OBS_GEN_MIN_SEQ_FILE)

/* debugfs lru_gen_full, as the recorder names it (recorder/lru_gen.c) */
static const struct stat_name lru_gen_names[] = {
	{ "lru_gen.max_seq", RF_OBS_GEN_MAX_SEQ, false },
	{ "lru_gen.min_seq_anon", RF_OBS_GEN_MIN_SEQ_ANON, false },
	{ "lru_gen.min_seq_file", RF_OBS_GEN_MIN_SEQ_FILE, false },
};

static const struct stat_name vmstat_names[] = {
	{ "workingset_refault_file", RF_OBS_REFAULT_FILE, false },
	{ "workingset_refault_anon", RF_OBS_REFAULT_ANON, false },
	{ "pgactivate", RF_OBS_PGACTIVATE, false },
	{ "pgrefill", RF_OBS_PGREFILL, false },
	{ "pgscan_file", RF_OBS_SCAN_FILE, false },
	{ "pgscan_anon", RF_OBS_SCAN_ANON, false },
	{ "pgsteal_file", RF_OBS_STEAL_FILE, false },
	{ "pgsteal_anon", RF_OBS_STEAL_ANON, false },
};

/* The first name of @tab that the snapshot has wins for its quantity: total_* before local. */
static uint32_t read_names(const struct rf_event *ev, const struct stat_name *tab, size_t n,
			   uint32_t page_size, uint64_t *vals)
{
	uint32_t i, seen = 0;
	size_t j;

	for (j = 0; j < n; j++) {
		if (seen & 1u << tab[j].q)
			continue;
		for (i = 0; i < ev->u.counters.nr; i++) {
			const struct rf_counter *c = &ev->u.counters.entries[i];

			if (strcmp(c->name, tab[j].name))
				continue;
			vals[tab[j].q] = tab[j].bytes ? c->value / page_size : c->value;
			seen |= 1u << tab[j].q;
			break;
		}
	}
	return seen;
}

/* Pages charged: v1's hierarchical total_cache + total_rss, else v2's (hierarchical) file + anon. */
static uint64_t charged_pages(const struct rf_event *ev, uint32_t page_size)
{
	uint64_t v1 = 0, v2 = 0;
	bool have_v1 = false;
	uint32_t i;

	for (i = 0; i < ev->u.counters.nr; i++) {
		const struct rf_counter *c = &ev->u.counters.entries[i];

		if (!strcmp(c->name, "total_cache") || !strcmp(c->name, "total_rss")) {
			v1 += c->value / page_size;
			have_v1 = true;
		} else if (!strcmp(c->name, "file") || !strcmp(c->name, "anon")) {
			v2 += c->value / page_size;
		}
	}
	return have_v1 ? v1 : v2;
}

static void snapshot_quantities(struct rf_observe *o, const struct rf_event *ev)
{
	uint64_t vals[RF_OBS_NR] = { 0 };
	struct obs_cg *cg;
	uint32_t seen;
	size_t i, q;

	if (ev->u.counters.source == RF_COUNTERS_VMSTAT) {
		read_names(ev, vmstat_names, ARRAY_SIZE(vmstat_names), o->page_size, vals);
		if (!o->host_seen)
			memcpy(o->host0, vals, sizeof(vals));
		memcpy(o->host, vals, sizeof(vals));
		o->host_seen = true;
		return;
	}
	if (ev->u.counters.source != RF_COUNTERS_MEMCG_STAT &&
	    ev->u.counters.source != RF_COUNTERS_LRU_GEN)
		return;
	i = obs_cg_index(o, ev->u.counters.cgroup);
	if (!i)
		return;
	cg = &o->cgs[i];
	if (ev->u.counters.source == RF_COUNTERS_LRU_GEN) {
		/* gauges of the cgroup's own lruvec, beside its memory.stat */
		seen = read_names(ev, lru_gen_names, ARRAY_SIZE(lru_gen_names), o->page_size, vals);
		for (q = 0; q < RF_OBS_NR; q++)
			if (seen & 1u << q)
				cg->stat[q] = vals[q];
		cg->cg.memstat |= seen;
		return;
	}
	seen = read_names(ev, memstat_names, ARRAY_SIZE(memstat_names), o->page_size, vals);
	if (!(cg->cg.memstat & ~GEN_BITS)) {
		for (q = 0; q < RF_OBS_NR; q++)
			cg->stat0[q] = count_from(cg, vals[q]);
		cg->initial = count_from(cg, charged_pages(ev, o->page_size));
	}
	for (q = 0; q < RF_OBS_NR; q++)
		if (!rf_obs_q_is_gen(q))
			cg->stat[q] = vals[q];
	cg->cg.memstat = seen | (cg->cg.memstat & GEN_BITS);
}

int obs_on_counters(struct rf_observe *o, const struct rf_event *ev)
{
	int rc;

	/* the recorder's own counts (stacks) say nothing about the kernel */
	if (ev->u.counters.source == RF_COUNTERS_RECORDER)
		return 0;
	rc = snapshot_values(o, ev);

	if (!rc)
		snapshot_quantities(o, ev);
	/* after the snapshot: a cgroup made from now on counts from its creation */
	o->counters_seen = true;
	return rc;
}

uint32_t rf_observe_memstat(const struct rf_observe *o, size_t idx, uint64_t *out)
{
	const struct obs_cg *cg = &o->cgs[idx];
	size_t q;

	if (!cg->cg.memstat)
		return 0;
	for (q = 0; q < RF_OBS_NR; q++)
		out[q] = rf_obs_q_is_gauge(q) ? cg->stat[q] : cg->stat[q] - cg->stat0[q];
	return cg->cg.memstat;
}

bool rf_observe_host(const struct rf_observe *o, uint64_t *out)
{
	size_t q;

	for (q = 0; q < RF_OBS_NR; q++)
		out[q] = o->host[q] - o->host0[q];
	return o->host_seen;
}
