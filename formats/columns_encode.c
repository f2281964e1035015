/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Chunk encoding 3: a chunk's events gathered as columns, then written (columns.h says how). */
#include <stdlib.h>
#include <string.h>

#include "formats/columns.h"
#include "formats/mp_write.h"

struct rf_col {
	uint64_t *v;		/* the values; a signed one sign-extended */
	size_t nr, cap;
	unsigned int maxw;	/* bytes of the widest plain-coded value */
	bool sgn;
};

struct rf_coltab {
	size_t nr;				/* events of the type */
	struct rf_col cols[RF_MAX_SCHEMA_FIELDS];	/* integer fields */
	struct rf_pack vals[RF_MAX_SCHEMA_FIELDS];	/* the others: msgpack values */
};

struct rf_colchunk {
	struct rf_col common[COL_COMMON];
	struct rf_coltab *tabs[RF_EV_TYPE_MAX];
	size_t nr;		/* events */
	size_t bound;		/* bytes the columns' data take at most */
	uint64_t *scratch;	/* one column's coded values */
	size_t scratch_cap;
};

struct rf_colchunk *rf_colchunk_new(void)
{
	struct rf_colchunk *cc = calloc(1, sizeof(*cc));

	if (cc)
		cc->common[COL_PID].sgn = true;
	return cc;
}

void rf_colchunk_reset(struct rf_colchunk *cc)
{
	unsigned int i, k;

	for (i = 0; i < COL_COMMON; i++) {
		cc->common[i].nr = 0;
		cc->common[i].maxw = 0;
	}
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		struct rf_coltab *t = cc->tabs[i];

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

void rf_colchunk_free(struct rf_colchunk *cc)
{
	unsigned int i, k;

	if (!cc)
		return;
	for (i = 0; i < COL_COMMON; i++)
		free(cc->common[i].v);
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		struct rf_coltab *t = cc->tabs[i];

		if (!t)
			continue;
		for (k = 0; k < RF_MAX_SCHEMA_FIELDS; k++) {
			free(t->cols[k].v);
			rf_pack_free(&t->vals[k]);
		}
		free(t);
	}
	free(cc->scratch);
	free(cc);
}

static int col_push(struct rf_colchunk *cc, struct rf_col *c, uint64_t v)
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
int rf_colchunk_add(struct rf_colchunk *cc, const struct rf_event *ev, uint64_t tu)
{
	const struct rf_schema *sch = rf_schema_of(ev->type);
	struct rf_coltab *t;
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
		const struct rf_field *f = &sch->fields[i];

		if (!field_is_int(f)) {
			before = t->vals[i].len;
			if (!rf_pack_value(&t->vals[i], ev, f))
				return RF_ERR_NOMEM;
			cc->bound += t->vals[i].len - before;
			continue;
		}
		err = col_push(cc, &t->cols[i], f->kind == RF_FK_INT ?
			       (uint64_t)(int64_t)rf_field_get_i(ev, f) : rf_field_get_u(ev, f));
		if (err)
			return err;
	}
	t->nr++;
	cc->nr++;
	return 0;
}

size_t rf_colchunk_size(const struct rf_colchunk *cc)
{
	/* the columns' data, and each column's 4-element array, its key, its map */
	return cc->bound + 64 * (COL_COMMON + 1);
}

/* The coded values of @c in @mode (@key: the slot column) into @out; their base. */
static uint64_t code_column(const struct rf_col *c, unsigned int mode, const struct rf_col *key,
			    uint64_t *out)
{
	uint64_t base, reg, slot[COL_SLOTS];
	size_t i;

	if (mode == MODE_PLAIN) {
		for (i = 0; i < c->nr; i++)
			out[i] = c->sgn ? zz(c->v[i]) : c->v[i];
		return 0;
	}
	if (mode == MODE_DELTA) {
		/* one step before the first: a sequence of equal steps is one constant */
		base = c->nr > 1 ? 2 * c->v[0] - c->v[1] : c->v[0];
		for (i = 0, reg = base; i < c->nr; i++) {
			out[i] = zz(c->v[i] - reg);
			reg = c->v[i];
		}
		return base;
	}
	base = c->v[0];
	for (i = 0; i < COL_SLOTS; i++)
		slot[i] = base;
	for (i = 0; i < c->nr; i++) {
		uint64_t *r = &slot[key->v[i] % COL_SLOTS];

		out[i] = zz(c->v[i] - *r);
		*r = c->v[i];
	}
	return base;
}

/* The bits the coded values of @c in @mode take, summed: what zstd is left with. */
static uint64_t mode_cost(const struct rf_col *c, unsigned int mode, const struct rf_col *key)
{
	uint64_t cost = 0, reg, slot[COL_SLOTS];
	size_t i;

	switch (mode) {
	case MODE_PLAIN:
		for (i = 0; i < c->nr; i++)
			cost += bits_of(c->sgn ? zz(c->v[i]) : c->v[i]);
		break;
	case MODE_DELTA:
		for (i = 1, reg = c->v[0]; i < c->nr; i++) {
			cost += bits_of(zz(c->v[i] - reg));
			reg = c->v[i];
		}
		break;
	default:
		for (i = 0; i < COL_SLOTS; i++)
			slot[i] = c->v[0];
		for (i = 0; i < c->nr; i++) {
			uint64_t *r = &slot[key->v[i] % COL_SLOTS];

			cost += bits_of(zz(c->v[i] - *r));
			*r = c->v[i];
		}
		break;
	}
	return cost;
}

static int put_key(struct rf_pack *pk, const char *name)
{
	size_t len = strlen(name);
	uint8_t *q;

	if (!rf_pack_reserve(pk, MP_MAX_INT_BYTES + len))
		return RF_ERR_NOMEM;
	q = mp_put_str_hdr(pk->p + pk->len, (uint32_t)len);
	memcpy(q, name, len);
	pk->len = (size_t)(q + len - pk->p);
	return 0;
}

/* [mode, width, base, data] of integer column @c (@key: the slot column, mode 2 may be tried). */
static int put_int_column(struct rf_colchunk *cc, struct rf_pack *pk, const struct rf_col *c,
			  const struct rf_col *key)
{
	unsigned int mode = MODE_PLAIN, w = 0, m, k;
	uint64_t cost, best, base = 0, mx = 0;
	size_t i, n = c->nr;
	uint8_t *q;

	if (RF_GROW(cc->scratch, cc->scratch_cap, n ? n : 1))
		return RF_ERR_NOMEM;
	for (i = 1; i < n && c->v[i] == c->v[0]; i++)
		;
	/* one value for all: plain, so that a reader takes it as a constant */
	if (n > 1 && i < n) {
		best = mode_cost(c, MODE_PLAIN, NULL);
		for (m = MODE_DELTA; m <= (key ? MODE_SLOT : MODE_DELTA); m++) {
			cost = mode_cost(c, m, key);
			if (cost < best) {
				best = cost;
				mode = m;
			}
		}
	}
	base = code_column(c, mode, key, cc->scratch);
	for (i = 0; i < n; i++)
		mx |= cc->scratch[i];
	w = bytes_of(mx);
	/* never wider than plain: the chunk stays within what rf_colchunk_size() said */
	if (mode != MODE_PLAIN && w > c->maxw) {
		mode = MODE_PLAIN;
		base = code_column(c, mode, key, cc->scratch);
		for (i = 0, mx = 0; i < n; i++)
			mx |= cc->scratch[i];
		w = bytes_of(mx);
	}
	for (i = 1; i < n && cc->scratch[i] == cc->scratch[0]; i++)
		;
	if (i == n)
		w = 0;		/* one value for all */
	if (!rf_pack_reserve(pk, 4 * MP_MAX_INT_BYTES + (size_t)w * n))
		return RF_ERR_NOMEM;
	q = mp_put_array(pk->p + pk->len, 4);
	q = mp_put_uint(q, mode);
	q = mp_put_uint(q, w);
	q = mp_put_uint(q, base);
	if (!w) {
		q = mp_put_uint(q, n ? cc->scratch[0] : 0);
	} else {
		q = mp_put_bin_hdr(q, (uint32_t)(w * n));
		for (k = 0; k < w; k++)
			for (i = 0; i < n; i++)
				*q++ = (uint8_t)(cc->scratch[i] >> (8 * k));
	}
	pk->len = (size_t)(q - pk->p);
	return 0;
}

/* [3, 0, 0, [values...]] */
static int put_value_column(struct rf_pack *pk, const struct rf_pack *vals, size_t n)
{
	uint8_t *q;

	if (!rf_pack_reserve(pk, 4 * MP_MAX_INT_BYTES + vals->len))
		return RF_ERR_NOMEM;
	q = mp_put_array(pk->p + pk->len, 4);
	q = mp_put_uint(q, MODE_VALUES);
	q = mp_put_uint(q, 0);
	q = mp_put_uint(q, 0);
	q = mp_put_array(q, (uint32_t)n);
	if (vals->len)
		memcpy(q, vals->p, vals->len);
	pk->len = (size_t)(q + vals->len - pk->p);
	return 0;
}

int rf_colchunk_encode(struct rf_colchunk *cc, struct rf_pack *pk)
{
	unsigned int i, k, ntab = 0;
	int err;

	for (i = 0; i < RF_EV_TYPE_MAX; i++)
		ntab += cc->tabs[i] && cc->tabs[i]->nr;
	if (!rf_pack_reserve(pk, MP_MAX_INT_BYTES))
		return RF_ERR_NOMEM;
	pk->len = (size_t)(mp_put_map(pk->p + pk->len, COL_COMMON + ntab) - pk->p);
	for (i = 0; i < COL_COMMON; i++)
		if ((err = put_key(pk, rf_col_common_names[i])) ||
		    (err = put_int_column(cc, pk, &cc->common[i], NULL)))
			return err;
	for (i = 0; i < RF_EV_TYPE_MAX; i++) {
		const struct rf_schema *sch = rf_schema_of(i);
		struct rf_coltab *t = cc->tabs[i];

		if (!t || !t->nr)
			continue;
		if ((err = put_key(pk, rf_event_type_name(i))))
			return err;
		if (!rf_pack_reserve(pk, MP_MAX_INT_BYTES))
			return RF_ERR_NOMEM;
		pk->len = (size_t)(mp_put_map(pk->p + pk->len, sch->nr_fields) - pk->p);
		for (k = 0; k < sch->nr_fields; k++) {
			const struct rf_field *f = &sch->fields[k];

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
