/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault compare --fail-if GATE` expressions: the
 * input is the GATE text (up to its first NUL), evaluated on two fixed
 * results files through the verb.  A bad gate is a usage error (exit 2), a
 * gate on a metric no column has an error (1), a gate that holds exit 3:
 * nothing else, no crash, no undefined behaviour.
 */
#include "config.h"

#include <string.h>

#include "cli/builtin.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RESULTS(refaults, cost) \
	"{\"format\":\"refault-results\",\"version\":[1,0],\"trace\":{\"path\":\"t.rft\"," \
	"\"fingerprint\":\"00000000000000aa\",\"events\":10},\"configs\":[{\"name\":\"v\"," \
	"\"profile\":\"v4.6\",\"stats\":{\"vmstat.workingset_refault_file\":" refaults "," \
	"\"memcg./a.workingset_refault_file\":5,\"cost.estimated_ns\":" cost "}}]}"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char a[] = RESULTS("100", "1000"), b[] = RESULTS("150", "900");
	static char pa[64], pb[64];
	static int fa = -1, fb = -1;
	char gate[4096], *argv[6];
	struct quiet q;
	size_t n = size < sizeof(gate) - 1 ? size : sizeof(gate) - 1;
	int rc;

	if (fa < 0) {
		fa = memfile(a, strlen(a), pa, sizeof(pa));
		fb = memfile(b, strlen(b), pb, sizeof(pb));
	}
	if (fa < 0 || fb < 0)
		abort();
	memcpy(gate, data, n);
	gate[n] = '\0';
	argv[0] = "compare";
	argv[1] = "--fail-if";
	argv[2] = gate;
	argv[3] = pa;
	argv[4] = pb;
	argv[5] = NULL;
	q = quiet_begin();
	rc = cmd_compare(5, argv);
	quiet_end(q);
	if (rc < 0 || rc > 3)
		abort();
	return 0;
}
