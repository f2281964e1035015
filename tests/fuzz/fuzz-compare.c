/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for what `refault compare` reads: a results file, an LKP
 * stats.json or matrix.json (the input past its first byte, as a file),
 * compared with itself or with a fixed results file and printed in one of the
 * ways compare prints (table, --all, --json, --csv, --html, --export-matrix, a
 * plot, a gate, the change table and its JSON), which the first byte picks, through the verb's library
 * (rf_compare_verb(), compare/compare.h) with the options the command would
 * give it.  One way an execution, not all thirteen: ten times the executions for
 * the same CPU.  Beyond "no crash, no undefined behaviour, no leak": the verb
 * returns 0, 1 or 3, never 2 (the options are always good) or anything else,
 * says each message whole through its log, and writes nothing to the standard
 * output or error itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_results[] =
	"{\"format\":\"refault-results\",\"version\":[1,0],\"trace\":{\"path\":\"t.rft\","
	"\"fingerprint\":\"00000000000000aa\",\"events\":10},\"configs\":[{\"name\":\"v4.6\","
	"\"profile\":\"v4.6\",\"stats\":{\"vmstat.workingset_refault_file\":100,"
	"\"vmstat.pgscan_kswapd\":1000,\"memcg./a.pgscan_file\":40,\"cost.estimated_ns\":12345},"
	"\"observed\":{\"vmstat.workingset_refault_file\":90},\"timeseries\":{\"interval_ns\":10,"
	"\"t\":[0,10],\"series\":{\"vmstat.workingset_refault_file\":[0,100]}}}]}";

static int saved_err = -1;	/* the standard error while the verb runs */

/* Every message is a string, read whole here; FUZZ_VERBOSE shows them. */
static void say(void *arg, enum rf_compare_say kind, const char *text)
{
	(void)arg;
	if (!text || kind > RF_COMPARE_LINE)
		abort();
	if (strlen(text) && getenv("FUZZ_VERBOSE"))
		dprintf(saved_err, "%s\n", text);
}

/*
 * The verb with @o, its output to /dev/null and its standard output and error
 * into a memfd that must stay empty: good options give 0, 1 or 3 whatever the
 * file; one side alone (@single) may also be a usage error (2) when the file is
 * no multi-configuration results file, which only its content says.
 */
static void verb(struct rf_compare_opts *o, bool single)
{
	static FILE *null;
	static int sink = -1;
	struct rf_compare_log log = { say, NULL };
	int rc, saved_out;

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (sink < 0 && (sink = memfd_create("fuzz-compare-stdio", MFD_CLOEXEC)) < 0)
		abort();
	o->out = null;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	if (saved_out < 0 || saved_err < 0 || dup2(sink, STDOUT_FILENO) < 0 ||
	    dup2(sink, STDERR_FILENO) < 0)
		abort();
	rc = rf_compare_verb(o, &log);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	rf_compare_opts_release(o);
	if (rc != 0 && rc != 1 && rc != 3 && !(rc == 2 && single))
		abort();
	if (lseek(sink, 0, SEEK_END) != 0)
		abort();	/* the library wrote to the standard output or error */
}

/* The options of `refault compare --force [--FLAG] IN BASE` (or BASE IN with @base_first). */
static void two(char *in, char *base, bool base_first, struct rf_compare_opts *o)
{
	char *specs[2] = { base_first ? base : in, base_first ? in : base };

	o->force = true;
	o->specs = specs;
	o->nspecs = 2;
	verb(o, false);
}

/* the ways the verb runs, one an input: byte 0 picks it (fuzz-regress.c replays every way) */
const unsigned int fuzz_ways = 13;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char base[64];
	static int base_fd = -1;
	char in[64], spec[160];
	int fd;

	if (!size)
		return 0;
	if (base_fd < 0)
		base_fd = memfile(base_results, strlen(base_results), base, sizeof(base));
	fd = memfile(data + 1, size - 1, in, sizeof(in));
	if (fd < 0 || base_fd < 0)
		abort();
	switch (data[0] % fuzz_ways) {
	case 0: {
		struct rf_compare_opts o = { .specs = (char *[]){ in }, .nspecs = 1 };

		verb(&o, true);
		break;
	}
	case 1: {
		struct rf_compare_opts o = { .specs = (char *[]){ in, in }, .nspecs = 2 };

		verb(&o, false);
		break;
	}
	case 2:
		two(in, base, true, &(struct rf_compare_opts){ .all = true });
		break;
	case 3:
		two(in, base, false, &(struct rf_compare_opts){ .json = true });
		break;
	case 4:
		two(in, base, false, &(struct rf_compare_opts){ .csv = true, .all = true });
		break;
	case 5:
		two(in, base, false, &(struct rf_compare_opts){ .html = "/dev/null" });
		break;
	case 6:
		two(in, base, false, &(struct rf_compare_opts){ .plot = "workingset_refault_file" });
		break;
	case 7:
		two(in, base, false, &(struct rf_compare_opts){ .plot = "workingset_refault_file",
								 .over = "time" });
		break;
	case 8: {
		struct rf_compare_opts o = { 0 };

		if (rf_compare_opts_add_gate(&o, "workingset_refault_file > +5%", NULL))
			abort();
		two(in, base, false, &o);
		break;
	}
	case 9:
		snprintf(spec, sizeof(spec), "%s,%s", in, in);
		two(spec, base, false, &(struct rf_compare_opts){ 0 });
		break;
	case 10:	/* --change: the file as kernel A's runs (twice), the base's as B's */
		snprintf(spec, sizeof(spec), "%s,%s", in, in);
		two(spec, base, false, &(struct rf_compare_opts){ .change = "v4.6,v4.6" });
		break;
	case 11:
		two(in, base, true, &(struct rf_compare_opts){ .change = "v4.6,v4.6", .json = true,
								.all = true });
		break;
	default: {
		struct rf_compare_opts o = { .specs = (char *[]){ in }, .nspecs = 1,
					     .export_matrix = "/dev/null" };

		verb(&o, false);
		break;
	}
	}
	close(fd);
	return 0;
}
