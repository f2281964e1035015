/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SPEC -> PLAN (docs/sweeps.md, "The plan"): every workload's traces x every
 * configuration of the spec's matrix lines x its repetitions, grouped per
 * trace into tasks of at most `group` configurations within the memory
 * `budget`, each named by a hash of everything its results depend on (the
 * trace's fingerprint, the configurations, the replay options, refault's
 * version), so that a task whose results are in the store is not run again
 * and two plans that share a task share its results.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include <refault/trace.h>

#include "compare/jsonfile.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/outfile.h"
#include "lib/term.h"
#include "lib/units.h"
#include "replayer/replay/replay.h"
#include "sweep/sweep-local.h"

/*
 * The bound on a task's memory: the decode's chunk buffers, then per
 * configuration its model's fixed tables and per page it may hold (the
 * folio, its LRU links and index slot, a shadow entry when it leaves),
 * docs/sweeps.md, "Memory and time".
 */
#define TASK_BASE_BYTES		(64ull << 20)
#define THREAD_BYTES		(32ull << 20)
#define CONFIG_BASE_BYTES	(16ull << 20)
#define PAGE_BYTES		192ull
/* and on its time: a conservative 2 us an event a configuration (this machine: 0.4-0.5) */
#define NS_PER_EVENT_CONFIG	2000ull
#define TASK_BASE_SECONDS	60ull

/* One configuration of the sweep, and each run a task gives it. */
struct item {
	const struct rf_replay_config *c;
	unsigned int rep;		/* 0: one run (no randomness); else lru_gen.seed */
	uint64_t bytes;
};

static json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

static int effective(const char *key, const char *value, bool overridden, void *ctx)
{
	uint64_t *v = ctx;

	(void)overridden;
	if (!strcmp(key, "memory"))
		rf_parse_size(value, &v[0]);
	else if (!strcmp(key, "page_size"))
		rf_parse_size(value, &v[1]);
	else if (!strcmp(key, "cache"))
		rf_parse_size(value, &v[2]);
	return 0;
}

static uint64_t config_bytes(const struct rf_replay_config *c)
{
	uint64_t v[3] = { 4ull << 30, 4096, 0 }, bytes;

	if (c->cfg)
		rf_model_config_describe(c->cfg, effective, v);
	else
		rf_policy_config_describe(c->policy, effective, v);
	bytes = v[2] ? v[2] : v[0];
	return CONFIG_BASE_BYTES + bytes / (v[1] ? v[1] : 4096) * PAGE_BYTES;
}

static bool has_key(const char *line, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = strstr(line, key); p; p = strstr(p + 1, key))
		if ((p == line || p[-1] == ' ') && p[len] == '=')
			return true;
	return false;
}

/* The settings of a line ("PROFILE K=V K=V") as an object, and each into the axes. */
static json_object *settings_of(const char *line, json_object *axes)
{
	json_object *o = json_object_new_object(), *vals;
	char *copy = strdup(line), *save = NULL, *w, *eq;
	bool first = true;
	size_t i;

	for (w = copy ? strtok_r(copy, " ", &save) : NULL; w; w = strtok_r(NULL, " ", &save)) {
		const char *key = "profile", *val = w;

		eq = strchr(w, '=');
		if (!first && eq) {
			*eq = '\0';
			key = w;
			val = eq + 1;
		}
		if (!first)
			json_object_object_add(o, key, jstr(val));
		first = false;
		if (!json_object_object_get_ex(axes, key, &vals)) {
			vals = json_object_new_array();
			json_object_object_add(axes, key, vals);
		}
		for (i = 0; i < json_object_array_length(vals); i++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(vals, i)), val))
				break;
		if (i == json_object_array_length(vals))
			json_object_array_add(vals, jstr(val));
	}
	free(copy);
	return o;
}

/* Only the keys that take more than one value are axes. */
static void prune_axes(json_object *axes)
{
	char *drop[256];
	size_t n = 0, i;

	json_object_object_foreach(axes, key, vals)
		if (json_object_array_length(vals) < 2 && n < 256)
			drop[n++] = key;
	for (i = 0; i < n; i++)
		json_object_object_del(axes, drop[i]);
}

static char *hex16(uint64_t v)
{
	char *s = malloc(17);

	if (s)
		snprintf(s, 17, "%016llx", (unsigned long long)v);
	return s;
}

/* Everything a task's results depend on, hashed: its name in the store. */
static uint64_t task_hash(const char *fingerprint, char *const *opts, size_t nr_opts,
			  char *const *lines, size_t nr)
{
	static const char tag[] = "refault-sweep-task/1 " PACKAGE_VERSION;
	uint64_t h = rf_fnv1a(RF_FNV1A_INIT, tag, sizeof(tag));
	size_t i;

	h = rf_fnv1a(h, fingerprint, strlen(fingerprint) + 1);
	for (i = 0; i < nr_opts; i++)
		h = rf_fnv1a(h, opts[i], strlen(opts[i]) + 1);
	h = rf_fnv1a(h, "\n", 1);
	for (i = 0; i < nr; i++)
		h = rf_fnv1a(h, lines[i], strlen(lines[i]) + 1);
	return h;
}

/* The store: the spec's, else "sweep-store" beside the plan; made, and made absolute. */
static char *make_store(const struct sweep_spec *s, const char *plan_path, char *err, size_t errlen)
{
	char *dir = NULL, *abs;
	const char *slash = strrchr(plan_path, '/');

	if (s->store)
		dir = strdup(s->store);
	else if (slash)
		(void)!asprintf(&dir, "%.*s/sweep-store", (int)(slash - plan_path), plan_path);
	else
		dir = strdup("sweep-store");
	if (!dir || sweep_mkdir_p(dir, err, errlen)) {
		free(dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (!abs)
		sweep_seterr(err, errlen, "%s: %s", dir, strerror(errno));
	free(dir);
	return abs;
}

/* The plan's path as it will be read (its directory's real path, its name): fit for a script. */
static int check_plan_path(const char *plan_path, char *err, size_t errlen)
{
	const char *slash = strrchr(plan_path, '/');
	char *dir = slash ? strndup(plan_path, (size_t)(slash - plan_path) + (slash == plan_path)) :
		strdup("."), *abs = dir ? realpath(dir, NULL) : NULL, *full = NULL;
	int rc;

	if (!abs) {
		rc = dir ? -errno : RF_ERR_NOMEM;
		sweep_seterr(err, errlen, "%s: %s", dir ? dir : plan_path,
			     dir ? strerror(errno) : "out of memory");
		free(dir);
		return rc;
	}
	if (asprintf(&full, "%s/%s", strcmp(abs, "/") ? abs : "", slash ? slash + 1 : plan_path) < 0)
		full = NULL;
	rc = full ? sweep_check_path("the plan", full, false, err, errlen) : RF_ERR_NOMEM;
	free(full);
	free(abs);
	free(dir);
	return rc;
}

struct planner {
	struct sweep_spec spec;
	struct rf_config_list configs;
	unsigned int *reps;		/* per configuration: its runs' count (1: no randomness) */
	json_object *root, *jtasks, *axes;
	char *store;
	size_t nr_tasks;
	uint64_t max_bytes, max_seconds, events;
};

static int load_configs(struct planner *pl, char *err, size_t errlen)
{
	struct sweep_spec *s = &pl->spec;
	char msg[RF_SWEEP_ERRLEN];
	size_t i;
	int rc = 0;

	for (i = 0; i < s->nr_matrix && !rc; i++) {
		rc = rf_config_list_add_matrix_line(&pl->configs, s->matrix[i], s->sets,
						    s->nr_sets, msg, sizeof(msg));
		if (rc)
			sweep_seterr(err, errlen, "%s:%u: %s", s->path, s->matrix_lineno[i], msg);
	}
	if (rc)
		return rc;
	pl->reps = calloc(pl->configs.nr, sizeof(*pl->reps));
	if (!pl->reps)
		return RF_ERR_NOMEM;
	for (i = 0; i < pl->configs.nr; i++) {
		const struct rf_replay_config *c = &pl->configs.items[i];
		bool random = c->cfg && rf_model_config_lru_gen(c->cfg);

		if (random && s->repeat > 1 && has_key(c->line, "lru_gen.seed")) {
			sweep_seterr(err, errlen, "%s: configuration %s sets lru_gen.seed, which "
				     "'repeat %u' varies: drop one", s->path, c->name, s->repeat);
			return RF_ERR_INVAL;
		}
		pl->reps[i] = random ? s->repeat : 1;
	}
	return 0;
}

static json_object *configs_json(struct planner *pl)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < pl->configs.nr; i++) {
		const struct rf_replay_config *c = &pl->configs.items[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", jstr(c->name));
		json_object_object_add(o, "line", jstr(c->line));
		json_object_object_add(o, "profile", jstr(c->profile));
		json_object_object_add(o, "settings", settings_of(c->line, pl->axes));
		json_object_object_add(o, "runs", json_object_new_int64(pl->reps[i]));
		json_object_array_add(a, o);
	}
	return a;
}

/* One task: @items[0..n) of one trace; its matrix into the store, its entry into the plan. */
static int add_task(struct planner *pl, const char *workload, const char *trace,
		    const char *fingerprint, uint64_t events, const struct item *items, size_t n,
		    char *err, size_t errlen)
{
	char **lines = calloc(n, sizeof(*lines)), *id = NULL, *path = NULL, *text = NULL;
	char *shown = NULL;
	json_object *t = json_object_new_object(), *cs = json_object_new_array();
	uint64_t bytes = TASK_BASE_BYTES + pl->spec.threads * THREAD_BYTES, seconds;
	size_t i, len = 0;
	int rc = RF_ERR_NOMEM;

	if (!lines)
		goto out;
	for (i = 0; i < n; i++) {
		json_object *c = json_object_new_object();
		char *rname;

		if (items[i].rep) {
			if (asprintf(&lines[i], "%s lru_gen.seed=%u", items[i].c->line,
				     items[i].rep) < 0)
				lines[i] = NULL;
			if (asprintf(&rname, "%s,lru_gen.seed=%u", items[i].c->name,
				     items[i].rep) < 0)
				rname = NULL;
		} else {
			lines[i] = strdup(items[i].c->line);
			rname = strdup(items[i].c->name);
		}
		if (!lines[i] || !rname) {
			free(rname);
			json_object_put(c);
			goto out;
		}
		len += strlen(lines[i]) + 1;
		json_object_object_add(c, "replay", jstr(rname));
		json_object_object_add(c, "config", jstr(items[i].c->name));
		json_object_object_add(c, "rep", json_object_new_int64(items[i].rep ? items[i].rep : 1));
		json_object_array_add(cs, c);
		free(rname);
		bytes += items[i].bytes;
	}
	seconds = TASK_BASE_SECONDS + events * n / (1000000000ull / NS_PER_EVENT_CONFIG);
	id = hex16(task_hash(fingerprint, pl->spec.replay_opts, pl->spec.nr_opts, lines, n));
	shown = rf_term_escaped(trace);	/* one comment line, whatever the name */
	text = shown ? malloc(len + strlen(shown) + 128) : NULL;
	if (!id || !text || asprintf(&path, "%s/%s.matrix", pl->store, id) < 0)
		goto out;
	sprintf(text, "# refault sweep task %s: %s\n", id, shown);
	for (i = 0; i < n; i++)
		strcat(strcat(text, lines[i]), "\n");
	rc = sweep_write_file(path, text, err, errlen);
	if (rc)
		goto out;
	json_object_object_add(t, "id", jstr(id));
	json_object_object_add(t, "workload", jstr(workload));
	json_object_object_add(t, "trace", jstr(trace));
	json_object_object_add(t, "fingerprint", jstr(fingerprint));
	json_object_object_add(t, "events", json_object_new_int64((int64_t)events));
	json_object_object_add(t, "memory_bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(t, "seconds", json_object_new_int64((int64_t)seconds));
	json_object_object_add(t, "configs", cs);
	cs = NULL;
	json_object_array_add(pl->jtasks, t);
	t = NULL;
	pl->nr_tasks++;
	if (bytes > pl->max_bytes)
		pl->max_bytes = bytes;
	if (seconds > pl->max_seconds)
		pl->max_seconds = seconds;
out:
	for (i = 0; lines && i < n; i++)
		free(lines[i]);
	free(lines);
	free(id);
	free(path);
	free(text);
	free(shown);
	json_object_put(t);
	json_object_put(cs);
	if (rc == RF_ERR_NOMEM)
		sweep_seterr(err, errlen, "out of memory");
	return rc;
}

/* The runs of one trace, packed into tasks in order: at most `group`, within the budget. */
static int plan_trace(struct planner *pl, const char *workload, const char *trace,
		      json_object *jtraces, char *err, size_t errlen)
{
	const struct sweep_spec *s = &pl->spec;
	uint64_t base = TASK_BASE_BYTES + s->threads * THREAD_BYTES, fp, events, used = 0;
	struct item *items = NULL;
	size_t nitems = 0, cap = 0, i, start;
	char fps[17], *abs = realpath(trace, NULL);
	struct rf_trace_reader *r = NULL;
	json_object *jt;
	unsigned int k;
	int rc;

	if (!abs) {
		sweep_seterr(err, errlen, "%s: %s", trace, strerror(errno));
		return -errno;
	}
	rc = sweep_check_path("trace", abs, false, err, errlen);
	if (rc)
		goto out;
	rc = rf_replay_trace_fingerprint(abs, &fp, &events, &r, err, errlen);
	if (rc)
		goto out;
	rf_config_list_apply_header(&pl->configs, rf_trace_reader_header(r));
	rf_trace_reader_close(r);
	snprintf(fps, sizeof(fps), "%016llx", (unsigned long long)fp);
	jt = json_object_new_object();
	json_object_object_add(jt, "path", jstr(abs));
	json_object_object_add(jt, "fingerprint", jstr(fps));
	json_object_object_add(jt, "events", json_object_new_int64((int64_t)events));
	json_object_array_add(jtraces, jt);
	pl->events += events;
	for (i = 0; i < pl->configs.nr; i++) {
		uint64_t bytes = config_bytes(&pl->configs.items[i]);

		for (k = 1; k <= pl->reps[i]; k++) {
			if (RF_GROW(items, cap, nitems + 1)) {
				rc = RF_ERR_NOMEM;
				goto out;
			}
			items[nitems++] = (struct item){ &pl->configs.items[i],
							 pl->reps[i] > 1 ? k : 0, bytes };
		}
	}
	for (i = start = 0; i <= nitems && !rc; i++) {
		bool fits = i < nitems && i - start < s->group && base + used + items[i].bytes <= s->budget;

		if (i > start && !fits) {
			if (pl->nr_tasks >= SWEEP_MAX_TASKS) {
				sweep_seterr(err, errlen, "more than %u tasks", SWEEP_MAX_TASKS);
				rc = RF_ERR_INVAL;
				break;
			}
			rc = add_task(pl, workload, abs, fps, events, items + start, i - start, err,
				      errlen);
			start = i;
			used = 0;
		}
		if (i < nitems)
			used += items[i].bytes;
	}
out:
	free(items);
	free(abs);
	return rc;
}

static json_object *strv_json(char *const *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, jstr(v[i]));
	return a;
}

static char *summarize(const struct planner *pl)
{
	char mem[32], *out, *store = rf_term_escaped(pl->store);
	size_t traces = 0, runs = 0, i;

	if (!store)
		return NULL;
	for (i = 0; i < pl->spec.nr_wl; i++)
		traces += pl->spec.wl[i].nr;
	for (i = 0; i < pl->configs.nr; i++)
		runs += pl->reps[i];
	if (asprintf(&out, "%zu task%s: %zu workload%s, %zu trace%s (%llu events), %zu "
		     "configuration%s (%zu runs of each trace); a task at most %s and %llu s "
		     "by the plan's bounds; store %s\n", pl->nr_tasks, pl->nr_tasks == 1 ? "" : "s",
		     pl->spec.nr_wl, pl->spec.nr_wl == 1 ? "" : "s", traces, traces == 1 ? "" : "s",
		     (unsigned long long)pl->events, pl->configs.nr,
		     pl->configs.nr == 1 ? "" : "s", runs,
		     rf_format_bytes(pl->max_bytes, mem, sizeof(mem)),
		     (unsigned long long)pl->max_seconds, store) < 0)
		out = NULL;
	free(store);
	return out;
}

int rf_sweep_plan_make(const char *spec_path, const char *plan_path, const char *refault,
		       char **summary, char *err, size_t errlen)
{
	struct planner pl = { 0 };
	json_object *jwl;
	char *spec_abs = NULL;
	size_t i, j;
	int rc;

	err[0] = '\0';
	if (summary)
		*summary = NULL;
	rc = sweep_spec_read(&pl.spec, spec_path, err, errlen);
	if (!rc)
		rc = load_configs(&pl, err, errlen);
	if (!rc)
		rc = check_plan_path(plan_path, err, errlen);
	if (!rc)
		rc = sweep_check_path("this program", refault, false, err, errlen);
	if (rc)
		goto out;
	pl.store = make_store(&pl.spec, plan_path, err, errlen);
	spec_abs = realpath(spec_path, NULL);
	if (!pl.store || !spec_abs) {
		if (pl.store && !spec_abs)
			sweep_seterr(err, errlen, "%s: %s", spec_path, strerror(errno));
		rc = RF_ERR_IO;
		goto out;
	}
	rc = sweep_check_path("the store", pl.store, true, err, errlen);
	if (rc)
		goto out;
	pl.root = json_object_new_object();
	pl.jtasks = json_object_new_array();
	pl.axes = json_object_new_object();
	json_object_object_add(pl.root, "format", jstr(SWEEP_PLAN_FORMAT));
	json_object_object_add(pl.root, "version", json_tokener_parse("[1,0]"));
	json_object_object_add(pl.root, "spec", jstr(spec_abs));
	json_object_object_add(pl.root, "refault", jstr(refault));
	json_object_object_add(pl.root, "refault_version", jstr(PACKAGE_VERSION));
	json_object_object_add(pl.root, "store", jstr(pl.store));
	json_object_object_add(pl.root, "threads", json_object_new_int64(pl.spec.threads));
	json_object_object_add(pl.root, "replay_options",
			       strv_json(pl.spec.replay_opts, pl.spec.nr_opts));
	json_object_object_add(pl.root, "budget_bytes", json_object_new_int64((int64_t)pl.spec.budget));
	json_object_object_add(pl.root, "group", json_object_new_int64(pl.spec.group));
	json_object_object_add(pl.root, "repeat", json_object_new_int64(pl.spec.repeat));
	json_object_object_add(pl.root, "configs", configs_json(&pl));
	prune_axes(pl.axes);
	json_object_object_add(pl.root, "axes", pl.axes);
	jwl = json_object_new_array();
	json_object_object_add(pl.root, "workloads", jwl);
	json_object_object_add(pl.root, "tasks", pl.jtasks);
	for (i = 0; i < pl.spec.nr_wl && !rc; i++) {
		const struct sweep_workload *w = &pl.spec.wl[i];
		json_object *o = json_object_new_object(), *jt = json_object_new_array();

		json_object_object_add(o, "name", jstr(w->name));
		json_object_object_add(o, "traces", jt);
		json_object_array_add(jwl, o);
		for (j = 0; j < w->nr && !rc; j++)
			rc = plan_trace(&pl, w->name, w->traces[j], jt, err, errlen);
	}
	if (!rc)
		rc = sweep_write_file(plan_path, json_object_to_json_string_ext(pl.root,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE), err, errlen);
	if (!rc && summary)
		*summary = summarize(&pl);
out:
	json_object_put(pl.root);
	rf_config_list_free(&pl.configs);
	free(pl.reps);
	free(pl.store);
	free(spec_abs);
	sweep_spec_release(&pl.spec);
	return rc;
}
