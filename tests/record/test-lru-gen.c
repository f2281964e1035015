/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recorder/lru_gen.c: debugfs's multi-gen LRU state into counters.  The
 * input is printed here with the kernel's own formats (mm/vmscan.c
 * lru_gen_seq_show() and lru_gen_seq_show_full(), v6.12), so no kernel
 * with the multi-gen LRU is needed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/record-local.h"
#include "tests/lib/tap.h"

#define MAX_MEMCGS 4

struct seen {
	unsigned int nr;
	char path[MAX_MEMCGS][64];
	uint64_t v[MAX_MEMCGS][16];
	unsigned int stop_after;	/* 0: never */
};

static const char *const names[] = {
	"lru_gen.max_seq", "lru_gen.min_seq_anon", "lru_gen.min_seq_file",
	"lru_gen.gen0_anon", "lru_gen.gen1_anon", "lru_gen.gen2_anon", "lru_gen.gen3_anon",
	"lru_gen.gen0_file", "lru_gen.gen1_file", "lru_gen.gen2_file", "lru_gen.gen3_file",
};
#define NR_NAMES (sizeof(names) / sizeof(names[0]))

static int collect(void *ctx, const char *path, const struct rf_counter *c, uint32_t nr)
{
	struct seen *s = ctx;
	uint32_t i, j;

	if (s->nr == MAX_MEMCGS)
		return -1;
	snprintf(s->path[s->nr], sizeof(s->path[0]), "%s", path);
	for (i = 0; i < nr; i++)
		for (j = 0; j < NR_NAMES; j++)
			if (!strcmp(c[i].name, names[j]))
				s->v[s->nr][j] = c[i].value + 1;	/* 0: not given */
	s->nr++;
	return s->stop_after && s->nr == s->stop_after ? 42 : 0;
}

static uint64_t get(const struct seen *s, unsigned int memcg, const char *name)
{
	unsigned int j;

	for (j = 0; j < NR_NAMES; j++)
		if (!strcmp(names[j], name))
			return s->v[memcg][j] ? s->v[memcg][j] - 1 : ~0ull;
	return ~0ull;
}

/* A generation line, as lru_gen_seq_show() prints it. */
static void gen(FILE *f, unsigned long seq, unsigned int age, unsigned long anon, char anon_mark,
		unsigned long file, char file_mark, int full)
{
	int tier;

	fprintf(f, " %10lu %10u", seq, age);
	fprintf(f, " %10lu%c", anon, anon_mark);
	fprintf(f, " %10lu%c", file, file_mark);
	fputc('\n', f);
	if (!full)
		return;
	/* lru_gen_seq_show_full(): the tier lines and the mm walk's stats */
	for (tier = 0; tier < 4; tier++) {
		fprintf(f, "            %10d", tier);
		fprintf(f, " %10lu%c %10lu%c %10lu%c", 7ul, 'r', 9ul, 'e', 0ul, 'p');
		fprintf(f, " %10lu%c %10lu%c %10lu%c", 11ul, 'R', 13ul, 'T', 0ul, 'x');
		fputc('\n', f);
	}
	fprintf(f, "                      ");
	fprintf(f, " %10lu%c %10lu%c %10lu%c %10lu%c\n", 100ul, 'T', 50ul, 'Y', 3ul, 'F', 2ul, 'A');
}

static int parse(const char *text, struct seen *s)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = rec_lru_gen_parse(f, collect, s);
	fclose(f);
	return rc;
}

int main(void)
{
	char *text = NULL;
	size_t len = 0;
	struct seen s;
	FILE *f;
	int rc;

	plan(18);

	/* lru_gen_full: "/" one node; "/a/b" two nodes, the second's lines must not count */
	f = open_memstream(&text, &len);
	fprintf(f, "memcg %5hu %s\n", (unsigned short)1, "/");
	fprintf(f, " node %5d\n", 0);
	gen(f, 3, 9000, 0, 'x', 0, 'x', 1);
	gen(f, 4, 7000, 120, ' ', 0, 'x', 1);
	gen(f, 5, 3000, 40, ' ', 800, ' ', 1);
	gen(f, 6, 100, 5, ' ', 2000, ' ', 1);
	fprintf(f, "memcg %5hu %s\n", (unsigned short)7, "/a/b");
	fprintf(f, " node %5d\n", 0);
	gen(f, 0, 50, 0, ' ', 10, ' ', 1);
	gen(f, 1, 40, 0, ' ', 20, ' ', 1);
	gen(f, 2, 30, 0, ' ', 30, ' ', 1);
	gen(f, 3, 20, 1, ' ', 40, ' ', 1);
	fprintf(f, " node %5d\n", 1);
	gen(f, 9, 50, 999, ' ', 999, ' ', 1);
	fclose(f);

	memset(&s, 0, sizeof(s));
	rc = parse(text, &s);
	ok(rc == 0 && s.nr == 2, "lru_gen_full: two memcgs (rc %d, %u)", rc, s.nr);
	is_str(s.path[0], "/", "the root as cgroup_path() prints it");
	is_str(s.path[1], "/a/b", "a child's path");
	is_int(get(&s, 0, "lru_gen.max_seq"), 6, "max_seq: the last generation line");
	is_int(get(&s, 0, "lru_gen.min_seq_anon"), 4, "min_seq[anon]: the first line not marked x");
	is_int(get(&s, 0, "lru_gen.min_seq_file"), 5, "min_seq[file]: its own marks");
	ok(get(&s, 0, "lru_gen.gen0_anon") == 5 && get(&s, 0, "lru_gen.gen1_anon") == 40 &&
	   get(&s, 0, "lru_gen.gen2_anon") == 120 && get(&s, 0, "lru_gen.gen3_anon") == 0,
	   "anon pages by generation from the youngest; below min_seq none");
	ok(get(&s, 0, "lru_gen.gen0_file") == 2000 && get(&s, 0, "lru_gen.gen1_file") == 800 &&
	   get(&s, 0, "lru_gen.gen2_file") == 0 && get(&s, 0, "lru_gen.gen3_file") == 0,
	   "file pages by generation: the tier and mm lines are not generations");
	ok(get(&s, 1, "lru_gen.max_seq") == 3 && get(&s, 1, "lru_gen.gen3_file") == 10 &&
	   get(&s, 1, "lru_gen.gen0_anon") == 1,
	   "a memcg's first node only (the model has one)");
	free(text);

	/* lru_gen: from min_seq[anon], no marks, no tier lines */
	text = NULL;
	f = open_memstream(&text, &len);
	fprintf(f, "memcg %5hu %s\n", (unsigned short)3, "/refault-record-9");
	fprintf(f, " node %5d\n", 0);
	gen(f, 12, 900, 3, ' ', 300, ' ', 0);
	gen(f, 13, 100, 4, ' ', 400, ' ', 0);
	fclose(f);
	memset(&s, 0, sizeof(s));
	rc = parse(text, &s);
	ok(rc == 0 && s.nr == 1, "lru_gen: one memcg");
	ok(get(&s, 0, "lru_gen.max_seq") == 13 && get(&s, 0, "lru_gen.min_seq_anon") == 12 &&
	   get(&s, 0, "lru_gen.min_seq_file") == 12,
	   "without marks both types start at the first line");
	ok(get(&s, 0, "lru_gen.gen0_file") == 400 && get(&s, 0, "lru_gen.gen1_file") == 300 &&
	   get(&s, 0, "lru_gen.gen2_file") == 0, "lru_gen: file pages by generation");
	free(text);

	/* more than MAX_NR_GENS lines (never printed): the last four count */
	text = NULL;
	f = open_memstream(&text, &len);
	fprintf(f, "memcg %5hu %s\n", (unsigned short)1, "/");
	fprintf(f, " node %5d\n", 0);
	for (rc = 0; rc < 6; rc++)
		gen(f, (unsigned long)rc, 0, 0, ' ', (unsigned long)rc * 10, ' ', 0);
	fclose(f);
	memset(&s, 0, sizeof(s));
	rc = parse(text, &s);
	ok(rc == 0 && get(&s, 0, "lru_gen.max_seq") == 5 && get(&s, 0, "lru_gen.min_seq_file") == 2 &&
	   get(&s, 0, "lru_gen.gen3_file") == 20, "more than four lines: the youngest four");
	free(text);

	/* the callback stops the walk */
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	rc = parse("memcg 1 /\n node 0\n 1 0 1 1\nmemcg 2 /x\n node 0\n 1 0 1 1\n", &s);
	ok(rc == 42 && s.nr == 1, "the callback's nonzero return stops it (rc %d)", rc);

	/* nothing to say: no callback */
	memset(&s, 0, sizeof(s));
	ok(parse("", &s) == 0 && s.nr == 0, "an empty file: nothing");
	memset(&s, 0, sizeof(s));
	ok(parse("memcg 1 /\n node 0\n", &s) == 0 && s.nr == 0,
	   "a memcg without generation lines: nothing");
	memset(&s, 0, sizeof(s));
	ok(parse("garbage\n 1 2 3\n 1 2 3 4 5\nmemcg x\n 1 0 1 1\n", &s) == 0 && s.nr == 0,
	   "lines of no memcg, and lines that are no generation, are left");
	memset(&s, 0, sizeof(s));
	ok(parse("memcg 1 /\n node 0\n 5 0 1 1\n 3 0 9 9\n", &s) == 0 && s.nr == 1 &&
	   get(&s, 0, "lru_gen.max_seq") == 5 && get(&s, 0, "lru_gen.gen0_file") == 1,
	   "generations come oldest first: a line out of order is left");
	return done_testing();
}
