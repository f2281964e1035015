/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for what `refault compare` reads: a results file, an LKP
 * stats.json or matrix.json (the input past its first byte, as a file),
 * compared with itself or with a fixed results file and printed in one of the
 * ways compare prints (table, --all, --json, --csv, --html, --export-matrix, a
 * plot, a gate), which the first byte picks, through the verb itself.  One way
 * an execution, not all eleven: ten times the executions for the same CPU.  Beyond "no crash, no undefined behaviour, no leak": the verb
 * exits 0, 1 or 3, never 2 (the command line is always good) or anything
 * else.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "cli/builtin.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_results[] =
	"{\"format\":\"refault-results\",\"version\":[1,0],\"trace\":{\"path\":\"t.rft\","
	"\"fingerprint\":\"00000000000000aa\",\"events\":10},\"configs\":[{\"name\":\"v4.6\","
	"\"profile\":\"v4.6\",\"stats\":{\"vmstat.workingset_refault_file\":100,"
	"\"vmstat.pgscan_kswapd\":1000,\"memcg./a.pgscan_file\":40,\"cost.estimated_ns\":12345},"
	"\"observed\":{\"vmstat.workingset_refault_file\":90},\"timeseries\":{\"interval_ns\":10,"
	"\"t\":[0,10],\"series\":{\"vmstat.workingset_refault_file\":[0,100]}}}]}";

/*
 * refault compare ARGS... (NULL-terminated): a good command line gives 0, 1 or 3 whatever the
 * file; one side alone may also be a usage error (2) when the file is no multi-configuration
 * results file, which only its content says.
 */
static void verb(const char *first, ...)
{
	char *argv[12] = { "compare" };
	const char *a = first;
	struct quiet q;
	int argc = 1, rc;
	va_list ap;

	va_start(ap, first);
	for (; a && argc < 11; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	q = quiet_begin();
	rc = cmd_compare(argc, argv);
	quiet_end(q);
	if (rc != 0 && rc != 1 && rc != 3 && !(rc == 2 && argc == 2))
		abort();
}

/* the ways the verb runs, one an input: byte 0 picks it (fuzz-regress.c replays every way) */
const unsigned int fuzz_ways = 11;

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
	case 0:
		verb(in, NULL);
		break;
	case 1:
		verb(in, in, NULL);
		break;
	case 2:
		verb("--force", "--all", base, in, NULL);
		break;
	case 3:
		verb("--force", "--json", in, base, NULL);
		break;
	case 4:
		verb("--force", "--csv", "--all", in, base, NULL);
		break;
	case 5:
		verb("--force", "--html", "/dev/null", in, base, NULL);
		break;
	case 6:
		verb("--force", "--plot", "workingset_refault_file", in, base, NULL);
		break;
	case 7:
		verb("--force", "--plot", "workingset_refault_file", "--over", "time", in, base,
		     NULL);
		break;
	case 8:
		verb("--force", "--fail-if", "workingset_refault_file > +5%", in, base, NULL);
		break;
	case 9:
		snprintf(spec, sizeof(spec), "%s,%s", in, in);
		verb("--force", spec, base, NULL);
		break;
	default:
		verb("--export-matrix", "/dev/null", in, NULL);
		break;
	}
	close(fd);
	return 0;
}
