/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A plan file read back (docs/sweeps.md, "The plan"): its tasks, checked,
 * with their paths.  A plan is trusted no more than any file: what its
 * engines run is checked here (every path absolute and fit for a script,
 * sweep_check_path(); the replay options those a spec may give), so that a
 * plan written by hand runs nothing `refault sweep plan` would not.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare/jsonfile.h"
#include "sweep/sweep-local.h"

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool u64(json_object *o, const char *key, uint64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return false;
	*out = (uint64_t)json_object_get_int64(v);
	return true;
}

static bool hex_id(const char *s)
{
	size_t i;

	for (i = 0; s && s[i]; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return s && i == 16;
}

static char *store_path(const char *store, const char *id, const char *ext)
{
	char *p;

	return asprintf(&p, "%s/%s.%s", store, id, ext) < 0 ? NULL : p;
}

/* sweep_check_path(), the message after the plan's path */
static int check_path(const char *plan, const char *what, const char *path, bool store, char *err,
		      size_t errlen)
{
	char msg[RF_SWEEP_ERRLEN];
	int rc = sweep_check_path(what, path, store, msg, sizeof(msg));

	if (rc)
		sweep_seterr(err, errlen, "%s: %s", plan, msg);
	return rc;
}

static int load_task(struct rf_sweep_plan *p, json_object *t, size_t i, char *err, size_t errlen)
{
	struct rf_sweep_task *k = &p->tasks[i];
	json_object *cs;
	uint64_t v;

	k->id = str(t, "id");
	k->workload = str(t, "workload");
	k->trace = str(t, "trace");
	k->fingerprint = str(t, "fingerprint");
	char what[64];

	if (!hex_id(k->id) || !k->workload || !k->trace || !k->fingerprint ||
	    !json_object_object_get_ex(t, "configs", &cs) ||
	    !json_object_is_type(cs, json_type_array) || !json_object_array_length(cs) ||
	    !u64(t, "events", &k->events) || !u64(t, "memory_bytes", &k->memory_bytes) ||
	    !u64(t, "seconds", &v)) {
		sweep_seterr(err, errlen, "%s: task %zu is not what `refault sweep plan` writes "
			     "(plan again)", p->path, i);
		return RF_ERR_CORRUPT;
	}
	snprintf(what, sizeof(what), "task %zu's trace", i);
	if (check_path(p->path, what, k->trace, false, err, errlen))
		return RF_ERR_CORRUPT;
	k->seconds = v;
	k->nr_configs = json_object_array_length(cs);
	k->matrix = store_path(p->store, k->id, "matrix");
	k->results = store_path(p->store, k->id, "json");
	k->log = store_path(p->store, k->id, "log");
	k->status = store_path(p->store, k->id, "status");
	return k->matrix && k->results && k->log && k->status ? 0 : RF_ERR_NOMEM;
}

/* The plan's replay options (@opts) into @p->replay_opts: strings, each one a spec may give. */
static int load_replay_opts(struct rf_sweep_plan *p, json_object *opts, char *err, size_t errlen)
{
	json_object *v;
	size_t i, n;

	for (i = 0; i < p->nr_opts; i++) {
		v = json_object_array_get_idx(opts, i);
		if (!json_object_is_type(v, json_type_string)) {
			sweep_seterr(err, errlen, "%s: replay_options[%zu] is not a string", p->path,
				     i);
			return RF_ERR_CORRUPT;
		}
		p->replay_opts[i] = (char *)json_object_get_string(v);
	}
	for (i = 0; i < p->nr_opts; i += n) {
		n = sweep_replay_option(p->replay_opts + i, p->nr_opts - i);
		if (!n) {
			sweep_seterr(err, errlen, "%s: replay_options[%zu] '%s' is not one a sweep "
				     "passes (--warm-cache, --all-cgroups, --allow-mglru, "
				     "--skip-damaged, --interval T)", p->path, i, p->replay_opts[i]);
			return RF_ERR_CORRUPT;
		}
	}
	return 0;
}

int rf_sweep_plan_load(struct rf_sweep_plan **out, const char *plan_path, char *err, size_t errlen)
{
	struct rf_sweep_plan *p = calloc(1, sizeof(*p));
	json_object *tasks, *opts;
	const char *fmt, *store, *refault;
	uint64_t threads;
	size_t i;
	int rc;

	*out = NULL;
	if (!p)
		return RF_ERR_NOMEM;
	p->path = realpath(plan_path, NULL);
	if (!p->path) {
		rc = -errno;
		sweep_seterr(err, errlen, "%s: %s", plan_path, strerror(errno));
		free(p);
		return rc;
	}
	rc = rf_json_read_object(p->path, "a sweep plan", &p->root, err, errlen);
	if (rc)
		goto fail;
	fmt = str(p->root, "format");
	store = str(p->root, "store");
	refault = str(p->root, "refault");
	if (!fmt || strcmp(fmt, SWEEP_PLAN_FORMAT) || !store || store[0] != '/' || !refault ||
	    !u64(p->root, "threads", &threads) || !threads || threads > 1024 ||
	    !json_object_object_get_ex(p->root, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_array) ||
	    !json_object_object_get_ex(p->root, "replay_options", &opts) ||
	    !json_object_is_type(opts, json_type_array)) {
		sweep_seterr(err, errlen, "%s: not a sweep plan (`refault sweep plan SPEC -o PLAN` "
			     "writes one)", p->path);
		rc = RF_ERR_CORRUPT;
		goto fail;
	}
	if (sweep_check_path("the plan", p->path, false, err, errlen) ||
	    check_path(p->path, "its store", store, true, err, errlen) ||
	    check_path(p->path, "its program (refault)", refault, false, err, errlen)) {
		rc = RF_ERR_CORRUPT;
		goto fail;
	}
	p->store = strdup(store);
	p->refault = strdup(refault);
	p->threads = (unsigned int)threads;
	p->nr_opts = json_object_array_length(opts);
	p->replay_opts = calloc(p->nr_opts + 1, sizeof(*p->replay_opts));
	p->nr_tasks = json_object_array_length(tasks);
	p->tasks = calloc(p->nr_tasks + 1, sizeof(*p->tasks));
	if (!p->store || !p->refault || !p->replay_opts || !p->tasks) {
		rc = RF_ERR_NOMEM;
		goto fail;
	}
	rc = load_replay_opts(p, opts, err, errlen);
	for (i = 0; i < p->nr_tasks && !rc; i++)
		rc = load_task(p, json_object_array_get_idx(tasks, i), i, err, errlen);
	if (rc)
		goto fail;
	*out = p;
	return 0;
fail:
	rf_sweep_plan_free(p);
	return rc;
}

void rf_sweep_plan_free(struct rf_sweep_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; p->tasks && i < p->nr_tasks; i++) {
		free((char *)p->tasks[i].matrix);
		free((char *)p->tasks[i].results);
		free((char *)p->tasks[i].log);
		free((char *)p->tasks[i].status);
	}
	free(p->tasks);
	free(p->replay_opts);
	free(p->store);
	free(p->refault);
	free(p->path);
	json_object_put(p->root);
	free(p);
}

size_t rf_sweep_plan_nr_tasks(const struct rf_sweep_plan *p)
{
	return p->nr_tasks;
}

const struct rf_sweep_task *rf_sweep_plan_task(const struct rf_sweep_plan *p, size_t i)
{
	return i < p->nr_tasks ? &p->tasks[i] : NULL;
}

const char *rf_sweep_plan_path(const struct rf_sweep_plan *p)
{
	return p->path;
}

const char *rf_sweep_plan_store(const struct rf_sweep_plan *p)
{
	return p->store;
}

const char *rf_sweep_plan_refault(const struct rf_sweep_plan *p)
{
	return p->refault;
}

unsigned int rf_sweep_plan_threads(const struct rf_sweep_plan *p)
{
	return p->threads;
}
