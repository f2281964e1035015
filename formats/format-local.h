/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals shared by the files of librefault-trace. Not installed. */
#ifndef REFAULT_FORMAT_LOCAL_H
#define REFAULT_FORMAT_LOCAL_H

#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/trace.h>

#include "lib/compiler.h"
#include "lib/grow.h"

#define RF_HIDDEN __attribute__((visibility("hidden")))

/*
 * File layout constants (docs/trace-format.md).  The index and the footer
 * are zstd skippable frames: 4-byte magic, 4-byte little-endian size, payload.
 */
#define ZSTD_FRAME_MAGIC	0xFD2FB528u
#define SKIPPABLE_MAGIC_MASK	0xFFFFFFF0u
#define SKIPPABLE_MAGIC_BASE	0x184D2A50u
#define RF_INDEX_MAGIC		0x184D2A5Eu
#define RF_FOOTER_MAGIC		0x184D2A5Fu
#define RF_FOOTER_ID		"RFTRIDX1"
#define RF_FOOTER_PAYLOAD	24u	/* id[8], index offset u64, index size u32, crc32c u32 */
#define RF_FOOTER_SIZE		(8u + RF_FOOTER_PAYLOAD)
#define RF_MAX_INDEX_BYTES	(256u << 20)
/* Compressed bytes one chunk frame may take: ZSTD_compressBound(RF_MAX_CHUNK_BYTES) and change. */
#define RF_MAX_FRAME_BYTES	(RF_MAX_CHUNK_BYTES + (RF_MAX_CHUNK_BYTES >> 7) + 4096u)

/* Per-event field count written before the type-specific fields: type, dt, cpu, pid. */
#define RF_EVENT_COMMON_FIELDS	4u

/*
 * Chunk encodings (the chunk header's "enc"): 1 is format 1.x's, 2 adds the
 * pfn register, one address register per mm slot and dt in time units; 3
 * writes the chunk's events as columns instead of one array each.
 */
#define RF_CHUNK_ENC_1		1u
#define RF_CHUNK_ENC_2		2u
#define RF_CHUNK_ENC_3		3u	/* format 3.0: columns (columns_encode.c) */
#define RF_CHUNK_ENC_LATEST	RF_CHUNK_ENC_3
/* The last minor version of format 2, which a writer asked for version 2 writes (encoding 2). */
#define RF_TRACE_VERSION_2_MINOR	6u
/* Encoding 2: anon_fault addresses are delta-coded per slot mm % RF_ADDR_SLOTS. */
#define RF_ADDR_SLOTS		16u

/*
 * Delta registers: reset at the start of every chunk, so chunks decode alone.
 * @enc and @tu come from the chunk header: they say how the chunk was
 * written, so a trace may hold chunks of either encoding (a 2.x slice or
 * recovery copies 1.x chunks verbatim) and each decodes by its own rules.
 */
struct fmt_delta_state {
	uint64_t time;		/* ns */
	uint64_t tu;		/* dt unit, ns (1 in encoding 1) */
	uint64_t index;
	uint64_t addr[RF_ADDR_SLOTS];	/* encoding 1 uses addr[0] for every mm */
	uint64_t key;
	uint64_t pfn;		/* encoding 2 only */
	unsigned int enc;
};

/* A bump allocator for strings and arrays that live as long as one chunk. */
struct fmt_arena {
	struct fmt_arena_block *head;
	size_t used_total;
};
RF_HIDDEN void fmt_arena_init(struct fmt_arena *a);
RF_HIDDEN void *fmt_arena_alloc(struct fmt_arena *a, size_t size, size_t align);
RF_HIDDEN char *fmt_arena_strndup(struct fmt_arena *a, const char *s, size_t len);
RF_HIDDEN void fmt_arena_reset(struct fmt_arena *a);
RF_HIDDEN void fmt_arena_free(struct fmt_arena *a);

/*
 * schema.c: the fields of each event type, in file order.  The encoder, the
 * decoder and the JSON codec all walk this one table, so they cannot drift.
 */
enum fmt_field_kind {
	RF_FK_UINT,		/* unsigned integer of .size bytes */
	RF_FK_INT,		/* signed integer of .size bytes */
	RF_FK_DELTA_INDEX,	/* u64, written as the difference to the chunk's last page index */
	RF_FK_DELTA_ADDR,	/* u64, difference to the last anonymous address */
	RF_FK_DELTA_KEY,	/* u64, difference to the last access key */
	RF_FK_DELTA_PFN,	/* u64, difference to the last pfn (encoding 2); plain in encoding 1 */
	RF_FK_STR,		/* const char *, nil for NULL */
	RF_FK_FRAMES,		/* const uint64_t * + uint32_t count at .aux */
	RF_FK_COUNTERS,		/* const struct rf_counter * + uint32_t count at .aux */
};

struct fmt_field {
	const char *name;
	uint8_t kind;
	uint8_t size;
	uint16_t offset;	/* in struct rf_event */
	uint16_t aux;		/* offset of the element count (frames, counters) */
};

/* Fields of the type with the most (reclaim's 10), and room for a few more. */
#define RF_MAX_SCHEMA_FIELDS	12u

struct fmt_schema {
	const struct fmt_field *fields;
	unsigned int nr_fields;
	/* the fields of the type's first version; those after it were appended by a minor */
	unsigned int nr_required;
	/* the last field is written only when not 0 (the references' stack, since 2.6) */
	bool opt_last;
};

/* The fields fmt_encode_event() writes for @ev: all of them but an optional last one that is 0. */
static inline unsigned int fmt_schema_nr_written(const struct fmt_schema *sch, const struct rf_event *ev)
{
	if (sch->opt_last && !ev->stack)
		return sch->nr_fields - 1;
	return sch->nr_fields;
}

/* NULL for a type this version does not know. */
RF_HIDDEN const struct fmt_schema *fmt_schema_of(unsigned int type);
/* The same for a 2.x chunk's event arrays (chunk_encode.c, chunk_decode.c). */
RF_HIDDEN const struct fmt_schema *fmt_schema_v2_of(unsigned int type);

/*
 * event_types.c: the type table, for the library's own readers of it on a
 * hot path (rf_event_pages()); a type it does not know has no .name.
 */
RF_HIDDEN extern const struct rf_event_type_info fmt_event_types[RF_EV_TYPE_MAX];

static inline uint64_t fmt_field_get_u(const struct rf_event *ev, const struct fmt_field *f)
{
	const char *p = (const char *)ev + f->offset;

	switch (f->size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

/* Store @v; returns false when it does not fit the field. */
static inline bool fmt_field_set_u(struct rf_event *ev, const struct fmt_field *f, uint64_t v)
{
	char *p = (char *)ev + f->offset;

	switch (f->size) {
	case 1: *(uint8_t *)p = (uint8_t)v; return v <= UINT8_MAX;
	case 2: *(uint16_t *)p = (uint16_t)v; return v <= UINT16_MAX;
	case 4: *(uint32_t *)p = (uint32_t)v; return v <= UINT32_MAX;
	default: *(uint64_t *)p = v; return true;
	}
}

/* Signed fields are all int32_t. */
static inline int32_t fmt_field_get_i(const struct rf_event *ev, const struct fmt_field *f)
{
	return *(const int32_t *)((const char *)ev + f->offset);
}

static inline bool fmt_field_set_i(struct rf_event *ev, const struct fmt_field *f, int64_t v)
{
	*(int32_t *)((char *)ev + f->offset) = (int32_t)v;
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Slot of an anon_fault's address register: its mm (read before addr) in encoding 2. */
static inline unsigned int fmt_addr_slot(const struct fmt_delta_state *ds, const struct rf_event *ev)
{
	return ds->enc >= RF_CHUNK_ENC_2 ? (unsigned int)(ev->u.anon.mm % RF_ADDR_SLOTS) : 0;
}

/* The register of a delta field; NULL when the chunk's encoding writes it plain (pfn in 1). */
static inline uint64_t *fmt_delta_reg(struct fmt_delta_state *ds, unsigned int kind,
				      const struct rf_event *ev)
{
	switch (kind) {
	case RF_FK_DELTA_INDEX: return &ds->index;
	case RF_FK_DELTA_ADDR: return &ds->addr[fmt_addr_slot(ds, ev)];
	case RF_FK_DELTA_KEY: return &ds->key;
	default: return ds->enc >= RF_CHUNK_ENC_2 ? &ds->pfn : NULL;
	}
}

#define RF_FIELD_PTR(ev, f, type) (*(type *)((char *)(ev) + (f)->offset))
#define RF_FIELD_CPTR(ev, f, type) (*(const type *)((const char *)(ev) + (f)->offset))
#define RF_FIELD_COUNT(ev, f) (*(uint32_t *)((char *)(ev) + (f)->aux))
#define RF_FIELD_CCOUNT(ev, f) (*(const uint32_t *)((const char *)(ev) + (f)->aux))

/* chunk_encode.c: events -> msgpack in a growing buffer, with the chunk's delta state */
struct fmt_pack {
	uint8_t *p;
	size_t len;
	size_t cap;
};
RF_HIDDEN bool fmt_pack_reserve(struct fmt_pack *pk, size_t n);
RF_HIDDEN void fmt_pack_free(struct fmt_pack *pk);
/* 0, or RF_ERR_NOMEM with @pk holding a partial event (the writer then fails). */
RF_HIDDEN int fmt_encode_event(struct fmt_pack *pk, struct fmt_delta_state *ds,
			       const struct rf_event *ev);
RF_HIDDEN int fmt_event_validate(const struct rf_event *ev);
/* A string, stack frames or counters field of @ev as one msgpack value; false: no memory. */
RF_HIDDEN bool fmt_pack_value(struct fmt_pack *pk, const struct rf_event *ev, const struct fmt_field *f);

/*
 * columns_encode.c: a chunk's events gathered as columns (encoding 3), then
 * written as the map that follows the chunk header.  fmt_colchunk_size() is
 * at least what fmt_colchunk_encode() will write.
 */
struct fmt_colchunk;
RF_HIDDEN struct fmt_colchunk *fmt_colchunk_new(void);
RF_HIDDEN void fmt_colchunk_free(struct fmt_colchunk *cc);
RF_HIDDEN void fmt_colchunk_reset(struct fmt_colchunk *cc);
/* 0, or RF_ERR_NOMEM with part of @ev added (the writer then fails). @ev->time % @tu == 0. */
RF_HIDDEN int fmt_colchunk_add(struct fmt_colchunk *cc, const struct rf_event *ev, uint64_t tu);
RF_HIDDEN size_t fmt_colchunk_size(const struct fmt_colchunk *cc);
RF_HIDDEN int fmt_colchunk_encode(struct fmt_colchunk *cc, struct fmt_pack *pk);

/* chunk_decode.c: a cursor over one decompressed chunk */
struct mp_cur;
struct fmt_chunk_cursor {
	const uint8_t *p;
	const uint8_t *end;
	const uint8_t *start;
	struct fmt_delta_state ds;
	struct fmt_arena *arena;
	uint64_t seq;
	uint64_t nr_declared;
	uint64_t nr_read;
	uint64_t unknown_skipped;
	char *errmsg;		/* where to write an error */
	size_t errlen;
};
RF_HIDDEN int fmt_chunk_cursor_start(struct fmt_chunk_cursor *c, const void *buf, size_t len,
				     struct fmt_arena *arena, char *errmsg, size_t errlen);
RF_HIDDEN int fmt_chunk_cursor_next(struct fmt_chunk_cursor *c, struct rf_event *ev);
/* A string, stack frames or counters field into @ev at @m (storage from c->arena). */
RF_HIDDEN int fmt_chunk_read_value(struct fmt_chunk_cursor *c, struct mp_cur *m, struct rf_event *ev,
				   const struct fmt_field *f);
/*
 * columns_decode.c: the events of a chunk of encoding 3 (@c just started)
 * into *@events (grown as needed), all of them or, on error, none: *@nr is
 * then 0 and c->errmsg says what is wrong where.  *@unknown: events of
 * types this library does not know, skipped.
 */
RF_HIDDEN int fmt_columns_decode(struct fmt_chunk_cursor *c, struct rf_event **events, size_t *cap,
				 size_t *nr, uint64_t *unknown);
/* Decompress a chunk frame into *buf (grown as needed, bounded by RF_MAX_CHUNK_BYTES). */
RF_HIDDEN int fmt_decompress_frame(void *dctx, const void *frame, size_t size, uint8_t **buf,
				   size_t *cap, size_t *out_len, char *errmsg, size_t errlen);

/* header.c */
RF_HIDDEN int fmt_header_encode(const struct rf_trace_header *h, void **out, size_t *len);
RF_HIDDEN int fmt_header_decode(const void *buf, size_t len, struct rf_trace_header *h,
				char *errmsg, size_t errlen);

/* index.c */
struct fmt_index {
	struct rf_chunk_info *chunks;
	size_t nr;
	size_t cap;
	uint64_t type_counts[RF_EV_TYPE_MAX];
};
RF_HIDDEN int fmt_index_add(struct fmt_index *ix, const struct rf_chunk_info *ci);

/* One more event in the chunk @ci describes: counts and time range. */
static inline void fmt_chunk_info_add(struct rf_chunk_info *ci, const struct rf_event *ev)
{
	ci->nr_events++;
	ci->nr_refs += rf_event_class(ev->type) == RF_CLASS_REFERENCE;
	if (ev->time < ci->t_first)
		ci->t_first = ev->time;
	if (ev->time > ci->t_last)
		ci->t_last = ev->time;
}

/*
 * rf_event_batch_summary(), also counting the events per type into
 * @type_counts (may be NULL), as the index's "types" table does.
 */
RF_HIDDEN void fmt_chunk_summarize(struct rf_chunk_info *ci, const struct rf_event_batch *b,
				   uint64_t *type_counts);
RF_HIDDEN void fmt_index_free(struct fmt_index *ix);
RF_HIDDEN int fmt_index_encode(const struct fmt_index *ix, void **out, size_t *len);
RF_HIDDEN int fmt_index_decode(const void *buf, size_t len, struct fmt_index *ix);
RF_HIDDEN void fmt_footer_encode(uint8_t out[RF_FOOTER_SIZE], uint64_t index_offset,
				 uint32_t index_size, uint32_t crc);

RF_HIDDEN uint32_t fmt_crc32c(uint32_t crc, const void *buf, size_t len);

static inline uint32_t fmt_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t fmt_le64(const uint8_t *p)
{
	return (uint64_t)fmt_le32(p) | (uint64_t)fmt_le32(p + 4) << 32;
}

static inline void fmt_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static inline void fmt_put_le64(uint8_t *p, uint64_t v)
{
	fmt_put_le32(p, (uint32_t)v);
	fmt_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* The header's values against the format's limits (RF_MAX_*): 0 or RF_ERR_CORRUPT with why. */
RF_HIDDEN int fmt_header_check(const struct rf_trace_header *h, char *errmsg, size_t errlen);

/* snprintf into an error buffer; returns @err so call sites can 'return fmt_fail(...)'. */
RF_HIDDEN int fmt_fail(char *buf, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Copy a string into a fixed field, truncating. */
RF_HIDDEN void fmt_strlcpy(char *dst, const char *src, size_t len);

#endif /* REFAULT_FORMAT_LOCAL_H */
