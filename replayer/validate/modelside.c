/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The model side: the model's counters ("memcg.<path>.<name>", "vmstat.*")
 * read into the quantities of enum rf_obs_q, per cgroup of the trace.
 *
 * The model counts no page-cache insertions or deletions, so they are
 * derived: deletions = pages reclaimed from the file lists (pgsteal_file)
 * + pages freed by fadvise/truncate (measured by run.c around those
 * events); insertions = deletions + the file pages resident now.  Per
 * memcg "resident" is the file LRU size, which leaves out the pages a
 * per-CPU batch holds (at most pagevec_size per CPU); globally it is
 * nr_file_pages, exact.
 *
 * The pages cached before the trace (warm.c) are in the model before its
 * first event: a baseline of the counters taken then comes off every
 * cumulative counter, and the pages a memcg had charged then off its
 * insertions, so they count as no insertion of the trace.
 */
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/compiler.h"
#include "replayer/validate/validate-local.h"

struct name_q {
	const char *name;
	enum rf_obs_q q;
};

static const struct name_q memcg_names[] = {
	{ "inactive_file", RF_OBS_INACTIVE_FILE }, { "active_file", RF_OBS_ACTIVE_FILE },
	{ "inactive_anon", RF_OBS_INACTIVE_ANON }, { "active_anon", RF_OBS_ACTIVE_ANON },
	{ "workingset_refault_file", RF_OBS_REFAULT_FILE },
	{ "workingset_refault_anon", RF_OBS_REFAULT_ANON },
	{ "pgactivate", RF_OBS_PGACTIVATE }, { "pgrefill", RF_OBS_PGREFILL },
	{ "pgscan_file", RF_OBS_SCAN_FILE }, { "pgscan_anon", RF_OBS_SCAN_ANON },
	{ "pgsteal_file", RF_OBS_STEAL_FILE }, { "pgsteal_anon", RF_OBS_STEAL_ANON },
	{ "lru_gen.max_seq", RF_OBS_GEN_MAX_SEQ }, { "lru_gen.min_seq_anon", RF_OBS_GEN_MIN_SEQ_ANON },
	{ "lru_gen.min_seq_file", RF_OBS_GEN_MIN_SEQ_FILE },
};

static const struct name_q vmstat_names[] = {
	{ "nr_inactive_file", RF_OBS_INACTIVE_FILE }, { "nr_active_file", RF_OBS_ACTIVE_FILE },
	{ "nr_inactive_anon", RF_OBS_INACTIVE_ANON }, { "nr_active_anon", RF_OBS_ACTIVE_ANON },
	{ "workingset_refault_file", RF_OBS_REFAULT_FILE },
	{ "workingset_refault_anon", RF_OBS_REFAULT_ANON },
	{ "pgactivate", RF_OBS_PGACTIVATE }, { "pgrefill", RF_OBS_PGREFILL },
	{ "pgscan_file", RF_OBS_SCAN_FILE }, { "pgscan_anon", RF_OBS_SCAN_ANON },
	{ "pgsteal_file", RF_OBS_STEAL_FILE }, { "pgsteal_anon", RF_OBS_STEAL_ANON },
};


static int lookup_q(const struct name_q *tab, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name))
			return tab[i].q;
	return -1;
}

struct walk {
	const struct rf_observe *k;
	struct validate_capture *c;
	uint64_t nr_file_pages;
	/* the last memcg path seen and its cgroup index: keys come grouped by memcg */
	char last_path[4200];
	long last_idx;
	uint64_t *usage;	/* validate_model_usage() */
	size_t nr_usage;
	const struct counter_map *base;	/* validate_model_baseline(), or NULL */
	uint64_t *resident0;	/* [nr_cg]: pages charged at the baseline, not inserted since */
	uint64_t file_pages0;
};

static uint64_t base_of(const struct walk *w, const char *key)
{
	const uint64_t *b = w->base ? counter_map_get(w->base, rf_hash_str(key)) : NULL;

	return b ? *b : 0;
}

/* A cumulative counter less its value at the baseline. */
static uint64_t since_base(const struct walk *w, const char *key, enum rf_obs_q q, uint64_t v)
{
	uint64_t b = rf_obs_q_is_gauge(q) ? 0 : base_of(w, key);

	return v > b ? v - b : 0;
}

/*
 * "memcg.<path>.<name>" -> the cgroup index of <path> (0 if the trace does not name it); the
 * multi-gen LRU's names have a dot of their own ("lru_gen.max_seq").
 */
static long memcg_index(struct walk *w, const char *key, const char **name)
{
	const char *path = key + strlen("memcg."), *dot = strstr(path, ".lru_gen.");
	size_t len;
	long i;

	if (!dot)
		dot = strrchr(path, '.');

	if (!dot)
		return -1;
	*name = dot + 1;
	len = (size_t)(dot - path);
	if (len >= sizeof(w->last_path))
		return 0;
	if (w->last_idx >= 0 && !strncmp(w->last_path, path, len) && !w->last_path[len])
		return w->last_idx;
	memcpy(w->last_path, path, len);
	w->last_path[len] = '\0';
	i = rf_observe_cgroup_by_path(w->k, w->last_path);
	w->last_idx = i < 0 ? 0 : i;
	return w->last_idx;
}

static int capture_cb(const char *key, uint64_t v, void *ctx)
{
	struct walk *w = ctx;
	const char *name;
	long i;
	int q;

	if (!strncmp(key, "vmstat.", 7)) {
		if (!strcmp(key + 7, "nr_file_pages")) {
			w->nr_file_pages = v;
			w->file_pages0 = base_of(w, key);
		}
		q = lookup_q(vmstat_names, ARRAY_SIZE(vmstat_names), key + 7);
		if (q >= 0)
			w->c->m_global[q] = since_base(w, key, q, v);
		return 0;
	}
	if (strncmp(key, "memcg.", 6))
		return 0;
	i = memcg_index(w, key, &name);
	if (i < 0 || (size_t)i >= w->c->nr_cg)
		return 0;
	/* before the trace nothing was anonymous: the usage then is the file pages loaded */
	if (!strcmp(name, "usage")) {
		w->resident0[i] += base_of(w, key);
		return 0;
	}
	q = lookup_q(memcg_names, ARRAY_SIZE(memcg_names), name);
	if (q >= 0 && rf_obs_q_is_gen(q)) {	/* a lruvec's own: the youngest of a shared path */
		if (v > w->c->m[i * RF_OBS_NR + q])
			w->c->m[i * RF_OBS_NR + q] = v;
	} else if (q >= 0) {	/* two model memcgs may share a path ("/") */
		w->c->m[i * RF_OBS_NR + q] += since_base(w, key, q, v);
	}
	return 0;
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

int validate_model_capture(const struct rf_model *m, const struct rf_observe *k,
			   struct validate_capture *c, const uint64_t *freed_local,
			   uint64_t freed_global, const struct counter_map *base)
{
	struct walk w = { .k = k, .c = c, .last_idx = -1, .base = base };
	size_t i;
	int r, q;

	memset(c->m_global, 0, sizeof(c->m_global));
	w.resident0 = calloc(c->nr_cg ? c->nr_cg : 1, sizeof(*w.resident0));
	if (!w.resident0)
		return RF_ERR_NOMEM;
	r = rf_model_counters(m, capture_cb, &w);
	for (i = 0; r >= 0 && i < c->nr_cg; i++) {
		uint64_t *x = &c->m[i * RF_OBS_NR];

		x[RF_OBS_DEL] = x[RF_OBS_STEAL_FILE] + freed_local[i];
		x[RF_OBS_ADD] = minus(x[RF_OBS_DEL] + x[RF_OBS_ACTIVE_FILE] + x[RF_OBS_INACTIVE_FILE], w.resident0[i]);
	}
	free(w.resident0);
	if (r < 0)
		return r;
	c->m_global[RF_OBS_DEL] = c->m_global[RF_OBS_STEAL_FILE] + freed_global;
	c->m_global[RF_OBS_ADD] = minus(c->m_global[RF_OBS_DEL] + w.nr_file_pages, w.file_pages0);
	for (q = 0; q < RF_OBS_NR; q++)
		c->host_m[q] = c->m_global[q];
	return 0;
}

static int baseline_cb(const char *key, uint64_t v, void *ctx)
{
	struct counter_map *base = ctx;

	if (!v || (strncmp(key, "vmstat.", 7) && strncmp(key, "memcg.", 6)))
		return 0;
	return counter_map_put(base, rf_hash_str(key), v);
}

int validate_model_baseline(const struct rf_model *m, struct counter_map *base)
{
	int r = rf_model_counters(m, baseline_cb, base);

	return r < 0 ? r : 0;
}

static int usage_cb(const char *key, uint64_t v, void *ctx)
{
	struct walk *w = ctx;
	const char *name;
	long i;

	if (!strcmp(key, "vmstat.nr_file_pages")) {
		w->nr_file_pages = v;
		return 0;
	}
	if (strncmp(key, "memcg.", 6))
		return 0;
	i = memcg_index(w, key, &name);
	if (i >= 0 && (size_t)i < w->nr_usage && !strcmp(name, "usage"))
		w->usage[i] += v;
	return 0;
}

int validate_model_usage(const struct rf_model *m, const struct rf_observe *k, uint64_t *usage,
			 size_t nr, uint64_t *file_pages)
{
	struct walk w = { .k = k, .last_idx = -1, .usage = usage, .nr_usage = nr };
	int r;

	memset(usage, 0, nr * sizeof(*usage));
	r = rf_model_counters(m, usage_cb, &w);
	*file_pages = w.nr_file_pages;
	return r < 0 ? r : 0;
}
