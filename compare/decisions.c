/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary above the table: do the variants make different reclaim
 * decisions (any model counter other than cost.*, replay.*, run.* differs),
 * and how does the estimated kernel cost move.  Two kernels can make the
 * same decisions at a different price; that is the 23047a96 story.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

#define MAX_NAMED 4

static bool exact_row(const struct rf_compare_row *row, size_t nsides)
{
	size_t i;

	for (i = 0; i < nsides; i++)
		if (row->cell[i].n != 1 && row->cell[i].stddev != 0)
			return false;
	return true;
}

static bool differs(const struct rf_compare_row *row, size_t side, size_t ref)
{
	return row->cell[side].mean != row->cell[ref].mean ||
	       row->cell[side].present != row->cell[ref].present;
}

/* @model: of each row, whether it is a model counter (an exact decision stat). */
static void print_side(FILE *out, const struct rf_compare_report *rep, const bool *model,
		       size_t side, size_t ref)
{
	size_t i, total = 0, differ = 0, named = 0;

	for (i = 0; i < rep->nrows; i++) {
		if (!model[i])
			continue;
		total++;
		differ += differs(&rep->rows[i], side, ref);
	}
	fprintf(out, "decisions: ");
	rf_compare_term_field(out, rep->sides[side].label, 0, 0);
	fprintf(out, " vs ");
	rf_compare_term_field(out, rep->sides[ref].label, 0, 0);
	fprintf(out, ": ");
	if (!differ) {
		fprintf(out, "same (all %zu model counters equal)\n", total);
		return;
	}
	fprintf(out, "differ in %zu of %zu model counters (", differ, total);
	for (i = 0; i < rep->nrows && named < MAX_NAMED; i++) {
		const struct rf_compare_row *row = &rep->rows[i];

		if (!model[i] || !differs(row, side, ref))
			continue;
		fprintf(out, "%s", named ? ", " : "");
		rf_compare_term_field(out, row->name, 0, 0);
		named++;
	}
	fprintf(out, "%s)\n", differ > named ? ", ..." : "");
}

static void print_cost(FILE *out, const struct rf_compare_report *rep)
{
	const struct rf_compare_row *row = rf_compare_report_row(rep, "cost.estimated_ns");
	char buf[64];
	size_t i;

	if (!row)
		return;
	fprintf(out, "estimated kernel cost (cost.estimated_ns): ");
	rf_compare_term_field(out, rep->sides[0].label, 0, 0);
	fprintf(out, " %.10g", row->cell[0].mean);
	for (i = 1; i < rep->nsides; i++) {
		char *s;
		size_t n;

		rf_compare_format_change(buf, sizeof(buf), row->cell[i].change, false);
		s = buf + strspn(buf, " ");	/* drop the column padding */
		n = strlen(s);
		while (n && s[n - 1] == ' ')
			s[--n] = 0;
		fprintf(out, ", ");
		rf_compare_term_field(out, rep->sides[i].label, 0, 0);
		fprintf(out, " %s", s);
	}
	fprintf(out, "\n");
}

/* Decisions and cost are the model's: only when every column is a replay. */
static bool all_model_sides(const struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].lkp || rep->sides[i].kernel)
			return false;
	return true;
}

int rf_compare_print_decisions(FILE *out, const struct rf_compare_report *rep)
{
	bool *model;
	size_t i;

	if (!all_model_sides(rep))
		return 0;
	/* which rows are model counters, once: each line below is then one pass over the rows */
	model = calloc(rep->nrows + 1, sizeof(*model));
	if (!model)
		return RF_ERR_NOMEM;
	for (i = 0; i < rep->nrows; i++)
		model[i] = rf_compare_is_decision_stat(rep->rows[i].name) &&
			   exact_row(&rep->rows[i], rep->nsides);
	/* each variant against the base, and a later variant against the one before it */
	for (i = 1; i < rep->nsides; i++) {
		print_side(out, rep, model, i, 0);
		if (i > 1)
			print_side(out, rep, model, i, i - 1);
	}
	free(model);
	print_cost(out, rep);
	return ferror(out) ? RF_ERR_IO : 0;
}
