/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LKP comparison table of the HTML report as an HTML table: the base
 * column's mean and %stddev, then per variant %change and mean ± %stddev;
 * each %change LKP's rules call a change is marked (up or down), its title
 * saying the rule that decided; a change shown without the noise rule (too
 * few runs) is marked apart, with '?'; a row changed in no column (--all,
 * or a headline counter, which the page always shows) is grey.  The rows
 * of the text table (compare_print_table(), which the page keeps for
 * copying into mail), and the headline counters (refaults, scans, steals,
 * activations) whether they changed or not.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/html.h"

/* The text table's cell, without its padding. */
static void trimmed(FILE *out, const char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	rf_html_escape(out, s, n);
}

static bool on_page(const struct rf_compare_row *row)
{
	return (row->shown || row->headline) && !row->function_stat;
}

/* A column's title, which may break after each ',' ("v6.18,<wbr>memory=1G"): narrow columns. */
static void title(FILE *out, const char *label)
{
	const char *s = label;
	size_t n;

	do {
		n = strcspn(s, ",");
		rf_html_escape(out, s, n + (s[n] == ','));
		s += n + (s[n] == ',');
		if (*s)
			fprintf(out, "<wbr>");
	} while (*s);
}

static void header(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;

	fprintf(out, "<div class=\"scroll\"><table class=\"lkp\"><thead><tr><th class=\"val\">");
	title(out, rep->sides[0].label);
	fprintf(out, "</th>");
	for (i = 1; i < rep->nsides; i++) {
		fprintf(out, "<th class=\"chg\">%%change</th><th class=\"val\">");
		title(out, rep->sides[i].label);
		fprintf(out, "</th>");
	}
	fprintf(out, "<th class=\"name\">metric</th></tr></thead>\n<tbody>\n");
}

static void value_cell(FILE *out, const struct rf_compare_cell *c)
{
	char buf[64];

	compare_format_value(buf, sizeof(buf), c->mean, c->stddev);
	fprintf(out, "<td class=\"val\">");
	trimmed(out, buf);
	fprintf(out, "</td>");
}

static void row_html(FILE *out, const struct rf_compare_row *row, size_t nsides)
{
	char buf[64];
	size_t i;

	fprintf(out, "<tr%s>", row->changed || row->apparent ? "" :
		row->headline ? " class=\"same headline\"" : " class=\"same\"");
	value_cell(out, &row->cell[0]);
	for (i = 1; i < nsides; i++) {
		const struct rf_compare_cell *c = &row->cell[i];
		bool marked = c->verdict.changed || c->verdict.apparent;
		const char *dir = !marked ? "" : c->mean > row->cell[0].mean ? " up" : " down";

		compare_format_change(buf, sizeof(buf), row->cell[0].mean, c->mean,
				      row->absolute);
		fprintf(out, "<td class=\"chg%s%s\"", dir, c->verdict.apparent ? " few" : "");
		if (c->verdict.why) {
			fprintf(out, " title=\"");
			rf_html_escape_str(out, c->verdict.why);
			fputc('"', out);
		}
		fputc('>', out);
		trimmed(out, buf);
		if (c->verdict.apparent)
			fputc(RF_COMPARE_APPARENT, out);
		fprintf(out, "</td>");
		value_cell(out, c);
	}
	fprintf(out, "<td class=\"name\">");
	rf_html_escape_str(out, row->name);
	fprintf(out, "</td></tr>\n");
}

/* Of the rows, how many differ in their means in some column. */
static size_t differing(const struct rf_compare_report *rep)
{
	size_t i, j, n = 0;

	for (i = 0; i < rep->nrows; i++)
		for (j = 1; j < rep->nsides; j++)
			if (rep->rows[i].cell[j].mean != rep->rows[i].cell[0].mean) {
				n++;
				break;
			}
	return n;
}

void compare_html_table(FILE *out, const struct rf_compare_report *rep)
{
	size_t i, rows = 0, changed = 0, apparent = 0, headline = 0;

	for (i = 0; i < rep->nrows; i++) {
		const struct rf_compare_row *row = &rep->rows[i];

		if (!on_page(row))
			continue;
		rows++;
		changed += row->changed;
		apparent += !row->changed && row->apparent;
		headline += row->headline && !row->changed && !row->apparent;
	}
	if (!rows) {
		fprintf(out, "<p>No metric changed by LKP's rules, and these results have no "
			"headline counter (refaults, scans, steals, activations): %zu of the %zu "
			"metrics differ in their means (refault compare --all lists every one).</p>\n",
			differing(rep), rep->nrows);
		return;
	}
	fprintf(out, "<p class=\"note\">%zu rows: %zu a change by LKP's rules in some column, "
		"marked up (red) or down (blue); ", rows, changed);
	if (apparent)
		fprintf(out, "%zu a change shown without LKP's noise rule, marked <b>%c</b> "
			"(its column and the base have fewer than the 3 runs the rule needs: the "
			"samples lie apart and past LKP's ratio and floors, not judged against "
			"noise; more runs judge it); ", apparent, RF_COMPARE_APPARENT);
	if (headline)
		fprintf(out, "%zu headline counter%s (refaults, scans, steals, activations: always "
			"shown) that did not change, in grey; ", headline, headline == 1 ? "" : "s");
	fprintf(out, "hover a change for the rule that decided.</p>\n");
	header(out, rep);
	for (i = 0; i < rep->nrows; i++)
		if (on_page(&rep->rows[i]))
			row_html(out, &rep->rows[i], rep->nsides);
	fprintf(out, "</tbody></table></div>\n");
}
