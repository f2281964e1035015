/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table's content: one row per metric (the union over all sides), each
 * with the mean, stddev, %change and LKP verdict per side against the
 * first side, in LKP's row order (Compare.sort_stats).
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

static void fill_cell(struct rf_compare_cell *c, const struct rf_compare_side *side,
		      const struct rf_compare_metric *m, const double *zeros)
{
	c->present = m != NULL;
	c->n = side->runs;
	c->samples = m ? m->v : zeros;
	c->mean = compare_mean(c->samples, c->n);
	c->stddev = compare_stddev(c->samples, c->n);
}

/*
 * calc_perf_change(): against the first column; a zero base becomes 1e-100
 * (what the cells show of it: compare_format_change()), but nothing
 * against nothing is no change (1e-100 made it -100 %).
 */
static double change_of(double mean, double base, bool absolute)
{
	if (absolute)
		return mean - base;
	if (base == 0 && mean == 0)
		return 0;
	if (base == 0)
		base = 1e-100;
	return 100.0 * (mean - base) / base;
}

static int build_row(struct rf_compare_row *row, const char *name, struct rf_compare_side *sides,
		     size_t nsides, const double *zeros, bool all)
{
	const struct rf_compare_metric *base = compare_side_find(&sides[0], name);
	size_t i;
	int ret = 0;

	row->name = name;
	row->headline = compare_headline_rank(name) >= 0;
	row->function_stat = compare_is_function_stat(name);
	row->absolute = compare_is_absolute_change(name);
	row->cell = calloc(nsides, sizeof(*row->cell));
	if (!row->cell)
		return RF_ERR_NOMEM;
	for (i = 0; i < nsides; i++) {
		const struct rf_compare_metric *m = i ? compare_side_find(&sides[i], name) : base;
		struct rf_compare_cell *c = &row->cell[i];

		fill_cell(c, &sides[i], m, zeros);
		c->change = change_of(c->mean, row->cell[0].mean, row->absolute);
		if (!i)
			continue;
		if (!base) {
			c->verdict.why = "not in the base";	/* LKP: a newly added monitor */
			continue;
		}
		ret = compare_judge(name, row->cell[0].samples, row->cell[0].n, base->exact,
				    c->samples, c->n, m && m->exact, &c->verdict);
		if (ret)
			return ret;
		row->changed |= c->verdict.changed;
		row->apparent |= c->verdict.apparent;
	}
	row->shown = row->changed || row->apparent || all;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
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
 * The rows' names, sorted: the union of every side's metrics; against the
 * kernel's numbers, where a metric one side lacks is not a 0 (LKP's rule for
 * runs of one kind: the kernel has no cost.* and the model no memory.stat
 * limits), the quantities every side has.  A sort of all the names, so
 * n log n in the metrics of all sides.
 */
static int row_names(struct rf_compare_side *sides, size_t nsides, const char ***out, size_t *n)
{
	bool common = any_kernel_side(sides, nsides);
	size_t i, j, k, total = 0, run;
	const char **names;

	for (i = 0; i < nsides; i++)
		total += sides[i].nm;
	names = calloc(total + 1, sizeof(*names));
	if (!names)
		return RF_ERR_NOMEM;
	*n = 0;
	for (i = 0; i < nsides; i++)
		for (j = 0; j < sides[i].nm; j++)	/* a name twice in a side counts once */
			if (!j || strcmp(sides[i].m[j].name, sides[i].m[j - 1].name))
				names[(*n)++] = sides[i].m[j].name;
	qsort(names, *n, sizeof(*names), name_cmp);
	for (i = 0, k = 0; i < *n; i += run) {
		for (run = 1; i + run < *n && !strcmp(names[i], names[i + run]); run++)
			;
		if (!common || run == nsides)
			names[k++] = names[i];
	}
	*n = k;
	*out = names;
	return 0;
}

/*
 * The report's cells (a row per name, a cell per side) and the samples it
 * shows (a side that lacks a metric has a 0 per run there): within
 * compare_fill_ok() of the samples the sides' files hold.
 */
static int check_fill(const struct rf_compare_side *sides, size_t nsides, size_t nrows,
		      char *err, size_t errlen)
{
	uint64_t given = 0, runs = 0, made;
	size_t i;

	for (i = 0; i < nsides; i++) {
		given += sides[i].given + sides[i].nm;
		runs += sides[i].runs;
	}
	made = compare_mul(nrows, nsides + runs);
	if (compare_fill_ok(made, given))
		return 0;
	compare_seterr(err, errlen, "%s%s%s: %zu columns (%llu runs) of %zu metrics in all: a "
		       "metric a column lacks counts as 0 there (LKP's rule), and the table would "
		       "hold %llu cells and samples from the %llu its files give, over the limit "
		       "of %d times as many (or %llu); compare columns that share their metrics "
		       "(of one trace), or fewer at a time", sides[0].spec,
		       nsides > 2 ? " ... " : " and ", sides[nsides - 1].spec, nsides,
		       (unsigned long long)runs, nrows, (unsigned long long)made,
		       (unsigned long long)given, RF_COMPARE_FILL_FACTOR,
		       (unsigned long long)RF_COMPARE_FILL_FLOOR);
	return RF_ERR_TOO_LARGE;
}

static size_t group_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

static int group_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rf_compare_row *rows = arg;
	const char *a = rows[*(const size_t *)pa].name, *b = rows[*(const size_t *)pb].name;
	size_t la = group_len(a), lb = group_len(b);
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

/*
 * sort_stats(): a group ranks by how many of its shown stats there are
 * (fewest first), failure groups before all, the test's own group at 0.
 * The rows sorted by group, each group counted once: n log n.
 */
static int rank_groups(struct rf_compare_report *rep)
{
	size_t *order = calloc(rep->nrows + 1, sizeof(*order));
	size_t i, j, k, shown;

	if (!order)
		return RF_ERR_NOMEM;
	for (i = 0; i < rep->nrows; i++)
		order[i] = i;
	qsort_r(order, rep->nrows, sizeof(*order), group_cmp, rep->rows);
	for (i = 0; i < rep->nrows; i = j) {
		const char *name = rep->rows[order[i]].name;
		char group[128];

		shown = 0;
		for (j = i; j < rep->nrows && !group_cmp(&order[i], &order[j], rep->rows); j++)
			shown += rep->rows[order[j]].shown;
		snprintf(group, sizeof(group), "%.*s", (int)group_len(name), name);
		for (k = i; k < j; k++) {
			struct rf_compare_row *r = &rep->rows[order[k]];
			int count = (r->function_stat ? -10000 : 0) +
				    (int)(shown < INT_MAX / 2 ? shown : INT_MAX / 2);

			if (compare_is_test_group(group) && count > 0)
				count = 0;
			r->group_rank = count;
		}
	}
	free(order);
	return 0;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct rf_compare_row *a = pa, *b = pb;

	if (a->group_rank != b->group_rank)
		return a->group_rank < b->group_rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

int compare_report_build(struct rf_compare_report *rep, struct rf_compare_side *sides,
			 size_t nsides, bool all, char *err, size_t errlen)
{
	const char **names = NULL;
	size_t i, j, n = 0, max_runs = 0;
	int ret;

	memset(rep, 0, sizeof(*rep));
	rep->sides = sides;
	rep->nsides = nsides;
	rep->all = all;
	for (i = 0; i < nsides; i++)
		max_runs = sides[i].runs > max_runs ? sides[i].runs : max_runs;
	ret = row_names(sides, nsides, &names, &n);
	if (!ret)
		ret = check_fill(sides, nsides, n, err, errlen);
	if (ret == RF_ERR_TOO_LARGE) {
		free(names);
		return ret;
	}
	rep->rows = ret ? NULL : calloc(n + 1, sizeof(*rep->rows));
	rep->zeros = ret ? NULL : calloc(max_runs + 1, sizeof(*rep->zeros));
	if (!rep->rows || !rep->zeros) {
		free(names);
		compare_report_release(rep);
		compare_seterr(err, errlen, "out of memory");
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = build_row(&rep->rows[i], names[i], sides, nsides, rep->zeros, all);
		rep->nrows++;
		for (j = 0; j < nsides && !ret; j++)
			if (!rep->rows[i].cell[j].present) {
				rep->missing++;
				break;
			}
		rep->nshown += rep->rows[i].shown;
	}
	free(names);
	if (!ret)
		ret = rank_groups(rep);
	if (ret) {
		compare_report_release(rep);
		compare_seterr(err, errlen, "%s", rf_strerror(ret));
		return ret;
	}
	qsort(rep->rows, rep->nrows, sizeof(*rep->rows), row_cmp);
	return 0;
}

void compare_report_release(struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nrows; i++)
		free(rep->rows[i].cell);
	free(rep->rows);
	free(rep->zeros);
	memset(rep, 0, sizeof(*rep));
}

const struct rf_compare_row *compare_report_row(const struct rf_compare_report *rep,
						const char *name)
{
	size_t i;

	for (i = 0; i < rep->nrows; i++)
		if (!strcmp(rep->rows[i].name, name))
			return &rep->rows[i];
	return NULL;
}
