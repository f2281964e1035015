/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A view of stacks as folded stacks, the input of flame-graph tools
 * (Brendan Gregg's stackcollapse format, which flamegraph.pl, inferno and
 * speedscope read): "outermost;...;innermost COUNT" per distinct stack.
 * Frames are separated by ';' and the count by the last space, so a ';' or
 * a control character in a frame's name is written '?'.  That is the
 * format's own rule, for the programs that read it, and not lib/term.h's for
 * a terminal (the table's): a tool splits the line at ';' and takes the
 * rest as the frame's name, so an escape such as "\x3b" would be a name no
 * frame has.  The HTML report's flame graph is drawn from the same lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "report/report-local.h"

struct text {
	char *s;
	size_t len, cap;
};

/* A frame's name after a ';' if it is not the first; the format's own characters as '?'. */
static int put(struct text *t, const char *s)
{
	size_t n = strlen(s), i;

	if (RF_GROW(t->s, t->cap, t->len + n + 2))
		return RF_ERR_NOMEM;
	if (t->len)
		t->s[t->len++] = ';';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		t->s[t->len++] = c == ';' || c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	t->s[t->len] = '\0';
	return 0;
}

/* The row's stack, outermost first; the bracketed keys ("[no stack]") as one frame. */
static char *fold(const struct rowref *row)
{
	size_t n = report_stacks_nr_frames(row->stacks, row->stack), i;
	char label[RF_MAX_STRING + 32];
	struct text t = { 0 };

	if (!n)
		return put(&t, row->key) ? NULL : t.s;
	for (i = n; i-- > 0;) {
		report_frame_label(report_stacks_frame(row->stacks, row->stack, row->frame + i),
				   label, sizeof(label));
		if (put(&t, label)) {
			free(t.s);
			return NULL;
		}
	}
	return t.s;
}

static int cmp_fold(const void *a, const void *b)
{
	return strcmp(((const struct report_fold *)a)->stack,
		      ((const struct report_fold *)b)->stack);
}

int report_folded(const struct rf_report *r, size_t src, struct report_fold **out, size_t *nr)
{
	struct report_fold *folds = calloc(r->nr_rows ? r->nr_rows : 1, sizeof(*folds));
	size_t i, n = 0, k;

	*out = NULL;
	*nr = 0;
	if (!folds)
		return RF_ERR_NOMEM;
	for (i = 0; i < r->nr_rows; i++) {
		/* --children: the self counts, each decision once, as a flame graph wants them */
		uint64_t v = r->children ? r->order[i].self[src][r->sort] : r->order[i].v[src][r->sort];

		if (!v)
			continue;
		folds[n].stack = fold(&r->order[i]);
		if (!folds[n].stack) {
			report_folded_free(folds, n);
			return RF_ERR_NOMEM;
		}
		folds[n++].count = v;
	}
	qsort(folds, n, sizeof(*folds), cmp_fold);
	/* keys apart may fold alike (a '?' written for a ';'): one line each */
	for (i = 0, k = 0; i < n; i++) {
		if (k && !strcmp(folds[k - 1].stack, folds[i].stack)) {
			folds[k - 1].count += folds[i].count;
			free(folds[i].stack);
			continue;
		}
		folds[k++] = folds[i];
	}
	*out = folds;
	*nr = k;
	return 0;
}

void report_folded_free(struct report_fold *folds, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(folds[i].stack);
	free(folds);
}

int rf_report_print_folded(const struct rf_report *r, FILE *f, size_t src)
{
	struct report_fold *folds;
	size_t nr, i;
	int rc;

	if (!report_by_stack(r->by) || src >= r->nr_src)
		return RF_ERR_CONFIG;
	rc = report_folded(r, src, &folds, &nr);
	if (rc)
		return rc;
	for (i = 0; i < nr; i++)
		fprintf(f, "%s %" PRIu64 "\n", folds[i].stack, folds[i].count);
	report_folded_free(folds, nr);
	return ferror(f) ? -1 : 0;
}
