/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One key's decisions as a grid over time (across) and page index (down),
 * as damo's heatmaps draw DAMON's accesses: a decision lands in the cell of
 * its time and of its folio's first page.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report-local.h"

struct rp_heat *rp_heat_new(const struct rp_heat *proto)
{
	struct rp_heat *h = malloc(sizeof(*h));

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

void rp_heat_add(struct rp_heat *h, uint64_t time, uint64_t index, enum rf_report_metric metric,
		 uint64_t nr)
{
	unsigned int col, row;

	if (time < h->t0 || time > h->t1 || index >= h->index_end)
		return;		/* outside what the first pass saw: cannot happen, bounded all the same */
	col = bin(time, h->t0, h->t1, h->cols);
	row = bin(index, 0, h->index_end - 1, h->rows);
	h->cell[(size_t)row * h->cols + col][metric] += nr;
}

uint64_t rp_heat_busiest(const struct rf_report *r)
{
	uint64_t max = 0;
	size_t i, c;

	for (i = 0; i < r->nr_src; i++) {
		const struct rp_heat *h = r->src[i]->heat;

		for (c = 0; h && c < (size_t)h->rows * h->cols; c++)
			if (h->cell[c][r->sort] > max)
				max = h->cell[c][r->sort];
	}
	return max;
}

void rp_heat_free(struct rp_heat *h)
{
	if (!h)
		return;
	free(h->cell);
	free(h);
}
