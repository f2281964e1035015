/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A side of the comparison: "file.json", "file.json:config", or a group of
 * repeated runs "a1.json,a2.json,a3.json".  Runs of a group are merged into
 * one sample array per metric, as LKP merges stats.json files into a
 * matrix.json.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "compare/compare-local.h"
#include "compare/jsonfile.h"

#define RESULTS_OR_LKP "a refault results file or an LKP stats.json/matrix.json"
#include "lib/grow.h"

static int metric_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rf_compare_metric *)a)->name,
		      ((const struct rf_compare_metric *)b)->name);
}

const struct rf_compare_metric *compare_side_find(const struct rf_compare_side *side,
						  const char *name)
{
	struct rf_compare_metric key = { .name = (char *)name };

	if (!side->nm)
		return NULL;
	return bsearch(&key, side->m, side->nm, sizeof(key), metric_cmp);
}

const struct rf_compare_series *compare_side_series(const struct rf_compare_side *side,
						    const char *name)
{
	const struct rf_compare_timeline *tl = &side->tl;
	size_t lo = 0, hi = tl->nseries, mid;
	int c;

	if (!tl->by_name)
		return NULL;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(tl->series[tl->by_name[mid]].name, name);
		if (!c)
			return &tl->series[tl->by_name[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* "path:config" unless a file called exactly @member exists. */
static int split_member(const char *member, char **path, char **config)
{
	const char *colon = strrchr(member, ':');

	*config = NULL;
	if (!colon || !access(member, F_OK) || colon[1] == '/') {
		*path = strdup(member);
		return *path ? 0 : RF_ERR_NOMEM;
	}
	*path = strndup(member, (size_t)(colon - member));
	*config = strdup(colon + 1);
	return *path && *config ? 0 : RF_ERR_NOMEM;
}

/* Append @src's samples to @m; @cols samples of zero when @src is NULL (LKP's missing = 0). */
static int append_samples(struct rf_compare_metric *m, const struct rf_compare_metric *src,
			  size_t cols)
{
	size_t n = m->n + cols;

	if (RF_GROW(m->v, m->cap, n ? n : 1))
		return RF_ERR_NOMEM;
	memset(m->v + m->n, 0, cols * sizeof(*m->v));
	if (src)
		memcpy(m->v + m->n, src->v, (src->n < cols ? src->n : cols) * sizeof(*m->v));
	m->n = n;
	if (src)
		m->exact = m->exact && src->exact;
	return 0;
}

/* A metric new to the side: its earlier runs count as 0, as in LKP's add_stats_to_matrix. */
static int new_metric(struct rf_compare_metric *m, const struct rf_compare_metric *src, size_t runs)
{
	*m = (struct rf_compare_metric){ .name = strdup(src->name), .exact = src->exact };
	if (!m->name)
		return RF_ERR_NOMEM;
	return append_samples(m, NULL, runs);
}

static int same_names(const struct rf_compare_side *side, const struct rf_compare_run *run,
		      const char *member, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < run->nm; i++)
		if (!compare_side_find(side, run->m[i].name))
			goto mismatch;
	if (side->nm == run->nm)
		return 0;
	for (i = 0; i < side->nm; i++) {
		struct rf_compare_metric key = { .name = side->m[i].name };

		if (!bsearch(&key, run->m, run->nm, sizeof(key), metric_cmp)) {
			compare_seterr(err, errlen, "%s: missing metric %s that the other runs "
				       "of the group have", member, side->m[i].name);
			return RF_ERR_INVAL;
		}
	}
	return 0;
mismatch:
	compare_seterr(err, errlen, "%s: metric %s is not in the other runs of the group",
		       member, run->m[i].name);
	return RF_ERR_INVAL;
}

/* The number of metrics of @side and @run together (both sorted). */
static size_t union_count(const struct rf_compare_side *side, const struct rf_compare_run *run)
{
	size_t i = 0, j = 0, n = 0;
	int c;

	while (i < side->nm || j < run->nm) {
		if (i == side->nm)
			c = 1;
		else if (j == run->nm)
			c = -1;
		else
			c = strcmp(side->m[i].name, run->m[j].name);
		i += c <= 0;
		j += c >= 0;
		n++;
	}
	return n;
}

/*
 * A side's samples are its metrics times its runs, a metric a run lacks
 * counting as 0 (LKP's add_stats_to_matrix): runs of different metrics (a
 * sweep's traces, LKP files) fill the side with zeros, within
 * compare_fill_ok() of what the files give.
 */
static int check_fill(const struct rf_compare_side *side, const struct rf_compare_run *run,
		      const char *member, const char *spec, char *err, size_t errlen)
{
	uint64_t nm = union_count(side, run), runs = side->runs + run->cols;
	uint64_t made = compare_mul(nm, runs), given = side->given + run->given;

	if (compare_fill_ok(made, given))
		return 0;
	compare_seterr(err, errlen, "%s%s%s: the column's %llu runs have %llu metrics in all, "
		       "and a metric a run lacks counts as 0 there (LKP's rule): %llu samples "
		       "from the %llu its files hold, over the limit of %d times as many (or "
		       "%llu); compare runs that share their metrics (of one trace, or an LKP "
		       "matrix.json whose every metric has a sample per run)", spec,
		       strcmp(spec, member) ? ", at " : "", strcmp(spec, member) ? member : "",
		       (unsigned long long)runs, (unsigned long long)nm,
		       (unsigned long long)made, (unsigned long long)given,
		       RF_COMPARE_FILL_FACTOR, (unsigned long long)RF_COMPARE_FILL_FLOOR);
	return RF_ERR_TOO_LARGE;
}

/* Merge a sorted run into the sorted side: one more column of samples per metric. */
static int merge_run(struct rf_compare_side *side, struct rf_compare_run *run)
{
	struct rf_compare_metric *out = calloc(union_count(side, run) + 1, sizeof(*out));
	size_t i = 0, j = 0, n = 0;
	int ret = 0, c;

	if (!out)
		return RF_ERR_NOMEM;
	while (!ret && (i < side->nm || j < run->nm)) {
		if (i == side->nm)
			c = 1;
		else if (j == run->nm)
			c = -1;
		else
			c = strcmp(side->m[i].name, run->m[j].name);
		if (c <= 0) {
			out[n] = side->m[i++];
			ret = append_samples(&out[n], c ? NULL : &run->m[j], run->cols);
			j += !c;
		} else {
			ret = new_metric(&out[n], &run->m[j], side->runs);
			if (!ret)
				ret = append_samples(&out[n], &run->m[j++], run->cols);
		}
		n++;
	}
	free(side->m);
	side->m = out;
	side->nm = n;
	side->runs += run->cols;
	return ret;
}

/* The run's trace: its fingerprint and path, at the side's next run. */
static int add_fingerprint(struct rf_compare_side *side, const char *fp, const char *path)
{
	if (RF_GROW(side->fingerprints, side->fingerprints_cap, side->runs + 1) ||
	    RF_GROW(side->trace_paths, side->trace_paths_cap, side->runs + 1))
		return RF_ERR_NOMEM;
	side->fingerprints[side->runs] = strdup(fp ? fp : "");
	side->trace_paths[side->runs] = strdup(path ? path : "");
	if (side->fingerprints[side->runs] && side->trace_paths[side->runs])
		return 0;
	free(side->fingerprints[side->runs]);
	free(side->trace_paths[side->runs]);
	side->fingerprints[side->runs] = side->trace_paths[side->runs] = NULL;
	return RF_ERR_NOMEM;
}

/*
 * A model counter is exact only if every run replayed the same trace and
 * gave the same value: repeated recordings are samples, like LKP's runs.
 */
static void settle_exactness(struct rf_compare_side *side)
{
	bool one_trace = !side->lkp;
	size_t i, j;

	for (i = 1; one_trace && i < side->runs; i++)
		one_trace = !strcmp(side->fingerprints[i], side->fingerprints[0]);
	for (i = 0; i < side->nm; i++) {
		struct rf_compare_metric *m = &side->m[i];

		m->exact = m->exact && one_trace;
		for (j = 1; m->exact && j < m->n; j++)
			m->exact = m->v[j] == m->v[0];
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The column title: the configuration's name, else the file (or its folder for LKP files). */
static char *make_label(const char *spec, const char *config, bool lkp)
{
	char *label, *slash;

	if (config)
		return strdup(config);
	label = strndup(spec, strcspn(spec, ","));
	if (!label)
		return NULL;
	if (lkp && (ends_with(label, "/matrix.json") || ends_with(label, "/stats.json")))
		*strrchr(label, '/') = 0;
	slash = strrchr(label, '/');
	if (slash)
		memmove(label, slash + 1, strlen(slash));
	return label;
}

/* One loaded run into the side: checked against the runs before it, then merged. */
static int add_run(struct rf_compare_side *side, struct rf_compare_run *run, const char *member,
		   const char *spec, char **config, bool sweep, char *err, size_t errlen)
{
	int ret = 0;

	if (side->runs && run->lkp != side->lkp) {
		compare_seterr(err, errlen, "%s: a group cannot mix refault results "
			       "and LKP files", spec);
		ret = RF_ERR_INVAL;
	}
	if (!ret && side->runs && run->kernel != side->kernel) {
		compare_seterr(err, errlen, "%s: a group cannot mix the kernel's "
			       "numbers (@kernel) and the model's", spec);
		ret = RF_ERR_INVAL;
	}
	/*
	 * Runs of one configuration of a sweep are of several traces, whose metrics differ
	 * (event types, cgroups): one missing counts as 0, as in LKP's matrix.  So are the
	 * runs of a group of recordings (a.json,b.json: each its own trace, whose kernel
	 * numbers differ in what the recording saw); runs of one trace must agree.
	 */
	if (!ret && side->runs && !run->lkp && !sweep && side->fingerprints &&
	    run->fingerprint && !strcmp(side->fingerprints[0], run->fingerprint))
		ret = same_names(side, run, member, err, errlen);
	if (!ret && !side->runs) {
		side->lkp = run->lkp;
		side->kernel = run->kernel;
		side->tl = run->tl;
		memset(&run->tl, 0, sizeof(run->tl));
		side->trace_path = run->trace_path;
		run->trace_path = NULL;
		side->alias = run->alias;
		side->nalias = run->nalias;
		run->alias = NULL;
		run->nalias = 0;
		*config = run->config;
		run->config = NULL;
		side->profile = run->profile;
		run->profile = NULL;
	} else if (!ret) {
		if (*config && (!run->config || strcmp(run->config, *config))) {
			free(*config);
			*config = NULL;		/* a group of different configurations */
		}
		if (side->profile && (!run->profile || strcmp(run->profile, side->profile))) {
			free(side->profile);
			side->profile = NULL;	/* ... or of different profiles */
		}
	}
	if (!ret)
		ret = check_fill(side, run, member, spec, err, errlen);
	if (!ret && !run->lkp) {
		/* the first run's path went to side->trace_path */
		ret = add_fingerprint(side, run->fingerprint,
				      side->runs ? run->trace_path : side->trace_path);
	}
	side->events_skipped += run->events_skipped;
	side->lost_events += run->lost_events;
	if (!ret)
		ret = merge_run(side, run);
	side->given += run->given;
	return ret;
}

/* "sweep.json:CONFIG": every run of CONFIG, in the order the merge wrote them. */
static int load_sweep(struct rf_compare_side *side, struct rf_compare_file *file,
		      const char *name, const char *member, const char *spec, char **config,
		      char *err, size_t errlen)
{
	json_object *runs = NULL;
	size_t i, n;
	int ret;

	ret = compare_sweep_runs(file, name, &runs, err, errlen);
	n = ret ? 0 : json_object_array_length(runs);
	side->sweep_not_done = compare_sweep_not_done(file->root);
	side->sweep = true;
	if (!ret && !n) {
		compare_seterr(err, errlen, "%s: no run of '%s' is done yet (refault sweep "
			       "status names what is missing)", file->path, member);
		ret = RF_ERR_INVAL;
	}
	for (i = 0; !ret && i < n; i++) {
		struct rf_compare_run run = { 0 };

		ret = compare_load_results(&run, json_object_array_get_idx(runs, i), NULL,
					   file->path, NULL, err, errlen);
		if (!ret)
			ret = add_run(side, &run, member, spec, config, true, err, errlen);
		compare_run_release(&run);
	}
	return ret;
}

static int load_member(struct rf_compare_side *side, struct rf_compare_files *files,
		       const char *member, const char *spec, char **config, char *err,
		       size_t errlen)
{
	struct rf_compare_run run = { 0 };
	struct rf_compare_file *file;
	char *path, *name;
	int ret = split_member(member, &path, &name);

	if (ret)
		return ret;
	ret = compare_files_get(files, path, RESULTS_OR_LKP, &file, err, errlen);
	if (ret)
		goto out;
	if (compare_is_sweep(file->root)) {
		ret = load_sweep(side, file, name, member, spec, config, err, errlen);
		goto out;
	}
	ret = compare_load_results(&run, file->root, file, path, name, err, errlen);
	if (ret == RF_ERR_NOT_TRACE && name) {
		compare_seterr(err, errlen, "%s: not a refault results file, so it has no "
			       "configuration '%s'", path, name);
		ret = RF_ERR_INVAL;
	} else if (ret == RF_ERR_NOT_TRACE) {
		ret = compare_load_lkp(&run, file->root, path, err, errlen);
	}
	if (!ret)
		ret = add_run(side, &run, member, spec, config, false, err, errlen);
	compare_run_release(&run);
out:
	free(path);
	free(name);
	return ret;
}

/*
 * The length of the group member at @s: up to the next ',' that starts
 * another file ("a1.json,a2.json"), not one inside a configuration's name
 * ("r.json:v6.18,memory=1G").
 */
static size_t member_len(const char *s)
{
	size_t len = strcspn(s, ",");

	while (s[len] == ',') {
		const char *next = s + len + 1;
		size_t n = strcspn(next, ",:");
		char *file = strndup(next, n);
		bool is_file = file && n && !access(file, F_OK);

		free(file);
		if (is_file || !strchr(s, ':') || strchr(s, ':') > s + len)
			break;		/* a file, or no configuration is being named */
		len += 1 + strcspn(next, ",");
	}
	return len;
}

static int load_group(struct rf_compare_side *side, struct rf_compare_files *files,
		      const char *spec, char **config, char *err, size_t errlen)
{
	const char *s = spec;
	int ret = 0;

	while (!ret && *s) {
		size_t len = member_len(s);
		char *member = strndup(s, len);

		if (!member)
			return RF_ERR_NOMEM;
		if (len)
			ret = load_member(side, files, member, spec, config, err, errlen);
		free(member);
		s += len + (s[len] == ',');
	}
	return ret;
}

static char *trace_set(const struct rf_compare_side *s);

int compare_side_load(struct rf_compare_side *side, struct rf_compare_files *files,
		      const char *spec, char *err, size_t errlen)
{
	struct rf_compare_files *own = NULL;
	char *config = NULL;
	int ret;

	memset(side, 0, sizeof(*side));
	side->spec = strdup(spec);
	if (!side->spec)
		return RF_ERR_NOMEM;
	if (!*spec || spec[strspn(spec, ",")] == 0) {
		compare_seterr(err, errlen, "empty side '%s'", spec);
		return RF_ERR_INVAL;
	}
	if (!files) {
		files = own = compare_files_new();
		if (!files)
			return RF_ERR_NOMEM;
	}
	ret = load_group(side, files, spec, &config, err, errlen);
	compare_files_free(own);
	if (!ret) {
		settle_exactness(side);
		side->label = make_label(spec, config, side->lkp);
		side->traces = trace_set(side);
		ret = side->label && side->traces ? 0 : RF_ERR_NOMEM;
	}
	free(config);
	return ret;
}

void compare_side_release(struct rf_compare_side *side)
{
	size_t i;

	for (i = 0; i < side->nm; i++) {
		free(side->m[i].name);
		free(side->m[i].v);
	}
	for (i = 0; side->fingerprints && i < side->runs; i++)
		free(side->fingerprints[i]);
	for (i = 0; side->trace_paths && i < side->runs; i++)
		free(side->trace_paths[i]);
	free(side->fingerprints);
	free(side->trace_paths);
	free(side->profile);
	free(side->m);
	compare_aliases_release(side->alias, side->nalias);
	free(side->label);
	free(side->spec);
	free(side->traces);
	free(side->trace_path);
	compare_timeline_release(&side->tl);
	memset(side, 0, sizeof(*side));
}

static int fp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted, de-duplicated fingerprints of a side, joined: its set of traces. */
static char *trace_set(const struct rf_compare_side *s)
{
	size_t i, len = 1, used = 0, n;
	char **v, *out;

	if (s->lkp || !s->fingerprints)
		return strdup("");	/* LKP data carries no trace identity */
	v = calloc(s->runs + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < s->runs; i++) {
		v[i] = s->fingerprints[i];
		len += strlen(v[i]) + 1;
	}
	qsort(v, s->runs, sizeof(*v), fp_cmp);
	out = calloc(len, 1);
	for (i = 0; out && i < s->runs; i++) {
		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		if (used)
			out[used++] = ' ';
		n = strlen(v[i]);
		memcpy(out + used, v[i], n + 1);
		used += n;
	}
	free(v);
	return out;
}

int compare_same_traces(const struct rf_compare_side *a, const struct rf_compare_side *b,
			char *err, size_t errlen)
{
	const char *sa = a->traces, *sb = b->traces;
	int ret = 0;

	if (a->lkp || b->lkp)
		return 0;		/* LKP data carries no trace identity */
	if (!sa || !sb) {
		ret = RF_ERR_NOMEM;
	} else if (strcmp(sa, sb)) {
		compare_seterr(err, errlen, "%s and %s replay different traces (%s: fingerprint "
			       "%.16s%s; %s: fingerprint %.16s%s)", a->spec, b->spec,
			       a->trace_path ? a->trace_path : "?", sa,
			       strlen(sa) > 16 ? "..." : "",
			       b->trace_path ? b->trace_path : "?", sb,
			       strlen(sb) > 16 ? "..." : "");
		ret = RF_ERR_INVAL;
	}
	return ret;
}

int compare_results_configs(struct rf_compare_files *files, const char *path, char ***names,
			    char ***workloads, size_t *n, char *err, size_t errlen)
{
	struct json_object *configs, *c, *name, *wl, *runs;
	struct rf_compare_files *own = NULL;
	struct rf_compare_file *file;
	size_t i, len;
	int ret;

	*names = NULL;
	if (workloads)
		*workloads = NULL;
	*n = 0;
	if (!files) {
		files = own = compare_files_new();
		if (!files)
			return RF_ERR_NOMEM;
	}
	ret = compare_files_get(files, path, RESULTS_OR_LKP, &file, err, errlen);
	if (ret) {
		compare_files_free(own);
		return ret;
	}
	if (!json_object_object_get_ex(file->root, "configs", &configs) ||
	    !json_object_is_type(configs, json_type_array)) {
		compare_files_free(own);
		return 0;	/* not a results file: nothing to expand */
	}
	len = json_object_array_length(configs);
	*names = calloc(len + 1, sizeof(**names));
	if (workloads)
		*workloads = calloc(len + 1, sizeof(**workloads));
	for (i = 0; *names && (!workloads || *workloads) && i < len; i++) {
		c = json_object_array_get_idx(configs, i);
		if (!json_object_object_get_ex(c, "name", &name))
			continue;
		/* a sweep's configuration none of whose tasks is done has no column */
		if (json_object_object_get_ex(c, "runs", &runs) &&
		    json_object_is_type(runs, json_type_array) && !json_object_array_length(runs))
			continue;
		if (workloads) {
			bool w = json_object_object_get_ex(c, "workload", &wl) &&
				 json_object_is_type(wl, json_type_string);

			(*workloads)[*n] = strdup(w ? json_object_get_string(wl) : "");
		}
		(*names)[(*n)++] = strdup(json_object_get_string(name));
	}
	compare_files_free(own);
	return *names && (!workloads || *workloads) ? 0 : RF_ERR_NOMEM;
}
