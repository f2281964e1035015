/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The report for a person (a table, perf report --stdio's habits) and as JSON.
 * Every text a file supplied (keys: paths, cgroups, commands, symbols; the
 * trace's path and the sources' names, which a results file gives) goes to
 * the table through lib/term.h's one rule.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/term.h"
#include "lib/utf8.h"
#include "report/report-local.h"

/* A key from the trace, which may hold any bytes, on a line of its own. */
static void put_key(const char *s, FILE *f)
{
	rf_term_escape_str(f, s);
	fputc('\n', f);
}

/*
 * @s escaped, right-aligned in @w columns, cut to @w at a character (the
 * escaped text is well-formed UTF-8 of printable characters).
 */
static void put_col(FILE *f, const char *s, int w)
{
	char *e = rf_term_escaped(s);
	const char *t = e ? e : "?";
	size_t cols = rf_term_width(t), n = 0, k, c;

	if ((size_t)w > cols)
		fprintf(f, "%*s", (int)((size_t)w - cols), "");
	for (c = 0; t[n] && c < (size_t)w; c++) {
		k = rf_utf8_seq((const unsigned char *)t + n, strlen(t + n));
		n += k ? k : 1;
	}
	fwrite(t, 1, n, f);
	free(e);
}

/* The columns @s takes escaped, at most @max. */
static int width_of(const char *s, int max)
{
	size_t w = rf_term_width(s);

	return w > (size_t)max ? max : (int)w;
}

static double share(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static void header(const struct rf_report *r, FILE *f)
{
	const char *sort = rf_report_metric_name(r->sort);
	uint64_t counted;
	size_t i;

	fputs("# refault report of ", f);
	rf_term_escape_str(f, r->trace);
	fprintf(f, ": by %s, sorted by %s\n", rf_report_by_name(r->by), sort);
	for (i = 0; i < r->nr_src; i++) {
		fputs("# ", f);
		rf_term_escape_str(f, r->src[i]->name);
		fprintf(f, ": %s\n", !report_is_kernel(r, i) ? "the model's decisions, replaying the trace" :
			report_kernel_has_observations(r->kernel) ?
			"the kernel's decisions, from the trace's page-cache and LRU observations" :
			"none: the trace has no page-cache observations (a generated trace?), so "
			"what the kernel decided is not known");
	}
	if (rf_report_kernel_counted(r, &counted))
		fprintf(f, "# the kernel counted %" PRIu64 " workingset_refault_file (/proc/vmstat, "
			"last snapshot minus first); attributed to files here: %" PRIu64 "\n",
			counted, report_kernel_source(r->kernel)->total[RF_REPORT_REFAULTS]);
	if (r->by == RF_REPORT_BY_CALLSITE)
		fprintf(f, "# a callsite is the reference's call stack: the innermost frame <- its "
			"caller <- ...\n");
	else if (r->by == RF_REPORT_BY_SYMBOL && r->children)
		fprintf(f, "# children: a symbol's row counts every decision whose call stack passes "
			"through it, callees' included (rows overlap); self: where it is innermost\n");
	else if (r->by == RF_REPORT_BY_SYMBOL)
		fprintf(f, "# a symbol is the innermost frame of the reference's call stack\n");
	fprintf(f, "#\n");
}

/* The next row a table shows from @i on (the blank ones left out); r->nr_rows: none. */
static size_t next_row(const struct rf_report *r, size_t i)
{
	while (i < r->nr_rows && report_row_blank(r, i))
		i++;
	return i;
}

static void footer(const struct rf_report *r, FILE *f, size_t shown)
{
	size_t i, m, blank = report_nr_blank(r);

	if (shown < r->nr_rows - blank)
		fprintf(f, "# ... %zu more rows (--lines 0 shows all)\n", r->nr_rows - blank - shown);
	if (blank && r->nr_src > 1)
		fprintf(f, "# %zu %s%s with no %s in any source left out (--json lists them)\n", blank,
			rf_report_by_name(r->by), blank > 1 ? "s" : "", rf_report_metric_name(r->sort));
	else if (blank)
		fprintf(f, "# %zu %s%s with nothing counted left out (--json lists them)\n", blank,
			rf_report_by_name(r->by), blank > 1 ? "s" : "");
	for (i = 0; i < r->nr_src; i++) {
		const uint64_t *u = r->src[i]->unattributed;
		bool any = false;

		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			any |= u[m] != 0;
		if (!any)
			continue;
		fputs("# ", f);
		rf_term_escape_str(f, r->src[i]->name);
		fprintf(f, ", not attributed to a %s:", rf_report_by_name(r->by));
		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			if (u[m])
				fprintf(f, " %" PRIu64 " %s", u[m], rf_report_metric_name(m));
		fprintf(f, " (%s)\n", report_is_kernel(r, i) ?
			"pages the trace never saw added: anonymous memory, or cached before it" :
			"folios whose owner is not known");
	}
}

static void print_one(const struct rf_report *r, FILE *f, size_t lines)
{
	const uint64_t *t = r->src[0]->total;
	size_t i, n = 0;

	/* --children: perf's Children and Self, shares of the total; the counts are the children's */
	if (r->children)
		fprintf(f, "%8s %8s", "Children", "Self");
	else
		fprintf(f, "%8s", "Share");
	fprintf(f, " %10s %10s %10s %11s  %s\n", "Refaults", "Misses", "Evictions",
		"Activations", rf_report_by_name(r->by));
	for (i = next_row(r, 0); i < r->nr_rows && (!lines || n < lines); i = next_row(r, i + 1)) {
		const uint64_t *v = r->order[i].v[0];

		fprintf(f, "%7.2f%%", share(v[r->sort], t[r->sort]));
		if (r->children)
			fprintf(f, " %7.2f%%", share(r->order[i].self[0][r->sort], t[r->sort]));
		fprintf(f, " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11" PRIu64 "  ",
			v[RF_REPORT_REFAULTS], v[RF_REPORT_MISSES], v[RF_REPORT_EVICTIONS],
			v[RF_REPORT_ACTIVATIONS]);
		put_key(r->order[i].key, f);
		n++;
	}
	if (r->children)
		fprintf(f, "%8s ", "");
	fprintf(f, "%8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11" PRIu64 "  %s\n", "",
		t[RF_REPORT_REFAULTS], t[RF_REPORT_MISSES], t[RF_REPORT_EVICTIONS],
		t[RF_REPORT_ACTIVATIONS], "(total)");
	footer(r, f, n);
}

/* One line of print_many(): row @row's, or with @row NULL the totals. */
static void many_line(const struct rf_report *r, FILE *f, int w, const struct rowref *row)
{
	const uint64_t *base = row ? row->v[0] : r->src[0]->total;
	int m = r->sort;
	size_t s;

	fprintf(f, "%*" PRIu64, w, base[m]);
	if (r->children && row)
		fprintf(f, " %10" PRIu64, row->self[0][m]);
	else if (r->children)
		fprintf(f, " %10s", "");
	for (s = 1; s < r->nr_src; s++) {
		const uint64_t *v = row ? row->v[s] : r->src[s]->total;

		if (base[m])
			fprintf(f, " %+8.1f%% %*" PRIu64,
				100.0 * ((double)v[m] - (double)base[m]) / (double)base[m], w, v[m]);
		else
			fprintf(f, " %9s %*" PRIu64, v[m] ? "new" : "", w, v[m]);
		if (r->children && row)
			fprintf(f, " %10" PRIu64, row->self[s][m]);
		else if (r->children)
			fprintf(f, " %10s", "");
	}
	fprintf(f, "  ");
	if (row)
		put_key(row->key, f);
	else
		fprintf(f, "(total)\n");
}

/*
 * perf diff's habit: the baseline, then each source's value and its change
 * against it; with --children each source's self count beside its own.
 */
static void print_many(const struct rf_report *r, FILE *f, size_t lines)
{
	size_t i, s, n = 0;
	int m = r->sort, w = 12;

	/* every column as wide as the longest source name (to 40), so that each heads its own */
	for (s = 0; s < r->nr_src; s++) {
		char *e = rf_term_escaped(r->src[s]->name);

		if (e && width_of(e, 40) > w)
			w = width_of(e, 40);
		free(e);
	}
	fprintf(f, "# %s per source%s; %%change against ", rf_report_metric_name(m),
		r->children ? " (children, then self)" : "");
	put_key(r->src[0]->name, f);
	put_col(f, r->src[0]->name, w);
	if (r->children)
		fprintf(f, " %10s", "self");
	for (s = 1; s < r->nr_src; s++) {
		fprintf(f, " %9s ", "%change");
		put_col(f, r->src[s]->name, w);
		if (r->children)
			fprintf(f, " %10s", "self");
	}
	fprintf(f, "  %s\n", rf_report_by_name(r->by));
	for (i = next_row(r, 0); i < r->nr_rows && (!lines || n < lines); i = next_row(r, i + 1)) {
		many_line(r, f, w, &r->order[i]);
		n++;
	}
	many_line(r, f, w, NULL);
	footer(r, f, n);
}

int rf_report_print(const struct rf_report *r, FILE *f, size_t lines)
{
	header(r, f);
	if (r->nr_src == 1)
		print_one(r, f, lines);
	else
		print_many(r, f, lines);
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------ heatmap */

static const char shades[] = " .:-=+*#%@";

static char shade(uint64_t v, uint64_t max)
{
	if (!v || !max)
		return ' ';
	/* 1..9: a cell holding anything is never blank */
	return shades[1 + (unsigned int)(((double)v * 8.0) / (double)max + 0.5)];
}

/* Seconds from the trace's first event. */
static double secs_of(const struct report_heat *h, uint64_t t)
{
	return t > h->t_origin ? (double)(t - h->t_origin) / 1e9 : 0;
}

/*
 * The time axis under a grid of @cols columns from the left edge @indent:
 * a '+' at each tick, then each tick's time where it fits.
 */
static void time_axis(FILE *f, const struct report_heat *h, int indent)
{
	double a = secs_of(h, h->t0), span = ((double)(h->t1 - h->t0) + 1) / 1e9;
	double step = report_tick_step(span, h->cols / 10 ? h->cols / 10 : 1), t;
	char marks[1100], labels[1100], buf[32];
	unsigned int col, next = 0, c, k;
	size_t len;

	memset(marks, '-', h->cols);
	marks[h->cols] = '\0';
	memset(labels, ' ', sizeof(labels));
	for (k = 0; k < REPORT_MAX_TICKS && (t = report_tick(a, step, k)) < a + span; k++) {
		col = (unsigned int)((t - a) / span * h->cols);
		if (col >= h->cols)
			break;
		marks[col] = '+';
		report_time_label(buf, sizeof(buf), t, step, a + span);
		len = strlen(buf);
		if (col < next || col + len > sizeof(labels) - 1)
			continue;
		memcpy(labels + col, buf, len);
		next = col + (unsigned int)len + 1;
	}
	for (c = sizeof(labels) - 1; c > 0 && labels[c - 1] == ' '; c--)
		;
	labels[c] = '\0';
	fprintf(f, "%*s+%s+\n%*s%s\n", indent - 1, "", marks, indent, "", labels);
}

int rf_report_print_heatmap(const struct rf_report *r, FILE *f)
{
	const struct report_heat *h0 = r->nr_src ? r->src[0]->heat : NULL;
	uint64_t max = report_heat_busiest(r);
	char a[32], b[32], e[32], c[32];
	double span;
	size_t i;
	unsigned int row, col;

	if (r->heat_none)
		fprintf(f, "# no heatmap: no decision of the trace is about a file\n");
	if (!h0)
		return 0;
	span = ((double)(h0->t1 - h0->t0) + 1) / 1e9;
	report_time_label(a, sizeof(a), secs_of(h0, h0->t0), span / h0->cols, secs_of(h0, h0->t1));
	report_time_label(b, sizeof(b), secs_of(h0, h0->t1), span / h0->cols, secs_of(h0, h0->t1));
	report_time_label(e, sizeof(e), secs_of(h0, h0->t_end), span / h0->cols, secs_of(h0, h0->t_end));
	report_time_label(c, sizeof(c), span / h0->cols, span / h0->cols / 10, span / h0->cols);
	fprintf(f, "# heatmap of ");
	put_key(r->heat_key, f);
	fprintf(f, "# %s per cell; time across, from the trace's start: %s to %s, ",
		rf_report_metric_name(r->sort), a, b);
	if (h0->metric_seen)
		fprintf(f, "the file's first and last %s", rf_report_metric_name(r->sort));
	else
		fprintf(f, "the file's first and last decisions (no %s)", rf_report_metric_name(r->sort));
	fprintf(f, " (the trace ends at %s), %s a column; page index down, pages %" PRIu64 " to %"
		PRIu64, e, c, h0->index_start, h0->index_end - 1);
	if (h0->index_start || h0->file_end > h0->index_end)
		fprintf(f, " (the file's decisions reach page %" PRIu64 ")", h0->file_end - 1);
	fprintf(f, ", %.*f pages a row; shades \"%s\" from none to %" PRIu64 ", one scale for "
		"every source\n", (double)(h0->index_end - h0->index_start) / h0->rows >= 100 ? 0 : 1,
		(double)(h0->index_end - h0->index_start) / h0->rows, shades, max);
	for (i = 0; i < r->nr_src; i++) {
		const struct report_heat *h = r->src[i]->heat;

		fputs("# ", f);
		rf_term_escape_str(f, r->src[i]->name);
		if (!r->src[i]->decided) {
			fprintf(f, ": no decision at all%s\n", report_is_kernel(r, i) ?
				" (the trace has no page-cache observations)" : "");
			continue;
		}
		fputc('\n', f);
		for (row = 0; row < h->rows; row++) {
			fprintf(f, "%12" PRIu64 " |", h->index_start + (uint64_t)((double)(h->index_end -
				h->index_start) * row / h->rows));
			for (col = 0; col < h->cols; col++)
				fputc(shade(h->cell[(size_t)row * h->cols + col][r->sort], max), f);
			fprintf(f, "|\n");
		}
		time_axis(f, h, 14);
	}
	return ferror(f) ? -1 : 0;
}

static json_object *counts(const uint64_t *v)
{
	json_object *o = json_object_new_object();
	int m;

	for (m = 0; o && m < RF_REPORT_NR_METRICS; m++)
		if (json_object_object_add(o, rf_report_metric_name(m),
					   json_object_new_uint64(v[m]))) {
			json_object_put(o);
			return NULL;
		}
	return o;
}

/* @o[@key] = @v; false (and @v put) when out of memory */
static bool add(json_object *o, const char *key, json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return true;
	json_object_put(v);
	return false;
}

/* The heatmap's axes and, per source, its rows of cells (the sort metric's counts). */
static json_object *heat_json(const struct rf_report *r)
{
	const struct report_heat *h0 = r->src[0]->heat;
	json_object *o = json_object_new_object(), *cells;
	unsigned int row, col;
	size_t i;
	bool ok;

	if (!o)
		return NULL;
	ok = add(o, "key", json_object_new_string(r->heat_key)) &&
	     add(o, "metric", json_object_new_string(rf_report_metric_name(r->sort))) &&
	     add(o, "t_first_ns", json_object_new_uint64(h0->t0)) &&
	     add(o, "t_last_ns", json_object_new_uint64(h0->t1)) &&
	     add(o, "index_first", json_object_new_uint64(h0->index_start)) &&
	     add(o, "index_end", json_object_new_uint64(h0->index_end)) &&
	     add(o, "columns", json_object_new_uint64(h0->cols)) &&
	     add(o, "rows", json_object_new_uint64(h0->rows));
	cells = ok ? json_object_new_object() : NULL;
	ok = ok && add(o, "cells", cells);
	for (i = 0; ok && i < r->nr_src; i++) {
		const struct report_heat *h = r->src[i]->heat;
		json_object *rows = json_object_new_array();

		ok = add(cells, r->src[i]->name, rows);
		for (row = 0; ok && row < h->rows; row++) {
			json_object *a = json_object_new_array();

			ok = a && !json_object_array_add(rows, a);
			for (col = 0; ok && col < h->cols; col++)
				ok = !json_object_array_add(a, json_object_new_uint64(
					h->cell[(size_t)row * h->cols + col][r->sort]));
		}
	}
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* @o[@key] = @v, which may be JSON's null (a NULL @v with @s NULL) */
static bool add_opt(json_object *o, const char *key, const char *s)
{
	json_object *v = str_or_null(s);

	return (v || !s) && !json_object_object_add(o, key, v);
}

/*
 * A row's frames, innermost first, as the trace named them; [] for the
 * bracketed keys; with --children the one frame that names the function.
 */
static json_object *frames_json(const struct rowref *row)
{
	size_t n = report_stacks_nr_frames(row->stacks, row->stack), i;
	json_object *a = json_object_new_array();
	char label[RF_MAX_STRING + 32];
	bool ok = a != NULL;

	for (i = 0; ok && i < n; i++) {
		const struct report_frame *fr = report_stacks_frame(row->stacks, row->stack, row->frame + i);
		json_object *o = json_object_new_object();

		if (!o || json_object_array_add(a, o)) {
			json_object_put(o);
			ok = false;
			break;
		}
		report_frame_label(fr, label, sizeof(label));
		ok = add(o, "name", json_object_new_string(label)) &&
		     add_opt(o, "symbol", fr->symbol) && add_opt(o, "dso", fr->dso) &&
		     add(o, "addr", json_object_new_uint64(fr->addr)) &&
		     add_opt(o, "file", fr->file) &&
		     add(o, "line", json_object_new_uint64(fr->line));
	}
	if (!ok) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

static json_object *to_json(const struct rf_report *r)
{
	json_object *o = json_object_new_object(), *a, *row, *tot, *un;
	uint64_t counted;
	size_t i, s;
	bool ok;

	if (!o)
		return NULL;
	ok = add(o, "trace", json_object_new_string(r->trace)) &&
	     add(o, "by", json_object_new_string(rf_report_by_name(r->by))) &&
	     add(o, "sort", json_object_new_string(rf_report_metric_name(r->sort)));
	if (ok && r->children)
		ok = add(o, "children", json_object_new_boolean(1));
	a = ok ? json_object_new_array() : NULL;
	ok = ok && add(o, "sources", a);
	for (s = 0; ok && s < r->nr_src; s++)
		ok = !json_object_array_add(a, json_object_new_string(r->src[s]->name));
	if (ok && rf_report_kernel_counted(r, &counted)) {
		json_object *k = json_object_new_object();

		ok = add(o, "kernel_counted", k) &&
		     add(k, "workingset_refault_file", json_object_new_uint64(counted));
	}
	tot = ok ? json_object_new_object() : NULL;
	un = ok && add(o, "totals", tot) ? json_object_new_object() : NULL;
	ok = ok && add(o, "unattributed", un);
	for (s = 0; ok && s < r->nr_src; s++)
		ok = add(tot, r->src[s]->name, counts(r->src[s]->total)) &&
		     add(un, r->src[s]->name, counts(r->src[s]->unattributed));
	a = ok ? json_object_new_array() : NULL;
	ok = ok && add(o, "rows", a);
	for (i = 0; ok && i < r->nr_rows; i++) {
		row = json_object_new_object();
		ok = row && !json_object_array_add(a, row) &&
		     add(row, "key", json_object_new_string(r->order[i].key));
		if (ok && report_by_stack(r->by))
			ok = add(row, "frames", frames_json(&r->order[i]));
		for (s = 0; ok && s < r->nr_src; s++)
			ok = add(row, r->src[s]->name, counts(r->order[i].v[s]));
		if (ok && r->children) {
			json_object *self = json_object_new_object();

			ok = add(row, "self", self);
			for (s = 0; ok && s < r->nr_src; s++)
				ok = add(self, r->src[s]->name, counts(r->order[i].self[s]));
		}
	}
	if (ok && r->heat_key)
		ok = add(o, "heatmap", heat_json(r));
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int rf_report_print_json(const struct rf_report *r, FILE *f)
{
	json_object *o = to_json(r);
	int rc;

	if (!o)
		return RF_ERR_NOMEM;
	rc = rf_utf8_json_write(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE), f);
	if (!rc)
		rc = fputc('\n', f) == EOF ? -1 : 0;
	json_object_put(o);
	return rc;
}
