/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Chunk encoding 3: a chunk's events gathered as columns, then written (columns.h says how). */
#include <stdlib.h>
#include <string.h>

#include "formats/columns.h"
#include "formats/mp_write.h"

struct fmt_col {
	uint64_t *v;		/* the values; a signed one sign-extended */
	size_t nr, cap;
	unsigned int maxw;	/* bytes of the widest plain-coded value */
	bool sgn;
};

struct fmt_coltab {
	size_t nr;				/* events of the type */
	struct fmt_col cols[RF_MAX_SCHEMA_FIELDS];	/* integer fields */
	struct fmt_pack vals[RF_MAX_SCHEMA_FIELDS];	/* the others: msgpack values */
};

struct fmt_colchunk {
	struct fmt_col common[COL_COMMON];
	struct fmt_coltab *tabs[RF_EV_TYPE_MAX];
	size_t nr;		/* events */
	size_t bound;		/* bytes the columns' data take at most */
	uint64_t *scratch;	/* a column's codes, twice: the best so far, the one tried */
	size_t scratch_cap;
};

struct fmt_colchunk *fmt_colchunk_new(void)
{
	struct fmt_colchunk *cc = calloc(1, sizeof(*cc));

	if (cc)
		cc->common[COL_PID].sgn = true;
	return cc;
}

void fmt_colchunk_reset(struct fmt_colchunk *cc)
{
	unsigned int i, k;

	for (i = 0; i < COL_COMMON; i++) {
		cc->common[i].nr = 0;
		cc->common[i].maxw = 0;
	}
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		struct fmt_coltab *t = cc->tabs[i];

		if (!t)
			continue;
		t->nr = 0;
		for (k = 0; k < RF_MAX_SCHEMA_FIELDS; k++) {
			t->cols[k].nr = 0;
			t->cols[k].maxw = 0;
			t->vals[k].len = 0;
		}
	}
	cc->nr = 0;
	cc->bound = 0;
}

void fmt_colchunk_free(struct fmt_colchunk *cc)
{
	unsigned int i, k;

	if (!cc)
		return;
	for (i = 0; i < COL_COMMON; i++)
		free(cc->common[i].v);
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		struct fmt_coltab *t = cc->tabs[i];

		if (!t)
			continue;
		for (k = 0; k < RF_MAX_SCHEMA_FIELDS; k++) {
			free(t->cols[k].v);
			fmt_pack_free(&t->vals[k]);
		}
		free(t);
	}
	free(cc->scratch);
	free(cc);
}

static int col_push(struct fmt_colchunk *cc, struct fmt_col *c, uint64_t v)
{
	unsigned int w = bytes_of(c->sgn ? zz(v) : v);

	if (c->nr == c->cap && RF_GROW(c->v, c->cap, c->nr + 1))
		return RF_ERR_NOMEM;
	if (w > c->maxw) {
		cc->bound += c->nr * (w - c->maxw);
		c->maxw = w;
	}
	cc->bound += c->maxw;
	c->v[c->nr++] = v;
	return 0;
}

/* @ev->time must be a multiple of @tu. */
int fmt_colchunk_add(struct fmt_colchunk *cc, const struct rf_event *ev, uint64_t tu)
{
	const struct fmt_schema *sch = fmt_schema_of(ev->type);
	struct fmt_coltab *t;
	unsigned int i;
	size_t before;
	int err;

	if (!sch)
		return RF_ERR_UNKNOWN_TYPE;
	if (sch->nr_fields > RF_MAX_SCHEMA_FIELDS)
		return RF_ERR_INVAL;
	t = cc->tabs[ev->type];
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return RF_ERR_NOMEM;
		for (i = 0; i < sch->nr_fields; i++)
			t->cols[i].sgn = sch->fields[i].kind == RF_FK_INT;
		cc->tabs[ev->type] = t;
	}
	if ((err = col_push(cc, &cc->common[COL_TYPE], ev->type)) ||
	    (err = col_push(cc, &cc->common[COL_TIME], ev->time / tu)) ||
	    (err = col_push(cc, &cc->common[COL_CPU], ev->cpu)) ||
	    (err = col_push(cc, &cc->common[COL_PID], (uint64_t)(int64_t)ev->pid)))
		return err;
	for (i = 0; i < sch->nr_fields; i++) {
		const struct fmt_field *f = &sch->fields[i];

		if (!field_is_int(f)) {
			before = t->vals[i].len;
			if (!fmt_pack_value(&t->vals[i], ev, f))
				return RF_ERR_NOMEM;
			cc->bound += t->vals[i].len - before;
			continue;
		}
		err = col_push(cc, &t->cols[i], f->kind == RF_FK_INT ?
			       (uint64_t)(int64_t)fmt_field_get_i(ev, f) : fmt_field_get_u(ev, f));
		if (err)
			return err;
	}
	t->nr++;
	cc->nr++;
	return 0;
}

size_t fmt_colchunk_size(const struct fmt_colchunk *cc)
{
	/* the columns' data, and each column's 5-element array, its key, its map */
	return cc->bound + 64 * (COL_COMMON + 1);
}

/* How a column is coded: its mode, base and step, and what the codes take. */
struct coding {
	unsigned int mode;
	uint64_t base, step;
	uint64_t bits;		/* summed over the codes: what zstd is left with */
	uint64_t max;		/* the codes ORed: their width */
};

static bool below(uint64_t a, uint64_t b, bool sgn)
{
	return sgn ? (int64_t)a < (int64_t)b : a < b;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The median of the @n differences at @d (signed), from at most 255 of them
 * evenly spread: what a difference is less, so that most codes are small
 * whatever a few outliers are (the first address of each slot).
 */
static uint64_t median_step(const uint64_t *d, size_t n)
{
	int64_t sample[255];
	size_t i, m = n < 255 ? n : 255;

	if (!n)
		return 0;
	for (i = 0; i < m; i++)
		sample[i] = (int64_t)d[i * n / m];
	qsort(sample, m, sizeof(*sample), cmp_i64);
	return (uint64_t)sample[m / 2];
}

/*
 * The codes of @c in mode @k->mode into @out, with the base and step that
 * make them smallest: plain, each value less the least (a frame of
 * reference); delta, each difference to the value before (or, per slot of
 * @key, to its slot's) less the median difference, zigzagged, so a sequence
 * of equal steps codes as zeros and steps of 150 to 349 ns as one byte each.
 */
static void code_column(const struct fmt_col *c, const struct fmt_col *key, struct coding *k,
			uint64_t *restrict out)
{
	uint64_t lo, reg, slot[COL_SLOTS];
	size_t i, n = c->nr;
	unsigned int s;

	k->base = k->step = k->bits = k->max = 0;
	if (!n)
		return;
	if (k->mode == MODE_PLAIN) {
		for (i = 1, lo = c->v[0]; i < n; i++)
			if (below(c->v[i], lo, c->sgn))
				lo = c->v[i];
		k->base = lo;
		for (i = 0; i < n; i++)
			out[i] = c->v[i] - lo;
	} else {
		/* the differences first, then less their middle */
		for (s = 0; s < COL_SLOTS; s++)
			slot[s] = c->v[0];
		for (i = 0, reg = c->v[0]; i < n; i++) {
			uint64_t *r = k->mode == MODE_SLOT ? &slot[key->v[i] % COL_SLOTS] : &reg;

			out[i] = c->v[i] - *r;
			*r = c->v[i];
		}
		k->step = median_step(out + 1, n - 1);
		/* the first value's "before" is @base: one step before it */
		k->base = c->v[0] - (k->mode == MODE_DELTA ? k->step : 0);
		if (k->mode == MODE_DELTA)
			out[0] = k->step;
		for (i = 0; i < n; i++)
			out[i] = zz(out[i] - k->step);
	}
	for (i = 0; i < n; i++) {
		k->bits += bits_of(out[i]);
		k->max |= out[i];
	}
}

static int put_key(struct fmt_pack *pk, const char *name)
{
	size_t len = strlen(name);
	uint8_t *q;

	if (!fmt_pack_reserve(pk, MP_MAX_INT_BYTES + len))
		return RF_ERR_NOMEM;
	q = mp_put_str_hdr(pk->p + pk->len, (uint32_t)len);
	memcpy(q, name, len);
	pk->len = (size_t)(q + len - pk->p);
	return 0;
}

/* [mode, width, base, step, data] of integer column @c (@key: the slot column, mode 2 may be tried). */
static int put_int_column(struct fmt_colchunk *cc, struct fmt_pack *pk, const struct fmt_col *c,
			  const struct fmt_col *key)
{
	struct coding best = { .mode = MODE_PLAIN }, k;
	size_t i, n = c->nr;
	unsigned int w, b;
	uint64_t *tmp;
	uint8_t *q;

	if (RF_GROW(cc->scratch, cc->scratch_cap, 2 * (n ? n : 1)))
		return RF_ERR_NOMEM;
	code_column(c, key, &best, cc->scratch);
	/* a constant is plain, width 0: a reader takes it as one value for all */
	for (k.mode = MODE_DELTA; best.max && k.mode <= (key ? MODE_SLOT : MODE_DELTA); k.mode++) {
		code_column(c, key, &k, cc->scratch + n);
		/* never wider than plain: the chunk stays within what fmt_colchunk_size() said */
		if (k.bits < best.bits && bytes_of(k.max) <= bytes_of(best.max)) {
			best = k;
			memcpy(cc->scratch, cc->scratch + n, n * sizeof(*cc->scratch));
		}
	}
	tmp = cc->scratch;
	w = bytes_of(best.max);
	for (i = 1; i < n && tmp[i] == tmp[0]; i++)
		;
	if (i >= n)
		w = 0;		/* one code for all */
	if (!fmt_pack_reserve(pk, 5 * MP_MAX_INT_BYTES + (size_t)w * n))
		return RF_ERR_NOMEM;
	q = mp_put_array(pk->p + pk->len, 5);
	q = mp_put_uint(q, best.mode);
	q = mp_put_uint(q, w);
	q = mp_put_uint(q, best.base);
	q = mp_put_uint(q, best.step);
	if (!w) {
		q = mp_put_uint(q, n ? tmp[0] : 0);
	} else {
		q = mp_put_bin_hdr(q, (uint32_t)(w * n));
		for (b = 0; b < w; b++)
			for (i = 0; i < n; i++)
				*q++ = (uint8_t)(tmp[i] >> (8 * b));
	}
	pk->len = (size_t)(q - pk->p);
	return 0;
}

/* [3, 0, 0, 0, [values...]] */
static int put_value_column(struct fmt_pack *pk, const struct fmt_pack *vals, size_t n)
{
	uint8_t *q;

	if (!fmt_pack_reserve(pk, 5 * MP_MAX_INT_BYTES + vals->len))
		return RF_ERR_NOMEM;
	q = mp_put_array(pk->p + pk->len, 5);
	q = mp_put_uint(q, MODE_VALUES);
	q = mp_put_uint(q, 0);
	q = mp_put_uint(q, 0);
	q = mp_put_uint(q, 0);
	q = mp_put_array(q, (uint32_t)n);
	if (vals->len)
		memcpy(q, vals->p, vals->len);
	pk->len = (size_t)(q + vals->len - pk->p);
	return 0;
}

int fmt_colchunk_encode(struct fmt_colchunk *cc, struct fmt_pack *pk)
{
	unsigned int i, k, ntab = 0;
	int err;

	for (i = 0; i < RF_EV_TYPE_MAX; i++)
		ntab += cc->tabs[i] && cc->tabs[i]->nr;
	if (!fmt_pack_reserve(pk, MP_MAX_INT_BYTES))
		return RF_ERR_NOMEM;
	pk->len = (size_t)(mp_put_map(pk->p + pk->len, COL_COMMON + ntab) - pk->p);
	for (i = 0; i < COL_COMMON; i++)
		if ((err = put_key(pk, fmt_col_common_names[i])) ||
		    (err = put_int_column(cc, pk, &cc->common[i], NULL)))
			return err;
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		const struct fmt_schema *sch = fmt_schema_of(i);
		struct fmt_coltab *t = cc->tabs[i];

		if (!t || !t->nr)
			continue;
		if ((err = put_key(pk, rf_event_type_name(i))))
			return err;
		if (!fmt_pack_reserve(pk, MP_MAX_INT_BYTES))
			return RF_ERR_NOMEM;
		pk->len = (size_t)(mp_put_map(pk->p + pk->len, sch->nr_fields) - pk->p);
		for (k = 0; k < sch->nr_fields; k++) {
			const struct fmt_field *f = &sch->fields[k];

			if ((err = put_key(pk, f->name)))
				return err;
			if (!field_is_int(f))
				err = put_value_column(pk, &t->vals[k], t->nr);
			else
				err = put_int_column(cc, pk, &t->cols[k],
						     f->kind == RF_FK_DELTA_ADDR && k > 0 &&
						     field_is_int(&sch->fields[0]) ? &t->cols[0] : NULL);
			if (err)
				return err;
		}
	}
	return 0;
}
