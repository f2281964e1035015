/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU's state as debugfs prints it: mm/vmscan.c
 * lru_gen_seq_show() and lru_gen_seq_show_full() (v6.1 to v6.18), per memcg
 * and node:
 *
 *   memcg ID PATH
 *    node NID
 *      SEQ AGE_MS NR_ANON NR_FILE     a generation: its pages of each type
 *           TIER N N N N N N          (lru_gen_full) four tier lines
 *                N N N N              (lru_gen_full) the mm walk's stats
 *
 * lru_gen lists the generations from min_seq[anon] to max_seq; lru_gen_full
 * lists the MAX_NR_GENS up to max_seq and marks with an 'x' after NR_ANON or
 * NR_FILE a generation below that type's min_seq; both oldest first.  Each
 * memcg becomes one counters snapshot of its first node (the model has one
 * node), named as the model names the same state (replayer/model/vmstat.c
 * emit_lru_gen()).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "recorder/record-local.h"

#define LRU_GEN_LINES	4	/* MAX_NR_GENS: the lines of one node */

enum { C_MAX_SEQ, C_MIN_SEQ_ANON, C_MIN_SEQ_FILE, C_GEN0_ANON, C_GEN0_FILE = C_GEN0_ANON + 4,
       C_NR = C_GEN0_FILE + 4 };

static const char *const counter_names[C_NR] = {
	"lru_gen.max_seq", "lru_gen.min_seq_anon", "lru_gen.min_seq_file",
	"lru_gen.gen0_anon", "lru_gen.gen1_anon", "lru_gen.gen2_anon", "lru_gen.gen3_anon",
	"lru_gen.gen0_file", "lru_gen.gen1_file", "lru_gen.gen2_file", "lru_gen.gen3_file",
};

struct gen_line {
	unsigned long long seq, nr[2];
	bool below_min[2];		/* the 'x' marks */
};

struct memcg_state {
	char path[4096];
	bool open, node_done, in_node;
	struct gen_line lines[LRU_GEN_LINES];
	unsigned int nr_lines;
};

/* "123" or "123x": the number and whether the mark follows it. */
static bool number(const char *tok, unsigned long long *v, char *mark)
{
	char *end;

	if (*tok < '0' || *tok > '9')
		return false;
	errno = 0;
	*v = strtoull(tok, &end, 10);
	if (errno || (end[0] && end[1]))
		return false;
	*mark = *end;
	return true;
}

/* A generation line (four numbers, only the last two marked): true when @line is one. */
static bool gen_line(const char *line, struct gen_line *g)
{
	char buf[256], *tok, *save = NULL, mark[4];
	unsigned long long v[4];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (n == 4 || !number(tok, &v[n], &mark[n]))
			return false;
		n++;
	}
	if (n != 4 || mark[0] || mark[1] || (mark[2] && mark[2] != 'x') ||
	    (mark[3] && mark[3] != 'x'))
		return false;
	g->seq = v[0];
	g->nr[0] = v[2];
	g->nr[1] = v[3];
	g->below_min[0] = mark[2] == 'x';
	g->below_min[1] = mark[3] == 'x';
	return true;
}

static int flush(struct memcg_state *s, rec_lru_gen_fn fn, void *ctx)
{
	struct rf_counter c[C_NR];
	unsigned long long max_seq, min_seq[2];
	unsigned int i, type;

	if (!s->open || !s->nr_lines)
		return 0;
	s->open = false;
	max_seq = s->lines[s->nr_lines - 1].seq;
	for (type = 0; type < 2; type++) {
		/* without marks (lru_gen), the first line is min_seq[anon]: file's is unknown */
		min_seq[type] = max_seq;
		for (i = 0; i < s->nr_lines; i++)
			if (!s->lines[i].below_min[type]) {
				min_seq[type] = s->lines[i].seq;
				break;
			}
	}
	for (i = 0; i < C_NR; i++)
		c[i] = (struct rf_counter){ .name = counter_names[i], .value = 0 };
	c[C_MAX_SEQ].value = max_seq;
	c[C_MIN_SEQ_ANON].value = min_seq[0];
	c[C_MIN_SEQ_FILE].value = min_seq[1];
	for (i = 0; i < s->nr_lines; i++) {
		const struct gen_line *g = &s->lines[i];
		unsigned long long age = max_seq - g->seq;

		for (type = 0; type < 2 && age < LRU_GEN_LINES; type++)
			if (g->seq >= min_seq[type])
				c[(type ? C_GEN0_FILE : C_GEN0_ANON) + age].value = g->nr[type];
	}
	return fn(ctx, s->path, c, C_NR);
}

int rec_lru_gen_parse(FILE *f, rec_lru_gen_fn fn, void *ctx)
{
	struct memcg_state *s = calloc(1, sizeof(*s));
	char *line = NULL;
	size_t cap = 0;
	unsigned int id;
	int err = 0, off;
	struct gen_line g;

	if (!s)
		return RF_ERR_NOMEM;
	while (!err && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "memcg %u %n", &id, &off) == 1) {
			err = flush(s, fn, ctx);
			snprintf(s->path, sizeof(s->path), "%s", line + off);
			s->open = true;
			s->node_done = s->in_node = false;
			s->nr_lines = 0;
		} else if (sscanf(line, " node %u", &id) == 1) {
			/* a later node of the same memcg ends the first one's lines */
			s->node_done = s->in_node;
			s->in_node = true;
		} else if (s->open && s->in_node && !s->node_done && gen_line(line, &g) &&
			   (!s->nr_lines || g.seq > s->lines[s->nr_lines - 1].seq)) {
			/* generations come oldest first: a line out of order is no generation */
			if (s->nr_lines == LRU_GEN_LINES)
				memmove(s->lines, s->lines + 1, sizeof(g) * (LRU_GEN_LINES - 1));
			else
				s->nr_lines++;
			s->lines[s->nr_lines - 1] = g;
		}
	}
	if (!err)
		err = flush(s, fn, ctx);
	free(line);
	free(s);
	return err;
}
