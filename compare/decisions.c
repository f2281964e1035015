/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary above the table: do the variants make different reclaim
 * decisions (any model counter other than cost.*, replay.*, run.* differs),
 * and how does the estimated kernel cost move.  Two kernels can make the
 * same decisions at a different price; that is the 23047a96 story.
 *
 * Each variant is compared with the base and with the variant before it: a
 * line per pair for a few columns; past MAX_LINES pairs (a sweep's columns)
 * the pairs with the same statement (the same set of counters differing)
 * are grouped, the most common first, in a few lines, and every pair is
 * behind --all (or the page's <details>).  Counters are named headline
 * first (refaults, scans, steals, activations), then in the table's order.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

#define MAX_NAMED	4	/* counters named in a statement */
#define MAX_LINES	4	/* pairs printed one a line; past them, grouped */
#define MAX_GROUPS	3	/* grouped statements printed */
#define MAX_PAIRS_NAMED	2	/* pairs named in a group's line */

static bool exact_row(const struct rf_compare_row *row, size_t nsides)
{
	size_t i;

	for (i = 0; i < nsides; i++)
		if (row->cell[i].n != 1 && row->cell[i].stddev != 0)
			return false;
	return true;
}

/*
 * A counter differs between two columns: their means do, or, where every
 * column replays the same traces in the same order (a sweep's workload of
 * several recordings, repeated seeds), any run does against its own.
 */
static bool differs(const struct rf_compare_row *row, size_t side, size_t ref, bool by_run)
{
	const struct rf_compare_cell *a = &row->cell[side], *b = &row->cell[ref];
	size_t i;

	if (a->present != b->present || a->mean != b->mean)
		return true;
	for (i = 0; by_run && i < a->n; i++)
		if (a->samples[i] != b->samples[i])
			return true;
	return false;
}

/* Every column's runs are of the same traces, in the same order. */
static bool runs_matched(const struct rf_compare_report *rep)
{
	size_t i, j;

	for (i = 1; i < rep->nsides; i++) {
		if (rep->sides[i].runs != rep->sides[0].runs || !rep->sides[i].fingerprints)
			return false;
		for (j = 0; j < rep->sides[i].runs; j++)
			if (strcmp(rep->sides[i].fingerprints[j], rep->sides[0].fingerprints[j]))
				return false;
	}
	return rep->sides[0].fingerprints != NULL;
}

struct pair {
	size_t side, ref;
	size_t differ;			/* model counters that differ */
	uint64_t hash;			/* of which: FNV-1a of their row indices */
	size_t order;			/* of the pair, as printed one a line */
};

struct decisions {
	const struct rf_compare_report *rep;
	bool *model;			/* of each row: a model counter (an exact decision stat) */
	bool by_run;			/* runs_matched(): counters compared run by run */
	size_t total;			/* model counters */
	struct pair *pairs;
	size_t npairs;
};

static void measure(struct decisions *d, struct pair *p)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	p->differ = 0;
	for (i = 0; i < d->rep->nrows; i++) {
		if (!d->model[i] || !differs(&d->rep->rows[i], p->side, p->ref, d->by_run))
			continue;
		p->differ++;
		h = (h ^ i) * 0x100000001b3ull;
	}
	p->hash = h;
}

/* Two pairs differ in the very same counters. */
static bool same_statement(const struct decisions *d, const struct pair *a, const struct pair *b)
{
	size_t i;

	if (a->differ != b->differ || a->hash != b->hash)
		return false;
	for (i = 0; i < d->rep->nrows; i++)
		if (d->model[i] && differs(&d->rep->rows[i], a->side, a->ref, d->by_run) !=
				   differs(&d->rep->rows[i], b->side, b->ref, d->by_run))
			return false;
	return true;
}

/* "same (all N model counters equal)" or "differ in K of N model counters (A, B, ...)" */
static void statement(FILE *out, const struct decisions *d, const struct pair *p)
{
	const struct rf_compare_report *rep = d->rep;
	size_t i, j, k, named = 0, pick[MAX_NAMED];
	int rank[MAX_NAMED], r;

	if (!p->differ) {
		fprintf(out, "same (all %zu model counters equal)", d->total);
		return;
	}
	/* the headline counters first, by their rank; then the others in the table's order */
	for (i = 0; i < rep->nrows; i++) {
		if (!d->model[i] || !differs(&rep->rows[i], p->side, p->ref, d->by_run) ||
		    (r = compare_headline_rank(rep->rows[i].name)) < 0)
			continue;
		for (j = 0; j < named && rank[j] <= r; j++)
			;
		if (j == MAX_NAMED)
			continue;
		for (k = named < MAX_NAMED ? named : MAX_NAMED - 1; k > j; k--) {
			rank[k] = rank[k - 1];
			pick[k] = pick[k - 1];
		}
		rank[j] = r;
		pick[j] = i;
		named += named < MAX_NAMED;
	}
	for (i = 0; i < rep->nrows && named < MAX_NAMED; i++)
		if (d->model[i] && differs(&rep->rows[i], p->side, p->ref, d->by_run) &&
		    compare_headline_rank(rep->rows[i].name) < 0)
			pick[named++] = i;
	fprintf(out, "differ in %zu of %zu model counters (", p->differ, d->total);
	for (i = 0; i < named; i++) {
		fprintf(out, "%s", i ? ", " : "");
		compare_term_field(out, rep->rows[pick[i]].name, 0, 0);
	}
	fprintf(out, "%s)", p->differ > named ? ", ..." : "");
}

static void pair_name(FILE *out, const struct decisions *d, const struct pair *p)
{
	compare_term_field(out, d->rep->sides[p->side].label, 0, 0);
	fprintf(out, " vs ");
	compare_term_field(out, d->rep->sides[p->ref].label, 0, 0);
}

static void print_pairs(FILE *out, const struct decisions *d)
{
	size_t i;

	for (i = 0; i < d->npairs; i++) {
		fprintf(out, "decisions: ");
		pair_name(out, d, &d->pairs[i]);
		fprintf(out, ": ");
		statement(out, d, &d->pairs[i]);
		fputc('\n', out);
	}
}

static int by_statement(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;

	if (a->differ != b->differ)
		return a->differ < b->differ ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

struct group {
	size_t first, n;		/* in the pairs sorted by statement */
	size_t order;			/* of its first pair, as printed one a line */
};

static int by_size(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/*
 * The pairs grouped by statement (sorted, n log n; a group's pairs in their
 * order), the largest groups first: a line each for MAX_GROUPS of them, and
 * one for the rest.
 */
static int print_summary(FILE *out, struct decisions *d, bool page)
{
	struct group *g = calloc(d->npairs + 1, sizeof(*g));
	size_t i, j, ng = 0, same = 0, shown = 0;

	if (!g)
		return RF_ERR_NOMEM;
	qsort(d->pairs, d->npairs, sizeof(*d->pairs), by_statement);
	for (i = 0; i < d->npairs; i = j) {
		for (j = i + 1; j < d->npairs && same_statement(d, &d->pairs[i], &d->pairs[j]); j++)
			;
		g[ng++] = (struct group){ i, j - i, d->pairs[i].order };
		same += d->pairs[i].differ ? 0 : j - i;
	}
	qsort(g, ng, sizeof(*g), by_size);
	fprintf(out, "decisions: %zu pairs of columns, each against the base and the one before "
		"it (every pair: %s): %zu the same, %zu differ; %zu different statement%s\n",
		d->npairs, page ? "below" : "--all", same, d->npairs - same, ng, ng == 1 ? "" : "s");
	for (i = 0; i < ng && i < MAX_GROUPS; i++) {
		const struct pair *p = &d->pairs[g[i].first];

		fprintf(out, "decisions: ");
		statement(out, d, p);
		fprintf(out, ", %zu pair%s: ", g[i].n, g[i].n == 1 ? "" : "s");
		for (j = 0; j < g[i].n && j < MAX_PAIRS_NAMED; j++) {
			fprintf(out, "%s", j ? "; " : "");
			pair_name(out, d, &p[j]);
		}
		if (g[i].n > j)
			fprintf(out, "; and %zu more", g[i].n - j);
		fputc('\n', out);
		shown += g[i].n;
	}
	if (ng > i)
		fprintf(out, "decisions: %zu more pair%s, in %zu other statement%s\n",
			d->npairs - shown, d->npairs - shown == 1 ? "" : "s", ng - i,
			ng - i == 1 ? "" : "s");
	free(g);
	return 0;
}

static void print_cost(FILE *out, const struct rf_compare_report *rep)
{
	const struct rf_compare_row *row = compare_report_row(rep, "cost.estimated_ns");
	char buf[64];
	size_t i;

	if (!row)
		return;
	fprintf(out, "estimated kernel cost (cost.estimated_ns): ");
	compare_term_field(out, rep->sides[0].label, 0, 0);
	fprintf(out, " %.10g", row->cell[0].mean);
	for (i = 1; i < rep->nsides; i++) {
		char *s;
		size_t n;

		compare_format_change(buf, sizeof(buf), row->cell[0].mean, row->cell[i].mean,
				      false);
		s = buf + strspn(buf, " ");	/* drop the column padding */
		n = strlen(s);
		while (n && s[n - 1] == ' ')
			s[--n] = 0;
		fprintf(out, ", ");
		compare_term_field(out, rep->sides[i].label, 0, 0);
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

/* A profile's kernel era: the major release of "v6.18-mglru", "v4.6+55779ec"; -1 if none. */
static int era_of(const char *profile)
{
	long major;

	if (!profile || profile[0] != 'v' || !isdigit((unsigned char)profile[1]))
		return -1;
	major = strtol(profile + 1, NULL, 10);
	return major < 1000 ? (int)major : -1;
}

#define MAX_ERAS	8

bool compare_cost_eras(const struct rf_compare_report *rep, char *buf, size_t len)
{
	int eras[MAX_ERAS], e;
	size_t i, j, n = 0, used;

	if (!all_model_sides(rep) || !compare_report_row(rep, "cost.estimated_ns"))
		return false;
	for (i = 0; i < rep->nsides && n < MAX_ERAS; i++) {
		e = era_of(rep->sides[i].profile);
		for (j = 0; j < n && eras[j] != e; j++)
			;
		if (e >= 0 && j == n)
			eras[n++] = e;
	}
	if (n < 2)
		return false;
	used = (size_t)snprintf(buf, len, "cost.estimated_ns prices each profile's own "
				"operations (docs/model.md, \"Cost model\"): v6.x moves a large "
				"folio in one where v4.x moves each page, so across kernel eras (");
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%sv%d.x", i ? ", " : "", eras[i]);
	if (used < len)
		snprintf(buf + used, len - used, " here) it compares the kernels' work, not a cost "
			 "per page");
	return true;
}

static int decisions_init(struct decisions *d, const struct rf_compare_report *rep)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	d->rep = rep;
	/* which rows are model counters, once: each pair below is then one pass over the rows */
	d->model = calloc(rep->nrows + 1, sizeof(*d->model));
	d->pairs = calloc(2 * rep->nsides + 1, sizeof(*d->pairs));
	if (!d->model || !d->pairs)
		return RF_ERR_NOMEM;
	/*
	 * a model counter: a decision stat, exact (one trace: its value), or of columns whose
	 * runs replay the same traces in the same order, compared run against run
	 */
	d->by_run = runs_matched(rep);
	for (i = 0; i < rep->nrows; i++) {
		d->model[i] = compare_is_decision_stat(rep->rows[i].name) &&
			      (d->by_run || exact_row(&rep->rows[i], rep->nsides));
		d->total += d->model[i];
	}
	/* each variant against the base, and a later variant against the one before it */
	for (i = 1; i < rep->nsides; i++) {
		d->pairs[d->npairs] = (struct pair){ .side = i, .ref = 0, .order = d->npairs };
		measure(d, &d->pairs[d->npairs++]);
		if (i == 1)
			continue;
		d->pairs[d->npairs] = (struct pair){ .side = i, .ref = i - 1, .order = d->npairs };
		measure(d, &d->pairs[d->npairs++]);
	}
	return 0;
}

static size_t decision_pairs(const struct rf_compare_report *rep)
{
	return all_model_sides(rep) && rep->nsides > 1 ? 2 * rep->nsides - 3 : 0;
}

int compare_decisions(FILE *out, const struct rf_compare_report *rep, unsigned parts)
{
	struct decisions d;
	char note[512];
	int ret;

	if (!all_model_sides(rep) || rep->nsides < 2)
		return 0;
	ret = decisions_init(&d, rep);
	if (!ret && (parts & RF_DECISIONS_PAIRS))
		print_pairs(out, &d);
	else if (!ret && (parts & RF_DECISIONS_SUMMARY) && d.npairs <= MAX_LINES)
		print_pairs(out, &d);
	else if (!ret && (parts & RF_DECISIONS_SUMMARY))
		ret = print_summary(out, &d, parts & RF_DECISIONS_PAGE);
	free(d.model);
	free(d.pairs);
	if (ret)
		return ret;
	if (parts & RF_DECISIONS_COST)
		print_cost(out, rep);
	if ((parts & RF_DECISIONS_ERAS) && compare_cost_eras(rep, note, sizeof(note)))
		fprintf(out, "note: %s\n", note);
	return ferror(out) ? RF_ERR_IO : 0;
}

int compare_print_decisions(FILE *out, const struct rf_compare_report *rep)
{
	return compare_decisions(out, rep, (rep->all ? RF_DECISIONS_PAIRS :
					    RF_DECISIONS_SUMMARY) | RF_DECISIONS_COST |
					    RF_DECISIONS_ERAS);
}

bool compare_decisions_grouped(const struct rf_compare_report *rep)
{
	return decision_pairs(rep) > MAX_LINES;
}
