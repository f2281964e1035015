/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Import an LKP stats.json ({"key": number | [numbers]}) or matrix.json
 * ({"key": [sample per run], "stats_source": [...]}).  As lkp-tests does,
 * string values are skipped and missing samples count as 0.  LKP's
 * "proc-vmstat.X" is our "vmstat.X", so both kinds of data share rows.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare/compare-local.h"

static bool is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double);
}

/* LKP's matrix_cols(): the stats_source count, else the longest sample array. */
static size_t matrix_cols(struct json_object *root)
{
	struct json_object *src;
	size_t cols = 0, len;

	if (json_object_object_get_ex(root, "stats_source", &src) &&
	    json_object_is_type(src, json_type_array))
		return json_object_array_length(src);
	json_object_object_foreach(root, key, val) {
		(void)key;
		len = json_object_is_type(val, json_type_array) ? json_object_array_length(val) : 1;
		if (len > cols)
			cols = len;
	}
	return cols;
}

/*
 * LKP pads every metric to the matrix's runs with zeros: @cols samples each
 * of the @nm metrics, within compare_fill_ok() of the @given the file holds.
 */
static int check_fill(struct rf_compare_run *r, const char *path, uint64_t nm, char *err,
		      size_t errlen)
{
	uint64_t made = compare_mul(nm, r->cols);

	if (compare_fill_ok(made, r->given))
		return 0;
	compare_seterr(err, errlen, "%s: %llu metrics, the longest of %zu samples: padded to "
		       "that many runs with zeros (LKP's rule) they are %llu samples from the "
		       "%llu the file holds, over the limit of %d times as many (or %llu); an "
		       "LKP matrix.json has a sample per run in every metric (and stats.json "
		       "one)", path, (unsigned long long)nm, r->cols, (unsigned long long)made,
		       (unsigned long long)r->given, RF_COMPARE_FILL_FACTOR,
		       (unsigned long long)RF_COMPARE_FILL_FLOOR);
	return RF_ERR_TOO_LARGE;
}

/* The metrics and samples the file holds, as read_samples() will take them. */
static void count_given(struct rf_compare_run *r, struct json_object *root, uint64_t *nm)
{
	size_t len;

	*nm = 0;
	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "stats_source") || json_object_is_type(val, json_type_string))
			continue;
		len = json_object_is_type(val, json_type_array) ? json_object_array_length(val) : 1;
		r->given += len < r->cols ? len : r->cols;
		(*nm)++;
	}
}

/* One key's samples, padded with zeros to @cols; 1 if the value is to be skipped. */
static int read_samples(struct json_object *val, double *v, size_t cols)
{
	size_t i, n;

	memset(v, 0, cols * sizeof(*v));
	if (is_number(val)) {
		v[0] = json_object_get_double(val);
		return 0;
	}
	if (json_object_is_type(val, json_type_string))
		return 1;
	if (!json_object_is_type(val, json_type_array))
		return RF_ERR_CORRUPT;
	n = json_object_array_length(val);
	for (i = 0; i < n && i < cols; i++) {
		struct json_object *e = json_object_array_get_idx(val, i);

		if (json_object_is_type(e, json_type_string))
			return 1;
		if (e && !is_number(e))
			return RF_ERR_CORRUPT;
		v[i] = e ? json_object_get_double(e) : 0;
	}
	return 0;
}

int compare_load_lkp(struct rf_compare_run *r, struct json_object *root, const char *path,
		     char *err, size_t errlen)
{
	size_t cols = json_object_is_type(root, json_type_object) ? matrix_cols(root) : 0;
	uint64_t nm;
	char buf[512];
	double *v;
	int ret = 0;

	if (!cols) {
		compare_seterr(err, errlen, "%s: neither a refault results file nor an LKP "
			       "stats.json/matrix.json (want a JSON object of numbers)", path);
		return RF_ERR_CORRUPT;
	}
	r->cols = cols;
	count_given(r, root, &nm);
	ret = check_fill(r, path, nm, err, errlen);
	if (ret)
		return ret;
	v = calloc(cols, sizeof(*v));
	if (!v)
		return RF_ERR_NOMEM;
	r->lkp = true;
	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "stats_source"))
			continue;
		ret = read_samples(val, v, cols);
		if (ret == 1) {
			ret = 0;
			continue;
		}
		if (ret) {
			compare_seterr(err, errlen, "%s: \"%s\" is neither a number nor an "
				       "array of numbers", path, key);
			break;
		}
		ret = compare_run_add(r, compare_from_lkp_name(key, buf, sizeof(buf)), v,
				      cols, false);
		if (ret)
			break;
	}
	free(v);
	if (!ret && !r->nm) {
		compare_seterr(err, errlen, "%s: no numeric metrics in this LKP file", path);
		ret = RF_ERR_CORRUPT;
	}
	if (!ret)
		compare_run_sort(r);
	return ret;
}
