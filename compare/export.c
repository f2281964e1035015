/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine-readable output: the table's rows as JSON or CSV (the same rows
 * the table shows, or every row with --all), and one side's stats as an LKP
 * matrix.json ({"proc-vmstat.X": [run1, run2, ...], "stats_source": [...]}).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
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

/*
 * --json is written as it goes, a row at a time, in the layout json-c's
 * JSON_C_TO_STRING_PRETTY gives (what it was before: the same bytes), with
 * json-c serializing each number and string (its escapes) through reused
 * objects and lib/utf8.h's writer (ill-formed bytes as \ufffd): no tree of
 * the whole report, which is rows x columns x samples.
 */
#define JW_FLAGS	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
#define JW_DEPTH	8

struct jw {
	FILE *out;
	int level;			/* containers open */
	bool had[JW_DEPTH];		/* the container at that level has a member */
	struct json_object *num_d, *str;
	int err;
};

static void jw_indent(struct jw *w, int level)
{
	fprintf(w->out, "%*s", 2 * level, "");
}

/* Before a member or an element of the open container. */
static void jw_next(struct jw *w)
{
	if (w->had[w->level])
		fputs(",\n", w->out);
	w->had[w->level] = true;
	jw_indent(w, w->level);
}

static void jw_key(struct jw *w, const char *key)
{
	jw_next(w);
	fprintf(w->out, "\"%s\":", key);	/* the keys are ours, plain ASCII */
}

static void jw_open(struct jw *w, char c)
{
	fputc(c, w->out);
	fputc('\n', w->out);
	if (w->level + 1 < JW_DEPTH)
		w->had[++w->level] = false;
}

static void jw_close(struct jw *w, char c)
{
	if (w->had[w->level])
		fputc('\n', w->out);
	w->level--;
	jw_indent(w, w->level);
	fputc(c, w->out);
}

static void jw_text(struct jw *w, struct json_object *o)
{
	if (rf_utf8_json_write(json_object_to_json_string_ext(o, JW_FLAGS), w->out) && !w->err)
		w->err = errno == ENOMEM ? RF_ERR_NOMEM : RF_ERR_IO;
}

static void jw_string(struct jw *w, const char *s)
{
	if (json_object_set_string(w->str, s))
		jw_text(w, w->str);
	else
		w->err = RF_ERR_NOMEM;
}

static void jw_bool(struct jw *w, bool b)
{
	fputs(b ? "true" : "false", w->out);
}

static void jw_int(struct jw *w, int64_t v)
{
	fprintf(w->out, "%" PRId64, v);
}

/* jdouble()'s rule: null for NaN and infinities, integers as integers. */
static void jw_double(struct jw *w, double v)
{
	if (!isfinite(v)) {
		fputs("null", w->out);
	} else if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		jw_int(w, (int64_t)v);
	} else {
		json_object_set_double(w->num_d, v);
		jw_text(w, w->num_d);
	}
}

static void jw_side(struct jw *w, const struct rf_compare_side *s)
{
	jw_next(w);
	jw_open(w, '{');
	jw_key(w, "label");
	jw_string(w, s->label);
	jw_key(w, "spec");
	jw_string(w, s->spec);
	jw_key(w, "runs");
	jw_int(w, (int64_t)s->runs);
	jw_key(w, "source");
	jw_string(w, s->lkp ? "lkp" : s->kernel ? "kernel" : "refault");
	if (s->fingerprints && s->runs) {
		jw_key(w, "fingerprint");
		jw_string(w, s->fingerprints[0]);
	}
	if (s->trace_path) {
		jw_key(w, "trace");
		jw_string(w, s->trace_path);
	}
	jw_close(w, '}');
}

static void jw_cell(struct jw *w, const struct rf_compare_cell *c, bool base, bool absolute)
{
	size_t i;

	jw_next(w);
	jw_open(w, '{');
	jw_key(w, "present");
	jw_bool(w, c->present);
	jw_key(w, "mean");
	jw_double(w, c->mean);
	jw_key(w, "stddev");
	jw_double(w, c->stddev < 0 ? NAN : c->stddev);
	jw_key(w, "stddev_percent");
	jw_double(w, c->stddev < 0 || !c->mean ? NAN : 100 * c->stddev / fabs(c->mean));
	jw_key(w, "samples");
	jw_open(w, '[');
	for (i = 0; i < c->n; i++) {
		jw_next(w);
		jw_double(w, c->samples[i]);
	}
	jw_close(w, ']');
	if (!base) {
		jw_key(w, absolute ? "change" : "change_percent");
		jw_double(w, c->change);
		jw_key(w, "changed");
		jw_bool(w, c->verdict.changed);
		jw_key(w, "apparent");
		jw_bool(w, c->verdict.apparent);
		jw_key(w, "separated");
		jw_bool(w, c->verdict.separated);
		jw_key(w, "why");
		jw_string(w, c->verdict.why ? c->verdict.why : "");
	}
	jw_close(w, '}');
}

static void jw_row(struct jw *w, const struct rf_compare_row *row, size_t nsides)
{
	size_t i;

	jw_next(w);
	jw_open(w, '{');
	jw_key(w, "metric");
	jw_string(w, row->name);
	jw_key(w, "changed");
	jw_bool(w, row->changed);
	jw_key(w, "apparent");
	jw_bool(w, row->apparent);
	jw_key(w, "absolute_change");
	jw_bool(w, row->absolute);
	jw_key(w, "failure_stat");
	jw_bool(w, row->function_stat);
	jw_key(w, "columns");
	jw_open(w, '[');
	for (i = 0; i < nsides; i++)
		jw_cell(w, &row->cell[i], !i, row->absolute);
	jw_close(w, ']');
	jw_close(w, '}');
}

int compare_write_json(FILE *out, const struct rf_compare_report *rep, bool all)
{
	struct jw w = { .out = out };
	size_t i;

	w.num_d = json_object_new_double(0);
	w.str = json_object_new_string("");
	if (!w.num_d || !w.str) {
		json_object_put(w.num_d);
		json_object_put(w.str);
		return RF_ERR_NOMEM;
	}
	jw_open(&w, '{');
	jw_key(&w, "format");
	jw_string(&w, "refault-compare");
	jw_key(&w, "version");
	jw_open(&w, '[');
	jw_next(&w);
	jw_int(&w, 1);
	jw_next(&w);
	jw_int(&w, 0);
	jw_close(&w, ']');
	jw_key(&w, "columns");
	jw_open(&w, '[');
	for (i = 0; i < rep->nsides; i++)
		jw_side(&w, &rep->sides[i]);
	jw_close(&w, ']');
	jw_key(&w, "all");
	jw_bool(&w, all);
	jw_key(&w, "rows");
	jw_open(&w, '[');
	for (i = 0; i < rep->nrows && !w.err; i++)
		if (rep->rows[i].shown)
			jw_row(&w, &rep->rows[i], rep->nsides);
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', out);
	json_object_put(w.num_d);
	json_object_put(w.str);
	if (w.err)
		return w.err;
	return ferror(out) ? RF_ERR_IO : 0;
}

/* RFC 4180: quote fields that hold a comma, a quote, a line feed or a carriage return. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
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

/* ",LABEL:WHAT" as one field (a label may hold a comma or a quote). */
static void csv_column(FILE *out, const char *label, const char *what)
{
	char *field = NULL;

	fputc(',', out);
	if (compare_asprintf(&field, "%s:%s", label, what) < 0)
		return;
	csv_field(out, field);
	free(field);
}

static void csv_header(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;

	fputs("metric", out);
	for (i = 0; i < rep->nsides; i++) {
		const char *l = rep->sides[i].label;

		if (i)
			csv_column(out, l, "change");
		csv_column(out, l, "mean");
		csv_column(out, l, "stddev_percent");
		csv_column(out, l, "runs");
		if (i)
			csv_column(out, l, "changed");
	}
	fputc('\n', out);
}

int compare_write_csv(FILE *out, const struct rf_compare_report *rep, bool all)
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

int compare_write_matrix(int fd, const char *path, const struct rf_compare_side *side,
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
		json_object_object_add(root, compare_lkp_name(side->m[i].name, buf, sizeof(buf)),
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
		compare_seterr(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		ret = RF_ERR_IO;
	}
	free(copy);
	json_object_put(root);
	return ret;
}
