/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the trace reader (`make fuzz`, docs/performance.md).
 *
 * The input is a trace file, or, when its first byte is one of the letters
 * below, the *content* of one frame that the target wraps into an otherwise
 * valid trace.  zstd's content checksum and the index's CRC-32C stop almost
 * every mutation of a real file at the checksum; wrapping lets the fuzzer
 * reach the msgpack decoders behind them:
 *
 *   'C' rest = decompressed chunk:  header | zstd(rest) | a valid chunk
 *   'H' rest = decompressed header: zstd(rest) | a valid chunk
 *   'I' rest = index payload:       header | a valid chunk | index(rest) | footer
 *
 * Each input is read every way the API offers: rf_trace_reader_next() with
 * each combination of RF_READ_SKIP_DAMAGED and RF_READ_NO_INDEX, the chunk
 * list and both seeks, and next_frame + rf_chunk_decode().  Beyond "no
 * crash", the target aborts when the reader breaks a promise of trace.h:
 * an event of an unknown type, a string or array over its limit, a failed
 * reader that starts returning events again, or skipping that makes no
 * progress.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zstd.h>

#include <refault/trace.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "tests/format/bytes.h"
#include "tests/format/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FOOTER_SIZE	32u
#define INDEX_MAGIC	0x184D2A5Eu
#define FOOTER_MAGIC	0x184D2A5Fu

static void check(bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz-reader: broken promise: %s\n", what);
		abort();
	}
}

/*
 * The harness keeps its compression context and the base trace from one input
 * to the next: creating them costs more than reading a small trace, and
 * neither depends on the input.  (The library under test keeps nothing.)
 */
struct harness {
	ZSTD_CCtx *cctx;
	struct buf base;
	size_t base_hdr_len;
};

/* A frame as the writer makes them: content size and checksum declared. */
static void put_zstd(struct harness *hs, struct buf *im, const void *p, size_t n)
{
	size_t cap = ZSTD_compressBound(n), r;
	void *out = malloc(cap);

	check(out != NULL, "out of memory in the harness");
	r = ZSTD_compress2(hs->cctx, out, cap, p, n);
	check(!ZSTD_isError(r), "zstd compression in the harness");
	buf_put(im, out, r);
	free(out);
}

/*
 * A valid trace with one small chunk and no index, written by the library
 * into memory; *@hdr_len is the size of its header frame.
 */
static void base_trace(struct buf *im, size_t *hdr_len)
{
	struct rf_writer_options opts = { .no_index = true, .level = 1 };
	struct rf_trace_writer *w;
	struct rf_trace_header h;
	struct rf_event ev;
	int fd = memfd_create("fuzz-base", MFD_CLOEXEC);
	off_t end;
	uint64_t i;

	check(fd >= 0, "memfd");
	/* The header of `write-sample -n 16 -c 16 -l 1`, so make-corpus.sh can derive seeds from it. */
	rf_trace_header_init(&h, "write-sample");
	h.synthetic = true;
	check(!rf_trace_writer_fdopen(&w, fd, &h, &opts), "base writer");
	check(!rf_trace_writer_flush(w), "base header");
	*hdr_len = (size_t)lseek(fd, 0, SEEK_CUR);
	for (i = 0; i < 16; i++) {
		sample_event(i, &ev);
		check(!rf_trace_writer_append(w, &ev), "base event");
	}
	check(!rf_trace_writer_close(w), "base close");
	end = lseek(fd, 0, SEEK_END);
	im->len = 0;
	check(!RF_GROW(im->p, im->cap, (size_t)end), "out of memory in the harness");
	check(pread(fd, im->p, (size_t)end, 0) == end, "base read");
	im->len = (size_t)end;
	close(fd);
}

static struct harness *harness(void)
{
	static struct harness hs;

	if (!hs.cctx) {
		hs.cctx = ZSTD_createCCtx();
		check(hs.cctx != NULL, "out of memory in the harness");
		ZSTD_CCtx_setParameter(hs.cctx, ZSTD_c_checksumFlag, 1);
		ZSTD_CCtx_setParameter(hs.cctx, ZSTD_c_contentSizeFlag, 1);
		ZSTD_CCtx_setParameter(hs.cctx, ZSTD_c_compressionLevel, 1);
		base_trace(&hs.base, &hs.base_hdr_len);
	}
	return &hs;
}

static void build_image(struct buf *im, const uint8_t *data, size_t size)
{
	struct harness *hs;
	struct buf base;
	size_t hdr_len;
	uint64_t ioff;

	im->len = 0;
	if (!size || (data[0] != 'C' && data[0] != 'H' && data[0] != 'I')) {
		buf_put(im, data, size);
		return;
	}
	hs = harness();
	base = hs->base;
	hdr_len = hs->base_hdr_len;
	switch (data[0]) {
	case 'C':
		buf_put(im, base.p, hdr_len);
		put_zstd(hs, im, data + 1, size - 1);
		buf_put(im, base.p + hdr_len, base.len - hdr_len);
		break;
	case 'H':
		put_zstd(hs, im, data + 1, size - 1);
		buf_put(im, base.p + hdr_len, base.len - hdr_len);
		break;
	case 'I':
		buf_put(im, base.p, base.len);
		ioff = im->len;
		buf_le32(im, INDEX_MAGIC);
		buf_le32(im, (uint32_t)(size - 1));
		buf_put(im, data + 1, size - 1);
		buf_le32(im, FOOTER_MAGIC);
		buf_le32(im, FOOTER_SIZE - 8);
		buf_put(im, "RFTRIDX1", 8);
		buf_le64(im, ioff);
		buf_le32(im, (uint32_t)(size - 1 + 8));
		buf_le32(im, crc32c(data + 1, size - 1));
		break;
	}
}

/* Where check_event() reads frames into, so that the reads are not optimised away. */
static volatile uint64_t sink;

/* Touch everything an event points to, so ASan sees any bad pointer. */
static void check_event(const struct rf_event *ev)
{
	uint32_t k;

	check(rf_event_type_name(ev->type) != NULL, "event of an unknown type returned");
	switch (ev->type) {
	case RF_EV_EXEC: case RF_EV_NAME_PID:
		check(!ev->u.task.comm || strlen(ev->u.task.comm) <= RF_MAX_STRING, "comm too long");
		break;
	case RF_EV_CGROUP_MKDIR:
		check(!ev->u.cgroup.path || strlen(ev->u.cgroup.path) <= RF_MAX_STRING, "path too long");
		break;
	case RF_EV_NAME_FILE:
		check(!ev->u.name_file.path || strlen(ev->u.name_file.path) <= RF_MAX_STRING,
		      "path too long");
		break;
	case RF_EV_MARKER:
		check(!ev->u.marker.text || strlen(ev->u.marker.text) <= RF_MAX_STRING, "text too long");
		break;
	case RF_EV_NAME_STACK:
		check(ev->u.stack.nr_frames <= RF_MAX_FRAMES, "too many frames");
		for (k = 0; k < ev->u.stack.nr_frames; k++)
			sink += ev->u.stack.frames[k];
		break;
	case RF_EV_NAME_FRAME:
		check(!ev->u.frame.dso || strlen(ev->u.frame.dso) <= RF_MAX_STRING, "dso too long");
		check(!ev->u.frame.build_id || strlen(ev->u.frame.build_id) <= RF_MAX_STRING, "build id");
		check(!ev->u.frame.symbol || strlen(ev->u.frame.symbol) <= RF_MAX_STRING, "symbol");
		check(!ev->u.frame.file || strlen(ev->u.frame.file) <= RF_MAX_STRING, "file");
		break;
	case RF_EV_COUNTERS:
		check(ev->u.counters.nr <= RF_MAX_COUNTERS, "too many counters");
		for (k = 0; k < ev->u.counters.nr; k++)
			check(ev->u.counters.entries[k].name &&
			      strlen(ev->u.counters.entries[k].name) <= RF_MAX_STRING, "counter name");
		break;
	}
}

/* Read to the end; with SKIP_DAMAGED every error must move the reader on. */
static void read_all(struct rf_trace_reader *r, unsigned int flags, uint64_t file_size, long limit)
{
	struct rf_event ev;
	uint64_t errors = 0;
	int rc;

	while (limit-- && (rc = rf_trace_reader_next(r, &ev)) != 0) {
		if (rc == 1) {
			check_event(&ev);
			continue;
		}
		check(rc < 0, "next returned neither 1, 0 nor an error");
		check(strlen(rf_trace_reader_errmsg(r)) > 0, "an error without a message");
		if (!(flags & RF_READ_SKIP_DAMAGED)) {
			check(rf_trace_reader_next(r, &ev) < 0, "a failed reader came back to life");
			return;
		}
		check(++errors <= file_size + 1, "skipping damage makes no progress");
	}
}

static void read_batches(const char *path, unsigned int flags)
{
	struct rf_trace_reader *r;
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	uint64_t frames = 0;
	size_t i;
	int rc;

	if (rf_trace_reader_open(&r, path, flags)) {
		rf_trace_reader_close(r);
		return;
	}
	check(!rf_chunk_decoder_new(&d), "decoder");
	rf_event_batch_init(&b);
	while ((rc = rf_trace_reader_next_frame(r, &f)) != 0) {
		check(++frames <= rf_trace_reader_file_size(r) + 1, "framing makes no progress");
		if (rc < 0) {
			if (flags & RF_READ_SKIP_DAMAGED)
				continue;
			break;
		}
		check(f.offset + f.size <= rf_trace_reader_file_size(r), "frame beyond the file");
		if (rf_chunk_decode(d, f.data, f.size, f.offset, &b)) {
			check(strlen(rf_chunk_decoder_errmsg(d)) > 0, "a decode error without a message");
			continue;
		}
		for (i = 0; i < b.nr; i++)
			check_event(&b.events[i]);
	}
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	rf_trace_reader_close(r);
}

static void read_seeking(const char *path, unsigned int flags, uint64_t t)
{
	const struct rf_chunk_info *chunks;
	struct rf_trace_reader *r;
	long n;

	if (rf_trace_reader_open(&r, path, flags)) {
		rf_trace_reader_close(r);
		return;
	}
	n = rf_trace_reader_chunks(r, &chunks);
	if (n >= 0) {
		const char *dmg = rf_trace_reader_damage(r);

		check(!dmg || strlen(dmg) > 0, "damage without a description");
		check(rf_trace_reader_good_end(r) <= rf_trace_reader_file_size(r), "good end past the end");
		if (n > 0 && !rf_trace_reader_seek_chunk(r, (uint64_t)n / 2))
			read_all(r, flags, rf_trace_reader_file_size(r), 64);
		if (!rf_trace_reader_seek_time(r, t))
			read_all(r, flags, rf_trace_reader_file_size(r), 64);
		check(rf_trace_reader_seek_chunk(r, (uint64_t)n + 1) == RF_ERR_RANGE,
		      "seek past the last chunk accepted");
	}
	(void)strlen(rf_trace_reader_index_problem(r));
	rf_trace_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int flag_sets[] = {
		0, RF_READ_SKIP_DAMAGED, RF_READ_NO_INDEX, RF_READ_SKIP_DAMAGED | RF_READ_NO_INDEX,
	};
	struct buf im = { 0 };
	struct rf_trace_reader *r;
	char path[64];
	uint64_t t = 0;
	unsigned int i;
	int fd;

	build_image(&im, data, size);
	fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
	check(fd >= 0, "memfd");
	check(im.len == 0 || write(fd, im.p, im.len) == (ssize_t)im.len, "memfd write");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (size >= 8)
		memcpy(&t, data + size - 8, 8);
	t %= 20000;	/* inside the sample events' times */

	for (i = 0; i < ARRAY_SIZE(flag_sets); i++) {
		unsigned int flags = flag_sets[i];

		if (!rf_trace_reader_open(&r, path, flags))
			read_all(r, flags, im.len, -1);
		else if (r)
			check(strlen(rf_trace_reader_errmsg(r)) > 0, "open failed without a message");
		rf_trace_reader_close(r);
		read_batches(path, flags);
		read_seeking(path, flags, t);
	}
	close(fd);
	free(im.p);
	return 0;
}
