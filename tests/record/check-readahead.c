/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Checks the file_readahead events of a recording of workload-readahead
 * (TAP): a cold sequential read() of READ_FILE, a warm re-read of it, then a
 * cold mmap'ed read of MMAP_FILE, then WRITE_FILE written anew.  The kernel's
 * own pagecache_add observations in the same trace say which folios it
 * brought in and of what order; the references say when the program touched
 * them.
 *
 *   check-readahead TRACE READ_FILE MMAP_FILE WRITE_FILE
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <refault/trace.h>

#include "recorder/norm.h"
#include "tests/lib/tap.h"

#define PAGE 4096u

/* What the trace says of one file, page by page. */
struct rfile {
	uint32_t dev;
	uint64_t ino;
	uint64_t pages;
	uint8_t *hits;		/* references so far */
	int8_t *add_order;	/* order of the folio the kernel added it in, -1: none seen */
	int8_t *ra_order;	/* order a file_readahead gave it, -1: none yet */
	uint64_t ra_events;
	uint64_t ra_twice;	/* pages read ahead again while cached */
	uint64_t late;		/* pages first touched before any file_readahead named them */
	uint64_t first_touches;
	uint64_t warm_ra;	/* pages read ahead once the re-read began */
	bool rereading;
};

struct facts {
	struct rfile rd, mm;
	uint32_t trace_dev, wr_dev;
	uint64_t trace_ino, wr_ino;
	uint64_t ra_of_trace, ra_of_written, adds_of_written;
	struct rf_event first_ra_of_written;	/* to say which, when there is one */
	uint64_t faults;
	struct rec_u64_map pfn_cg;	/* pfn -> cgroup of its page-cache add, while cached */
	uint64_t lru_joined, lru_wrong_cg;
};

static void stat_id(const char *path, uint32_t *dev, uint64_t *ino, uint64_t *size)
{
	struct stat st;

	if (stat(path, &st)) {
		perror(path);
		exit(1);
	}
	*dev = major(st.st_dev) << 20 | minor(st.st_dev);
	*ino = st.st_ino;
	if (size)
		*size = st.st_size;
}

static void rfile_init(struct rfile *f, const char *path)
{
	uint64_t size;

	stat_id(path, &f->dev, &f->ino, &size);
	f->pages = (size + PAGE - 1) / PAGE;
	f->hits = calloc(f->pages, 1);
	f->add_order = malloc(f->pages);
	f->ra_order = malloc(f->pages);
	if (!f->hits || !f->add_order || !f->ra_order)
		exit(1);
	memset(f->add_order, -1, f->pages);
	memset(f->ra_order, -1, f->pages);
}

static struct rfile *which(struct facts *x, const struct rf_event *ev)
{
	if (ev->u.file.dev == x->rd.dev && ev->u.file.ino == x->rd.ino)
		return &x->rd;
	if (ev->u.file.dev == x->mm.dev && ev->u.file.ino == x->mm.ino)
		return &x->mm;
	return NULL;
}

static void touch(struct rfile *f, uint64_t first, uint64_t nr)
{
	uint64_t i;

	for (i = first; i < first + nr && i < f->pages; i++) {
		if (f->hits[i])
			f->rereading = true;
		else {
			f->first_touches++;
			f->late += f->ra_order[i] < 0;
		}
		if (f->hits[i] < 255)
			f->hits[i]++;
	}
}

static void read_ahead(struct rfile *f, const struct rf_event *ev)
{
	uint64_t i;

	f->ra_events++;
	for (i = ev->u.file.index; i < ev->u.file.index + ev->u.file.nr && i < f->pages; i++) {
		f->ra_twice += f->ra_order[i] >= 0;
		f->warm_ra += f->rereading;
		f->ra_order[i] = (int8_t)ev->u.file.order;
	}
}

static void added(struct rfile *f, const struct rf_event *ev)
{
	uint64_t i, end = ev->u.file.index + (1ull << ev->u.file.order);

	for (i = ev->u.file.index; i < end && i < f->pages; i++)
		f->add_order[i] = (int8_t)ev->u.file.order;
}

static void see(struct facts *x, const struct rf_event *ev)
{
	bool file_ev = ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_FAULT ||
		       ev->type == RF_EV_FILE_READAHEAD || ev->type == RF_EV_PAGECACHE_ADD;
	struct rfile *f = file_ev ? which(x, ev) : NULL;
	uint64_t *cg;

	switch (ev->type) {
	case RF_EV_FILE_READAHEAD:
		x->ra_of_trace += ev->u.file.dev == x->trace_dev && ev->u.file.ino == x->trace_ino;
		if (ev->u.file.dev == x->wr_dev && ev->u.file.ino == x->wr_ino &&
		    !x->ra_of_written++)
			x->first_ra_of_written = *ev;
		if (f)
			read_ahead(f, ev);
		break;
	case RF_EV_FILE_READ:
		if (f)
			touch(f, ev->u.file.index, ev->u.file.nr);
		break;
	case RF_EV_FILE_FAULT:
		if (f) {
			x->faults += f == &x->mm;
			touch(f, ev->u.file.index, 1ull << ev->u.file.order);
		}
		break;
	case RF_EV_PAGECACHE_ADD:
		if (f)
			added(f, ev);
		x->adds_of_written += ev->u.file.dev == x->wr_dev && ev->u.file.ino == x->wr_ino;
		rec_u64_map_put(&x->pfn_cg, ev->u.file.pfn, ev->u.file.cgroup);
		break;
	case RF_EV_PAGECACHE_DEL:
		rec_u64_map_del(&x->pfn_cg, ev->u.file.pfn, NULL);
		break;
	case RF_EV_LRU_ADD:
		cg = rec_u64_map_get(&x->pfn_cg, ev->u.lru.pfn);
		if (cg) {
			x->lru_joined++;
			x->lru_wrong_cg += *cg != ev->u.lru.cgroup;
		}
		break;
	default:
		break;
	}
}

/* Pages the kernel added, pages read ahead, and pages whose two orders differ. */
static void orders(const struct rfile *f, uint64_t *adds, uint64_t *ra, uint64_t *differ)
{
	uint64_t i;

	*adds = *ra = *differ = 0;
	for (i = 0; i < f->pages; i++) {
		*adds += f->add_order[i] >= 0;
		*ra += f->ra_order[i] >= 0;
		*differ += f->add_order[i] >= 0 && f->ra_order[i] != f->add_order[i];
	}
}

static uint64_t read_twice(const struct rfile *f)
{
	uint64_t i, n = 0;

	for (i = 0; i < f->pages; i++)
		n += f->hits[i] == 2;
	return n;
}

int main(int argc, char **argv)
{
	struct facts x = { 0 };
	struct rf_trace_reader *r;
	uint64_t adds, ra, differ;
	struct rf_event ev;
	int ret;

	if (argc != 5) {
		fprintf(stderr, "usage: check-readahead TRACE READ_FILE MMAP_FILE WRITE_FILE\n");
		return 2;
	}
	rfile_init(&x.rd, argv[2]);
	rfile_init(&x.mm, argv[3]);
	stat_id(argv[1], &x.trace_dev, &x.trace_ino, NULL);
	stat_id(argv[4], &x.wr_dev, &x.wr_ino, NULL);
	plan(11);
	ret = rf_trace_reader_open(&r, argv[1], 0);
	if (!ret)
		while ((ret = rf_trace_reader_next(r, &ev)) > 0)
			see(&x, &ev);
	ok(ret == 0, "trace reads to the end without error%s%s", ret ? ": " : "",
	   ret && r ? rf_trace_reader_errmsg(r) : "");

	orders(&x.rd, &adds, &ra, &differ);
	ok(adds == x.rd.pages && read_twice(&x.rd) == x.rd.pages,
	   "cold read: the kernel added every page (%" PRIu64 "/%" PRIu64
	   "), the program read each twice", adds, x.rd.pages);
	ok(ra == x.rd.pages && x.rd.ra_twice == 0,
	   "cold read: every page is in one file_readahead (%" PRIu64 "/%" PRIu64 " in %" PRIu64
	   " events, %" PRIu64 " twice)", ra, x.rd.pages, x.rd.ra_events, x.rd.ra_twice);
	ok(differ == 0, "cold read: file_readahead orders are the pagecache_add orders (%" PRIu64
	   " pages differ)", differ);
	ok(x.rd.late == 0 && x.rd.first_touches == x.rd.pages,
	   "cold read: each page is read ahead before the file_read that first touches it (%" PRIu64
	   " of %" PRIu64 " late)", x.rd.late, x.rd.first_touches);
	ok(x.rd.rereading && x.rd.warm_ra == 0,
	   "warm re-read: no file_readahead (%" PRIu64 " pages)", x.rd.warm_ra);

	orders(&x.mm, &adds, &ra, &differ);
	ok(adds == x.mm.pages && ra == x.mm.pages && differ == 0,
	   "mmap: every page added is in a file_readahead of its order (%" PRIu64 " added, %" PRIu64
	   " read ahead in %" PRIu64 " events, %" PRIu64 " differ, of %" PRIu64 ")", adds, ra,
	   x.mm.ra_events, differ, x.mm.pages);
	ok(x.faults > 0 && x.mm.late == 0 && x.mm.first_touches == x.mm.pages,
	   "mmap: each page is read ahead before the file_fault that first touches it (%" PRIu64
	   " of %" PRIu64 " late, %" PRIu64 " faults)", x.mm.late, x.mm.first_touches, x.faults);
	ok(x.ra_of_trace == 0, "no file_readahead of the trace file itself (%" PRIu64 ")",
	   x.ra_of_trace);
	if (x.ra_of_written)
		diag("the first file_readahead of the written file: t=%" PRIu64 " pid %d index %" PRIu64
		     " nr %" PRIu64 " order %u (the adds before it: %" PRIu64 ")",
		     x.first_ra_of_written.time, x.first_ra_of_written.pid,
		     x.first_ra_of_written.u.file.index, x.first_ra_of_written.u.file.nr,
		     x.first_ra_of_written.u.file.order, x.adds_of_written);
	ok(x.adds_of_written > 0 && x.ra_of_written == 0,
	   "write(): page-cache adds (%" PRIu64 ") but no file_readahead (%" PRIu64 ")",
	   x.adds_of_written, x.ra_of_written);
	ok(x.lru_joined > 0 && x.lru_wrong_cg == 0,
	   "lru_add of page-cache pages carries the cgroup of their add (%" PRIu64 " of %" PRIu64
	   " differ)", x.lru_wrong_cg, x.lru_joined);
	rf_trace_reader_close(r);
	rec_u64_map_destroy(&x.pfn_cg);
	free(x.rd.hits);
	free(x.rd.add_order);
	free(x.rd.ra_order);
	free(x.mm.hits);
	free(x.mm.add_order);
	free(x.mm.ra_order);
	return done_testing();
}
