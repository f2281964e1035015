/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault compare` as a function, rf_compare_verb() (compare.h has its
 * contract): the sides the options name (one results file alone expanded
 * into its configurations, a sweep file of several workloads into a table
 * each), loaded from files parsed once, checked to replay the same traces,
 * titled apart, judged into a report; what is then written and gated is
 * verb_output.c's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/grow.h"
#include "lib/term.h"

/* One run of the verb: the sides it compares and the files it reads them from. */
struct verb {
	struct rf_compare_ctx c;
	char *const *specs;
	size_t nspecs;
	char **owned;			/* @specs when the verb made them (expand_single()) */
	char **workloads;		/* a sweep's: each spec's workload */
	const char *single;		/* the one file the specs were expanded from */
	struct rf_compare_files *files;	/* the input files, each parsed once */
	bool keep_files;		/* for the tables of the other workloads */
};

#define say(v, ...) compare_say((v)->c.log, (v)->c.out, RF_COMPARE_MESSAGE, __VA_ARGS__)

int rf_compare_opts_add_gate(struct rf_compare_opts *o, const char *text,
			     const struct rf_compare_log *log)
{
	char err[RF_COMPARE_ERRLEN];
	struct rf_compare_gate *g;

	if (RF_GROW(o->gates, o->gates_cap, o->ngates + 1))
		return RF_COMPARE_EXIT_FAILURE;
	g = &o->gates[o->ngates];
	if (compare_gate_parse(g, text, err, sizeof(err))) {
		compare_say(log, o->out ? o->out : stdout, RF_COMPARE_MESSAGE,
			    "--fail-if '%s': %s", text, err);
		compare_gate_release(g);
		return RF_COMPARE_EXIT_USAGE;
	}
	o->ngates++;
	return 0;
}

void rf_compare_opts_release(struct rf_compare_opts *o)
{
	size_t i;

	for (i = 0; i < o->ngates; i++)
		compare_gate_release(&o->gates[i]);
	free(o->gates);
	o->gates = NULL;
	o->ngates = o->gates_cap = 0;
}

static void free_strings(char **s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/*
 * "results.json" alone, holding several configurations: compare them all, first = base; a
 * sweep file alone: its configurations, per workload.  Nothing said: a file that cannot be
 * expanded is loaded as one side, which says what is wrong with it.
 */
static void expand_single(struct verb *v)
{
	char err[RF_COMPARE_ERRLEN], **names = NULL, **workloads = NULL, **specs = NULL;
	size_t i = 0, n = 0;

	if (v->nspecs != 1 || strchr(v->specs[0], ','))
		return;
	if (compare_results_configs(v->files, v->specs[0], &names, &workloads, &n, err,
				    sizeof(err)) || n < 2)
		goto out;
	specs = calloc(n, sizeof(*specs));
	for (i = 0; specs && i < n; i++)
		if (asprintf(&specs[i], "%s:%s", v->specs[0], names[i]) < 0)
			break;
	if (specs && i == n) {
		v->single = v->specs[0];
		v->specs = v->owned = specs;
		v->nspecs = n;
		v->workloads = workloads;
		workloads = NULL;
		specs = NULL;
	}
out:
	free_strings(specs, i);
	free_strings(names, n);
	free_strings(workloads, n);
}

static int load_sides(const struct verb *v, struct rf_compare_side *sides)
{
	char err[RF_COMPARE_ERRLEN];
	size_t i;

	for (i = 0; i < v->nspecs; i++) {
		if (compare_side_load(&sides[i], v->files, v->specs[i], err, sizeof(err))) {
			say(v, "%s", err);
			return RF_COMPARE_EXIT_FAILURE;
		}
		if (sides[i].lost_events)
			compare_say(v->c.log, v->c.out, RF_COMPARE_LINE,
				    "WARNING: %s: the kernel lost %llu records while its trace "
				    "was recorded: its numbers are short", sides[i].spec,
				    (unsigned long long)sides[i].lost_events);
		if (sides[i].sweep_not_done && (!i || !sides[i - 1].sweep_not_done))
			say(v, "warning: %s: a partial sweep: %zu of its tasks failed or are "
			    "missing, so some columns have fewer runs (refault sweep status)",
			    sides[i].spec, sides[i].sweep_not_done);
		if (sides[i].events_skipped)
			say(v, "warning: %s: %llu events were in damaged chunks and skipped: "
			    "partial results", sides[i].spec,
			    (unsigned long long)sides[i].events_skipped);
	}
	return 0;
}

static int check_traces(const struct verb *v, const struct rf_compare_side *sides)
{
	char err[RF_COMPARE_ERRLEN];
	size_t i;
	int bad = 0;

	for (i = 1; i < v->nspecs; i++) {
		if (!compare_same_traces(&sides[0], &sides[i], err, sizeof(err)))
			continue;
		say(v, "%s%s", v->c.o->force ? "warning: " : "", err);
		bad = 1;
	}
	if (bad && !v->c.o->force) {
		say(v, "the columns would not be comparable; pass --force to compare anyway");
		return RF_COMPARE_EXIT_FAILURE;
	}
	return 0;
}

static int label_cmp(const void *a, const void *b)
{
	const struct rf_compare_side *x = *(const struct rf_compare_side *const *)a;
	const struct rf_compare_side *y = *(const struct rf_compare_side *const *)b;

	return strcmp(x->label, y->label);
}

/*
 * Columns with the same title (the same configuration from two files): each
 * titled by its spec.  Sorted by title, n log n.
 */
static int unique_labels(const struct verb *v, struct rf_compare_side *sides, size_t n)
{
	struct rf_compare_side **by = calloc(n + 1, sizeof(*by));
	bool *dup = calloc(n + 1, sizeof(*dup));
	size_t i;
	int ret = 0;

	if (!by || !dup) {
		ret = RF_COMPARE_EXIT_FAILURE;
		goto out;
	}
	for (i = 0; i < n; i++)
		by[i] = &sides[i];
	qsort(by, n, sizeof(*by), label_cmp);
	for (i = 0; i + 1 < n; i++)
		if (!label_cmp(&by[i], &by[i + 1]))
			dup[by[i] - sides] = dup[by[i + 1] - sides] = true;
	for (i = 0; i < n; i++) {
		char *spec;

		if (!dup[i])
			continue;
		spec = strdup(sides[i].spec);
		if (!spec) {
			ret = RF_COMPARE_EXIT_FAILURE;
			break;
		}
		free(sides[i].label);
		sides[i].label = spec;
	}
out:
	if (ret)
		say(v, "out of memory");
	free(by);
	free(dup);
	return ret;
}

/* The report of the loaded @sides: notes, outputs and gates (verb_output.c). */
static int report(const struct verb *v, struct rf_compare_side *sides)
{
	struct rf_compare_report rep;
	char err[RF_COMPARE_ERRLEN];
	int ret;

	if (compare_report_build(&rep, sides, v->nspecs, v->c.o->all, err, sizeof(err))) {
		say(v, "%s", err);
		return RF_COMPARE_EXIT_FAILURE;
	}
	ret = compare_verb_gates(&v->c, &rep, true);
	if (!ret) {
		compare_verb_notes(&v->c, &rep);
		ret = compare_verb_output(&v->c, &rep);
	}
	if (!ret)
		ret = compare_verb_gates(&v->c, &rep, false);
	compare_report_release(&rep);
	return ret;
}

static int compare(struct verb *v, struct rf_compare_side *sides)
{
	int ret = load_sides(v, sides);

	if (!v->keep_files) {	/* the sides hold what they need: the parsed files can go */
		compare_files_free(v->files);
		v->files = NULL;
	}
	if (!ret && v->c.o->export_matrix && compare_verb_export(&v->c, &sides[0]))
		return RF_COMPARE_EXIT_FAILURE;
	if (ret || v->nspecs == 1)
		return ret;
	ret = check_traces(v, sides);
	if (!ret)
		ret = unique_labels(v, sides, v->nspecs);
	return ret ? ret : report(v, sides);
}

static int compare_specs(struct verb *v)
{
	struct rf_compare_side *sides = calloc(v->nspecs, sizeof(*sides));
	size_t i;
	int ret = sides ? compare(v, sides) : RF_COMPARE_EXIT_FAILURE;

	for (i = 0; sides && i < v->nspecs; i++)
		compare_side_release(&sides[i]);
	free(sides);
	return ret;
}

static int workload_cmp(const void *a, const void *b, void *arg)
{
	char *const *w = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(w[x], w[y]);

	return c ? c : (x > y) - (x < y);
}

/* One workload's table: the specs of @order[@start...] that are its, under its title. */
static int compare_workload(const struct verb *v, char **specs, const size_t *order,
			    size_t start, bool first)
{
	const char *w = v->workloads[order[start]];
	struct verb sub = *v;
	size_t k;

	sub.specs = specs;
	sub.owned = NULL;
	sub.workloads = NULL;
	sub.keep_files = true;
	for (k = start, sub.nspecs = 0; k < v->nspecs && !strcmp(v->workloads[order[k]], w); k++)
		specs[sub.nspecs++] = v->specs[order[k]];
	fprintf(v->c.out, "%s== workload ", first ? "" : "\n");
	rf_term_escape_str(v->c.out, w);
	fprintf(v->c.out, " ==\n\n");
	fflush(v->c.out);
	return sub.nspecs < 2 ? 0 : compare_specs(&sub);
}

/*
 * A sweep of several workloads: one table each, in the order each first
 * comes, its configurations in the file's order; the worst status of them.
 * The specs sorted by workload: n log n.
 */
static int compare_workloads(const struct verb *v)
{
	const struct rf_compare_opts *o = v->c.o;
	size_t *order = NULL, *group = NULL, i, j, n = v->nspecs;
	char **specs = NULL;
	int ret = 0, r;

	/* what the file holds decides, so it is the data's error (1), not the command line's */
	if (o->json || o->csv || o->html || o->export_matrix) {
		say(v, "%s holds several workloads: --json, --csv, --html and --export-matrix "
		    "take one's configurations by name (%s:WORKLOAD/CONFIG ...)", v->single,
		    v->single);
		return RF_COMPARE_EXIT_FAILURE;
	}
	specs = calloc(n + 1, sizeof(*specs));
	order = calloc(n + 1, sizeof(*order));
	group = calloc(n + 1, sizeof(*group));	/* of a spec: where its workload's run starts */
	if (!specs || !order || !group) {
		ret = RF_COMPARE_EXIT_FAILURE;
		goto out;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), workload_cmp, v->workloads);
	for (i = 0; i < n; i = j)
		for (j = i; j < n && !strcmp(v->workloads[order[j]], v->workloads[order[i]]); j++)
			group[order[j]] = i;
	for (i = 0; i < n; i++) {
		if (order[group[i]] != i)
			continue;	/* not the first of its workload */
		r = compare_workload(v, specs, order, group[i], !i);
		if (r == RF_COMPARE_EXIT_FAILURE || r == RF_COMPARE_EXIT_USAGE ||
		    (r == RF_COMPARE_EXIT_GATE && !ret))
			ret = r;
		if (ret == RF_COMPARE_EXIT_FAILURE || ret == RF_COMPARE_EXIT_USAGE)
			break;
	}
out:
	free(specs);
	free(order);
	free(group);
	return ret;
}

/* Its sides all of one workload (or none: not a sweep's)? */
static bool one_workload(const struct verb *v)
{
	size_t i;

	for (i = 1; v->workloads && i < v->nspecs; i++)
		if (strcmp(v->workloads[i], v->workloads[0]))
			return false;
	return true;
}

/* --change: two groups of runs, the table of change.c, and nothing of the rest. */
static int change(const struct verb *v)
{
	const struct rf_compare_opts *o = v->c.o;

	if (o->csv || o->plot || o->export_matrix || o->ngates) {
		compare_say(v->c.log, v->c.out, RF_COMPARE_USAGE_ERROR, "--change prints its table "
			    "(or --json, and --html its page): not with --csv, --plot, --export-matrix "
			    "or --fail-if");
		return RF_COMPARE_EXIT_USAGE;
	}
	if (v->nspecs != 2) {
		compare_say(v->c.log, v->c.out, RF_COMPARE_USAGE_ERROR, "--change PA,PB takes two "
			    "sides, kernel A's runs and kernel B's: a1.json,a2.json,a3.json "
			    "b1.json,b2.json,b3.json");
		return RF_COMPARE_EXIT_USAGE;
	}
	return compare_change(&v->c, v->specs[0], v->specs[1]);
}

int rf_compare_verb(const struct rf_compare_opts *o, const struct rf_compare_log *log)
{
	struct verb v = {
		.c = { .o = o, .log = log, .out = o->out ? o->out : stdout },
		.specs = o->specs,
		.nspecs = o->nspecs,
	};
	int ret;

	if (o->json && o->csv) {
		say(&v, "--json and --csv are exclusive");
		return RF_COMPARE_EXIT_USAGE;
	}
	if (o->change)
		return change(&v);
	v.files = compare_files_new();
	if (!v.files) {
		say(&v, "out of memory");
		return RF_COMPARE_EXIT_FAILURE;
	}
	expand_single(&v);
	if (v.nspecs < 2 && !(o->export_matrix && v.nspecs == 1)) {
		compare_say(log, v.c.out, RF_COMPARE_USAGE_ERROR,
			    "need a BASE and at least one NEW side");
		ret = RF_COMPARE_EXIT_USAGE;
	} else {
		ret = one_workload(&v) ? compare_specs(&v) : compare_workloads(&v);
	}
	free_strings(v.owned, v.nspecs);
	free_strings(v.workloads, v.nspecs);
	compare_files_free(v.files);
	return ret;
}
