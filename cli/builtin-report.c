/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refault report: who refaults, per file, cgroup, pid, command or call stack, kernel and models. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/errors.h>
#include <refault/trace.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/compiler.h"
#include "lib/outfile.h"
#include "lib/term.h"
#include "report/report.h"

static const char usage[] =
	"usage: refault report TRACE | RESULTS.json[:CONFIG]...\n"
	"                      [--by file|cgroup|pid|comm|callsite|symbol] [--callsite-depth N]\n"
	"                      [--children]\n"
	"                      [--sort refaults|misses|evictions|activations]\n"
	"                      [--profile kernel|P[,P...]] [--set KEY=VALUE]... [--lines N]\n"
	"                      [--heatmap[=FILE]] [--heatmap-size COLSxROWS]\n"
	"                      [--stdio | --json | --folded[=SOURCE]] [-o FILE] [--html FILE]\n"
	"                      [--threads N] [--skip-damaged]\n"
	"\n"
	"Which pages refault, and whose: the decisions about each folio (misses, refaults,\n"
	"evictions, activations, in base pages), attributed to its file (or an anonymous\n"
	"folio's address space), or to the pid, command, memory cgroup or call stack of the\n"
	"reference that brought it in. The kernel's decisions come from the trace's\n"
	"page-cache and LRU observations; a model's from replaying the trace through it.\n"
	"Several sources are shown side by side, each against the first, as perf diff does.\n"
	"Given results files (refault replay -o), each configuration named is replayed again\n"
	"on the trace they name, which must be the same one (its fingerprint is checked).\n"
	"\n"
	"  -b, --by KEY           file (default), cgroup, pid, comm, callsite (the reference's\n"
	"                         call stack, \"inner <- caller <- ...\", from a trace recorded\n"
	"                         with call stacks) or symbol (its innermost frame)\n"
	"      --callsite-depth N the callsite view: the N innermost frames (default: all)\n"
	"      --children         the symbol view (implied without --by) as perf report\n"
	"                         --children: a decision counts once to every function on\n"
	"                         its stack, a caller's row has its callees'; and Self, the\n"
	"                         decisions where the function is the innermost frame\n"
	"  -s, --sort METRIC      refaults (default), misses, evictions or activations\n"
	"  -p, --profile LIST     comma-separated sources: kernel (the trace's own decisions)\n"
	"                         and model profiles, as refault replay names them;\n"
	"                         default: kernel, or v6.18 for a trace without page-cache\n"
	"                         observations (a generated one)\n"
	"      --set KEY=VALUE    a setting of every model configuration (refault replay --set)\n"
	"  -n, --lines N          the first N rows (default 25; 0: all); rows of zeros only\n"
	"                         are left out and counted (--json has them)\n"
	"      --heatmap[=FILE]   after the table, a file's pages against time, shaded by the\n"
	"                         sort metric, one grid per source (FILE as the table names it;\n"
	"                         default: the first row), over the time and pages of its\n"
	"                         decisions; reads the trace a second time\n"
	"      --heatmap-size CxR its columns (time) and rows (page index), default 72x16\n"
	"      --stdio            a table for a person (the default)\n"
	"      --json             the whole table as JSON (docs/report.md)\n"
	"      --folded[=SOURCE]  folded stacks for flame-graph tools instead of the table,\n"
	"                         \"outer;...;inner COUNT\" per stack, COUNT the sort metric of\n"
	"                         SOURCE (default: the first); the callsite view unless\n"
	"                         --by symbol\n"
	"      --html FILE        also one self-contained HTML page there: the table, the\n"
	"                         heatmap as SVG, a flame graph per source in a view of stacks\n"
	"  -o, --output FILE      write there instead of standard output (replaced only\n"
	"                         when the report is complete)\n"
	"  -j, --threads N        worker threads of the models' replay (default: online CPUs)\n"
	"      --skip-damaged     go on past damaged chunks\n"
	"\n"
	"Exit status: 0 success, 1 bad trace or I/O error, 2 bad command line or configuration.\n";

#define MAX_SIDES 16

/*
 * A message that may quote what a file supplied (a trace's or a results
 * file's path, a configuration's name): on the terminal by lib/term.h's rule.
 */
static void report_err(const char *msg)
{
	char *e = rf_term_escaped(msg);

	rf_err("report", "%s", e ? e : "out of memory");
	free(e);
}

struct report_args {
	struct rf_report_opts opts;
	char **operands;		/* TRACE, or the RESULTS.json[:CONFIG] sides */
	int nr_operands;
	const char *output;
	const char *html;
	char *sets[RF_CLI_MAX_SETS];
	size_t nr_sets;
	size_t lines;
	bool json;
	bool folded;
	const char *folded_source;	/* NULL: the first */
	bool by_given;
};

/*
 * The options, perf's parse_options() way: each one's getopt_long() entry
 * beside its handler, which takes its argument into @a.  A handler returns 0,
 * RF_EXIT_USAGE after its message, or -1 (--help: done, exit 0).
 */
struct report_option {
	struct option o;	/* .val: its short option, or a letter of its own */
	int (*handle)(struct report_args *a, char *arg);
};

static int opt_by(struct report_args *a, char *arg)
{
	a->opts.by = rf_report_by_from_name(arg);
	if (a->opts.by == RF_REPORT_BY_NR)
		return rf_usage_error("report", "--by file, cgroup, pid, comm, callsite or symbol, "
				      "not '%s'", arg);
	a->by_given = true;
	return 0;
}

static int opt_callsite_depth(struct report_args *a, char *arg)
{
	uint64_t v;

	if (rf_parse_u64(arg, &v) || !v || v > RF_MAX_FRAMES)
		return rf_usage_error("report", "--callsite-depth wants 1 to %u frames, not '%s'",
				      RF_MAX_FRAMES, arg);
	a->opts.callsite_depth = (unsigned int)v;
	return 0;
}

static int opt_children(struct report_args *a, char *arg)
{
	(void)arg;
	a->opts.children = true;
	return 0;
}

static int opt_folded(struct report_args *a, char *arg)
{
	a->folded = true;
	a->json = false;
	a->folded_source = arg;
	return 0;
}

static int opt_sort(struct report_args *a, char *arg)
{
	a->opts.sort = rf_report_metric_from_name(arg);
	if (a->opts.sort == RF_REPORT_NR_METRICS)
		return rf_usage_error("report", "--sort refaults, misses, evictions or activations, "
				      "not '%s'", arg);
	return 0;
}

static int opt_profile(struct report_args *a, char *arg)
{
	a->opts.sources = arg;
	return 0;
}

static int opt_set(struct report_args *a, char *arg)
{
	return rf_add_set("report", a->sets, &a->nr_sets, arg) ? RF_EXIT_USAGE : 0;
}

static int opt_lines(struct report_args *a, char *arg)
{
	uint64_t v;

	if (rf_parse_u64(arg, &v) || v > SIZE_MAX)
		return rf_usage_error("report", "--lines wants a number, not '%s'", arg);
	a->lines = (size_t)v;
	return 0;
}

static int opt_stdio(struct report_args *a, char *arg)
{
	(void)arg;
	a->json = false;
	a->folded = false;
	return 0;
}

static int opt_json(struct report_args *a, char *arg)
{
	(void)arg;
	a->json = true;
	a->folded = false;
	return 0;
}

static int opt_output(struct report_args *a, char *arg)
{
	a->output = arg;
	return 0;
}

static int opt_html(struct report_args *a, char *arg)
{
	a->html = arg;
	return 0;
}

static int opt_threads(struct report_args *a, char *arg)
{
	return rf_parse_threads("report", arg, &a->opts.threads) ? RF_EXIT_USAGE : 0;
}

static int opt_skip_damaged(struct report_args *a, char *arg)
{
	(void)arg;
	a->opts.skip_damaged = true;
	return 0;
}

static int opt_heatmap(struct report_args *a, char *arg)
{
	a->opts.heatmap = true;
	a->opts.heat_key = arg;
	return 0;
}

static int opt_heatmap_size(struct report_args *a, char *arg)
{
	unsigned int cols, rows;
	char end;

	if (sscanf(arg, "%ux%u%c", &cols, &rows, &end) != 2 || !cols || !rows || cols > 1024 ||
	    rows > 1024)
		return rf_usage_error("report", "--heatmap-size wants COLSxROWS, each 1 to 1024 "
				      "(72x16), not '%s'", arg);
	a->opts.heat_cols = cols;
	a->opts.heat_rows = rows;
	return 0;
}

static int opt_help(struct report_args *a, char *arg)
{
	(void)a;
	(void)arg;
	fputs(usage, stdout);
	return -1;
}

static const struct report_option options[] = {
	{ { "by", required_argument, NULL, 'b' }, opt_by },
	{ { "sort", required_argument, NULL, 's' }, opt_sort },
	{ { "profile", required_argument, NULL, 'p' }, opt_profile },
	{ { "set", required_argument, NULL, 'S' }, opt_set },
	{ { "lines", required_argument, NULL, 'n' }, opt_lines },
	{ { "stdio", no_argument, NULL, 'T' }, opt_stdio },
	{ { "json", no_argument, NULL, 'J' }, opt_json },
	{ { "output", required_argument, NULL, 'o' }, opt_output },
	{ { "threads", required_argument, NULL, 'j' }, opt_threads },
	{ { "skip-damaged", no_argument, NULL, 'D' }, opt_skip_damaged },
	{ { "heatmap", optional_argument, NULL, 'H' }, opt_heatmap },
	{ { "heatmap-size", required_argument, NULL, 'Z' }, opt_heatmap_size },
	{ { "html", required_argument, NULL, 'W' }, opt_html },
	{ { "callsite-depth", required_argument, NULL, 'C' }, opt_callsite_depth },
	{ { "folded", optional_argument, NULL, 'F' }, opt_folded },
	{ { "children", no_argument, NULL, 'c' }, opt_children },
	{ { "help", no_argument, NULL, 'h' }, opt_help },
};
/* The options with a short form, as getopt_long() wants them. */
static const char shortopts[] = ":b:s:p:n:o:j:h";

/*
 * The view the options ask for: --children implies --by symbol, --folded
 * --by callsite; an option of another view than the one asked is refused.
 */
static int check_view(struct report_args *a)
{
	if (a->opts.children && !a->by_given) {
		a->opts.by = RF_REPORT_BY_SYMBOL;
		a->by_given = true;
	}
	if (a->opts.children && a->opts.by != RF_REPORT_BY_SYMBOL)
		return rf_usage_error("report", "--children is of --by symbol (a row per function on "
				      "the stack), not --by %s", rf_report_by_name(a->opts.by));
	if (a->folded && a->opts.by != RF_REPORT_BY_CALLSITE && a->opts.by != RF_REPORT_BY_SYMBOL) {
		if (a->by_given)
			return rf_usage_error("report", "--folded prints stacks: --by callsite or "
					      "symbol, not --by %s", rf_report_by_name(a->opts.by));
		a->opts.by = RF_REPORT_BY_CALLSITE;
	}
	if (a->opts.callsite_depth && a->opts.by != RF_REPORT_BY_CALLSITE)
		return rf_usage_error("report", "--callsite-depth is of --by callsite, not --by %s",
				      rf_report_by_name(a->opts.by));
	return 0;
}

/* The operands from @argv[optind]: one trace, or results sides (at most MAX_SIDES). */
static int take_operands(struct report_args *a, int argc, char **argv)
{
	if (optind == argc) {
		rf_err("report", "which trace? (refault report TRACE ..., or RESULTS.json[:CONFIG]...)");
		return RF_EXIT_USAGE;
	}
	if (!rf_report_is_results(argv[optind]) && optind + 1 != argc) {
		rf_err("report", "one trace at a time; '%s' is extra", argv[argc - 1]);
		return RF_EXIT_USAGE;
	}
	if (argc - optind > MAX_SIDES) {
		rf_err("report", "at most %d results sides", MAX_SIDES);
		return RF_EXIT_USAGE;
	}
	if (rf_report_is_results(argv[optind]) && a->opts.sources) {
		rf_err("report", "--profile is for a trace; results files name their configurations");
		return RF_EXIT_USAGE;
	}
	a->operands = argv + optind;
	a->nr_operands = argc - optind;
	a->opts.trace_path = argv[optind];
	a->opts.sets = a->sets;
	a->opts.nr_sets = a->nr_sets;
	return 0;
}

/* 0, RF_EXIT_USAGE after the message, or -1 after --help. */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	struct option longopts[ARRAY_SIZE(options) + 1] = { { 0 } };
	bool first = true;
	size_t i;
	int c, rc;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		longopts[i] = options[i].o;
	a->opts.threads = rf_default_threads();
	a->opts.heat_cols = 72;
	a->opts.heat_rows = 16;
	a->lines = 25;
	while ((c = rf_getopt("report", argc, argv, shortopts, longopts, NULL, &first)) != -1) {
		for (i = 0; i < ARRAY_SIZE(options) && options[i].o.val != c; i++)
			;
		if (i == ARRAY_SIZE(options))
			return RF_EXIT_USAGE;	/* rf_getopt() said why */
		rc = options[i].handle(a, optarg);
		if (rc)
			return rc;
	}
	rc = check_view(a);
	return rc ? rc : take_operands(a, argc, argv);
}

static int print(const struct report_args *a, const struct rf_report *r, FILE *f)
{
	size_t src = 0;

	if (a->folded)
		return a->folded_source && !rf_report_find_source(r, a->folded_source, &src) ? -1 :
		       rf_report_print_folded(r, f, src);
	if (a->json)
		return rf_report_print_json(r, f);
	return rf_report_print(r, f, a->lines) || rf_report_print_heatmap(r, f) ? -1 : 0;
}

/* @write into @path through a temporary, renamed when complete (opened before the work). */
static int commit(struct rf_outfile *out, const char *path, const struct report_args *a,
		  const struct rf_report *r, bool html)
{
	char err[1024];
	FILE *f = rf_outfile_stdio(out);

	if (!f || (html ? rf_report_write_html(r, f, a->lines) : print(a, r, f)) || fflush(f)) {
		snprintf(err, sizeof(err), "writing %s: %s", path, strerror(errno ? errno : EIO));
		report_err(err);
		rf_outfile_abandon(out);
		return RF_EXIT_FAILURE;
	}
	if (rf_outfile_commit(out, err, sizeof(err))) {
		report_err(err);
		return RF_EXIT_FAILURE;
	}
	return RF_EXIT_OK;
}

static int run(struct report_args *a)
{
	struct rf_outfile out = { .fd = -1 }, html = { .fd = -1 };
	struct rf_report *r = NULL;
	char err[1024] = "";
	int rc;

	if (a->output && rf_outfile_open(&out, a->output, 0, err, sizeof(err))) {
		report_err(err);
		return RF_EXIT_FAILURE;
	}
	if (a->html && rf_outfile_open(&html, a->html, 0, err, sizeof(err))) {
		report_err(err);
		if (a->output)
			rf_outfile_abandon(&out);
		return RF_EXIT_FAILURE;
	}
	if (isatty(STDERR_FILENO))
		a->opts.progress = rf_cli_replay_progress;
	rc = rf_report_run(&a->opts, &r, err, sizeof(err));
	if (rc) {
		report_err(err[0] ? err : rf_strerror(rc));
		if (a->output)
			rf_outfile_abandon(&out);
		if (a->html)
			rf_outfile_abandon(&html);
		return rc == RF_ERR_CONFIG ? RF_EXIT_USAGE : RF_EXIT_FAILURE;
	}
	if (a->folded_source && !rf_report_find_source(r, a->folded_source, &(size_t){ 0 })) {
		size_t i;

		snprintf(err, sizeof(err), "--folded=%s: not a source of the report, which has:",
			 a->folded_source);
		report_err(err);
		for (i = 0; i < rf_report_nr_sources(r); i++) {
			fputs("  ", stderr);
			rf_term_escape_str(stderr, rf_report_source(r, i));
			fputc('\n', stderr);
		}
		rc = RF_EXIT_USAGE;
		if (a->html)
			rf_outfile_abandon(&html);
	} else {
		rc = a->html ? commit(&html, a->html, a, r, true) : RF_EXIT_OK;
	}
	if (a->output) {
		if (rc)
			rf_outfile_abandon(&out);
		else
			rc = commit(&out, a->output, a, r, false);
	} else if (!rc) {
		rc = rf_cli_finish(print(a, r, stdout) ? RF_EXIT_FAILURE : RF_EXIT_OK);
	}
	rf_report_free(r);
	return rc;
}

/*
 * RESULTS.json[:CONFIG] sides into the sources: one trace for all of them
 * (the same fingerprint), replayed as they were (--warm-cache or not).
 */
static int load_sides(struct report_args *a, struct rf_report_side *sides, const char **entries)
{
	char err[1024] = "";
	int i, rc;

	for (i = 0; i < a->nr_operands; i++) {
		if (!rf_report_is_results(a->operands[i]))
			return rf_usage_error("report", "'%s' is not a results file (RESULTS.json[:CONFIG]): "
					      "one trace, or results sides only", a->operands[i]);
		rc = rf_report_side_load(a->operands[i], &sides[i], err, sizeof(err));
		if (rc) {
			report_err(err[0] ? err : rf_strerror(rc));
			return rc == RF_ERR_CONFIG ? RF_EXIT_USAGE : RF_EXIT_FAILURE;
		}
		if (i && (sides[i].fingerprint != sides[0].fingerprint ||
			  sides[i].warm_cache != sides[0].warm_cache)) {
			snprintf(err, sizeof(err), "%s and %s replayed %s: compare them with refault "
				 "compare", a->operands[0], a->operands[i],
				 sides[i].fingerprint != sides[0].fingerprint ? "different traces" :
				 "one with --warm-cache and one without");
			report_err(err);
			return RF_EXIT_USAGE;
		}
		entries[i] = sides[i].source;
	}
	a->opts.entries = entries;
	a->opts.nr_entries = (size_t)a->nr_operands;
	a->opts.trace_path = sides[0].trace;
	a->opts.fingerprint = sides[0].fingerprint;
	a->opts.check_fingerprint = true;
	a->opts.warm_cache = sides[0].warm_cache;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct rf_report_side sides[MAX_SIDES] = { 0 };
	const char *entries[MAX_SIDES];
	int i, rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? RF_EXIT_OK : rc;
	rc = rf_report_is_results(a.operands[0]) ? load_sides(&a, sides, entries) : 0;
	if (!rc)
		rc = run(&a);
	for (i = 0; i < MAX_SIDES; i++)
		rf_report_side_free(&sides[i]);
	return rc;
}

