/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for `refault compare --fail-if GATE` expressions: the
 * input is the GATE text (up to its first NUL), added to the options as the
 * command adds it (rf_compare_opts_add_gate()) and evaluated on two fixed
 * results files through the verb's library (rf_compare_verb()).  A bad gate
 * is a usage error (2), said through the log; a gate on a metric no column
 * has an error (1), a gate that trips 3: nothing else, no crash, no
 * undefined behaviour.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RESULTS(refaults, cost) \
	"{\"format\":\"refault-results\",\"version\":[1,0],\"trace\":{\"path\":\"t.rft\"," \
	"\"fingerprint\":\"00000000000000aa\",\"events\":10},\"configs\":[{\"name\":\"v\"," \
	"\"profile\":\"v4.6\",\"stats\":{\"vmstat.workingset_refault_file\":" refaults "," \
	"\"memcg./a.workingset_refault_file\":5,\"cost.estimated_ns\":" cost "}}]}"

/* Every message is a string, read whole; a bad gate's says so (FUZZ_VERBOSE shows them). */
static void say(void *arg, enum rf_compare_say kind, const char *text)
{
	if (!text || kind > RF_COMPARE_LINE)
		abort();
	*(int *)arg += 1;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s\n", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char a[] = RESULTS("100", "1000"), b[] = RESULTS("150", "900");
	static char pa[64], pb[64];
	static int fa = -1, fb = -1;
	static FILE *null;
	char gate[4096], *specs[2] = { pa, pb };
	struct rf_compare_opts o = { .specs = specs, .nspecs = 2 };
	int said = 0, rc;
	struct rf_compare_log log = { say, &said };
	size_t n = size < sizeof(gate) - 1 ? size : sizeof(gate) - 1;

	if (fa < 0) {
		fa = memfile(a, strlen(a), pa, sizeof(pa));
		fb = memfile(b, strlen(b), pb, sizeof(pb));
		null = fopen("/dev/null", "w");
	}
	if (fa < 0 || fb < 0 || !null)
		abort();
	memcpy(gate, data, n);
	gate[n] = '\0';
	o.out = null;
	rc = rf_compare_opts_add_gate(&o, gate, &log);
	if (!rc)
		rc = rf_compare_verb(&o, &log);
	rf_compare_opts_release(&o);
	if (rc < 0 || rc > 3 || (rc && !said))
		abort();	/* a status not the verb's, or one unexplained */
	return 0;
}
