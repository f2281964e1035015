/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Time series: every interval of trace time, the model's sample keys (list
 * sizes and main cumulative counters, rf_model_sample()), or a reference
 * policy's counters.  A sample at time
 * k*interval shows the state before the first event at or after that time;
 * a last sample shows the state at the end of the trace.  A key first given
 * in a later sample (a cgroup made during the trace) reads 0 before it; a
 * key a later sample does not give (the kernel's series between snapshots of
 * different sources) keeps its last value.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/replay/replay-local.h"

RF_HASHMAP_DEFINE(col_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)

struct column {
	char *key;
	uint64_t *v;
	size_t filled;			/* samples with a value */
};

struct replay_series {
	uint64_t interval;
	uint64_t t0;
	bool started;
	uint64_t next;			/* time of the next sample, relative to t0 */
	uint64_t *t;
	size_t nr, cap;			/* samples */
	struct column *cols;
	size_t nr_cols, cap_cols;
	size_t col_cursor;		/* while taking a sample: the column expected next */
	struct col_map by_key;		/* rf_hash_str(key) -> column */
	int err;
};

struct replay_series *replay_series_new(uint64_t interval_ns)
{
	struct replay_series *s = calloc(1, sizeof(*s));

	if (s)
		s->interval = interval_ns ? interval_ns : 1000000000ull;
	return s;
}

void replay_series_free(struct replay_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_cols; i++) {
		free(s->cols[i].key);
		free(s->cols[i].v);
	}
	free(s->cols);
	col_map_destroy(&s->by_key);
	free(s->t);
	free(s);
}

static int new_column(struct replay_series *s, const char *key, size_t *out)
{
	struct column *c;

	if (RF_GROW(s->cols, s->cap_cols, s->nr_cols + 1))
		return RF_ERR_NOMEM;
	c = &s->cols[s->nr_cols];
	c->key = strdup(key);
	c->v = calloc(s->cap, sizeof(uint64_t));	/* 0 before the key was first given */
	c->filled = s->nr - 1;				/* those samples: taken before it */
	if (!c->key || !c->v || col_map_put(&s->by_key, rf_hash_str(key), (uint32_t)s->nr_cols)) {
		free(c->key);
		free(c->v);
		return RF_ERR_NOMEM;
	}
	*out = s->nr_cols++;
	return 0;
}

/* The column of @key: the one after the last (the model's order is fixed), else by name. */
static int column_of(struct replay_series *s, const char *key, size_t *out)
{
	const uint32_t *i;

	if (s->col_cursor < s->nr_cols && !strcmp(s->cols[s->col_cursor].key, key)) {
		*out = s->col_cursor;
		return 0;
	}
	i = col_map_get(&s->by_key, rf_hash_str(key));
	if (i && !strcmp(s->cols[*i].key, key)) {
		*out = *i;
		return 0;
	}
	return i ? RF_ERR_STATE : new_column(s, key, out);	/* a hash collision: refuse */
}

static int sample_cb(const char *key, uint64_t value, void *ctx)
{
	struct replay_series *s = ctx;
	struct column *c;
	size_t i;
	int rc = column_of(s, key, &i);

	if (rc)
		return rc;
	c = &s->cols[i];	/* carry() filled it up to this sample */
	c->v[s->nr - 1] = value;
	c->filled = s->nr;
	s->col_cursor = i + 1;
	return 0;
}

/* After a sample: the columns it did not give keep their last value. */
static void carry(struct replay_series *s)
{
	size_t i;

	for (i = 0; i < s->nr_cols; i++) {
		struct column *c = &s->cols[i];

		while (c->filled < s->nr) {
			c->v[c->filled] = c->filled ? c->v[c->filled - 1] : 0;
			c->filled++;
		}
	}
}

static int take_with(struct replay_series *s, uint64_t t_rel, replay_series_walk walk,
		     const void *src)
{
	size_t i;
	int rc;

	if (s->nr == s->cap) {
		size_t old = s->cap, cap;

		if (RF_GROW(s->t, s->cap, s->nr + 1))
			return RF_ERR_NOMEM;
		/* every column holds as many samples as there are times */
		for (i = 0; i < s->nr_cols; i++) {
			cap = old;
			if (RF_GROW(s->cols[i].v, cap, s->cap))
				return RF_ERR_NOMEM;
		}
	}
	s->t[s->nr++] = t_rel;
	s->col_cursor = 0;
	rc = walk(src, sample_cb, s);
	if (!rc)
		carry(s);
	return rc;
}

int replay_series_model_walk(const void *m, rf_model_counter_cb cb, void *ctx)
{
	return rf_model_sample(m, cb, ctx);
}

int replay_series_sample(struct replay_series *s, uint64_t t0, uint64_t t, replay_series_walk walk,
			 const void *src)
{
	if (!s->started) {
		s->started = true;
		s->t0 = t0;
	}
	return take_with(s, t >= s->t0 ? t - s->t0 : 0, walk, src);
}

/* The samples due by @t (at least one). */
static rf_noinline int advance(struct replay_series *s, replay_series_walk walk, const void *src, uint64_t t)
{
	uint64_t rel;
	int rc;

	if (!s->started) {
		s->started = true;
		s->t0 = t;
		s->next = 0;
	}
	rel = t >= s->t0 ? t - s->t0 : 0;
	while (rel >= s->next) {
		rc = take_with(s, s->next, walk, src);
		if (rc)
			return rc;
		/* Long idle gaps: jump, so a sparse trace cannot create millions of samples. */
		if (rel / s->interval > s->next / s->interval + 4096)
			s->next = rel / s->interval * s->interval;
		else
			s->next += s->interval;
	}
	return 0;
}

int replay_series_advance(struct replay_series *s, replay_series_walk walk, const void *src,
			  uint64_t t)
{
	/* every event comes here; few of them are due a sample */
	if (s->started && t >= s->t0 && t - s->t0 < s->next)
		return 0;
	return advance(s, walk, src, t);
}

int replay_series_finish(struct replay_series *s, replay_series_walk walk, const void *src,
			 uint64_t t_end)
{
	if (!s->started)
		return 0;
	return take_with(s, t_end >= s->t0 ? t_end - s->t0 : 0, walk, src);
}

size_t replay_series_samples(const struct replay_series *s)
{
	return s ? s->nr : 0;
}

json_object *replay_series_to_json(const struct replay_series *s)
{
	json_object *o = json_object_new_object(), *t = json_object_new_array(), *series;
	size_t i, k;

	json_object_object_add(o, "interval_ns", json_object_new_uint64(s->interval));
	for (i = 0; i < s->nr; i++)
		json_object_array_add(t, json_object_new_uint64(s->t[i]));
	json_object_object_add(o, "t", t);
	series = json_object_new_object();
	for (k = 0; k < s->nr_cols; k++) {
		json_object *a = json_object_new_array_ext((int)s->nr);

		for (i = 0; i < s->nr; i++)
			json_object_array_add(a, json_object_new_uint64(s->cols[k].v[i]));
		json_object_object_add(series, s->cols[k].key, a);
	}
	json_object_object_add(o, "series", series);
	return o;
}
