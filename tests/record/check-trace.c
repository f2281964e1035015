/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Checks a trace written by refault record against what a workload must have
 * made the kernel do (TAP), reads a cut-off trace as far as it goes, or dumps
 * events for debugging.  Uses only the reader API of include/refault/trace.h.
 *
 *   check-trace workload TRACE READ_FILE MMAP_FILE ANON_MIB STRIDE LIMIT CGROUP_NAME
 *   check-trace readable TRACE      (prints the events read; 1 if none)
 *   check-trace dump TRACE
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <refault/trace.h>

#include "tests/lib/tap.h"

#define MADV_PAGEOUT_ADVICE 21

struct file_ref {
	uint32_t dev;
	uint64_t ino;
	uint64_t pages;
	uint32_t *hits;		/* per page */
	uint64_t outside;	/* references past the end of the file */
};

struct facts {
	struct file_ref rd, mm;
	uint64_t events, lost_events, lost, anon_faults, pc_adds_rd, reclaims, madv_pageout;
	uint64_t unordered, end_seen, end_lost, lru_adds, lru_activates, exec_pid;
	uint64_t cg_id, cg_limit_ok, attach_ok, mkdir_seen, name_pid;
	uint64_t stride;	/* the workload touches every stride-th page of the mapped file */
	uint64_t around;	/* FILE_FAULTs of the mapped file that hold no touched page */
	int32_t workload_pid;
	char cg_suffix[64];
	uint64_t limit;
};

static uint32_t kdev(dev_t d)
{
	return major(d) << 20 | minor(d);
}

static void file_init(struct file_ref *f, const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		perror(path);
		exit(1);
	}
	f->dev = kdev(st.st_dev);
	f->ino = st.st_ino;
	f->pages = (st.st_size + 4095) / 4096;
	f->hits = calloc(f->pages, sizeof(*f->hits));
}

static void file_hit(struct file_ref *f, uint64_t first, uint64_t nr)
{
	uint64_t i;

	for (i = first; i < first + nr; i++) {
		if (i < f->pages)
			f->hits[i]++;
		else
			f->outside++;
	}
}

static bool same(const struct file_ref *f, uint32_t dev, uint64_t ino)
{
	return f->dev == dev && f->ino == ino;
}

static void see_cgroup(struct facts *x, const struct rf_event *ev)
{
	const char *p = ev->u.cgroup.path;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		if (p && strlen(p) >= strlen(x->cg_suffix) &&
		    !strcmp(p + strlen(p) - strlen(x->cg_suffix), x->cg_suffix)) {
			x->cg_id = ev->u.cgroup.id;
			x->mkdir_seen++;
		}
		break;
	case RF_EV_CGROUP_LIMIT:
		if (ev->u.cgroup.id == x->cg_id && ev->u.cgroup.kind == RF_LIMIT_MEMORY &&
		    ev->u.cgroup.value == x->limit)
			x->cg_limit_ok++;
		break;
	case RF_EV_CGROUP_ATTACH:
		if (x->cg_id && ev->u.cgroup.id == x->cg_id)
			x->attach_ok = ev->u.cgroup.pid;
		break;
	}
}

static void see(struct facts *x, const struct rf_event *ev, uint64_t *last_time)
{
	if (ev->time < *last_time)
		x->unordered++;
	*last_time = ev->time;
	x->events++;
	see_cgroup(x, ev);
	switch (ev->type) {
	case RF_EV_FILE_READ:
		if (same(&x->rd, ev->u.file.dev, ev->u.file.ino))
			file_hit(&x->rd, ev->u.file.index, ev->u.file.nr);
		break;
	case RF_EV_FILE_FAULT:
		if (same(&x->mm, ev->u.file.dev, ev->u.file.ino)) {
			uint64_t end = ev->u.file.index + (1ull << ev->u.file.order);

			file_hit(&x->mm, ev->u.file.index, 1ull << ev->u.file.order);
			/* the next touched page at or after index is past the folio */
			x->around += x->stride &&
				     (ev->u.file.index + x->stride - 1) / x->stride * x->stride >= end;
		}
		break;
	case RF_EV_ANON_FAULT: x->anon_faults++; break;
	case RF_EV_PAGECACHE_ADD: x->pc_adds_rd += same(&x->rd, ev->u.file.dev, ev->u.file.ino); break;
	case RF_EV_RECLAIM: x->reclaims++; break;
	case RF_EV_LRU_ADD: x->lru_adds++; break;
	case RF_EV_LRU_ACTIVATE: x->lru_activates++; break;
	case RF_EV_MADVISE: x->madv_pageout += ev->u.vma.advice == MADV_PAGEOUT_ADVICE; break;
	case RF_EV_LOST: x->lost_events++; x->lost += ev->u.lost.count; break;
	case RF_EV_END: x->end_seen++; x->end_lost = ev->u.end.nr_lost; break;
	case RF_EV_EXEC:
		if (ev->u.task.comm && !strcmp(ev->u.task.comm, "workload-readtw"))
			x->exec_pid = ev->pid;
		break;
	case RF_EV_NAME_PID: x->name_pid++; break;
	}
}

static uint64_t pages_with(const struct file_ref *f, uint32_t want, uint64_t stride)
{
	uint64_t i, n = 0;

	for (i = 0; i < f->pages; i += stride)
		n += want ? f->hits[i] == want : f->hits[i] >= 1;
	return n;
}

static int read_all(const char *path, struct facts *x, const struct rf_trace_header **hdr,
		    struct rf_trace_reader **out)
{
	struct rf_trace_reader *r;
	uint64_t last = 0;
	struct rf_event ev;
	int ret;

	ret = rf_trace_reader_open(&r, path, 0);
	if (ret) {
		printf("# cannot open %s: %s\n", path, r ? rf_trace_reader_errmsg(r) : "");
		return ret;
	}
	*hdr = rf_trace_reader_header(r);
	while ((ret = rf_trace_reader_next(r, &ev)) > 0)
		see(x, &ev, &last);
	if (ret < 0)
		printf("# read error: %s\n", rf_trace_reader_errmsg(r));
	*out = r;
	return ret;
}

static int check_workload(char **argv)
{
	struct facts x = { 0 };
	const struct rf_trace_header *h = NULL;
	struct rf_trace_reader *r = NULL;
	uint64_t stride = strtoull(argv[6], NULL, 0), anon_pages = strtoull(argv[5], NULL, 0) << 8;
	uint64_t touched;
	int ret;

	file_init(&x.rd, argv[3]);
	file_init(&x.mm, argv[4]);
	x.stride = stride;
	x.limit = strtoull(argv[7], NULL, 0);
	snprintf(x.cg_suffix, sizeof(x.cg_suffix), "/%s", argv[8]);
	plan(18);
	ret = read_all(argv[2], &x, &h, &r);
	ok(ret == 0, "trace reads to the end without error");
	ok(h && !strcmp(h->producer, "refault record") && !strcmp(h->clock, "mono") &&
	   !strcmp(h->pfns, "ids"), "header: producer 'refault record', clock mono, folio ids");
	ok(h && strstr(h->sources, "filemap:mm_filemap_get_pages") != NULL,
	   "header lists the tracepoints used");
	ok(x.unordered == 0, "events are in time order (%" PRIu64 " out of order)", x.unordered);
	ok(pages_with(&x.rd, 2, 1) == x.rd.pages,
	   "every page of the read file is in FILE_READ exactly twice (%" PRIu64 "/%" PRIu64 ")",
	   pages_with(&x.rd, 2, 1), x.rd.pages);
	ok(x.rd.outside == 0, "no FILE_READ past the end of the file (%" PRIu64 ")", x.rd.outside);
	ok(x.pc_adds_rd > 0, "page-cache adds of the read file (%" PRIu64 ")", x.pc_adds_rd);
	ok(pages_with(&x.mm, 0, stride) == (x.mm.pages + stride - 1) / stride,
	   "every touched page of the mapped file is covered by a FILE_FAULT (%" PRIu64 "/%" PRIu64 ")",
	   pages_with(&x.mm, 0, stride), (x.mm.pages + stride - 1) / stride);
	ok(x.mm.outside == 0, "no FILE_FAULT past the end of the mapped file");
	/*
	 * The file was read just before: every page is cached, and fault-around
	 * (16 pages on 6.18) maps the folios around each touched page, which the
	 * model must see referenced too: references that hold no touched page.
	 * Kernels without mm_filemap_map_pages: nothing to check.
	 */
	touched = (x.mm.pages + stride - 1) / stride;
	if (h && strstr(h->sources, "filemap:mm_filemap_map_pages"))
		ok(x.around > 0, "fault-around: folios mapped around a fault are referenced (%" PRIu64
		   " references, %" PRIu64 " pages for %" PRIu64 " touched)", x.around,
		   pages_with(&x.mm, 0, 1), touched);
	else
		skip(1, "no filemap:mm_filemap_map_pages on this kernel");
	ok(x.anon_faults >= anon_pages, "anonymous faults cover the region (%" PRIu64 " >= %" PRIu64 ")",
	   x.anon_faults, anon_pages);
	ok(x.madv_pageout == 1, "the MADV_PAGEOUT is recorded");
	ok(x.mkdir_seen == 1, "the --memcg-limit cgroup appears (id %" PRIu64 ")", x.cg_id);
	ok(x.cg_limit_ok >= 1, "its limit is recorded as %" PRIu64, x.limit);
	ok(x.attach_ok && (int64_t)x.attach_ok == (int64_t)x.exec_pid,
	   "the workload's attach to it appears (pid %" PRIu64 ", exec pid %" PRIu64 ")",
	   x.attach_ok, x.exec_pid);
	ok(x.reclaims > 0 && x.lru_adds > 0, "reclaim and LRU observations (%" PRIu64 ", %" PRIu64 ")",
	   x.reclaims, x.lru_adds);
	ok(x.lost_events == 0 && x.lost == 0, "0 lost events (%" PRIu64 " records)", x.lost);
	ok(x.end_seen == 1 && x.end_lost == 0, "an END event closes the trace");
	rf_trace_reader_close(r);
	free(x.rd.hits);
	free(x.mm.hits);
	return done_testing();
}

static int readable(const char *path)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	uint64_t n = 0;
	int ret = rf_trace_reader_open(&r, path, 0);

	if (ret) {
		printf("open failed: %s\n", r ? rf_trace_reader_errmsg(r) : rf_strerror(ret));
		rf_trace_reader_close(r);
		return 1;
	}
	while ((ret = rf_trace_reader_next(r, &ev)) > 0)
		n++;
	printf("%" PRIu64 " events, %s%s%s\n", n,
	       rf_trace_reader_has_index(r) ? "indexed" : "no index", ret < 0 ? ", then: " : "",
	       ret < 0 ? rf_trace_reader_errmsg(r) : "");
	rf_trace_reader_close(r);
	return n ? 0 : 1;
}

static int dump(const char *path)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	int ret = rf_trace_reader_open(&r, path, 0);

	if (ret) {
		printf("error: %s\n", r ? rf_trace_reader_errmsg(r) : rf_strerror(ret));
		rf_trace_reader_close(r);
		return 1;
	}
	while ((ret = rf_trace_reader_next(r, &ev)) > 0) {
		printf("%" PRIu64 " cpu%u pid%d %s", ev.time, ev.cpu, ev.pid,
		       rf_event_type_name(ev.type));
		if (ev.type <= RF_EV_FADVISE || ev.type == RF_EV_PAGECACHE_ADD ||
		    ev.type == RF_EV_PAGECACHE_DEL)
			printf(" dev=%u ino=%" PRIu64 " index=%" PRIu64 " nr=%" PRIu64 " order=%u",
			       ev.u.file.dev, ev.u.file.ino, ev.u.file.index, ev.u.file.nr,
			       ev.u.file.order);
		if (ev.type >= RF_EV_FORK && ev.type <= RF_EV_EXIT)
			printf(" pid=%d tgid=%d mm=%#" PRIx64 " cgroup=%" PRIu64, ev.u.task.pid,
			       ev.u.task.tgid, ev.u.task.mm, ev.u.task.cgroup);
		if (ev.type == RF_EV_NAME_PID)
			printf(" pid=%d tgid=%d mm=%#" PRIx64 " cgroup=%" PRIu64 " comm=%s", ev.u.task.pid,
			       ev.u.task.tgid, ev.u.task.mm, ev.u.task.cgroup,
			       ev.u.task.comm ? ev.u.task.comm : "-");
		if (ev.type >= RF_EV_CGROUP_MKDIR && ev.type <= RF_EV_CGROUP_LIMIT)
			printf(" id=%" PRIu64 " parent=%" PRIu64 " value=%" PRIu64 " pid=%d path=%s",
			       ev.u.cgroup.id, ev.u.cgroup.parent, ev.u.cgroup.value, ev.u.cgroup.pid,
			       ev.type == RF_EV_CGROUP_MKDIR ? ev.u.cgroup.path : "-");
		printf("\n");
	}
	if (ret < 0)
		printf("error: %s\n", r ? rf_trace_reader_errmsg(r) : "");
	rf_trace_reader_close(r);
	return ret < 0;
}

int main(int argc, char **argv)
{
	if (argc == 9 && !strcmp(argv[1], "workload"))
		return check_workload(argv);
	if (argc == 3 && !strcmp(argv[1], "readable"))
		return readable(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	fprintf(stderr, "usage: check-trace workload|readable|dump TRACE ...\n");
	return 2;
}
