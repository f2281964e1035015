/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One loaded file: metrics (a sample array each) sorted by name, plus its time series. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/grow.h"

int compare_run_add(struct rf_compare_run *r, const char *name, const double *v, size_t n,
		    bool exact)
{
	struct rf_compare_metric *m;

	if (RF_GROW(r->m, r->cap, r->nm + 1))
		return RF_ERR_NOMEM;
	m = &r->m[r->nm];
	m->name = strdup(name);
	m->cap = n ? n : 1;
	m->v = malloc(m->cap * sizeof(*m->v));
	if (!m->name || !m->v) {
		free(m->name);
		free(m->v);
		return RF_ERR_NOMEM;
	}
	memcpy(m->v, v, n * sizeof(*v));
	m->n = n;
	m->exact = exact;
	r->nm++;
	return 0;
}

static int metric_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rf_compare_metric *)a)->name,
		      ((const struct rf_compare_metric *)b)->name);
}

void compare_run_sort(struct rf_compare_run *r)
{
	if (r->nm)
		qsort(r->m, r->nm, sizeof(*r->m), metric_cmp);
}

int compare_run_alias(struct rf_compare_run *r, const char *kernel_name, const char *name)
{
	struct rf_compare_alias *a;

	if (RF_GROW(r->alias, r->alias_cap, r->nalias + 1))
		return RF_ERR_NOMEM;
	a = &r->alias[r->nalias];
	a->kernel_name = strdup(kernel_name);
	a->name = strdup(name);
	if (!a->kernel_name || !a->name) {
		free(a->kernel_name);
		free(a->name);
		return RF_ERR_NOMEM;
	}
	r->nalias++;
	return 0;
}

void compare_aliases_release(struct rf_compare_alias *alias, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(alias[i].kernel_name);
		free(alias[i].name);
	}
	free(alias);
}

void compare_timeline_release(struct rf_compare_timeline *tl)
{
	size_t i;

	for (i = 0; i < tl->nseries; i++) {
		free(tl->series[i].name);
		free(tl->series[i].v);
	}
	free(tl->series);
	free(tl->by_name);
	free(tl->t_s);
	memset(tl, 0, sizeof(*tl));
}

void compare_run_release(struct rf_compare_run *r)
{
	size_t i;

	for (i = 0; i < r->nm; i++) {
		free(r->m[i].name);
		free(r->m[i].v);
	}
	free(r->m);
	compare_aliases_release(r->alias, r->nalias);
	free(r->config);
	free(r->profile);
	free(r->fingerprint);
	free(r->trace_path);
	compare_timeline_release(&r->tl);
	memset(r, 0, sizeof(*r));
}
