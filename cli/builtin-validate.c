/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refault validate: does the model, configured as the recording kernel, reproduce its counters? */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include <refault/errors.h>

#include "replayer/validate/validate.h"

#define VERB "validate"
#define EXIT_DIVERGES 3

static const char usage[] =
	"usage: refault validate TRACE [--profile P] [--set KEY=VALUE]... [--tolerance 5%]\n"
	"                        [--slack PAGES] [--cold-cache] [--json] [--no-series]\n"
	"                        [--threads N] [--allow-mglru] [--quiet]\n"
	"\n"
	"Replays a trace recorded with 'refault record' through the model configured as the\n"
	"recording kernel (profile from the header's kernel release, memory and CPUs from the\n"
	"header, cgroup tree and limits from the trace) and puts the kernel's own numbers beside\n"
	"the model's, per cgroup (its whole subtree) and for the whole trace: page-cache\n"
	"insertions and deletions, refaults, activations, scanned and reclaimed pages, and the\n"
	"final LRU list sizes, with their time series at every counter snapshot of the trace\n"
	"(at 1 in 2, 4... of them past 2 Mi values of cgroups x quantities, with a note).\n"
	"\n"
	"  -p, --profile P     model profile (default: the one for the recording kernel), or a\n"
	"                      profile file (a path with a '/' or ending in .profile)\n"
	"  -s, --set KEY=VALUE override a model switch (repeatable), as for refault replay:\n"
	"                      limit.recorded=96M is the recorded cgroup's limit\n"
	"  -t, --tolerance X   relative tolerance, \"5%\" or \"0.05\" (default 5%)\n"
	"      --slack PAGES   absolute slack added to the tolerance (default 64: pages no trace\n"
	"                      shows, such as the program's own text activated by the loader, are\n"
	"                      a few dozen in any run; --slack 0 holds rows to the percentage)\n"
	"      --cold-cache    start the model with an empty page cache (default: with the\n"
	"                      pages the trace reads but never saw enter, cached before it,\n"
	"                      charged to the root memcg); their number becomes slack\n"
	"      --json          the same as JSON, with every row's series\n"
	"      --no-series     leave the time series out of the table\n"
	"  -j, --threads N     replay engine threads decoding the trace (default: online CPUs)\n"
	"      --allow-mglru   validate a trace recorded with the multi-gen LRU on against a\n"
	"                      classic-LRU --profile (refused otherwise: the kernel's numbers\n"
	"                      would be another reclaim algorithm's); without --profile such a\n"
	"                      trace gets its release's -mglru profile where there is one\n"
	"  -q, --quiet         no progress line\n"
	"\n"
	"Rows of the cgroups are gated; rows the trace cannot pin down are shown and not gated\n"
	"(the whole trace, /proc/vmstat, reclaim and final list sizes of a cgroup below the\n"
	"recorded one).\n"
	"Exit status: 0 every gated quantity within tolerance, 3 one is not (the output says\n"
	"which, by how much and in which phase it begins), 1 bad trace, 2 bad command line.\n";

static int parse_tolerance(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		return -1;
	if (*end == '%' && !end[1])
		v /= 100.0;
	else if (*end)
		return -1;
	else if (v >= 1.0)
		v /= 100.0;	/* "5" means 5 %, as people say it */
	*out = v;
	return 0;
}

struct validate_args {
	struct rf_validate_opts o;
	char *sets[RF_CLI_MAX_SETS];
	bool json, series, quiet;
};

static const struct option longopts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "set", required_argument, NULL, 's' },
	{ "tolerance", required_argument, NULL, 't' },
	{ "slack", required_argument, NULL, 'S' },
	{ "json", no_argument, NULL, 'J' },
	{ "no-series", no_argument, NULL, 'N' },
	{ "cold-cache", no_argument, NULL, 'C' },
	{ "threads", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "allow-mglru", no_argument, NULL, 'M' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option into @a: 0, or the exit status (-1: --help printed). */
static int parse_opt(struct validate_args *a, int c)
{
	switch (c) {
	case 'p': a->o.profile = optarg; return 0;
	case 'J': a->json = true; return 0;
	case 'N': a->series = false; return 0;
	case 'C': a->o.cold_cache = true; return 0;
	case 'M': a->o.allow_mglru = true; return 0;
	case 'q': a->quiet = true; return 0;
	case 'h': fputs(usage, stdout); return -1;
	case 's':
		return rf_add_set(VERB, a->sets, &a->o.nr_sets, optarg);
	case 't':
		if (parse_tolerance(optarg, &a->o.tolerance)) {
			rf_err(VERB, "invalid --tolerance '%s' (e.g. 5%% or 0.05)", optarg);
			return RF_EXIT_USAGE;
		}
		return 0;
	case 'S':
		if (rf_parse_u64(optarg, &a->o.slack)) {
			rf_err(VERB, "invalid --slack '%s' (a number of pages)", optarg);
			return RF_EXIT_USAGE;
		}
		return 0;
	case 'j':
		return rf_parse_threads(VERB, optarg, &a->o.threads);
	default:
		return RF_EXIT_USAGE;
	}
}

int cmd_validate(int argc, char **argv)
{
	struct validate_args a = { .o = { .tolerance = 0.05, .slack = RF_VALIDATE_DEFAULT_SLACK },
				   .series = true };
	struct rf_validation *v;
	bool first = true;
	char err[1024];
	int c, e;

	a.o.threads = rf_default_threads();
	while ((c = rf_getopt(VERB, argc, argv, ":p:s:t:j:qh", longopts, NULL, &first)) != -1) {
		e = parse_opt(&a, c);
		if (e)
			return e < 0 ? RF_EXIT_OK : e;
	}
	if (optind != argc - 1) {
		rf_err(VERB, "%s", optind >= argc ? "which trace? refault validate TRACE" :
		       "one trace at a time");
		fputs(usage, stderr);
		return RF_EXIT_USAGE;
	}
	a.o.sets = a.sets;
	if (!a.quiet && isatty(STDERR_FILENO))
		a.o.progress = rf_cli_replay_progress;
	e = rf_validate_run(&v, argv[optind], &a.o, err, sizeof(err));
	if (e) {
		rf_err(VERB, "%s", err);
		return e == RF_ERR_CONFIG ? RF_EXIT_USAGE : RF_EXIT_FAILURE;
	}
	if (a.json)
		rf_validation_print_json(v, stdout);
	else
		rf_validation_print(v, stdout, a.series);
	e = rf_validation_nr_bad(v) ? EXIT_DIVERGES : RF_EXIT_OK;
	rf_validation_free(v);
	return e;
}
