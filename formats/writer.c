/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace writer.  Events are gathered as the current chunk's columns (format
 * 3; or, asked for format 2, encoded one array each into the chunk's
 * buffer); a full chunk becomes one zstd frame (with content checksum)
 * written with one write() loop, so a writer killed at any point leaves
 * whole chunks behind it.  close() appends the index and the footer.  Event
 * times are rounded down to the header's resolution.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <msgpack.h>
#include <zstd.h>

#include "formats/format-local.h"

#define DEFAULT_LEVEL		3
#define DEFAULT_CHUNK_EVENTS	65536u
#define DEFAULT_CHUNK_BYTES	(1u << 20)

struct rf_trace_writer {
	int fd;
	bool own_fd;
	bool failed;
	struct rf_writer_options opts;
	struct rf_trace_folio_ids *folio_ids;	/* opts.folio_ids */
	ZSTD_CCtx *cctx;
	struct fmt_pack body;		/* encoded events of the current chunk */
	struct fmt_colchunk *cols;	/* format 3: its events as columns, until it is full */
	struct fmt_delta_state ds;
	uint64_t resolution;		/* ns: event times are rounded down to a multiple */
	struct rf_chunk_info cur;	/* the chunk being filled */
	struct fmt_index index;
	uint64_t offset;		/* bytes written so far */
	uint64_t events;
	uint64_t encoded_bytes;
	void *frame;			/* compression output */
	size_t frame_cap;
	char errmsg[256];
};

static int write_all(struct rf_trace_writer *w, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(w->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			w->failed = true;
			/* the errno itself: ENOSPC is what the user needs to hear, not "I/O error" */
			return fmt_fail(w->errmsg, sizeof(w->errmsg), -e, "write at offset %llu: %s",
					(unsigned long long)w->offset, strerror(e));
		}
		p += n;
		len -= (size_t)n;
		w->offset += (uint64_t)n;
	}
	return 0;
}

/* Compress @a then @b (either may be empty) into one frame and write it. */
static int write_frame(struct rf_trace_writer *w, const void *a, size_t alen, const void *b, size_t blen)
{
	ZSTD_outBuffer out;
	ZSTD_inBuffer in;
	size_t need = ZSTD_compressBound(alen + blen), r;

	/* Grown by half again at least: chunks vary a little in size, and each realloc copies. */
	if (rf_grow(&w->frame, &w->frame_cap, need, 1))
		return RF_ERR_NOMEM;
	ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_only);
	ZSTD_CCtx_setPledgedSrcSize(w->cctx, alen + blen);
	out = (ZSTD_outBuffer){ w->frame, w->frame_cap, 0 };
	in = (ZSTD_inBuffer){ a, alen, 0 };
	r = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_continue);
	if (!ZSTD_isError(r)) {
		in = (ZSTD_inBuffer){ b, blen, 0 };
		r = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_end);
	}
	if (ZSTD_isError(r) || r != 0)
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_ZSTD, "compressing a frame: %s",
				ZSTD_isError(r) ? ZSTD_getErrorName(r) : "output buffer too small");
	return write_all(w, w->frame, out.pos);
}

static void chunk_reset(struct rf_trace_writer *w)
{
	memset(&w->ds, 0, sizeof(w->ds));
	w->ds.enc = w->cols ? RF_CHUNK_ENC_3 : RF_CHUNK_ENC_2;
	w->ds.tu = w->resolution;
	if (w->cols)
		fmt_colchunk_reset(w->cols);
	memset(&w->cur, 0, sizeof(w->cur));
	w->cur.seq = w->index.nr;
	w->cur.t_first = UINT64_MAX;
	w->body.len = 0;
}

static int write_header(struct rf_trace_writer *w, const struct rf_trace_header *in)
{
	struct rf_trace_header h = *in;
	void *buf;
	size_t len;
	int err;

	/* a header copied from an older trace (convert, slice) names the encoding written now */
	h.version_major = w->cols ? RF_TRACE_VERSION_MAJOR : 2;
	h.version_minor = w->cols ? RF_TRACE_VERSION_MINOR : RF_TRACE_VERSION_2_MINOR;
	h.time_resolution = w->resolution;
	if (w->folio_ids)
		snprintf(h.pfns, sizeof(h.pfns), "ids");
	err = fmt_header_encode(&h, &buf, &len);
	if (err)
		return err;
	err = write_frame(w, buf, len, NULL, 0);
	free(buf);
	return err;
}

static int writer_init(struct rf_trace_writer *w, const struct rf_trace_header *h,
		       const struct rf_writer_options *opts)
{
	if (opts)
		w->opts = *opts;
	if (!w->opts.level)
		w->opts.level = DEFAULT_LEVEL;
	if (!w->opts.chunk_events)
		w->opts.chunk_events = DEFAULT_CHUNK_EVENTS;
	if (w->opts.chunk_events > RF_MAX_CHUNK_EVENTS)
		w->opts.chunk_events = RF_MAX_CHUNK_EVENTS;
	if (w->opts.version_major && w->opts.version_major != 2 &&
	    w->opts.version_major != RF_TRACE_VERSION_MAJOR)
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_INVAL,
				"format %u cannot be written: 2 or %u", w->opts.version_major,
				RF_TRACE_VERSION_MAJOR);
	if (w->opts.version_major != 2) {
		w->cols = fmt_colchunk_new();
		if (!w->cols)
			return RF_ERR_NOMEM;
	}
	if (w->opts.folio_ids && !(w->folio_ids = rf_trace_folio_ids_new()))
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_NOMEM, "out of memory");
	if (!w->opts.chunk_bytes)
		w->opts.chunk_bytes = DEFAULT_CHUNK_BYTES;
	/* Leave room for one more event past the threshold within the reader's limit. */
	if (w->opts.chunk_bytes > RF_MAX_CHUNK_BYTES / 2)
		w->opts.chunk_bytes = RF_MAX_CHUNK_BYTES / 2;
	w->resolution = h->time_resolution ? h->time_resolution : 1;
	if (w->resolution > RF_MAX_TIME_RESOLUTION)
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_INVAL,
				"time resolution %llu ns is over %llu", (unsigned long long)w->resolution,
				RF_MAX_TIME_RESOLUTION);
	w->cctx = ZSTD_createCCtx();
	if (!w->cctx)
		return RF_ERR_NOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->opts.level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_contentSizeFlag, 1)))
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_INVAL, "bad zstd level %d", w->opts.level);
	/*
	 * Format 2: a chunk's worth of room at once, no reallocation while
	 * recording.  Columns are encoded at the flush, into what the first
	 * chunk grew: a writer of a small trace allocates what it needs, not
	 * 2 MiB (the compression buffer grows the same way, in write_frame()).
	 */
	if (!w->cols && !fmt_pack_reserve(&w->body, w->opts.chunk_bytes + 4096))
		return RF_ERR_NOMEM;
	chunk_reset(w);
	return write_header(w, h);
}

static void writer_free(struct rf_trace_writer *w)
{
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	ZSTD_freeCCtx(w->cctx);
	fmt_pack_free(&w->body);
	fmt_colchunk_free(w->cols);
	fmt_index_free(&w->index);
	rf_trace_folio_ids_free(w->folio_ids);
	free(w->frame);
	free(w);
}

int rf_trace_writer_fdopen(struct rf_trace_writer **out, int fd, const struct rf_trace_header *h,
			   const struct rf_writer_options *opts)
{
	struct rf_trace_writer *w;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return RF_ERR_NOMEM;
	w->fd = fd;
	err = writer_init(w, h, opts);
	if (err) {
		writer_free(w);
		return err;
	}
	*out = w;
	return 0;
}

int rf_trace_writer_open(struct rf_trace_writer **out, const char *path, const struct rf_trace_header *h,
			 const struct rf_writer_options *opts)
{
	int fd, err;

	*out = NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = rf_trace_writer_fdopen(out, fd, h, opts);
	if (err) {
		close(fd);
		return err;
	}
	(*out)->own_fd = true;
	return 0;
}

static int chunk_header(struct rf_trace_writer *w, char *buf, size_t cap, size_t *len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 5);
	msgpack_pack_str_with_body(&pk, "chunk", 5);
	msgpack_pack_uint64(&pk, w->cur.seq);
	msgpack_pack_str_with_body(&pk, "t", 1);
	msgpack_pack_uint64(&pk, 0);
	msgpack_pack_str_with_body(&pk, "n", 1);
	msgpack_pack_uint64(&pk, w->cur.nr_events);
	msgpack_pack_str_with_body(&pk, "enc", 3);
	msgpack_pack_uint64(&pk, w->ds.enc);
	msgpack_pack_str_with_body(&pk, "tu", 2);
	msgpack_pack_uint64(&pk, w->ds.tu);
	if (!sb.data || sb.size > cap) {
		msgpack_sbuffer_destroy(&sb);
		return RF_ERR_NOMEM;
	}
	memcpy(buf, sb.data, sb.size);
	*len = sb.size;
	msgpack_sbuffer_destroy(&sb);
	return 0;
}

int rf_trace_writer_flush(struct rf_trace_writer *w)
{
	char hdr[64];
	size_t hlen;
	int err;

	if (w->failed)
		return RF_ERR_STATE;
	if (!w->cur.nr_events)
		return 0;
	err = chunk_header(w, hdr, sizeof(hdr), &hlen);
	if (err)
		return err;
	if (w->cols) {
		w->body.len = 0;
		err = fmt_colchunk_encode(w->cols, &w->body);
		if (err) {
			w->failed = true;
			return fmt_fail(w->errmsg, sizeof(w->errmsg), err, "chunk %llu: out of memory",
					(unsigned long long)w->cur.seq);
		}
	}
	w->cur.offset = w->offset;
	err = write_frame(w, hdr, hlen, w->body.p, w->body.len);
	if (err)
		return err;
	w->cur.size = w->offset - w->cur.offset;
	w->encoded_bytes += hlen + w->body.len;
	err = fmt_index_add(&w->index, &w->cur);
	if (err)
		return err;
	chunk_reset(w);
	return 0;
}

int rf_trace_writer_append(struct rf_trace_writer *w, const struct rf_event *in)
{
	struct rf_event copy;
	const struct rf_event *ev = in;
	int err;

	if (w->failed)
		return RF_ERR_STATE;
	err = fmt_event_validate(ev);
	if (err)
		return fmt_fail(w->errmsg, sizeof(w->errmsg), err == RF_ERR_UNKNOWN_TYPE ? RF_ERR_INVAL : err,
				"event %llu (type %u): %s", (unsigned long long)w->events, ev->type,
				rf_strerror(err));
	if (in->time % w->resolution || w->folio_ids) {
		copy = *in;
		copy.time -= in->time % w->resolution;
		if (w->folio_ids && rf_trace_folio_ids_apply(w->folio_ids, &copy))
			return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_NOMEM,
					"event %llu: folio ids: out of memory",
					(unsigned long long)w->events);
		ev = &copy;
	}
	/* Deltas start from 0 in every chunk: the chunk header's base time is 0. */
	err = w->cols ? fmt_colchunk_add(w->cols, ev, w->resolution) :
		fmt_encode_event(&w->body, &w->ds, ev);
	if (err) {
		w->failed = true;	/* the chunk holds part of an event */
		return fmt_fail(w->errmsg, sizeof(w->errmsg), err, "event %llu: out of memory",
				(unsigned long long)w->events);
	}
	fmt_chunk_info_add(&w->cur, ev);
	w->index.type_counts[ev->type]++;
	w->events++;
	if (w->cur.nr_events >= w->opts.chunk_events ||
	    (w->cols ? fmt_colchunk_size(w->cols) : w->body.len) >= w->opts.chunk_bytes)
		return rf_trace_writer_flush(w);
	return 0;
}

static int write_index(struct rf_trace_writer *w)
{
	uint8_t skip_hdr[8], footer[RF_FOOTER_SIZE];
	uint64_t index_offset = w->offset;
	void *buf;
	size_t len;
	int err;

	err = fmt_index_encode(&w->index, &buf, &len);
	if (err)
		return err;
	fmt_put_le32(skip_hdr, RF_INDEX_MAGIC);
	fmt_put_le32(skip_hdr + 4, (uint32_t)len);
	err = write_all(w, skip_hdr, sizeof(skip_hdr));
	if (!err)
		err = write_all(w, buf, len);
	if (!err) {
		fmt_footer_encode(footer, index_offset, (uint32_t)(len + 8), fmt_crc32c(0, buf, len));
		err = write_all(w, footer, sizeof(footer));
	}
	free(buf);
	return err;
}

int rf_trace_writer_close(struct rf_trace_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = rf_trace_writer_flush(w);
	if (!err && !w->opts.no_index)
		err = write_index(w);
	if (w->own_fd) {
		if (close(w->fd) < 0 && !err)
			err = -errno;
		w->fd = -1;
	}
	writer_free(w);
	return err;
}

void rf_trace_writer_abandon(struct rf_trace_writer *w)
{
	if (w)
		writer_free(w);
}

void rf_trace_writer_stats(const struct rf_trace_writer *w, struct rf_writer_stats *st)
{
	st->events = w->events;
	st->chunks = w->index.nr;
	st->bytes = w->offset;
	st->encoded_bytes = w->encoded_bytes + (w->cols ? 0 : w->body.len);
}

const char *rf_trace_writer_errmsg(const struct rf_trace_writer *w)
{
	return w->errmsg;
}

int rf_trace_writer_copy_chunk(struct rf_trace_writer *w, const void *frame, size_t size,
			       const struct rf_event_batch *decoded)
{
	struct rf_chunk_info ci;
	int err;

	if (w->folio_ids)
		return fmt_fail(w->errmsg, sizeof(w->errmsg), RF_ERR_INVAL,
				"a chunk copied as it is cannot have its pfns numbered (folio_ids)");
	err = rf_trace_writer_flush(w);
	if (err)
		return err;
	fmt_chunk_summarize(&ci, decoded, w->index.type_counts);
	ci.offset = w->offset;
	err = write_all(w, frame, size);
	if (err)
		return err;
	ci.size = size;
	w->events += decoded->nr;
	err = fmt_index_add(&w->index, &ci);
	if (!err)
		w->cur.seq = w->index.nr;
	return err;
}
