/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The columns on a setting's axis, for the plots against it (the ASCII one,
 * plot.c, and the page's charts, svg.c): a sweep's or a matrix's columns
 * are named "PROFILE,KEY=VALUE,..." (after "WORKLOAD/" when a sweep has
 * several), so each column's VALUE of the axis's KEY is its place on the
 * axis and the rest of its name its line.  Places are ordered by size or
 * number where VALUE is one ("64M" < "1G"), else by name; lines are
 * numbered in the order their first column comes.  Sorting only: n log n.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/units.h"

/* "WORKLOAD/" (a sweep's, before the first ',') skipped. */
static const char *settings_of(const char *label)
{
	const char *comma = strchr(label, ','), *slash = strchr(label, '/');

	return slash && (!comma || slash < comma) ? slash + 1 : label;
}

/* @label's value of @key into @p->value, the rest of it into @p->line; false if it has none. */
static int split_label(struct rf_compare_axis_point *p, const char *label, const char *key,
		       bool *found)
{
	const char *s = settings_of(label);
	size_t klen = strlen(key), used = 0, len = strlen(s) + 1;

	*found = false;
	p->line = calloc(len, 1);
	if (!p->line)
		return RF_ERR_NOMEM;
	while (*s) {
		size_t n = strcspn(s, ",");

		if (!*found && n > klen && !strncmp(s, key, klen) && s[klen] == '=') {
			p->value = strndup(s + klen + 1, n - klen - 1);
			if (!p->value)
				return RF_ERR_NOMEM;
			*found = true;
		} else {
			used += (size_t)snprintf(p->line + used, len - used, "%s%.*s",
						 used ? "," : "", (int)n, s);
		}
		s += n + (s[n] == ',');
	}
	return 0;
}

static double axis_number(const char *v)
{
	uint64_t n;

	return rf_parse_size(v, &n) ? NAN : (double)n;
}

/* The axis's order: sizes and numbers by value, then other values by name. */
static int val_cmp(const void *pa, const void *pb)
{
	const struct rf_compare_axis_point *a = *(const struct rf_compare_axis_point *const *)pa;
	const struct rf_compare_axis_point *b = *(const struct rf_compare_axis_point *const *)pb;
	bool na = isnan(a->num), nb = isnan(b->num);
	int c;

	if (na != nb)
		return na ? 1 : -1;
	if (!na && a->num != b->num)
		return a->num < b->num ? -1 : 1;
	c = strcmp(a->value, b->value);
	return c ? c : (a->side > b->side) - (a->side < b->side);
}

static int line_name_cmp(const void *pa, const void *pb)
{
	const struct rf_compare_axis_point *a = *(const struct rf_compare_axis_point *const *)pa;
	const struct rf_compare_axis_point *b = *(const struct rf_compare_axis_point *const *)pb;
	int c = strcmp(a->line, b->line);

	return c ? c : (a->side > b->side) - (a->side < b->side);
}

/* By line, then along the axis: the points a line joins, in order. */
static int line_cmp(const void *pa, const void *pb)
{
	const struct rf_compare_axis_point *a = *(const struct rf_compare_axis_point *const *)pa;
	const struct rf_compare_axis_point *b = *(const struct rf_compare_axis_point *const *)pb;

	if (a->lrank != b->lrank)
		return a->lrank < b->lrank ? -1 : 1;
	if (a->vrank != b->vrank)
		return a->vrank < b->vrank ? -1 : 1;
	return (a->side > b->side) - (a->side < b->side);
}

void compare_axis_sort(struct rf_compare_axis *ax, int order)
{
	qsort(ax->by, ax->n, sizeof(*ax->by), order == RF_AXIS_BY_LINE ? line_cmp : val_cmp);
}

/* vrank and lrank of every point, and each line's first column. */
static int rank(struct rf_compare_axis *ax)
{
	size_t *group_line = calloc(ax->n + 1, sizeof(*group_line));
	size_t i, g;

	ax->line_first = calloc(ax->n + 1, sizeof(*ax->line_first));
	if (!group_line || !ax->line_first) {
		free(group_line);
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < ax->n; i++)
		ax->by[i] = &ax->p[i];
	compare_axis_sort(ax, RF_AXIS_BY_VALUE);
	for (i = 0; i < ax->n; i++) {
		if (i && strcmp(ax->by[i]->value, ax->by[i - 1]->value))
			ax->nvalues++;
		ax->by[i]->vrank = ax->nvalues;
	}
	ax->nvalues += ax->n > 0;
	qsort(ax->by, ax->n, sizeof(*ax->by), line_name_cmp);
	for (i = 0, g = 0; i < ax->n; i++) {
		if (i && strcmp(ax->by[i]->line, ax->by[i - 1]->line))
			g++;
		ax->by[i]->lrank = g;	/* a group of one name, for now */
		group_line[g] = SIZE_MAX;
	}
	for (i = 0; i < ax->n; i++) {	/* lines numbered as their first column comes */
		g = ax->p[i].lrank;
		if (group_line[g] == SIZE_MAX) {
			ax->line_first[ax->nlines] = i;
			group_line[g] = ax->nlines++;
		}
		ax->p[i].lrank = group_line[g];
	}
	free(group_line);
	return 0;
}

int compare_axis_make(struct rf_compare_axis *ax, const struct rf_compare_report *rep,
		      const char *key, char *err, size_t errlen)
{
	size_t i;
	bool found = true;
	int ret = 0;

	memset(ax, 0, sizeof(*ax));
	ax->p = calloc(rep->nsides + 1, sizeof(*ax->p));
	ax->by = calloc(rep->nsides + 1, sizeof(*ax->by));
	if (!ax->p || !ax->by)
		return RF_ERR_NOMEM;
	for (i = 0; !ret && i < rep->nsides; i++) {
		struct rf_compare_axis_point *p = &ax->p[i];

		ax->n++;
		p->side = i;
		if (key) {
			ret = split_label(p, rep->sides[i].label, key, &found);
		} else {	/* the columns themselves, one line */
			p->value = strdup(rep->sides[i].label);
			p->line = strdup("");
			ret = p->value && p->line ? 0 : RF_ERR_NOMEM;
		}
		if (!ret && !found) {
			compare_seterr(err, errlen, "--over %s: column %s sets no %s (a sweep's "
				       "axes are its settings that take several values)", key,
				       rep->sides[i].label, key);
			ret = RF_ERR_INVAL;
		}
		p->num = ret ? NAN : key ? axis_number(p->value) : (double)i;
	}
	if (!ret)
		ret = rank(ax);
	if (ret == RF_ERR_NOMEM)
		compare_seterr(err, errlen, "out of memory");
	if (ret)
		compare_axis_release(ax);
	return ret;
}

void compare_axis_release(struct rf_compare_axis *ax)
{
	size_t i;

	for (i = 0; ax->p && i < ax->n; i++) {
		free(ax->p[i].line);
		free(ax->p[i].value);
	}
	free(ax->p);
	free(ax->by);
	free(ax->line_first);
	memset(ax, 0, sizeof(*ax));
}

/*
 * The value in @label of the setting named by @nlen bytes of @name ("memory"
 * of "v6.18,memory=1G": "1G"), its length in @len; NULL if none.
 */
static const char *value_of(const char *label, const char *name, size_t nlen, size_t *len)
{
	const char *s = settings_of(label);

	while (*s) {
		size_t n = strcspn(s, ",");

		if (n > nlen && !strncmp(s, name, nlen) && s[nlen] == '=') {
			*len = n - nlen - 1;
			return s + nlen + 1;
		}
		s += n + (s[n] == ',');
	}
	return NULL;
}

#define MAX_SETTINGS	16

size_t compare_axis_keys(const struct rf_compare_report *rep, char **keys, size_t max)
{
	const char *s = rep->nsides ? settings_of(rep->sides[0].label) : "";
	size_t n = 0, i, seen;

	/*
	 * the first column's settings (the first MAX_SETTINGS: each is a pass over the
	 * columns), each one a key if every column sets it, not all to one value
	 */
	for (seen = 0; *s && n < max && seen < MAX_SETTINGS; seen++) {
		size_t len = strcspn(s, ","), klen = strcspn(s, "="), vlen, v0len;
		const char *v0 = klen < len ? s + klen + 1 : NULL, *v;
		bool every = v0 && klen > 0, varies = false;

		v0len = v0 ? len - klen - 1 : 0;
		for (i = 1; every && i < rep->nsides; i++) {
			v = value_of(rep->sides[i].label, s, klen, &vlen);
			every = v != NULL;
			varies |= v && (vlen != v0len || memcmp(v, v0, vlen));
		}
		if (every && varies) {
			keys[n] = strndup(s, klen);
			n += keys[n] != NULL;
		}
		s += len + (s[len] == ',');
	}
	return n;
}
