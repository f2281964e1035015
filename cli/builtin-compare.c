/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault compare: regression tables in the LKP robot's layout, gates for
 * scripts, ASCII plots and an HTML report, over refault results files and
 * LKP stats.json / matrix.json.  docs/compare.md describes it.
 */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/outfile.h"
#include "lib/term.h"
#include "compare/compare.h"
#include "lib/grow.h"

#define VERB "compare"
#define EXIT_GATE 3

struct compare_opts {
	bool all, json, csv, force;
	const char *over;		/* --over: NULL (variants), "time", or a setting */
	const char *export_matrix;
	const char *plot;
	const char *html;
	struct rf_compare_gate *gates;
	size_t ngates, gates_cap;
	char **specs;
	size_t nspecs;
	bool specs_owned;
	char **workloads;		/* a sweep's: each spec's workload */
	const char *single;		/* the one file the specs were expanded from */
	struct rf_compare_files *files;	/* the input files, each parsed once */
	bool keep_files;		/* for the tables of the other workloads */
};

/*
 * A message on stderr whose text may come from a file (names, labels, paths,
 * what the library says of them): escaped as every verb escapes such text
 * for a terminal (lib/term.h).
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char *msg = NULL, *esc;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		rf_err(VERB, "out of memory");
		return;
	}
	esc = rf_term_escaped(msg);
	rf_err(VERB, "%s", esc ? esc : "out of memory");
	free(esc);
	free(msg);
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: refault compare [options] BASE NEW [NEW2 ...]\n"
"       refault compare [options] RESULTS.json      (every configuration in it, first = base)\n"
"       refault compare [options] SWEEP.json        (per workload, every configuration)\n"
"       refault compare --export-matrix FILE SIDE\n"
"\n"
"Compares replay results the way the LKP robot compares kernels: the base column, then\n"
"%%change and %%stddev of each variant against the base, and only the rows that LKP's noise\n"
"rules call real changes (median separation, at least 3 runs unless the counter is exact,\n"
"ratio > 1.01, > 1.05 for non-perf stats, LKP's absolute floors for noisy stats). Where\n"
"a column and the base have fewer than 3 runs (a sweep of 2), a change whose samples lie\n"
"apart and past the ratio and floors is shown marked '?': not judged against noise.\n"
"A change from 0 reads 'from 0', one past 100000%% the ratio 'x1234'.\n"
"\n"
"Each side is one of:\n"
"  results.json            a refault results file with one configuration\n"
"  results.json:NAME       the configuration called NAME in it\n"
"  results.json:NAME@kernel  the recording kernel's own numbers that NAME's replay\n"
"                          (results.json:@kernel: of its only configuration)\n"
"                          gathered from the trace (\"observed\"), to put the model\n"
"                          against; only the quantities both columns have are shown\n"
"  a1.json,a2.json,...     a group of repeated runs: samples of one column\n"
"  sweep.json:NAME         a configuration of a merged sweep (refault sweep merge):\n"
"                          its runs, one per trace and repetition, as one column\n"
"                          (WORKLOAD/NAME when the sweep has several workloads)\n"
"  stats.json, matrix.json LKP files (\"proc-vmstat.X\" is read as \"vmstat.X\")\n"
"\n"
"options:\n"
"  -a, --all               show every metric, changed or not, and every pair of\n"
"                          columns in the decisions summary (past 4 pairs, grouped)\n"
"      --json              print the rows as JSON instead of the table\n"
"      --csv               print the rows as CSV instead of the table\n"
"      --export-matrix FILE  write the first side's stats as an LKP matrix.json\n"
"      --fail-if GATE      exit 3 if GATE holds for any variant; repeatable. GATE is\n"
"                          'METRIC OP VALUE' with OP one of > >= < <=, and VALUE\n"
"                          +5%% (change against the base, percent), +100 (change in\n"
"                          units, signed), or 100 (the variant's value); or 'METRIC changed'\n"
"                          (LKP's rules call it a change). METRIC may omit its group\n"
"                          prefix (workingset_refault_file) when that is unique;\n"
"                          VALUE is a finite number (not nan or inf).\n"
"      --plot METRIC       ASCII plot of METRIC: variants on the x axis (their samples),\n"
"      --over time         or, with --over time, the time series over trace time,\n"
"      --over SETTING      or against a setting the columns' names vary (a sweep's\n"
"                          axis: memory, swappiness), one line per the rest of them\n"
"      --html FILE         write one self-contained HTML page: the table (with the\n"
"                          headline counters always), the decisions, SVG charts over\n"
"                          trace time (a long series drawn by each pixel column's min\n"
"                          and max; the kernel's only at its snapshots) and, for a\n"
"                          sweep, against the settings it varies\n"
"      --force             compare results of different traces anyway\n"
"  -h, --help              this text\n"
"\n"
"Names from files are printed escaped for a terminal (\\x1b for ESC); a column or a\n"
"table that LKP's zeros for missing samples would make over 8 times what its files\n"
"hold is refused (docs/compare.md, \"Limits\").\n"
"\n"
"exit status: 0 no gate tripped, 1 error (unreadable or malformed input, a missing or\n"
"unknown metric, different traces without --force, over a limit), 2 bad command line,\n"
"3 a --fail-if gate tripped (each tripped gate is named on stderr).\n");
}

static int add_gate(struct compare_opts *o, const char *text)
{
	char err[RF_COMPARE_ERRLEN];
	struct rf_compare_gate *g;

	if (RF_GROW(o->gates, o->gates_cap, o->ngates + 1))
		return RF_EXIT_FAILURE;
	g = &o->gates[o->ngates];
	if (rf_compare_gate_parse(g, text, err, sizeof(err))) {
		say("--fail-if '%s': %s", text, err);
		rf_compare_gate_release(g);
		return RF_EXIT_USAGE;
	}
	o->ngates++;
	return 0;
}

static int parse_args(struct compare_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "export-matrix", required_argument, NULL, 'x' },
		{ "fail-if", required_argument, NULL, 'f' },
		{ "plot", required_argument, NULL, 'p' },
		{ "over", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, 'H' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool first = true;
	int c, ret;

	while ((c = rf_getopt(VERB, argc, argv, ":ah", longopts, NULL, &first)) != -1) {
		switch (c) {
		case 'a': o->all = true; break;
		case 'j': o->json = true; break;
		case 'c': o->csv = true; break;
		case 'x': o->export_matrix = optarg; break;
		case 'p': o->plot = optarg; break;
		case 'H': o->html = optarg; break;
		case 'F': o->force = true; break;
		case 'f':
			ret = add_gate(o, optarg);
			if (ret)
				return ret;
			break;
		case 'o':
			if (!*optarg || strchr(optarg, ',') || strchr(optarg, ' ')) {
				rf_err(VERB, "--over takes 'time', 'variants' or a setting (memory), "
				       "not '%s'", optarg);
				return RF_EXIT_USAGE;
			}
			o->over = strcmp(optarg, "variants") ? optarg : NULL;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return RF_EXIT_USAGE;
		}
	}
	if (o->json && o->csv) {
		rf_err(VERB, "--json and --csv are exclusive");
		return RF_EXIT_USAGE;
	}
	o->specs = argv + optind;
	o->nspecs = (size_t)(argc - optind);
	return 0;
}

/*
 * "results.json" alone, holding several configurations: compare them all, first = base; a
 * sweep file alone: its configurations, per workload.
 */
static int expand_single(struct compare_opts *o)
{
	char err[RF_COMPARE_ERRLEN], **names = NULL, **workloads = NULL, **specs;
	size_t i, n = 0;

	if (o->nspecs != 1 || strchr(o->specs[0], ','))
		return 0;
	if (rf_compare_results_configs(o->files, o->specs[0], &names, &workloads, &n, err,
				       sizeof(err)) || n < 2)
		goto out;
	specs = calloc(n, sizeof(*specs));
	for (i = 0; specs && i < n; i++)
		if (asprintf(&specs[i], "%s:%s", o->specs[0], names[i]) < 0)
			break;
	if (specs && i == n) {
		o->single = o->specs[0];
		o->specs = specs;
		o->nspecs = n;
		o->specs_owned = true;
		o->workloads = workloads;
		workloads = NULL;
	}
out:
	for (i = 0; i < n; i++) {
		free(names[i]);
		if (workloads)
			free(workloads[i]);
	}
	free(names);
	free(workloads);
	return 0;
}

static int load_sides(struct compare_opts *o, struct rf_compare_side *sides)
{
	char err[RF_COMPARE_ERRLEN];
	size_t i;

	for (i = 0; i < o->nspecs; i++) {
		if (rf_compare_side_load(&sides[i], o->files, o->specs[i], err, sizeof(err))) {
			say("%s", err);
			return RF_EXIT_FAILURE;
		}
		if (sides[i].lost_events) {
			fflush(stdout);
			fprintf(stderr, "WARNING: ");
			rf_term_escape_str(stderr, sides[i].spec);
			fprintf(stderr, ": the kernel lost %llu records while its trace was "
				"recorded: its numbers are short\n",
				(unsigned long long)sides[i].lost_events);
		}
		if (sides[i].sweep_not_done && (!i || !sides[i - 1].sweep_not_done))
			say("warning: %s: a partial sweep: %zu of its tasks failed or are "
			    "missing, so some columns have fewer runs (refault sweep status)",
			    sides[i].spec, sides[i].sweep_not_done);
		if (sides[i].events_skipped)
			say("warning: %s: %llu events were in damaged chunks and skipped: "
			    "partial results", sides[i].spec,
			    (unsigned long long)sides[i].events_skipped);
	}
	return 0;
}

static int check_traces(const struct compare_opts *o, const struct rf_compare_side *sides)
{
	char err[RF_COMPARE_ERRLEN];
	size_t i;
	int bad = 0;

	for (i = 1; i < o->nspecs; i++) {
		if (!rf_compare_same_traces(&sides[0], &sides[i], err, sizeof(err)))
			continue;
		say("%s%s", o->force ? "warning: " : "", err);
		bad = 1;
	}
	if (bad && !o->force) {
		rf_err(VERB, "the columns would not be comparable; pass --force to compare anyway");
		return RF_EXIT_FAILURE;
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
static int unique_labels(struct rf_compare_side *sides, size_t n)
{
	struct rf_compare_side **by = calloc(n + 1, sizeof(*by));
	bool *dup = calloc(n + 1, sizeof(*dup));
	size_t i;
	int ret = 0;

	if (!by || !dup) {
		ret = RF_EXIT_FAILURE;
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
			ret = RF_EXIT_FAILURE;
			break;
		}
		free(sides[i].label);
		sides[i].label = spec;
	}
out:
	if (ret)
		rf_err(VERB, "out of memory");
	free(by);
	free(dup);
	return ret;
}

static void note_missing(const struct rf_compare_report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].kernel) {
			say("note: %s's vmstat.* rows are the whole host's /proc/vmstat, the "
			    "model's only the traced processes: read the memcg rows of the "
			    "recorded cgroup (refault validate compares quantity by quantity)",
			    rep->sides[i].label);
			break;
		}
	if (!rep->missing)
		return;
	for (i = 0; i < rep->nrows; i++)
		for (j = 0; j < rep->nsides; j++)
			if (!rep->rows[i].cell[j].present) {
				say("note: %zu metric%s missing from some column and count "
				    "as 0 there, as in LKP (first: %s, missing in %s)",
				    rep->missing, rep->missing == 1 ? " is" : "s are",
				    rep->rows[i].name, rep->sides[j].label);
				return;
			}
}

static int run_gates(const struct compare_opts *o, const struct rf_compare_report *rep)
{
	char msg[1024];
	size_t i;
	int tripped = 0, ret;

	for (i = 0; i < o->ngates; i++) {
		ret = rf_compare_gate_eval(&o->gates[i], rep, msg, sizeof(msg));
		if (ret < 0) {
			say("--fail-if '%s': %s", o->gates[i].text, msg);
			return RF_EXIT_FAILURE;
		}
		if (ret) {
			say("gate tripped: %s", msg);
			tripped = 1;
		}
	}
	return tripped ? EXIT_GATE : RF_EXIT_OK;
}

/* Unknown gate metrics are an error before anything is printed. */
static int check_gate_metrics(const struct compare_opts *o, const struct rf_compare_report *rep)
{
	char msg[1024];
	size_t i;

	for (i = 0; i < o->ngates; i++)
		if (rf_compare_gate_eval(&o->gates[i], rep, msg, sizeof(msg)) < 0) {
			say("--fail-if '%s': %s", o->gates[i].text, msg);
			return RF_EXIT_FAILURE;
		}
	return 0;
}

static int write_html(const char *path, const struct rf_compare_report *rep)
{
	struct rf_outfile out;
	char msg[1024];
	FILE *f;

	if (rf_outfile_open(&out, path, 0, msg, sizeof(msg))) {
		say("%s", msg);
		return RF_EXIT_FAILURE;
	}
	f = rf_outfile_stdio(&out);
	if (!f || rf_compare_write_html(f, rep)) {
		say("%s: write failed", path);
		rf_outfile_abandon(&out);
		return RF_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&out, msg, sizeof(msg))) {
		say("%s", msg);
		return RF_EXIT_FAILURE;
	}
	return 0;
}

static int plot(const struct compare_opts *o, const struct rf_compare_report *rep)
{
	char err[RF_COMPARE_ERRLEN], cands[400];
	const char *name;

	if (o->over && !strcmp(o->over, "time")) {
		if (rf_compare_plot_time(stdout, rep->sides, rep->nsides, o->plot, err,
					 sizeof(err))) {
			say("--plot %s: %s", o->plot, err);
			return RF_EXIT_FAILURE;
		}
		return 0;
	}
	name = rf_compare_resolve(rep->sides, rep->nsides, o->plot, cands, sizeof(cands));
	if (!name) {
		if (cands[0])
			say("--plot %s: ambiguous metric: %s (name one)", o->plot, cands);
		else
			say("--plot %s: unknown metric (refault compare --all lists them)", o->plot);
		return RF_EXIT_FAILURE;
	}
	if (o->over) {
		if (rf_compare_plot_axis(stdout, rep, name, o->over, err, sizeof(err))) {
			say("%s", err);
			return RF_EXIT_FAILURE;
		}
		return 0;
	}
	rf_compare_plot_variants(stdout, rep, name);
	return 0;
}

static int output(const struct compare_opts *o, const struct rf_compare_report *rep)
{
	int ret;

	if (o->json)
		ret = rf_compare_write_json(stdout, rep, o->all);
	else if (o->csv)
		ret = rf_compare_write_csv(stdout, rep, o->all);
	else {
		ret = rf_compare_print_decisions(stdout, rep);
		if (!ret)
			ret = rf_compare_print_table(stdout, rep);
	}
	if (ret) {
		rf_err(VERB, "cannot write the output: %s", rf_strerror(ret));
		return RF_EXIT_FAILURE;
	}
	if (o->plot && (ret = plot(o, rep)))
		return ret;
	if (o->html)
		return write_html(o->html, rep);
	return 0;
}

/* --export-matrix FILE: written under a temporary name, renamed when complete. */
static int export_matrix(const char *path, const struct rf_compare_side *side)
{
	char err[RF_COMPARE_ERRLEN];
	struct rf_outfile out;

	if (rf_outfile_open(&out, path, 0, err, sizeof(err))) {
		say("%s", err);
		return RF_EXIT_FAILURE;
	}
	if (rf_compare_write_matrix(out.fd, path, side, err, sizeof(err))) {
		say("%s", err);
		rf_outfile_abandon(&out);
		return RF_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&out, err, sizeof(err))) {
		say("%s", err);
		return RF_EXIT_FAILURE;
	}
	return 0;
}

static int compare(struct compare_opts *o, struct rf_compare_side *sides)
{
	struct rf_compare_report rep;
	char err[RF_COMPARE_ERRLEN];
	int ret = load_sides(o, sides);

	if (!o->keep_files) {	/* the sides hold what they need: the parsed files can go */
		rf_compare_files_free(o->files);
		o->files = NULL;
	}
	if (!ret && o->export_matrix && export_matrix(o->export_matrix, &sides[0]))
		return RF_EXIT_FAILURE;
	if (ret || o->nspecs == 1)
		return ret;
	ret = check_traces(o, sides);
	if (!ret)
		ret = unique_labels(sides, o->nspecs);
	if (ret)
		return ret;
	if (rf_compare_report_build(&rep, sides, o->nspecs, o->all, err, sizeof(err))) {
		say("%s", err);
		return RF_EXIT_FAILURE;
	}
	ret = check_gate_metrics(o, &rep);
	if (!ret) {
		note_missing(&rep);
		ret = output(o, &rep);
	}
	if (!ret)
		ret = run_gates(o, &rep);
	rf_compare_report_release(&rep);
	return ret;
}

static void release_opts(struct compare_opts *o)
{
	size_t i;

	for (i = 0; i < o->ngates; i++)
		rf_compare_gate_release(&o->gates[i]);
	free(o->gates);
	for (i = 0; o->specs_owned && i < o->nspecs; i++) {
		free(o->specs[i]);
		if (o->workloads)
			free(o->workloads[i]);
	}
	free(o->workloads);
	if (o->specs_owned)
		free(o->specs);
	rf_compare_files_free(o->files);
}

static int compare_specs(struct compare_opts *o)
{
	struct rf_compare_side *sides = calloc(o->nspecs, sizeof(*sides));
	size_t i;
	int ret = sides ? compare(o, sides) : RF_EXIT_FAILURE;

	for (i = 0; sides && i < o->nspecs; i++)
		rf_compare_side_release(&sides[i]);
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

/*
 * A sweep of several workloads: one table each, in the order each first
 * comes, its configurations in the file's order; the worst status of them.
 * The specs sorted by workload: n log n.
 */
static int compare_workloads(struct compare_opts *o)
{
	struct compare_opts sub = *o;
	size_t *order = NULL, *group = NULL;
	size_t i, j, k, n = o->nspecs;
	int ret = 0, r;

	/* what the file holds decides, so it is the data's error (1), not the command line's */
	if (o->json || o->csv || o->html || o->export_matrix) {
		say("%s holds several workloads: --json, --csv, --html and --export-matrix "
		    "take one's configurations by name (%s:WORKLOAD/CONFIG ...)", o->single,
		    o->single);
		return RF_EXIT_FAILURE;
	}
	sub.specs = calloc(n + 1, sizeof(*sub.specs));
	sub.specs_owned = false;
	sub.workloads = NULL;
	sub.keep_files = true;
	order = calloc(n + 1, sizeof(*order));
	group = calloc(n + 1, sizeof(*group));	/* of a spec: where its workload's run starts */
	if (!sub.specs || !order || !group) {
		ret = RF_EXIT_FAILURE;
		goto out;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), workload_cmp, o->workloads);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(o->workloads[order[j]], o->workloads[order[i]]); j++)
			group[order[j]] = i;
	}
	for (i = 0; i < n; i++) {
		size_t start = group[i];

		if (order[start] != i)
			continue;	/* not the first of its workload */
		for (k = start, sub.nspecs = 0; k < n &&
		     !strcmp(o->workloads[order[k]], o->workloads[i]); k++)
			sub.specs[sub.nspecs++] = o->specs[order[k]];
		printf("%s== workload ", i ? "\n" : "");
		rf_term_escape_str(stdout, o->workloads[i]);
		printf(" ==\n\n");
		fflush(stdout);
		r = sub.nspecs < 2 ? 0 : compare_specs(&sub);
		if (r == RF_EXIT_FAILURE || r == RF_EXIT_USAGE || (r == EXIT_GATE && !ret))
			ret = r;
		if (ret == RF_EXIT_FAILURE || ret == RF_EXIT_USAGE)
			break;
	}
out:
	free(sub.specs);
	free(order);
	free(group);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	size_t i;
	int ret = parse_args(&o, argc, argv);

	if (ret)
		goto out;
	o.files = rf_compare_files_new();
	if (!o.files) {
		rf_err(VERB, "out of memory");
		ret = RF_EXIT_FAILURE;
		goto out;
	}
	expand_single(&o);
	if (o.nspecs < 2 && !(o.export_matrix && o.nspecs == 1)) {
		ret = rf_usage_error(VERB, "need a BASE and at least one NEW side");
		goto out;
	}
	for (i = 1; o.workloads && i < o.nspecs; i++)
		if (strcmp(o.workloads[i], o.workloads[0]))
			break;
	ret = o.workloads && i < o.nspecs ? compare_workloads(&o) : compare_specs(&o);
out:
	release_opts(&o);
	return ret < 0 ? RF_EXIT_OK : ret;
}
