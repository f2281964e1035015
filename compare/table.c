/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LKP `ncompare` table (lkp-tests/lib/compare.rb): base column, then
 * %change and %stddev per variant, the same widths and number formats, so a
 * kernel developer reads it as a robot mail.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "compare/compare-local.h"

#define ABS_WIDTH	10
#define REL_WIDTH	10
#define ERR_WIDTH	6
#define FIRST_WIDTH	(ABS_WIDTH + ERR_WIDTH)
#define COL_WIDTH	(FIRST_WIDTH + REL_WIDTH + 1)

/* A double a cast to long long keeps (NaN, infinities and magnitudes past 2^63 it does not). */
static bool fits_llong(double v)
{
	return isfinite(v) && fabs(v) < 9.2e18;
}

void rf_compare_format_value(char *buf, size_t len, double mean, double stddev)
{
	size_t n;

	if (!isfinite(mean))
		n = (size_t)snprintf(buf, len, "%*g", ABS_WIDTH, mean);
	else if (fabs(mean) < 1000)
		n = (size_t)snprintf(buf, len, "%*.2f", ABS_WIDTH, mean);
	else if (fabs(mean) > 100000000)
		n = (size_t)snprintf(buf, len, "%*.4g", ABS_WIDTH, mean);
	else	/* Ruby's "%d" of a Float truncates toward zero */
		n = (size_t)snprintf(buf, len, "%*lld", ABS_WIDTH, (long long)mean);
	if (n >= len)
		return;
	if (stddev >= 0 && mean != 0)
		stddev = 100 * stddev / mean;
	if (stddev > 2)	/* a huge %stddev (a mean near 0) is shown at the column's width */
		snprintf(buf + n, len - n, " \u00b1%*d%%", ERR_WIDTH - 3,
			 stddev < 999999 ? (int)stddev : 999999);
	else
		snprintf(buf + n, len - n, "%*s", ERR_WIDTH, "");
}

void rf_compare_format_change(char *buf, size_t len, double change, bool absolute)
{
	bool wide = fabs(change) >= 100000;

	if (absolute)
		snprintf(buf, len, wide ? "%+*.2g  " : "%+*.1f  ", REL_WIDTH, change);
	else
		snprintf(buf, len, wide ? "%+*.2g%% " : "%+*.1f%% ", REL_WIDTH, change);
}

static bool one_trace(const struct rf_compare_report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nsides; i++) {
		if (rep->sides[i].lkp || !rep->sides[i].runs)
			return false;
		for (j = 0; j < rep->sides[i].runs; j++)
			if (strcmp(rep->sides[i].fingerprints[j], rep->sides[0].fingerprints[0]))
				return false;
	}
	return true;
}

/* show_group_header(): the common axes, the compared things, then the column titles. */
static void print_header(FILE *out, const struct rf_compare_report *rep)
{
	const struct rf_compare_side *base = &rep->sides[0];
	size_t i;

	fprintf(out, "=========================================================================="
		     "===============\n");
	if (one_trace(rep)) {
		fprintf(out, "trace/fingerprint:\n  ");
		rf_compare_term_field(out, base->trace_path ? base->trace_path : "?", 0, 0);
		fputc('/', out);
		rf_compare_term_field(out, base->fingerprints[0], 16, 0);
		fprintf(out, "\n\n");
	} else {
		fprintf(out, "trace:\n  %s\n\n", base->lkp ? "LKP data" :
			"not the same for every column (compared with --force or LKP data)");
	}
	fprintf(out, "config: \n");
	for (i = 0; i < rep->nsides; i++) {
		fprintf(out, "  ");
		rf_compare_term_field(out, rep->sides[i].label, 0, 0);
		fprintf(out, " (");
		rf_compare_term_field(out, rep->sides[i].spec, 0, 0);
		fprintf(out, ", %zu run%s)\n", rep->sides[i].runs, rep->sides[i].runs == 1 ? "" : "s");
	}
	fputc('\n', out);
	rf_compare_term_field(out, base->label, FIRST_WIDTH, 1);
	fputc(' ', out);
	for (i = 1; i < rep->nsides; i++) {
		rf_compare_term_field(out, rep->sides[i].label, COL_WIDTH, 1);
		fputc(' ', out);
	}
	fprintf(out, "\n%.*s ", FIRST_WIDTH, "--------------------------------");
	for (i = 1; i < rep->nsides; i++)
		fprintf(out, "%.*s ", COL_WIDTH, "--------------------------------");
	fprintf(out, "\n");
}

static void print_failure_row(FILE *out, const struct rf_compare_row *row, size_t nsides)
{
	double fail0 = 0, f;
	size_t i, j;

	for (i = 0; i < nsides; i++) {
		const struct rf_compare_cell *c = &row->cell[i];

		for (f = 0, j = 0; j < c->n; j++)
			f += c->samples[j];
		if (!i)
			fail0 = c->n ? f / (double)c->n : 0;
		else
			fprintf(out, "%*.0f%% ", REL_WIDTH, 100 * ((c->n ? f / (double)c->n : 0) -
								 fail0));
		if (f == 0)
			fprintf(out, "%*s", ABS_WIDTH + 1, "");
		else if (fits_llong(f))
			fprintf(out, "%*lld", ABS_WIDTH + 1, (long long)f);
		else
			fprintf(out, "%*.4g", ABS_WIDTH + 1, f);
		fprintf(out, ":%-*zu", ERR_WIDTH - 2, c->n);
	}
	fprintf(out, "  ");
	rf_compare_term_field(out, row->name, 0, 0);
	fputc('\n', out);
}

static void print_perf_row(FILE *out, const struct rf_compare_row *row, size_t nsides)
{
	char buf[64];
	size_t i;

	for (i = 0; i < nsides; i++) {
		const struct rf_compare_cell *c = &row->cell[i];

		if (i) {
			rf_compare_format_change(buf, sizeof(buf), c->change, row->absolute);
			fputs(buf, out);
		}
		rf_compare_format_value(buf, sizeof(buf), c->mean, c->stddev);
		fputs(buf, out);
	}
	fprintf(out, "  ");
	rf_compare_term_field(out, row->name, 0, 0);
	fputc('\n', out);
}

static size_t count_shown(const struct rf_compare_report *rep, bool function)
{
	size_t i, n = 0;

	for (i = 0; i < rep->nrows; i++)
		n += rep->rows[i].shown && rep->rows[i].function_stat == function;
	return n;
}

static void print_rows(FILE *out, const struct rf_compare_report *rep, bool function)
{
	size_t i, k = rep->nsides - 1;

	if (function) {
		fprintf(out, "       fail:runs");
		for (i = 0; i < k; i++)
			fprintf(out, "  %%reproduction    fail:runs");
		fprintf(out, "\n           |    ");
		for (i = 0; i < k; i++)
			fprintf(out, "         |             |    ");
	} else {
		fprintf(out, "         %%stddev");
		for (i = 0; i < k; i++)
			fprintf(out, "     %%change         %%stddev");
		fprintf(out, "\n             \\  ");
		for (i = 0; i < k; i++)
			fprintf(out, "        |                \\  ");
	}
	fprintf(out, "\n");
	for (i = 0; i < rep->nrows; i++) {
		const struct rf_compare_row *row = &rep->rows[i];

		if (!row->shown || row->function_stat != function)
			continue;
		if (function)
			print_failure_row(out, row, rep->nsides);
		else
			print_perf_row(out, row, rep->nsides);
	}
}

int rf_compare_print_table(FILE *out, const struct rf_compare_report *rep)
{
	size_t failures = count_shown(rep, true), perf = count_shown(rep, false);

	if (rep->nsides < 2)
		return RF_ERR_INVAL;
	print_header(out, rep);
	if (failures)
		print_rows(out, rep, true);
	if (perf)
		print_rows(out, rep, false);
	if (!failures && !perf)
		fprintf(out, "(no metric changed by LKP's rules; --all shows every metric)\n");
	fprintf(out, "\n");
	return ferror(out) ? RF_ERR_IO : 0;
}
