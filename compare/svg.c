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
	if (!(*xmax > 0))
		*xmax = 1;
}

static void axes(FILE *out, double xmax, double ymin, double ymax, const char *unit)
{
	double step = nice_step(ymax - ymin, 4), v, tu, tstep;
	const char *tname;
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
		"(%s)</text><text class=\"unit\" x=\"4\" y=\"%g\">", ML + PW / 2, CH - 6, tname,
		MT - 10);
	rf_html_escape_str(out, unit);
	fprintf(out, "</text>\n");
}

/* A line of more points than this is drawn by its pixel columns' first, lowest, highest and last. */
#define COLUMNS		((size_t)PW)
#define MAX_POINTS	(4 * COLUMNS)

static void point(FILE *out, bool *first, double x, double y, double xmax, double ymin,
		  double ymax)
{
	fprintf(out, "%c%.1f %.1f", *first ? 'M' : 'L', ML + PW * x / xmax,
		MT + PH * (ymax - y) / (ymax - ymin));
	*first = false;
}

struct column {
	size_t first, last, min, max;
	bool used;
};

/*
 * The min/max downsampling of plotting tools (M4: a column's first, lowest,
 * highest and last point, in the line's order), the columns by their x: at
 * most MAX_POINTS points, what a pixel column shows of them all.
 */
static void downsampled(FILE *out, const struct rf_compare_line *l, double xmax, double ymin,
			double ymax)
{
	struct column *col = calloc(COLUMNS, sizeof(*col));
	bool first = true;
	size_t j, c, k, pick[4];

	if (!col)
		return;
	for (j = 0; j < l->n; j++) {
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
		pick[0] = col[c].first;
		pick[1] = col[c].min < col[c].max ? col[c].min : col[c].max;
		pick[2] = col[c].min < col[c].max ? col[c].max : col[c].min;
		pick[3] = col[c].last;
		for (k = 0; k < 4; k++)
			if (!k || pick[k] != pick[k - 1])
				point(out, &first, l->x[pick[k]], l->y[pick[k]], xmax, ymin, ymax);
	}
	free(col);
}

static void path(FILE *out, const struct rf_compare_line *l, size_t k, size_t n, double xmax,
		 double ymin, double ymax)
{
	bool first = true;
	size_t j;

	/* the first drawn widest: a later identical line shows on top of it, and it around */
	fprintf(out, "<path class=\"line\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s d=\"",
		colors[k % 8], 1.2 + 1.6 * (double)(n - 1 - k) / (n > 1 ? (double)(n - 1) : 1),
		*dashes[k % 6] ? " stroke-dasharray=\"" : "", dashes[k % 6],
		*dashes[k % 6] ? "\"" : "");
	if (l->n > MAX_POINTS)
		downsampled(out, l, xmax, ymin, ymax);
	else
		for (j = 0; j < l->n; j++)
			if (drawable(l, j))
				point(out, &first, l->x[j], l->y[j], xmax, ymin, ymax);
	fprintf(out, "\"><title>");
	rf_html_escape_str(out, l->name);
	fprintf(out, "</title></path>\n");
}

static void legend_key(FILE *out, size_t k)
{
	fprintf(out, "<svg class=\"key\" width=\"26\" height=\"8\"><line x1=\"0\" y1=\"4\" x2=\"26\" "
		"y2=\"4\" stroke=\"%s\" stroke-width=\"2.2\"%s%s%s/></svg>", colors[k % 8],
		*dashes[k % 6] ? " stroke-dasharray=\"" : "", dashes[k % 6],
		*dashes[k % 6] ? "\"" : "");
}

void rf_compare_svg_chart(FILE *out, const char *title, const char *unit,
			  const struct rf_compare_line *l, size_t n)
{
	double xmax, ymin, ymax;
	size_t k;

	bounds(l, n, &xmax, &ymin, &ymax);
	fprintf(out, "<figure><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %g %g\" width=\"%g\" height=\"%g\" role=\"img\">\n"
		"<text class=\"title\" x=\"%g\" y=\"16\" text-anchor=\"middle\">", CW, CH, CW, CH,
		CW / 2);
	rf_html_escape_str(out, title);
	fprintf(out, "</text>\n");
	axes(out, xmax, ymin, ymax, unit);
	for (k = 0; k < n; k++)
		if (l[k].n)
			path(out, &l[k], k, n, xmax, ymin, ymax);
	fprintf(out, "</svg><figcaption>");
	for (k = 0; k < n; k++) {
		fprintf(out, "<span class=\"legend\">");
		legend_key(out, k);
		fputc(' ', out);
		rf_html_escape_str(out, l[k].name);
		if (l[k].n > MAX_POINTS)
			fprintf(out, " (%zu samples: each pixel column drawn by its first, lowest, "
				"highest and last)", l[k].n);
		fprintf(out, "%s</span> ", l[k].n ? "" : " (none)");
	}
	fprintf(out, "</figcaption></figure>\n");
}
