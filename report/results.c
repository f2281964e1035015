/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A results file's configuration as a source (refault report
 * RESULTS.json[:CONFIG]): the results name the trace they replayed (its
 * path, and a fingerprint of its chunks) and each configuration by its
 * profile and settings, and replays are deterministic, so the report
 * replays that configuration on that trace again; the fingerprint proves it
 * is the same trace.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/errors.h>

#include "compare/jsonfile.h"
#include "report/report.h"

bool rf_report_is_results(const char *arg)
{
	const char *colon = strrchr(arg, ':');
	size_t n = colon && access(arg, F_OK) ? (size_t)(colon - arg) : strlen(arg);

	return n >= 5 && !strncmp(arg + n - 5, ".json", 5);
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* The trace as the results name it, else beside the results file when the name is relative. */
static char *find_trace(const char *results, const char *trace)
{
	const char *slash = strrchr(results, '/');
	char *p;

	if (trace[0] == '/' || !access(trace, F_OK) || !slash)
		return strdup(trace);
	if (asprintf(&p, "%.*s/%s", (int)(slash - results), results, trace) < 0)
		return NULL;
	if (!access(p, F_OK))
		return p;
	free(p);
	return strdup(trace);
}

int rf_report_side_load(const char *arg, struct rf_report_side *side, char *err, size_t errlen)
{
	const char *colon = strrchr(arg, ':'), *name = NULL, *path, *fp;
	json_object *root = NULL, *trace, *configs, *c = NULL, *v;
	char *file;
	size_t i, n;
	int rc;

	memset(side, 0, sizeof(*side));
	file = colon && access(arg, F_OK) ? strndup(arg, (size_t)(colon - arg)) : strdup(arg);
	if (!file)
		return RF_ERR_NOMEM;
	if (colon && access(arg, F_OK))
		name = colon + 1;
	rc = rf_json_read_object(file, "a refault results file", &root, err, errlen);
	if (rc)
		goto out;
	rc = RF_ERR_CORRUPT;
	if (!json_object_object_get_ex(root, "trace", &trace) ||
	    !(path = str_of(trace, "path")) || !(fp = str_of(trace, "fingerprint")) ||
	    !json_object_object_get_ex(root, "configs", &configs) ||
	    !json_object_is_type(configs, json_type_array)) {
		snprintf(err, errlen, "%s: not a refault results file (no \"trace\" path and "
			 "fingerprint, or no \"configs\"): refault replay -o writes them", file);
		goto out;
	}
	n = json_object_array_length(configs);
	for (i = 0; i < n; i++) {
		json_object *ci = json_object_array_get_idx(configs, i);
		const char *cn = str_of(ci, "name");

		if (cn && (!name || !strcmp(cn, name))) {
			if (c && !name) {
				snprintf(err, errlen, "%s has %zu configurations: say which, as %s:NAME",
					 file, n, file);
				rc = RF_ERR_CONFIG;
				goto out;
			}
			c = ci;
			if (name)
				break;
		}
	}
	if (!c) {
		snprintf(err, errlen, name ? "%s has no configuration '%s'" : "%s has no configuration",
			 file, name);
		rc = RF_ERR_CONFIG;
		goto out;
	}
	side->fingerprint = strtoull(fp, NULL, 16);
	side->warm_cache = json_object_object_get_ex(trace, "warm_cache_pages", &v);
	side->trace = find_trace(file, path);
	side->source = strdup(str_of(c, "name"));
	rc = side->trace && side->source ? 0 : RF_ERR_NOMEM;
out:
	if (rc)
		rf_report_side_free(side);
	json_object_put(root);
	free(file);
	return rc;
}

void rf_report_side_free(struct rf_report_side *side)
{
	free(side->trace);
	free(side->source);
	memset(side, 0, sizeof(*side));
}
