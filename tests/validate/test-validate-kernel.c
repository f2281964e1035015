/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault validate's rules on a hand-written trace, no root needed: which
 * cgroup each observation is pinned on, what counts as a refill or a scan,
 * memory.stat's total_* over the local names, pages cached before the
 * trace, the profile a kernel release picks, and the u64 map under churn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replayer/validate/validate-local.h"
#include "tests/lib/tap.h"

static struct rf_trace_writer *w;

static void put(struct rf_event ev)
{
	static uint64_t t = 1000;

	ev.time = t += 1000;
	if (rf_trace_writer_append(w, &ev))
		diag("append of a type %u event failed", ev.type);
}

static void mkdir_ev(uint64_t id, uint64_t parent, const char *path)
{
	struct rf_event ev = { .type = RF_EV_CGROUP_MKDIR };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = path;
	put(ev);
}

static void file_ev(uint16_t type, uint64_t ino, uint64_t index, uint64_t nr, uint8_t order,
		    uint64_t pfn, uint64_t cgroup)
{
	struct rf_event ev = { .type = type, .pid = 100 };

	ev.u.file.dev = 1;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = order;
	ev.u.file.pfn = pfn;
	ev.u.file.cgroup = cgroup;
	put(ev);
}

/* A COUNTERS snapshot of @cgroup from @source. */
static void counters(uint64_t cgroup, enum rf_counter_source source, const struct rf_counter *c,
		     uint32_t nr)
{
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	ev.u.counters.cgroup = cgroup;
	ev.u.counters.source = source;
	ev.u.counters.entries = c;
	ev.u.counters.nr = nr;
	put(ev);
}

static void memstat(uint64_t cgroup, uint64_t refault_total, uint64_t inactive_pages,
		    uint64_t active_pages)
{
	/* the local names come first in memory.stat: they must not win over total_* */
	struct rf_counter c[] = {
		{ "workingset_refault_file", 0 }, { "inactive_file", 0 }, { "active_file", 0 },
		{ "total_workingset_refault_file", refault_total },
		{ "total_inactive_file", inactive_pages * 4096 },
		{ "total_active_file", active_pages * 4096 },
	};

	counters(cgroup, RF_COUNTERS_MEMCG_STAT, c, sizeof(c) / sizeof(c[0]));
}

static void reclaim(uint64_t scanned, uint64_t reclaimed, uint64_t activated,
		    uint64_t deactivated, uint8_t list)
{
	struct rf_event ev = { .type = RF_EV_RECLAIM, .pid = 100 };

	ev.u.reclaim.list = list;

	ev.u.reclaim.kind = RF_RECLAIM_MEMCG;
	ev.u.reclaim.cgroup = 11;
	ev.u.reclaim.file = 1;
	ev.u.reclaim.nr_scanned = scanned;
	ev.u.reclaim.nr_reclaimed = reclaimed;
	ev.u.reclaim.nr_activated = activated;
	ev.u.reclaim.nr_deactivated = deactivated;
	put(ev);
}

static int write_trace(const char *path)
{
	struct rf_trace_header h;
	struct rf_event ev = { 0 };

	rf_trace_header_init(&h, "test-validate-kernel");
	snprintf(h.host.kernel_release, sizeof(h.host.kernel_release), "6.18.0-test");
	h.host.mem_bytes = 64ull << 20;
	h.host.page_size = 4096;
	h.host.cpus = 2;
	if (rf_trace_writer_open(&w, path, &h, NULL))
		return -1;
	mkdir_ev(1, 0, "/");
	mkdir_ev(10, 1, "/a");
	mkdir_ev(11, 10, "/a/b");
	memstat(10, 0, 0, 0);
	/* created while recording: its counters start at 0, not at its first snapshot */
	mkdir_ev(12, 10, "/a/c");
	ev.type = RF_EV_CGROUP_ATTACH;
	ev.u.cgroup.id = 11;
	ev.u.cgroup.pid = 100;
	put(ev);
	/* an order-2 folio and a base page enter, charged to /a/b, and are read */
	file_ev(RF_EV_PAGECACHE_ADD, 5, 0, 0, 2, 1000, 11);
	file_ev(RF_EV_FILE_READ, 5, 0, 4, 0, 0, 0);
	file_ev(RF_EV_PAGECACHE_ADD, 5, 4, 0, 0, 2000, 11);
	file_ev(RF_EV_FILE_READ, 5, 4, 1, 0, 0, 0);
	/* the base page goes on the LRU (pinned by pfn) and is activated */
	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_LRU_ADD;
	ev.u.lru.pfn = 2000;
	ev.u.lru.cgroup = 11;
	ev.u.lru.lru = RF_LRU_INACTIVE_FILE;
	put(ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_LRU_ACTIVATE;
	ev.u.lru.pfn = 2000;
	put(ev);
	/* the folio leaves; so does a page of a file the trace never saw enter */
	file_ev(RF_EV_PAGECACHE_DEL, 5, 0, 0, 2, 1000, 0);
	file_ev(RF_EV_PAGECACHE_DEL, 6, 0, 0, 0, 3000, 0);
	/* as format 2.0 wrote them, the list not said */
	reclaim(10, 4, 1, 0, RF_RECLAIM_LIST_UNKNOWN);	/* inactive: scan 10, steal 4, activate 1 */
	reclaim(8, 0, 5, 3, RF_RECLAIM_LIST_UNKNOWN);	/* active list: refill 8 */
	/* 2.1: an inactive scan that activated all it took, which the guess takes for active */
	reclaim(6, 0, 6, 0, RF_RECLAIM_LIST_INACTIVE);
	/* 2.1: an active scan that deactivated nothing */
	reclaim(2, 0, 2, 0, RF_RECLAIM_LIST_ACTIVE);
	/* three pages read that never entered: cached before the trace */
	file_ev(RF_EV_FILE_READ, 7, 0, 3, 0, 0, 0);
	memstat(10, 7, 3, 1);
	memstat(12, 5, 1, 0);
	return rf_trace_writer_close(w);
}

static long long kernel_of(const struct rf_validation *v, const char *scope, const char *q)
{
	const struct validate_row *r = validate_rows_find(v, scope, q);

	return r ? (long long)r->kernel : -1;
}

static void rules(void)
{
	char path[] = "/tmp/test-validate-kernel.XXXXXX", err[512];
	struct rf_validate_opts o = { .tolerance = 0.05 };
	struct rf_validation *v = NULL;
	const struct validate_row *r;
	int fd = mkstemp(path), e;
	size_t i;
	bool unknown_note = false;

	close(fd);
	ok(!write_trace(path), "a hand-written trace with observations");
	e = rf_validate_run(&v, path, &o, err, sizeof(err));
	if (!is_int(e, 0, "validate runs it")) {
		diag("%s", err);
		unlink(path);
		return;
	}
	is_str(v->profile, "v6.18", "6.18.0 picks v6.18");
	is_int(kernel_of(v, "/a", "pagecache_add"), 5, "insertions of /a/b count in /a: 4 + 1");
	is_int(kernel_of(v, "/a/b", "pagecache_add"), 5, "... and in /a/b, where they were charged");
	is_int(kernel_of(v, "/a", "pagecache_del"), 4,
	       "the folio's deletion goes where it entered; the stranger's does not");
	is_int(kernel_of(v, "/a", "pgactivate"), 8,
	       "activations: one by pfn, one and six by inactive scans");
	is_int(kernel_of(v, "/a", "pgrefill"), 10,
	       "a 2.0 record with deactivations is an active scan, and a 2.1 one that says so");
	is_int(kernel_of(v, "/a", "pgscan_file"), 16,
	       "inactive scans: the 2.0 record by its reclaimed pages, the 2.1 one by its list");
	is_int(kernel_of(v, "/a", "pgsteal_file"), 4, "... with its reclaimed pages");
	is_int(kernel_of(v, "/a", "workingset_refault_file"), 7,
	       "memory.stat: total_workingset_refault_file wins over the local name");
	is_int(kernel_of(v, "/a", "inactive_file"), 3, "list sizes from bytes to pages");
	is_int(kernel_of(v, "/a/b", "workingset_refault_file"), -1,
	       "no memory.stat of /a/b: no refault row for it");
	is_int(kernel_of(v, "/a/c", "workingset_refault_file"), 5,
	       "memory.stat of a child created while recording: refaults since its creation");
	is_int(kernel_of(v, "/a/c", "inactive_file"), 1, "... and its list sizes");
	r = validate_rows_find(v, "/a/b", "pgscan_file");
	ok(r && !r->gated, "reclaim below the snapshotted cgroup is shown, not gated");
	r = validate_rows_find(v, "/a", "pgscan_file");
	ok(r && r->gated, "reclaim of the snapshotted cgroup is gated");
	r = validate_rows_find(v, "/a/c", "pgscan_file");
	ok(r && !r->gated && r->note, "reclaim of a snapshotted child: shown, not gated, and why");
	r = validate_rows_find(v, "/a/c", "inactive_file");
	ok(r && !r->gated && r->note, "a snapshotted child's list sizes: shown, not gated, and why");
	is_int(v->precached, 3, "three pages read that never entered: cached before the trace");
	is_int(v->stat_slack, 128, "memory.stat slack: 64 pages x 2 CPUs");
	is_int(v->folio_slack, 4, "file list slack: the largest folio seen, 4 pages");
	for (i = 0; i < v->nr_notes; i++)
		unknown_note |= !!strstr(v->notes[i], "1 pages left the page cache");
	ok(unknown_note, "the deletion the trace never saw enter is noted");
	is_int(v->nr_caps, 2, "a capture per memory.stat snapshot (the child's with its parent's)");
	rf_validation_free(v);
	unlink(path);
}

static void profiles(void)
{
	char why[256];

	is_str(rf_model_profile_for_release("5.15.3-arch1", why, sizeof(why)), "v5.10",
	       "5.15 picks the nearest older profile");
	ok(strstr(why, "nearest older") != NULL, "... and says so: %s", why);
	is_str(rf_model_profile_for_release("4.6.2", why, sizeof(why)), "v4.6", "4.6.2 picks v4.6");
	is_str(rf_model_profile_for_release("4.4.0", why, sizeof(why)), "v4.5",
	       "4.4 (older than every profile) picks the oldest");
	is_str(rf_model_profile_for_release("7.1.0", why, sizeof(why)), "v6.18", "7.1 picks v6.18");
	is_str(rf_model_profile_for_release("", why, sizeof(why)), "v6.18",
	       "an unreadable release picks the newest");
}

static void map_churn(void)
{
	struct counter_map m = { 0 };
	uint64_t i, v, bad = 0;
	const uint64_t *p;

	for (i = 0; i < 100000; i++)
		counter_map_put(&m, i * 4096, i);
	for (i = 0; i < 100000; i += 2)
		bad += !counter_map_del(&m, i * 4096, &v) || v != i;
	for (i = 0; i < 100000; i++) {
		p = counter_map_get(&m, i * 4096);
		bad += (p != NULL) != ((i & 1) != 0);
		bad += p && *p != i;
	}
	is_int(bad, 0, "100000 keys, every other one deleted: the rest are all found");
	is_int(counter_map_count(&m), 50000, "... and counted");
	counter_map_destroy(&m);
}

/* debugfs lru_gen_full as the recorder writes it (recorder/lru_gen.c) */
static void lru_gen_snap(uint64_t cgroup, uint64_t max_seq, uint64_t min_anon, uint64_t min_file)
{
	struct rf_counter c[] = {
		{ "lru_gen.max_seq", max_seq }, { "lru_gen.min_seq_anon", min_anon },
		{ "lru_gen.min_seq_file", min_file }, { "lru_gen.gen0_file", 12 },
	};

	counters(cgroup, RF_COUNTERS_LRU_GEN, c, sizeof(c) / sizeof(c[0]));
}

/* The multi-gen LRU's sequence numbers: the cgroup's own lruvec, gated, no page slack. */
static void lru_gen_rows(void)
{
	char path[] = "/tmp/test-validate-lru-gen.XXXXXX", err[512];
	struct rf_validate_opts o = { .tolerance = 0.05, .slack = 64 };
	struct rf_validation *v = NULL;
	struct rf_trace_header h;
	const struct validate_row *r;
	int fd = mkstemp(path), e;

	close(fd);
	rf_trace_header_init(&h, "test-validate-kernel");
	snprintf(h.host.kernel_release, sizeof(h.host.kernel_release), "6.12.0-test");
	snprintf(h.host.lru_gen, sizeof(h.host.lru_gen), "0x0007");
	h.host.mem_bytes = 64ull << 20;
	h.host.page_size = 4096;
	h.host.cpus = 2;
	e = rf_trace_writer_open(&w, path, &h, NULL);
	if (!e) {
		mkdir_ev(1, 0, "/");
		mkdir_ev(10, 1, "/a");
		mkdir_ev(11, 10, "/a/b");
		memstat(10, 0, 0, 0);
		lru_gen_snap(10, 3, 0, 0);
		file_ev(RF_EV_FILE_READ, 5, 0, 4, 0, 0, 0);
		memstat(10, 0, 0, 0);
		/* the parent's: a child's own sequence numbers never add to it */
		lru_gen_snap(10, 3, 0, 1);
		e = rf_trace_writer_close(w);
	}
	e = e ? e : rf_validate_run(&v, path, &o, err, sizeof(err));
	if (!is_int(e, 0, "validate runs a trace with lru_gen_full snapshots")) {
		diag("%s", err);
		unlink(path);
		return;
	}
	is_str(v->profile, "v6.12-mglru", "6.12 with the multi-gen LRU on picks v6.12-mglru");
	r = validate_rows_find(v, "/a", "lru_gen_max_seq");
	ok(r && r->kernel == 3 && r->model == 3 && r->gated && r->slack == 0 && r->ok,
	   "max_seq: the kernel's last snapshot against the model's fresh lruvec, gated, no slack");
	r = validate_rows_find(v, "/a", "lru_gen_min_seq_file");
	ok(r && r->kernel == 1 && r->model == 0 && !r->ok && r->note,
	   "min_seq[file] 1 against 0 is out: a generation is not a page (and the note says so)");
	r = validate_rows_find(v, "/a", "lru_gen_min_seq_anon");
	ok(r && r->kernel == 0 && !strcmp(r->source, "debugfs lru_gen_full"),
	   "min_seq[anon], from debugfs lru_gen_full");
	ok(!validate_rows_find(v, "/", "lru_gen_max_seq"),
	   "no snapshot of the root: no row for it");
	rf_validation_free(v);
	unlink(path);
}

int main(void)
{
	plan(38);
	rules();
	lru_gen_rows();
	profiles();
	map_churn();
	return done_testing();
}
