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
#include "lib/units.h"

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

	for (i = 0; i < n; i++)
		fprintf(out, "[%c] %s%s%s%s\n", marker(i), sides[i].label, *what ? " " : "", what,
			i ? "" : " (base)");
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

int rf_compare_plot_variants(FILE *out, const struct rf_compare_report *rep, const char *metric)
{
	const struct rf_compare_row *row = rf_compare_report_row(rep, metric);
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
	const struct rf_compare_series *ser = rf_compare_side_series(s, name);
	char buf[256];
	size_t i;

	if (!ser) {
		snprintf(buf, sizeof(buf), "vmstat.%s", name);
		ser = rf_compare_side_series(s, buf);
	}
	for (i = 0; !ser && i < s->nalias; i++)
		if (!strcmp(s->alias[i].kernel_name, name) ||
		    !strcmp(s->alias[i].kernel_name, buf))
			ser = rf_compare_side_series(s, s->alias[i].name);
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

int rf_compare_plot_time(FILE *out, const struct rf_compare_side *sides, size_t nsides,
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

/* A side's label without "WORKLOAD/" and without ",KEY=VALUE", and that VALUE. */
static bool split_label(const char *label, const char *key, char *ident, size_t len,
			char *value, size_t vlen)
{
	const char *s = label, *comma = strchr(label, ','), *slash = strchr(label, '/');
	size_t klen = strlen(key), used = 0;
	bool found = false;

	if (slash && (!comma || slash < comma))
		s = slash + 1;		/* a sweep's workload */
	ident[0] = value[0] = '\0';
	while (*s) {
		size_t n = strcspn(s, ",");

		if (n > klen && !strncmp(s, key, klen) && s[klen] == '=' && !found) {
			snprintf(value, vlen, "%.*s", (int)(n - klen - 1), s + klen + 1);
			found = true;
		} else if (used + n + 2 < len) {
			used += (size_t)snprintf(ident + used, len - used, "%s%.*s", used ? "," : "",
						 (int)n, s);
		}
		s += n + (s[n] == ',');
	}
	return found;
}

static double axis_number(const char *v)
{
	uint64_t n;

	return rf_parse_size(v, &n) ? NAN : (double)n;
}

int rf_compare_plot_axis(FILE *out, const struct rf_compare_report *rep, const char *metric,
			 const char *key, char *err, size_t errlen)
{
	const struct rf_compare_row *row = rf_compare_report_row(rep, metric);
	size_t n = rep->nsides, i, j, nv = 0, ni = 0;
	char (*ident)[256] = calloc(n, sizeof(*ident)), (*val)[64] = calloc(n, sizeof(*val));
	size_t *vrank = calloc(n, sizeof(*vrank)), *irank = calloc(n, sizeof(*irank));
	size_t *order = calloc(n, sizeof(*order));
	double ymin = INFINITY, ymax = -INFINITY;
	char title[256], ticks[WIDTH + 1];
	struct canvas c;
	int ret = 0;

	if (!row || !ident || !val || !vrank || !irank || !order) {
		ret = row ? RF_ERR_NOMEM : RF_ERR_INVAL;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!split_label(rep->sides[i].label, key, ident[i], sizeof(ident[i]), val[i],
				 sizeof(val[i]))) {
			rf_compare_seterr(err, errlen, "--over %s: column %s sets no %s (a sweep's "
					  "axes are its settings that take several values)", key,
					  rep->sides[i].label, key);
			ret = RF_ERR_INVAL;
			goto out;
		}
	/* the axis: the distinct values, by size when they are sizes or numbers */
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(val[order[j]], val[i]); j++)
			;
		if (j < i)
			continue;
		order[nv++] = i;
	}
	for (i = 1; i < nv; i++)
		for (j = i; j > 0; j--) {
			double a = axis_number(val[order[j - 1]]), b = axis_number(val[order[j]]);
			bool swap = isnan(a) || isnan(b) ? strcmp(val[order[j - 1]], val[order[j]]) > 0 :
				    a > b;
			size_t t;

			if (!swap)
				break;
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		for (j = 0; strcmp(val[order[j]], val[i]); j++)
			;
		vrank[i] = j;
		for (j = 0; j < i && strcmp(ident[j], ident[i]); j++)
			;
		irank[i] = j < i ? irank[j] : ni++;
		ymin = fmin(ymin, row->cell[i].mean);
		ymax = fmax(ymax, row->cell[i].mean);
	}
	canvas_init(&c, ymin, ymax, -0.5, (double)nv - 0.5);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (irank[j] == irank[i] && vrank[j] == vrank[i] + 1)
				line(&c, (double)vrank[i], row->cell[i].mean, (double)vrank[j],
				     row->cell[j].mean);
	for (i = 0; i < n; i++)
		put(&c, (double)vrank[i], row->cell[i].mean, marker(irank[i]));
	sanitize(title, sizeof(title), metric);
	print_canvas(out, &c, title);
	memset(ticks, ' ', WIDTH);
	ticks[WIDTH] = '\0';
	for (i = 0; i < nv; i++) {
		size_t at = LEFT + (size_t)col_of(&c, (double)i), len = strlen(val[order[i]]);

		at = at >= len / 2 ? at - len / 2 : 0;
		if (at + len <= WIDTH)
			memcpy(ticks + at, val[order[i]], len);
	}
	for (i = WIDTH; i > 0 && ticks[i - 1] == ' '; i--)
		ticks[i - 1] = '\0';
	fprintf(out, "%s  (%s)\n", ticks, key);
	for (i = 0; i < ni; i++)
		for (j = 0; j < n; j++)
			if (irank[j] == i) {
				fprintf(out, "[%c] %s%s\n", marker(i), ident[j], i ? "" : " (base)");
				break;
			}
	fprintf(out, "\n");
	ret = ferror(out) ? RF_ERR_IO : 0;
out:
	free(ident);
	free(val);
	free(vrank);
	free(irank);
	free(order);
	return ret;
}
