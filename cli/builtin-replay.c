/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refault replay: feed a trace through one or more reclaim-model configurations. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/outfile.h"
#include "lib/utf8.h"
#include "replayer/replay/replay.h"

static const char usage[] =
	"usage: refault replay TRACE [--profile P[,P...]] [--set KEY=VALUE]... [--matrix FILE]\n"
	"                      [--threads N] [--interval T] [-o RESULTS.json] [--skip-damaged]\n"
	"                      [--warm-cache] [--all-cgroups] [--allow-mglru] [--quiet]\n"
	"\n"
	"Replays TRACE through a model of Linux reclaim, once per configuration, in one pass:\n"
	"chunks are decoded once, on any worker thread, and every configuration's model consumes\n"
	"them in trace order. Results are byte-identical whatever --threads says, except the \"run\"\n"
	"section (wall time, events/s, peak memory) of the results file.\n"
	"\n"
	"  -p, --profile LIST     comma-separated profiles (default v6.18); --list-profiles names them.\n"
	"                         A path with a '/' or ending in .profile is a profile file: a base\n"
	"                         profile and the switches a patch changes (docs/model.md, \"Your\n"
	"                         patch in the model\"); its configuration is named by its name.\n"
	"                         lru, clock and opt are reference policies beside the kernels':\n"
	"                         plain LRU, CLOCK and Belady's optimum over the same page stream,\n"
	"                         of capacity cache=SIZE (default: the recorded cgroup's memory\n"
	"                         limit, else the memory)\n"
	"  -s, --set KEY=VALUE    override a switch in every configuration (repeatable): memory=2G,\n"
	"                         cpus=8, swap=4G, swappiness=100, pagevec=pre-8f18, limit.recorded=512M,\n"
	"                         and each profile switch by its name (rand_no_recency=off ...)\n"
	"                         Settings the trace header gives (memory, CPUs) are defaults. A cgroup's\n"
	"                         key (limit., memsw., swap_max., high., low.) names one of the trace's:\n"
	"                         recorded (the one recorded), recorded/CHILD, or its path, /a/b;\n"
	"                         another is refused, with the trace's cgroups\n"
	"  -m, --matrix FILE      one configuration group per line: PROFILE[|PROFILE] [KEY=V[|V]]...,\n"
	"                         '|' alternatives expand to their cartesian product; '#' comments\n"
	"  -j, --threads N        worker threads decoding and running models (default: online CPUs)\n"
	"  -i, --interval T       time-series sampling interval in trace time (10ms, 1s; default:\n"
	"                         1/100 of the trace, or 1 s for a trace without an index)\n"
	"  -o, --output FILE      write the results JSON there (docs/results-format.md)\n"
	"      --skip-damaged     go on past damaged chunks; the results say how much was skipped\n"
	"      --warm-cache       start every model with the pages the trace reads but never saw\n"
	"                         enter the cache (cached before it began), in the root memcg,\n"
	"                         as refault validate does; the results say how many\n"
	"      --all-cgroups      keep the cgroups outside the one recorded (record -G, or its\n"
	"                         memory limit) in the results, under their paths; the recorded\n"
	"                         one is always \"memcg.recorded.*\", the same in every recording\n"
	"      --allow-mglru      replay a trace recorded with the multi-gen LRU on through\n"
	"                         classic-LRU configurations only (refused otherwise: the kernel's\n"
	"                         numbers beside them would be another reclaim algorithm's; with\n"
	"                         an -mglru profile among them, the classic ones are comparisons)\n"
	"  -q, --quiet            no progress line and no summary\n"
	"      --list-profiles    print the profiles and what each models, then exit\n"
	"      --list-keys        print the keys --set takes, their values and defaults, then exit\n"
	"\n"
	"Exit status: 0 success, 1 bad trace or I/O error, 2 bad command line or configuration.\n";

struct replay_args {
	struct rf_replay_opts opts;
	const char *profiles;
	const char *matrix;
	const char *output;
	char *sets[RF_CLI_MAX_SETS];
	size_t nr_sets;
	bool quiet;
};

/* One line per key: name, what it takes, what it sets (--list-keys). */
static int print_key(const struct rf_model_key *k, void *ctx)
{
	char takes[256] = "", name[64];
	size_t i, off = 0;

	(void)ctx;
	snprintf(name, sizeof(name), "%s%s", k->name,
		 k->flags & RF_MODEL_KEY_PER_CGROUP ? "CGROUP" : "");
	if (k->type == RF_MODEL_KEY_ENUM) {
		for (i = 0; k->values && k->values[i] && off < sizeof(takes); i++)
			off += (size_t)snprintf(takes + off, sizeof(takes) - off, "%s%s", i ? "|" : "",
						k->values[i]);
	} else if (k->type == RF_MODEL_KEY_SIZE) {
		snprintf(takes, sizeof(takes), "SIZE%s", k->flags & RF_MODEL_KEY_UNLIMITED ? "|max" : "");
	} else {
		snprintf(takes, sizeof(takes), "%llu..%llu%s", (unsigned long long)k->min,
			 (unsigned long long)k->max, k->flags & RF_MODEL_KEY_POW2 ? " (power of 2)" : "");
	}
	printf("%-22s %-24s %s\n", name, takes, k->help ? k->help : "");
	return 0;
}

static void list_profiles(void)
{
	const char *const *p;

	for (p = rf_model_profiles(); *p; p++)
		printf("%-16s %s\n", *p, rf_model_profile_summary(*p));
	printf("%-16s %s\n", "lru", "reference policy: plain LRU over the page stream (cache=SIZE)");
	printf("%-16s %s\n", "clock", "reference policy: CLOCK, second chance (cache=SIZE)");
	printf("%-16s %s\n", "opt", "reference policy: Belady's OPT, the fewest misses any "
	       "demand-paging policy can have (cache=SIZE)");
}

static int parse_args(int argc, char **argv, struct replay_args *a)
{
	static const struct option longopts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "matrix", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "skip-damaged", no_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list-profiles", no_argument, NULL, 'L' },
		{ "list-keys", no_argument, NULL, 'K' },
		{ "warm-cache", no_argument, NULL, 'W' },
		{ "all-cgroups", no_argument, NULL, 'A' },
		{ "allow-mglru", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool first = true;
	int c;

	a->opts.threads = rf_default_threads();
	while ((c = rf_getopt("replay", argc, argv, ":p:s:m:j:i:o:qh", longopts, NULL,
			      &first)) != -1) {
		switch (c) {
		case 'p': a->profiles = optarg; break;
		case 'm': a->matrix = optarg; break;
		case 'o': a->output = optarg; break;
		case 'q': a->quiet = true; break;
		case 'D': a->opts.skip_damaged = true; break;
		case 's':
			if (rf_add_set("replay", a->sets, &a->nr_sets, optarg))
				return RF_EXIT_USAGE;
			break;
		case 'j':
			if (rf_parse_threads("replay", optarg, &a->opts.threads))
				return RF_EXIT_USAGE;
			break;
		case 'i':
			if (rf_parse_duration(optarg, &a->opts.interval_ns) || !a->opts.interval_ns) {
				rf_err("replay", "--interval wants a positive duration (10ms, 1s), not '%s'", optarg);
				return RF_EXIT_USAGE;
			}
			break;
		case 'L': list_profiles(); return -1;
		case 'K': rf_model_config_keys(print_key, NULL); return -1;
		case 'W': a->opts.warm_cache = true; break;
		case 'A': a->opts.all_cgroups = true; break;
		case 'M': a->opts.allow_mglru = true; break;
		case 'h': fputs(usage, stdout); return -1;
		default: return RF_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		rf_err("replay", optind == argc ? "which trace? (refault replay TRACE ...)" :
		       "one trace at a time; '%s' is extra", argv[argc - 1]);
		return RF_EXIT_USAGE;
	}
	a->opts.trace_path = argv[optind];
	return 0;
}

static int build_configs(struct replay_args *a, struct rf_config_list *l)
{
	char err[512] = "";
	int rc = 0;

	if (a->profiles || !a->matrix)
		rc = rf_config_list_add_profiles(l, a->profiles ? a->profiles : "v6.18", a->sets,
						 a->nr_sets, err, sizeof(err));
	if (!rc && a->matrix)
		rc = rf_config_list_add_matrix(l, a->matrix, a->sets, a->nr_sets, err, sizeof(err));
	if (rc)
		rf_err("replay", "%s", err[0] ? err : rf_strerror(rc));
	return rc;
}

/* The results into @out, opened before the replay (a bad -o fails before the work). */
static int write_results(const struct rf_replay_result *res, struct rf_outfile *out)
{
	json_object *o = rf_replay_result_json(res, true);
	char msg[1024];
	int rc = 0;

	if (!o) {
		rf_err("replay", "%s: out of memory", out->path);
		rf_outfile_abandon(out);
		return RF_EXIT_FAILURE;
	}
	if (rf_utf8_json_write_fd(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						JSON_C_TO_STRING_NOSLASHESCAPE), out->fd)) {
		rf_err("replay", "writing %s: %s", out->path, strerror(errno));
		rf_outfile_abandon(out);
		rc = RF_EXIT_FAILURE;
	} else if (rf_outfile_commit(out, msg, sizeof(msg))) {
		rf_err("replay", "%s", msg);
		rc = RF_EXIT_FAILURE;
	}
	json_object_put(o);
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_args a = { 0 };
	struct rf_config_list configs = { 0 };
	struct rf_replay_result *res = NULL;
	struct rf_outfile out = { .fd = -1 };
	char err[1024] = "";
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? RF_EXIT_OK : rc;
	if (build_configs(&a, &configs)) {
		rf_config_list_free(&configs);
		return RF_EXIT_USAGE;
	}
	if (a.output && rf_outfile_open(&out, a.output, 0, err, sizeof(err))) {
		rf_err("replay", "%s", err);
		rf_config_list_free(&configs);
		return RF_EXIT_FAILURE;
	}
	if (!a.quiet && isatty(STDERR_FILENO))
		a.opts.progress = rf_cli_replay_progress;
	rc = rf_replay_run(&a.opts, &configs, &res, err, sizeof(err));
	if (rc) {
		rf_err("replay", "%s", err[0] ? err : rf_strerror(rc));
		if (a.output)
			rf_outfile_abandon(&out);
		rf_config_list_free(&configs);
		return rc == RF_ERR_CONFIG ? RF_EXIT_USAGE : RF_EXIT_FAILURE;
	}
	rc = a.output ? write_results(res, &out) : 0;
	if (!a.quiet)
		rf_replay_result_summary(res, stdout);
	if (!a.quiet && a.output && !rc)
		printf("results: %s\n", a.output);
	rf_replay_result_free(res);
	rf_config_list_free(&configs);
	return rc;
}
