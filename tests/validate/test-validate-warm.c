/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pages cached before the trace (replayer/replay/warm.c), on a hand-written
 * trace: a task in a 1 MiB cgroup reads a file the trace never saw enter the
 * page cache (the program's own pages, say) and a page it saw leave and
 * enter again, streams 4 MiB through the limit, and reads the first file
 * again.  The kernel charged those pages elsewhere and kept them: the model
 * must start with them, charged outside the recorded cgroup, and neither
 * insert, charge nor evict them there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replayer/validate/validate-local.h"
#include "tests/lib/tap.h"

#define LIMIT_PAGES	256
#define STREAM_PAGES	1024
#define CHUNK		16
#define REC		10	/* the recorded cgroup's id */
#define OLD_FILE	7	/* read, cached before the trace */
#define OLD_MAP		8	/* faulted in a folio of 4, cached before the trace */
#define NEW_FILE	5	/* streamed: every page enters in the trace */
#define LEFT_FILE	9	/* cached before the trace, but seen leaving before it is read */

struct tw {
	struct rf_trace_writer *w;
	uint64_t t;
	uint64_t pfn;
};

static void put(struct tw *tw, struct rf_event ev)
{
	ev.time = tw->t += 1000;
	if (rf_trace_writer_append(tw->w, &ev))
		diag("append of a type %u event failed", ev.type);
}

static void cgroup_ev(struct tw *tw, uint16_t type, uint64_t id, uint64_t parent,
		      const char *path, uint64_t value)
{
	struct rf_event ev = { .type = type };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = path;
	ev.u.cgroup.value = value;
	ev.u.cgroup.kind = RF_LIMIT_MEMORY;
	ev.u.cgroup.pid = 100;
	put(tw, ev);
}

static void file_ev(struct tw *tw, uint16_t type, uint64_t ino, uint64_t index, uint64_t nr,
		    uint8_t order, uint64_t pfn)
{
	struct rf_event ev = { .type = type, .pid = 100 };

	ev.u.file.dev = 1;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = order;
	ev.u.file.pfn = pfn;
	ev.u.file.cgroup = REC;
	put(tw, ev);
}

static void memstat(struct tw *tw, uint64_t inactive_pages)
{
	struct rf_counter c[] = {
		{ "total_workingset_refault_file", 0 },
		{ "total_inactive_file", inactive_pages * 4096 },
		{ "total_active_file", 0 },
	};
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	ev.u.counters.cgroup = REC;
	ev.u.counters.source = RF_COUNTERS_MEMCG_STAT;
	ev.u.counters.entries = c;
	ev.u.counters.nr = sizeof(c) / sizeof(c[0]);
	put(tw, ev);
}

/* What the kernel did: CHUNK pages read ahead and read, the oldest ones evicted at the limit. */
static void stream_chunk(struct tw *tw, uint64_t index)
{
	uint64_t i;

	for (i = index; i < index + CHUNK; i++) {
		if (i >= LIMIT_PAGES)
			file_ev(tw, RF_EV_PAGECACHE_DEL, NEW_FILE, i - LIMIT_PAGES, 0, 0,
				100000 + i - LIMIT_PAGES);
		file_ev(tw, RF_EV_PAGECACHE_ADD, NEW_FILE, i, 0, 0, 100000 + i);
	}
	file_ev(tw, RF_EV_FILE_READAHEAD, NEW_FILE, index, CHUNK, 0, 0);
	file_ev(tw, RF_EV_FILE_READ, NEW_FILE, index, CHUNK, 0, 0);
}

static int write_trace(const char *path)
{
	struct rf_trace_header h;
	struct tw tw = { .t = 1000 };
	uint64_t i;

	rf_trace_header_init(&h, "test-validate-warm");
	snprintf(h.host.kernel_release, sizeof(h.host.kernel_release), "6.18.0-test");
	h.host.mem_bytes = 256ull << 20;
	h.host.page_size = 4096;
	h.host.cpus = 1;
	if (rf_trace_writer_open(&tw.w, path, &h, NULL))
		return -1;
	cgroup_ev(&tw, RF_EV_CGROUP_MKDIR, 1, 0, "/", 0);
	cgroup_ev(&tw, RF_EV_CGROUP_MKDIR, REC, 1, "/rec", 0);
	cgroup_ev(&tw, RF_EV_CGROUP_LIMIT, REC, 0, NULL, LIMIT_PAGES * 4096ull);
	cgroup_ev(&tw, RF_EV_CGROUP_ATTACH, REC, 0, NULL, 0);
	memstat(&tw, 0);
	/* cached before, but the trace sees it leave and enter again: not cached at the read */
	file_ev(&tw, RF_EV_PAGECACHE_DEL, LEFT_FILE, 0, 0, 0, 5000);
	file_ev(&tw, RF_EV_PAGECACHE_ADD, LEFT_FILE, 0, 0, 0, 5001);
	file_ev(&tw, RF_EV_FILE_READ, LEFT_FILE, 0, 1, 0, 0);
	/* hits for the kernel: no page-cache add before them, ever */
	file_ev(&tw, RF_EV_FILE_READ, OLD_FILE, 0, 16, 0, 0);
	file_ev(&tw, RF_EV_FILE_FAULT, OLD_MAP, 4, 0, 2, 0);
	for (i = 0; i < STREAM_PAGES; i += CHUNK)
		stream_chunk(&tw, i);
	file_ev(&tw, RF_EV_FILE_READ, OLD_FILE, 0, 16, 0, 0);
	file_ev(&tw, RF_EV_FILE_FAULT, OLD_MAP, 4, 0, 2, 0);
	memstat(&tw, LIMIT_PAGES);
	return rf_trace_writer_close(tw.w);
}

static long long model_of(const struct rf_validation *v, const char *scope, const char *q)
{
	const struct validate_row *r = validate_rows_find(v, scope, q);

	return r ? (long long)r->model : -1;
}

static struct rf_validation *run(const char *path, bool cold)
{
	struct rf_validate_opts o = { .tolerance = 0.05, .cold_cache = cold };
	struct rf_validation *v = NULL;
	char err[512];
	int e = rf_validate_run(&v, path, &o, err, sizeof(err));

	if (e)
		diag("validate%s: %s", cold ? " --cold-cache" : "", err);
	return e ? NULL : v;
}

static void warm(const char *path)
{
	struct rf_validation *v = run(path, false);
	const struct validate_row *r;

	if (!ok(v != NULL, "validate runs the trace")) {
		skip(7, "no validation");
		return;
	}
	is_int(v->preloaded, 16 + 4, "16 pages read and a folio of 4 faulted were pre-loaded, "
	       "not the page seen leaving and entering, nor the streamed ones");
	is_int(v->precached, 16 + 4, "... the pages the kernel side counts as cached before");
	is_int(v->slack, 0, "... and they are no slack");
	/* per memcg the model counts resident pages on its LRU: a per-CPU batch may hold some */
	ok(model_of(v, "/rec", "pagecache_add") <= STREAM_PAGES + 1 &&
	   model_of(v, "/rec", "pagecache_add") > STREAM_PAGES - 32,
	   "the recorded cgroup inserts the streamed pages only, none of the cached ones (%lld)",
	   model_of(v, "/rec", "pagecache_add"));
	is_int(model_of(v, "/rec", "workingset_refault_file"), 0,
	       "none of them was evicted from it and read again");
	is_int(model_of(v, "(trace)", "pagecache_add"), STREAM_PAGES + 1,
	       "the pre-loaded pages are no insertion of the trace either");
	r = validate_rows_find(v, "/rec", "pagecache_add");
	ok(r && r->ok, "insertions within 5 %% with no slack");
	rf_validation_free(v);
}

/* Without the pre-load the model charges them to the limit, evicts and reads them again. */
static void cold(const char *path)
{
	struct rf_validation *v = run(path, true);

	if (!ok(v != NULL, "validate --cold-cache runs the trace")) {
		skip(3, "no validation");
		return;
	}
	is_int(v->preloaded, 0, "--cold-cache: nothing pre-loaded");
	is_int(v->slack, 16 + 4, "... the pages cached before the trace are slack instead");
	ok(model_of(v, "/rec", "pagecache_add") >= STREAM_PAGES + 1 + 2 * (16 + 4),
	   "... and the recorded cgroup inserts them twice (%lld pages)",
	   model_of(v, "/rec", "pagecache_add"));
	rf_validation_free(v);
}

int main(void)
{
	char path[] = "/tmp/test-validate-warm.XXXXXX";
	int fd = mkstemp(path);

	plan(13);
	if (fd < 0)
		skip_all("cannot create a temporary file");
	close(fd);
	if (!ok(!write_trace(path), "a hand-written trace: cached pages read under a limit")) {
		unlink(path);
		return done_testing();
	}
	warm(path);
	cold(path);
	unlink(path);
	return done_testing();
}
