/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chunk encoding 3: a chunk's columns read back into events (columns.h says
 * how they are laid out).  Every column is checked against the event count
 * before an event is made, values against their fields, so a chunk decodes
 * whole or not at all; the events are assembled a block at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/columns.h"
#include "formats/mp_read.h"

struct col_in {
	unsigned int mode, width;
	uint64_t base, step, cval;
	const uint8_t *data;	/* width > 0: the planes; mode 3: the first value */
	const uint8_t *end;	/* mode 3: past the last value */
	size_t at;		/* byte of the chunk where the column starts */
	bool present;
};

/* A column being read, a block at a time. */
struct col_rd {
	struct col_in in;
	uint64_t count, row;
	uint64_t reg, slot[COL_SLOTS];
	struct mp_cur vals;	/* mode 3: the next value */
};

struct tab_rd {
	const struct fmt_schema *sch;
	uint64_t count;
	struct col_rd cols[RF_MAX_SCHEMA_FIELDS];
	struct rf_event tmpl;			/* what the type's events have in common */
	uint8_t vary[RF_MAX_SCHEMA_FIELDS];	/* the fields that are not in it */
	unsigned int nr_vary;
};

struct col_dec {
	struct fmt_chunk_cursor *c;
	const uint8_t *start;
	uint64_t n;
	uint64_t counts[RF_EV_TYPE_MAX];
	uint64_t unknown;
	struct col_rd common[COL_COMMON];
	struct tab_rd *tabs[RF_EV_TYPE_MAX];
	struct mp_cur tab_at[RF_EV_TYPE_MAX];	/* where each table's map is */
	uint8_t *types;				/* each event's; RF_EV_NONE: unknown to this reader */
	uint8_t vary[COL_COMMON];		/* the common columns not in the templates */
	unsigned int nr_vary;
	/* a block's values */
	uint64_t tmp[COL_BLOCK], key[COL_BLOCK];
	uint32_t opos[COL_BLOCK];		/* the event each of the block's rows becomes */
	uint32_t grp[COL_BLOCK];		/* the block's events grouped by type */
	uint32_t off[RF_EV_TYPE_MAX];
};

static int col_fail(struct col_dec *d, size_t at, int err, const char *tab, const char *col,
		    const char *what)
{
	return fmt_fail(d->c->errmsg, d->c->errlen, err, "%s%s%s: %s at byte %zu of the chunk",
			tab ? tab : "", tab ? "." : "", col, what, at);
}

static bool read_bin(struct mp_cur *m, const uint8_t **p, uint32_t *len)
{
	const uint8_t *b = m->p;

	if (b >= m->end || (*b != 0xc4 && *b != 0xc5 && *b != 0xc6))
		return false;
	return mp_read_str(m, (const char **)p, len);
}

/* Parse column [mode, width, base, step, data] of @count values at @m (of field @f, NULL: common). */
static int parse_col(struct col_dec *d, struct mp_cur *m, uint64_t count, const struct fmt_field *f,
		     bool slot_ok, const char *tab, const char *name, struct col_in *ci)
{
	uint64_t mode, width;
	uint32_t n, len;
	bool is_int = !f || field_is_int(f);

	memset(ci, 0, sizeof(*ci));
	ci->at = (size_t)(m->p - d->start);
	if (!mp_read_array(m, &n) || n != 5 || !mp_read_u64(m, &mode) || !mp_read_u64(m, &width) ||
	    !mp_read_u64(m, &ci->base) || !mp_read_u64(m, &ci->step))
		return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name,
				"not a column [mode, width, base, step, data]");
	if (mode >= MODE_NR || (mode == MODE_VALUES) == is_int || (mode == MODE_SLOT && !slot_ok))
		return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name, "a mode this field cannot have");
	if (width > 8 || (mode == MODE_VALUES && width))
		return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name, "a bad width");
	if ((mode == MODE_PLAIN || mode == MODE_VALUES) && ci->step)
		return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name, "a step in a mode without one");
	ci->mode = (unsigned int)mode;
	ci->width = (unsigned int)width;
	ci->present = true;
	if (mode == MODE_VALUES) {
		if (!mp_read_array(m, &n) || n != count)
			return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name,
					"not an array of one value an event");
		ci->data = m->p;
		while (n--)
			if (!mp_skip(m))
				return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name, "a bad value");
		ci->end = m->p;
		return 0;
	}
	if (!width) {
		if (!mp_read_u64(m, &ci->cval))
			return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name, "a bad value");
		return 0;
	}
	if (!read_bin(m, &ci->data, &len) || len != width * count)
		return col_fail(d, ci->at, RF_ERR_CORRUPT, tab, name,
				"data that is not width bytes an event");
	return 0;
}

static void col_rd_init(struct col_rd *r, const struct col_in *in, uint64_t count)
{
	unsigned int i;

	r->in = *in;
	r->count = count;
	r->row = 0;
	r->reg = in->base;
	for (i = 0; i < COL_SLOTS; i++)
		r->slot[i] = in->base;
	r->vals = (struct mp_cur){ in->data, in->end };
}

/* Value @i of @w byte planes of @n bytes each at @p. */
static inline __attribute__((always_inline)) uint64_t gather(const uint8_t *p, size_t n,
							       unsigned int w)
{
	uint64_t x = p[0];
	unsigned int b;

	for (b = 1; b < w; b++)
		x |= (uint64_t)p[b * n] << (8 * b);
	return x;
}

/* Instantiate BODY for each width 1..8, W a constant in it (so gather() unrolls). */
#define FOR_WIDTH(w, BODY) switch (w) { \
	case 1: { enum { W = 1 }; BODY; } break; \
	case 2: { enum { W = 2 }; BODY; } break; \
	case 3: { enum { W = 3 }; BODY; } break; \
	case 4: { enum { W = 4 }; BODY; } break; \
	case 5: { enum { W = 5 }; BODY; } break; \
	case 6: { enum { W = 6 }; BODY; } break; \
	case 7: { enum { W = 7 }; BODY; } break; \
	default: { enum { W = 8 }; BODY; } break; \
	}

/* The next @k values of integer column @r into @out (@key: the slot column's). */
static void col_next(struct col_rd *r, uint64_t *restrict out, size_t k,
		     const uint64_t *restrict key)
{
	const struct col_in *in = &r->in;
	const size_t n = r->count;
	const uint64_t base = in->base, step = in->step;
	uint64_t reg = r->reg, d, *s;
	const uint8_t *p;
	size_t i;

	r->row += k;
	if (!in->present) {
		memset(out, 0, k * sizeof(*out));
		return;
	}
	if (!in->width) {
		switch (in->mode) {
		case MODE_PLAIN:
			for (i = 0; i < k; i++)
				out[i] = base + in->cval;
			return;
		case MODE_DELTA:	/* equal steps */
			d = step + unzz(in->cval);
			for (i = 0; i < k; i++) {
				reg += d;
				out[i] = reg;
			}
			r->reg = reg;
			return;
		default:
			d = step + unzz(in->cval);
			for (i = 0; i < k; i++) {
				s = &r->slot[key[i] % COL_SLOTS];
				*s += d;
				out[i] = *s;
			}
			return;
		}
	}
	/* one pass a column: its planes gathered and the mode applied, the register in a local */
	p = in->data + r->row - k;
	switch (in->mode) {
	case MODE_PLAIN:
		FOR_WIDTH(in->width, for (i = 0; i < k; i++) out[i] = base + gather(p + i, n, W))
		break;
	case MODE_DELTA:
		FOR_WIDTH(in->width, for (i = 0; i < k; i++) {
			reg += step + unzz(gather(p + i, n, W));
			out[i] = reg;
		})
		r->reg = reg;
		break;
	default:
		for (i = 0; i < k; i++) {
			s = &r->slot[key[i] % COL_SLOTS];
			*s += step + unzz(gather(p + i, n, in->width));
			out[i] = *s;
		}
		break;
	}
}

/* Every value of @v[0..k) fits @size bytes, or with @sgn an int32_t (sign-extended). */
static bool values_fit(const uint64_t *v, size_t k, unsigned int size, bool sgn)
{
	uint64_t acc = 0;
	size_t i;

	if (sgn) {
		for (i = 0; i < k; i++)
			acc |= v[i] + 0x80000000ull;
		return acc <= UINT32_MAX;
	}
	if (size >= 8)
		return true;
	for (i = 0; i < k; i++)
		acc |= v[i];
	return acc >> (8 * size) == 0;
}

/* Store @v[j] into field @f of event out[@pos[j]], or out[@first + j] when @pos is NULL. */
static void scatter(const uint64_t *restrict v, size_t k, const uint32_t *restrict pos,
		    uint32_t first, struct rf_event *restrict out, const struct fmt_field *f)
{
	char *base = (char *)&out[first] + f->offset;
	size_t j;

#define SCATTER(T) do { \
		if (pos) \
			for (j = 0; j < k; j++) \
				*(T *)(void *)((char *)&out[pos[j]] + f->offset) = (T)v[j]; \
		else \
			for (j = 0; j < k; j++) \
				*(T *)(void *)(base + j * sizeof(*out)) = (T)v[j]; \
	} while (0)
	switch (f->kind == RF_FK_INT ? 4 : f->size) {
	case 1: SCATTER(uint8_t); break;
	case 2: SCATTER(uint16_t); break;
	case 4: SCATTER(uint32_t); break;
	default: SCATTER(uint64_t); break;
	}
#undef SCATTER
}

/* The map of type @type's columns, at d->tab_at[type]. */
static int parse_table(struct col_dec *d, unsigned int type)
{
	const struct fmt_schema *sch = fmt_schema_of(type);
	const char *tname = rf_event_type_name(type);
	struct mp_cur m = d->tab_at[type];
	struct tab_rd *t;
	struct col_in ci;
	const char *key;
	uint32_t n, klen;
	unsigned int i;
	int err;

	t = calloc(1, sizeof(*t));
	if (!t)
		return RF_ERR_NOMEM;
	d->tabs[type] = t;
	t->sch = sch;
	t->count = d->counts[type];
	if (!mp_read_map(&m, &n))
		return col_fail(d, (size_t)(m.p - d->start), RF_ERR_CORRUPT, NULL, tname,
				"not a map of columns");
	while (n--) {
		if (!mp_read_str(&m, &key, &klen))
			return col_fail(d, (size_t)(m.p - d->start), RF_ERR_CORRUPT, NULL, tname,
					"a bad column name");
		for (i = 0; i < sch->nr_fields; i++)
			if (strlen(sch->fields[i].name) == klen && !memcmp(sch->fields[i].name, key, klen))
				break;
		if (i == sch->nr_fields) {	/* appended by a newer minor version */
			if (!mp_skip(&m))
				return col_fail(d, (size_t)(m.p - d->start), RF_ERR_CORRUPT, NULL, tname,
						"a bad column");
			continue;
		}
		if (t->cols[i].in.present)
			return col_fail(d, (size_t)(m.p - d->start), RF_ERR_CORRUPT, tname,
					sch->fields[i].name, "a second column of the same name");
		err = parse_col(d, &m, t->count, &sch->fields[i], i > 0 && field_is_int(&sch->fields[0]),
				tname, sch->fields[i].name, &ci);
		if (err)
			return err;
		col_rd_init(&t->cols[i], &ci, t->count);
	}
	for (i = 0; i < sch->nr_required; i++)
		if (!t->cols[i].in.present)
			return col_fail(d, (size_t)(d->tab_at[type].p - d->start), RF_ERR_CORRUPT, tname,
					sch->fields[i].name, "missing");
	return 0;
}

/* The columns map: the common columns parsed, each table's place noted. */
static int parse_columns(struct col_dec *d, struct mp_cur *m)
{
	char name[32];
	const char *key;
	uint32_t n, klen;
	struct col_in ci;
	unsigned int i, type;
	int err;

	if (!mp_read_map(m, &n))
		return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL, "columns",
				"not a map");
	while (n--) {
		if (!mp_read_str(m, &key, &klen))
			return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL, "columns",
					"a bad column name");
		for (i = 0; i < COL_COMMON; i++)
			if (strlen(fmt_col_common_names[i]) == klen && !memcmp(fmt_col_common_names[i], key, klen))
				break;
		if (i < COL_COMMON) {
			if (d->common[i].in.present)
				return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL,
						fmt_col_common_names[i], "a second column of the same name");
			err = parse_col(d, m, d->n, NULL, false, NULL, fmt_col_common_names[i], &ci);
			if (err)
				return err;
			col_rd_init(&d->common[i], &ci, d->n);
			continue;
		}
		type = RF_EV_NONE;
		if (klen < sizeof(name)) {
			memcpy(name, key, klen);
			name[klen] = '\0';
			type = rf_event_type_from_name(name);
		}
		if (type != RF_EV_NONE && !fmt_schema_of(type))
			type = RF_EV_NONE;
		if (type != RF_EV_NONE && d->tab_at[type].p)
			return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL, name,
					"a second table of the same type");
		if (type != RF_EV_NONE)
			d->tab_at[type] = *m;
		/* a type of a newer minor version: its events are skipped */
		if (!mp_skip(m))
			return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL,
					type ? name : "columns", "a bad table");
	}
	for (i = 0; i < COL_COMMON; i++)
		if (!d->common[i].in.present)
			return col_fail(d, (size_t)(m->p - d->start), RF_ERR_CORRUPT, NULL,
					fmt_col_common_names[i], "missing");
	return 0;
}

/*
 * Whether every value of @r is one known now: absent (0), plain of width 0,
 * or deltas of width 0 that are all 0 (@base).
 */
static bool col_const(const struct col_rd *r)
{
	const struct col_in *in = &r->in;

	return !in->present || (!in->width && (in->mode == MODE_PLAIN ||
				(in->mode != MODE_VALUES && in->step + unzz(in->cval) == 0)));
}

static uint64_t col_const_value(const struct col_rd *r)
{
	if (!r->in.present)
		return 0;
	return r->in.base + (r->in.mode == MODE_PLAIN ? r->in.cval : 0);
}

/*
 * Each type's template: the event with its type and every value that is the
 * same for all the chunk's events of the type (constant columns, absent
 * fields); what varies is noted in tb->vary.
 */
static int make_template(struct col_dec *d, unsigned int type, uint64_t tbase, uint64_t tu)
{
	struct tab_rd *tb = d->tabs[type];
	struct rf_event *ev = &tb->tmpl;
	uint64_t v;
	unsigned int f;

	memset(ev, 0, sizeof(*ev));
	ev->type = (uint16_t)type;
	if (col_const(&d->common[COL_TIME]))
		ev->time = tbase + col_const_value(&d->common[COL_TIME]) * tu;
	if (col_const(&d->common[COL_CPU]))
		ev->cpu = (uint32_t)col_const_value(&d->common[COL_CPU]);
	if (col_const(&d->common[COL_PID]))
		ev->pid = (int32_t)col_const_value(&d->common[COL_PID]);
	tb->nr_vary = 0;
	for (f = 0; f < tb->sch->nr_fields; f++) {
		const struct fmt_field *fd = &tb->sch->fields[f];
		struct col_rd *r = &tb->cols[f];

		if (!field_is_int(fd) || !col_const(r)) {
			if (field_is_int(fd) || r->in.present)
				tb->vary[tb->nr_vary++] = (uint8_t)f;
			continue;
		}
		v = col_const_value(r);
		if (!values_fit(&v, 1, fd->size, fd->kind == RF_FK_INT))
			return col_fail(d, r->in.at, RF_ERR_CORRUPT, rf_event_type_name(type), fd->name,
					"a value the field cannot hold");
		scatter(&v, 1, NULL, 0, ev, fd);
	}
	return 0;
}

/* Read the type column, count the events of each type; each type with events needs its table. */
static int count_types(struct col_dec *d)
{
	struct col_rd r = d->common[COL_TYPE];
	bool known[RF_EV_TYPE_MAX];
	uint64_t i, k, j;
	unsigned int t;
	int err;

	for (t = 0; t < RF_EV_TYPE_MAX; t++)
		known[t] = fmt_schema_of(t) != NULL;
	if (col_const(&r)) {	/* the usual chunk: one type */
		uint64_t v = col_const_value(&r);

		t = v < RF_EV_TYPE_MAX && known[v] ? (unsigned int)v : RF_EV_NONE;
		memset(d->types, (int)t, d->n);
		d->counts[t] = d->n;
	}
	for (i = col_const(&r) ? d->n : 0; i < d->n; i += k) {
		k = d->n - i < COL_BLOCK ? d->n - i : COL_BLOCK;
		col_next(&r, d->tmp, k, NULL);
		for (j = 0; j < k; j++) {
			t = d->tmp[j] < RF_EV_TYPE_MAX && known[d->tmp[j]] ? (unsigned int)d->tmp[j] :
				RF_EV_NONE;
			d->types[i + j] = (uint8_t)t;
			d->counts[t]++;
		}
	}
	d->unknown = d->counts[RF_EV_NONE];
	for (t = 1; t < RF_EV_TYPE_MAX; t++) {
		if (!d->tab_at[t].p && !d->counts[t])
			continue;
		if (!d->tab_at[t].p)
			return col_fail(d, d->common[COL_TYPE].in.at, RF_ERR_CORRUPT, NULL,
					rf_event_type_name(t), "events of a type with no columns");
		err = parse_table(d, t);
		if (!err && d->counts[t])
			err = make_template(d, t, d->c->ds.time, d->c->ds.tu);
		if (err)
			return err;
	}
	for (i = COL_TIME; i < COL_COMMON; i++) {
		uint64_t v = col_const_value(&d->common[i]);

		if (!col_const(&d->common[i]))
			d->vary[d->nr_vary++] = (uint8_t)i;
		else if (i != COL_TIME && !values_fit(&v, 1, 4, i == COL_PID))
			return col_fail(d, d->common[i].in.at, RF_ERR_CORRUPT, NULL,
					fmt_col_common_names[i], "a value over 32 bits");
	}
	return 0;
}

static void dec_free(struct col_dec *d)
{
	unsigned int t;

	for (t = 0; t < RF_EV_TYPE_MAX; t++)
		free(d->tabs[t]);
	free(d->types);
	free(d);
}

/* A value column's next @k values, into the events of the block (event numbers for errors). */
static int read_values(struct col_dec *d, struct col_rd *r, const struct fmt_field *f, size_t k,
		       const uint32_t *pos, uint32_t first, struct rf_event *out)
{
	size_t j;
	int err;

	for (j = 0; j < k; j++) {
		uint32_t at = pos ? pos[j] : first + (uint32_t)j;

		d->c->nr_read = at;
		err = fmt_chunk_read_value(d->c, &r->vals, &out[at], f);
		if (err)
			return err;
	}
	r->row += k;
	return 0;
}

/* The common columns that vary, into the block's events (out[@pos[j]] or out[@first + j]). */
static int put_common(struct col_dec *d, size_t k, const uint32_t *pos, uint32_t first,
		      struct rf_event *out)
{
	const uint64_t tbase = d->c->ds.time, tu = d->c->ds.tu;
	uint64_t *v = d->tmp;
	unsigned int i;
	size_t j;

	for (i = 0; i < d->nr_vary; i++) {
		unsigned int c = d->vary[i];
		struct col_rd *r = &d->common[c];

		col_next(r, v, k, NULL);
		if (c == COL_TIME) {
			for (j = 0; j < k; j++)
				out[pos ? pos[j] : first + j].time = tbase + v[j] * tu;
			continue;
		}
		if (!values_fit(v, k, 4, c == COL_PID))
			return col_fail(d, r->in.at, RF_ERR_CORRUPT, NULL, fmt_col_common_names[c],
					"a value over 32 bits");
		if (c == COL_CPU)
			for (j = 0; j < k; j++)
				out[pos ? pos[j] : first + j].cpu = (uint32_t)v[j];
		else
			for (j = 0; j < k; j++)
				out[pos ? pos[j] : first + j].pid = (int32_t)v[j];
	}
	return 0;
}

/* @c events of table @tb, at out[@pos[j]] or out[@first + j]: the fields that vary. */
static int put_fields(struct col_dec *d, unsigned int type, size_t c, const uint32_t *pos,
		      uint32_t first, struct rf_event *out)
{
	struct tab_rd *tb = d->tabs[type];
	unsigned int i;
	int err;

	for (i = 0; i < tb->nr_vary; i++) {
		unsigned int f = tb->vary[i];
		const struct fmt_field *fd = &tb->sch->fields[f];
		struct col_rd *r = &tb->cols[f];
		uint64_t *v = f ? d->tmp : d->key;	/* the first field's: mode 2's slots */

		if (!field_is_int(fd)) {
			err = read_values(d, r, fd, c, pos, first, out);
			if (err)
				return err;
			continue;
		}
		if (f && r->in.mode == MODE_SLOT && col_const(&tb->cols[0])) {
			/* the slot column is in the template: its value for every row */
			uint64_t k0 = col_const_value(&tb->cols[0]);
			size_t j;

			for (j = 0; j < c; j++)
				d->key[j] = k0;
		}
		col_next(r, v, c, d->key);
		if (!values_fit(v, c, fd->size, fd->kind == RF_FK_INT))
			return col_fail(d, r->in.at, RF_ERR_CORRUPT, rf_event_type_name(type), fd->name,
					"a value the field cannot hold");
		scatter(v, c, pos, first, out, fd);
	}
	return 0;
}

/* The next block of @k events (types d->types[@b0 ..]), written from out[*@nr] on. */
static int decode_block(struct col_dec *d, uint64_t b0, size_t k, struct rf_event *out, size_t *nr)
{
	const uint8_t *t8 = d->types + b0;
	uint32_t o = (uint32_t)*nr, cnt[RF_EV_TYPE_MAX];
	unsigned int i, t, types[COL_BLOCK], ntypes = 0;
	bool single;
	size_t j;
	int err;

	single = d->counts[t8[0]] == d->n;	/* the chunk's one type */
	if (!single) {
		for (j = 1; j < k && t8[j] == t8[0]; j++)
			;
		single = j >= k;
	}
	if (single && t8[0] != RF_EV_NONE) {
		/* the usual block: one type, the events in a row */
		const struct rf_event *tmpl = &d->tabs[t8[0]]->tmpl;

		for (j = 0; j < k; j++)
			out[o + j] = *tmpl;
		if ((err = put_common(d, k, NULL, o, out)) ||
		    (err = put_fields(d, t8[0], k, NULL, o, out)))
			return err;
		*nr = o + k;
		return 0;
	}
	memset(cnt, 0, sizeof(cnt));
	for (j = 0; j < k; j++) {
		t = t8[j];
		if (t == RF_EV_NONE) {
			d->opos[j] = UINT32_MAX;
			continue;
		}
		if (!cnt[t]++)
			types[ntypes++] = t;
		d->opos[j] = o;
		out[o++] = d->tabs[t]->tmpl;
	}
	/* the common columns have a value for every event, an unknown type's too */
	if (d->unknown) {
		for (i = 0; i < d->nr_vary; i++) {
			col_next(&d->common[d->vary[i]], d->tmp, k, NULL);
			for (j = 0; j < k; j++)
				if (d->opos[j] != UINT32_MAX) {
					struct rf_event *ev = &out[d->opos[j]];
					uint64_t v = d->tmp[j];

					if (d->vary[i] == COL_TIME)
						ev->time = d->c->ds.time + v * d->c->ds.tu;
					else if (!values_fit(&v, 1, 4, d->vary[i] == COL_PID))
						return col_fail(d, d->common[d->vary[i]].in.at,
								RF_ERR_CORRUPT, NULL,
								fmt_col_common_names[d->vary[i]],
								"a value over 32 bits");
					else if (d->vary[i] == COL_CPU)
						ev->cpu = (uint32_t)v;
					else
						ev->pid = (int32_t)v;
				}
		}
	} else if ((err = put_common(d, k, NULL, (uint32_t)*nr, out))) {
		return err;
	}
	/* the block's events grouped by type, each group in event order */
	for (i = 0, j = 0; i < ntypes; i++) {
		d->off[types[i]] = (uint32_t)j;
		j += cnt[types[i]];
	}
	for (j = 0; j < k; j++)
		if (t8[j] != RF_EV_NONE)
			d->grp[d->off[t8[j]]++] = d->opos[j];
	for (i = 0, j = 0; i < ntypes; i++) {
		err = put_fields(d, types[i], cnt[types[i]], &d->grp[j], 0, out);
		if (err)
			return err;
		j += cnt[types[i]];
	}
	*nr = o;
	return 0;
}

int fmt_columns_decode(struct fmt_chunk_cursor *c, struct rf_event **events, size_t *cap, size_t *nr,
		       uint64_t *unknown)
{
	struct mp_cur m = { c->p, c->end };
	struct col_dec *d;
	uint64_t b0, k;
	int err;

	*nr = 0;
	*unknown = 0;
	if (c->nr_declared == UINT64_MAX)
		return fmt_fail(c->errmsg, c->errlen, RF_ERR_CORRUPT,
				"a chunk of encoding 3 must say its event count (\"n\")");
	if (c->nr_declared > RF_MAX_CHUNK_EVENTS)
		return fmt_fail(c->errmsg, c->errlen, RF_ERR_TOO_LARGE,
				"chunk claims %llu events, over the format's limit of %u",
				(unsigned long long)c->nr_declared, RF_MAX_CHUNK_EVENTS);
	d = calloc(1, sizeof(*d));
	if (!d)
		return RF_ERR_NOMEM;
	d->c = c;
	d->start = c->start;
	d->n = c->nr_declared;
	d->types = malloc(d->n ? d->n : 1);
	err = d->types ? parse_columns(d, &m) : RF_ERR_NOMEM;
	if (!err && m.p != m.end)
		err = col_fail(d, (size_t)(m.p - d->start), RF_ERR_CORRUPT, NULL, "columns",
			       "bytes after the columns");
	if (!err)
		err = count_types(d);
	if (!err && d->n - d->unknown > *cap && RF_GROW(*events, *cap, d->n - d->unknown))
		err = RF_ERR_NOMEM;
	for (b0 = 0; !err && b0 < d->n; b0 += k) {
		k = d->n - b0 < COL_BLOCK ? d->n - b0 : COL_BLOCK;
		err = decode_block(d, b0, (size_t)k, *events, nr);
	}
	/* a chunk of columns decodes whole or not at all */
	*nr = err ? 0 : *nr;
	*unknown = err ? 0 : d->unknown;
	c->nr_read = *nr;
	c->unknown_skipped = *unknown;
	c->p = c->end;
	dec_free(d);
	return err;
}
