/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault compare: regression tables in the LKP robot's layout, gates for
 * scripts, ASCII plots and an HTML report, over refault results files and
 * LKP stats.json / matrix.json.  docs/compare.md describes it.  Here: the
 * options and the usage; the verb is librefault-compare's rf_compare_verb().
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "compare/compare.h"

#define VERB "compare"

/* The verb's messages, as every verb prints them (cli/util.h). */
static void say(void *arg, enum rf_compare_say kind, const char *text)
{
	(void)arg;
	switch (kind) {
	case RF_COMPARE_USAGE_ERROR:
		rf_usage_error(VERB, "%s", text);
		break;
	case RF_COMPARE_LINE:
		fflush(stdout);
		fprintf(stderr, "%s\n", text);
		break;
	default:
		rf_err(VERB, "%s", text);
		break;
	}
}

static const struct rf_compare_log log_to_stderr = { say, NULL };

static void usage(FILE *out)
{
	fprintf(out,
"usage: refault compare [options] BASE NEW [NEW2 ...]\n"
"       refault compare [options] RESULTS.json      (every configuration in it, first = base)\n"
"       refault compare [options] SWEEP.json        (per workload, every configuration)\n"
"       refault compare --export-matrix FILE SIDE\n"
"       refault compare --change PA,PB A1.json,A2.json,... B1.json,B2.json,...\n"
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
"      --change PA,PB      the change table: A and B are the recordings of two kernels\n"
"                          (groups of results files, each a replay through the profiles\n"
"                          PA, the model of A's kernel, and PB, of B's): the kernel's\n"
"                          A -> B change per counter of the recorded cgroup (LKP's noise\n"
"                          rules over the runs) beside the models' PA -> PB change from\n"
"                          A's recordings and from B's, and whether they agree (same way,\n"
"                          0.75x to 1.33x, or within 2 points under 5%%); with --json,\n"
"                          --html (the table as a page), --all\n"
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

/* Returns 0, an exit status, or -1 after --help. */
static int parse_args(struct rf_compare_opts *o, int argc, char **argv)
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
		{ "change", required_argument, NULL, 'C' },
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
		case 'C': o->change = optarg; break;
		case 'f':
			ret = rf_compare_opts_add_gate(o, optarg, &log_to_stderr);
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
	o->specs = argv + optind;
	o->nspecs = (size_t)(argc - optind);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct rf_compare_opts o = { 0 };
	int ret = parse_args(&o, argc, argv);

	if (!ret)
		ret = rf_compare_verb(&o, &log_to_stderr);
	rf_compare_opts_release(&o);
	return ret < 0 ? RF_EXIT_OK : ret;
}
