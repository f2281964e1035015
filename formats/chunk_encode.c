/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding 2 (format 2.x) of one event: a msgpack array [type, dt, cpu, pid,
 * fields...], which a writer asked for format 2 writes (format 3 writes
 * columns: columns_encode.c); and the checks and value packing both share.
 * dt and the page-index, address, key and pfn fields are differences to the
 * previous value in the same chunk, so a sequential stream encodes as the
 * same few small integers over and over, which zstd then all but erases.
 * dt counts time units (the chunk's "tu"): at a 1 us resolution the gap
 * between two events is mostly a one-byte integer.  The writer always
 * writes the latest chunk encoding (ds->enc); the decoder reads every one.
 *
 * The msgpack is written straight into the chunk buffer, the shortest form
 * of every integer (what msgpack-c writes too), with the room for an event
 * reserved once: msgpack-c's packer makes a callback per value, which cost
 * the recorder several times what zstd does.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/format-local.h"
#include "formats/mp_write.h"

static bool string_ok(const char *s)
{
	return !s || strnlen(s, RF_MAX_STRING + 1) <= RF_MAX_STRING;
}

int fmt_event_validate(const struct rf_event *ev)
{
	const struct fmt_schema *sch = fmt_schema_of(ev->type);
	const struct rf_counter *ctr;
	unsigned int i;
	uint32_t n, k;

	if (!sch)
		return RF_ERR_UNKNOWN_TYPE;
	for (i = 0; i < sch->nr_fields; i++) {
		const struct fmt_field *f = &sch->fields[i];

		switch (f->kind) {
		case RF_FK_STR:
			if (!string_ok(RF_FIELD_CPTR(ev, f, char *)))
				return RF_ERR_TOO_LARGE;
			break;
		case RF_FK_FRAMES:
			n = RF_FIELD_CCOUNT(ev, f);
			if (n > RF_MAX_FRAMES)
				return RF_ERR_TOO_LARGE;
			if (n && !RF_FIELD_CPTR(ev, f, uint64_t *))
				return RF_ERR_INVAL;
			break;
		case RF_FK_COUNTERS:
			n = RF_FIELD_CCOUNT(ev, f);
			ctr = RF_FIELD_CPTR(ev, f, struct rf_counter *);
			if (n > RF_MAX_COUNTERS)
				return RF_ERR_TOO_LARGE;
			if (n && !ctr)
				return RF_ERR_INVAL;
			for (k = 0; k < n; k++)
				if (!ctr[k].name || !string_ok(ctr[k].name))
					return RF_ERR_INVAL;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- packing */

#define MAX_INT_BYTES	MP_MAX_INT_BYTES

bool fmt_pack_reserve(struct fmt_pack *pk, size_t n)
{
	if (pk->cap - pk->len >= n)
		return true;
	return n <= SIZE_MAX - pk->len && !RF_GROW(pk->p, pk->cap, pk->len + n);
}

void fmt_pack_free(struct fmt_pack *pk)
{
	free(pk->p);
	memset(pk, 0, sizeof(*pk));
}

/* A string or nil; reserves its own room. */
static bool pack_str(struct fmt_pack *pk, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	uint8_t *q;

	if (!fmt_pack_reserve(pk, MAX_INT_BYTES + len))
		return false;
	q = pk->p + pk->len;
	if (!s)
		*q++ = 0xc0;
	else
		q = mp_put_str_hdr(q, (uint32_t)len);
	if (len)
		memcpy(q, s, len);
	pk->len = (size_t)(q + len - pk->p);
	return true;
}

/* Stack frames and counter maps: rare, and sized by their element count. */
static __attribute__((noinline)) bool pack_list(struct fmt_pack *pk, const struct rf_event *ev,
						 const struct fmt_field *f)
{
	uint32_t n = RF_FIELD_CCOUNT(ev, f), k;
	uint8_t *q;

	if (f->kind == RF_FK_FRAMES) {
		const uint64_t *frames = RF_FIELD_CPTR(ev, f, uint64_t *);

		if (!fmt_pack_reserve(pk, MAX_INT_BYTES * (1 + (size_t)n)))
			return false;
		q = mp_put_array(pk->p + pk->len, n);
		for (k = 0; k < n; k++)
			q = mp_put_uint(q, frames[k]);
		pk->len = (size_t)(q - pk->p);
		return true;
	}
	{
		const struct rf_counter *ctr = RF_FIELD_CPTR(ev, f, struct rf_counter *);

		if (!fmt_pack_reserve(pk, MAX_INT_BYTES))
			return false;
		pk->len = (size_t)(mp_put_map(pk->p + pk->len, n) - pk->p);
		for (k = 0; k < n; k++) {
			if (!pack_str(pk, ctr[k].name) || !fmt_pack_reserve(pk, MAX_INT_BYTES))
				return false;
			pk->len = (size_t)(mp_put_uint(pk->p + pk->len, ctr[k].value) - pk->p);
		}
		return true;
	}
}

bool fmt_pack_value(struct fmt_pack *pk, const struct rf_event *ev, const struct fmt_field *f)
{
	return f->kind == RF_FK_STR ? pack_str(pk, RF_FIELD_CPTR(ev, f, char *)) : pack_list(pk, ev, f);
}

/* One integer field at @q (room reserved); NULL for a field that packs itself. */
static inline uint8_t *put_field(uint8_t *q, struct fmt_delta_state *ds, const struct rf_event *ev,
				 const struct fmt_field *f)
{
	uint64_t v, *reg;

	switch (f->kind) {
	case RF_FK_UINT:
		return mp_put_uint(q, fmt_field_get_u(ev, f));
	case RF_FK_INT:
		return mp_put_int(q, fmt_field_get_i(ev, f));
	case RF_FK_DELTA_INDEX:
	case RF_FK_DELTA_ADDR:
	case RF_FK_DELTA_KEY:
	case RF_FK_DELTA_PFN:
		reg = fmt_delta_reg(ds, f->kind, ev);
		v = fmt_field_get_u(ev, f);
		if (!reg)
			return mp_put_uint(q, v);
		q = mp_put_int(q, (int64_t)(v - *reg));
		*reg = v;
		return q;
	}
	return NULL;
}

/* @ev->time must be a multiple of ds->tu (the writer rounds it down). */
int fmt_encode_event(struct fmt_pack *pk, struct fmt_delta_state *ds, const struct rf_event *ev)
{
	const struct fmt_schema *sch = fmt_schema_v2_of(ev->type);
	unsigned int i, nr;
	uint8_t *q, *next;

	if (!sch)
		return RF_ERR_UNKNOWN_TYPE;
	nr = fmt_schema_nr_written(sch, ev);
	/* the array header, the prefix and every integer field */
	if (!fmt_pack_reserve(pk, MAX_INT_BYTES * (1 + RF_EVENT_COMMON_FIELDS + sch->nr_fields)))
		return RF_ERR_NOMEM;
	q = mp_put_array(pk->p + pk->len, RF_EVENT_COMMON_FIELDS + nr);
	q = mp_put_uint(q, ev->type);
	/*
	 * Both times are multiples of tu: the difference of the quotients, taken
	 * modulo 2^64 as the reader adds it back, is exact even where the times
	 * are 2^63 or more apart (a tu that is not a power of two would not divide
	 * the wrapped difference).
	 */
	q = mp_put_int(q, (int64_t)(ev->time / ds->tu - ds->time / ds->tu));
	ds->time = ev->time;
	q = mp_put_uint(q, ev->cpu);
	q = mp_put_int(q, ev->pid);
	for (i = 0; i < nr; i++) {
		const struct fmt_field *f = &sch->fields[i];

		next = put_field(q, ds, ev, f);
		if (next) {
			q = next;
			continue;
		}
		/* a string, frames or counters: packs itself, then room for the rest again */
		pk->len = (size_t)(q - pk->p);
		if (!fmt_pack_value(pk, ev, f) ||
		    !fmt_pack_reserve(pk, MAX_INT_BYTES * sch->nr_fields))
			return RF_ERR_NOMEM;
		q = pk->p + pk->len;
	}
	pk->len = (size_t)(q - pk->p);
	return 0;
}
