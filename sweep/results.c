/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A task's results file as the store holds it, checked before anything
 * counts it as done: whole (JSON that parses to its end: a file cut short by
 * a copy, a full disk or a lost host is not), of the plan's trace (its
 * fingerprint), and holding every configuration the task was to run with
 * its stats (what the merge takes).  Its states and the merge read it here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare/jsonfile.h"
#include "sweep/sweep-local.h"

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = rf_json_get(o, key, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

json_object *sweep_results_config(json_object *results, const char *replay_name)
{
	json_object *cs = rf_json_get(results, "configs", json_type_array);
	size_t i, n = cs ? json_object_array_length(cs) : 0;

	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cs, i);
		const char *name = get_str(c, "name");

		if (name && !strcmp(name, replay_name) && rf_json_get(c, "stats", json_type_object))
			return c;
	}
	return NULL;
}

int sweep_results_read(const struct rf_sweep_plan *p, size_t i, json_object **out, char *why,
		       size_t whylen)
{
	const struct rf_sweep_task *t = &p->tasks[i];
	json_object *tasks = rf_json_get(p->root, "tasks", json_type_array);
	json_object *cs = rf_json_get(json_object_array_get_idx(tasks, i), "configs", json_type_array);
	json_object *results;
	const char *fp, *rname;
	size_t k, n = cs ? json_object_array_length(cs) : 0;
	int rc;

	*out = NULL;
	rc = rf_json_read_object(t->results, "a refault results file", &results, why, whylen);
	if (rc)
		return rc;
	fp = get_str(rf_json_get(results, "trace", json_type_object), "fingerprint");
	if (!fp || strcmp(fp, t->fingerprint)) {
		sweep_seterr(why, whylen, "%s: results of another trace (fingerprint %s, the plan's "
			     "%s): the trace changed since `refault sweep plan`; plan again",
			     t->results, fp ? fp : "none", t->fingerprint);
		json_object_put(results);
		return RF_ERR_CORRUPT;
	}
	for (k = 0; k < n; k++) {
		rname = get_str(json_object_array_get_idx(cs, k), "replay");
		if (!rname || !sweep_results_config(results, rname)) {
			sweep_seterr(why, whylen, "%s: no configuration '%s' with stats in it",
				     t->results, rname ? rname : "?");
			json_object_put(results);
			return RF_ERR_CORRUPT;
		}
	}
	*out = results;
	return 0;
}
