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

bool compare_is_sweep(json_object *root)
{
	json_object *f = rf_json_get(root, "format", json_type_string);

	return f && !strcmp(json_object_get_string(f), "refault-sweep");
}

size_t compare_sweep_not_done(json_object *root)
{
	json_object *t = rf_json_get(root, "tasks", json_type_object);
	json_object *f = rf_json_get(t, "failed", json_type_int), *m = rf_json_get(t, "missing", json_type_int);
	int64_t n = (f ? json_object_get_int64(f) : 0) + (m ? json_object_get_int64(m) : 0);

	return n > 0 ? (size_t)n : 0;
}

int compare_sweep_runs(struct rf_compare_file *file, const char *config, json_object **runs,
		       char *err, size_t errlen)
{
	json_object *cs = rf_json_get(file->root, "configs", json_type_array), *c;
	const char *path = file->path;

	*runs = NULL;
	c = cs ? compare_pick_config(cs, file, path, config, err, errlen) : NULL;
	if (!cs)
		compare_seterr(err, errlen, "%s: no \"configs\" array", path);
	if (!c)
		return RF_ERR_INVAL;
	*runs = rf_json_get(c, "runs", json_type_array);
	if (*runs)
		return 0;
	compare_seterr(err, errlen, "%s: configuration '%s' has no runs array (not what "
		       "`refault sweep merge` writes)", path, config ? config : "");
	return RF_ERR_INVAL;
}
