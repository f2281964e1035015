/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A flame graph of one source's folded stacks (folded.c) as inline SVG, as
 * flamegraph.pl draws them: the outermost frame at the bottom, on an "all"
 * frame as wide as the sort metric's total of the stacks; each frame as wide
 * as the count of the stacks through it, its callees on top of it, in the
 * order of their names; a tooltip per frame.  Colours come from the frame's
 * name, so the page is the same bytes for the same report.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/html.h"
#include "report/report-local.h"

#define FLAME_W		960	/* px: the "all" frame */
#define FRAME_H		16
#define FLAME_PAD	4
#define CHAR_W		7	/* px per character of a label, roughly, at 11px */
#define MIN_W		0.1	/* px: narrower frames are left out, as flamegraph.pl does */

/* A folded stack split into its frames, outermost first (pointers into its copy). */
struct fstack {
	char *buf;
	const char **frame;
	size_t nr;
	uint64_t count;
};

struct flame {
	FILE *out;
	const char *metric;
	double scale;		/* px per count */
	uint64_t total;
	size_t max_depth;
	unsigned int height;	/* of the SVG */
	size_t drawn;
};

static int split(const struct report_fold *fo, struct fstack *st)
{
	size_t cap = 0;
	char *p, *save = NULL;

	*st = (struct fstack){ .count = fo->count, .buf = strdup(fo->stack) };
	if (!st->buf)
		return RF_ERR_NOMEM;
	/* a folded stack has no empty frame: the bracketed keys are one frame */
	for (p = strtok_r(st->buf, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		if (RF_GROW(st->frame, cap, st->nr + 1))
			return RF_ERR_NOMEM;
		st->frame[st->nr++] = p;
	}
	return 0;
}

/* Frame by frame, a stack before those it is the start of: callees group under their caller. */
static int cmp_fstack(const void *a, const void *b)
{
	const struct fstack *x = a, *y = b;
	size_t i;
	int c;

	for (i = 0; i < x->nr && i < y->nr; i++) {
		c = strcmp(x->frame[i], y->frame[i]);
		if (c)
			return c;
	}
	return (x->nr > y->nr) - (x->nr < y->nr);
}

static unsigned int colour(const char *name)
{
	uint64_t h = rf_hash_str(name);

	/* flamegraph.pl's "hot" palette: reds to yellows */
	return (205u + (unsigned int)(h % 50)) << 16 | (unsigned int)((h >> 8) % 230) << 8 |
	       (unsigned int)((h >> 16) % 55);
}

static void frame(struct flame *fl, const char *name, uint64_t count, size_t depth, double x)
{
	double w = (double)count * fl->scale;
	unsigned int y = fl->height - FLAME_PAD - (unsigned int)(depth + 1) * FRAME_H;
	size_t chars = w > 3 * CHAR_W ? (size_t)(w / CHAR_W) - 1 : 0, n = strlen(name);

	if (w < MIN_W)
		return;
	fl->drawn++;
	fputs("<g><title>", fl->out);
	rf_html_escape_str(fl->out, name);
	fprintf(fl->out, ": %" PRIu64 " %s (%.2f%%)</title><rect class=\"flame\" x=\"%.1f\" "
		"y=\"%u\" width=\"%.1f\" height=\"%d\" fill=\"#%06x\" rx=\"2\"/>", count, fl->metric,
		100.0 * (double)count / (double)fl->total, FLAME_PAD + x, y, w, FRAME_H - 1,
		colour(name));
	if (chars) {
		/* as much of the name as fits, cut at a character, ".." for the rest */
		bool cut = n > chars;

		if (cut) {
			n = chars > 2 ? chars - 2 : 0;
			while (n && ((unsigned char)name[n] & 0xc0) == 0x80)
				n--;
		}
		fprintf(fl->out, "<text x=\"%.1f\" y=\"%u\">", FLAME_PAD + x + 3, y + FRAME_H - 4);
		rf_html_escape(fl->out, name, n);
		fprintf(fl->out, "%s</text>", cut ? ".." : "");
	}
	fputs("</g>\n", fl->out);
}

/* Stacks [lo, hi), which share their first @depth frames, drawn from @x on: one frame per name. */
static void draw(struct flame *fl, const struct fstack *st, size_t lo, size_t hi, size_t depth,
		 double x)
{
	size_t i = lo, j, k;
	uint64_t sum;

	while (i < hi && st[i].nr <= depth)	/* the caller's own count: its frame only */
		x += (double)st[i++].count * fl->scale;
	while (i < hi) {
		sum = 0;
		for (j = i; j < hi && !strcmp(st[j].frame[depth], st[i].frame[depth]); j++)
			sum += st[j].count;
		frame(fl, st[i].frame[depth], sum, depth + 1, x);
		draw(fl, st, i, j, depth + 1, x);
		for (k = i; k < j; k++)
			x += (double)st[k].count * fl->scale;
		i = j;
	}
}

static void stacks_free(struct fstack *st, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(st[i].buf);
		free(st[i].frame);
	}
	free(st);
}

int report_flame_svg(FILE *out, const struct rf_report *r, size_t src)
{
	struct flame fl = { .out = out, .metric = rf_report_metric_name(r->sort) };
	struct report_fold *folds;
	struct fstack *st;
	size_t nr, i;
	int rc;

	rc = report_folded(r, src, &folds, &nr);
	if (rc)
		return rc;
	st = calloc(nr ? nr : 1, sizeof(*st));
	for (i = 0; st && !rc && i < nr; i++) {
		rc = split(&folds[i], &st[i]);
		fl.total += st[i].count;
		if (st[i].nr > fl.max_depth)
			fl.max_depth = st[i].nr;
	}
	report_folded_free(folds, nr);
	if (!st || rc) {
		stacks_free(st, st ? i : 0);
		return RF_ERR_NOMEM;
	}
	if (!fl.total) {
		fprintf(out, "<p class=\"note\">No %s to draw.</p>\n", fl.metric);
		stacks_free(st, nr);
		return 0;
	}
	qsort(st, nr, sizeof(*st), cmp_fstack);
	fl.scale = (double)FLAME_W / (double)fl.total;
	fl.height = (unsigned int)(fl.max_depth + 1) * FRAME_H + 2 * FLAME_PAD;
	fprintf(out, "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%u\">\n", FLAME_W + 2 * FLAME_PAD, fl.height);
	frame(&fl, "all", fl.total, 0, 0.0);
	draw(&fl, st, 0, nr, 0, 0.0);
	fputs("</svg>\n", out);
	stacks_free(st, nr);
	return ferror(out) ? RF_ERR_IO : 0;
}
