/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The store -> one sweep file (docs/sweeps.md, "The merged file"): per
 * workload and configuration, the group of its runs (one per trace and
 * repetition), each a results file's trace identity and stats, so that
 * `refault compare` takes a configuration's runs as LKP takes a job's
 * repeated runs.  A task that is not done is listed with why, its runs are
 * absent (never zeros), and the file says it is not complete.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "compare/jsonfile.h"
#include "lib/term.h"
#include "sweep/sweep-local.h"

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = rf_json_get(o, key, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

static json_object *copy(json_object *o)
{
	json_object *out = NULL;

	if (o && json_object_deep_copy(o, &out, NULL))
		return NULL;
	return out;
}

struct group {
	const char *workload, *config;
	json_object *entry, *runs;
};

struct merger {
	const struct rf_sweep_plan *p;
	struct group *g;
	size_t ng;
	bool several;			/* workloads: names are WORKLOAD/CONFIG */
};

static struct group *find_group(struct merger *m, const char *workload, const char *config)
{
	size_t i;

	for (i = 0; i < m->ng; i++)
		if (!strcmp(m->g[i].workload, workload) && !strcmp(m->g[i].config, config))
			return &m->g[i];
	return NULL;
}

/* Every workload x configuration of the plan, in its order, with no runs yet. */
static int make_groups(struct merger *m, json_object *out_configs)
{
	json_object *wls = rf_json_get(m->p->root, "workloads", json_type_array);
	json_object *cfgs = rf_json_get(m->p->root, "configs", json_type_array);
	size_t nw = wls ? json_object_array_length(wls) : 0, nc, i, j;

	nc = cfgs ? json_object_array_length(cfgs) : 0;
	m->several = nw > 1;
	m->g = calloc(nw * nc + 1, sizeof(*m->g));
	if (!m->g)
		return RF_ERR_NOMEM;
	for (i = 0; i < nw; i++) {
		const char *wl = get_str(json_object_array_get_idx(wls, i), "name");

		for (j = 0; wl && j < nc; j++) {
			json_object *c = json_object_array_get_idx(cfgs, j), *e;
			const char *name = get_str(c, "name");
			char *label;

			if (!name)
				continue;
			if (asprintf(&label, "%s%s%s", m->several ? wl : "", m->several ? "/" : "",
				     name) < 0)
				return RF_ERR_NOMEM;
			e = json_object_new_object();
			json_object_object_add(e, "name", json_object_new_string(label));
			free(label);
			json_object_object_add(e, "workload", json_object_new_string(wl));
			json_object_object_add(e, "config", json_object_new_string(name));
			json_object_object_add(e, "profile", copy(rf_json_get(c, "profile", json_type_string)));
			json_object_object_add(e, "settings", copy(rf_json_get(c, "settings", json_type_object)));
			m->g[m->ng] = (struct group){ wl, name, e, json_object_new_array() };
			json_object_object_add(e, "runs", m->g[m->ng].runs);
			json_object_array_add(out_configs, e);
			m->ng++;
		}
	}
	return 0;
}

/* A replay's configuration entry as one run of the sweep's configuration @label. */
static json_object *run_of(json_object *results, json_object *c, const char *label, int rep,
			   const char *id)
{
	json_object *r = json_object_new_object(), *cs = json_object_new_array();
	json_object *oc = json_object_new_object(), *trace = rf_json_get(results, "trace", json_type_object);
	json_object *t = json_object_new_object(), *sw = json_object_new_object();
	static const char *const tkeys[] = { "path", "fingerprint", "events", "events_skipped",
					     "chunks_damaged", "recorded_cgroup" };
	static const char *const ckeys[] = { "profile", "settings", "overridden", "stats", "aliases" };
	json_object *v;
	size_t i;

	json_object_object_add(r, "format", json_object_new_string("refault-results"));
	json_object_object_add(r, "version", copy(rf_json_get(results, "version", json_type_array)));
	for (i = 0; i < sizeof(tkeys) / sizeof(tkeys[0]); i++)
		if (trace && json_object_object_get_ex(trace, tkeys[i], &v))
			json_object_object_add(t, tkeys[i], copy(v));
	json_object_object_add(r, "trace", t);
	json_object_object_add(oc, "name", json_object_new_string(label));
	for (i = 0; i < sizeof(ckeys) / sizeof(ckeys[0]); i++)
		if (json_object_object_get_ex(c, ckeys[i], &v))
			json_object_object_add(oc, ckeys[i], copy(v));
	json_object_array_add(cs, oc);
	json_object_object_add(r, "configs", cs);
	json_object_object_add(sw, "task", json_object_new_string(id));
	json_object_object_add(sw, "rep", json_object_new_int(rep));
	json_object_object_add(r, "sweep", sw);
	return r;
}

/*
 * Task @i's @results (read and checked: sweep_results_read()) into the
 * groups; 0, or RF_ERR_CORRUPT with @why when a run has no group of the plan
 * (then none of it is taken).
 */
static int take_task(struct merger *m, size_t i, json_object *results, bool *partial, char *why,
		     size_t whylen)
{
	const struct rf_sweep_task *t = &m->p->tasks[i];
	json_object *tasks = rf_json_get(m->p->root, "tasks", json_type_array);
	json_object *cs = rf_json_get(json_object_array_get_idx(tasks, i), "configs", json_type_array);
	json_object *trace = rf_json_get(results, "trace", json_type_object), *v, **runs;
	struct group **to;
	size_t k, n = cs ? json_object_array_length(cs) : 0;
	int rc = 0;

	v = rf_json_get(trace, "events_skipped", json_type_int);
	*partial = v && json_object_get_int64(v) > 0;
	runs = calloc(n + 1, sizeof(*runs));
	to = calloc(n + 1, sizeof(*to));
	for (k = 0; runs && to && k < n && !rc; k++) {
		json_object *e = json_object_array_get_idx(cs, k);
		const char *rname = get_str(e, "replay"), *cname = get_str(e, "config");
		json_object *rep = rf_json_get(e, "rep", json_type_int), *c;

		to[k] = rname && cname ? find_group(m, t->workload, cname) : NULL;
		c = to[k] ? sweep_results_config(results, rname) : NULL;
		if (!c) {
			sweep_seterr(why, whylen, "%s: run '%s' is of no configuration of the plan",
				     t->results, rname ? rname : "?");
			rc = RF_ERR_CORRUPT;
			break;
		}
		/* a run is named by its configuration alone: a column of one workload's table */
		runs[k] = run_of(results, c, cname, rep ? json_object_get_int(rep) : 1, t->id);
	}
	if (!runs || !to)
		rc = RF_ERR_NOMEM;
	for (k = 0; runs && to && k < n; k++) {
		if (!rc)
			json_object_array_add(to[k]->runs, runs[k]);
		else
			json_object_put(runs[k]);
	}
	free(runs);
	free(to);
	return rc;
}

static json_object *not_done(const struct rf_sweep_task *t, size_t i, const char *state,
			     const char *why)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "task", json_object_new_int64((int64_t)i));
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "workload", json_object_new_string(t->workload));
	json_object_object_add(o, "trace", json_object_new_string(t->trace));
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "why", json_object_new_string(why));
	json_object_object_add(o, "log", json_object_new_string(t->log));
	return o;
}

static int write_all(int fd, const char *s, size_t len)
{
	ssize_t w;

	while (len) {
		w = write(fd, s, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Task @i's line in the report: a terminal's, as a rule, so the names as lib/term.h shows them. */
static void report_not_done(FILE *report, const struct rf_sweep_task *t, size_t i, bool failed,
			    const char *why)
{
	fprintf(report, "task %zu (%s, ", i, t->id);
	rf_term_escape_str(report, t->trace);
	fprintf(report, ", %zu configuration%s): %s: ", t->nr_configs,
		t->nr_configs == 1 ? "" : "s", failed ? "failed" : "missing");
	rf_term_escape_str(report, why);
	fputc('\n', report);
}

/* The sweep file's "tasks": how many, and how many done, failed, missing and partial. */
static json_object *task_counts(const struct rf_sweep_merge_stats *st)
{
	json_object *counts = json_object_new_object();

	json_object_object_add(counts, "total", json_object_new_int64((int64_t)st->tasks));
	json_object_object_add(counts, "done", json_object_new_int64((int64_t)st->done));
	json_object_object_add(counts, "failed", json_object_new_int64((int64_t)st->failed));
	json_object_object_add(counts, "missing", json_object_new_int64((int64_t)st->missing));
	json_object_object_add(counts, "partial", json_object_new_int64((int64_t)st->partial));
	return counts;
}

int rf_sweep_merge(const struct rf_sweep_plan *p, int fd, FILE *report,
		   struct rf_sweep_merge_stats *st, char *err, size_t errlen)
{
	struct merger m = { .p = p };
	json_object *root = json_object_new_object(), *configs = json_object_new_array();
	json_object *missing = json_object_new_array();
	const char *text;
	char why[1024];
	size_t i;
	int rc;

	memset(st, 0, sizeof(*st));
	st->tasks = p->nr_tasks;
	json_object_object_add(root, "format", json_object_new_string(SWEEP_FORMAT));
	json_object_object_add(root, "version", json_tokener_parse("[1,0]"));
	json_object_object_add(root, "plan", json_object_new_string(p->path));
	rc = make_groups(&m, configs);
	for (i = 0; !rc && i < p->nr_tasks; i++) {
		const struct rf_sweep_task *t = &p->tasks[i];
		json_object *results = NULL;
		enum rf_sweep_state s = sweep_task_state(p, i, why, sizeof(why), &results);
		bool partial = false;

		if (s == RF_SWEEP_DONE) {
			rc = take_task(&m, i, results, &partial, why, sizeof(why));
			json_object_put(results);
			if (rc == RF_ERR_NOMEM)
				break;
			s = rc ? RF_SWEEP_FAILED : s;
			rc = 0;
		}
		if (s == RF_SWEEP_DONE) {
			st->done++;
			st->partial += partial;
			continue;
		}
		if (s == RF_SWEEP_FAILED)
			st->failed++;
		else
			st->missing++;
		json_object_array_add(missing, not_done(t, i, s == RF_SWEEP_FAILED ? "failed" :
							"missing", why));
		if (report)
			report_not_done(report, t, i, s == RF_SWEEP_FAILED, why);
	}
	if (rc) {
		sweep_seterr(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < m.ng; i++)
		st->runs += json_object_array_length(m.g[i].runs);
	st->configs = m.ng;
	json_object_object_add(root, "complete",
			       json_object_new_boolean(st->done == st->tasks && !st->partial));
	json_object_object_add(root, "tasks", task_counts(st));
	json_object_object_add(root, "not_done", missing);
	missing = NULL;
	json_object_object_add(root, "axes", copy(rf_json_get(p->root, "axes", json_type_object)));
	json_object_object_add(root, "workloads", copy(rf_json_get(p->root, "workloads", json_type_array)));
	json_object_object_add(root, "configs", configs);
	configs = NULL;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = text ? write_all(fd, text, strlen(text)) : RF_ERR_NOMEM;
	if (!rc)
		rc = write_all(fd, "\n", 1);
	if (rc)
		sweep_seterr(err, errlen, "writing the sweep file: %s", strerror(-rc));
out:
	free(m.g);
	json_object_put(root);
	json_object_put(configs);
	json_object_put(missing);
	return rc;
}
