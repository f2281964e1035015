/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table's content: one row per metric (the union over all sides), each
 * with the mean, stddev, %change and LKP verdict per side against the
 * first side, in LKP's row order (Compare.sort_stats).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

static void fill_cell(struct rf_compare_cell *c, const struct rf_compare_side *side,
		      const struct rf_compare_metric *m, const double *zeros)
{
	c->present = m != NULL;
	c->n = side->runs;
	c->samples = m ? m->v : zeros;
	c->mean = rf_compare_mean(c->samples, c->n);
	c->stddev = rf_compare_stddev(c->samples, c->n);
}

/* calc_perf_change(): against the first column; a zero base becomes 1e-100. */
static double change_of(double mean, double base, bool absolute)
{
	if (absolute)
		return mean - base;
	if (base == 0)
		base = 1e-100;
	return 100.0 * (mean - base) / base;
}

static int build_row(struct rf_compare_row *row, const char *name, struct rf_compare_side *sides,
		     size_t nsides, size_t max_runs, bool all)
{
	const struct rf_compare_metric *base = rf_compare_side_find(&sides[0], name);
	size_t i;
	int ret = 0;

	row->name = name;
	row->function_stat = rf_compare_is_function_stat(name);
	row->absolute = rf_compare_is_absolute_change(name);
	row->cell = calloc(nsides, sizeof(*row->cell));
	row->zeros = calloc(max_runs + 1, sizeof(*row->zeros));
	if (!row->cell || !row->zeros)
		return RF_ERR_NOMEM;
	for (i = 0; i < nsides; i++) {
		const struct rf_compare_metric *m = rf_compare_side_find(&sides[i], name);
		struct rf_compare_cell *c = &row->cell[i];

		fill_cell(c, &sides[i], m, row->zeros);
		c->change = change_of(c->mean, row->cell[0].mean, row->absolute);
		if (!i)
			continue;
		if (!base) {
			c->verdict.why = "not in the base";	/* LKP: a newly added monitor */
			continue;
		}
		ret = rf_compare_judge(name, row->cell[0].samples, row->cell[0].n, base->exact,
				       c->samples, c->n, m && m->exact, &c->verdict);
		if (ret)
			return ret;
		row->shown |= c->verdict.changed;
	}
	row->shown |= all;
	return 0;
}

/* The sorted union of every side's metric names. */
static int union_names(struct rf_compare_side *sides, size_t nsides, const char ***out, size_t *n)
{
	size_t i, j, total = 0;
	const char **names;

	for (i = 0; i < nsides; i++)
		total += sides[i].nm;
	names = calloc(total + 1, sizeof(*names));
	if (!names)
		return RF_ERR_NOMEM;
	*n = 0;
	for (i = 0; i < nsides; i++)
		for (j = 0; j < sides[i].nm; j++) {
			bool seen = false;
			size_t k;

			for (k = 0; k < i && !seen; k++)
				seen = rf_compare_side_find(&sides[k], sides[i].m[j].name) != NULL;
			if (!seen)
				names[(*n)++] = sides[i].m[j].name;
		}
	*out = names;
	return 0;
}

static size_t group_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

static bool same_group(const char *a, const char *b)
{
	size_t n = group_len(a);

	return n == group_len(b) && !strncmp(a, b, n);
}

/*
 * sort_stats(): a group ranks by how many of its shown stats there are
 * (fewest first), failure groups before all, the test's own group at 0.
 */
static void rank_groups(struct rf_compare_report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nrows; i++) {
		struct rf_compare_row *r = &rep->rows[i];
		char group[128];
		size_t g = group_len(r->name);
		int count = r->function_stat ? -10000 : 0;

		for (j = 0; j < rep->nrows; j++)
			if (rep->rows[j].shown && same_group(r->name, rep->rows[j].name))
				count++;
		snprintf(group, sizeof(group), "%.*s", (int)g, r->name);
		if (rf_compare_is_test_group(group) && count > 0)
			count = 0;
		r->group_rank = count;
	}
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct rf_compare_row *a = pa, *b = pb;

	if (a->group_rank != b->group_rank)
		return a->group_rank < b->group_rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bool any_kernel_side(const struct rf_compare_side *sides, size_t nsides)
{
	size_t i;

	for (i = 0; i < nsides; i++)
		if (sides[i].kernel)
			return true;
	return false;
}

/*
 * Against the kernel's numbers, a metric one side lacks is not a 0 (LKP's
 * rule for runs of one kind): the kernel has no cost.* and the model no
 * memory.stat limits.  Keep the quantities both have.
 */
static void keep_common_rows(struct rf_compare_report *rep)
{
	size_t i, j, kept = 0;

	for (i = 0; i < rep->nrows; i++) {
		struct rf_compare_row *r = &rep->rows[i];
		bool common = true;

		for (j = 0; j < rep->nsides; j++)
			common = common && r->cell[j].present;
		if (!common) {
			rep->nshown -= r->shown;
			free(r->cell);
			free(r->zeros);
			continue;
		}
		rep->rows[kept++] = *r;
	}
	rep->nrows = kept;
	rep->missing = 0;
}

int rf_compare_report_build(struct rf_compare_report *rep, struct rf_compare_side *sides,
			    size_t nsides, bool all, char *err, size_t errlen)
{
	const char **names = NULL;
	size_t i, j, n = 0, max_runs = 0;
	int ret;

	memset(rep, 0, sizeof(*rep));
	rep->sides = sides;
	rep->nsides = nsides;
	for (i = 0; i < nsides; i++)
		max_runs = sides[i].runs > max_runs ? sides[i].runs : max_runs;
	ret = union_names(sides, nsides, &names, &n);
	rep->rows = ret ? NULL : calloc(n + 1, sizeof(*rep->rows));
	if (!rep->rows) {
		free(names);
		rf_compare_seterr(err, errlen, "out of memory");
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = build_row(&rep->rows[i], names[i], sides, nsides, max_runs, all);
		rep->nrows++;
		for (j = 0; j < nsides && !ret; j++)
			if (!rep->rows[i].cell[j].present) {
				rep->missing++;
				break;
			}
		rep->nshown += rep->rows[i].shown;
	}
	free(names);
	if (ret) {
		rf_compare_seterr(err, errlen, "%s", rf_strerror(ret));
		return ret;
	}
	if (any_kernel_side(sides, nsides))
		keep_common_rows(rep);
	rank_groups(rep);
	qsort(rep->rows, rep->nrows, sizeof(*rep->rows), row_cmp);
	return 0;
}

void rf_compare_report_release(struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nrows; i++) {
		free(rep->rows[i].cell);
		free(rep->rows[i].zeros);
	}
	free(rep->rows);
	memset(rep, 0, sizeof(*rep));
}

const struct rf_compare_row *rf_compare_report_row(const struct rf_compare_report *rep,
						   const char *name)
{
	size_t i;

	for (i = 0; i < rep->nrows; i++)
		if (!strcmp(rep->rows[i].name, name))
			return &rep->rows[i];
	return NULL;
}
