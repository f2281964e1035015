/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LKP comparison table of the HTML report as an HTML table: the base
 * column's mean and %stddev, then per variant %change and mean ± %stddev;
 * each %change LKP's rules call a change is marked (up or down), its title
 * saying the rule that decided; a row changed in no column (--all) is grey.  The same rows as the text table
 * (rf_compare_print_table()), which the page keeps for copying into mail.
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

static bool row_changed(const struct rf_compare_row *row, size_t nsides)
{
	size_t i;

	for (i = 1; i < nsides; i++)
		if (row->cell[i].verdict.changed)
			return true;
	return false;
}

static void header(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;

	fprintf(out, "<table class=\"lkp\"><thead><tr><th class=\"val\">");
	rf_html_escape_str(out, rep->sides[0].label);
	fprintf(out, "</th>");
	for (i = 1; i < rep->nsides; i++) {
		fprintf(out, "<th class=\"chg\">%%change</th><th class=\"val\">");
		rf_html_escape_str(out, rep->sides[i].label);
		fprintf(out, "</th>");
	}
	fprintf(out, "<th class=\"name\">metric</th></tr></thead>\n<tbody>\n");
}

static void value_cell(FILE *out, const struct rf_compare_cell *c)
{
	char buf[64];

	rf_compare_format_value(buf, sizeof(buf), c->mean, c->stddev);
	fprintf(out, "<td class=\"val\">");
	trimmed(out, buf);
	fprintf(out, "</td>");
}

static void row_html(FILE *out, const struct rf_compare_row *row, size_t nsides)
{
	char buf[64];
	size_t i;

	fprintf(out, "<tr%s>", row_changed(row, nsides) ? "" : " class=\"same\"");
	value_cell(out, &row->cell[0]);
	for (i = 1; i < nsides; i++) {
		const struct rf_compare_cell *c = &row->cell[i];
		const char *dir = !c->verdict.changed ? "" : c->change > 0 ? " up" : " down";

		rf_compare_format_change(buf, sizeof(buf), c->change, row->absolute);
		fprintf(out, "<td class=\"chg%s\"", dir);
		if (c->verdict.why) {
			fprintf(out, " title=\"");
			rf_html_escape_str(out, c->verdict.why);
			fputc('"', out);
		}
		fputc('>', out);
		trimmed(out, buf);
		fprintf(out, "</td>");
		value_cell(out, c);
	}
	fprintf(out, "<td class=\"name\">");
	rf_html_escape_str(out, row->name);
	fprintf(out, "</td></tr>\n");
}

void rf_compare_html_table(FILE *out, const struct rf_compare_report *rep)
{
	size_t i, rows = 0, changed = 0;

	for (i = 0; i < rep->nrows; i++)
		if (rep->rows[i].shown && !rep->rows[i].function_stat) {
			rows++;
			changed += row_changed(&rep->rows[i], rep->nsides);
		}
	if (!rows) {
		fprintf(out, "<p>No metric differs between the columns.</p>\n");
		return;
	}
	fprintf(out, "<p class=\"note\">%zu rows, %zu of them a change by LKP's rules in some "
		"column; each change is marked, up or down (hover it for the rule that decided)."
		"</p>\n", rows, changed);
	header(out, rep);
	for (i = 0; i < rep->nrows; i++)
		if (rep->rows[i].shown && !rep->rows[i].function_stat)
			row_html(out, &rep->rows[i], rep->nsides);
	fprintf(out, "</tbody></table>\n");
}
