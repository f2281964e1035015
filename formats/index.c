/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chunk index (a skippable frame near the end) and the footer that
 * points at it.  The index is msgpack:
 *   {"chunks": [[offset, size, seq, t_first, t_last, nr_events, nr_refs], ...],
 *    "types": {name: count, ...}}
 * and the footer is fixed-size so a reader finds it from the end of file.
 */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "formats/format-local.h"
#include "formats/mp_read.h"

int fmt_index_add(struct fmt_index *ix, const struct rf_chunk_info *ci)
{
	if (RF_GROW(ix->chunks, ix->cap, ix->nr + 1))
		return RF_ERR_NOMEM;
	ix->chunks[ix->nr++] = *ci;
	return 0;
}

void fmt_chunk_summarize(struct rf_chunk_info *ci, const struct rf_event_batch *b,
			 uint64_t *type_counts)
{
	size_t i;

	ci->seq = b->seq;
	ci->t_first = UINT64_MAX;
	ci->t_last = 0;
	ci->nr_events = 0;
	ci->nr_refs = 0;
	for (i = 0; i < b->nr; i++) {
		fmt_chunk_info_add(ci, &b->events[i]);
		if (type_counts)
			type_counts[b->events[i].type]++;
	}
}

void rf_event_batch_summary(const struct rf_event_batch *b, struct rf_chunk_info *ci)
{
	fmt_chunk_summarize(ci, b, NULL);
}

void fmt_index_free(struct fmt_index *ix)
{
	free(ix->chunks);
	memset(ix, 0, sizeof(*ix));
}

int fmt_index_encode(const struct fmt_index *ix, void **out, size_t *len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	unsigned int t, nr_types = 0;
	const char *name;
	size_t i;

	for (t = 0; t < RF_EV_TYPE_MAX; t++)
		nr_types += ix->type_counts[t] && rf_event_type_name(t);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 2);
	msgpack_pack_str_with_body(&pk, "chunks", 6);
	msgpack_pack_array(&pk, ix->nr);
	for (i = 0; i < ix->nr; i++) {
		const struct rf_chunk_info *c = &ix->chunks[i];

		msgpack_pack_array(&pk, 7);
		msgpack_pack_uint64(&pk, c->offset);
		msgpack_pack_uint64(&pk, c->size);
		msgpack_pack_uint64(&pk, c->seq);
		msgpack_pack_uint64(&pk, c->t_first);
		msgpack_pack_uint64(&pk, c->t_last);
		msgpack_pack_uint64(&pk, c->nr_events);
		msgpack_pack_uint64(&pk, c->nr_refs);
	}
	msgpack_pack_str_with_body(&pk, "types", 5);
	msgpack_pack_map(&pk, nr_types);
	for (t = 0; t < RF_EV_TYPE_MAX; t++) {
		name = rf_event_type_name(t);
		if (!ix->type_counts[t] || !name)
			continue;
		msgpack_pack_str_with_body(&pk, name, strlen(name));
		msgpack_pack_uint64(&pk, ix->type_counts[t]);
	}
	if (!sb.data) {
		msgpack_sbuffer_destroy(&sb);
		return RF_ERR_NOMEM;
	}
	*len = sb.size;
	*out = msgpack_sbuffer_release(&sb);
	return 0;
}

static int decode_chunks(struct mp_cur *m, struct fmt_index *ix)
{
	struct rf_chunk_info ci;
	uint32_t n, k, fields;
	uint64_t *slot[7] = { &ci.offset, &ci.size, &ci.seq, &ci.t_first, &ci.t_last,
			      &ci.nr_events, &ci.nr_refs };
	int err;

	if (!mp_read_array(m, &n))
		return RF_ERR_CORRUPT;
	while (n--) {
		if (!mp_read_array(m, &fields) || fields < 7)
			return RF_ERR_CORRUPT;
		for (k = 0; k < fields; k++) {
			if (k < 7 ? !mp_read_u64(m, slot[k]) : !mp_skip(m))
				return RF_ERR_CORRUPT;
		}
		err = fmt_index_add(ix, &ci);
		if (err)
			return err;
	}
	return 0;
}

static int decode_types(struct mp_cur *m, struct fmt_index *ix)
{
	char name[64];
	const char *s;
	uint32_t n, len;
	uint64_t v;
	unsigned int t;

	if (!mp_read_map(m, &n))
		return RF_ERR_CORRUPT;
	while (n--) {
		if (!mp_read_str(m, &s, &len) || !mp_read_u64(m, &v))
			return RF_ERR_CORRUPT;
		if (len >= sizeof(name))
			continue;
		memcpy(name, s, len);
		name[len] = '\0';
		t = rf_event_type_from_name(name);
		if (t)
			ix->type_counts[t] = v;
	}
	return 0;
}

int fmt_index_decode(const void *buf, size_t len, struct fmt_index *ix)
{
	struct mp_cur m = { buf, (const uint8_t *)buf + len };
	const char *key;
	uint32_t n, klen;
	int err = 0;

	memset(ix, 0, sizeof(*ix));
	if (!mp_read_map(&m, &n))
		return RF_ERR_CORRUPT;
	while (n-- && !err) {
		if (!mp_read_str(&m, &key, &klen))
			err = RF_ERR_CORRUPT;
		else if (klen == 6 && !memcmp(key, "chunks", 6))
			err = decode_chunks(&m, ix);
		else if (klen == 5 && !memcmp(key, "types", 5))
			err = decode_types(&m, ix);
		else if (!mp_skip(&m))
			err = RF_ERR_CORRUPT;
	}
	if (err)
		fmt_index_free(ix);
	return err;
}

void fmt_footer_encode(uint8_t out[RF_FOOTER_SIZE], uint64_t index_offset, uint32_t index_size,
		       uint32_t crc)
{
	fmt_put_le32(out, RF_FOOTER_MAGIC);
	fmt_put_le32(out + 4, RF_FOOTER_PAYLOAD);
	memcpy(out + 8, RF_FOOTER_ID, 8);
	fmt_put_le64(out + 16, index_offset);
	fmt_put_le32(out + 24, index_size);
	fmt_put_le32(out + 28, crc);
}
