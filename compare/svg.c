/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One SVG line chart of the HTML report: axes with round tick values
 * (1, 2 or 5 times a power of ten) in readable units (12k pages, 250 ms),
 * one line per series, each with a colour and a dash pattern of its own so
 * that two identical series (v4.6 and v4.6+55779ec deciding alike) both stay
 * visible, the later drawn thinner over the earlier.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/html.h"

#define CW	560.0		/* chart width */
#define CH	240.0		/* chart height */
#define ML	56.0		/* margins: left, right, top, bottom */
#define MR	12.0
#define MT	28.0
#define MB	34.0
#define PW	(CW - ML - MR)	/* plot area */
#define PH	(CH - MT - MB)

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};
static const char *const dashes[] = { "", "7 3", "2 3", "9 3 2 3", "4 4", "1 2" };

static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* 12000 -> "12k", 2500000 -> "2.5M", 0.25 -> "0.25" */
static void si(char *buf, size_t len, double v)
{
	static const struct {
		double div;
		const char *sfx;
	} units[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (fabs(v) >= units[i].div) {
			snprintf(buf, len, "%.4g%s", v / units[i].div, units[i].sfx);
			return;
		}
	snprintf(buf, len, "%.4g", v);
}

/* Trace time: the unit that makes the largest tick a number a person reads. */
static double time_unit(double xmax, const char **name)
{
	if (xmax < 1e-3) {
		*name = "\xc2\xb5s";
		return 1e6;
	}
	if (xmax < 1) {
		*name = "ms";
		return 1e3;
	}
	*name = "s";
	return 1;
}

#define MAX_TICKS	16
#define HEADROOM	0.05

/* A point with a place on the chart (a file may hold NaN and infinities). */
static bool drawable(const struct rf_compare_line *l, size_t j)
{
	return isfinite(l->x[j]) && isfinite(l->y[j]);
}

static void bounds(const struct rf_compare_line *l, size_t n, double *xmax, double *ymin,
		   double *ymax)
{
	size_t i, j;

	*xmax = 0;
	*ymin = 0;
	*ymax = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < l[i].n; j++) {
			if (!drawable(&l[i], j))
				continue;
			*xmax = fmax(*xmax, l[i].x[j]);
			*ymin = fmin(*ymin, l[i].y[j]);
			*ymax = fmax(*ymax, l[i].y[j]);
		}
	if (!(*ymax > *ymin))
		*ymax = *ymin + 1;
	else	/* room above the highest point: a line along the top stays off the frame */
		*ymax += (*ymax - *ymin) * HEADROOM;
	if (!(*xmax > 0))
		*xmax = 1;
}

/* The frame, and round ticks up the y axis with a grid line each. */
static void y_axis(FILE *out, double ymin, double ymax, const char *unit)
{
	double step = nice_step(ymax - ymin, 4), v;
	char buf[32];
	int i;

	fprintf(out, "<rect class=\"frame\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/>\n",
		ML, MT, PW, PH);
	/* a few ticks; at most MAX_TICKS where a step is below the values' precision (1e18 + 256) */
	for (i = 0, v = ceil(ymin / step) * step; v <= ymax + step * 1e-9 && i < MAX_TICKS;
	     v += step, i++) {
		double y = MT + PH * (ymax - v) / (ymax - ymin);

		si(buf, sizeof(buf), fabs(v) < step * 1e-9 ? 0 : v);
		fprintf(out, "<line class=\"grid\" x1=\"%g\" x2=\"%g\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tick\" x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			ML, CW - MR, y, y, ML - 4, y + 3.5, buf);
	}
	fprintf(out, "<text class=\"unit\" x=\"4\" y=\"%g\">", MT - 10);
	rf_html_escape_str(out, unit);
	fprintf(out, "</text>\n");
}

static void axes(FILE *out, double xmax, double ymin, double ymax, const char *unit)
{
	double v, tu, tstep;
	const char *tname;
	char buf[32];
	int i;

	y_axis(out, ymin, ymax, unit);
	tu = time_unit(xmax, &tname);
	tstep = nice_step(xmax * tu, 5);
	for (i = 0, v = 0; v <= xmax * tu + tstep * 1e-9 && i < MAX_TICKS; v += tstep, i++) {
		double x = ML + PW * v / (xmax * tu);

		snprintf(buf, sizeof(buf), "%.4g", v);
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%g\" y2=\"%g\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n",
			x, x, MT, CH - MB, x, CH - MB + 13, buf);
	}
	fprintf(out, "<text class=\"unit\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">trace time "
		"(%s)</text>\n", ML + PW / 2, CH - 6, tname);
}

/* A line of more points than this is drawn by its pixel columns' first, lowest, highest and last. */
#define COLUMNS		((size_t)PW)
#define MAX_POINTS	(4 * COLUMNS)

static double px(double x, double xmax)
{
	return ML + PW * x / xmax;
}

static double py(double y, double ymin, double ymax)
{
	return MT + PH * (ymax - y) / (ymax - ymin);
}

static void point(FILE *out, bool *first, double x, double y, double xmax, double ymin,
		  double ymax)
{
	fprintf(out, "%c%.1f %.1f", *first ? 'M' : 'L', px(x, xmax), py(y, ymin, ymax));
	*first = false;
}

struct column {
	size_t first, last, min, max;
	bool used;
};

/*
 * The points to draw of @l, in its order, into @pick (room for MAX_POINTS):
 * all of them, or past MAX_POINTS the min/max downsampling of plotting tools
 * (M4: each pixel column's first, lowest, highest and last point, the
 * columns by their x), what a pixel column shows of them all.  @from: the
 * first point that counts (a step line's first sample starts no interval).
 */
static size_t picks(const struct rf_compare_line *l, size_t from, double xmax, size_t *pick)
{
	struct column *col;
	size_t j, c, k, n = 0, p[4];

	if (l->n - from <= MAX_POINTS) {
		for (j = from; j < l->n; j++)
			if (drawable(l, j))
				pick[n++] = j;
		return n;
	}
	col = calloc(COLUMNS, sizeof(*col));
	if (!col)
		return 0;
	for (j = from; j < l->n; j++) {
		double f = l->x[j] / xmax * (double)COLUMNS;
		struct column *cl;

		if (!drawable(l, j))
			continue;
		c = !(f > 0) ? 0 : f >= (double)COLUMNS ? COLUMNS - 1 : (size_t)f;
		cl = &col[c];
		if (!cl->used) {
			*cl = (struct column){ .first = j, .last = j, .min = j, .max = j, .used = true };
			continue;
		}
		cl->last = j;
		if (l->y[j] < l->y[cl->min])
			cl->min = j;
		if (l->y[j] > l->y[cl->max])
			cl->max = j;
	}
	for (c = 0; c < COLUMNS; c++) {
		if (!col[c].used)
			continue;
		p[0] = col[c].first;
		p[1] = col[c].min < col[c].max ? col[c].min : col[c].max;
		p[2] = col[c].min < col[c].max ? col[c].max : col[c].min;
		p[3] = col[c].last;
		for (k = 0; k < 4; k++)
			if (!k || p[k] != p[k - 1])
				pick[n++] = p[k];
	}
	free(col);
	return n;
}

static void stroke(FILE *out, size_t k, double width)
{
	fprintf(out, "stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s", colors[k % 8], width,
		*dashes[k % 6] ? " stroke-dasharray=\"" : "", dashes[k % 6],
		*dashes[k % 6] ? "\"" : "");
}

/*
 * A line: its points joined (RF_LINE_PATH); its points alone, nothing drawn
 * between them (RF_LINE_POINTS: a quantity sampled at a few instants); or a
 * flat step over each interval between two samples at the value of the
 * interval, y[j] over (x[j-1], x[j]] (RF_LINE_STEPS: a mean rate between
 * two counter snapshots).  A long line, of more points than MAX_POINTS, is
 * a path of its pixel columns' picks whatever its style: denser than the
 * pixels, joined or not it looks the same.
 */
static void path(FILE *out, const struct rf_compare_line *l, size_t k, size_t n, double xmax,
		 double ymin, double ymax)
{
	enum rf_compare_line_style style = l->style;
	size_t *pick = calloc(MAX_POINTS + 1, sizeof(*pick)), np, j, from;
	bool first = true;

	if (!pick)
		return;
	from = style == RF_LINE_STEPS ? 1 : 0;
	if (l->n > from && l->n - from > MAX_POINTS)
		style = RF_LINE_PATH;
	np = l->n > from ? picks(l, from, xmax, pick) : 0;
	if (style == RF_LINE_POINTS) {
		fprintf(out, "<g class=\"pts\" fill=\"%s\"><title>", colors[k % 8]);
		rf_html_escape_str(out, l->name);
		fprintf(out, "</title>");
		for (j = 0; j < np; j++)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>",
				px(l->x[pick[j]], xmax), py(l->y[pick[j]], ymin, ymax));
		fprintf(out, "</g>\n");
		free(pick);
		return;
	}
	/* the first drawn widest: a later identical line shows on top of it, and it around */
	fprintf(out, "<path class=\"line\" ");
	stroke(out, k, 1.2 + 1.6 * (double)(n - 1 - k) / (n > 1 ? (double)(n - 1) : 1));
	fprintf(out, " d=\"");
	for (j = 0; j < np; j++) {
		size_t i = pick[j];

		if (style != RF_LINE_STEPS) {
			point(out, &first, l->x[i], l->y[i], xmax, ymin, ymax);
			continue;
		}
		if (!isfinite(l->x[i - 1]))
			continue;
		/* from the interval's start at its value, flat to its end */
		if (first || (j && pick[j - 1] != i - 1))
			fprintf(out, "M%.1f %.1f", px(l->x[i - 1], xmax), py(l->y[i], ymin, ymax));
		else
			fprintf(out, "V%.1f", py(l->y[i], ymin, ymax));
		fprintf(out, "H%.1f", px(l->x[i], xmax));
		first = false;
	}
	fprintf(out, "\"><title>");
	rf_html_escape_str(out, l->name);
	fprintf(out, "</title></path>\n");
	free(pick);
}

static void legend_key(FILE *out, size_t k, enum rf_compare_line_style style)
{
	if (style == RF_LINE_POINTS) {
		fprintf(out, "<svg class=\"key\" width=\"26\" height=\"8\"><circle cx=\"13\" cy=\"4\" "
			"r=\"3\" fill=\"%s\"/></svg>", colors[k % 8]);
		return;
	}
	fprintf(out, "<svg class=\"key\" width=\"26\" height=\"8\"><line x1=\"0\" y1=\"4\" x2=\"26\" "
		"y2=\"4\" ");
	stroke(out, k, 2.2);
	fprintf(out, "/></svg>");
}

static void chart_start(FILE *out, const char *title)
{
	fprintf(out, "<figure><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %g %g\" role=\"img\">\n"
		"<text class=\"title\" x=\"%g\" y=\"16\" text-anchor=\"middle\">", CW, CH, CW / 2);
	rf_html_escape_str(out, title);
	fprintf(out, "</text>\n");
}

void compare_svg_chart(FILE *out, const char *title, const char *unit,
		       const struct rf_compare_line *l, size_t n)
{
	double xmax, ymin, ymax;
	size_t k;

	bounds(l, n, &xmax, &ymin, &ymax);
	chart_start(out, title);
	axes(out, xmax, ymin, ymax, unit);
	for (k = 0; k < n; k++)
		if (l[k].n)
			path(out, &l[k], k, n, xmax, ymin, ymax);
	fprintf(out, "</svg><figcaption>");
	for (k = 0; k < n; k++) {
		fprintf(out, "<span class=\"legend\">");
		legend_key(out, k, l[k].style);
		fputc(' ', out);
		rf_html_escape_str(out, l[k].name);
		if (!l[k].n)
			;
		else if (l[k].n > MAX_POINTS)
			fprintf(out, " (%zu samples: each pixel column drawn by its first, lowest, "
				"highest and last)", l[k].n);
		else if (l[k].style == RF_LINE_POINTS)
			fprintf(out, " (%zu snapshot%s: nothing drawn between)", l[k].n,
				l[k].n == 1 ? "" : "s");
		else if (l[k].style == RF_LINE_STEPS)
			fprintf(out, " (the mean rate between its %zu snapshots)", l[k].n);
		fprintf(out, "%s</span> ", l[k].n ? "" : " (none)");
	}
	fprintf(out, "</figcaption></figure>\n");
}

/*
 * Against a setting: each column a point at its value's place (a line's
 * points a little apart from the other lines' at one place), its mean over
 * the runs, with a bar from its lowest run to its highest; a line's points
 * joined along the axis.  Values' labels left out where one would touch
 * the one before.
 */
static void axis_ticks(FILE *out, const struct rf_compare_axis *ax, const char *key)
{
	double slot = PW / (double)ax->nvalues, end = 0;
	size_t i;

	for (i = 0; i < ax->n; i++) {
		const struct rf_compare_axis_point *p = ax->by[i];
		double x = ML + slot * ((double)p->vrank + 0.5), w;

		if (i && p->vrank == ax->by[i - 1]->vrank)
			continue;
		w = 7.5 * (double)strlen(p->value);	/* 11 px text: at most 7.5 px a character */
		if (x - w / 2 < end + 8 || x + w / 2 > CW)
			continue;
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%g\" y2=\"%g\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">", x, x, MT,
			CH - MB, x, CH - MB + 13);
		rf_html_escape_str(out, p->value);
		fprintf(out, "</text>\n");
		end = x + w / 2;
	}
	fprintf(out, "<text class=\"unit\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">", ML + PW / 2,
		CH - 6);
	rf_html_escape_str(out, key ? key : "column");
	fprintf(out, "</text>\n");
}

/* The lowest and highest of a cell's samples that have a place on the chart; false if none. */
static bool spread(const struct rf_compare_cell *c, double *lo, double *hi)
{
	size_t j;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (j = 0; j < c->n; j++)
		if (isfinite(c->samples[j])) {
			*lo = fmin(*lo, c->samples[j]);
			*hi = fmax(*hi, c->samples[j]);
		}
	return *lo <= *hi;
}

/* The end of an axis chart: a legend entry per line, and what a point and a bar are. */
static void axis_legend(FILE *out, const struct rf_compare_axis *ax, size_t runs)
{
	size_t k;

	fprintf(out, "</svg><figcaption>");
	for (k = 0; k < ax->nlines; k++) {
		fprintf(out, "<span class=\"legend\">");
		legend_key(out, k, RF_LINE_PATH);
		fputc(' ', out);
		rf_html_escape_str(out, *ax->p[ax->line_first[k]].line ?
				   ax->p[ax->line_first[k]].line : "the columns");
		fprintf(out, "</span> ");
	}
	fprintf(out, "<span class=\"legend\">(a point: the mean of a column's runs%s)</span>",
		runs > ax->n ? "; a bar: its lowest to its highest run" : "");
	fprintf(out, "</figcaption></figure>\n");
}

void compare_svg_axis_chart(FILE *out, const char *title, const char *unit, const char *key,
			    struct rf_compare_axis *ax, const struct rf_compare_row *row)
{
	double ymin = 0, ymax = 0, lo, hi, slot = PW / (double)(ax->nvalues ? ax->nvalues : 1);
	double dx = fmin(8, slot / (double)(ax->nlines + 1)), x, y;
	double r = fmax(1.2, fmin(3.2, slot / 4));	/* points a little apart where there are many */
	size_t i, k, runs = 0;
	bool first = true;

	for (i = 0; i < ax->n; i++)
		if (spread(&row->cell[i], &lo, &hi)) {
			ymin = fmin(ymin, lo);
			ymax = fmax(ymax, hi);
		}
	if (!(ymax > ymin))
		ymax = ymin + 1;
	else
		ymax += (ymax - ymin) * HEADROOM;
	chart_start(out, title);
	y_axis(out, ymin, ymax, unit);
	compare_axis_sort(ax, RF_AXIS_BY_VALUE);
	axis_ticks(out, ax, key);
	/* each line's means joined along the axis */
	compare_axis_sort(ax, RF_AXIS_BY_LINE);
	for (i = 0; i < ax->n; i++) {
		const struct rf_compare_axis_point *p = ax->by[i];
		const struct rf_compare_cell *c = &row->cell[p->side];

		if (!i || p->lrank != ax->by[i - 1]->lrank) {
			fprintf(out, "%s<path class=\"line\" ", i ? "\"/>\n" : "");
			stroke(out, p->lrank, 1.8);
			fprintf(out, " d=\"");
			first = true;
		}
		x = ML + slot * ((double)p->vrank + 0.5) +
		    dx * ((double)p->lrank - ((double)ax->nlines - 1) / 2);
		if (isfinite(c->mean)) {
			fprintf(out, "%c%.1f %.1f", first ? 'M' : 'L', x, py(c->mean, ymin, ymax));
			first = false;
		}
	}
	if (ax->n)
		fprintf(out, "\"/>\n");
	/* each column: its runs' bar, its mean */
	for (i = 0; i < ax->n; i++) {
		const struct rf_compare_axis_point *p = &ax->p[i];
		const struct rf_compare_cell *c = &row->cell[p->side];

		k = p->lrank;
		x = ML + slot * ((double)p->vrank + 0.5) +
		    dx * ((double)k - ((double)ax->nlines - 1) / 2);
		runs += c->n;
		fprintf(out, "<g class=\"pt\" fill=\"%s\" stroke=\"%s\"><title>", colors[k % 8],
			colors[k % 8]);
		rf_html_escape_str(out, p->line);
		fprintf(out, "%s", *p->line ? " " : "");
		rf_html_escape_str(out, p->value);
		fprintf(out, ": mean %.10g of %zu run%s", c->mean, c->n, c->n == 1 ? "" : "s");
		if (c->n > 1 && spread(c, &lo, &hi) && hi > lo)
			fprintf(out, ", %.10g to %.10g", lo, hi);
		fprintf(out, "</title>");
		if (c->n > 1 && spread(c, &lo, &hi) && hi > lo)
			fprintf(out, "<path class=\"bar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh6M%.1f %.1fh6\"/>",
				x, py(lo, ymin, ymax), py(hi, ymin, ymax), x - 3, py(lo, ymin, ymax),
				x - 3, py(hi, ymin, ymax));
		y = py(isfinite(c->mean) ? c->mean : 0, ymin, ymax);
		if (isfinite(c->mean))
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", x, y, r);
		fprintf(out, "</g>\n");
	}
	axis_legend(out, ax, runs);
}
