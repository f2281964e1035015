/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault gen: each case writes the pattern it claims, read back through the
 * trace reader; the same arguments give the same bytes; bad parameters are
 * refused with a message that names them.
 */
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/gen/gen.h"
#include "tests/lib/tap.h"

#define MEM		(16ull << 20)	/* 4096 pages: every case runs in well under a second */
#define MEM_PAGES	(MEM / 4096)
#define CPUS		4u
#define MAX_PIDS	64
#define MAX_KEYS	(1u << 20)

static char tmpdir[] = "/tmp/test-gen-XXXXXX";

/* What a read-back trace holds, boiled down for the checks. */
struct summary {
	struct rf_trace_header h;
	uint64_t events, refs, last_time;
	bool time_order, named_before_use, forked_before_named;
	uint64_t file_reads, file_faults, anon_faults, mmaps, munmaps, madvises, exits, forks;
	uint64_t nr_named, nr_cgroups;
	int32_t named_pid[MAX_PIDS];
	uint64_t named_cgroup[MAX_PIDS];
	uint64_t named_mm[MAX_PIDS];
	uint32_t cpu_of[MAX_PIDS];
	bool forked[MAX_PIDS];
	uint64_t cgroup_id[8];
	char cgroup_path[8][64];
	uint64_t cgroup_limit[8];
	uint64_t file_pages;		/* sum of NAME_FILE sizes, in pages */
	char markers[512];		/* "setup,run,...," */
	/* per-page reference counts, by a small key: (ino - 131) << 32 | index, or anon page */
	uint8_t *count;
	uint64_t order_bytes[2][CPUS];	/* anon bytes faulted at order 0 / 9, per CPU */
	int32_t last_exit_pid;
	uint64_t thp_faults;
};

static const char *path_for(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s.rft", tmpdir, name);
	return buf;
}

static int write_case(const char *name, const struct rf_gen_params *p, const char *path)
{
	char err[512] = "";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = fd < 0 ? RF_ERR_IO : rf_gen_write(name, p, fd, path, NULL, err, sizeof(err));

	if (ret)
		diag("rf_gen_write(%s): %d %s", name, ret, err);
	if (fd >= 0)
		close(fd);
	return ret;
}

static void params(struct rf_gen_params *p, uint32_t tasks, double scale)
{
	rf_gen_params_init(p);
	p->mem_bytes = MEM;
	p->cpus = CPUS;
	p->tasks = tasks;
	p->scale = scale;
	p->seed = 42;
}

static int pid_slot(struct summary *s, int32_t pid)
{
	uint64_t i;

	for (i = 0; i < s->nr_named; i++)
		if (s->named_pid[i] == pid)
			return (int)i;
	return -1;
}

static void count_key(struct summary *s, uint64_t key)
{
	if (key < MAX_KEYS && s->count[key] < 255)
		s->count[key]++;
}

static void note_task(struct summary *s, const struct rf_event *ev)
{
	int slot;

	switch (ev->type) {
	case RF_EV_FORK:
		s->forks++;
		if (s->nr_named < MAX_PIDS && pid_slot(s, ev->u.task.pid) < 0) {
			s->named_pid[s->nr_named] = ev->u.task.pid;
			s->forked[s->nr_named++] = true;
		}
		break;
	case RF_EV_NAME_PID:
		slot = pid_slot(s, ev->u.task.pid);
		if (slot < 0 && ev->u.task.pid != 1000)
			s->forked_before_named = false;
		if (slot < 0 && s->nr_named < MAX_PIDS) {
			slot = (int)s->nr_named++;
			s->named_pid[slot] = ev->u.task.pid;
		}
		if (slot >= 0) {
			s->named_cgroup[slot] = ev->u.task.cgroup;
			s->named_mm[slot] = ev->u.task.mm;
			s->cpu_of[slot] = ev->cpu;
		}
		break;
	case RF_EV_EXIT:
		s->exits++;
		s->last_exit_pid = ev->pid;
		break;
	}
}

static void note_ref(struct summary *s, const struct rf_event *ev)
{
	int slot = pid_slot(s, ev->pid);

	s->refs++;
	if (slot < 0 || !s->named_mm[slot])
		s->named_before_use = false;
	switch (ev->type) {
	case RF_EV_FILE_READ:
		s->file_reads++;
		count_key(s, ((ev->u.file.ino - 131) << 16) | ev->u.file.index);
		break;
	case RF_EV_FILE_FAULT:
		s->file_faults++;
		count_key(s, ((ev->u.file.ino - 131) << 16) | ev->u.file.index);
		break;
	case RF_EV_ANON_FAULT:
		s->anon_faults++;
		/* Processes map at the same address in their own mm: key by pid too. */
		count_key(s, (((uint64_t)(ev->pid - 1001) & 0x3f) << 14) |
			     ((ev->u.anon.addr >> 12) & 0x3fff));
		if (ev->cpu < CPUS)
			s->order_bytes[ev->u.anon.order ? 1 : 0][ev->cpu] += 4096ull << ev->u.anon.order;
		if (ev->u.anon.order)
			s->thp_faults++;
		break;
	}
}

static void note_state(struct summary *s, const struct rf_event *ev)
{
	size_t len;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		if (s->nr_cgroups < 8) {
			s->cgroup_id[s->nr_cgroups] = ev->u.cgroup.id;
			snprintf(s->cgroup_path[s->nr_cgroups], 64, "%s", ev->u.cgroup.path);
			s->cgroup_limit[s->nr_cgroups++] = RF_UNLIMITED;
		}
		break;
	case RF_EV_CGROUP_LIMIT:
		if (s->nr_cgroups)
			s->cgroup_limit[s->nr_cgroups - 1] = ev->u.cgroup.value;
		break;
	case RF_EV_NAME_FILE:
		s->file_pages += ev->u.name_file.size / 4096;
		break;
	case RF_EV_MMAP:
		s->mmaps++;
		break;
	case RF_EV_MUNMAP:
		s->munmaps++;
		break;
	case RF_EV_MADVISE:
		s->madvises++;
		break;
	case RF_EV_MARKER:
		len = strlen(s->markers);
		snprintf(s->markers + len, sizeof(s->markers) - len, "%s,",
			 ev->u.marker.text + (strncmp(ev->u.marker.text, "phase=", 6) ? 0 : 6));
		break;
	}
}

static int summarize(const char *path, struct summary *s)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	int ret;

	memset(s, 0, sizeof(*s));
	s->time_order = s->named_before_use = s->forked_before_named = true;
	s->count = calloc(MAX_KEYS, 1);
	ret = rf_trace_reader_open(&r, path, 0);
	if (ret) {
		diag("open %s: %s", path, r ? rf_trace_reader_errmsg(r) : rf_strerror(ret));
		rf_trace_reader_close(r);
		return ret;
	}
	s->h = *rf_trace_reader_header(r);
	while ((ret = rf_trace_reader_next(r, &ev)) > 0) {
		s->events++;
		if (ev.time < s->last_time)
			s->time_order = false;
		s->last_time = ev.time;
		if (rf_event_class(ev.type) == RF_CLASS_REFERENCE)
			note_ref(s, &ev);
		else
			note_state(s, &ev);
		note_task(s, &ev);
	}
	if (ret < 0)
		diag("read %s: %s", path, rf_trace_reader_errmsg(r));
	rf_trace_reader_close(r);
	return ret;
}

static void release(struct summary *s)
{
	free(s->count);
	s->count = NULL;
}

/* How many keys below @nr_keys were counted exactly @times (or >= 1 when times is 0). */
static uint64_t keys_with(const struct summary *s, uint64_t first, uint64_t nr, unsigned times)
{
	uint64_t i, n = 0;

	for (i = first; i < first + nr && i < MAX_KEYS; i++)
		n += times ? s->count[i] == times : s->count[i] > 0;
	return n;
}

static uint64_t cgroup_of_path(const struct summary *s, const char *path)
{
	uint64_t i;

	for (i = 0; i < s->nr_cgroups; i++)
		if (!strcmp(s->cgroup_path[i], path))
			return s->cgroup_id[i];
	return 0;
}

static uint64_t tasks_in(const struct summary *s, uint64_t cgroup)
{
	uint64_t i, n = 0;

	for (i = 0; i < s->nr_named; i++)
		n += s->named_pid[i] != 1000 && s->named_cgroup[i] == cgroup;
	return n;
}

static bool gen_and_read(const char *name, uint32_t tasks, double scale, struct summary *s)
{
	struct rf_gen_params p;

	params(&p, tasks, scale);
	return !write_case(name, &p, path_for(name)) && summarize(path_for(name), s) == 0;
}

/* ------------------------------------------------------------ the checks */

static void test_header_and_order(void)
{
	struct summary s;
	bool ok_ = gen_and_read("lru-file-readonce", 3, 1, &s);

	ok(ok_, "lru-file-readonce written and read back");
	is_str(s.h.producer, "refault gen", "header: producer");
	is_str(s.h.clock, "synthetic", "header: clock");
	is_str(s.h.producer_version, "gen-" RF_GEN_VERSION, "header: producer_version");
	ok(s.h.synthetic && s.h.created == 0, "header: synthetic, created 0");
	is_str(s.h.params, "case=lru-file-readonce seed=42 mem=16777216 tasks=3 cpus=4 scale=1",
	       "header: params");
	ok(s.h.host.mem_bytes == MEM && s.h.host.cpus == CPUS && s.h.host.page_size == 4096,
	   "header: host memory, CPUs and page size are the parameters");
	ok(s.time_order, "events are in time order");
	ok(s.named_before_use && s.forked_before_named,
	   "every task is forked and named before its first reference");
	is_int(s.exits, s.forks + 1, "every forked task and the driver exit");
	is_str(s.markers, "setup,run,end,", "markers at the phase boundaries");
	release(&s);
}

static void test_readtwice(void)
{
	struct summary s;
	bool ok_ = gen_and_read("lru-file-readtwice", 4, 1, &s);
	uint64_t per = 4 * MEM_PAGES / 4, f, twice = 0;

	ok(ok_, "lru-file-readtwice written and read back");
	is_int(s.file_pages, 4 * MEM_PAGES, "readtwice: the file set is 4 x mem");
	for (f = 0; f < 4; f++)
		twice += keys_with(&s, f << 16, per, 2);
	is_int(twice, 4 * MEM_PAGES, "readtwice: every page of every file is read exactly twice");
	is_int(s.file_reads, 2 * 4 * MEM_PAGES, "readtwice: and nothing else is read");
	is_int(s.forks, 8, "readtwice: two dd per file");
	release(&s);
}

static void test_readonce_memcg(void)
{
	struct summary s;
	bool ok_ = gen_and_read("lru-memcg", 2, 0.5, &s);
	uint64_t cg = cgroup_of_path(&s, "/vmscale"), once = 0, f;

	ok(ok_, "lru-memcg written and read back");
	ok(cg != 0 && s.cgroup_limit[1] == MEM_PAGES / 3 * 4096,
	   "lru-memcg: /vmscale is limited to mem/3");
	is_int(tasks_in(&s, cg), 2, "lru-memcg: both readers are in /vmscale");
	for (f = 0; f < 2; f++)
		once += keys_with(&s, f << 16, 2 * MEM_PAGES / 2, 1);
	is_int(once, 2 * MEM_PAGES, "lru-memcg: every page (4 x mem x 0.5) read exactly once");
	release(&s);
}

static void test_mmap(void)
{
	struct summary s;
	uint64_t pages = 4 * MEM_PAGES / 2, touched;
	bool ok_ = gen_and_read("lru-file-mmap-read", 2, 1, &s);

	ok(ok_ && s.mmaps == 2 && s.munmaps == 2, "mmap-read: each usemem maps and unmaps its file");
	is_int(keys_with(&s, 0, pages, 1) + keys_with(&s, 1 << 16, pages, 1), 2 * pages,
	       "mmap-read: every page of each file faulted exactly once");
	release(&s);

	ok_ = gen_and_read("lru-file-mmap-read-rand", 2, 1, &s);
	touched = keys_with(&s, 0, pages, 0) + keys_with(&s, 1 << 16, pages, 0);
	is_int(s.file_faults, 4 * 2 * pages, "mmap-read-rand: 4 references per page");
	/* 4 uniform picks per page miss a page with probability e^-4 = 1.8%. */
	ok(ok_ && touched > 2 * pages * 95 / 100 && touched < 2 * pages,
	   "mmap-read-rand: references are spread at random (%llu of %llu pages touched)",
	   (unsigned long long)touched, (unsigned long long)(2 * pages));
	release(&s);
}

static void test_anon(void)
{
	struct summary s;
	uint64_t per = MEM_PAGES / 2 / 4, swap_per;
	bool ok_ = gen_and_read("anon-w-seq", 4, 1, &s);

	ok(ok_, "anon-w-seq written and read back");
	is_int(s.anon_faults, 4 * per, "anon-w-seq: mem/2 of pages written");
	is_int(keys_with(&s, 0, 4 << 14, 1), 4 * per, "anon-w-seq: each page once");
	release(&s);

	ok_ = gen_and_read("anon-w-rand", 4, 1, &s);
	is_int(s.anon_faults, 4 * 4 * per, "anon-w-rand: 4 writes per page of mem/2");
	ok(ok_ && keys_with(&s, 0, 4 << 14, 0) > 4 * per * 95 / 100,
	   "anon-w-rand: the writes cover the region");
	release(&s);

	ok_ = gen_and_read("swap-w-seq", 4, 1, &s);
	/* 3/4 x (MemAvailable = 15/16 mem + swap = mem) */
	swap_per = (MEM_PAGES - MEM_PAGES / 16 + MEM_PAGES) / 4 * 3 / 4;
	ok(ok_ && s.h.host.swap_bytes == MEM, "swap-w-seq: the host has swap = mem");
	is_int(keys_with(&s, 0, 4 << 14, 1), 4 * swap_per,
	       "swap-w-seq: 3/4 x (MemAvailable + swap) written once, more than RAM");
	release(&s);
}

static void test_pvec_thp_mix(void)
{
	struct summary s;
	/* 4 threads: mem/2 splits into whole 2 MiB pages, one thread per CPU. */
	bool ok_ = gen_and_read("pvec-thp-mix", 4, 1, &s), mixed = true;
	uint64_t small = 0, huge = 0, mm = 0, i;
	uint32_t c;

	ok(ok_, "pvec-thp-mix written and read back");
	for (c = 0; c < CPUS; c++) {
		mixed = mixed && s.order_bytes[0][c] && s.order_bytes[1][c];
		small += s.order_bytes[0][c];
		huge += s.order_bytes[1][c];
	}
	ok(mixed, "pvec-thp-mix: every CPU faults both 4 KiB and 2 MiB pages");
	is_int(small, huge, "pvec-thp-mix: half the bytes in each size (5 of 10 rounds per thread)");
	is_int(small + huge, 10 * (MEM / 2), "pvec-thp-mix: 10 rounds of mem/2");
	is_int(s.munmaps, 4 * 10, "pvec-thp-mix: every round unmaps");
	for (i = 0; i < s.nr_named; i++)
		if (s.named_pid[i] != 1000)
			mm = !mm || mm == s.named_mm[i] ? s.named_mm[i] : UINT64_MAX;
	ok(mm && mm != UINT64_MAX, "pvec-thp-mix: the threads share one mm");
	is_int(s.exits, 4 + 1, "pvec-thp-mix: every thread exits");
	is_int(s.last_exit_pid, 1000, "pvec-thp-mix: the driver exits last");
	is_str(s.markers, "setup,run,exit,end,", "pvec-thp-mix: the join is marked");
	release(&s);
}

static void test_noswap_pageout(void)
{
	struct summary s;
	bool ok_ = gen_and_read("noswap-pageout", 0, 1, &s);
	uint64_t cg = cgroup_of_path(&s, "/bench");

	ok(ok_ && cg && tasks_in(&s, cg) == 1, "noswap-pageout: one task in the non-root /bench");
	is_str(s.markers, "setup,run,fill,pageout,refill,end,",
	       "noswap-pageout: fill, pageout, refill in order");
	is_int(s.madvises, 1, "noswap-pageout: one MADV_PAGEOUT");
	is_int(keys_with(&s, 0, 1 << 14, 2), MEM_PAGES / 2,
	       "noswap-pageout: every page of mem/2 written before and after the pageout");
	ok(s.h.host.swap_bytes >= MEM / 2, "noswap-pageout: swap holds the region");
	release(&s);
}

static void test_cgroup_thrash(void)
{
	struct summary s;
	bool ok_ = gen_and_read("cgroup-thrash", 4, 0.5, &s);
	uint64_t stream = cgroup_of_path(&s, "/stream"), hot = cgroup_of_path(&s, "/hot");
	uint64_t stream_per = 4 * MEM_PAGES / 2 / 3, hot_pages = MEM_PAGES / 4;
	uint64_t passes = (stream_per + hot_pages - 1) / hot_pages, f, once = 0;

	ok(ok_ && stream && hot && stream != hot, "cgroup-thrash: two cgroups, /stream and /hot");
	is_int(tasks_in(&s, stream), 3, "cgroup-thrash: of 4 tasks, 3 stream in /stream");
	is_int(tasks_in(&s, hot), 1, "cgroup-thrash: and 1 re-reads in /hot");
	for (f = 0; f < 3; f++)
		once += keys_with(&s, f << 16, stream_per, 1);
	is_int(once, 3 * stream_per, "cgroup-thrash: the stream (4 x mem x 0.5) is read once");
	is_int(keys_with(&s, 3ull << 16, hot_pages, (unsigned int)passes), hot_pages,
	       "cgroup-thrash: each hot page (mem/4) is read %llu times, as long as the stream lasts",
	       (unsigned long long)passes);
	release(&s);
}

static void test_mmap_stream_read_hot(void)
{
	struct summary s;
	bool ok_ = gen_and_read("mmap-stream-read-hot", 4, 0.5, &s);
	uint64_t stream_per = 4 * MEM_PAGES / 2 / 3, hot_pages = MEM_PAGES / 4, f, once = 0;
	/* the plan's nominal costs: 2500 ns a fault, 1500 a read (recorder/gen/plan.h) */
	uint64_t passes = (stream_per * 2500 + hot_pages * 1500 - 1) / (hot_pages * 1500);

	ok(ok_ && s.mmaps == 3 && s.munmaps == 3, "mmap-stream-read-hot: 3 of 4 tasks map a file");
	for (f = 0; f < 3; f++)
		once += keys_with(&s, f << 16, stream_per, 1);
	is_int(once, 3 * stream_per, "mmap-stream-read-hot: each streamed page faulted once");
	is_int(s.file_faults, 3 * stream_per, "mmap-stream-read-hot: and nothing else faulted");
	is_int(keys_with(&s, 3ull << 16, hot_pages, (unsigned int)passes), hot_pages,
	       "mmap-stream-read-hot: each hot page (mem/4) is read %llu times, as long as the stream",
	       (unsigned long long)passes);
	release(&s);
}

static bool same_file(const char *a, const char *b)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd) == 0;
}

/* The events, without the header (which holds the seed). */
static uint64_t events_hash(const char *path)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	uint64_t h = 1469598103934665603ull;

	if (rf_trace_reader_open(&r, path, 0)) {
		rf_trace_reader_close(r);
		return 0;
	}
	while (rf_trace_reader_next(r, &ev) > 0) {
		h = (h ^ ev.time) * 1099511628211ull;
		h = (h ^ ev.u.file.index ^ ev.u.anon.addr) * 1099511628211ull;
	}
	rf_trace_reader_close(r);
	return h;
}

static void test_determinism(void)
{
	static const char *const cases[] = { "lru-file-readtwice", "anon-w-rand", "pvec-thp-mix" };
	char a[256], b[256], c[256];
	struct rf_gen_params p;
	size_t i;

	for (i = 0; i < 3; i++) {
		params(&p, 3, 0.25);
		snprintf(a, sizeof(a), "%s/det-a.rft", tmpdir);
		snprintf(b, sizeof(b), "%s/det-b.rft", tmpdir);
		snprintf(c, sizeof(c), "%s/det-c.rft", tmpdir);
		write_case(cases[i], &p, a);
		write_case(cases[i], &p, b);
		p.seed = 43;
		write_case(cases[i], &p, c);
		ok(same_file(a, b), "%s: the same arguments give the same bytes", cases[i]);
		ok(events_hash(a) != events_hash(c), "%s: another seed gives other events", cases[i]);
	}
}

static void expect_refused(const char *name, const struct rf_gen_params *p, const char *needle)
{
	struct rf_trace_header h;
	char err[512] = "";
	int ret = rf_gen_header(name, p, &h, err, sizeof(err));

	ok(ret < 0 && strstr(err, needle), "refused: %s (%s)", needle, err);
}

static void test_bad_params(void)
{
	struct rf_gen_params p;

	params(&p, 0, 1);
	expect_refused("no-such-case", &p, "unknown case 'no-such-case'");
	p.mem_bytes = 1 << 20;
	expect_refused("anon-w-seq", &p, "--mem");
	params(&p, 0, 1);
	p.mem_bytes = MEM + 100;
	expect_refused("anon-w-seq", &p, "multiple of the 4096-byte page");
	params(&p, 0, 0);
	expect_refused("anon-w-seq", &p, "--scale");
	params(&p, 1, 1);
	expect_refused("cgroup-thrash", &p, "--tasks 1");
	params(&p, 4096, 1);
	expect_refused("anon-w-seq", &p, "less than a page for each of 4096 tasks");
	params(&p, 0, 1);
	p.cpus = 0;
	expect_refused("anon-w-seq", &p, "--cpus");
	params(&p, 0, 1000);
	p.mem_bytes = 1ull << 40;
	expect_refused("lru-file-readtwice", &p, "over the limit");
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(tmpdir))
		skip_all("cannot make a temporary directory");
	plan(68);
	test_header_and_order();
	test_readtwice();
	test_readonce_memcg();
	test_mmap();
	test_anon();
	test_pvec_thp_mix();
	test_noswap_pageout();
	test_cgroup_thrash();
	test_mmap_stream_read_hot();
	test_determinism();
	test_bad_params();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		diag("could not remove %s", tmpdir);
	return done_testing();
}
