/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoding of one event: a msgpack array [type, dt, cpu, pid, fields...].
 * dt and the page-index, address, key and pfn fields are differences to the
 * previous value in the same chunk, so a sequential stream encodes as the
 * same few small integers over and over, which zstd then all but erases.
 * dt counts time units (the chunk's "tu"): at a 1 us resolution the gap
 * between two events is mostly a one-byte integer.  The writer always
 * writes the latest chunk encoding (ds->enc); the decoder reads every one.
 */
#include <string.h>

#include <msgpack.h>

#include "formats/format-local.h"

static bool string_ok(const char *s)
{
	return !s || strnlen(s, RF_MAX_STRING + 1) <= RF_MAX_STRING;
}

int rf_event_validate(const struct rf_event *ev)
{
	const struct rf_schema *sch = rf_schema_of(ev->type);
	const struct rf_counter *ctr;
	unsigned int i;
	uint32_t n, k;

	if (!sch)
		return RF_ERR_UNKNOWN_TYPE;
	for (i = 0; i < sch->nr_fields; i++) {
		const struct rf_field *f = &sch->fields[i];

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

static void pack_str(msgpack_packer *pk, const char *s)
{
	size_t len;

	if (!s) {
		msgpack_pack_nil(pk);
		return;
	}
	len = strlen(s);
	msgpack_pack_str(pk, len);
	msgpack_pack_str_body(pk, s, len);
}

static void pack_field(msgpack_packer *pk, struct rf_delta_state *ds, const struct rf_event *ev,
		       const struct rf_field *f)
{
	const struct rf_counter *ctr;
	const uint64_t *frames;
	uint64_t v, *reg;
	uint32_t n, k;

	switch (f->kind) {
	case RF_FK_UINT:
		msgpack_pack_uint64(pk, rf_field_get_u(ev, f));
		break;
	case RF_FK_INT:
		msgpack_pack_int32(pk, rf_field_get_i(ev, f));
		break;
	case RF_FK_DELTA_INDEX:
	case RF_FK_DELTA_ADDR:
	case RF_FK_DELTA_KEY:
	case RF_FK_DELTA_PFN:
		reg = rf_delta_reg(ds, f->kind, ev);
		v = rf_field_get_u(ev, f);
		if (!reg) {
			msgpack_pack_uint64(pk, v);
			break;
		}
		msgpack_pack_int64(pk, (int64_t)(v - *reg));
		*reg = v;
		break;
	case RF_FK_STR:
		pack_str(pk, RF_FIELD_CPTR(ev, f, char *));
		break;
	case RF_FK_FRAMES:
		n = RF_FIELD_CCOUNT(ev, f);
		frames = RF_FIELD_CPTR(ev, f, uint64_t *);
		msgpack_pack_array(pk, n);
		for (k = 0; k < n; k++)
			msgpack_pack_uint64(pk, frames[k]);
		break;
	case RF_FK_COUNTERS:
		n = RF_FIELD_CCOUNT(ev, f);
		ctr = RF_FIELD_CPTR(ev, f, struct rf_counter *);
		msgpack_pack_map(pk, n);
		for (k = 0; k < n; k++) {
			pack_str(pk, ctr[k].name);
			msgpack_pack_uint64(pk, ctr[k].value);
		}
		break;
	}
}

/* @ev->time must be a multiple of ds->tu (the writer rounds it down). */
int rf_encode_event(struct msgpack_packer *pk, struct rf_delta_state *ds, const struct rf_event *ev)
{
	const struct rf_schema *sch = rf_schema_of(ev->type);
	unsigned int i;

	if (!sch)
		return RF_ERR_UNKNOWN_TYPE;
	msgpack_pack_array(pk, RF_EVENT_COMMON_FIELDS + sch->nr_fields);
	msgpack_pack_uint16(pk, ev->type);
	/* both times are multiples of tu, so the signed difference divides exactly */
	msgpack_pack_int64(pk, (int64_t)(ev->time - ds->time) / (int64_t)ds->tu);
	ds->time = ev->time;
	msgpack_pack_uint32(pk, ev->cpu);
	msgpack_pack_int32(pk, ev->pid);
	for (i = 0; i < sch->nr_fields; i++)
		pack_field(pk, ds, ev, &sch->fields[i]);
	return 0;
}
