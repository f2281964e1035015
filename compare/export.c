/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine-readable output: the table's rows as JSON or CSV (the same rows
 * the table shows, or every row with --all), and one side's stats as an LKP
 * matrix.json ({"proc-vmstat.X": [run1, run2, ...], "stats_source": [...]}).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/utf8.h"

#include "compare/compare-local.h"

static struct json_object *jdouble(double v)
{
	/* JSON has no infinities: a change against a zero base is reported as null */
	if (!isfinite(v))
		return NULL;
	/* counters stay integers, as LKP writes them */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

static struct json_object *side_json(const struct rf_compare_side *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "label", json_object_new_string(s->label));
	json_object_object_add(o, "spec", json_object_new_string(s->spec));
	json_object_object_add(o, "runs", json_object_new_int64((int64_t)s->runs));
	json_object_object_add(o, "source", json_object_new_string(s->lkp ? "lkp" : s->kernel ? "kernel" : "refault"));
	if (s->fingerprints && s->runs)
		json_object_object_add(o, "fingerprint", json_object_new_string(s->fingerprints[0]));
	if (s->trace_path)
		json_object_object_add(o, "trace", json_object_new_string(s->trace_path));
	return o;
}

static struct json_object *cell_json(const struct rf_compare_cell *c, bool base, bool absolute)
{
	struct json_object *o = json_object_new_object(), *samples = json_object_new_array();
	size_t i;

	json_object_object_add(o, "present", json_object_new_boolean(c->present));
	json_object_object_add(o, "mean", jdouble(c->mean));
	json_object_object_add(o, "stddev", c->stddev < 0 ? NULL : jdouble(c->stddev));
	json_object_object_add(o, "stddev_percent", c->stddev < 0 || !c->mean ? NULL :
			       jdouble(100 * c->stddev / fabs(c->mean)));
	for (i = 0; i < c->n; i++)
		json_object_array_add(samples, jdouble(c->samples[i]));
	json_object_object_add(o, "samples", samples);
	if (base)
		return o;
	json_object_object_add(o, absolute ? "change" : "change_percent", jdouble(c->change));
	json_object_object_add(o, "changed", json_object_new_boolean(c->verdict.changed));
	json_object_object_add(o, "separated", json_object_new_boolean(c->verdict.separated));
	json_object_object_add(o, "why", json_object_new_string(c->verdict.why ?
								 c->verdict.why : ""));
	return o;
}

static struct json_object *row_json(const struct rf_compare_row *row, size_t nsides)
{
	struct json_object *o = json_object_new_object(), *cells = json_object_new_array();
	size_t i;

	json_object_object_add(o, "metric", json_object_new_string(row->name));
	json_object_object_add(o, "changed", json_object_new_boolean(row->shown));
	json_object_object_add(o, "absolute_change", json_object_new_boolean(row->absolute));
	json_object_object_add(o, "failure_stat", json_object_new_boolean(row->function_stat));
	for (i = 0; i < nsides; i++)
		json_object_array_add(cells, cell_json(&row->cell[i], !i, row->absolute));
	json_object_object_add(o, "columns", cells);
	return o;
}

int rf_compare_write_json(FILE *out, const struct rf_compare_report *rep, bool all)
{
	struct json_object *root = json_object_new_object(), *sides = json_object_new_array();
	struct json_object *rows = json_object_new_array(), *ver = json_object_new_array();
	size_t i;
	int ret;

	json_object_object_add(root, "format", json_object_new_string("refault-compare"));
	json_object_array_add(ver, json_object_new_int(1));
	json_object_array_add(ver, json_object_new_int(0));
	json_object_object_add(root, "version", ver);
	for (i = 0; i < rep->nsides; i++)
		json_object_array_add(sides, side_json(&rep->sides[i]));
	json_object_object_add(root, "columns", sides);
	json_object_object_add(root, "all", json_object_new_boolean(all));
	for (i = 0; i < rep->nrows; i++)
		if (rep->rows[i].shown)
			json_object_array_add(rows, row_json(&rep->rows[i], rep->nsides));
	json_object_object_add(root, "rows", rows);
	ret = rf_utf8_json_write(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_NOSLASHESCAPE), out);
	json_object_put(root);
	if (ret)
		return errno == ENOMEM ? RF_ERR_NOMEM : RF_ERR_IO;
	fputc('\n', out);
	return ferror(out) ? RF_ERR_IO : 0;
}

/* RFC 4180: quote fields that hold a comma, a quote or a newline. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_number(FILE *out, double v, bool valid)
{
	if (valid && isfinite(v))
		fprintf(out, ",%.17g", v);
	else
		fputc(',', out);
}

static void csv_header(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;

	fputs("metric", out);
	for (i = 0; i < rep->nsides; i++) {
		const char *l = rep->sides[i].label;

		if (i) {
			fputc(',', out);
			fprintf(out, "%s:change", l);
		}
		fprintf(out, ",%s:mean,%s:stddev_percent,%s:runs", l, l, l);
		if (i)
			fprintf(out, ",%s:changed", l);
	}
	fputc('\n', out);
}

int rf_compare_write_csv(FILE *out, const struct rf_compare_report *rep, bool all)
{
	size_t r, i;

	(void)all;
	csv_header(out, rep);
	for (r = 0; r < rep->nrows; r++) {
		const struct rf_compare_row *row = &rep->rows[r];

		if (!row->shown)
			continue;
		csv_field(out, row->name);
		for (i = 0; i < rep->nsides; i++) {
			const struct rf_compare_cell *c = &row->cell[i];

			if (i)
				csv_number(out, c->change, true);
			csv_number(out, c->mean, true);
			csv_number(out, c->mean ? 100 * c->stddev / fabs(c->mean) : 0,
				   c->stddev >= 0 && c->mean);
			fprintf(out, ",%zu", c->n);
			if (i)
				fprintf(out, ",%d", c->verdict.changed);
		}
		fputc('\n', out);
	}
	return ferror(out) ? RF_ERR_IO : 0;
}

int rf_compare_write_matrix(int fd, const char *path, const struct rf_compare_side *side,
			    char *err, size_t errlen)
{
	struct json_object *root = json_object_new_object(), *src = json_object_new_array();
	char buf[512], *copy = strdup(side->spec), *save = NULL, *member;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < side->nm; i++) {
		struct json_object *a = json_object_new_array();

		for (j = 0; j < side->m[i].n; j++)
			json_object_array_add(a, jdouble(side->m[i].v[j]));
		json_object_object_add(root, rf_compare_lkp_name(side->m[i].name, buf, sizeof(buf)),
				       a);
	}
	/* LKP counts runs by stats_source; one entry per run of the side */
	for (member = copy ? strtok_r(copy, ",", &save) : NULL; member;
	     member = strtok_r(NULL, ",", &save))
		json_object_array_add(src, json_object_new_string(member));
	while (json_object_array_length(src) < side->runs)
		json_object_array_add(src, json_object_new_string(side->spec));
	json_object_object_add(root, "stats_source", src);
	if (rf_utf8_json_write_fd(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
				  JSON_C_TO_STRING_NOSLASHESCAPE), fd)) {
		rf_compare_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		ret = RF_ERR_IO;
	}
	free(copy);
	json_object_put(root);
	return ret;
}
