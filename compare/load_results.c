/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Read one configuration of a refault results file (docs/results-format.md) into a run. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare/compare-local.h"
#include "compare/jsonfile.h"

static bool json_number(struct json_object *o, double *out)
{
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double))
		return false;
	*out = json_object_get_double(o);
	return true;
}

/* "configs" holds one entry, or pick the one called @config. */
struct json_object *compare_pick_config(struct json_object *configs,
					struct rf_compare_file *file, const char *path,
					const char *config, char *err, size_t errlen)
{
	size_t i, n = json_object_array_length(configs), used = 0, len;
	struct json_object *c, *name;
	char names[256] = "";

	if (!config && n == 1)
		return json_object_array_get_idx(configs, 0);
	if (config && file) {
		c = compare_file_config(file, configs, config);
		if (c)
			return c;
	}
	/* not there: the message names the first few there are */
	for (i = 0; i < n && used + 8 < sizeof(names); i++) {
		c = json_object_array_get_idx(configs, i);
		name = rf_json_get(c, "name", json_type_string);
		if (!name)
			continue;
		if (config && !file && !strcmp(json_object_get_string(name), config))
			return c;
		len = strlen(json_object_get_string(name));
		if (used + len + 3 < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 used ? ", " : "", json_object_get_string(name));
		else {
			snprintf(names + used, sizeof(names) - used, "%s...", used ? ", " : "");
			break;
		}
	}
	for (; config && !file && i < n; i++) {
		c = json_object_array_get_idx(configs, i);
		name = rf_json_get(c, "name", json_type_string);
		if (name && !strcmp(json_object_get_string(name), config))
			return c;
	}
	if (config)
		compare_seterr(err, errlen, "%s has no configuration '%s' (it has: %s)", path,
			       config, names);
	else
		compare_seterr(err, errlen, "%s holds %zu configurations (%s): name one as "
			       "%s:NAME", path, n, names, path);
	return NULL;
}

static int load_stats(struct rf_compare_run *r, struct json_object *stats, const char *where,
		      char *err, size_t errlen)
{
	double v;
	int ret;

	json_object_object_foreach(stats, key, val) {
		if (!json_number(val, &v)) {
			compare_seterr(err, errlen, "%s: stats.\"%s\" is not a number", where,
				       key);
			return RF_ERR_CORRUPT;
		}
		ret = compare_run_add(r, key, &v, 1, true);
		if (ret)
			return ret;
		r->given++;
	}
	return 0;
}

/* "aliases": the profile's kernel names of counters stored under today's (docs/results-format.md). */
static int load_aliases(struct rf_compare_run *r, struct json_object *aliases, const char *where,
			char *err, size_t errlen)
{
	int ret;

	if (!aliases)
		return 0;
	json_object_object_foreach(aliases, key, val) {
		if (!json_object_is_type(val, json_type_string)) {
			compare_seterr(err, errlen, "%s: aliases.\"%s\" is not a string", where,
				       key);
			return RF_ERR_CORRUPT;
		}
		ret = compare_run_alias(r, key, json_object_get_string(val));
		if (ret)
			return ret;
	}
	return 0;
}

/* Run-to-run measurements: they vary, so they are samples, never exact. */
static int load_run_stats(struct rf_compare_run *r, struct json_object *run)
{
	static const char *const keys[] = { "wall_seconds", "events_per_second", "peak_rss_bytes" };
	char name[64];
	size_t i;
	double v;
	int ret;

	for (i = 0; run && i < ARRAY_SIZE(keys); i++) {
		struct json_object *o;

		if (!json_object_object_get_ex(run, keys[i], &o) || !json_number(o, &v))
			continue;
		snprintf(name, sizeof(name), "run.%s", keys[i]);
		ret = compare_run_add(r, name, &v, 1, false);
		if (ret)
			return ret;
		r->given++;
	}
	return 0;
}

static int load_array(struct json_object *a, double **out, size_t *n)
{
	size_t i, len = json_object_array_length(a);

	*out = calloc(len ? len : 1, sizeof(**out));
	if (!*out)
		return RF_ERR_NOMEM;
	for (i = 0; i < len; i++)
		if (!json_number(json_object_array_get_idx(a, i), &(*out)[i]))
			return RF_ERR_CORRUPT;
	*n = len;
	return 0;
}

static int series_cmp(const void *a, const void *b, void *arg)
{
	const struct rf_compare_series *s = arg;

	return strcmp(s[*(const size_t *)a].name, s[*(const size_t *)b].name);
}

/* The series' indices by name, for compare_side_series(). */
static int index_series(struct rf_compare_timeline *tl)
{
	size_t i;

	tl->by_name = calloc(tl->nseries + 1, sizeof(*tl->by_name));
	if (!tl->by_name)
		return RF_ERR_NOMEM;
	for (i = 0; i < tl->nseries; i++)
		tl->by_name[i] = i;
	qsort_r(tl->by_name, tl->nseries, sizeof(*tl->by_name), series_cmp, tl->series);
	return 0;
}

static int load_timeseries(struct rf_compare_timeline *tl, struct json_object *ts,
			   const char *where, char *err, size_t errlen)
{
	struct json_object *t = rf_json_get(ts, "t", json_type_array);
	struct json_object *series = rf_json_get(ts, "series", json_type_object);
	struct json_object *iv = rf_json_get(ts, "interval_ns", json_type_int);
	size_t i, n;
	int ret;

	if (!t || !series)
		return 0;
	ret = load_array(t, &tl->t_s, &tl->n);
	if (ret)
		goto bad;
	for (i = 0; i < tl->n; i++)
		tl->t_s[i] /= 1e9;
	tl->interval_s = iv ? json_object_get_double(iv) / 1e9 : 0;
	tl->series = calloc(json_object_object_length(series) + 1, sizeof(*tl->series));
	if (!tl->series)
		return RF_ERR_NOMEM;
	json_object_object_foreach(series, key, val) {
		struct rf_compare_series *s = &tl->series[tl->nseries];

		if (!json_object_is_type(val, json_type_array)) {
			ret = RF_ERR_CORRUPT;
			goto bad;
		}
		s->name = strdup(key);
		tl->nseries++;
		ret = s->name ? load_array(val, &s->v, &n) : RF_ERR_NOMEM;
		if (ret)
			goto bad;
		s->n = n < tl->n ? n : tl->n;
	}
	return index_series(tl);
bad:
	if (ret == RF_ERR_CORRUPT)
		compare_seterr(err, errlen, "%s: timeseries holds a value that is not a number",
			       where);
	return ret;
}

static int load_trace(struct rf_compare_run *r, struct json_object *root)
{
	struct json_object *trace = rf_json_get(root, "trace", json_type_object);
	struct json_object *fp = rf_json_get(trace, "fingerprint", json_type_string);
	struct json_object *path = rf_json_get(trace, "path", json_type_string);
	struct json_object *skipped = rf_json_get(trace, "events_skipped", json_type_int);
	struct json_object *lost = rf_json_get(trace, "lost_events", json_type_int);

	r->fingerprint = fp ? strdup(json_object_get_string(fp)) : NULL;
	r->trace_path = path ? strdup(json_object_get_string(path)) : NULL;
	r->events_skipped = skipped ? (uint64_t)json_object_get_int64(skipped) : 0;
	r->lost_events = lost ? (uint64_t)json_object_get_int64(lost) : 0;
	if ((fp && !r->fingerprint) || (path && !r->trace_path))
		return RF_ERR_NOMEM;
	return 0;
}

static bool is_results(struct json_object *root)
{
	struct json_object *f = rf_json_get(root, "format", json_type_string);

	return f && !strcmp(json_object_get_string(f), "refault-results");
}

/*
 * "NAME@kernel" (or "@kernel" for a file with one configuration) selects the
 * kernel's own numbers that configuration's replay gathered from the trace
 * ("observed") instead of the model's: a column to put the model against.
 */
#define KERNEL_SUFFIX "@kernel"

static bool kernel_side(const char *config)
{
	size_t n = config ? strlen(config) : 0, k = strlen(KERNEL_SUFFIX);

	return n >= k && !strcmp(config + n - k, KERNEL_SUFFIX);
}

static int set_config_name(struct rf_compare_run *r, struct json_object *c, bool kernel)
{
	struct json_object *name = rf_json_get(c, "name", json_type_string);
	const char *base = name ? json_object_get_string(name) : NULL;

	if (!base && !kernel)
		return 0;
	if (!base)
		base = "";
	r->config = malloc(strlen(base) + sizeof(KERNEL_SUFFIX));
	if (!r->config)
		return RF_ERR_NOMEM;
	strcpy(r->config, base);
	if (kernel)
		strcat(r->config, KERNEL_SUFFIX);
	return 0;
}

int compare_load_results(struct rf_compare_run *r, struct json_object *root,
			 struct rf_compare_file *file, const char *path, const char *config,
			 char *err, size_t errlen)
{
	struct json_object *configs, *c, *stats, *ts, *ver;
	bool kernel = kernel_side(config);
	char where[512], *name = NULL;
	int ret;

	if (!is_results(root))
		return RF_ERR_NOT_TRACE;
	ver = rf_json_get(root, "version", json_type_array);
	if (!ver || json_object_get_int(json_object_array_get_idx(ver, 0)) != 1) {
		compare_seterr(err, errlen, "%s: unsupported results format version (want 1.x)",
			       path);
		return RF_ERR_VERSION;
	}
	configs = rf_json_get(root, "configs", json_type_array);
	if (!configs || !json_object_array_length(configs)) {
		compare_seterr(err, errlen, "%s: no \"configs\" in the results file", path);
		return RF_ERR_CORRUPT;
	}
	if (kernel) {
		name = strndup(config, strlen(config) - strlen(KERNEL_SUFFIX));
		if (!name)
			return RF_ERR_NOMEM;
	}
	c = compare_pick_config(configs, file, path, kernel ? (*name ? name : NULL) : config, err,
				errlen);
	free(name);
	if (!c)
		return RF_ERR_INVAL;
	snprintf(where, sizeof(where), "%s%s%s", path, config ? ":" : "", config ? config : "");
	stats = rf_json_get(c, kernel ? "observed" : "stats", json_type_object);
	if (!stats) {
		compare_seterr(err, errlen, kernel ? "%s: the replay gathered no kernel numbers "
			       "(\"observed\"): the trace has no observations" :
			       "%s: configuration has no \"stats\" object", where);
		return RF_ERR_CORRUPT;
	}
	r->cols = 1;
	r->kernel = kernel;
	ret = load_trace(r, root);
	if (!ret)
		ret = set_config_name(r, c, kernel);
	if (!ret && rf_json_get(c, "profile", json_type_string)) {
		r->profile = strdup(json_object_get_string(rf_json_get(c, "profile",
								       json_type_string)));
		ret = r->profile ? 0 : RF_ERR_NOMEM;
	}
	if (!ret)
		ret = load_stats(r, stats, where, err, errlen);
	/* the kernel's numbers have no replay run; their time series is the kernel's own */
	if (!ret && !kernel)
		ret = load_run_stats(r, rf_json_get(root, "run", json_type_object));
	if (!ret && !kernel)
		ret = load_aliases(r, rf_json_get(c, "aliases", json_type_object), where, err, errlen);
	/* the kernel's own series, at its counter snapshots (older results have none) */
	ts = rf_json_get(c, kernel ? "observed_timeseries" : "timeseries", json_type_object);
	if (!ret && ts)
		ret = load_timeseries(&r->tl, ts, where, err, errlen);
	if (!ret)
		compare_run_sort(r);
	return ret;
}
