/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault: the front command.  Like perf and git, one binary with verbs;
 * each verb lives in its own builtin file and gets argv from its own name on.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli/builtin.h"
#include "cli/util.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "trace", cmd_trace, "inspect, verify, slice, recover and convert traces" },
	{ "replay", cmd_replay, "replay a trace through reclaim-model configurations, side by side" },
	{ "record", cmd_record, "capture page references and reclaim events from the running kernel" },
	{ "gen", cmd_gen, "write a synthetic trace of a known workload (vm-scalability, seeds)" },
	{ "compare", cmd_compare, "LKP-style regression tables, gates and plots over replay results" },
	{ "validate", cmd_validate, "the model against the kernel's own counters in a recorded trace" },
	{ "report", cmd_report, "which files, cgroups, pids or commands refault, kernel and models" },
	{ "sweep", cmd_sweep, "traces x configurations as tasks for processes, GNU parallel, Slurm" },
	{ "lab", cmd_lab, "a kernel built with your patch, booted under qemu, records a command" },
	{ "workload", cmd_workload, "a workload drawn from a seed, sized against a limit, to record" },
};

static void print_usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: refault [--version] [--help] <command> [<args>]\n\n"
		     "refault replays memory-reference traces through a model of Linux reclaim.\n\n"
		     "commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'refault <command> --help' describes a command.\n"
		     "Exit status: 0 success, 1 failure (bad data, I/O), 2 bad command line; a verb may add\n"
		     "its own (compare and validate: 3 when a gate or tolerance trips; sweep merge: 3 when\n"
		     "the sweep file it wrote is partial).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	rf_cli_install_crash_handler();
	if (argc < 2) {
		print_usage(stderr);
		return RF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("refault %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return rf_cli_finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "refault: '%s' is not a refault command. See 'refault --help'.\n", argv[1]);
	return RF_EXIT_USAGE;
}
