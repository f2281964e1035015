/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run every file of the fuzz corpus through the fuzz target once (TAP), so
 * `make check` replays each past finding with the normal compiler (and
 * under ASan/UBSan with --enable-sanitizers).
 *
 *   regress-TARGET [FILE|DIR]...   default: $top_srcdir/tests/fuzz/FUZZ_CORPUS
 *
 * One binary per target: this file and the target's, FUZZ_CORPUS its corpus
 * folder ("corpus" for the reader's, "corpus-compare", ...).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/grow.h"

#ifndef FUZZ_CORPUS
#define FUZZ_CORPUS "corpus"
#endif
#include "tests/lib/tap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/*
 * A target whose first byte picks one of fuzz_ways ways to run the rest
 * defines it; each file is then run in every way, its first byte replaced.
 */
extern const unsigned int fuzz_ways __attribute__((weak));

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return ok(0, "%s: cannot open", path);
	do {
		if (len == cap && RF_GROW(buf, cap, cap ? cap * 2 : 65536))
			return ok(0, "%s: out of memory", path);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	if (&fuzz_ways && len) {
		unsigned int w;

		for (w = 0; w < fuzz_ways; w++) {
			buf[0] = (uint8_t)w;
			LLVMFuzzerTestOneInput(buf, len);
		}
	} else {
		LLVMFuzzerTestOneInput(buf, len);
	}
	free(buf);
	return ok(1, "%s (%zu bytes) read without a crash or a broken promise%s", path, len,
		  &fuzz_ways && len ? ", every way" : "");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL;
	size_t nr = 0, cap = 0, i;
	DIR *d;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (RF_GROW(names, cap, nr + 1) ||
		    asprintf(&names[nr], "%s/%s", path, de->d_name) < 0)
			abort();
		nr++;
	}
	if (d)
		closedir(d);
	qsort(names, nr, sizeof(*names), by_name);
	for (i = 0; i < nr; i++) {
		run_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char dflt[4096];
	int i;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			run_path(argv[i]);
	} else {
		snprintf(dflt, sizeof(dflt), "%s/tests/fuzz/%s", top ? top : ".", FUZZ_CORPUS);
		run_path(dflt);
	}
	if (!tap_.run)
		skip_all("no corpus files found");
	return done_testing();
}
