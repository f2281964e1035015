/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault trace convert` from the formats people bring:
 * the input's first byte picks csv, oracleGeneral or jsonl, the rest is the
 * file, converted to a trace and to jsonl (into /dev/null) through the trace
 * tools' library (formats/tools/convert.h), as the verb converts it.  A bad
 * input is an error with a message; nothing crashes, leaks or is left behind.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "formats/tools/convert.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every message is a string, read whole here; FUZZ_VERBOSE shows them. */
static void say(void *arg, enum rf_tools_say kind, const char *text)
{
	(void)arg;
	if (!text)
		abort();
	if (strlen(text) && getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s%s\n", kind == RF_TOOLS_ERROR ? "error: " : "", text);
}

static void convert(const char *in, enum rf_tools_format from, enum rf_tools_format to)
{
	struct rf_tools_convert_opts o = { .in = in, .out = "/dev/null", .from = from, .to = to };
	struct rf_tools_log log = { say, NULL };
	struct quiet q = quiet_begin();
	int rc = rf_tools_convert(&o, &log);

	quiet_end(q);
	if (rc > 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum rf_tools_format formats[] = { RF_TOOLS_CSV, RF_TOOLS_ORACLE,
							RF_TOOLS_JSONL };
	enum rf_tools_format from;
	char in[64];
	int fd;

	if (!size)
		return 0;
	from = formats[data[0] % 3];
	fd = memfile(data + 1, size - 1, in, sizeof(in));
	if (fd < 0)
		abort();
	convert(in, from, RF_TOOLS_TRACE);
	convert(in, from, RF_TOOLS_JSONL);
	close(fd);
	return 0;
}
