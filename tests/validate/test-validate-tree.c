/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault validate's cgroup tree (rows.c) and its captures (run.c) on
 * hand-written traces, no root needed: a row counts its cgroup's whole
 * subtree, down a chain of 200 each with memory.stat, at the end and at
 * every capture; two cgroups of one path (the first removed, the second
 * made under the same name) each keep their own rows and series; a trace
 * of many snapshots of many cgroups keeps its captures within a bound,
 * and says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replayer/validate/validate-local.h"
#include "tests/lib/tap.h"

#define CHAIN		200
#define FLAT		2000	/* cgroups of the snapshots' trace */
#define SNAPSHOTS	100

static struct rf_trace_writer *w;
static uint64_t t = 1000;

static void put(struct rf_event ev)
{
	ev.time = t += 1000;
	if (!ev.pid)
		ev.pid = 100;
	if (rf_trace_writer_append(w, &ev))
		diag("append of a type %u event failed", ev.type);
}

static void cgroup_ev(uint16_t type, uint64_t id, uint64_t parent, const char *path)
{
	struct rf_event ev = { .type = type };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = path;
	ev.u.cgroup.pid = 100;
	put(ev);
}

/* One page of file @ino enters the page cache charged to @cgroup. */
static void add(uint64_t ino, uint64_t index, uint64_t cgroup)
{
	struct rf_event ev = { .type = RF_EV_PAGECACHE_ADD };

	ev.u.file.dev = 1;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.pfn = ino << 20 | index;
	ev.u.file.cgroup = cgroup;
	put(ev);
}

static void memstat(uint64_t cgroup, uint64_t refaults)
{
	struct rf_counter c[] = {
		{ "total_workingset_refault_file", refaults }, { "total_inactive_file", 0 },
		{ "total_active_file", 0 },
	};
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	ev.u.counters.cgroup = cgroup;
	ev.u.counters.source = RF_COUNTERS_MEMCG_STAT;
	ev.u.counters.entries = c;
	ev.u.counters.nr = sizeof(c) / sizeof(c[0]);
	put(ev);
}

static int open_trace(const char *path)
{
	struct rf_trace_header h;

	rf_trace_header_init(&h, "test-validate-tree");
	snprintf(h.host.kernel_release, sizeof(h.host.kernel_release), "6.18.0-test");
	h.host.mem_bytes = 256ull << 20;
	h.host.page_size = 4096;
	h.host.cpus = 2;
	return rf_trace_writer_open(&w, path, &h, NULL);
}

/*
 * A chain /c, /c/c, ... CHAIN deep (ids 10..), each with memory.stat and one page added, in
 * two phases; then /x (id 500) with 2 pages, removed, and another /x (id 501) with 5.
 */
static int write_tree(const char *path)
{
	static char cpath[CHAIN * 2 + 1];
	uint64_t i;

	if (open_trace(path))
		return -1;
	cgroup_ev(RF_EV_CGROUP_MKDIR, 1, 0, "/");
	for (i = 0; i < CHAIN; i++) {
		memcpy(cpath + 2 * i, "/c", 3);
		cgroup_ev(RF_EV_CGROUP_MKDIR, 10 + i, i ? 9 + i : 1, cpath);
	}
	for (i = 0; i < CHAIN; i++)
		memstat(10 + i, 0);
	for (i = 0; i < CHAIN; i++)	/* phase 1: the lower half's pages */
		if (i >= CHAIN / 2)
			add(1, i, 10 + i);
	for (i = 0; i < CHAIN; i++)
		memstat(10 + i, 0);
	for (i = 0; i < CHAIN / 2; i++)	/* phase 2: the upper half's */
		add(1, i, 10 + i);
	cgroup_ev(RF_EV_CGROUP_MKDIR, 500, 1, "/x");
	memstat(500, 0);
	add(2, 0, 500);
	add(2, 1, 500);
	memstat(500, 0);
	cgroup_ev(RF_EV_CGROUP_RMDIR, 500, 1, "/x");
	cgroup_ev(RF_EV_CGROUP_MKDIR, 501, 1, "/x");
	memstat(501, 0);
	for (i = 0; i < 5; i++)
		add(3, i, 501);
	for (i = 0; i < CHAIN; i++)
		memstat(10 + i, 0);
	memstat(501, 0);
	return rf_trace_writer_close(w);
}

/* The rows of @scope's @q, in order: at most 2. */
static size_t rows_of(const struct rf_validation *v, const char *scope, const char *q,
		      const struct validate_row **out)
{
	size_t i, n = 0;

	for (i = 0; i < v->nr_rows && n < 2; i++)
		if (!strcmp(v->rows[i].scope, scope) && !strcmp(rf_obs_q_name(v->rows[i].q), q))
			out[n++] = &v->rows[i];
	return n;
}

static void tree(void)
{
	char path[] = "/tmp/test-validate-tree.XXXXXX", err[512], cpath[CHAIN * 2 + 1];
	struct rf_validate_opts o = { .tolerance = 0.05, .slack = 64 };
	struct rf_validation *v = NULL;
	const struct validate_row *r, *x[2];
	size_t depth, bad_end = 0, bad_series = 0, bad_phase1 = 0, i;
	int fd = mkstemp(path), e;
	uint64_t k, m;

	close(fd);
	ok(!write_tree(path), "a chain of %d cgroups with memory.stat, and two of one path", CHAIN);
	e = rf_validate_run(&v, path, &o, err, sizeof(err));
	if (!is_int(e, 0, "validate runs it")) {
		diag("%s", err);
		unlink(path);
		return;
	}
	ok(v->nr_caps >= 3, "a capture per snapshot (%zu)", v->nr_caps);
	for (depth = 1; depth <= CHAIN; depth++) {
		uint64_t want = CHAIN - depth + 1;	/* its page and the ones below */
		uint64_t below_half = depth > CHAIN / 2 ? want : CHAIN / 2;

		for (i = 0; i < depth; i++)
			memcpy(cpath + 2 * i, "/c", 3);
		r = validate_rows_find(v, cpath, "pagecache_add");
		if (!r || r->kernel != want) {
			if (!bad_end++)
				diag("%s: %lld pagecache_add, want %llu", cpath,
				     r ? (long long)r->kernel : -1LL, (unsigned long long)want);
			continue;
		}
		/* the last capture is the end; the second, after phase 1, the lower half's */
		if (!validate_row_at(v, r, v->nr_caps - 1, &k, &m) || k != want)
			bad_series++;
		if (!validate_row_at(v, r, 1, &k, &m) || k != below_half)
			bad_phase1++;
	}
	is_int(bad_end, 0, "each cgroup of the chain counts the pages of its subtree");
	is_int(bad_series, 0, "... in its series at the end");
	is_int(bad_phase1, 0, "... and after the first phase, the lower half's only");
	r = validate_rows_find(v, "/c", "pgscan_file");
	ok(r && r->gated, "the top of the chain is the recorded cgroup: its reclaim is gated");
	r = validate_rows_find(v, "/c/c", "pgscan_file");
	ok(r && !r->gated, "the one below it is not");
	if (is_int(rows_of(v, "/x", "pagecache_add", x), 2, "two cgroups named /x: two rows")) {
		ok(x[0]->kernel == 2 && x[1]->kernel == 5, "each counts its own pages: %llu, %llu",
		   (unsigned long long)x[0]->kernel, (unsigned long long)x[1]->kernel);
		k = 0;
		validate_row_at(v, x[0], v->nr_caps - 1, &k, &m);
		is_int(k, 2, "the first one's series is its own, not the second's");
		k = 0;
		validate_row_at(v, x[1], v->nr_caps - 1, &k, &m);
		is_int(k, 5, "the second one's too");
	} else {
		skip(3, "no two rows of /x");
	}
	rf_validation_free(v);
	unlink(path);
}

/* FLAT cgroups and SNAPSHOTS /proc/vmstat snapshots, each followed by a page added. */
static int write_snapshots(const char *path)
{
	struct rf_counter c[] = { { "pgactivate", 0 } };
	struct rf_event ev = { .type = RF_EV_COUNTERS };
	char name[32];
	uint64_t i;

	if (open_trace(path))
		return -1;
	for (i = 0; i < FLAT; i++) {
		snprintf(name, sizeof(name), "/s%llu", (unsigned long long)i);
		cgroup_ev(RF_EV_CGROUP_MKDIR, 10 + i, 1, name);
	}
	ev.u.counters.entries = c;
	ev.u.counters.nr = 1;
	ev.u.counters.source = RF_COUNTERS_VMSTAT;
	for (i = 0; i < SNAPSHOTS; i++) {
		c[0].value = i;
		put(ev);
		add(1, i, 10 + i % 7);
	}
	return rf_trace_writer_close(w);
}

static void many_snapshots(void)
{
	char path[] = "/tmp/test-validate-snapshots.XXXXXX", err[512];
	struct rf_validate_opts o = { .tolerance = 0.05, .slack = 64 };
	struct rf_validation *v = NULL;
	const struct validate_row *r;
	uint64_t values = 0;
	bool noted = false;
	int fd = mkstemp(path), e;
	size_t i;

	close(fd);
	ok(!write_snapshots(path), "%d snapshots of %d cgroups", SNAPSHOTS, FLAT);
	e = rf_validate_run(&v, path, &o, err, sizeof(err));
	if (!is_int(e, 0, "validate runs it")) {
		diag("%s", err);
		unlink(path);
		return;
	}
	for (i = 0; i < v->nr_caps; i++)
		values += v->caps[i].nr_cg * RF_OBS_NR;
	ok(values <= v->capture_values + (FLAT + 2) * RF_OBS_NR,
	   "the captures hold %llu values, within %llu and the end's",
	   (unsigned long long)values, (unsigned long long)v->capture_values);
	ok(v->capture_stride > 1 && v->snapshots == SNAPSHOTS,
	   "1 in %llu of the %llu snapshots is a capture", (unsigned long long)v->capture_stride,
	   (unsigned long long)v->snapshots);
	for (i = 0; i < v->nr_notes; i++)
		noted |= !!strstr(v->notes[i], "is a phase here");
	ok(noted, "a note says so");
	r = validate_rows_find(v, "(trace)", "pagecache_add");
	ok(r && r->kernel == SNAPSHOTS, "the end counts every page (%lld)",
	   r ? (long long)r->kernel : -1LL);
	rf_validation_free(v);
	unlink(path);
}

int main(void)
{
	plan(18);
	tree();
	many_snapshots();
	return done_testing();
}
