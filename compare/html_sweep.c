/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page's charts against the settings the columns vary: a sweep's axes
 * (refault sweep merge keeps each run's stats, not its time series) or a
 * matrix's (replay --matrix), read off the columns' names
 * ("v6.18,memory=1G").  For each such setting, a chart per headline counter
 * (refaults, scans, steals, activations) and the estimated cost: each
 * column's mean over its runs at its value, a line per the rest of the
 * names (the profile), the runs' spread as a bar.  Columns that vary no
 * setting (a sweep of profiles alone) and carry no time series are the axis
 * themselves.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/html.h"

#define MAX_KEYS	4	/* settings charted */
#define MAX_COLUMNS	512	/* columns a chart against a setting places */

/* The rows charted, in the headline counters' order, then the estimated cost. */
static size_t charted_rows(const struct rf_compare_report *rep, const struct rf_compare_row **out,
			   size_t max)
{
	size_t i, j, n = 0;
	int r;

	for (i = 0; i < rep->nrows && n < max; i++) {
		r = compare_headline_rank(rep->rows[i].name);
		if (r < 0)
			continue;
		for (j = n; j > 0 && compare_headline_rank(out[j - 1]->name) > r; j--)
			out[j] = out[j - 1];
		out[j] = &rep->rows[i];
		n++;
	}
	out[n] = compare_report_row(rep, "cost.estimated_ns");
	return n + (out[n] != NULL);
}

static bool all_zero(const struct rf_compare_row *row, size_t nsides)
{
	size_t i, j;

	for (i = 0; i < nsides; i++)
		for (j = 0; j < row->cell[i].n; j++)
			if (row->cell[i].samples[j] != 0)
				return false;
	return true;
}

static bool any_series(const struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].tl.nseries)
			return true;
	return false;
}

static bool model_sides(const struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].lkp || rep->sides[i].kernel)
			return false;
	return true;
}

/* The charts against one setting (@key NULL: the columns), at most @max; how many drawn. */
static size_t against(FILE *out, const struct rf_compare_report *rep, const char *key, size_t max)
{
	const struct rf_compare_row *rows[20];
	struct rf_compare_axis ax;
	char err[RF_COMPARE_ERRLEN], title[512];
	size_t i, n, drawn = 0, zero = 0, runs = 0;

	n = charted_rows(rep, rows, ARRAY_SIZE(rows) - 1);
	if (!n || compare_axis_make(&ax, rep, key, err, sizeof(err)))
		return 0;
	for (i = 0; i < rep->nsides; i++)
		runs = rep->sides[i].runs > runs ? rep->sides[i].runs : runs;
	fprintf(out, "<h2>Against ");
	rf_html_escape_str(out, key ? key : "the columns");
	fprintf(out, "</h2>\n<p class=\"note\">Each column a point at its ");
	rf_html_escape_str(out, key ? key : "place");
	fprintf(out, ": the mean of its runs%s; a line per %s.</p>\n<div class=\"charts\">\n",
		runs > 1 ? ", with a bar from its lowest run to its highest" : "",
		key ? "the rest of the columns' names (the profile and other settings)" :
		"set of columns");
	for (i = 0; i < n && drawn < max; i++) {
		if (all_zero(rows[i], rep->nsides)) {
			zero++;
			continue;
		}
		snprintf(title, sizeof(title), "%s", rows[i]->name);
		compare_svg_axis_chart(out, title, strncmp(rows[i]->name, "cost.", 5) ? "pages" :
				       "ns", key, &ax, rows[i]);
		drawn++;
	}
	fprintf(out, "</div>\n");
	if (zero) {
		fprintf(out, "<p class=\"note\">Zero in every run of every column (not drawn): ");
		for (i = 0, zero = 0; i < n; i++)
			if (all_zero(rows[i], rep->nsides)) {
				fprintf(out, "%s", zero++ ? ", " : "");
				rf_html_escape_str(out, rows[i]->name);
			}
		fprintf(out, ".</p>\n");
	}
	compare_axis_release(&ax);
	return drawn;
}

size_t compare_html_settings(FILE *out, const struct rf_compare_report *rep, size_t max_charts)
{
	char *keys[MAX_KEYS];
	size_t i, nkeys, drawn = 0;

	if (!model_sides(rep) || rep->nsides < 2)
		return 0;
	nkeys = compare_axis_keys(rep, keys, MAX_KEYS);
	if (rep->nsides > MAX_COLUMNS && (nkeys || !any_series(rep))) {
		fprintf(out, "<p class=\"note\">%zu columns: too many to place on one chart "
			"(refault compare --plot METRIC --over SETTING plots any of them).</p>\n",
			rep->nsides);
	} else if (nkeys) {
		for (i = 0; i < nkeys && drawn < max_charts; i++)
			drawn += against(out, rep, keys[i], max_charts - drawn);
	} else if (!any_series(rep)) {
		drawn = against(out, rep, NULL, max_charts);
	}
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	return drawn;
}
