/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One key's decisions as a grid over time (across) and page index (down),
 * as damo's heatmaps draw DAMON's accesses: a decision lands in the cell of
 * its time and of its folio's first page.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-local.h"

struct report_heat *report_heat_new(const struct report_heat *proto)
{
	struct report_heat *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	*h = *proto;
	h->cell = calloc((size_t)h->rows * h->cols, sizeof(*h->cell));
	if (!h->cell) {
		free(h);
		return NULL;
	}
	return h;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

bool report_heat_has(const struct report_heat *h, uint64_t id)
{
	return h->nr_ids && bsearch(&id, h->ids, h->nr_ids, sizeof(id), cmp_id);
}

/* Where @v of [@lo, @hi] falls among @n bins, by the same rule for every source. */
static unsigned int bin(uint64_t v, uint64_t lo, uint64_t hi, unsigned int n)
{
	double span = (double)(hi - lo) + 1.0;
	unsigned int b;

	if (v <= lo)
		return 0;
	b = (unsigned int)((double)(v - lo) / span * n);
	return b < n ? b : n - 1;
}

void report_heat_add(struct report_heat *h, uint64_t time, uint64_t index,
		     enum rf_report_metric metric, uint64_t nr)
{
	unsigned int col, row;

	/* made before the trace's first event (the pages cached before it, --warm-cache): at it */
	if (time < h->t_origin)
		time = h->t_origin;
	/* outside the axes: another metric's decision (the grid counts the sort metric's) */
	if (time < h->t0 || time > h->t1 || index < h->index_start || index >= h->index_end)
		return;
	col = bin(time, h->t0, h->t1, h->cols);
	row = bin(index, h->index_start, h->index_end - 1, h->rows);
	h->cell[(size_t)row * h->cols + col][metric] += nr;
}

uint64_t report_heat_busiest(const struct rf_report *r)
{
	uint64_t max = 0;
	size_t i, c;

	for (i = 0; i < r->nr_src; i++) {
		const struct report_heat *h = r->src[i]->heat;

		for (c = 0; h && c < (size_t)h->rows * h->cols; c++)
			if (h->cell[c][r->sort] > max)
				max = h->cell[c][r->sort];
	}
	return max;
}

double report_tick_step(double span, unsigned int max)
{
	static const double mult[] = { 1, 2, 5 };
	double p;
	unsigned int i, k;

	if (!max)
		max = 1;
	if (!isfinite(span) || span <= 0)
		return 1;
	p = pow(10, floor(log10(span / max)));
	for (k = 0; k < 4; k++, p *= 10)
		for (i = 0; i < 3; i++)
			if (span / (mult[i] * p) <= max)
				return mult[i] * p;
	return span;
}

double report_tick(double lo, double step, unsigned int k)
{
	return (ceil(lo / step) + k) * step;
}

void report_time_label(char *buf, size_t len, double secs, double step, double top)
{
	double unit = top >= 1 ? 1 : top >= 1e-3 ? 1e-3 : top >= 1e-6 ? 1e-6 : 1e-9;
	const char *name = top >= 1 ? "s" : top >= 1e-3 ? "ms" : top >= 1e-6 ? "us" : "ns";
	double s = step / unit;
	int dec = s >= 1 || !(s > 0) ? 0 : s < 1e-6 ? 6 : (int)ceil(-log10(s) - 1e-9);

	snprintf(buf, len, "%.*f %s", dec, secs / unit, name);
}

void report_heat_free(struct report_heat *h)
{
	if (!h)
		return;
	free(h->cell);
	free(h);
}
