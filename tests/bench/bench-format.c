/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench-format: size and speed of the trace format (issue 2, "Measured").
 *
 *   bench-format [-n millions] [-r repeats] [-d dir]
 *
 * Writes and reads three event streams through librefault-trace, single
 * threaded:
 *   seq   one process reading one file page by page (file_read, nr = 1),
 *         with jittered timestamps as a recorder sees them (exact, 1 ns);
 *   mix   sequential file reads of single pages and of ranges over a few
 *         files, random anonymous faults over 4 GiB, and file mmap faults,
 *         on 4 CPUs and 4 pids, the same jittered times;
 *   rand  one process reading single pages of a 16 GiB file at random
 *         (4 Mi pages), a page every microsecond, as `refault gen` or `trace
 *         convert` of a cache trace writes its times.
 * In the same run, baselines: the trace written as format 2.6 (an array
 * of msgpack values an event, what refault wrote before 3.0); the same
 * events in a naive fixed-width 32-byte record, chunked like the trace
 * (65536 events a chunk) and compressed with zstd -3; and for size, zstd -3
 * of the raw page keys (one 8-byte little-endian id a page referenced: the
 * file's number << 32 | the page's index, anonymous pages as a file of
 * their own), what a cache simulator's trace holds.  It prints events/s for
 * writing and for decoding (rf_trace_reader_next, and next_frame +
 * rf_chunk_decode) and bytes/event, then the targets against them.
 * Decode figures are the best of -r runs over a file in the page cache.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

#include <refault/trace.h>

#define NAIVE_CHUNK	65536u

/* The baseline's record: what a first attempt at a binary trace would write. */
struct naive_rec {
	uint64_t time;
	uint64_t object;	/* ino, or mm */
	uint64_t position;	/* page index, or address */
	int32_t pid;
	uint8_t cpu;
	uint8_t type;
	uint8_t nr;		/* pages in a range; order for faults */
	uint8_t flags;
};

_Static_assert(sizeof(struct naive_rec) == 32, "the baseline record is 32 bytes");

enum kind { SEQ, MIX, RAND };

struct stream {
	const char *name;
	uint64_t n;
	enum kind kind;
	/* generator state */
	uint64_t rng, i, time;
	uint64_t file_pos[4];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rnd(struct stream *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 7;
	s->rng ^= s->rng << 17;
	return s->rng;
}

static void stream_reset(struct stream *s)
{
	memset(s->file_pos, 0, sizeof(s->file_pos));
	s->rng = 0x2545F4914F6CDD1Dull;
	s->i = 0;
	s->time = 1000000000ull;
}

static void next_event(struct stream *s, struct rf_event *ev)
{
	uint64_t r = rnd(s), pick = r % 100;
	unsigned int f;

	memset(ev, 0, sizeof(*ev));
	s->time += s->kind == RAND ? 1000 : 150 + (r >> 40) % 200;	/* jittered */
	ev->time = s->time;
	s->i++;
	if (s->kind == RAND) {
		ev->type = RF_EV_FILE_READ;
		ev->cpu = 1;
		ev->pid = 4243;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 131077;
		ev->u.file.index = (r >> 11) % (1u << 22);
		ev->u.file.nr = 1;
		return;
	}
	if (s->kind == SEQ) {
		ev->type = RF_EV_FILE_READ;
		ev->cpu = 2;
		ev->pid = 4242;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 131073;
		ev->u.file.index = s->file_pos[0]++;
		ev->u.file.nr = 1;
		return;
	}
	ev->cpu = (uint32_t)(r >> 20) % 4;
	ev->pid = 5000 + (int32_t)((r >> 24) % 4);
	if (pick < 45) {		/* sequential single-page reads over 4 files */
		f = (unsigned int)(r >> 32) % 4;
		ev->type = RF_EV_FILE_READ;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 131073 + f;
		ev->u.file.index = s->file_pos[f]++;
		ev->u.file.nr = 1;
	} else if (pick < 55) {		/* readahead-sized ranges */
		f = (unsigned int)(r >> 32) % 4;
		ev->type = RF_EV_FILE_READ;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 131073 + f;
		ev->u.file.index = s->file_pos[f];
		ev->u.file.nr = 32;
		s->file_pos[f] += 32;
	} else if (pick < 85) {		/* random anonymous faults over 4 GiB */
		ev->type = RF_EV_ANON_FAULT;
		ev->u.anon.mm = 0xffff888102a3c000ull;
		ev->u.anon.addr = 0x7f3a00000000ull + (rnd(s) % (1ull << 20)) * 4096;
		ev->u.anon.flags = r & 1 ? RF_REF_WRITE : 0;
	} else {			/* mmap faults on a mapped file, mostly nearby */
		ev->type = RF_EV_FILE_FAULT;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 262147;
		ev->u.file.index = (s->i / 8) + (r >> 50) % 16;
		ev->u.file.mm = 0xffff888102a3c000ull;
		ev->u.file.flags = RF_REF_SEQ;
	}
}

static void to_naive(const struct rf_event *ev, struct naive_rec *n)
{
	memset(n, 0, sizeof(*n));
	n->time = ev->time;
	n->pid = ev->pid;
	n->cpu = (uint8_t)ev->cpu;
	n->type = (uint8_t)ev->type;
	if (ev->type == RF_EV_ANON_FAULT) {
		n->object = ev->u.anon.mm;
		n->position = ev->u.anon.addr;
		n->nr = ev->u.anon.order;
		n->flags = ev->u.anon.flags;
	} else {
		n->object = ev->u.file.ino;
		n->position = ev->u.file.index;
		n->nr = ev->type == RF_EV_FILE_FAULT ? ev->u.file.order : (uint8_t)ev->u.file.nr;
		n->flags = ev->u.file.flags;
	}
}

static void from_naive(const struct naive_rec *n, struct rf_event *ev)
{
	ev->time = n->time;
	ev->pid = n->pid;
	ev->cpu = n->cpu;
	ev->type = n->type;
	if (n->type == RF_EV_ANON_FAULT) {
		ev->u.anon.mm = n->object;
		ev->u.anon.addr = n->position;
		ev->u.anon.order = n->nr;
		ev->u.anon.flags = n->flags;
	} else {
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = n->object;
		ev->u.file.index = n->position;
		ev->u.file.nr = n->type == RF_EV_FILE_FAULT ? 0 : n->nr;
		ev->u.file.order = n->type == RF_EV_FILE_FAULT ? n->nr : 0;
		ev->u.file.flags = n->flags;
	}
}

struct result {
	double write_s, next_s, batch_s, zstd_s, naive_write_s, naive_s, v2_batch_s;
	uint64_t bytes, naive_bytes, v2_bytes, key_bytes;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "bench-format: %s: %s\n", what, rf_strerror(err));
	exit(1);
}

/* A checksum of what was decoded, so the decoders' work cannot be skipped or be wrong. */
static uint64_t fold(uint64_t sum, const struct rf_event *ev)
{
	return sum * 31 + ev->time + ev->u.file.index + ev->u.anon.addr + ev->type;
}

/* The trace, in format @major (0: this library's); its bytes into *@bytes, the checksum returned. */
static uint64_t write_trace(struct stream *s, const char *path, uint32_t major, double *secs,
			    uint64_t *bytes)
{
	struct rf_writer_options wo = { .version_major = major };
	struct rf_trace_writer *w;
	struct rf_trace_header h;
	struct rf_event ev;
	struct stat st;
	uint64_t sum = 0, i;
	double t0;
	int err;

	rf_trace_header_init(&h, "bench-format");
	h.synthetic = true;
	stream_reset(s);
	t0 = now();
	err = rf_trace_writer_open(&w, path, &h, &wo);
	if (err)
		die(path, err);
	for (i = 0; i < s->n; i++) {
		next_event(s, &ev);
		sum = fold(sum, &ev);
		err = rf_trace_writer_append(w, &ev);
		if (err)
			die("append", err);
	}
	err = rf_trace_writer_close(w);
	if (err)
		die("close", err);
	*secs = now() - t0;
	if (stat(path, &st))
		die(path, -1);
	*bytes = (uint64_t)st.st_size;
	return sum;
}

/* zstd -3 of the raw page keys, one 8-byte little-endian id a page referenced: its bytes. */
static uint64_t raw_keys_zstd(struct stream *s)
{
	enum { KEYS = 1 << 16 };
	uint64_t *keys = malloc(KEYS * 8 + 64 * 8), i, total = 0, page;
	size_t nk = 0, cap = ZSTD_CStreamOutSize();
	void *out = malloc(cap);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	struct rf_event ev;

	if (!keys || !out || !cc)
		die("raw keys", RF_ERR_NOMEM);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
	stream_reset(s);
	for (i = 0; i < s->n; i++) {
		next_event(s, &ev);
		if (ev.type == RF_EV_ANON_FAULT) {
			keys[nk++] = 1000ull << 32 | (ev.u.anon.addr >> 12 & 0xffffffffu);
		} else {
			uint64_t nr = ev.type == RF_EV_FILE_READ ? ev.u.file.nr : 1;

			for (page = 0; page < nr; page++)
				keys[nk++] = (ev.u.file.ino - 131072) << 32 | (ev.u.file.index + page);
		}
		if (nk >= KEYS || i + 1 == s->n) {
			ZSTD_inBuffer in = { keys, nk * 8, 0 };
			ZSTD_EndDirective end = i + 1 == s->n ? ZSTD_e_end : ZSTD_e_continue;
			size_t left;

			do {
				ZSTD_outBuffer o = { out, cap, 0 };

				left = ZSTD_compressStream2(cc, &o, &in, end);
				if (ZSTD_isError(left))
					die("zstd", RF_ERR_ZSTD);
				total += o.pos;
			} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
			nk = 0;
		}
	}
	ZSTD_freeCCtx(cc);
	free(out);
	free(keys);
	return total;
}

static double read_next(const char *path, uint64_t n, uint64_t want)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	uint64_t sum = 0, got = 0;
	double t0 = now();
	int rc, err;

	err = rf_trace_reader_open(&r, path, 0);
	if (err)
		die(path, err);
	while ((rc = rf_trace_reader_next(r, &ev)) == 1) {
		sum = fold(sum, &ev);
		got++;
	}
	if (rc < 0)
		die(rf_trace_reader_errmsg(r), rc);
	rf_trace_reader_close(r);
	if (got != n || sum != want)
		die("rf_trace_reader_next returned other events than were written", RF_ERR_CORRUPT);
	return now() - t0;
}

static double read_batches(const char *path, uint64_t n, uint64_t want)
{
	struct rf_trace_reader *r;
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_frame f;
	uint64_t sum = 0, got = 0;
	double t0 = now();
	size_t i;
	int rc, err;

	err = rf_trace_reader_open(&r, path, 0);
	if (err)
		die(path, err);
	if (rf_chunk_decoder_new(&d))
		die("decoder", RF_ERR_NOMEM);
	rf_event_batch_init(&b);
	while ((rc = rf_trace_reader_next_frame(r, &f)) == 1) {
		err = rf_chunk_decode(d, f.data, f.size, f.offset, &b);
		if (err)
			die(rf_chunk_decoder_errmsg(d), err);
		for (i = 0; i < b.nr; i++)
			sum = fold(sum, &b.events[i]);
		got += b.nr;
	}
	if (rc < 0)
		die(rf_trace_reader_errmsg(r), rc);
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	rf_trace_reader_close(r);
	if (got != n || sum != want)
		die("rf_chunk_decode returned other events than were written", RF_ERR_CORRUPT);
	return now() - t0;
}

/* Only the zstd part of decoding the trace: what no msgpack decoder can go below. */
static double read_zstd_only(const char *path)
{
	struct rf_trace_reader *r;
	struct rf_frame f;
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	size_t cap = 8u << 20, got;
	void *out = malloc(cap);
	double t0 = now();
	int rc, err;

	err = rf_trace_reader_open(&r, path, 0);
	if (err || !dc || !out)
		die(path, err ? err : RF_ERR_NOMEM);
	while ((rc = rf_trace_reader_next_frame(r, &f)) == 1) {
		got = ZSTD_decompressDCtx(dc, out, cap, f.data, f.size);
		if (ZSTD_isError(got))
			die("zstd", RF_ERR_ZSTD);
	}
	rf_trace_reader_close(r);
	ZSTD_freeDCtx(dc);
	free(out);
	return now() - t0;
}

/* The baseline: [u32 compressed size][zstd -3 frame of up to 65536 records]... */
static void write_naive(struct stream *s, const char *path, struct result *res)
{
	struct naive_rec *recs = malloc(NAIVE_CHUNK * sizeof(*recs));
	size_t cap = ZSTD_compressBound(NAIVE_CHUNK * sizeof(*recs)), nr = 0, z;
	void *out = malloc(cap);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	FILE *f = fopen(path, "wb");
	struct rf_event ev;
	uint64_t i;
	uint32_t len;
	double t0;

	if (!recs || !out || !cc || !f)
		die(path, RF_ERR_IO);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	stream_reset(s);
	res->naive_bytes = 0;
	t0 = now();
	for (i = 0; i < s->n; i++) {
		next_event(s, &ev);
		to_naive(&ev, &recs[nr++]);
		if (nr == NAIVE_CHUNK || i + 1 == s->n) {
			z = ZSTD_compress2(cc, out, cap, recs, nr * sizeof(*recs));
			if (ZSTD_isError(z))
				die("zstd", RF_ERR_ZSTD);
			len = (uint32_t)z;
			fwrite(&len, 4, 1, f);
			fwrite(out, 1, z, f);
			res->naive_bytes += 4 + z;
			nr = 0;
		}
	}
	if (fclose(f))
		die(path, RF_ERR_IO);
	res->naive_write_s = now() - t0;
	ZSTD_freeCCtx(cc);
	free(out);
	free(recs);
}

static double read_naive(const char *path, uint64_t n, uint64_t want)
{
	struct naive_rec *recs = malloc(NAIVE_CHUNK * sizeof(*recs));
	size_t cap = 0, got;
	void *in = NULL;
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	FILE *f = fopen(path, "rb");
	struct rf_event ev;
	uint64_t sum = 0, total = 0;
	uint32_t len;
	double t0 = now();
	size_t i, nr;

	if (!recs || !dc || !f)
		die(path, RF_ERR_IO);
	memset(&ev, 0, sizeof(ev));
	while (fread(&len, 4, 1, f) == 1) {
		if (len > cap) {
			in = realloc(in, len);
			cap = len;
		}
		if (fread(in, 1, len, f) != len)
			die(path, RF_ERR_TRUNCATED);
		got = ZSTD_decompressDCtx(dc, recs, NAIVE_CHUNK * sizeof(*recs), in, len);
		if (ZSTD_isError(got))
			die("zstd", RF_ERR_ZSTD);
		nr = got / sizeof(*recs);
		for (i = 0; i < nr; i++) {
			from_naive(&recs[i], &ev);
			sum = fold(sum, &ev);
		}
		total += nr;
	}
	fclose(f);
	ZSTD_freeDCtx(dc);
	free(in);
	free(recs);
	if (total != n || sum != want)
		die("the baseline decoded other events than were written", RF_ERR_CORRUPT);
	return now() - t0;
}

static double best(double a, double b)
{
	return a < b ? a : b;
}

static void run(struct stream *s, const char *dir, int repeats, struct result *res)
{
	char path[4096], npath[4096], vpath[4096];
	uint64_t want;
	double v2_write;
	int k;

	snprintf(path, sizeof(path), "%s/bench-format-%d.rft", dir, (int)getpid());
	snprintf(vpath, sizeof(vpath), "%s/bench-format-%d-2.6.rft", dir, (int)getpid());
	snprintf(npath, sizeof(npath), "%s/bench-format-%d.naive", dir, (int)getpid());
	want = write_trace(s, path, 0, &res->write_s, &res->bytes);
	if (write_trace(s, vpath, 2, &v2_write, &res->v2_bytes) != want)
		die("the two formats were written other events", RF_ERR_INVAL);
	write_naive(s, npath, res);
	res->key_bytes = raw_keys_zstd(s);
	res->next_s = res->batch_s = res->zstd_s = res->naive_s = res->v2_batch_s = 1e30;
	for (k = 0; k < repeats; k++) {
		res->next_s = best(res->next_s, read_next(path, s->n, want));
		res->batch_s = best(res->batch_s, read_batches(path, s->n, want));
		res->v2_batch_s = best(res->v2_batch_s, read_batches(vpath, s->n, want));
		res->naive_s = best(res->naive_s, read_naive(npath, s->n, want));
		res->zstd_s = best(res->zstd_s, read_zstd_only(path));
	}
	unlink(path);
	unlink(vpath);
	unlink(npath);

#define MEPS(t) (s->n / (t) / 1e6)
#define BPE(b) ((double)(b) / s->n)
	printf("%-4s %6.2f M events\n", s->name, s->n / 1e6);
	printf("  size      trace %6.3f bytes/event   format 2.6 %6.3f   naive+zstd-3 %6.3f   "
	       "zstd -3 of the raw page keys %6.3f\n", BPE(res->bytes), BPE(res->v2_bytes),
	       BPE(res->naive_bytes), BPE(res->key_bytes));
	printf("  write     trace %7.1f M events/s     naive+zstd-3 %7.1f M events/s\n",
	       MEPS(res->write_s), MEPS(res->naive_write_s));
	printf("  decode    next() %6.1f M events/s    next_frame+rf_chunk_decode %6.1f M events/s"
	       "    format 2.6 %6.1f    naive+zstd-3 %6.1f M events/s\n",
	       MEPS(res->next_s), MEPS(res->batch_s), MEPS(res->v2_batch_s), MEPS(res->naive_s));
	printf("  of which  zstd alone on the trace's frames %6.1f M events/s (%.1f ns of the %.1f ns an event)\n",
	       MEPS(res->zstd_s), res->zstd_s / s->n * 1e9, res->batch_s / s->n * 1e9);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	double millions = 10;
	int repeats = 3, c, i;
	struct stream streams[] = {
		{ .name = "seq", .kind = SEQ }, { .name = "mix", .kind = MIX },
		{ .name = "rand", .kind = RAND },
	};
	struct result res[3];

	while ((c = getopt(argc, argv, "n:r:d:")) != -1) {
		switch (c) {
		case 'n': millions = atof(optarg); break;
		case 'r': repeats = atoi(optarg); break;
		case 'd': dir = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n millions-of-events] [-r repeats] [-d dir]\n", argv[0]);
			return 2;
		}
	}
	if (millions <= 0 || repeats < 1) {
		fprintf(stderr, "%s: -n and -r must be positive\n", argv[0]);
		return 2;
	}
	printf("bench-format: %.2f M events per stream, best of %d decodes, one thread, files in %s\n",
	       millions, repeats, dir);
	memset(res, 0, sizeof(res));
	for (i = 0; i < 3; i++) {
		streams[i].n = (uint64_t)(millions * 1e6);
		run(&streams[i], dir, repeats, &res[i]);
	}
	/* issue 18's targets, each a figure of this run */
	printf("targets (issue 18):\n");
	printf("  decode seq >= 100 M events/s a core: %.1f M events/s through rf_chunk_decode, "
	       "%.2fx format 2.6's, %.2fx the naive baseline's: %s\n",
	       streams[0].n / res[0].batch_s / 1e6, res[0].v2_batch_s / res[0].batch_s,
	       res[0].naive_s / res[0].batch_s,
	       streams[0].n / res[0].batch_s >= 100e6 ? "met" : "NOT met");
	for (i = 0; i < 3; i++)
		printf("  size %-4s <= zstd -3 of its raw page keys: %.3f of them (%.3f against %.3f "
		       "bytes/event): %s\n", streams[i].name,
		       (double)res[i].bytes / res[i].key_bytes, (double)res[i].bytes / streams[i].n,
		       (double)res[i].key_bytes / streams[i].n,
		       res[i].bytes <= res[i].key_bytes ? "met" : "NOT met");
	return 0;
}
