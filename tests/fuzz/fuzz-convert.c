/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault trace convert` from the formats people bring:
 * the input's first byte picks csv, oracleGeneral or jsonl, the rest is the
 * file, converted to a trace and to jsonl (into /dev/null) through the verb.
 * A bad input is exit 1 with a message; nothing crashes, leaks or is left
 * behind.
 */
#include "config.h"

#include <string.h>

#include "cli/builtin.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void convert(char *in, const char *from, const char *to)
{
	char *argv[] = { "trace", "convert", in, "/dev/null", "--from", (char *)from,
			 "--to", (char *)to, NULL };
	struct quiet q = quiet_begin();
	int rc = cmd_trace(8, argv);

	quiet_end(q);

	if (rc != 0 && rc != 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "csv", "oracle", "jsonl" };
	const char *from;
	char in[64];
	int fd;

	if (!size)
		return 0;
	from = formats[data[0] % 3];
	fd = memfile(data + 1, size - 1, in, sizeof(in));
	if (fd < 0)
		abort();
	convert(in, from, "trace");
	convert(in, from, "jsonl");
	close(fd);
	return 0;
}
