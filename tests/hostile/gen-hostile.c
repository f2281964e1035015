/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Implausible traces, valid in format, for tests/hostile/test-hostile.sh:
 * values at and past what a consumer may take (folio orders to 255, ranges
 * of 2^63 pages, a readahead larger than its cgroup's limit, 50,000 nested
 * cgroups (with and without memory.stat at each), 1,500 snapshots of 5,000
 * cgroups, 700,000 markers, counters events of 4096 entries, times running
 * backwards, ids at the edges of their types, the header's limits).  Each
 * verb must give a clean error or a clean result, in bounded time and
 * memory, on every one.
 *
 *   gen-hostile DIR       writes DIR/CASE.rft for every case, prints the names
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/trace.h>

#define DEV 8388609u
#define INO 77u
#define MM 0x1000u

struct gen {
	struct rf_trace_writer *w;
	uint64_t t;
	int failed;
};

static void put(struct gen *g, struct rf_event *ev)
{
	if (!ev->time)
		ev->time = g->t += 1000;
	if (!ev->pid)
		ev->pid = 100;
	if (rf_trace_writer_append(g->w, ev) && !g->failed++)
		fprintf(stderr, "gen-hostile: %s\n", rf_trace_writer_errmsg(g->w));
}

static void file_ev(struct gen *g, unsigned int type, uint64_t index, uint64_t nr, unsigned int order)
{
	struct rf_event ev = { .type = type };

	ev.u.file.dev = DEV;
	ev.u.file.ino = INO;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = (uint8_t)order;
	ev.u.file.pfn = 1000 + index;
	ev.u.file.mm = MM;
	put(g, &ev);
}

static void cgroup_ev(struct gen *g, unsigned int type, uint64_t id, uint64_t parent, const char *path,
		      uint64_t value)
{
	struct rf_event ev = { .type = type };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = path;
	ev.u.cgroup.pid = 100;
	ev.u.cgroup.value = value;
	ev.u.cgroup.kind = RF_LIMIT_MEMORY;
	put(g, &ev);
}

/* A task in a 64 MiB memory cgroup, with a file mapped: what most cases start from. */
static void prologue(struct gen *g)
{
	struct rf_event ev = { .type = RF_EV_MMAP };

	cgroup_ev(g, RF_EV_CGROUP_MKDIR, 2, 1, "/rec", 0);
	cgroup_ev(g, RF_EV_CGROUP_LIMIT, 2, 1, "/rec", 64ull << 20);
	cgroup_ev(g, RF_EV_CGROUP_ATTACH, 2, 1, "/rec", 0);
	ev.u.vma.mm = MM;
	ev.u.vma.addr = 0x7f0000000000ull;
	ev.u.vma.len = 1ull << 30;
	ev.u.vma.prot = 1;
	ev.u.vma.flags = 1;
	ev.u.vma.dev = DEV;
	ev.u.vma.ino = INO;
	put(g, &ev);
}

static void case_orders(struct gen *g)
{
	static const unsigned int orders[] = { 0, 9, 10, 18, 19, 31, 32, 63, 64, 200, 255 };
	size_t i;

	prologue(g);
	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		struct rf_event ev = { .type = RF_EV_ANON_FAULT };

		file_ev(g, RF_EV_PAGECACHE_ADD, i << 10, 1, orders[i]);
		file_ev(g, RF_EV_FILE_READAHEAD, i << 10, 1ull << (orders[i] < 20 ? orders[i] : 20),
			orders[i]);
		file_ev(g, RF_EV_FILE_FAULT, i << 10, 1, orders[i]);
		file_ev(g, RF_EV_PAGECACHE_DEL, i << 10, 1, orders[i]);
		ev.u.anon.mm = MM;
		ev.u.anon.addr = 0x600000000000ull + (i << 22);
		ev.u.anon.order = (uint8_t)orders[i];
		put(g, &ev);
		ev.type = RF_EV_LRU_ADD;
		ev.u.lru.pfn = 5000 + i;
		ev.u.lru.order = (uint8_t)orders[i];
		ev.u.lru.lru = (uint8_t)(i % 7);
		put(g, &ev);
		ev.type = RF_EV_LRU_ACTIVATE;
		put(g, &ev);
	}
}

static void case_ranges(struct gen *g)
{
	static const uint64_t nrs[] = { 0, 1ull << 20, 1ull << 32, 1ull << 40, 1ull << 63,
					UINT64_MAX };
	size_t i;

	prologue(g);
	for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		file_ev(g, RF_EV_FILE_READ, 0, nrs[i], 0);
		file_ev(g, RF_EV_FILE_READ, UINT64_MAX - 4, nrs[i], 0);
		file_ev(g, RF_EV_FILE_WRITE, 100, nrs[i], 0);
		file_ev(g, RF_EV_FADVISE, 0, nrs[i], 0);
		file_ev(g, RF_EV_TRUNCATE, nrs[i] >> 1, 0, 0);
	}
}

/*
 * damon_region events over everything: the whole address space, regions past a
 * vma whose pgoff wraps, start after end, more accesses than samples, no samples,
 * 2^32 - 1 samples; a thousand times each; and pte_young events over the same ranges.
 */
static void case_damon(struct gen *g)
{
	static const uint64_t ranges[][2] = {
		{ 0, UINT64_MAX }, { 0x7f0000000000ull, 0x7f0000000000ull + (1ull << 40) },
		{ 0x100000000000ull, 0x100000000000ull + (1ull << 44) }, { UINT64_MAX, 0 },
		{ 0x600000000000ull, 0x600000001000ull },
	};
	static const uint32_t acc[][2] = { { 1, 20 }, { 21, 20 }, { 5, 0 }, { 1, UINT32_MAX },
					   { UINT32_MAX, UINT32_MAX } };
	struct rf_event ev = { .type = RF_EV_MMAP };
	size_t i, j;
	int r;

	prologue(g);
	ev.u.vma.mm = MM;
	ev.u.vma.addr = 0x100000000000ull;
	ev.u.vma.len = 1ull << 44;
	ev.u.vma.prot = 1;
	ev.u.vma.dev = DEV;
	ev.u.vma.ino = INO;
	ev.u.vma.pgoff = UINT64_MAX - 10;
	put(g, &ev);
	for (i = 0; i < 64; i++) {
		file_ev(g, RF_EV_FILE_FAULT, i, 1, 0);
		ev.type = RF_EV_ANON_FAULT;
		ev.u.anon.mm = MM;
		ev.u.anon.addr = 0x600000000000ull + (i << 12);
		ev.u.anon.order = 0;
		put(g, &ev);
	}
	for (r = 0; r < 1000; r++)
		for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
			for (j = 0; j < sizeof(acc) / sizeof(acc[0]); j++) {
				memset(&ev, 0, sizeof(ev));
				ev.type = RF_EV_DAMON_REGION;
				ev.pid = 100;
				ev.u.damon.mm = MM;
				ev.u.damon.start = ranges[i][0];
				ev.u.damon.end = ranges[i][1];
				ev.u.damon.nr_accesses = acc[j][0];
				ev.u.damon.max_nr_accesses = acc[j][1];
				ev.u.damon.age = UINT32_MAX;
				put(g, &ev);
				memset(&ev, 0, sizeof(ev));
				ev.type = RF_EV_PTE_YOUNG;
				ev.pid = 100;
				ev.u.young.mm = MM;
				ev.u.young.start = ranges[i][0];
				ev.u.young.end = ranges[i][1];
				put(g, &ev);
			}
}

/* A readahead window larger than its cgroup's limit (64 MiB = 16384 pages), held by the read after. */
static void case_readahead(struct gen *g)
{
	static const uint64_t nrs[] = { 16384, 17000, 20000, 1ull << 20, 1ull << 63 };
	size_t i;

	prologue(g);
	for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
		file_ev(g, RF_EV_FILE_READAHEAD, i << 30, nrs[i], 0);
		file_ev(g, RF_EV_FILE_READ, i << 30, 16, 0);
	}
}

static void case_deep_cgroups(struct gen *g)
{
	static char path[50000 * 2 + 8];
	size_t len = 0;
	uint64_t id;

	for (id = 2; id < 50002; id++) {
		if (len + 2 < 4000)
			len += (size_t)sprintf(path + len, "/c");
		cgroup_ev(g, RF_EV_CGROUP_MKDIR, id, id - 1, path, 0);
	}
	cgroup_ev(g, RF_EV_CGROUP_ATTACH, id - 1, 1, path, 0);
	file_ev(g, RF_EV_FILE_READ, 0, 64, 0);
	cgroup_ev(g, RF_EV_CGROUP_LIMIT, 2, 1, "/c", 1ull << 20);
	file_ev(g, RF_EV_FILE_READ, 0, 1024, 0);
	for (id = 50001; id >= 2; id--)
		cgroup_ev(g, RF_EV_CGROUP_RMDIR, id, id - 1, "", 0);
}

/* memory.stat of cgroup @id, @pages of them file pages: what makes it a row of validate */
static void memstat_ev(struct gen *g, uint64_t id, uint64_t pages)
{
	struct rf_counter c[] = {
		{ "total_cache", pages * 4096 }, { "total_rss", 0 },
		{ "total_active_file", pages / 2 * 4096 }, { "total_inactive_file", pages / 2 * 4096 },
		{ "total_workingset_refault_file", 0 }, { "pgactivate", pages / 2 },
	};
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	ev.u.counters.entries = c;
	ev.u.counters.nr = sizeof(c) / sizeof(c[0]);
	ev.u.counters.source = RF_COUNTERS_MEMCG_STAT;
	ev.u.counters.cgroup = id;
	put(g, &ev);
}

/*
 * The same chain 50,000 deep, each cgroup with memory.stat at the start and the end (as
 * record -G snapshots the recorded cgroup and every one below it): every cgroup is a row of
 * validate, whose rows sum each one's subtree at every capture (its walk up the chain for
 * every pair of cgroups was cubic in the depth: 48 s at 4,000 deep).  case_deep_cgroups
 * has no snapshot, so it shows only the cgroups where something happened.
 */
static void case_deep_cgroup_stats(struct gen *g)
{
	static char path[50000 * 2 + 8];
	size_t len = 0;
	uint64_t id, i;

	for (id = 2; id < 50002; id++) {
		if (len + 2 < 4000)
			len += (size_t)sprintf(path + len, "/c");
		cgroup_ev(g, RF_EV_CGROUP_MKDIR, id, id - 1, path, 0);
	}
	for (id = 2; id < 50002; id++)
		memstat_ev(g, id, 0);
	cgroup_ev(g, RF_EV_CGROUP_ATTACH, 50001, 50000, path, 0);
	for (i = 0; i < 64; i++) {
		file_ev(g, RF_EV_PAGECACHE_ADD, i, 1, 0);
		file_ev(g, RF_EV_FILE_READ, i, 1, 0);
	}
	for (id = 2; id < 50002; id++)
		memstat_ev(g, id, 64);
}

static void case_many_cgroups(struct gen *g)
{
	char path[32];
	uint64_t id;

	for (id = 2; id < 100002; id++) {
		snprintf(path, sizeof(path), "/s%llu", (unsigned long long)id);
		cgroup_ev(g, RF_EV_CGROUP_MKDIR, id, 1, path, 0);
	}
	cgroup_ev(g, RF_EV_CGROUP_ATTACH, 5000, 1, "/s5000", 0);
	file_ev(g, RF_EV_FILE_READ, 0, 64, 0);
}

/*
 * 5,000 cgroups and 1,500 /proc/vmstat snapshots, each followed by a read: validate captured
 * every cgroup at every snapshot (1,500 captures of 5,000 cgroups were 2.0 GiB and 36 s, 1,000
 * were 1.3 GiB) and must thin them to a bound.
 */
static void case_snapshots_many_cgroups(struct gen *g)
{
	struct rf_counter c[] = { { "pgactivate", 0 }, { "workingset_refault_file", 0 } };
	struct rf_event ev = { .type = RF_EV_COUNTERS };
	char path[32];
	uint64_t id, i;

	for (id = 2; id < 5002; id++) {
		snprintf(path, sizeof(path), "/s%llu", (unsigned long long)id);
		cgroup_ev(g, RF_EV_CGROUP_MKDIR, id, 1, path, 0);
	}
	cgroup_ev(g, RF_EV_CGROUP_ATTACH, 2, 1, "/s2", 0);
	ev.u.counters.entries = c;
	ev.u.counters.nr = sizeof(c) / sizeof(c[0]);
	ev.u.counters.source = RF_COUNTERS_VMSTAT;
	for (i = 0; i < 1500; i++) {
		c[0].value = c[1].value = i;
		ev.time = 0;
		put(g, &ev);
		file_ev(g, RF_EV_PAGECACHE_ADD, i, 1, 0);
		file_ev(g, RF_EV_FILE_READ, i, 1, 0);
	}
}

static void case_markers(struct gen *g)
{
	struct rf_event ev = { .type = RF_EV_MARKER };
	uint32_t i;

	prologue(g);
	ev.u.marker.text = "phase";
	for (i = 0; i < 700000; i++) {
		ev.time = 0;
		put(g, &ev);
	}
	file_ev(g, RF_EV_FILE_READ, 0, 8, 0);
}

static void case_counters(struct gen *g)
{
	static struct rf_counter c[RF_MAX_COUNTERS];
	static char names[RF_MAX_COUNTERS][40];
	struct rf_event ev = { .type = RF_EV_COUNTERS };
	uint32_t i, round;

	prologue(g);
	for (i = 0; i < RF_MAX_COUNTERS; i++) {
		snprintf(names[i], sizeof(names[i]), i % 2 ? "total_active_file_%u" : "nr_x_%u", i);
		c[i].name = names[i];
	}
	ev.u.counters.entries = c;
	ev.u.counters.nr = RF_MAX_COUNTERS;
	for (round = 0; round < 50; round++) {
		for (i = 0; i < RF_MAX_COUNTERS; i++)
			c[i].value = round % 2 ? UINT64_MAX - i : i;
		ev.time = 0;
		ev.u.counters.source = round % 3;
		ev.u.counters.cgroup = round % 2 ? 2 : 987654321;
		put(g, &ev);
	}
}

static void case_time(struct gen *g)
{
	uint64_t i;

	prologue(g);
	for (i = 0; i < 2000; i++) {
		struct rf_event ev = { .type = RF_EV_FILE_READ };

		ev.time = i % 2 ? UINT64_MAX - i : (i * 7919) % 1000;
		ev.pid = 100;
		ev.u.file.dev = DEV;
		ev.u.file.ino = INO;
		ev.u.file.index = i;
		ev.u.file.nr = 1;
		put(g, &ev);
	}
}

static void case_ids(struct gen *g)
{
	static const int32_t pids[] = { 0, 1, -1, INT32_MAX, INT32_MIN };
	size_t i;

	prologue(g);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++) {
		struct rf_event ev = { .type = RF_EV_FORK };

		ev.pid = pids[i] ? pids[i] : 7;
		ev.cpu = i % 2 ? UINT32_MAX : 65535;
		ev.u.task.pid = pids[(i + 1) % 5];
		ev.u.task.tgid = pids[(i + 2) % 5];
		ev.u.task.mm = UINT64_MAX - i;
		put(g, &ev);
		ev.type = RF_EV_ANON_FAULT;
		ev.u.anon.mm = UINT64_MAX - i;
		ev.u.anon.addr = UINT64_MAX - 4095;
		put(g, &ev);
		ev.type = RF_EV_MMAP;
		ev.u.vma.mm = MM;
		ev.u.vma.addr = UINT64_MAX - 8191;
		ev.u.vma.len = UINT64_MAX;
		put(g, &ev);
		ev.type = RF_EV_MADVISE;
		ev.u.vma.addr = 0;
		ev.u.vma.len = UINT64_MAX;
		ev.u.vma.advice = 21;
		put(g, &ev);
		ev.type = RF_EV_MUNMAP;
		put(g, &ev);
		ev.type = RF_EV_EXIT;
		put(g, &ev);
		ev.type = RF_EV_LOST;
		ev.u.lost.count = UINT64_MAX / 2;
		put(g, &ev);
	}
}

static const struct {
	const char *name;
	void (*fn)(struct gen *g);
	unsigned int cpus;
} cases[] = {
	{ "orders", case_orders, 4 },
	{ "ranges", case_ranges, 4 },
	{ "readahead-over-limit", case_readahead, 4 },
	{ "damon-regions", case_damon, 4 },
	{ "deep-cgroups", case_deep_cgroups, 4 },
	{ "deep-cgroup-stats", case_deep_cgroup_stats, 4 },
	{ "many-cgroups", case_many_cgroups, 4 },
	{ "snapshots-many-cgroups", case_snapshots_many_cgroups, 4 },
	{ "markers", case_markers, 4 },
	{ "counters", case_counters, 4 },
	{ "time-backwards", case_time, 4 },
	{ "ids", case_ids, RF_MAX_CPUS },
};

int main(int argc, char **argv)
{
	struct rf_trace_header h;
	char path[4096];
	size_t i;
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-hostile DIR\n");
		return 2;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gen g = { 0 };

		rf_trace_header_init(&h, "gen-hostile");
		h.host.cpus = cases[i].cpus;
		h.host.mem_bytes = 256ull << 20;
		h.host.page_size = 4096;
		h.host.numa_nodes = RF_MAX_NUMA_NODES;
		snprintf(h.host.kernel_release, sizeof(h.host.kernel_release), "6.18.0");
		snprintf(path, sizeof(path), "%s/%s.rft", argv[1], cases[i].name);
		if (rf_trace_writer_open(&g.w, path, &h, NULL)) {
			fprintf(stderr, "gen-hostile: cannot write %s\n", path);
			return 1;
		}
		cases[i].fn(&g);
		if (rf_trace_writer_close(g.w) || g.failed) {
			fprintf(stderr, "gen-hostile: %s failed\n", path);
			bad = 1;
		}
		printf("%s\n", cases[i].name);
	}
	return bad;
}
