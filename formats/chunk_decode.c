/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding of one chunk: decompress its zstd frame (checking zstd's content
 * checksum), read the chunk header, then the events: one at a time in
 * encodings 1 and 2, all the columns at once in 3 (columns_decode.c).  Nothing
 * read off disk is trusted: sizes are bounded, every read is bounds-checked,
 * and an error says which byte of the chunk it was found at.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_getFrameHeader */
#include <zstd.h>
#include <zstd_errors.h>

#include "formats/format-local.h"
#include "formats/mp_read.h"

int fmt_decompress_frame(void *dctx, const void *frame, size_t size, uint8_t **buf, size_t *cap,
			 size_t *out_len, char *errmsg, size_t errlen)
{
	ZSTD_frameHeader fh;
	size_t r, want;

	r = ZSTD_getFrameHeader(&fh, frame, size);
	if (ZSTD_isError(r))
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "bad zstd frame header (%s)",
				ZSTD_getErrorName(r));
	if (r > 0)
		return fmt_fail(errmsg, errlen, RF_ERR_TRUNCATED, "zstd frame header cut short");
	if (fh.frameType != ZSTD_frame)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "expected a zstd frame, found a skippable one");
	if (!fh.checksumFlag)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "zstd frame carries no checksum");
	if (fh.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "zstd frame does not declare its size");
	if (fh.frameContentSize > RF_MAX_CHUNK_BYTES)
		return fmt_fail(errmsg, errlen, RF_ERR_TOO_LARGE,
				"chunk claims %llu bytes, over the %u-byte limit",
				(unsigned long long)fh.frameContentSize, RF_MAX_CHUNK_BYTES);
	want = fh.frameContentSize ? (size_t)fh.frameContentSize : 1;
	if (RF_GROW(*buf, *cap, want))
		return fmt_fail(errmsg, errlen, RF_ERR_NOMEM, "out of memory for a %zu-byte chunk",
				want);
	r = ZSTD_decompressDCtx(dctx, *buf, *cap, frame, size);
	if (ZSTD_isError(r)) {
		if (ZSTD_getErrorCode(r) == ZSTD_error_checksum_wrong)
			return fmt_fail(errmsg, errlen, RF_ERR_CHECKSUM, "content checksum mismatch");
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "zstd: %s", ZSTD_getErrorName(r));
	}
	if (r != fh.frameContentSize)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "frame decoded to %zu bytes, declared %llu",
				r, (unsigned long long)fh.frameContentSize);
	*out_len = r;
	return 0;
}

#define CUR(c) ((struct mp_cur *)(void *)(c))

static int cursor_fail(struct fmt_chunk_cursor *c, const struct mp_cur *m, int err, const char *what)
{
	return fmt_fail(c->errmsg, c->errlen, err, "%s at byte %zu of the chunk (event %llu)", what,
			(size_t)(m->p - c->start), (unsigned long long)c->nr_read);
}

int fmt_chunk_cursor_start(struct fmt_chunk_cursor *c, const void *buf, size_t len,
			   struct fmt_arena *arena, char *errmsg, size_t errlen)
{
	struct mp_cur m = { buf, (const uint8_t *)buf + len };
	bool have_seq = false, have_t = false;
	const char *key;
	uint32_t n, klen;
	uint64_t v;

	memset(c, 0, sizeof(*c));
	/* a chunk without "enc" and "tu" is a 1.x chunk: pfn plain, one addr register, dt in ns */
	c->ds.enc = RF_CHUNK_ENC_1;
	c->ds.tu = 1;
	c->start = buf;
	c->arena = arena;
	c->errmsg = errmsg;
	c->errlen = errlen;
	c->nr_declared = UINT64_MAX;
	if (!mp_read_map(&m, &n))
		return cursor_fail(c, &m, RF_ERR_CORRUPT, "chunk header is not a map");
	while (n--) {
		if (!mp_read_str(&m, &key, &klen))
			return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk header key");
		if (klen == 5 && !memcmp(key, "chunk", 5)) {
			if (!mp_read_u64(&m, &c->seq))
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk number");
			have_seq = true;
		} else if (klen == 1 && key[0] == 't') {
			if (!mp_read_u64(&m, &c->ds.time))
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk base time");
			have_t = true;
		} else if (klen == 1 && key[0] == 'n') {
			if (!mp_read_u64(&m, &v))
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk event count");
			c->nr_declared = v;
		} else if (klen == 3 && !memcmp(key, "enc", 3)) {
			if (!mp_read_u64(&m, &v) || v < RF_CHUNK_ENC_1)
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk encoding");
			if (v > RF_CHUNK_ENC_LATEST)
				return cursor_fail(c, &m, RF_ERR_VERSION,
						   "chunk encoding newer than this reader knows");
			c->ds.enc = (unsigned int)v;
		} else if (klen == 2 && !memcmp(key, "tu", 2)) {
			if (!mp_read_u64(&m, &v) || !v || v > RF_MAX_TIME_RESOLUTION)
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk time unit");
			c->ds.tu = v;
		} else if (!mp_skip(&m)) {
			return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad chunk header value");
		}
	}
	if (!have_seq || !have_t)
		return cursor_fail(c, &m, RF_ERR_CORRUPT, "chunk header lacks its number or base time");
	c->p = m.p;
	c->end = m.end;
	return 0;
}

static int read_string(struct fmt_chunk_cursor *c, struct mp_cur *m, const char **out)
{
	const char *s;
	uint32_t len;

	if (mp_is_nil(m)) {
		m->p++;
		*out = NULL;
		return 0;
	}
	if (!mp_read_str(m, &s, &len))
		return cursor_fail(c, m, RF_ERR_CORRUPT, "bad string");
	if (len > RF_MAX_STRING)
		return cursor_fail(c, m, RF_ERR_TOO_LARGE, "string over the length limit");
	*out = fmt_arena_strndup(c->arena, s, len);
	return *out ? 0 : RF_ERR_NOMEM;
}

static int read_frames(struct fmt_chunk_cursor *c, struct mp_cur *m, struct rf_event *ev,
		       const struct fmt_field *f)
{
	uint64_t *frames = NULL;
	uint32_t n, k;

	if (!mp_read_array(m, &n))
		return cursor_fail(c, m, RF_ERR_CORRUPT, "bad stack frame list");
	if (n > RF_MAX_FRAMES)
		return cursor_fail(c, m, RF_ERR_TOO_LARGE, "stack over the frame limit");
	if (n) {
		frames = fmt_arena_alloc(c->arena, n * sizeof(*frames), sizeof(*frames));
		if (!frames)
			return RF_ERR_NOMEM;
	}
	for (k = 0; k < n; k++)
		if (!mp_read_u64(m, &frames[k]))
			return cursor_fail(c, m, RF_ERR_CORRUPT, "bad stack frame");
	RF_FIELD_PTR(ev, f, const uint64_t *) = frames;
	RF_FIELD_COUNT(ev, f) = n;
	return 0;
}

static int read_counters(struct fmt_chunk_cursor *c, struct mp_cur *m, struct rf_event *ev,
			 const struct fmt_field *f)
{
	struct rf_counter *ctr = NULL;
	uint32_t n, k;
	int err;

	if (!mp_read_map(m, &n))
		return cursor_fail(c, m, RF_ERR_CORRUPT, "bad counter map");
	if (n > RF_MAX_COUNTERS)
		return cursor_fail(c, m, RF_ERR_TOO_LARGE, "counter map over the entry limit");
	if (n) {
		ctr = fmt_arena_alloc(c->arena, n * sizeof(*ctr), sizeof(uint64_t));
		if (!ctr)
			return RF_ERR_NOMEM;
	}
	for (k = 0; k < n; k++) {
		err = read_string(c, m, &ctr[k].name);
		if (err)
			return err;
		if (!ctr[k].name)
			return cursor_fail(c, m, RF_ERR_CORRUPT, "counter without a name");
		if (!mp_read_u64(m, &ctr[k].value))
			return cursor_fail(c, m, RF_ERR_CORRUPT, "bad counter value");
	}
	RF_FIELD_PTR(ev, f, const struct rf_counter *) = ctr;
	RF_FIELD_COUNT(ev, f) = n;
	return 0;
}

/* Strings, stack frames and counter maps: rare, so kept out of the event loop. */
__attribute__((noinline)) int fmt_chunk_read_value(struct fmt_chunk_cursor *c, struct mp_cur *m,
						   struct rf_event *ev, const struct fmt_field *f)
{
	switch (f->kind) {
	case RF_FK_STR:
		return read_string(c, m, &RF_FIELD_PTR(ev, f, const char *));
	case RF_FK_FRAMES:
		return read_frames(c, m, ev, f);
	case RF_FK_COUNTERS:
		return read_counters(c, m, ev, f);
	}
	return cursor_fail(c, m, RF_ERR_CORRUPT, "unknown field kind");
}

static inline __attribute__((always_inline)) int read_field(struct fmt_chunk_cursor *c, struct mp_cur *m,
							    struct rf_event *ev, const struct fmt_field *f)
{
	uint64_t u, *reg;
	int64_t s;

	switch (f->kind) {
	case RF_FK_UINT:
		if (!mp_read_u64(m, &u) || !fmt_field_set_u(ev, f, u))
			return cursor_fail(c, m, RF_ERR_CORRUPT, f->name);
		return 0;
	case RF_FK_INT:
		if (!mp_read_i64(m, &s) || !fmt_field_set_i(ev, f, s))
			return cursor_fail(c, m, RF_ERR_CORRUPT, f->name);
		return 0;
	case RF_FK_DELTA_INDEX:
	case RF_FK_DELTA_ADDR:
	case RF_FK_DELTA_KEY:
	case RF_FK_DELTA_PFN:
		reg = fmt_delta_reg(&c->ds, f->kind, ev);
		if (!reg) {	/* written plain by this chunk's encoding */
			if (!mp_read_u64(m, &u) || !fmt_field_set_u(ev, f, u))
				return cursor_fail(c, m, RF_ERR_CORRUPT, f->name);
			return 0;
		}
		if (!mp_read_i64(m, &s))
			return cursor_fail(c, m, RF_ERR_CORRUPT, f->name);
		*reg += (uint64_t)s;
		fmt_field_set_u(ev, f, *reg);
		return 0;
	}
	return fmt_chunk_read_value(c, m, ev, f);
}

/*
 * The reference types that make up almost every trace, decoded without the
 * schema walk (which costs a branch per field kind and size).  This must
 * read exactly the fields schema.c lists for these types, in its order;
 * tests/format/test-roundtrip checks every type against the writer.  On
 * anything unusual (a value that needs a check the generic path makes, a
 * bad byte) it returns false having changed nothing, and the generic path
 * decodes the event, or says what is wrong with it.
 */
static inline __attribute__((always_inline)) bool decode_hot(struct mp_cur *mc, struct fmt_delta_state *ds,
							     struct rf_event *ev, unsigned int type,
							     bool with_stack)
{
	struct mp_cur m = *mc;
	uint64_t a, b, e, f, g, stack = 0, *reg;
	int64_t d;

/* the optional last field (since 2.6), read before anything is committed */
#define HOT_STACK() \
	if (with_stack && (!mp_read_u64(&m, &stack) || stack > UINT32_MAX)) \
		return false

	switch (type) {
	case RF_EV_FILE_READ:
	case RF_EV_FILE_WRITE:		/* dev ino index(delta) nr */
		if (!mp_read_u64(&m, &a) || a > UINT32_MAX || !mp_read_u64(&m, &b) ||
		    !mp_read_i64(&m, &d) || !mp_read_u64(&m, &e))
			return false;
		HOT_STACK();
		memset(&ev->u, 0, sizeof(ev->u));
		ev->u.file.dev = (uint32_t)a;
		ev->u.file.ino = b;
		ds->index += (uint64_t)d;
		ev->u.file.index = ds->index;
		ev->u.file.nr = e;
		break;
	case RF_EV_FILE_FAULT:		/* dev ino index(delta) order flags mm */
		if (!mp_read_u64(&m, &a) || a > UINT32_MAX || !mp_read_u64(&m, &b) ||
		    !mp_read_i64(&m, &d) || !mp_read_u64(&m, &e) || e > UINT8_MAX ||
		    !mp_read_u64(&m, &f) || f > UINT8_MAX || !mp_read_u64(&m, &g))
			return false;
		HOT_STACK();
		memset(&ev->u, 0, sizeof(ev->u));
		ev->u.file.dev = (uint32_t)a;
		ev->u.file.ino = b;
		ds->index += (uint64_t)d;
		ev->u.file.index = ds->index;
		ev->u.file.order = (uint8_t)e;
		ev->u.file.flags = (uint8_t)f;
		ev->u.file.mm = g;
		break;
	case RF_EV_ANON_FAULT:		/* mm addr(delta, register of mm's slot) order flags */
		if (!mp_read_u64(&m, &a) || !mp_read_i64(&m, &d) || !mp_read_u64(&m, &e) ||
		    e > UINT8_MAX || !mp_read_u64(&m, &f) || f > UINT8_MAX)
			return false;
		HOT_STACK();
		memset(&ev->u, 0, sizeof(ev->u));
		ev->u.anon.mm = a;
		reg = &ds->addr[fmt_addr_slot(ds, ev)];
		*reg += (uint64_t)d;
		ev->u.anon.addr = *reg;
		ev->u.anon.order = (uint8_t)e;
		ev->u.anon.flags = (uint8_t)f;
		break;
	case RF_EV_ACCESS:		/* key(delta) order flags */
		if (with_stack || !mp_read_i64(&m, &d) || !mp_read_u64(&m, &e) || e > UINT8_MAX ||
		    !mp_read_u64(&m, &f) || f > UINT8_MAX)
			return false;
		memset(&ev->u, 0, sizeof(ev->u));
		ds->key += (uint64_t)d;
		ev->u.access.key = ds->key;
		ev->u.access.order = (uint8_t)e;
		ev->u.access.flags = (uint8_t)f;
		break;
	default:
		return false;
	}
#undef HOT_STACK
	ev->stack = (uint32_t)stack;
	*mc = m;
	return true;
}

int fmt_chunk_cursor_next(struct fmt_chunk_cursor *c, struct rf_event *ev)
{
	struct mp_cur m = { c->p, c->end };
	const struct fmt_schema *sch;
	uint64_t type, cpu;
	int64_t dt, pid;
	uint32_t n, i;
	int err;

	if (c->ds.enc >= RF_CHUNK_ENC_3)	/* columns decode whole: fmt_columns_decode() */
		return fmt_fail(c->errmsg, c->errlen, RF_ERR_STATE, "a chunk of columns read event by event");
	for (;;) {
		if (m.p == m.end) {
			if (c->nr_declared != UINT64_MAX && c->nr_declared != c->nr_read + c->unknown_skipped)
				return cursor_fail(c, &m, RF_ERR_CORRUPT,
						   "chunk ends before its declared event count");
			return 0;
		}
		if (!mp_read_array(&m, &n) || n < RF_EVENT_COMMON_FIELDS)
			return cursor_fail(c, &m, RF_ERR_CORRUPT, "event is not an array of 4+ values");
		if (!mp_read_u64(&m, &type) || !mp_read_i64(&m, &dt) || !mp_read_u64(&m, &cpu) ||
		    !mp_read_i64(&m, &pid) || cpu > UINT32_MAX || pid < INT32_MIN || pid > INT32_MAX)
			return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad event prefix");
		c->ds.time += (uint64_t)dt * c->ds.tu;
		n -= RF_EVENT_COMMON_FIELDS;
		sch = fmt_schema_v2_of((unsigned int)type);
		if (sch)
			break;
		/* A type from a newer minor version: skip it whole. */
		while (n--)
			if (!mp_skip(&m))
				return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad value in an unknown event");
		c->unknown_skipped++;
	}
	ev->time = c->ds.time;
	ev->cpu = (uint32_t)cpu;
	ev->pid = (int32_t)pid;
	ev->type = (uint16_t)type;
	if ((n == sch->nr_fields || (sch->opt_last && n == sch->nr_fields - 1)) &&
	    decode_hot(&m, &c->ds, ev, (unsigned int)type, sch->opt_last && n == sch->nr_fields)) {
		c->p = m.p;
		c->nr_read++;
		return 1;
	}
	if (n < sch->nr_required)
		return cursor_fail(c, &m, RF_ERR_CORRUPT, "event has fewer fields than its type needs");
	/* fields appended by a later minor version than the trace's read as 0 */
	memset(&ev->u, 0, sizeof(ev->u));
	ev->stack = 0;
	for (i = 0; i < sch->nr_fields && i < n; i++) {
		err = read_field(c, &m, ev, &sch->fields[i]);
		if (err)
			return err;
	}
	/* Fields appended by a newer minor version. */
	for (n -= i; n; n--)
		if (!mp_skip(&m))
			return cursor_fail(c, &m, RF_ERR_CORRUPT, "bad trailing field");
	c->p = m.p;
	c->nr_read++;
	return 1;
}

/* ------------------------------------------------------------ batches */

struct batch_priv {
	struct fmt_arena arena;
	size_t cap;
};

void rf_event_batch_init(struct rf_event_batch *b)
{
	memset(b, 0, sizeof(*b));
}

void rf_event_batch_release(struct rf_event_batch *b)
{
	struct batch_priv *bp = b->priv_;

	if (bp) {
		fmt_arena_free(&bp->arena);
		free(bp);
	}
	free(b->events);
	memset(b, 0, sizeof(*b));
}

struct rf_chunk_decoder {
	ZSTD_DCtx *dctx;
	uint8_t *buf;
	size_t cap;
	char errmsg[256];
};

int rf_chunk_decoder_new(struct rf_chunk_decoder **out)
{
	struct rf_chunk_decoder *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return RF_ERR_NOMEM;
	d->dctx = ZSTD_createDCtx();
	if (!d->dctx) {
		free(d);
		return RF_ERR_NOMEM;
	}
	*out = d;
	return 0;
}

void rf_chunk_decoder_free(struct rf_chunk_decoder *d)
{
	if (!d)
		return;
	ZSTD_freeDCtx(d->dctx);
	free(d->buf);
	free(d);
}

const char *rf_chunk_decoder_errmsg(const struct rf_chunk_decoder *d)
{
	return d->errmsg;
}

static int batch_reserve(struct rf_event_batch *b, struct batch_priv *bp, size_t want)
{
	return RF_GROW(b->events, bp->cap, want);
}

static int decode(struct rf_chunk_decoder *d, const void *frame, size_t size, uint64_t offset,
		  struct rf_event_batch *b);

int rf_chunk_decode(struct rf_chunk_decoder *d, const void *frame, size_t size, uint64_t offset,
		    struct rf_event_batch *b)
{
	int r = decode(d, frame, size, offset, b);

	/* the trace is not to blame: say what ran out, not nothing (callers print the chunk) */
	if (r == RF_ERR_NOMEM)
		snprintf(d->errmsg, sizeof(d->errmsg), "out of memory decoding it (a chunk takes up "
			 "to %u MiB decompressed, and its events): not damage in the trace",
			 RF_MAX_CHUNK_BYTES >> 20);
	return r;
}

static int decode(struct rf_chunk_decoder *d, const void *frame, size_t size, uint64_t offset,
		  struct rf_event_batch *b)
{
	struct fmt_chunk_cursor cur;
	struct batch_priv *bp = b->priv_;
	size_t len;
	int r;

	d->errmsg[0] = '\0';
	if (!bp) {
		bp = calloc(1, sizeof(*bp));
		if (!bp)
			return RF_ERR_NOMEM;
		fmt_arena_init(&bp->arena);
		b->priv_ = bp;
	}
	fmt_arena_reset(&bp->arena);
	b->nr = 0;
	b->offset = offset;
	b->unknown_skipped = 0;
	r = fmt_decompress_frame(d->dctx, frame, size, &d->buf, &d->cap, &len, d->errmsg,
				 sizeof(d->errmsg));
	if (r)
		return r;
	r = fmt_chunk_cursor_start(&cur, d->buf, len, &bp->arena, d->errmsg, sizeof(d->errmsg));
	if (r)
		return r;
	b->seq = cur.seq;
	if (cur.ds.enc >= RF_CHUNK_ENC_3) {
		r = fmt_columns_decode(&cur, &b->events, &bp->cap, &b->nr, &b->unknown_skipped);
		return r;
	}
	/* Trust the declared count only as far as the bytes could hold it (5+ bytes an event). */
	if (cur.nr_declared != UINT64_MAX && cur.nr_declared <= len / 5) {
		r = batch_reserve(b, bp, (size_t)cur.nr_declared);
		if (r)
			return r;
	}
	for (;;) {
		if (b->nr == bp->cap) {
			r = batch_reserve(b, bp, b->nr + 1);
			if (r)
				return r;
		}
		r = fmt_chunk_cursor_next(&cur, &b->events[b->nr]);
		if (r <= 0)
			break;
		b->nr++;
	}
	b->unknown_skipped = cur.unknown_skipped;
	return r;
}
