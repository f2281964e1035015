/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault workload: a workload drawn from a seed over a documented space,
 * sized against a memory limit, to record and validate (docs/workload.md).
 *
 *   refault workload --seed N --limit SIZE [--dir DIR] [--swap] [--no-cgroups]
 *                    [--scale F] [--describe[=json]] [-q] [prepare|run|clean]
 *
 * The draw and the running are librefault-workload's (workload/workload.h);
 * this file parses, prints the description and says what to do next.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/util.h"
#include "lib/utf8.h"
#include "workload/workload.h"

#define VERB "workload"

enum action { ACT_RUN, ACT_PREPARE, ACT_CLEAN };
enum describe { DESCRIBE_NO, DESCRIBE_TEXT, DESCRIBE_JSON };

struct workload_args {
	struct rf_workload_inputs in;
	bool have_seed, have_limit, quiet, help;
	const char *limit_arg;		/* as typed, for the prepare hint */
	const char *dir;
	enum describe describe;
	enum action action;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: refault workload --seed N --limit SIZE [--dir DIR] [--swap] [--no-cgroups]\n"
		"                        [--scale F] [--describe[=json]] [-q] [prepare|run|clean]\n"
		"\n"
		"A workload drawn from a seed: 1 to 3 files, 1 to 3 phases of 1 to 4 forked tasks,\n"
		"each one access stream (read, pread, mmap loads and stores, write, anonymous\n"
		"stores), sized against a memory limit; the same inputs draw the same workload\n"
		"(docs/workload.md); refault record records it (man refault-workload: EXAMPLES).\n"
		"\n"
		"  prepare              create the draw's files in DIR (kept when their size is right)\n"
		"  run                  the workload (the default); its files must be prepared\n"
		"  clean                remove the draw's files\n"
		"      --seed N         the draw (required)\n"
		"      --limit SIZE     the memory limit the workload is sized against, 4M to 1T, e.g.\n"
		"                       32M: the limit of the recording's memory cgroup (required)\n"
		"      --dir DIR        where the files are (default .)\n"
		"      --swap           the recording has swap: anonymous memory up to 2 x the limit\n"
		"                       (without it, at most limit/2 at a time)\n"
		"      --no-cgroups     never put a phase's tasks in sibling child memory cgroups\n"
		"      --scale F        multiply the number of operations (not sizes), 0.001 to 100\n"
		"                       (default 1)\n"
		"      --describe[=json]  print the drawn parameters, one line of key=value (or one\n"
		"                       JSON object) on stdout, and do nothing else\n"
		"  -q, --quiet          no description on stderr before run, no note after prepare\n"
		"                       and clean\n"
		"\n"
		"Exit status: 0 done, 1 failed (a file not prepared, a task failed, no memory cgroup\n"
		"for sibling cgroups), 2 bad command line.\n");
}

static int opt_seed(struct workload_args *a, const char *arg)
{
	if (rf_parse_u64(arg, &a->in.seed))
		return rf_usage_error(VERB, "--seed wants an unsigned integer, not '%s'", arg);
	a->have_seed = true;
	return 0;
}

static int opt_limit(struct workload_args *a, const char *arg)
{
	if (rf_parse_size(arg, &a->in.limit))
		return rf_usage_error(VERB, "--limit wants a size such as 32M or 1G, not '%s'", arg);
	a->have_limit = true;
	a->limit_arg = arg;
	return 0;
}

static int opt_dir(struct workload_args *a, const char *arg)
{
	if (!*arg)
		return rf_usage_error(VERB, "--dir wants a directory, not ''");
	a->dir = arg;
	return 0;
}

static int opt_swap(struct workload_args *a, const char *arg)
{
	a->in.swap = true;
	return 0;
}

static int opt_no_cgroups(struct workload_args *a, const char *arg)
{
	a->in.no_cgroups = true;
	return 0;
}

static int opt_scale(struct workload_args *a, const char *arg)
{
	char *end;

	errno = 0;
	a->in.scale = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(a->in.scale) || a->in.scale <= 0)
		return rf_usage_error(VERB, "--scale wants a positive number, not '%s'", arg);
	return 0;
}

static int opt_describe(struct workload_args *a, const char *arg)
{
	if (!arg || !strcmp(arg, "text"))
		a->describe = DESCRIBE_TEXT;
	else if (!strcmp(arg, "json"))
		a->describe = DESCRIBE_JSON;
	else
		return rf_usage_error(VERB, "--describe=%s: text or json", arg);
	return 0;
}

static int opt_quiet(struct workload_args *a, const char *arg)
{
	a->quiet = true;
	return 0;
}

static int opt_help(struct workload_args *a, const char *arg)
{
	a->help = true;
	return 0;
}

/* The options: each getopt_long() entry beside its handler. */
static const struct workload_option {
	struct option o;
	int (*handle)(struct workload_args *a, const char *arg);
} options[] = {
	{ { "seed", required_argument, NULL, 's' }, opt_seed },
	{ { "limit", required_argument, NULL, 'l' }, opt_limit },
	{ { "dir", required_argument, NULL, 'd' }, opt_dir },
	{ { "swap", no_argument, NULL, 'S' }, opt_swap },
	{ { "no-cgroups", no_argument, NULL, 'C' }, opt_no_cgroups },
	{ { "scale", required_argument, NULL, 'x' }, opt_scale },
	{ { "describe", optional_argument, NULL, 'D' }, opt_describe },
	{ { "quiet", no_argument, NULL, 'q' }, opt_quiet },
	{ { "help", no_argument, NULL, 'h' }, opt_help },
};

static int take_action(struct workload_args *a, int argc, char **argv)
{
	static const char *const names[] = { [ACT_RUN] = "run", [ACT_PREPARE] = "prepare",
					     [ACT_CLEAN] = "clean" };
	size_t i;

	if (optind >= argc)
		return 0;
	for (i = 0; i < ARRAY_SIZE(names) && strcmp(argv[optind], names[i]); i++)
		;
	if (i == ARRAY_SIZE(names))
		return rf_usage_error(VERB, "unknown action '%s' (prepare, run or clean)", argv[optind]);
	a->action = (enum action)i;
	if (++optind < argc)
		return rf_usage_error(VERB, "unexpected argument '%s'", argv[optind]);
	if (a->describe)
		return rf_usage_error(VERB, "--describe prints the draw and does nothing else: "
				      "drop '%s'", names[i]);
	return 0;
}

static int parse_args(struct workload_args *a, int argc, char **argv)
{
	struct option longopts[ARRAY_SIZE(options) + 1] = { { 0 } };
	bool first = true;
	size_t i;
	int c, rc;

	for (i = 0; i < ARRAY_SIZE(options); i++)
		longopts[i] = options[i].o;
	a->in.scale = 1.0;
	a->dir = ".";
	while ((c = rf_getopt(VERB, argc, argv, ":qh", longopts, NULL, &first)) != -1) {
		for (i = 0; i < ARRAY_SIZE(options) && options[i].o.val != c; i++)
			;
		if (i == ARRAY_SIZE(options))
			return RF_EXIT_USAGE;	/* rf_getopt() said why */
		rc = options[i].handle(a, optarg);
		if (rc)
			return rc;
	}
	if (a->help)
		return 0;
	rc = take_action(a, argc, argv);
	if (rc)
		return rc;
	if (!a->have_seed)
		return rf_usage_error(VERB, "which draw? --seed N is required");
	if (!a->have_limit)
		return rf_usage_error(VERB, "--limit SIZE is required: the memory limit of the "
				      "recording (its --memcg-limit)");
	return 0;
}

static int describe(const struct rf_workload_params *p, enum describe how)
{
	char text[RF_WORKLOAD_TEXT_MAX];
	json_object *o;
	int rc = 0;

	if (how == DESCRIBE_TEXT) {
		if (rf_workload_describe(p, text, sizeof(text)) < 0) {
			rf_err(VERB, "the description does not fit %d bytes", RF_WORKLOAD_TEXT_MAX);
			return RF_EXIT_FAILURE;
		}
		puts(text);
		return RF_EXIT_OK;
	}
	o = rf_workload_json(p);
	if (!o) {
		rf_err(VERB, "out of memory");
		return RF_EXIT_FAILURE;
	}
	if (rf_utf8_json_write(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					JSON_C_TO_STRING_NOSLASHESCAPE), stdout) || putchar('\n') == EOF)
		rc = RF_EXIT_FAILURE;
	json_object_put(o);
	return rc;
}

/* @s as one shell word: itself when it is plain, else single-quoted ('\'' for a quote) */
static void shell_word(const char *s, char *buf, size_t len)
{
	size_t off = 0;

	if (s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-:@")] == 0) {
		snprintf(buf, len, "%s", s);
		return;
	}
	buf[off++] = '\'';
	for (; *s && off + 6 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + off, "'\\''", 4);
			off += 4;
		} else {
			buf[off++] = *s;
		}
	}
	memcpy(buf + off, "'", 2);
}

/* "refault workload --seed N --limit L [--dir D] prepare": the command that makes the files */
static void prepare_hint(const struct workload_args *a, char *buf, size_t len)
{
	char dir[PATH_MAX + 64] = "";

	if (strcmp(a->dir, "."))
		shell_word(a->dir, dir, sizeof(dir));
	snprintf(buf, len, "refault workload --seed %llu --limit %s%s%s prepare",
		 (unsigned long long)a->in.seed, a->limit_arg, dir[0] ? " --dir " : "", dir);
}

static int run(const struct workload_args *a, const struct rf_workload_params *p)
{
	char err[RF_WORKLOAD_ERRLEN] = "", text[RF_WORKLOAD_TEXT_MAX], hint[PATH_MAX + 256];
	int ret;

	if (!a->quiet && rf_workload_describe(p, text, sizeof(text)) >= 0)
		fprintf(stderr, "refault workload: %s\n", text);
	fflush(stderr);
	ret = rf_workload_run(p, a->dir, err, sizeof(err));
	if (!ret)
		return RF_EXIT_OK;
	if (ret == RF_ERR_STATE) {
		prepare_hint(a, hint, sizeof(hint));
		rf_err(VERB, "%s; run '%s' first", err, hint);
	} else if (ret == RF_ERR_UNSUPPORTED) {
		rf_err(VERB, "this draw puts a phase's tasks in sibling memory cgroups, which cannot "
		       "be made here (%s); run as root in a memory cgroup you may write, or draw "
		       "none with --no-cgroups", err);
	} else {
		rf_err(VERB, "%s", err[0] ? err : rf_strerror(ret));
	}
	return RF_EXIT_FAILURE;
}

int cmd_workload(int argc, char **argv)
{
	struct workload_args a = { 0 };
	struct rf_workload_params *p;
	char err[RF_WORKLOAD_ERRLEN] = "";
	unsigned int n = 0;
	int rc;

	rc = parse_args(&a, argc, argv);
	if (rc)
		return rc;
	if (a.help) {
		usage(stdout);
		return RF_EXIT_OK;
	}
	p = malloc(sizeof(*p));
	if (!p) {
		rf_err(VERB, "out of memory");
		return RF_EXIT_FAILURE;
	}
	if (rf_workload_draw(&a.in, p, err, sizeof(err))) {
		free(p);
		return rf_usage_error(VERB, "%s", err);
	}
	if (a.describe) {
		rc = describe(p, a.describe);
	} else if (a.action == ACT_RUN) {
		rc = run(&a, p);
	} else {
		rc = a.action == ACT_PREPARE ? rf_workload_prepare(p, a.dir, &n, err, sizeof(err)) :
					       rf_workload_clean(p, a.dir, &n, err, sizeof(err));
		if (rc)
			rf_err(VERB, "%s", err);
		else if (!a.quiet && a.action == ACT_PREPARE)
			fprintf(stderr, "refault workload: %s: %u files written, %u kept\n", a.dir, n,
				p->nr_files - n);
		else if (!a.quiet)
			fprintf(stderr, "refault workload: %s: %u files removed\n", a.dir, n);
		rc = rc ? RF_EXIT_FAILURE : RF_EXIT_OK;
	}
	free(p);
	return rc;
}
