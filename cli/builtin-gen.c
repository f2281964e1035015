/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault gen: write a synthetic trace of a known workload.
 *
 *   refault gen CASE [--seed S] [--mem SIZE] [--tasks N] [--cpus N] [--scale F] -o TRACE
 *   refault gen --list
 *
 * The same arguments always give the same bytes (docs/generators.md).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/outfile.h"
#include "recorder/gen/gen.h"

#define VERB	"gen"

struct gen_opts {
	struct rf_gen_params params;
	const char *name;
	const char *output;
	bool list;
	bool help;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault gen CASE [--seed S] [--mem SIZE] [--tasks N] [--cpus N] [--scale F] -o TRACE\n"
		"       refault gen --list\n\n"
		"Write a synthetic trace of a known workload; the same arguments give the same bytes.\n\n"
		"  -o, --output TRACE  the trace to write (required)\n"
		"      --seed S        PRNG seed (default %u)\n"
		"      --mem SIZE      the synthetic host's memory; cases size themselves from it (default 256M)\n"
		"      --tasks N       nr_task: tasks of the workload (default: one per CPU)\n"
		"      --cpus N        CPUs of the synthetic host; tasks are spread over them (default %u)\n"
		"      --scale F       multiply each case's footprint by F (default 1)\n"
		"      --list          list the cases, one line each\n\n"
		"Exit status: 0 written, 1 the trace could not be written, 2 bad arguments.\n",
		RF_GEN_DEFAULT_SEED, RF_GEN_DEFAULT_CPUS);
}

static void list_cases(void)
{
	const struct rf_gen_case_info *c;
	size_t i;

	for (i = 0; (c = rf_gen_case_at(i)); i++)
		printf("%-24s %s\n", c->name, c->summary);
}

static int parse_u32(const char *opt, const char *arg, uint32_t *out)
{
	uint64_t v;

	if (rf_parse_u64(arg, &v) || v == 0 || v > UINT32_MAX) {
		rf_err(VERB, "%s wants a positive integer, not '%s'", opt, arg);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_scale(const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*out) || *out <= 0) {
		rf_err(VERB, "--scale wants a positive number, not '%s'", arg);
		return -1;
	}
	return 0;
}

static int parse_option(struct gen_opts *o, int c, const char *arg)
{
	struct rf_gen_params *p = &o->params;

	switch (c) {
	case 'o':
		o->output = arg;
		return 0;
	case 's':
		if (!rf_parse_u64(arg, &p->seed))
			return 0;
		rf_err(VERB, "--seed wants an unsigned integer, not '%s'", arg);
		return -1;
	case 'm':
		if (!rf_parse_size(arg, &p->mem_bytes))
			return 0;
		rf_err(VERB, "--mem wants a size such as 64M or 2G, not '%s'", arg);
		return -1;
	case 't':
		return parse_u32("--tasks", arg, &p->tasks);
	case 'c':
		return parse_u32("--cpus", arg, &p->cpus);
	case 'x':
		return parse_scale(arg, &p->scale);
	case 'l':
		o->list = true;
		return 0;
	case 'h':
		o->help = true;
		return 0;
	default:
		return -1;
	}
}

static int parse_args(struct gen_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "mem", required_argument, NULL, 'm' },
		{ "tasks", required_argument, NULL, 't' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "scale", required_argument, NULL, 'x' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool first = true;
	int c;

	/* GNU getopt permutes: options may come before or after the case name. */
	while ((c = rf_getopt(VERB, argc, argv, ":o:h", longopts, NULL, &first)) != -1)
		if (c == '?' || parse_option(o, c, optarg))
			return -1;
	if (optind < argc)
		o->name = argv[optind++];
	if (optind < argc) {
		rf_err(VERB, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static int check_args(const struct gen_opts *o)
{
	if (!o->name) {
		rf_err(VERB, "which case? 'refault gen --list' names them");
		return -1;
	}
	if (!o->output) {
		rf_err(VERB, "no output: say where with -o TRACE");
		return -1;
	}
	return 0;
}

int cmd_gen(int argc, char **argv)
{
	struct rf_trace_header h;
	struct gen_opts o = { 0 };
	char err[512] = "";
	uint64_t events = 0;
	char size[32];
	struct stat st;
	struct rf_outfile out;
	int ret;

	rf_gen_params_init(&o.params);
	if (parse_args(&o, argc, argv))
		return RF_EXIT_USAGE;
	if (o.help || o.list) {
		if (o.help)
			usage(stdout);
		else
			list_cases();
		return RF_EXIT_OK;
	}
	if (check_args(&o))
		return RF_EXIT_USAGE;
	/* Bad parameters are the user's to fix (exit 2); writing problems are not. */
	if (rf_gen_header(o.name, &o.params, &h, err, sizeof(err))) {
		rf_err(VERB, "%s", err);
		return RF_EXIT_USAGE;
	}
	if (rf_outfile_open(&out, o.output, 0, err, sizeof(err))) {
		rf_err(VERB, "%s", err);
		return RF_EXIT_FAILURE;
	}
	ret = rf_gen_write(o.name, &o.params, out.fd, o.output, &events, err, sizeof(err));
	if (ret) {
		rf_outfile_abandon(&out);
		rf_err(VERB, "%s", err[0] ? err : rf_strerror(ret));
		return RF_EXIT_FAILURE;
	}
	if (fstat(out.fd, &st))
		st.st_size = 0;
	if (rf_outfile_commit(&out, err, sizeof(err))) {
		rf_err(VERB, "%s", err);
		return RF_EXIT_FAILURE;
	}
	fprintf(stderr, "refault gen: wrote %s: %s, %llu events, %s\n", o.output, o.name,
		(unsigned long long)events, rf_format_bytes((uint64_t)st.st_size, size, sizeof(size)));
	return RF_EXIT_OK;
}
