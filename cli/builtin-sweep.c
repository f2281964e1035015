/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refault sweep: traces x configurations as tasks for local processes, GNU parallel or Slurm. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/outfile.h"
#include "lib/term.h"
#include "sweep/sweep.h"

#define VERB "sweep"

static const char usage[] =
	"usage: refault sweep plan SPEC -o PLAN\n"
	"       refault sweep run PLAN [--local] [-j N] [--engine auto|parallel|processes]\n"
	"       refault sweep emit PLAN --parallel|--slurm [-o FILE] [--max-running N]\n"
	"       refault sweep status PLAN\n"
	"       refault sweep merge PLAN -o SWEEP.json\n"
	"       refault sweep task PLAN INDEX\n"
	"\n"
	"Runs many replays: every trace of a SPEC's workloads through every configuration of its\n"
	"matrix lines (and repetitions), on the engines a team already has, and merges their\n"
	"results into one file 'refault compare' reads (docs/sweeps.md).\n"
	"\n"
	"  plan     expand SPEC into PLAN: tasks of one trace and the configurations one replay\n"
	"           pass shares (at most 'group', within the memory 'budget'), each named by a\n"
	"           hash of its inputs in the store, so that a task already done is not run again\n"
	"  run      run the tasks not done here, N at a time (-j, default: online CPUs divided by\n"
	"           the plan's threads), by GNU parallel when it is on PATH, else by processes\n"
	"  emit     --parallel: one 'refault sweep task PLAN I' a line, each path a quoted word,\n"
	"           for 'parallel < FILE' (on many hosts that share the paths with parallel's\n"
	"           sshloginfile); --slurm: an sbatch job-array script, element I running task\n"
	"           I, memory and time from the plan\n"
	"  status   each task not done (never run, failed, or results cut short or not its own),\n"
	"           and why; the counts\n"
	"  merge    the store into SWEEP.json: per workload and configuration, its runs; the tasks\n"
	"           not done listed with why (a partial sweep is written, and says so)\n"
	"  task     run task INDEX (what every engine runs): 'refault replay' with its output in\n"
	"           the store's ID.log, then ID.status; nothing when its results are there\n"
	"\n"
	"  -o, --output FILE      the plan (plan), the list or script (emit; default: standard\n"
	"                         output), the sweep file (merge)\n"
	"  -j, --jobs N           tasks at a time (run)\n"
	"      --local            run the tasks here (run's only engine; for clarity)\n"
	"      --engine E         auto (GNU parallel if installed), parallel, processes (run)\n"
	"      --parallel         emit GNU parallel's command list\n"
	"      --slurm            emit a Slurm job-array script\n"
	"      --max-running N    at most N array elements at a time (emit --slurm)\n"
	"\n"
	"A plan's paths (the plan, its store, traces and program) go into scripts: each must be\n"
	"absolute, without a control character or a backslash, and the store without 'hetjob' or\n"
	"'packjob' (sbatch's); plan and every subcommand refuse others, naming the path.\n"
	"\n"
	"Exit status: 0 success (merge: the sweep is complete), 1 failure (run, task: a task\n"
	"failed; status: some task is not done; a plan refused), 2 bad command line, 3 merge\n"
	"wrote a partial sweep (a task failed, is missing, or ran past damaged chunks).\n";

static int help(void)
{
	fputs(usage, stdout);
	return RF_EXIT_OK;
}

/*
 * A message of the sweep library: it names paths and quotes logs a plan or a
 * store supplies, so it is shown as lib/term.h shows a file's text.
 */
static void sweep_error(const char *msg)
{
	char *shown = rf_term_escaped(msg);

	rf_err(VERB, "%s", shown ? shown : "out of memory");
	free(shown);
}

/*
 * This program, for the plan and the engines to run again: /proc/self/exe, or
 * in a build tree the libtool wrapper that sets up its libraries (the
 * program proper is .libs/NAME or .libs/lt-NAME beside it).
 */
static int self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash, wrapper[PATH_MAX];

	if (n <= 0) {
		rf_err(VERB, "cannot find this program (/proc/self/exe): %s", strerror(errno));
		return RF_EXIT_FAILURE;
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash && slash - buf >= 6 && !strncmp(slash - 6, "/.libs", 6)) {
		const char *name = slash + 1;

		if (!strncmp(name, "lt-", 3))
			name += 3;
		snprintf(wrapper, sizeof(wrapper), "%.*s/%s", (int)(slash - 6 - buf), buf, name);
		if (!access(wrapper, X_OK))
			snprintf(buf, len, "%s", wrapper);
	}
	return 0;
}

static int load(const char *path, struct rf_sweep_plan **p)
{
	char err[RF_SWEEP_ERRLEN];

	if (rf_sweep_plan_load(p, path, err, sizeof(err))) {
		sweep_error(err);
		return RF_EXIT_FAILURE;
	}
	return 0;
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "local", no_argument, NULL, 'L' },
	{ "engine", required_argument, NULL, 'E' },
	{ "parallel", no_argument, NULL, 'P' },
	{ "slurm", no_argument, NULL, 'S' },
	{ "max-running", required_argument, NULL, 'M' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct sweep_args {
	const char *sub, *output;
	char *operands[2];
	size_t nr_operands;
	unsigned int jobs, max_running;
	enum rf_sweep_engine engine;
	bool parallel, slurm, local;
};

static int parse_args(struct sweep_args *a, int argc, char **argv)
{
	bool first = true;
	uint64_t v;
	int c;

	while ((c = rf_getopt(VERB, argc, argv, ":o:j:h", longopts, NULL, &first)) != -1) {
		switch (c) {
		case 'o': a->output = optarg; break;
		case 'j':
			if (rf_parse_u64(optarg, &v) || !v || v > 4096)
				return rf_usage_error(VERB, "-j takes 1 to 4096 tasks at a time, not "
						      "'%s'", optarg);
			a->jobs = (unsigned int)v;
			break;
		case 'L': a->local = true; break;
		case 'E':
			if (!strcmp(optarg, "auto"))
				a->engine = RF_SWEEP_ENGINE_AUTO;
			else if (!strcmp(optarg, "parallel"))
				a->engine = RF_SWEEP_ENGINE_PARALLEL;
			else if (!strcmp(optarg, "processes"))
				a->engine = RF_SWEEP_ENGINE_PROCESSES;
			else
				return rf_usage_error(VERB, "--engine auto, parallel or processes, not "
						      "'%s'", optarg);
			break;
		case 'P': a->parallel = true; break;
		case 'S': a->slurm = true; break;
		case 'M':
			if (rf_parse_u64(optarg, &v) || v > 1000000)
				return rf_usage_error(VERB, "--max-running takes a number, not '%s'",
						      optarg);
			a->max_running = (unsigned int)v;
			break;
		case 'h': return help() - 1;
		default: return RF_EXIT_USAGE;
		}
	}
	for (; optind < argc; optind++) {
		if (!a->sub) {
			a->sub = argv[optind];
			continue;
		}
		if (a->nr_operands == 2)
			return rf_usage_error(VERB, "unexpected '%s'", argv[optind]);
		a->operands[a->nr_operands++] = argv[optind];
	}
	return 0;
}

static int want(const struct sweep_args *a, size_t n, const char *what)
{
	if (a->nr_operands != n)
		return rf_usage_error(VERB, "%s: %s", a->sub, what);
	return 0;
}

static int cmd_plan(const struct sweep_args *a)
{
	char err[RF_SWEEP_ERRLEN], self[PATH_MAX], *summary = NULL;
	int rc = want(a, 1, "plan SPEC -o PLAN");

	if (!rc && !a->output)
		rc = rf_usage_error(VERB, "plan: -o PLAN names the plan to write");
	if (!rc)
		rc = self_path(self, sizeof(self));
	if (rc)
		return rc;
	if (rf_sweep_plan_make(a->operands[0], a->output, self, &summary, err, sizeof(err))) {
		sweep_error(err);
		return RF_EXIT_FAILURE;
	}
	rf_term_escape_str(stdout, a->output);
	printf(": %s", summary ? summary : "\n");
	free(summary);
	return 0;
}

static int cmd_run(const struct sweep_args *a)
{
	char err[RF_SWEEP_ERRLEN], self[PATH_MAX];
	struct rf_sweep_run_stats st;
	struct rf_sweep_plan *p = NULL;
	unsigned int jobs = a->jobs;
	int rc = want(a, 1, "run PLAN [--local] [-j N]");
	size_t i;

	if (!rc)
		rc = self_path(self, sizeof(self));
	if (!rc)
		rc = load(a->operands[0], &p);
	if (rc)
		return rc;
	if (!jobs) {
		jobs = rf_default_threads() / rf_sweep_plan_threads(p);
		jobs = jobs ? jobs : 1;
	}
	rc = rf_sweep_run_local(p, self, jobs, a->engine, &st, err, sizeof(err));
	if (rc && !st.failed)
		sweep_error(err);
	for (i = 0; st.failed && i < rf_sweep_plan_nr_tasks(p); i++) {
		char why[1024], *shown;

		if (rf_sweep_task_state(p, i, why, sizeof(why)) == RF_SWEEP_DONE)
			continue;
		shown = rf_term_escaped(why);
		rf_err(VERB, "task %zu (%s): %s", i, rf_sweep_plan_task(p, i)->id,
		       shown ? shown : why);
		free(shown);
	}
	printf("%zu tasks: %zu ran, %zu failed, %zu done before; %.2f s (the tasks' own: %.2f s), "
	       "%u at a time by %s\n", st.tasks, st.ran, st.failed, st.skipped, st.wall_seconds,
	       st.task_seconds, jobs, st.parallel ? "GNU parallel" : "processes");
	rf_sweep_plan_free(p);
	return rc ? RF_EXIT_FAILURE : 0;
}

/* @s as a quoted word (rf_sweep_shell_quote()), malloc()ed; NULL out of memory. */
static char *shell_word(const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	rf_sweep_shell_quote(f, s);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * How to run the command list @cmds: every path a quoted word, the lines'
 * own rule, so that a copy of the line runs parallel and nothing else.  A
 * name a terminal cannot show as it is (lib/term.h: a control character, a
 * C1, a byte that is not UTF-8, a backslash; in the user's name for @cmds or
 * in the store's) would be escaped, which no shell undoes: then the names are
 * said by what they are, not printed.
 */
static void run_it_hint(const struct rf_sweep_plan *p, const char *cmds)
{
	char *joblog = NULL, *jw = NULL, *cw = NULL;

	if (asprintf(&joblog, "%s/parallel.joblog", rf_sweep_plan_store(p)) >= 0) {
		jw = shell_word(joblog);
		cw = shell_word(cmds);
	}
	if (jw && cw && rf_term_plain(joblog) && rf_term_plain(cmds))	/* quoting adds ' and \ */
		fprintf(stderr, "run it:  parallel --joblog %s -j N < %s\n"
			"  or on the hosts of a file (the same paths on each):\n"
			"         parallel --sshloginfile HOSTS --joblog %s < %s\n", jw, cw, jw, cw);
	else
		fputs("run it:  parallel --joblog STORE/parallel.joblog -j N < LIST\n"
		      "  or on the hosts of a file (the same paths on each):\n"
		      "         parallel --sshloginfile HOSTS --joblog STORE/parallel.joblog < LIST\n"
		      "  (LIST the file just written, STORE the plan's store: names a terminal shows "
		      "only escaped)\n", stderr);
	free(jw);
	free(cw);
	free(joblog);
}

static int cmd_emit(const struct sweep_args *a)
{
	struct rf_sweep_plan *p = NULL;
	char err[RF_SWEEP_ERRLEN];
	struct rf_outfile out;
	int rc = want(a, 1, "emit PLAN --parallel|--slurm [-o FILE]");
	FILE *f = stdout;

	if (!rc && a->parallel == a->slurm)
		rc = rf_usage_error(VERB, "emit: --parallel or --slurm");
	if (!rc)
		rc = load(a->operands[0], &p);
	if (rc)
		return rc;
	if (a->output && strcmp(a->output, "-")) {
		if (rf_outfile_open(&out, a->output, 0, err, sizeof(err)) ||
		    !(f = rf_outfile_stdio(&out))) {
			sweep_error(err);
			rf_sweep_plan_free(p);
			return RF_EXIT_FAILURE;
		}
	}
	rc = a->parallel ? rf_sweep_emit_parallel(p, f) :
		rf_sweep_emit_slurm(p, f, a->max_running);
	if (f != stdout) {
		if (rc)
			rf_outfile_abandon(&out);
		else if (rf_outfile_commit(&out, err, sizeof(err)))
			rc = RF_EXIT_FAILURE;
	}
	if (rc)
		sweep_error(f != stdout && err[0] ? err : "cannot write the output");
	if (!rc && a->parallel && a->output)
		run_it_hint(p, a->output);
	rf_sweep_plan_free(p);
	return rc ? RF_EXIT_FAILURE : 0;
}

static int cmd_status(const struct sweep_args *a)
{
	struct rf_sweep_plan *p = NULL;
	size_t i, n[3] = { 0 };
	char why[1024];
	int rc = want(a, 1, "status PLAN");

	if (!rc)
		rc = load(a->operands[0], &p);
	if (rc)
		return rc;
	for (i = 0; i < rf_sweep_plan_nr_tasks(p); i++) {
		enum rf_sweep_state s = rf_sweep_task_state(p, i, why, sizeof(why));

		n[s]++;
		if (s == RF_SWEEP_DONE)
			continue;
		printf("task %zu (%s, ", i, rf_sweep_plan_task(p, i)->id);
		rf_term_escape_str(stdout, rf_sweep_plan_task(p, i)->trace);
		printf("): %s: ", s == RF_SWEEP_FAILED ? "failed" : "missing");
		rf_term_escape_str(stdout, why);
		putchar('\n');
	}
	printf("%zu tasks: %zu done, %zu failed, %zu missing\n", rf_sweep_plan_nr_tasks(p),
	       n[RF_SWEEP_DONE], n[RF_SWEEP_FAILED], n[RF_SWEEP_MISSING]);
	rf_sweep_plan_free(p);
	return n[RF_SWEEP_DONE] == i ? 0 : RF_EXIT_FAILURE;
}

static int cmd_merge(const struct sweep_args *a)
{
	struct rf_sweep_merge_stats st;
	struct rf_sweep_plan *p = NULL;
	char err[RF_SWEEP_ERRLEN];
	struct rf_outfile out;
	int rc = want(a, 1, "merge PLAN -o SWEEP.json");

	if (!rc && !a->output)
		rc = rf_usage_error(VERB, "merge: -o SWEEP.json names the file to write");
	if (!rc)
		rc = load(a->operands[0], &p);
	if (rc)
		return rc;
	if (rf_outfile_open(&out, a->output, 0, err, sizeof(err))) {
		sweep_error(err);
		rf_sweep_plan_free(p);
		return RF_EXIT_FAILURE;
	}
	rc = rf_sweep_merge(p, out.fd, stderr, &st, err, sizeof(err));
	if (rc)
		rf_outfile_abandon(&out);
	else
		rc = rf_outfile_commit(&out, err, sizeof(err));
	rf_sweep_plan_free(p);
	if (rc) {
		sweep_error(err);
		return RF_EXIT_FAILURE;
	}
	rf_term_escape_str(stdout, a->output);
	printf(": %zu of %zu tasks done (%zu failed, %zu missing, %zu past damaged chunks); "
	       "%zu configurations, %zu runs%s\n", st.done, st.tasks, st.failed,
	       st.missing, st.partial, st.configs, st.runs,
	       st.done == st.tasks && !st.partial ? "" : ": a partial sweep");
	return st.done == st.tasks && !st.partial ? 0 : 3;
}

static int cmd_task(const struct sweep_args *a)
{
	struct rf_sweep_plan *p = NULL;
	char err[RF_SWEEP_ERRLEN];
	uint64_t i;
	bool ran;
	int rc = want(a, 2, "task PLAN INDEX");

	if (!rc && (rf_parse_u64(a->operands[1], &i)))
		rc = rf_usage_error(VERB, "task: INDEX is a number, not '%s'", a->operands[1]);
	if (!rc)
		rc = load(a->operands[0], &p);
	if (rc)
		return rc;
	if (i >= rf_sweep_plan_nr_tasks(p)) {
		rf_err(VERB, "%s has %zu tasks: no task %llu", a->operands[0],
		       rf_sweep_plan_nr_tasks(p), (unsigned long long)i);
		rf_sweep_plan_free(p);
		return RF_EXIT_USAGE;
	}
	rc = rf_sweep_task_run(p, (size_t)i, NULL, &ran, err, sizeof(err));
	if (rc)
		sweep_error(err);
	rf_sweep_plan_free(p);
	return rc ? RF_EXIT_FAILURE : 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args a = { 0 };
	int rc = parse_args(&a, argc, argv);

	if (rc)
		return rc < 0 ? RF_EXIT_OK : rc;
	if (!a.sub)
		return rf_usage_error(VERB, "a subcommand: plan, run, emit, status, merge or task");
	if (!strcmp(a.sub, "plan"))
		return cmd_plan(&a);
	if (!strcmp(a.sub, "run"))
		return cmd_run(&a);
	if (!strcmp(a.sub, "emit"))
		return cmd_emit(&a);
	if (!strcmp(a.sub, "status"))
		return cmd_status(&a);
	if (!strcmp(a.sub, "merge"))
		return cmd_merge(&a);
	if (!strcmp(a.sub, "task"))
		return cmd_task(&a);
	return rf_usage_error(VERB, "unknown subcommand '%s' (plan, run, emit, status, merge, task)",
			      a.sub);
}
