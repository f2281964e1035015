/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ASCII plots in the spirit of the LKP robot's bisect plots (gnuplot's dumb
 * terminal, 80x20): the title on top, y ticks on the left, one marker per
 * sample; the base is '+', the variants 'O', '*', 'x', ...
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/term.h"

#define WIDTH		80
#define HEIGHT		16		/* rows inside the frame */
#define LEFT		11		/* y tick labels and the frame's left edge */
#define PLOT_W		(WIDTH - LEFT - 2)

static const char markers[] = "+O*x#@%&";

struct canvas {
	char cell[HEIGHT][PLOT_W];
	double ymin, ymax;
	double xmin, xmax;
};

static char marker(size_t side)
{
	return markers[side % (sizeof(markers) - 1)];
}

static void canvas_init(struct canvas *c, double ymin, double ymax, double xmin, double xmax)
{
	memset(c->cell, ' ', sizeof(c->cell));
	if (ymin == ymax) {
		double pad = ymin ? fabs(ymin) * 0.05 : 1;

		ymin -= pad;
		ymax += pad;
	}
	c->ymin = ymin;
	c->ymax = ymax;
	c->xmin = xmin;
	c->xmax = xmax > xmin ? xmax : xmin + 1;
}

/* @f of [0, @n - 1], rounded; NaN and values past either end clamped before any conversion. */
static int cell_of(double f, int n)
{
	if (!(f > 0))
		return 0;
	return f >= n - 1 ? n - 1 : (int)lround(f);
}

static int row_of(const struct canvas *c, double y)
{
	return cell_of((c->ymax - y) / (c->ymax - c->ymin) * (HEIGHT - 1), HEIGHT);
}

static int col_of(const struct canvas *c, double x)
{
	return cell_of((x - c->xmin) / (c->xmax - c->xmin) * (PLOT_W - 1), PLOT_W);
}

static void put(struct canvas *c, double x, double y, char ch)
{
	c->cell[row_of(c, y)][col_of(c, x)] = ch;
}

/* A dotted line between two points, under the markers (gnuplot's linespoints). */
static void line(struct canvas *c, double x0, double y0, double x1, double y1)
{
	int k, k0 = col_of(c, x0), k1 = col_of(c, x1);

	for (k = k0 + 1; k < k1; k++) {
		double y = y0 + (y1 - y0) * (k - k0) / (double)(k1 - k0);
		char *cell = &c->cell[row_of(c, y)][k];

		if (*cell == ' ')
			*cell = '.';
	}
}

static void print_frame_row(FILE *out, const struct canvas *c, int r, bool border)
{
	bool tick = r % 4 == 0 || r == HEIGHT - 1;
	double y = c->ymax - (c->ymax - c->ymin) * r / (HEIGHT - 1);

	if (tick)
		fprintf(out, "%*.4g ", LEFT - 2, y);
	else
		fprintf(out, "%*s", LEFT - 1, "");
	if (border) {
		fprintf(out, "+");
		for (int k = 0; k < PLOT_W; k++)
			fputc('-', out);
		fprintf(out, "+\n");
		return;
	}
	fprintf(out, "%c%.*s|\n", tick ? '+' : '|', PLOT_W, c->cell[r]);
}

static void print_canvas(FILE *out, const struct canvas *c, const char *title)
{
	int r, pad = (WIDTH - (int)strlen(title)) / 2;

	fprintf(out, "%*s%s\n\n", pad > 0 ? pad : 0, "", title);
	fprintf(out, "%*s+", LEFT - 1, "");
	for (r = 0; r < PLOT_W; r++)
		fputc('-', out);
	fprintf(out, "+\n");
	for (r = 0; r < HEIGHT; r++)
		print_frame_row(out, c, r, false);
	fprintf(out, "%*s+", LEFT - 1, "");
	for (r = 0; r < PLOT_W; r++)
		fputc('-', out);
	fprintf(out, "+\n");
}

static void legend(FILE *out, const struct rf_compare_side *sides, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(out, "[%c] ", marker(i));
		compare_term_field(out, sides[i].label, 0, 0);
		fprintf(out, "%s%s%s\n", *what ? " " : "", what, i ? "" : " (base)");
	}
}

/* The title as LKP sanitizes it: characters outside [a-zA-Z0-9_.:+=-] become '_'. */
static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = strchr("_.:+=-", src[i]) || (src[i] >= 'a' && src[i] <= 'z') ||
			 (src[i] >= 'A' && src[i] <= 'Z') || (src[i] >= '0' && src[i] <= '9') ?
			 src[i] : '_';
	dst[i] = 0;
}

int compare_plot_variants(FILE *out, const struct rf_compare_report *rep, const char *metric)
{
	const struct rf_compare_row *row = compare_report_row(rep, metric);
	double ymin = INFINITY, ymax = -INFINITY;
	struct canvas c;
	char title[256];
	size_t i, j;

	if (!row)
		return RF_ERR_INVAL;
	for (i = 0; i < rep->nsides; i++)
		for (j = 0; j < row->cell[i].n; j++) {
			ymin = fmin(ymin, row->cell[i].samples[j]);
			ymax = fmax(ymax, row->cell[i].samples[j]);
		}
	canvas_init(&c, ymin, ymax, 0, (double)rep->nsides);
	/* Each column gets an equal slice of the x axis; its samples spread across it. */
	for (i = 0; i < rep->nsides; i++) {
		const struct rf_compare_cell *cell = &row->cell[i];

		for (j = 0; j < cell->n; j++) {
			double x = (double)i + ((double)j + 0.5) / (double)cell->n;

			if (j && !i)
				line(&c, (double)i + (j - 0.5) / (double)cell->n,
				     cell->samples[j - 1], x, cell->samples[j]);
			put(&c, x, cell->samples[j], marker(i));
		}
	}
	sanitize(title, sizeof(title), metric);
	print_canvas(out, &c, title);
	legend(out, rep->sides, rep->nsides, "sample");
	fprintf(out, "\n");
	return ferror(out) ? RF_ERR_IO : 0;
}

/* A series by its name, or its profile's kernel name (an alias), or with "vmstat." added. */
static const struct rf_compare_series *find_series(const struct rf_compare_side *s,
						   const char *name)
{
	const struct rf_compare_series *ser = compare_side_series(s, name);
	char buf[256];
	size_t i;

	if (!ser) {
		snprintf(buf, sizeof(buf), "vmstat.%s", name);
		ser = compare_side_series(s, buf);
	}
	for (i = 0; !ser && i < s->nalias; i++)
		if (!strcmp(s->alias[i].kernel_name, name) ||
		    !strcmp(s->alias[i].kernel_name, buf))
			ser = compare_side_series(s, s->alias[i].name);
	return ser;
}

/*
 * "no time series NAME in SIDE (did you mean: A B)": the series whose names hold NAME, else all of
 * them; whole names only, and how many more when they do not fit.
 */
static void list_series(const struct rf_compare_side *s, char *err, size_t len, const char *name)
{
	size_t i, used, matching = 0, left = 0;
	const char *n;

	for (i = 0; i < s->tl.nseries; i++)
		matching += strstr(s->tl.series[i].name, name) != NULL;
	used = (size_t)snprintf(err, len, "no time series '%s' in %s (%s:", name, s->spec,
				matching ? "did you mean" : "it has");
	for (i = 0; i < s->tl.nseries && used < len; i++) {
		n = s->tl.series[i].name;
		if (matching && !strstr(n, name))
			continue;
		if (left || used + strlen(n) + 24 >= len) {
			left++;
			continue;
		}
		used += (size_t)snprintf(err + used, len - used, " %s", n);
	}
	if (used < len && left)
		used += (size_t)snprintf(err + used, len - used, " ... and %zu more", left);
	if (used < len)
		snprintf(err + used, len - used, "%s)", s->tl.nseries ? "" : " none");
}

int compare_plot_time(FILE *out, const struct rf_compare_side *sides, size_t nsides,
		      const char *series, char *err, size_t errlen)
{
	double ymin = INFINITY, ymax = -INFINITY, xmax = 0;
	const struct rf_compare_series *ser = NULL;
	struct canvas c;
	char title[256];
	size_t i, j;

	for (i = 0; i < nsides; i++) {
		ser = find_series(&sides[i], series);
		if (!ser) {
			list_series(&sides[i], err, errlen, series);
			return RF_ERR_INVAL;
		}
		for (j = 0; j < ser->n; j++) {
			ymin = fmin(ymin, ser->v[j]);
			ymax = fmax(ymax, ser->v[j]);
			xmax = fmax(xmax, sides[i].tl.t_s[j]);
		}
	}
	if (ymin > ymax)
		ymin = ymax = 0;
	canvas_init(&c, ymin, ymax, 0, xmax);
	for (i = nsides; i-- > 0;) {	/* the base last, on top */
		ser = find_series(&sides[i], series);
		for (j = 0; j + 1 < ser->n; j++)
			line(&c, sides[i].tl.t_s[j], ser->v[j], sides[i].tl.t_s[j + 1], ser->v[j + 1]);
		for (j = 0; j < ser->n; j++)
			put(&c, sides[i].tl.t_s[j], ser->v[j], marker(i));
	}
	sanitize(title, sizeof(title), ser ? ser->name : series);
	print_canvas(out, &c, title);
	fprintf(out, "%*s0%*s%.4gs (trace time)\n", LEFT, "", PLOT_W - 18, "", xmax);
	legend(out, sides, nsides, "");
	fprintf(out, "\n");
	return ferror(out) ? RF_ERR_IO : 0;
}

static void draw_lines(struct canvas *c, struct rf_compare_axis *ax,
		       const struct rf_compare_row *row)
{
	struct rf_compare_axis_point **by = ax->by;
	size_t i = 0, j, k, a, b, n = ax->n;

	compare_axis_sort(ax, RF_AXIS_BY_LINE);
	/* each run of one line and one value to the next value's: A[0] to all of B, all of A to B[0] */
	while (i < n) {
		for (j = i; j < n && by[j]->lrank == by[i]->lrank && by[j]->vrank == by[i]->vrank; j++)
			;
		if (j == n || by[j]->lrank != by[i]->lrank || by[j]->vrank != by[i]->vrank + 1) {
			i = j;
			continue;
		}
		for (k = j; k < n && by[k]->lrank == by[j]->lrank && by[k]->vrank == by[j]->vrank; k++) {
			a = by[i]->side;
			b = by[k]->side;
			line(c, (double)by[i]->vrank, row->cell[a].mean, (double)by[j]->vrank,
			     row->cell[b].mean);
		}
		for (k = i + 1; k < j; k++) {
			a = by[k]->side;
			b = by[j]->side;
			line(c, (double)by[i]->vrank, row->cell[a].mean, (double)by[j]->vrank,
			     row->cell[b].mean);
		}
		i = j;
	}
}

/* The values under the axis, each centred on its place, left out where the one before is. */
static void print_ticks(FILE *out, const struct canvas *c, struct rf_compare_axis *ax,
			const char *key)
{
	struct rf_compare_axis_point **by = ax->by;
	size_t i, cur = 0, at, w;

	compare_axis_sort(ax, RF_AXIS_BY_VALUE);
	for (i = 0; i < ax->n; i++) {
		if (i && by[i]->vrank == by[i - 1]->vrank)
			continue;
		w = rf_term_width(by[i]->value);
		at = LEFT + (size_t)col_of(c, (double)by[i]->vrank);
		at = at >= w / 2 ? at - w / 2 : 0;
		if (at < cur + (cur > 0) || at + w > WIDTH)
			continue;	/* on the one before, or touching it */
		fprintf(out, "%*s", (int)(at - cur), "");
		compare_term_field(out, by[i]->value, 0, 0);
		cur = at + w;
	}
	fprintf(out, "  (");
	compare_term_field(out, key, 0, 0);
	fprintf(out, ")\n");
}

int compare_plot_axis(FILE *out, const struct rf_compare_report *rep, const char *metric,
		      const char *key, char *err, size_t errlen)
{
	const struct rf_compare_row *row = compare_report_row(rep, metric);
	double ymin = INFINITY, ymax = -INFINITY;
	struct rf_compare_axis ax;
	char title[256];
	struct canvas c;
	size_t i;
	int ret;

	if (!row)
		return RF_ERR_INVAL;
	ret = compare_axis_make(&ax, rep, key, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < ax.n; i++) {
		ymin = fmin(ymin, row->cell[i].mean);
		ymax = fmax(ymax, row->cell[i].mean);
	}
	canvas_init(&c, ymin, ymax, -0.5, (double)ax.nvalues - 0.5);
	draw_lines(&c, &ax, row);
	for (i = 0; i < ax.n; i++)
		put(&c, (double)ax.p[i].vrank, row->cell[i].mean, marker(ax.p[i].lrank));
	sanitize(title, sizeof(title), metric);
	print_canvas(out, &c, title);
	print_ticks(out, &c, &ax, key);
	for (i = 0; i < ax.nlines; i++) {
		fprintf(out, "[%c] ", marker(i));
		compare_term_field(out, ax.p[ax.line_first[i]].line, 0, 0);
		fprintf(out, "%s\n", i ? "" : " (base)");
	}
	fprintf(out, "\n");
	compare_axis_release(&ax);
	return ferror(out) ? RF_ERR_IO : 0;
}
