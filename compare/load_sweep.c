/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A sweep file (`refault sweep merge`, docs/sweeps.md): its configurations,
 * each a group of runs that are results files' trace and stats, read by
 * load_results.c one by one as the runs of one side.
 */
#include "config.h"

#include <string.h>

#include <json-c/json.h>

#include "compare/compare-local.h"
#include "compare/jsonfile.h"

bool rf_compare_is_sweep(json_object *root)
{
	json_object *f = rf_json_get(root, "format", json_type_string);

	return f && !strcmp(json_object_get_string(f), "refault-sweep");
}

size_t rf_compare_sweep_not_done(json_object *root)
{
	json_object *t = rf_json_get(root, "tasks", json_type_object);
	json_object *f = rf_json_get(t, "failed", json_type_int), *m = rf_json_get(t, "missing", json_type_int);
	int64_t n = (f ? json_object_get_int64(f) : 0) + (m ? json_object_get_int64(m) : 0);

	return n > 0 ? (size_t)n : 0;
}

int rf_compare_sweep_runs(json_object *root, const char *path, const char *config,
			  json_object **runs, char *err, size_t errlen)
{
	json_object *cs = rf_json_get(root, "configs", json_type_array), *c, *name;
	size_t i, n = cs ? json_object_array_length(cs) : 0;
	char names[256] = "";

	*runs = NULL;
	for (i = 0; i < n; i++) {
		c = json_object_array_get_idx(cs, i);
		name = rf_json_get(c, "name", json_type_string);
		if (!name)
			continue;
		if ((!config && n == 1) || (config && !strcmp(json_object_get_string(name), config))) {
			*runs = rf_json_get(c, "runs", json_type_array);
			if (*runs)
				return 0;
			break;
		}
		if (strlen(names) + strlen(json_object_get_string(name)) + 3 < sizeof(names))
			strcat(strcat(names, i ? ", " : ""), json_object_get_string(name));
	}
	if (i < n)
		rf_compare_seterr(err, errlen, "%s: configuration '%s' has no runs array (not what "
				  "`refault sweep merge` writes)", path, config ? config : "");
	else if (config)
		rf_compare_seterr(err, errlen, "%s has no configuration '%s' (it has: %s)", path,
				  config, names);
	else
		rf_compare_seterr(err, errlen, "%s is a sweep of %zu configurations (%s): name one "
				  "as %s:NAME", path, n, names, path);
	return RF_ERR_INVAL;
}
