/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Trace reader.
 *
 * Frames are found by walking the file: a zstd frame's length is learnt
 * from its block headers (ZSTD_findFrameCompressedSize) over a read window
 * that grows only as far as RF_MAX_FRAME_BYTES, so memory stays bounded
 * whatever the file claims.  The index, when present and sound, gives the
 * chunk list for seeking and lets a damaged chunk be stepped over exactly;
 * without it the reader walks frames and, past damage, looks for the next
 * zstd magic number.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>
#include <zstd_errors.h>

#include "formats/format-local.h"

#define READ_WINDOW	(1u << 20)

struct rf_trace_reader {
	int fd;
	unsigned int flags;
	uint64_t file_size;
	struct rf_trace_header hdr;
	uint64_t data_start;		/* first byte after the header frame */
	uint64_t data_end;		/* index frame offset, or the file size */

	bool has_index;
	bool chunks_known;		/* index loaded, or a walk done */
	struct fmt_index index;
	char index_problem[256];
	char damage[512];
	bool damaged;
	uint64_t good_end;

	/* the read window: file bytes [win_off, win_off + win_len) */
	uint8_t *win;
	size_t win_cap;
	size_t win_len;
	uint64_t win_off;

	/* position for sequential reading */
	uint64_t pos;			/* offset of the next frame */
	uint64_t ordinal;		/* chunk frames passed so far */
	uint64_t frame_off;		/* offset of the chunk being decoded */
	bool in_chunk;
	bool failed;
	int last_err;
	uint64_t skip_before;		/* seek_time: drop earlier events of the first chunk */
	bool skipping;

	ZSTD_DCtx *dctx;
	uint8_t *chunk;
	size_t chunk_cap;
	struct fmt_arena arena;
	struct fmt_chunk_cursor cur;
	char cur_err[256];
	/* a chunk of columns (encoding 3), decoded whole when opened: cols[cols_at .. cols_nr) */
	bool columnar;
	struct rf_event *cols;
	size_t cols_cap, cols_nr, cols_at;

	struct rf_reader_stats stats;
	char errmsg[768];
};

/* ------------------------------------------------------------ raw bytes */

/*
 * Make [off, off + need) available in the window, or as much of it as the
 * file has.  Returns the number of bytes available at @off, or negative.
 */
static long long window_load(struct rf_trace_reader *r, uint64_t off, size_t need)
{
	size_t want, got = 0;
	ssize_t n;

	if (off >= r->file_size)
		return 0;
	if (need > r->file_size - off)
		need = (size_t)(r->file_size - off);
	if (off >= r->win_off && off + need <= r->win_off + r->win_len)
		return (long long)need;
	want = need > READ_WINDOW ? need : READ_WINDOW;
	if (want > r->file_size - off)
		want = (size_t)(r->file_size - off);
	if (RF_GROW(r->win, r->win_cap, want))
		return RF_ERR_NOMEM;
	r->win_off = off;
	r->win_len = 0;
	while (got < want) {
		n = pread(r->fd, r->win + got, want - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	r->win_len = got;
	r->stats.bytes_read += got;
	return (long long)(need < got ? need : got);
}

static const uint8_t *window_at(const struct rf_trace_reader *r, uint64_t off)
{
	return r->win + (off - r->win_off);
}

/* Read exactly @len bytes at @off into @buf. */
static int read_exact(struct rf_trace_reader *r, uint64_t off, void *buf, size_t len)
{
	long long n = window_load(r, off, len);

	if (n < 0)
		return (int)n;
	if ((size_t)n < len)
		return RF_ERR_TRUNCATED;
	memcpy(buf, window_at(r, off), len);
	return 0;
}

/*
 * Size of the zstd frame at @off.  *@why is filled on failure.
 */
static int frame_size_at(struct rf_trace_reader *r, uint64_t off, uint64_t limit_end, size_t max,
			 size_t *size, char *why, size_t whylen)
{
	size_t have = READ_WINDOW, room = (size_t)(limit_end - off < max ? limit_end - off : max);
	long long n;
	size_t fs;

	/* Try what the window already holds before reading again. */
	if (off >= r->win_off && off + 4096 < r->win_off + r->win_len)
		have = (size_t)(r->win_off + r->win_len - off);
	for (;;) {
		if (have > room)
			have = room;
		n = window_load(r, off, have);
		if (n < 0)
			return fmt_fail(why, whylen, (int)n, "read error: %s", rf_strerror((int)n));
		fs = ZSTD_findFrameCompressedSize(window_at(r, off), (size_t)n);
		if (!ZSTD_isError(fs)) {
			*size = fs;
			return 0;
		}
		if (ZSTD_getErrorCode(fs) != ZSTD_error_srcSize_wrong)
			return fmt_fail(why, whylen, RF_ERR_CORRUPT, "bad zstd frame (%s)",
					ZSTD_getErrorName(fs));
		if ((size_t)n >= room) {
			if (room == max)
				return fmt_fail(why, whylen, RF_ERR_TOO_LARGE,
						"frame runs past the %zu-byte limit", max);
			return fmt_fail(why, whylen, RF_ERR_TRUNCATED,
					"truncated: the frame runs past the end of the data (%llu bytes left)",
					(unsigned long long)(limit_end - off));
		}
		have = (size_t)n * 2;
	}
}

/* ---------------------------------------------------------- the header */

static int read_header(struct rf_trace_reader *r)
{
	char why[256];
	uint8_t magic[4] = { 0 };
	size_t size, len = 0, cap = 0;
	uint8_t *buf = NULL;
	int err;

	err = read_exact(r, 0, magic, 4);
	if (err || fmt_le32(magic) != ZSTD_FRAME_MAGIC)
		return fmt_fail(r->errmsg, sizeof(r->errmsg), RF_ERR_NOT_TRACE,
				"not a refault trace (no zstd frame at offset 0)");
	err = frame_size_at(r, 0, r->file_size, RF_MAX_HEADER_BYTES + 4096, &size, why, sizeof(why));
	if (!err)
		err = fmt_decompress_frame(r->dctx, window_at(r, 0), size, &buf, &cap, &len, why,
					   sizeof(why));
	if (!err && len > RF_MAX_HEADER_BYTES)
		err = fmt_fail(why, sizeof(why), RF_ERR_TOO_LARGE, "header over the size limit");
	if (!err)
		err = fmt_header_decode(buf, len, &r->hdr, why, sizeof(why));
	free(buf);
	if (err)
		return fmt_fail(r->errmsg, sizeof(r->errmsg), err, "header at offset 0: %s", why);
	r->data_start = size;
	return 0;
}

/* ----------------------------------------------------------- the index */

static int index_problem(struct rf_trace_reader *r, const char *what)
{
	snprintf(r->index_problem, sizeof(r->index_problem), "%s: walking the frames instead", what);
	fmt_index_free(&r->index);
	return 0;
}

static bool index_entries_sound(const struct rf_trace_reader *r, uint64_t index_off)
{
	uint64_t prev_end = r->data_start;
	size_t i;

	for (i = 0; i < r->index.nr; i++) {
		const struct rf_chunk_info *c = &r->index.chunks[i];

		/* offset > index_off - size, not offset + size > index_off: the sum may wrap */
		if (c->offset < prev_end || c->size < 8 || c->size > RF_MAX_FRAME_BYTES ||
		    c->size > index_off || c->offset > index_off - c->size)
			return false;
		prev_end = c->offset + c->size;
	}
	return true;
}

static int read_index(struct rf_trace_reader *r)
{
	uint8_t footer[RF_FOOTER_SIZE], hdr[8];
	uint64_t ioff;
	uint32_t isize, crc;
	long long n;
	int err;

	if (r->file_size < r->data_start + RF_FOOTER_SIZE + 8)
		return 0;
	if (read_exact(r, r->file_size - RF_FOOTER_SIZE, footer, sizeof(footer)))
		return 0;
	if (fmt_le32(footer) != RF_FOOTER_MAGIC || fmt_le32(footer + 4) != RF_FOOTER_PAYLOAD ||
	    memcmp(footer + 8, RF_FOOTER_ID, 8))
		return 0;	/* no footer: a trace whose writer did not finish */
	ioff = fmt_le64(footer + 16);
	isize = fmt_le32(footer + 24);
	crc = fmt_le32(footer + 28);
	if (isize < 8 || isize > RF_MAX_INDEX_BYTES || ioff < r->data_start ||
	    ioff + isize + RF_FOOTER_SIZE != r->file_size)
		return index_problem(r, "footer points outside the file");
	if (read_exact(r, ioff, hdr, 8) || fmt_le32(hdr) != RF_INDEX_MAGIC || fmt_le32(hdr + 4) != isize - 8)
		return index_problem(r, "no index frame where the footer points");
	n = window_load(r, ioff + 8, isize - 8);
	if (n < 0 || (uint64_t)n != isize - 8)
		return index_problem(r, "index cut short");
	if (fmt_crc32c(0, window_at(r, ioff + 8), isize - 8) != crc)
		return index_problem(r, "index checksum mismatch");
	err = fmt_index_decode(window_at(r, ioff + 8), isize - 8, &r->index);
	if (err == RF_ERR_NOMEM)
		return err;
	if (err)
		return index_problem(r, "index does not decode");
	if (!index_entries_sound(r, ioff))
		return index_problem(r, "index entries overlap or leave the file");
	r->has_index = true;
	r->chunks_known = true;
	r->data_end = ioff;
	r->good_end = ioff;
	return 0;
}

/* ------------------------------------------------------------ open/close */

int rf_trace_reader_open(struct rf_trace_reader **out, const char *path, unsigned int flags)
{
	struct rf_trace_reader *r;
	struct stat st;
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return RF_ERR_NOMEM;
	r->flags = flags;
	fmt_arena_init(&r->arena);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		err = -errno;
		free(r);
		return err;
	}
	*out = r;
	if (fstat(r->fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return fmt_fail(r->errmsg, sizeof(r->errmsg), RF_ERR_INVAL, "not a regular file");
	r->file_size = (uint64_t)st.st_size;
	r->data_end = r->file_size;
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx)
		return RF_ERR_NOMEM;
	err = read_header(r);
	if (err) {
		r->failed = true;
		r->last_err = err;
		return err;
	}
	r->pos = r->data_start;
	r->good_end = r->data_start;
	if (!(flags & RF_READ_NO_INDEX)) {
		err = read_index(r);
		if (err)
			return err;
	}
	return 0;
}

void rf_trace_reader_close(struct rf_trace_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	fmt_index_free(&r->index);
	fmt_arena_free(&r->arena);
	free(r->win);
	free(r->chunk);
	free(r->cols);
	free(r);
}

const struct rf_trace_header *rf_trace_reader_header(const struct rf_trace_reader *r)
{
	return &r->hdr;
}

const char *rf_trace_reader_errmsg(const struct rf_trace_reader *r)
{
	return r->errmsg;
}

bool rf_trace_reader_has_index(const struct rf_trace_reader *r)
{
	return r->has_index;
}

const char *rf_trace_reader_index_problem(const struct rf_trace_reader *r)
{
	return r->index_problem;
}

const char *rf_trace_reader_damage(const struct rf_trace_reader *r)
{
	return r->damaged ? r->damage : NULL;
}

uint64_t rf_trace_reader_good_end(const struct rf_trace_reader *r)
{
	return r->good_end;
}

uint64_t rf_trace_reader_file_size(const struct rf_trace_reader *r)
{
	return r->file_size;
}

void rf_trace_reader_stats(const struct rf_trace_reader *r, struct rf_reader_stats *st)
{
	*st = r->stats;
}

/* --------------------------------------------------------------- frames */

static int frame_error(struct rf_trace_reader *r, int err, uint64_t off, const char *why)
{
	return fmt_fail(r->errmsg, sizeof(r->errmsg), err, "chunk %llu at offset %llu: %s",
			(unsigned long long)r->ordinal, (unsigned long long)off, why);
}

/*
 * Find the next chunk frame from r->pos.  Returns 1 with @off and @size set,
 * 0 at the end of the data, negative (message in errmsg) on damage.
 */
static int locate_frame(struct rf_trace_reader *r, uint64_t *off, size_t *size)
{
	char why[256];
	uint8_t head[8];
	uint32_t magic;
	int err;

	for (;;) {
		if (r->pos >= r->data_end)
			return 0;
		err = read_exact(r, r->pos, head, r->data_end - r->pos >= 8 ? 8 : 4);
		if (err)
			return frame_error(r, RF_ERR_TRUNCATED, r->pos, "truncated: stray bytes at the end");
		magic = fmt_le32(head);
		if ((magic & SKIPPABLE_MAGIC_MASK) == SKIPPABLE_MAGIC_BASE) {
			uint64_t next;

			if (r->data_end - r->pos < 8)
				return frame_error(r, RF_ERR_TRUNCATED, r->pos, "truncated skippable frame");
			next = r->pos + 8 + fmt_le32(head + 4);
			if (next > r->data_end)
				return frame_error(r, RF_ERR_TRUNCATED, r->pos,
						   "truncated: a skippable frame (index?) runs past the end");
			r->pos = next;
			continue;
		}
		if (magic != ZSTD_FRAME_MAGIC)
			return frame_error(r, RF_ERR_CORRUPT, r->pos, "no zstd frame starts here");
		err = frame_size_at(r, r->pos, r->data_end, RF_MAX_FRAME_BYTES, size, why, sizeof(why));
		if (err)
			return frame_error(r, err, r->pos, why);
		*off = r->pos;
		return 1;
	}
}

/* The index entry of the chunk at @off, if the index knows it. */
static const struct rf_chunk_info *index_entry_at(const struct rf_trace_reader *r, uint64_t off)
{
	size_t lo = 0, hi = r->has_index ? r->index.nr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->index.chunks[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (r->has_index ? r->index.nr : 0) && r->index.chunks[lo].offset == off ?
		&r->index.chunks[lo] : NULL;
}

/*
 * Step over damage found at @off: with an index, to the next indexed chunk;
 * without one, to the next zstd magic number after @off.
 */
static int skip_damage(struct rf_trace_reader *r, uint64_t off, uint64_t events_done)
{
	const struct rf_chunk_info *ci = index_entry_at(r, off);
	static const uint8_t magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint64_t p;
	size_t i;

	r->stats.chunks_damaged++;
	if (ci && ci->nr_events > events_done)
		r->stats.events_skipped += ci->nr_events - events_done;
	r->ordinal++;
	if (r->has_index) {
		for (i = 0; i < r->index.nr && r->index.chunks[i].offset <= off; i++)
			;
		r->pos = i < r->index.nr ? r->index.chunks[i].offset : r->data_end;
		return 0;
	}
	for (p = off + 1; p + 4 <= r->data_end; ) {
		long long n = window_load(r, p, READ_WINDOW);

		if (n < 4)
			break;
		for (i = 0; i + 4 <= (size_t)n; i++)
			if (!memcmp(window_at(r, p) + i, magic, 4)) {
				r->pos = p + i;
				return 0;
			}
		p += (uint64_t)n - 3;
	}
	r->pos = r->data_end;
	return 0;
}

int rf_trace_reader_next_frame(struct rf_trace_reader *r, struct rf_frame *f)
{
	uint64_t off;
	size_t size;
	int rc;

	if (r->failed)
		return r->last_err ? r->last_err : RF_ERR_STATE;
	rc = locate_frame(r, &off, &size);
	if (rc < 0) {
		if (r->flags & RF_READ_SKIP_DAMAGED)
			skip_damage(r, r->pos, 0);
		else {
			r->failed = true;
			r->last_err = rc;
		}
		return rc;
	}
	if (rc == 0)
		return 0;
	if (window_load(r, off, size) != (long long)size)
		return frame_error(r, RF_ERR_IO, off, "frame vanished while reading");
	f->data = window_at(r, off);
	f->size = size;
	f->offset = off;
	f->ordinal = r->ordinal++;
	r->pos = off + size;
	r->stats.chunks_read++;
	return 1;
}

/* --------------------------------------------------------------- events */

static int chunk_failed(struct rf_trace_reader *r, int err, uint64_t off, uint64_t ordinal,
			uint64_t events_done)
{
	fmt_fail(r->errmsg, sizeof(r->errmsg), err, "chunk %llu at offset %llu: %s",
		 (unsigned long long)ordinal, (unsigned long long)off, r->cur_err);
	r->in_chunk = false;
	if (r->flags & RF_READ_SKIP_DAMAGED) {
		/* skip_damage() counts this chunk as passed: undo next_frame's count. */
		r->ordinal--;
		r->stats.chunks_read--;
		skip_damage(r, off, events_done);
	} else {
		r->failed = true;
		r->last_err = err;
	}
	return err;
}

static int open_chunk(struct rf_trace_reader *r)
{
	struct rf_frame f;
	size_t len;
	int rc;

	rc = rf_trace_reader_next_frame(r, &f);
	if (rc <= 0)
		return rc;
	r->frame_off = f.offset;
	fmt_arena_reset(&r->arena);
	rc = fmt_decompress_frame(r->dctx, f.data, f.size, &r->chunk, &r->chunk_cap, &len, r->cur_err,
				  sizeof(r->cur_err));
	if (!rc)
		rc = fmt_chunk_cursor_start(&r->cur, r->chunk, len, &r->arena, r->cur_err,
					    sizeof(r->cur_err));
	r->columnar = !rc && r->cur.ds.enc >= RF_CHUNK_ENC_3;
	if (r->columnar) {
		uint64_t unknown;

		r->cols_at = 0;
		rc = fmt_columns_decode(&r->cur, &r->cols, &r->cols_cap, &r->cols_nr, &unknown);
		r->stats.unknown_skipped += unknown;
	}
	if (rc)
		return chunk_failed(r, rc, f.offset, f.ordinal, 0);
	r->in_chunk = true;
	return 1;
}

int rf_trace_reader_next(struct rf_trace_reader *r, struct rf_event *ev)
{
	int rc;

	for (;;) {
		if (r->failed)
			return r->last_err ? r->last_err : RF_ERR_STATE;
		if (!r->in_chunk) {
			rc = open_chunk(r);
			if (rc <= 0)
				return rc;
		}
		if (r->columnar) {
			if (r->cols_at == r->cols_nr) {
				r->in_chunk = false;
				continue;
			}
			*ev = r->cols[r->cols_at++];
			rc = 1;
		} else {
			rc = fmt_chunk_cursor_next(&r->cur, ev);
		}
		if (rc < 0) {
			r->stats.unknown_skipped += r->cur.unknown_skipped;
			return chunk_failed(r, rc, r->frame_off, r->ordinal - 1, r->cur.nr_read);
		}
		if (rc == 0) {
			r->stats.unknown_skipped += r->cur.unknown_skipped;
			r->in_chunk = false;
			continue;
		}
		if (r->skipping) {
			if (ev->time < r->skip_before)
				continue;
			r->skipping = false;
		}
		r->stats.events++;
		return 1;
	}
}

/* ------------------------------------------------------- chunks and seeking */

/* Walk every frame, decoding each, to build the chunk list of a trace without an index. */
static int walk_chunks(struct rf_trace_reader *r)
{
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	uint64_t saved_pos = r->pos, saved_ord = r->ordinal;
	unsigned int saved_flags = r->flags;
	struct rf_reader_stats saved_stats = r->stats;
	bool saved_in = r->in_chunk;
	int rc;

	rc = rf_chunk_decoder_new(&d);
	if (rc)
		return rc;
	rf_event_batch_init(&b);
	r->flags &= ~RF_READ_SKIP_DAMAGED;
	r->pos = r->data_start;
	r->ordinal = 0;
	r->good_end = r->data_start;
	for (;;) {
		rc = rf_trace_reader_next_frame(r, &f);
		if (rc <= 0)
			break;
		rc = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (rc) {
			fmt_fail(r->errmsg, sizeof(r->errmsg), rc, "chunk %llu at offset %llu: %s",
				 (unsigned long long)f.ordinal, (unsigned long long)f.offset,
				 rf_chunk_decoder_errmsg(d));
			break;
		}
		{
			struct rf_chunk_info ci = { .offset = f.offset, .size = f.size };

			fmt_chunk_summarize(&ci, &b, r->index.type_counts);
			rc = fmt_index_add(&r->index, &ci);
			if (rc)
				break;
		}
		r->good_end = f.offset + f.size;
	}
	if (rc < 0 && rc != RF_ERR_NOMEM) {
		r->damaged = true;
		fmt_strlcpy(r->damage, r->errmsg, sizeof(r->damage));
		rc = 0;
	}
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	r->flags = saved_flags;
	r->pos = saved_pos;
	r->ordinal = saved_ord;
	r->stats = saved_stats;
	r->in_chunk = saved_in;
	r->failed = false;
	r->last_err = 0;
	if (!rc)
		r->chunks_known = true;
	return rc;
}

long rf_trace_reader_chunks(struct rf_trace_reader *r, const struct rf_chunk_info **chunks)
{
	int rc;

	if (!r->chunks_known) {
		fmt_index_free(&r->index);
		rc = walk_chunks(r);
		if (rc)
			return rc;
	}
	*chunks = r->index.chunks;
	return (long)r->index.nr;
}

int rf_trace_reader_seek_chunk(struct rf_trace_reader *r, uint64_t seq)
{
	const struct rf_chunk_info *chunks;
	long n = rf_trace_reader_chunks(r, &chunks);

	if (n < 0)
		return (int)n;
	if (seq > (uint64_t)n)
		return fmt_fail(r->errmsg, sizeof(r->errmsg), RF_ERR_RANGE,
				"chunk %llu does not exist (the trace has %ld)", (unsigned long long)seq, n);
	r->pos = seq < (uint64_t)n ? chunks[seq].offset : r->data_end;
	r->ordinal = seq;
	r->in_chunk = false;
	r->skipping = false;
	r->failed = false;
	r->last_err = 0;
	return 0;
}

int rf_trace_reader_seek_time(struct rf_trace_reader *r, uint64_t t)
{
	const struct rf_chunk_info *chunks;
	long n = rf_trace_reader_chunks(r, &chunks), i;
	int err;

	if (n < 0)
		return (int)n;
	for (i = 0; i < n && chunks[i].t_last < t; i++)
		;
	/*
	 * Past the chunks known, and a walk that stopped at damage (no index): what
	 * comes after the damage is not known.  Skipping damage, read it all from
	 * the start; else say so rather than find nothing.
	 */
	if (i == n && r->damaged && !(r->flags & RF_READ_SKIP_DAMAGED))
		return fmt_fail(r->errmsg, sizeof(r->errmsg), RF_ERR_CORRUPT,
				"%s; the trace has no index, so what follows the damage cannot be found "
				"by time (--skip-damaged reads past it; refault trace recover rebuilds "
				"the trace)", r->damage);
	err = rf_trace_reader_seek_chunk(r, i == n && r->damaged ? 0 : (uint64_t)i);
	if (err)
		return err;
	if (i == n && r->damaged) {
		r->pos = r->data_start;		/* from the first chunk, known or not */
		r->ordinal = 0;
	}
	r->skip_before = t;
	r->skipping = true;
	return 0;
}
