/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the recorder's reader of debugfs's multi-gen LRU
 * state (recorder/lru_gen.c): any text, as lru_gen or lru_gen_full might
 * print it or not.  Every memcg it reports has a path the kernel could
 * print (NUL-terminated, shorter than PATH_MAX) and the eleven counters in
 * their order, with min_seq at most max_seq; nothing crashes, leaks or
 * goes undefined.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/record-local.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check(void *ctx, const char *path, const struct rf_counter *c, uint32_t nr)
{
	(void)ctx;
	if (strnlen(path, 4096) == 4096 || nr != 11 || strcmp(c[0].name, "lru_gen.max_seq") ||
	    strcmp(c[10].name, "lru_gen.gen3_file") || c[1].value > c[0].value ||
	    c[2].value > c[0].value)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = size ? fmemopen((void *)data, size, "r") : NULL;

	if (!f)
		return 0;
	if (rec_lru_gen_parse(f, check, NULL) != 0)
		abort();	/* only the callback or memory could stop it */
	fclose(f);
	return 0;
}
