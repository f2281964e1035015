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

void compare_format_value(char *buf, size_t len, double mean, double stddev)
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

/*
 * A change as LKP's %change column prints it ("%+10.1f%%"), but where LKP's
 * numbers stop meaning anything: against a zero base (LKP divides by
 * 1e-100, "+3.5e+103%") "from 0", and past 100000 % (LKP's "%+10.2g%%")
 * the ratio, "x1234".  Absolute changes (keys ending in '%', perf-profile)
 * as LKP's.  12 columns: the text right-aligned in 11, then a space.
 */
void compare_format_change(char *buf, size_t len, double base, double mean, bool absolute)
{
	double change, ratio;
	char text[32];

	if (absolute) {
		change = mean - base;
		snprintf(buf, len, fabs(change) >= 100000 ? "%+*.2g  " : "%+*.1f  ", REL_WIDTH,
			 change);
		return;
	}
	if (base == 0 && mean != 0) {
		snprintf(buf, len, "%*s ", REL_WIDTH + 1, "from 0");
		return;
	}
	change = base == 0 ? 0 : 100.0 * (mean - base) / base;
	if (!(fabs(change) >= 100000)) {
		snprintf(buf, len, "%+*.1f%% ", REL_WIDTH, change);
		return;
	}
	ratio = mean / base;
	snprintf(text, sizeof(text), fabs(ratio) < 1e7 ? "x%.0f" : "x%.2g", ratio);
	snprintf(buf, len, "%*s ", REL_WIDTH + 1, text);
}

/* Every column replays the same set of traces (a sweep's column: its workload's recordings). */
static bool same_trace_set(const struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].lkp || !rep->sides[i].runs || !rep->sides[i].traces ||
		    strcmp(rep->sides[i].traces, rep->sides[0].traces))
			return false;
	return true;
}

static size_t lkp_sides(const struct rf_compare_report *rep)
{
	size_t i, n = 0;

	for (i = 0; i < rep->nsides; i++)
		n += rep->sides[i].lkp;
	return n;
}

#define MAX_TRACES	8

/*
 * The traces every column replays, path/fingerprint as LKP's header shows
 * its axes: one, or the several recordings of a sweep's workload (each
 * column's runs), the first MAX_TRACES of them in the runs' order.
 */
static void print_traces(FILE *out, const struct rf_compare_side *base)
{
	const char *shown[MAX_TRACES];
	size_t i, j, n = 1, k = 0;

	for (i = 0; base->traces[i]; i++)
		n += base->traces[i] == ' ';
	if (n == 1)
		fprintf(out, "trace/fingerprint:\n");
	else
		fprintf(out, "trace/fingerprint (%zu traces, the same in every column):\n", n);
	for (i = 0; i < base->runs && k < MAX_TRACES; i++) {
		for (j = 0; j < k && strcmp(shown[j], base->fingerprints[i]); j++)
			;
		if (j < k)
			continue;
		shown[k++] = base->fingerprints[i];
		fprintf(out, "  ");
		compare_term_field(out, *base->trace_paths[i] ? base->trace_paths[i] : "?", 0, 0);
		fputc('/', out);
		compare_term_field(out, base->fingerprints[i], 16, 0);
		fputc('\n', out);
	}
	if (n > k)
		fprintf(out, "  ... and %zu more\n", n - k);
	fputc('\n', out);
}

/* show_group_header(): the common axes, the compared things, then the column titles. */
static void print_header(FILE *out, const struct rf_compare_report *rep)
{
	const struct rf_compare_side *base = &rep->sides[0];
	size_t i;

	fprintf(out, "=========================================================================="
		     "===============\n");
	if (same_trace_set(rep))
		print_traces(out, base);
	else
		fprintf(out, "trace:\n  %s\n\n", lkp_sides(rep) == rep->nsides ? "LKP data" :
			lkp_sides(rep) ? "LKP data beside refault results (LKP data carries no "
			"trace identity)" : "not the same for every column (compared with --force)");
	fprintf(out, "config: \n");
	for (i = 0; i < rep->nsides; i++) {
		fprintf(out, "  ");
		compare_term_field(out, rep->sides[i].label, 0, 0);
		fprintf(out, " (");
		compare_term_field(out, rep->sides[i].spec, 0, 0);
		fprintf(out, ", %zu run%s)\n", rep->sides[i].runs, rep->sides[i].runs == 1 ? "" : "s");
	}
	fputc('\n', out);
	compare_term_field(out, base->label, FIRST_WIDTH, 1);
	fputc(' ', out);
	for (i = 1; i < rep->nsides; i++) {
		compare_term_field(out, rep->sides[i].label, COL_WIDTH, 1);
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
	compare_term_field(out, row->name, 0, 0);
	fputc('\n', out);
}

static void print_perf_row(FILE *out, const struct rf_compare_row *row, size_t nsides)
{
	char buf[64];
	size_t i;

	for (i = 0; i < nsides; i++) {
		const struct rf_compare_cell *c = &row->cell[i];

		if (i) {
			compare_format_change(buf, sizeof(buf), row->cell[0].mean, c->mean,
					      row->absolute);
			if (c->verdict.apparent)	/* shown without the noise rule */
				buf[strlen(buf) - 1] = RF_COMPARE_APPARENT;
			fputs(buf, out);
		}
		compare_format_value(buf, sizeof(buf), c->mean, c->stddev);
		fputs(buf, out);
	}
	fprintf(out, "  ");
	compare_term_field(out, row->name, 0, 0);
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

/* Of the rows, how many differ in their means in some column; any cell with too few runs? */
static size_t rows_differing(const struct rf_compare_report *rep, bool *few)
{
	size_t i, j, n = 0;

	*few = false;
	for (i = 0; i < rep->nrows; i++) {
		bool differ = false;

		for (j = 1; j < rep->nsides; j++) {
			differ |= rep->rows[i].cell[j].mean != rep->rows[i].cell[0].mean;
			*few |= rep->rows[i].cell[j].verdict.few_runs;
		}
		n += differ;
	}
	return n;
}

/*
 * What an empty table means, never "nothing differs" when means do: how many
 * rows differ, and whether LKP's rules could judge them at all.
 */
static void print_none(FILE *out, const struct rf_compare_report *rep)
{
	bool few;
	size_t differ = rows_differing(rep, &few);

	fprintf(out, "(no metric changed by LKP's rules");
	if (differ)
		fprintf(out, ": %zu of %zu differ in their means, %s", differ, rep->nrows,
			few ? "in columns of fewer than the 3 runs LKP's noise rules need, or not "
			"apart, or below LKP's ratio or floors" : "within the noise or below LKP's "
			"ratio or floors");
	fprintf(out, "; --all shows every metric)\n");
}

int compare_print_table(FILE *out, const struct rf_compare_report *rep)
{
	size_t failures = count_shown(rep, true), perf = count_shown(rep, false), i;
	bool apparent = false;

	if (rep->nsides < 2)
		return RF_ERR_INVAL;
	print_header(out, rep);
	if (failures)
		print_rows(out, rep, true);
	if (perf)
		print_rows(out, rep, false);
	if (!failures && !perf)
		print_none(out, rep);
	for (i = 0; i < rep->nrows; i++)
		apparent |= rep->rows[i].shown && rep->rows[i].apparent;
	if (apparent)
		fprintf(out, "\n%c: a change not judged against noise: its column and the base have "
			"fewer than the 3 runs LKP's noise rules need; their samples lie apart and past "
			"LKP's ratio and floors (more runs judge it: a sweep's 'repeat', more "
			"recordings)\n", RF_COMPARE_APPARENT);
	fprintf(out, "\n");
	return ferror(out) ? RF_ERR_IO : 0;
}
