/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bad input (issue 2): a truncated, bit-flipped or hostile trace gives a
 * clear error naming the chunk and the offset, every complete chunk before
 * the damage stays readable, nothing from a damaged chunk is returned as
 * good, and RF_READ_SKIP_DAMAGED goes on with the next chunk.  No crash, no
 * hang, no allocation sized by what the file claims.
 *
 * Hostile frames are crafted here with libzstd and msgpack-c, not with the
 * library's writer, so they can say what the writer never would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <msgpack.h>
#include <zstd.h>

#include <refault/trace.h>

#include "tests/format/bytes.h"
#include "tests/format/sample.h"
#include "lib/compiler.h"
#include "tests/lib/tap.h"

#define NR_EVENTS	2000u
#define PER_CHUNK	200u
#define NR_CHUNKS	(NR_EVENTS / PER_CHUNK)
#define NR_FLIPS	300
#define FOOTER_SIZE	32u

static char path[64];

static void save(const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

static struct buf load(void)
{
	struct buf b = { 0 };
	uint8_t tmp[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		abort();
	while ((n = fread(tmp, 1, sizeof(tmp), f)))
		buf_put(&b, tmp, n);
	fclose(f);
	return b;
}

/* A zstd frame as the writer makes them (content size, checksum), or without the size. */
static void put_zstd(struct buf *b, const void *p, size_t n, bool declare_size)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(n), r;
	void *out = malloc(cap);

	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, declare_size);
	if (declare_size) {
		r = ZSTD_compress2(cc, out, cap, p, n);
	} else {
		ZSTD_inBuffer in = { p, n, 0 };
		ZSTD_outBuffer o = { out, cap, 0 };

		do
			r = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_end);
		while (r && !ZSTD_isError(r));
		r = ZSTD_isError(r) ? r : o.pos;
	}
	if (ZSTD_isError(r))
		abort();
	buf_put(b, out, r);
	free(out);
	ZSTD_freeCCtx(cc);
}

/* Index frame + footer for @payload placed at the end of @b. */
static void put_index(struct buf *b, const void *payload, size_t n)
{
	uint64_t ioff = b->len;

	buf_le32(b, 0x184D2A5Eu);
	buf_le32(b, (uint32_t)n);
	buf_put(b, payload, n);
	buf_le32(b, 0x184D2A5Fu);
	buf_le32(b, 24);
	buf_put(b, "RFTRIDX1", 8);
	buf_le64(b, ioff);
	buf_le32(b, (uint32_t)n + 8);
	buf_le32(b, crc32c(payload, n));
}

/* ------------------------------------------------------ the reference trace */

struct layout {
	struct buf file;
	uint64_t header_end;
	uint64_t chunk_off[NR_CHUNKS + 1];	/* [NR_CHUNKS] = the index frame */
	uint64_t index_off, footer_off;
};

static void write_reference(struct layout *lo, bool with_index)
{
	struct rf_writer_options opts = { .chunk_events = PER_CHUNK, .no_index = !with_index };
	const struct rf_chunk_info *chunks;
	struct rf_trace_writer *w;
	struct rf_trace_reader *r;
	struct rf_trace_header h;
	struct rf_event ev;
	unsigned int i;

	rf_trace_header_init(&h, "test-damage");
	if (rf_trace_writer_open(&w, path, &h, &opts))
		abort();
	for (i = 0; i < NR_EVENTS; i++) {
		sample_event(i, &ev);
		if (rf_trace_writer_append(w, &ev))
			abort();
	}
	if (rf_trace_writer_close(w))
		abort();
	lo->file = load();
	if (rf_trace_reader_open(&r, path, RF_READ_NO_INDEX) ||
	    rf_trace_reader_chunks(r, &chunks) != NR_CHUNKS)
		abort();
	for (i = 0; i < NR_CHUNKS; i++)
		lo->chunk_off[i] = chunks[i].offset;
	lo->header_end = chunks[0].offset;
	lo->index_off = chunks[NR_CHUNKS - 1].offset + chunks[NR_CHUNKS - 1].size;
	lo->chunk_off[NR_CHUNKS] = lo->index_off;
	lo->footer_off = with_index ? lo->file.len - FOOTER_SIZE : lo->file.len;
	rf_trace_reader_close(r);
}

/* ------------------------------------------------------------ reading */

struct outcome {
	int open_err;
	int end;		/* 0: clean end, else the first error */
	char errmsg[768];
	uint64_t good;		/* events returned that are the sample events they claim to be */
	uint64_t bad;		/* events returned that are not, or out of order */
	uint64_t errors;
	bool got[NR_EVENTS];
	struct rf_reader_stats st;
};

/* Read @path to the end; with RF_READ_SKIP_DAMAGED go on past errors (bounded: no hang). */
static void read_file(unsigned int flags, struct outcome *o)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	uint64_t num, last = 0;
	bool first = true;
	int rc, guard = 10000;

	memset(o, 0, sizeof(*o));
	o->open_err = rf_trace_reader_open(&r, path, flags);
	if (o->open_err) {
		snprintf(o->errmsg, sizeof(o->errmsg), "%s", r ? rf_trace_reader_errmsg(r) : "");
		rf_trace_reader_close(r);
		return;
	}
	while (guard--) {
		rc = rf_trace_reader_next(r, &ev);
		if (rc == 0)
			break;
		if (rc < 0) {
			if (!o->end) {
				o->end = rc;
				snprintf(o->errmsg, sizeof(o->errmsg), "%s", rf_trace_reader_errmsg(r));
			}
			o->errors++;
			if (!(flags & RF_READ_SKIP_DAMAGED))
				break;
			continue;
		}
		guard = 10000;
		num = sample_number(&ev);
		if (num >= NR_EVENTS || !sample_check(num, &ev) || (!first && num <= last)) {
			o->bad++;
			continue;
		}
		first = false;
		last = num;
		o->got[num] = true;
		o->good++;
	}
	if (guard < 0)
		o->bad++;	/* a hang, as far as this test can tell */
	rf_trace_reader_stats(r, &o->st);
	rf_trace_reader_close(r);
}

/* Were exactly events [0, n) returned? */
static bool got_prefix(const struct outcome *o, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < NR_EVENTS; i++)
		if (o->got[i] != (i < n))
			return false;
	return o->good == n && !o->bad;
}

/* Were all events returned except those of chunk @k (k == NR_CHUNKS: none missing)? */
static bool got_all_but(const struct outcome *o, unsigned int k)
{
	uint64_t i;

	for (i = 0; i < NR_EVENTS; i++)
		if (o->got[i] != (i / PER_CHUNK != k))
			return false;
	return !o->bad;
}

static bool names_chunk(const char *msg, unsigned int k, uint64_t off)
{
	char want[96];

	snprintf(want, sizeof(want), "chunk %u at offset %llu", k, (unsigned long long)off);
	return strstr(msg, want) != NULL;
}

/* ------------------------------------------------------------ truncation */

static void test_truncation(const struct layout *lo)
{
	struct outcome *o = malloc(sizeof(*o));
	unsigned int k, j, bad_boundary = 0, bad_inside = 0, bad_skip = 0, bad_tail = 0, bad_head = 0;
	uint64_t cut, size;

	/* At every chunk boundary: the chunks before it, and a clean end. */
	for (k = 0; k <= NR_CHUNKS; k++) {
		save(lo->file.p, lo->chunk_off[k]);
		read_file(0, o);
		if (o->open_err || o->end || !got_prefix(o, (uint64_t)k * PER_CHUNK)) {
			if (bad_boundary++ < 3)
				diag("cut at the start of chunk %u: open %d, end %d (%s), %llu good, %llu bad",
				     k, o->open_err, o->end, o->errmsg, (unsigned long long)o->good,
				     (unsigned long long)o->bad);
		}
	}
	ok(!bad_boundary, "cut at each of the %u chunk boundaries: exactly the chunks before it, clean end",
	   NR_CHUNKS + 1);

	/* Inside each chunk: the chunks before it, then an error naming the chunk and its offset. */
	for (k = 0; k < NR_CHUNKS; k++) {
		size = lo->chunk_off[k + 1] - lo->chunk_off[k];
		for (j = 0; j < 6; j++) {
			static const unsigned int at[6] = { 1, 4, 7, 2, 3, 1000 };

			cut = j < 3 ? at[j] : j == 5 ? size - 1 : size * at[j] / 4;
			if (cut >= size)
				continue;
			save(lo->file.p, lo->chunk_off[k] + cut);
			read_file(0, o);
			if (o->open_err || o->end != RF_ERR_TRUNCATED || !got_prefix(o, (uint64_t)k * PER_CHUNK) ||
			    !names_chunk(o->errmsg, k, lo->chunk_off[k])) {
				if (bad_inside++ < 3)
					diag("cut %llu bytes into chunk %u: end %d \"%s\", %llu good",
					     (unsigned long long)cut, k, o->end, o->errmsg,
					     (unsigned long long)o->good);
			}
			read_file(RF_READ_SKIP_DAMAGED, o);
			if (o->open_err || !got_prefix(o, (uint64_t)k * PER_CHUNK) || o->errors != 1)
				bad_skip++;
		}
	}
	ok(!bad_inside, "cut inside each chunk: the chunks before it, then RF_ERR_TRUNCATED naming chunk and offset");
	ok(!bad_skip, "the same with RF_READ_SKIP_DAMAGED: same events, one error, then the end");
	save(lo->file.p, lo->chunk_off[3] + 10);
	read_file(0, o);
	diag("e.g. \"%s\"", o->errmsg);

	/* Inside the index and the footer: every event, no crash. */
	for (cut = lo->index_off + 1; cut < lo->file.len; cut += cut < lo->index_off + 16 ? 1 : 7) {
		save(lo->file.p, cut);
		read_file(0, o);
		if (o->open_err || !got_prefix(o, NR_EVENTS)) {
			if (bad_tail++ < 3)
				diag("cut at %llu (index at %llu, footer at %llu): %s",
				     (unsigned long long)cut, (unsigned long long)lo->index_off,
				     (unsigned long long)lo->footer_off, o->errmsg);
		}
	}
	ok(!bad_tail, "cut anywhere inside the index or the footer: every event is still returned");
	save(lo->file.p, lo->footer_off + 5);
	read_file(0, o);
	diag("cut inside the footer ends with: %s", o->end ? o->errmsg : "a clean end");

	/* Inside the header: a clear error at open. */
	for (cut = 0; cut < lo->header_end; cut += 3) {
		save(lo->file.p, cut);
		read_file(0, o);
		if (!o->open_err || !strlen(o->errmsg))
			bad_head++;
	}
	ok(!bad_head, "cut inside the header: open fails with a message");
	free(o);
}

/* ------------------------------------------------------------ bit flips */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int region_of(const struct layout *lo, uint64_t off)
{
	int k;

	if (off < lo->header_end)
		return -1;
	for (k = 0; k < (int)NR_CHUNKS; k++)
		if (off < lo->chunk_off[k + 1])
			return k;
	return NR_CHUNKS;	/* index or footer */
}

static void test_bit_flips(const struct layout *lo)
{
	struct outcome *o = malloc(sizeof(*o));
	uint8_t *img = malloc(lo->file.len);
	uint64_t seed = 0x9e3779b97f4a7c15ull, off;
	unsigned int t, wrong = 0, lost_before = 0, bad_msg = 0, bad_skip = 0, bad_scan = 0;
	unsigned int bad_stats = 0, bad_head = 0, bad_tail = 0, in_chunks = 0, detected = 0;
	int k;

	for (t = 0; t < NR_FLIPS; t++) {
		off = xorshift(&seed) % lo->file.len;
		memcpy(img, lo->file.p, lo->file.len);
		img[off] ^= (uint8_t)(1u << (xorshift(&seed) % 8));
		save(img, lo->file.len);
		k = region_of(lo, off);

		read_file(0, o);
		wrong += o->bad != 0;
		if (k < 0) {
			/* the header: refused at open, or (a harmless bit) read whole */
			bad_head += !(o->open_err ? strlen(o->errmsg) > 0 : got_prefix(o, NR_EVENTS));
			continue;
		}
		if (k == NR_CHUNKS) {
			/* the index or footer: the reader falls back to walking the frames */
			read_file(RF_READ_SKIP_DAMAGED, o);
			bad_tail += o->open_err || !got_all_but(o, NR_CHUNKS);
			continue;
		}
		in_chunks++;
		if (o->open_err || !got_prefix(o, o->good) || o->good < (uint64_t)k * PER_CHUNK)
			lost_before++;
		if (o->end) {
			detected++;
			if (!names_chunk(o->errmsg, (unsigned int)k, lo->chunk_off[k]))
				if (bad_msg++ < 3)
					diag("flip at %llu in chunk %d: \"%s\"", (unsigned long long)off, k,
					     o->errmsg);
		}

		/* with the index: exactly the damaged chunk is lost */
		read_file(RF_READ_SKIP_DAMAGED, o);
		wrong += o->bad != 0;
		if (o->open_err || !got_all_but(o, o->st.chunks_damaged ? (unsigned int)k : NR_CHUNKS)) {
			if (bad_skip++ < 3)
				diag("flip at %llu in chunk %d, skipping: %llu good, %llu bad, \"%s\"",
				     (unsigned long long)off, k, (unsigned long long)o->good,
				     (unsigned long long)o->bad, o->errmsg);
		}
		if (o->st.chunks_damaged > 1 ||
		    (o->st.chunks_damaged && o->st.events_skipped != PER_CHUNK))
			bad_stats++;

		/* without it: the reader scans for the next frame */
		read_file(RF_READ_SKIP_DAMAGED | RF_READ_NO_INDEX, o);
		wrong += o->bad != 0;
		if (o->open_err || !got_all_but(o, o->errors ? (unsigned int)k : NR_CHUNKS)) {
			if (bad_scan++ < 3)
				diag("flip at %llu in chunk %d, scanning: %llu good, %llu errors, \"%s\"",
				     (unsigned long long)off, k, (unsigned long long)o->good,
				     (unsigned long long)o->errors, o->errmsg);
		}
	}
	diag("%d flips: %u in chunks, %u of them detected", NR_FLIPS, in_chunks, detected);
	ok(!wrong, "%d random bit flips: no wrong event is ever returned as good", NR_FLIPS);
	ok(!lost_before, "a flip in chunk k loses none of the chunks before k");
	ok(!bad_msg, "the error names the damaged chunk and its offset");
	ok(!bad_skip, "RF_READ_SKIP_DAMAGED with the index: every other chunk's events are returned");
	ok(!bad_stats, "stats count the damaged chunk and the events skipped with it");
	ok(!bad_scan, "RF_READ_SKIP_DAMAGED without the index: scanning finds every other chunk");
	ok(!bad_head, "a flip in the header: a clear error at open (or a harmless bit)");
	ok(!bad_tail, "a flip in the index or footer: every event is still returned");
	free(img);
	free(o);
}

/* ------------------------------------------------------ hostile frames */

static void pack_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str_with_body(pk, s, strlen(s));
}

/* A header map naming the format with @major.@minor, and a key from the future. */
static void put_header(struct buf *b, unsigned int major, unsigned int minor, unsigned int nesting)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	unsigned int i;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 4);
	pack_str(&pk, "format");
	pack_str(&pk, "refault-trace");
	pack_str(&pk, "version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, major);
	msgpack_pack_uint32(&pk, minor);
	pack_str(&pk, "producer");
	pack_str(&pk, "refault from the future");
	pack_str(&pk, "future_key");
	for (i = 0; i < nesting; i++)
		msgpack_pack_array(&pk, 1);
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, "x");
	msgpack_pack_double(&pk, 1.5);
	put_zstd(b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
}

static void chunk_start(msgpack_sbuffer *sb, msgpack_packer *pk, uint64_t seq, uint64_t n, bool extra_key)
{
	msgpack_sbuffer_init(sb);
	msgpack_packer_init(pk, sb, msgpack_sbuffer_write);
	msgpack_pack_map(pk, extra_key ? 4 : 3);
	pack_str(pk, "chunk");
	msgpack_pack_uint64(pk, seq);
	pack_str(pk, "t");
	msgpack_pack_uint64(pk, 0);
	pack_str(pk, "n");
	msgpack_pack_uint64(pk, n);
	if (extra_key) {
		pack_str(pk, "compression_dict");
		msgpack_pack_map(pk, 1);
		pack_str(pk, "id");
		msgpack_pack_bin_with_body(pk, "\x01\x02", 2);
	}
}

/* [type, dt, cpu, pid] */
static void ev_prefix(msgpack_packer *pk, unsigned int nfields, unsigned int type, int64_t dt)
{
	msgpack_pack_array(pk, 4 + nfields);
	msgpack_pack_uint16(pk, (uint16_t)type);
	msgpack_pack_int64(pk, dt);
	msgpack_pack_uint32(pk, 1);
	msgpack_pack_int32(pk, 42);
}

/*
 * file_read dev ino index(delta) nr, plus @extra trailing fields of a newer
 * minor version: after 2.6's stack (0 here), which must be there for them
 */
static void ev_file_read(msgpack_packer *pk, int64_t dt, int64_t dindex, unsigned int extra)
{
	unsigned int i;

	ev_prefix(pk, 4 + (extra ? 1 + extra : 0), RF_EV_FILE_READ, dt);
	msgpack_pack_uint32(pk, 0x800001);
	msgpack_pack_uint64(pk, 77);
	msgpack_pack_int64(pk, dindex);
	msgpack_pack_uint64(pk, 1);
	if (extra)
		msgpack_pack_uint32(pk, 0);
	for (i = 0; i < extra; i++) {
		if (i % 3 == 0) {
			msgpack_pack_map(pk, 1);
			pack_str(pk, "folio_flags");
			msgpack_pack_array(pk, 2);
			msgpack_pack_true(pk);
			msgpack_pack_nil(pk);
		} else if (i % 3 == 1) {
			pack_str(pk, "a string field from 1.7");
		} else {
			msgpack_pack_int64(pk, -123456789012345ll);
		}
	}
}

/* Read the trace at @path; expect @n file_read events at times 10,20.. and index 100,101.. */
static bool reads_file_reads(unsigned int flags, uint64_t n, uint64_t unknown, char *why, size_t len)
{
	struct rf_trace_reader *r;
	struct rf_reader_stats st;
	struct rf_event ev;
	uint64_t i = 0;
	int rc, errors = 0;

	if (rf_trace_reader_open(&r, path, flags)) {
		snprintf(why, len, "open: %s", r ? rf_trace_reader_errmsg(r) : "?");
		rf_trace_reader_close(r);
		return false;
	}
	while ((rc = rf_trace_reader_next(r, &ev)) != 0) {
		if (rc < 0 && (flags & RF_READ_SKIP_DAMAGED) && ++errors < 100)
			continue;
		if (rc < 0)
			break;
		if (ev.type != RF_EV_FILE_READ || ev.time != 10 * (i + 1) || ev.u.file.index != 100 + i ||
		    ev.u.file.ino != 77 || ev.u.file.nr != 1 || ev.pid != 42) {
			snprintf(why, len, "event %llu wrong", (unsigned long long)i);
			rf_trace_reader_close(r);
			return false;
		}
		i++;
	}
	rf_trace_reader_stats(r, &st);
	snprintf(why, len, "rc %d, %d errors skipped (%s), %llu events, %llu unknown skipped", rc, errors,
		 rf_trace_reader_errmsg(r), (unsigned long long)i, (unsigned long long)st.unknown_skipped);
	rf_trace_reader_close(r);
	return rc == 0 && i == n && st.unknown_skipped == unknown;
}

static void test_newer_minor(void)
{
	struct rf_trace_reader *r;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	struct buf b = { 0 };
	char why[512];
	unsigned int i;
	int ok_minor;

	put_header(&b, 1, 7, 20);
	chunk_start(&sb, &pk, 0, 5, true);
	ev_file_read(&pk, 10, 100, 0);
	/* an event type this version does not know, with nested values */
	ev_prefix(&pk, 3, 120, 5);
	msgpack_pack_array(&pk, 2);
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, "k");
	msgpack_pack_array(&pk, 0);
	msgpack_pack_double(&pk, 2.5);
	msgpack_pack_bin_with_body(&pk, "xyz", 3);
	msgpack_pack_ext_with_body(&pk, "ext!", 4, 7);
	ev_file_read(&pk, 5, 1, 3);	/* trailing fields: map, string, negative int */
	ev_file_read(&pk, 10, 1, 1);
	ev_file_read(&pk, 10, 1, 0);
	put_zstd(&b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
	save(b.p, b.len);

	ok_minor = !rf_trace_reader_open(&r, path, 0);
	ok(ok_minor && rf_trace_reader_header(r)->version_minor == 7,
	   "a header of version 1.7 with unknown keys opens");
	rf_trace_reader_close(r);
	ok(reads_file_reads(0, 4, 1, why, sizeof(why)),
	   "unknown event types and trailing fields of a newer minor version are skipped (%s)", why);

	/* one unknown event nested 100000 deep: skipped without recursion */
	chunk_start(&sb, &pk, 1, 3, false);
	ev_file_read(&pk, 50, 104, 0);
	ev_prefix(&pk, 1, 121, 0);
	for (i = 0; i < 100000; i++)
		msgpack_pack_array(&pk, 1);
	msgpack_pack_nil(&pk);
	ev_file_read(&pk, 10, 1, 0);
	put_zstd(&b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
	save(b.p, b.len);
	ok(reads_file_reads(0, 6, 2, why, sizeof(why)),
	   "an unknown event nested 100000 deep is skipped (%s)", why);
	free(b.p);

	/* nesting in the header, where msgpack-c's recursive unpacker reads it */
	b = (struct buf){ 0 };
	put_header(&b, 1, 7, 100000);
	save(b.p, b.len);
	{
		int err = rf_trace_reader_open(&r, path, 0);

		ok(!err || (err < 0 && r && strlen(rf_trace_reader_errmsg(r))),
		   "a header with a key nested 100000 deep: no crash (%s)",
		   err ? rf_trace_reader_errmsg(r) : "accepted");
		rf_trace_reader_close(r);
	}
	free(b.p);
}

static void test_major_version(void)
{
	struct rf_trace_reader *r;
	struct buf b = { 0 };
	int err;

	put_header(&b, 4, 0, 0);
	save(b.p, b.len);
	err = rf_trace_reader_open(&r, path, 0);
	is_int(err, RF_ERR_VERSION, "an unknown major version is refused with RF_ERR_VERSION");
	ok(r && strstr(rf_trace_reader_errmsg(r), "version 4.0") &&
	   strstr(rf_trace_reader_errmsg(r), "reads 1.x to 3.x"),
	   "the message says which version it is and which this reads: \"%s\"",
	   r ? rf_trace_reader_errmsg(r) : "");
	rf_trace_reader_close(r);
	free(b.p);
}

/* A 2.1 header whose host map has @key = @value (a uint). */
static void put_host_header(struct buf *b, const char *key, uint64_t value)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	pack_str(&pk, "format");
	pack_str(&pk, "refault-trace");
	pack_str(&pk, "version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, 2);
	msgpack_pack_uint32(&pk, 1);
	pack_str(&pk, "host");
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, key);
	msgpack_pack_uint64(&pk, value);
	put_zstd(b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
}

/* Header values at and past the format's limits: the last taken, the next refused by name. */
static void test_header_limits(void)
{
	static const struct {
		const char *key;
		uint64_t good, bad;
	} cases[] = {
		{ "cpus", RF_MAX_CPUS, RF_MAX_CPUS + 1 },
		{ "cpus", 1, 100000000 },	/* replay used to calloc 52 GB for it */
		{ "cpus", 2, UINT32_MAX },	/* ... and to say "only 4294967295 CPUs", exit 2 */
		{ "numa_nodes", RF_MAX_NUMA_NODES, RF_MAX_NUMA_NODES + 1 },
		{ "page_size", RF_MAX_PAGE_SIZE, 3 * 4096 },
	};
	struct rf_trace_reader *r;
	size_t i;
	int err, bad;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct buf b = { 0 };

		put_host_header(&b, cases[i].key, cases[i].good);
		save(b.p, b.len);
		err = rf_trace_reader_open(&r, path, 0);
		rf_trace_reader_close(r);
		free(b.p);
		memset(&b, 0, sizeof(b));
		put_host_header(&b, cases[i].key, cases[i].bad);
		save(b.p, b.len);
		r = NULL;	/* the arguments below are evaluated in no fixed order: open first */
		bad = rf_trace_reader_open(&r, path, 0);
		ok(!err && bad == RF_ERR_CORRUPT && strstr(rf_trace_reader_errmsg(r), cases[i].key),
		   "header host.%s %llu is read, %llu refused, named: \"%s\"", cases[i].key,
		   (unsigned long long)cases[i].good, (unsigned long long)cases[i].bad,
		   r ? rf_trace_reader_errmsg(r) : "");
		rf_trace_reader_close(r);
		free(b.p);
	}
}

/*
 * A chunk map with the 2.x keys: @enc (0: left out, as in 1.x) and @tu (0: left out).
 * The events that follow: lru_add pfn 1000, lru_add pfn 5, then anon faults
 * of mm 17, 33 (same register slot as 17 in encoding 2) and 18, each 4096
 * on from its register, then a pagecache_del of pfn 7; dt 3 each.
 */
static void put_enc_chunk(struct buf *b, unsigned int enc, uint64_t tu)
{
	static const uint64_t mms[] = { 17, 33, 18 };
	msgpack_sbuffer sb;
	msgpack_packer pk;
	unsigned int i;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3 + !!enc + !!tu);
	pack_str(&pk, "chunk");
	msgpack_pack_uint64(&pk, 0);
	pack_str(&pk, "t");
	msgpack_pack_uint64(&pk, 0);
	pack_str(&pk, "n");
	msgpack_pack_uint64(&pk, 6);
	if (enc) {
		pack_str(&pk, "enc");
		msgpack_pack_uint64(&pk, enc);
	}
	if (tu) {
		pack_str(&pk, "tu");
		msgpack_pack_uint64(&pk, tu);
	}
	/* the same values mean absolute pfns in 1.x and differences in 2.x: 1000, 5 or 1000, 1005 */
	for (i = 0; i < 2; i++) {
		ev_prefix(&pk, 4, RF_EV_LRU_ADD, 3);
		msgpack_pack_uint64(&pk, i ? 5 : 1000);
		msgpack_pack_uint64(&pk, 0);
		msgpack_pack_uint64(&pk, 2);
		msgpack_pack_uint64(&pk, 9);
	}
	for (i = 0; i < 3; i++) {
		ev_prefix(&pk, 4, RF_EV_ANON_FAULT, 3);
		msgpack_pack_uint64(&pk, mms[i]);
		msgpack_pack_int64(&pk, 4096);
		msgpack_pack_uint64(&pk, 0);
		msgpack_pack_uint64(&pk, 1);
	}
	ev_prefix(&pk, 5, RF_EV_PAGECACHE_DEL, 3);
	msgpack_pack_uint64(&pk, 8);
	msgpack_pack_uint64(&pk, 12);
	msgpack_pack_int64(&pk, 40);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_uint64(&pk, 7);
	put_zstd(b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
}

/* Read the chunk of put_enc_chunk() from @path: 0 and the decoded values, or the error. */
static int read_enc_chunk(uint64_t *pfn, uint64_t *addr, uint64_t *t_last, char *why, size_t len)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	int rc, n = 0;

	if (rf_trace_reader_open(&r, path, 0)) {
		snprintf(why, len, "open: %s", r ? rf_trace_reader_errmsg(r) : "?");
		rf_trace_reader_close(r);
		return -1;
	}
	while ((rc = rf_trace_reader_next(r, &ev)) == 1) {
		if (ev.type == RF_EV_LRU_ADD)
			pfn[n] = ev.u.lru.pfn;
		else if (ev.type == RF_EV_ANON_FAULT)
			addr[n - 2] = ev.u.anon.addr;
		else
			pfn[2] = ev.u.file.pfn;
		*t_last = ev.time;
		n++;
	}
	snprintf(why, len, "%s", rf_trace_reader_errmsg(r));
	rf_trace_reader_close(r);
	return rc;
}

/* The decoder follows each chunk's own encoding: a 1.x chunk by 1.x rules, a 2.x one by 2.x. */
static void test_chunk_encodings(void)
{
	uint64_t pfn[3] = { 0 }, addr[3] = { 0 }, t = 0;
	struct buf b = { 0 };
	char why[256];
	int rc;

	put_header(&b, 1, 1, 0);
	put_enc_chunk(&b, 0, 0);
	save(b.p, b.len);
	rc = read_enc_chunk(pfn, addr, &t, why, sizeof(why));
	ok(!rc && pfn[0] == 1000 && pfn[1] == 5 && pfn[2] == 7 && t == 18,
	   "a 1.x chunk: pfns are plain, dt in ns (pfn %llu %llu %llu, t %llu; %s)",
	   (unsigned long long)pfn[0], (unsigned long long)pfn[1], (unsigned long long)pfn[2],
	   (unsigned long long)t, why);
	ok(!rc && addr[0] == 4096 && addr[1] == 8192 && addr[2] == 12288,
	   "a 1.x chunk: one address register for every mm");

	b.len = 0;
	put_header(&b, 2, 0, 0);
	put_enc_chunk(&b, 2, 1000);
	save(b.p, b.len);
	rc = read_enc_chunk(pfn, addr, &t, why, sizeof(why));
	ok(!rc && pfn[0] == 1000 && pfn[1] == 1005 && pfn[2] == 1012 && t == 18000,
	   "a 2.x chunk: pfns are differences, dt counts time units (pfn %llu %llu %llu, t %llu; %s)",
	   (unsigned long long)pfn[0], (unsigned long long)pfn[1], (unsigned long long)pfn[2],
	   (unsigned long long)t, why);
	ok(!rc && addr[0] == 4096 && addr[1] == 8192 && addr[2] == 4096,
	   "a 2.x chunk: one address register per mm slot (mm %% 16)");

	b.len = 0;
	put_header(&b, 2, 0, 0);
	put_enc_chunk(&b, 4, 1000);
	save(b.p, b.len);
	rc = read_enc_chunk(pfn, addr, &t, why, sizeof(why));
	ok(rc == RF_ERR_VERSION && strstr(why, "chunk 0") && strstr(why, "encoding newer"),
	   "a chunk of an encoding from the future is refused: \"%s\"", why);

	b.len = 0;
	put_header(&b, 2, 0, 0);
	put_enc_chunk(&b, 2, RF_MAX_TIME_RESOLUTION + 1);
	save(b.p, b.len);
	rc = read_enc_chunk(pfn, addr, &t, why, sizeof(why));
	ok(rc == RF_ERR_CORRUPT && strstr(why, "time unit"), "a chunk time unit over a second is refused: \"%s\"",
	   why);
	free(b.p);
}

/* ------------------------------------------------ chunks of columns (encoding 3) */

/* [mode, width, base, step, data]: @planes NULL packs @cval as the one code of every value. */
static void col(msgpack_packer *pk, unsigned int mode, unsigned int width, uint64_t base,
		uint64_t step, uint64_t cval, const void *planes, size_t len)
{
	msgpack_pack_array(pk, 5);
	msgpack_pack_uint64(pk, mode);
	msgpack_pack_uint64(pk, width);
	msgpack_pack_uint64(pk, base);
	msgpack_pack_uint64(pk, step);
	if (planes) {
		msgpack_pack_bin(pk, len);
		msgpack_pack_bin_body(pk, planes, len);
	} else {
		msgpack_pack_uint64(pk, cval);
	}
}

/* One value for every event: plain, width 0. */
static void col_const(msgpack_packer *pk, uint64_t v)
{
	col(pk, 0, 0, v, 0, 0, NULL, 0);
}

/* What to make wrong in the chunk of put_col_chunk(). */
enum col_bad {
	CB_NONE, CB_WIDTH9, CB_SHORT_BIN, CB_NO_N, CB_N_HUGE, CB_NO_TABLE, CB_ORDER_300, CB_CPU_BIG,
	CB_VALUES_FOR_INT, CB_SLOT_FIRST, CB_DUP_COLUMN, CB_FUTURE, CB_NO_STACK, CB_NO_INDEX,
	CB_TRAILING, CB_BAD_STRING, CB_PID_BIG, CB_PLAIN_STEP,
};

/*
 * A chunk of 5 events, as the document says to lay it out: file_read of
 * dev 8, ino 12, index 100, 101, 103 (deltas from base 99 of step 1 and
 * codes zigzag(0, 0, 1) in a 1-byte plane), nr 1, times 1, 2, 3 units of
 * 1000 ns (delta, width 0, step 1 from base 0), cpu 1, pid 42 (plain, width
 * 0, base 40 and code 2); then an anon_fault of mm 33 at 8192 (slot delta
 * from base 4096, code 8192 in 2 planes) with order 2; a marker "m"; and,
 * for CB_FUTURE, a sixth event of type 120 with a table this reader skips.
 */
static void put_col_chunk(struct buf *b, enum col_bad bad)
{
	static const uint8_t types[] = { 1, 1, 1, 4, 97, 120 };
	static const uint8_t idx_codes[] = { 0, 0, 2 };	/* zigzag of 0, 0, 1 */
	uint8_t addr_planes[2] = { (4096 * 2) & 0xff, (4096 * 2) >> 8 };
	uint64_t n = bad == CB_FUTURE ? 6 : 5;
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, bad == CB_NO_N ? 4 : 5);
	pack_str(&pk, "chunk");
	msgpack_pack_uint64(&pk, 0);
	pack_str(&pk, "t");
	msgpack_pack_uint64(&pk, 0);
	if (bad != CB_NO_N) {
		pack_str(&pk, "n");
		msgpack_pack_uint64(&pk, bad == CB_N_HUGE ? RF_MAX_CHUNK_EVENTS + 1ull : n);
	}
	pack_str(&pk, "enc");
	msgpack_pack_uint64(&pk, 3);
	pack_str(&pk, "tu");
	msgpack_pack_uint64(&pk, 1000);

	msgpack_pack_map(&pk, 7 + (bad == CB_FUTURE) - (bad == CB_NO_TABLE) + (bad == CB_DUP_COLUMN));
	pack_str(&pk, "type");
	col(&pk, 0, bad == CB_WIDTH9 ? 9 : 1, 0, 0, 0, types, bad == CB_SHORT_BIN ? n - 1 : n);
	pack_str(&pk, "time");
	col(&pk, 1, 0, 0, 1, 0, NULL, 0);
	pack_str(&pk, "cpu");
	col(&pk, bad == CB_SLOT_FIRST ? 2 : 0, 0, 0, bad == CB_PLAIN_STEP ? 5 : 0,
	    bad == CB_CPU_BIG ? 1ull << 33 : 1, NULL, 0);
	pack_str(&pk, "pid");
	col(&pk, 0, 0, 40, 0, bad == CB_PID_BIG ? 1ull << 32 : 2, NULL, 0);
	if (bad == CB_DUP_COLUMN) {
		pack_str(&pk, "pid");
		col_const(&pk, 42);
	}
	if (bad != CB_NO_TABLE) {
		pack_str(&pk, "file_read");
		msgpack_pack_map(&pk, 5 - (bad == CB_NO_STACK) - (bad == CB_NO_INDEX));
		pack_str(&pk, "dev");
		col_const(&pk, 8);
		pack_str(&pk, "ino");
		col_const(&pk, 12);
		if (bad != CB_NO_INDEX) {
			pack_str(&pk, "index");
			col(&pk, 1, 1, 99, 1, 0, idx_codes, 3);
		}
		pack_str(&pk, "nr");
		col(&pk, bad == CB_VALUES_FOR_INT ? 3 : 0, 0, 1, 0, 0, NULL, 0);
		if (bad != CB_NO_STACK) {
			pack_str(&pk, "stack");
			col_const(&pk, 0);
		}
	}
	pack_str(&pk, "anon_fault");
	msgpack_pack_map(&pk, 5 + (bad == CB_FUTURE));
	pack_str(&pk, "mm");
	col_const(&pk, 33);
	pack_str(&pk, "addr");
	col(&pk, 2, 2, 4096, 0, 0, addr_planes, 2);
	pack_str(&pk, "order");
	col_const(&pk, bad == CB_ORDER_300 ? 300 : 2);
	pack_str(&pk, "flags");
	col_const(&pk, 0);
	pack_str(&pk, "stack");
	col_const(&pk, 0);
	if (bad == CB_FUTURE) {		/* a field a newer minor version appended */
		pack_str(&pk, "future_field");
		col_const(&pk, 7);
	}
	pack_str(&pk, "marker");
	msgpack_pack_map(&pk, 1);
	pack_str(&pk, "text");
	msgpack_pack_array(&pk, 5);
	msgpack_pack_uint64(&pk, 3);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_array(&pk, 1);
	if (bad == CB_BAD_STRING)
		msgpack_pack_uint64(&pk, 5);
	else
		pack_str(&pk, "m");
	if (bad == CB_FUTURE) {		/* a type of a newer minor version */
		pack_str(&pk, "type_from_the_future");
		msgpack_pack_map(&pk, 1);
		pack_str(&pk, "x");
		col_const(&pk, 1);
	}
	if (bad == CB_TRAILING)
		msgpack_pack_uint64(&pk, 1);
	put_zstd(b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
}

static char marker_text[64];

/* Read @path whole: the events into @ev (at most @max), the count or the error and why. */
static int read_all(struct rf_event *ev, int max, uint64_t *unknown, char *why, size_t len)
{
	struct rf_trace_reader *r;
	struct rf_reader_stats st;
	struct rf_event e;
	int rc, n = 0;

	if (rf_trace_reader_open(&r, path, 0)) {
		snprintf(why, len, "open: %s", r ? rf_trace_reader_errmsg(r) : "?");
		rf_trace_reader_close(r);
		return -1000;
	}
	while ((rc = rf_trace_reader_next(r, &e)) == 1) {
		/* a marker's text lives with the reader: keep a copy */
		if (e.type == RF_EV_MARKER && e.u.marker.text) {
			snprintf(marker_text, sizeof(marker_text), "%s", e.u.marker.text);
			e.u.marker.text = marker_text;
		}
		if (n < max)
			ev[n++] = e;
	}
	snprintf(why, len, "%s", rf_trace_reader_errmsg(r));
	rf_trace_reader_stats(r, &st);
	*unknown = st.unknown_skipped;
	rf_trace_reader_close(r);
	return rc < 0 ? rc : n;
}

static int try_col_chunk(enum col_bad bad, struct rf_event *ev, uint64_t *unknown, char *why,
			 size_t len)
{
	struct buf b = { 0 };
	int rc;

	put_header(&b, 3, 0, 0);
	put_col_chunk(&b, bad);
	save(b.p, b.len);
	free(b.p);
	rc = read_all(ev, 8, unknown, why, len);
	/* rf_chunk_decode() must agree: the same count, or an error */
	{
		struct rf_trace_reader *r;
		struct rf_chunk_decoder *d;
		struct rf_event_batch bt;
		struct rf_frame f;
		int dr = -1;

		if (!rf_trace_reader_open(&r, path, 0) && !rf_chunk_decoder_new(&d)) {
			rf_event_batch_init(&bt);
			if (rf_trace_reader_next_frame(r, &f) == 1)
				dr = rf_chunk_decode(d, f.data, f.size, f.offset, &bt);
			if ((rc >= 0) != (dr == 0) || (rc >= 0 && (int)bt.nr != rc) ||
			    (dr && bt.nr))
				rc = -2000;
			rf_event_batch_release(&bt);
			rf_chunk_decoder_free(d);
		}
		rf_trace_reader_close(r);
	}
	return rc;
}

static void test_columns(void)
{
	static const struct {
		enum col_bad bad;
		int err;
		const char *says;
	} cases[] = {
		{ CB_WIDTH9, RF_ERR_CORRUPT, "type: a bad width" },
		{ CB_SHORT_BIN, RF_ERR_CORRUPT, "type: data that is not width bytes an event" },
		{ CB_NO_N, RF_ERR_CORRUPT, "must say its event count" },
		{ CB_N_HUGE, RF_ERR_TOO_LARGE, "over the format's limit" },
		{ CB_NO_TABLE, RF_ERR_CORRUPT, "file_read: events of a type with no columns" },
		{ CB_ORDER_300, RF_ERR_CORRUPT, "anon_fault.order: a value the field cannot hold" },
		{ CB_CPU_BIG, RF_ERR_CORRUPT, "cpu: a value over 32 bits" },
		{ CB_PID_BIG, RF_ERR_CORRUPT, "pid: a value over 32 bits" },
		{ CB_VALUES_FOR_INT, RF_ERR_CORRUPT, "file_read.nr: a mode this field cannot have" },
		{ CB_SLOT_FIRST, RF_ERR_CORRUPT, "cpu: a mode this field cannot have" },
		{ CB_DUP_COLUMN, RF_ERR_CORRUPT, "pid: a second column of the same name" },
		{ CB_NO_INDEX, RF_ERR_CORRUPT, "file_read.index: missing" },
		{ CB_TRAILING, RF_ERR_CORRUPT, "columns: bytes after the columns" },
		{ CB_BAD_STRING, RF_ERR_CORRUPT, "bad string" },
		{ CB_PLAIN_STEP, RF_ERR_CORRUPT, "cpu: a step in a mode without one" },
	};
	struct rf_event ev[8];
	uint64_t unknown;
	char why[512];
	unsigned int i;
	int rc;

	rc = try_col_chunk(CB_NONE, ev, &unknown, why, sizeof(why));
	for (i = 0; rc > 0 && i < (unsigned int)rc; i++)
		diag("event %u: type %u time %llu cpu %u pid %d index/addr %llu/%llu", i, ev[i].type,
		     (unsigned long long)ev[i].time, ev[i].cpu, ev[i].pid,
		     (unsigned long long)ev[i].u.file.index, (unsigned long long)ev[i].u.anon.addr);
	ok(rc == 5 && ev[0].type == RF_EV_FILE_READ && ev[0].u.file.index == 100 &&
	   ev[1].u.file.index == 101 && ev[2].u.file.index == 103 && ev[2].u.file.dev == 8 &&
	   ev[2].u.file.ino == 12 && ev[2].u.file.nr == 1 && ev[0].time == 1000 &&
	   ev[2].time == 3000 && ev[2].cpu == 1 && ev[2].pid == 42,
	   "a chunk of columns made by hand from the document: planes, plain and delta columns, "
	   "times in units (%d events; %s)", rc, why);
	ok(rc == 5 && ev[3].type == RF_EV_ANON_FAULT && ev[3].u.anon.addr == 8192 &&
	   ev[3].u.anon.mm == 33 && ev[3].u.anon.order == 2 && ev[4].type == RF_EV_MARKER &&
	   ev[4].u.marker.text && !strcmp(ev[4].u.marker.text, "m") && ev[4].time == 5000,
	   "... a delta per slot of the first field and a column of values");
	rc = try_col_chunk(CB_FUTURE, ev, &unknown, why, sizeof(why));
	ok(rc == 5 && unknown == 1 && ev[3].u.anon.addr == 8192,
	   "a type and a field of a newer minor version are skipped, the type's events counted "
	   "(%d events, %llu skipped; %s)", rc, (unsigned long long)unknown, why);
	rc = try_col_chunk(CB_NO_STACK, ev, &unknown, why, sizeof(why));
	ok(rc == 5 && ev[1].stack == 0 && ev[1].u.file.index == 101,
	   "an optional field left out reads as 0 (%d; %s)", rc, why);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rc = try_col_chunk(cases[i].bad, ev, &unknown, why, sizeof(why));
		ok(rc == cases[i].err && strstr(why, "chunk 0 at offset") && strstr(why, cases[i].says),
		   "refused, none of its events returned, rf_chunk_decode() agreeing: \"%s\"", why);
	}
}

/* A valid chunk of 3 file_reads with times 10,20,30 after @dt0 and index 100+@i0.. */
static void put_good_chunk(struct buf *b, uint64_t seq, int64_t dt0, int64_t i0)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	chunk_start(&sb, &pk, seq, 3, false);
	ev_file_read(&pk, dt0 + 10, 100 + i0, 0);
	ev_file_read(&pk, 10, 1, 0);
	ev_file_read(&pk, 10, 1, 0);
	put_zstd(b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
}

/*
 * A frame whose header claims @fcs content bytes but holds three: what a
 * hostile file would use to make a reader allocate.
 */
static void put_lying_frame(struct buf *b, uint64_t fcs)
{
	static const uint8_t body[3] = { 0x80, 0x80, 0x80 };

	buf_le32(b, 0xFD2FB528u);
	buf_put(b, "\xe4", 1);		/* FCS 8 bytes, single segment, checksum */
	buf_le64(b, fcs);
	buf_put(b, "\x19\x00\x00", 3);	/* last raw block of 3 bytes */
	buf_put(b, body, 3);
	buf_le32(b, 0);			/* checksum (wrong, never reached) */
}

static void test_huge_claims(void)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	struct buf b = { 0 };
	uint8_t *zeros;
	uint64_t chunk1_off;
	char why[512];
	int rc;

	/* a chunk claiming a terabyte, between two good chunks */
	put_header(&b, 1, 0, 0);
	put_good_chunk(&b, 0, 0, 0);
	chunk1_off = b.len;
	put_lying_frame(&b, 1ull << 40);
	put_good_chunk(&b, 2, 30, 3);
	save(b.p, b.len);
	rf_trace_reader_open(&r, path, 0);
	while ((rc = rf_trace_reader_next(r, &ev)) == 1)
		;
	ok(rc == RF_ERR_TOO_LARGE && names_chunk(rf_trace_reader_errmsg(r), 1, chunk1_off) &&
	   strstr(rf_trace_reader_errmsg(r), "1099511627776"),
	   "a chunk claiming 1 TiB: RF_ERR_TOO_LARGE, nothing allocated: \"%s\"", rf_trace_reader_errmsg(r));
	rf_trace_reader_close(r);
	ok(reads_file_reads(RF_READ_SKIP_DAMAGED, 6, 0, why, sizeof(why)),
	   "with RF_READ_SKIP_DAMAGED the chunk after it is read (%s)", why);

	/* a real frame of 64 MiB of zeros (a few KiB compressed) with its size declared */
	free(b.p);
	b = (struct buf){ 0 };
	put_header(&b, 1, 0, 0);
	zeros = calloc(1, 64u << 20);
	put_zstd(&b, zeros, 64u << 20, true);
	put_good_chunk(&b, 1, 0, 0);
	diag("64 MiB of zeros: %zu-byte frame", b.len);
	save(b.p, b.len);
	rf_trace_reader_open(&r, path, RF_READ_SKIP_DAMAGED);
	rc = rf_trace_reader_next(r, &ev);
	ok(rc == RF_ERR_TOO_LARGE && strstr(rf_trace_reader_errmsg(r), "chunk 0 at offset"),
	   "a zstd bomb (64 MiB declared) is refused before decompressing: \"%s\"",
	   rf_trace_reader_errmsg(r));
	ok(rf_trace_reader_next(r, &ev) == 1 && ev.u.file.index == 100, "and the next chunk is read");
	rf_trace_reader_close(r);

	/* the same bomb without a declared size */
	free(b.p);
	b = (struct buf){ 0 };
	put_header(&b, 1, 0, 0);
	put_zstd(&b, zeros, 64u << 20, false);
	put_good_chunk(&b, 1, 0, 0);
	save(b.p, b.len);
	rf_trace_reader_open(&r, path, RF_READ_SKIP_DAMAGED);
	rc = rf_trace_reader_next(r, &ev);
	ok(rc < 0 && strstr(rf_trace_reader_errmsg(r), "chunk 0 at offset"),
	   "a frame that does not declare its size is refused: \"%s\"", rf_trace_reader_errmsg(r));
	ok(rf_trace_reader_next(r, &ev) == 1 && ev.u.file.index == 100, "and the next chunk is read");
	rf_trace_reader_close(r);
	free(zeros);
	free(b.p);
}

static void put_index_claims(struct buf *b, int which)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	uint8_t raw[16];

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 2);
	pack_str(&pk, "types");
	if (which == 0) {
		/* a map32 claiming 4 G entries, holding none */
		raw[0] = 0xdf;
		memset(raw + 1, 0xff, 4);
		msgpack_sbuffer_write(&sb, (const char *)raw, 5);
	} else {
		msgpack_pack_map(&pk, 0);
	}
	pack_str(&pk, "chunks");
	if (which == 1) {
		/* an array32 claiming 4 G chunks, holding one */
		raw[0] = 0xdd;
		memset(raw + 1, 0xff, 4);
		msgpack_sbuffer_write(&sb, (const char *)raw, 5);
	} else {
		msgpack_pack_array(&pk, 1);
	}
	/* one entry pointing far outside the file */
	msgpack_pack_array(&pk, 7);
	msgpack_pack_uint64(&pk, which == 2 ? 1ull << 62 : which == 3 ? UINT64_MAX - 7 : 5);
	msgpack_pack_uint64(&pk, which == 2 ? 1ull << 62 : which == 3 ? 16 : 5);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_uint64(&pk, UINT64_MAX);
	msgpack_pack_uint64(&pk, UINT64_MAX);
	msgpack_pack_uint64(&pk, UINT64_MAX);
	put_index(b, sb.data, sb.size);
	msgpack_sbuffer_destroy(&sb);
}

static void test_hostile_index(void)
{
	static const char *const what[] = {
		"a types map claiming 4 G entries", "a chunk array claiming 4 G entries",
		"a chunk at offset 2^62 of size 2^62", "a chunk whose end wraps past 2^64",
	};
	struct rf_trace_reader *r;
	struct buf b;
	char why[512];
	int which;

	for (which = 0; which < 4; which++) {
		b = (struct buf){ 0 };
		put_header(&b, 1, 0, 0);
		put_good_chunk(&b, 0, 0, 0);
		put_good_chunk(&b, 1, 30, 3);
		put_index_claims(&b, which);
		save(b.p, b.len);
		rf_trace_reader_open(&r, path, 0);
		ok(r && !rf_trace_reader_has_index(r) && strlen(rf_trace_reader_index_problem(r)) &&
		   reads_file_reads(0, 6, 0, why, sizeof(why)),
		   "index with %s: set aside (\"%s\"), every event read by walking", what[which],
		   r ? rf_trace_reader_index_problem(r) : "");
		rf_trace_reader_close(r);
		free(b.p);
	}

	/* a footer claiming a 4 GiB index */
	b = (struct buf){ 0 };
	put_header(&b, 1, 0, 0);
	put_good_chunk(&b, 0, 0, 0);
	buf_le32(&b, 0x184D2A5Fu);
	buf_le32(&b, 24);
	buf_put(&b, "RFTRIDX1", 8);
	buf_le64(&b, 0);
	buf_le32(&b, 0xffffffffu);
	buf_le32(&b, 0);
	save(b.p, b.len);
	rf_trace_reader_open(&r, path, 0);
	ok(r && !rf_trace_reader_has_index(r) && reads_file_reads(0, 3, 0, why, sizeof(why)),
	   "a footer claiming a 4 GiB index is set aside (\"%s\")", r ? rf_trace_reader_index_problem(r) : "");
	rf_trace_reader_close(r);
	free(b.p);
}

static void test_hostile_events(void)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	msgpack_sbuffer sb;
	msgpack_packer pk;
	struct buf b = { 0 };
	uint8_t raw[8];
	int rc;

	/* a counters event claiming 4 G entries, and a string claiming 4 GiB */
	put_header(&b, 1, 0, 0);
	chunk_start(&sb, &pk, 0, 1, false);
	ev_prefix(&pk, 3, RF_EV_COUNTERS, 10);
	msgpack_pack_uint32(&pk, 0);
	msgpack_pack_uint64(&pk, 0);
	raw[0] = 0xdf;
	memset(raw + 1, 0xff, 4);
	msgpack_sbuffer_write(&sb, (const char *)raw, 5);
	put_zstd(&b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
	chunk_start(&sb, &pk, 1, 1, false);
	ev_prefix(&pk, 1, RF_EV_MARKER, 10);
	raw[0] = 0xdb;
	memset(raw + 1, 0xff, 4);
	msgpack_sbuffer_write(&sb, (const char *)raw, 5);
	put_zstd(&b, sb.data, sb.size, true);
	msgpack_sbuffer_destroy(&sb);
	put_good_chunk(&b, 2, 0, 0);
	save(b.p, b.len);
	rf_trace_reader_open(&r, path, RF_READ_SKIP_DAMAGED);
	rc = rf_trace_reader_next(r, &ev);
	ok(rc == RF_ERR_TOO_LARGE && strstr(rf_trace_reader_errmsg(r), "chunk 0"),
	   "a counters map claiming 4 G entries: \"%s\"", rf_trace_reader_errmsg(r));
	rc = rf_trace_reader_next(r, &ev);
	ok(rc == RF_ERR_CORRUPT && strstr(rf_trace_reader_errmsg(r), "chunk 1"),
	   "a string claiming 4 GiB: \"%s\"", rf_trace_reader_errmsg(r));
	ok(rf_trace_reader_next(r, &ev) == 1 && ev.u.file.index == 100, "the good chunk after them is read");
	rf_trace_reader_close(r);
	free(b.p);
}

int main(void)
{
	struct layout lo;
	int fd;

	strcpy(path, "/tmp/refault-damage-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	plan(64);
	write_reference(&lo, true);
	diag("reference: %zu bytes, header %llu, %u chunks, index at %llu, footer at %llu", lo.file.len,
	     (unsigned long long)lo.header_end, NR_CHUNKS, (unsigned long long)lo.index_off,
	     (unsigned long long)lo.footer_off);
	save(lo.file.p, lo.file.len);
	{
		struct outcome *o = malloc(sizeof(*o));

		read_file(0, o);
		ok(!o->open_err && !o->end && got_prefix(o, NR_EVENTS), "the undamaged trace reads whole");
		free(o);
	}
	test_truncation(&lo);
	test_bit_flips(&lo);
	test_newer_minor();
	test_major_version();
	test_header_limits();
	test_chunk_encodings();
	test_columns();
	test_huge_claims();
	test_hostile_index();
	test_hostile_events();
	free(lo.file.p);
	if (!getenv("KEEP"))
		unlink(path);
	return done_testing();
}
