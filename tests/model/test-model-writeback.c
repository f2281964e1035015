/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writeback=flusher (replayer/model/writeback.c): a dirty file page stays
 * dirty until a sync call of the trace, the flusher's background threshold
 * or reclaim's wakeup writes it; limit reclaim that meets it activates it
 * (v6.12 shrink_folio_list()) and, having met only dirty pages, wakes the
 * flusher, which writes them all.  writeback=recorded leaves the writing to
 * the trace: a page is dirty until a file_written names it.  writeback=clean
 * (the default) takes every dirty page as written before reclaim meets it.
 */
#include "tests/model/model-helpers.h"

/* A file_write of task @pid (a file_written: pid 0), of pages @index to @index + @nr - 1. */
static void file_range(struct rf_model *m, int type, int pid, uint64_t ino, uint64_t index,
		       uint64_t nr)
{
	struct rf_event ev = { .pid = pid, .type = type };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	feed(m, &ev);
}

static void sync_call(struct rf_model *m, int pid, uint64_t ino, uint8_t flags)
{
	struct rf_event ev = { .pid = pid, .type = RF_EV_FILE_SYNC };

	ev.u.file.dev = ino ? 8 : 0;
	ev.u.file.ino = ino;
	ev.u.file.flags = flags;
	feed(m, &ev);
}

/*
 * /a holds 512 pages: 256 written (the node's 64 MiB keeps them under its
 * background threshold), then 1024 pages of another file read: what does
 * reclaim do with the written ones?  @sync: the calls between write and read.
 */
static struct rf_model *run(const char *writeback, const char *cgwb, int sync)
{
	const char *const kv[] = { "cpus=1", "memory=64M", writeback, cgwb, NULL };
	struct rf_model *m = mk("v6.12", kv);

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 512 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	file_range(m, RF_EV_FILE_WRITE, 100, 7, 0, 256);
	if (sync == 1)
		sync_call(m, 100, 7, 0);			/* fsync() */
	else if (sync == 2)
		sync_call(m, 100, 0, RF_SYNC_ALL);		/* sync() */
	else if (sync == 3)
		sync_call(m, 100, 9, 0);			/* another file's fsync() */
	else if (sync == 4)
		file_range(m, RF_EV_FILE_WRITTEN, 0, 7, 0, 192);				/* the kernel wrote 192 of them */
	read_pages(m, 0, 100, 8, 0, 1024);
	return m;
}

/*
 * v6.12 shrink_node(): limit reclaim that meets only dirty folios it met
 * before (nr.dirty == nr.congested) sleeps in reclaim_throttle() for a
 * jiffy; the model stops its reclaim there and lets the memcg's charges
 * through for 4 ms of trace time.  /a (512 pages) is written 2048 pages,
 * a page each 10 us, none ever written back (writeback=recorded, no
 * file_written): without the throttle every charge past the limit would
 * scan the whole LRU 16 times and then count an OOM.
 */
static void test_throttle(void)
{
	const char *const kv[] = { "cpus=1", "memory=64M", "writeback=recorded", NULL };
	struct rf_model *m = mk("v6.12", kv);
	struct rf_event ev = { .pid = 100, .type = RF_EV_FILE_WRITE };
	uint64_t i;

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 512 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	ev.u.file.dev = 8;
	ev.u.file.ino = 7;
	ev.u.file.nr = 1;
	for (i = 0; i < 2048; i++) {
		ev.time = 1000000000ull + i * 10000;
		ev.u.file.index = i;
		feed(m, &ev);
	}
	ok(C(m, "memcg./a.events.oom") == 0 && C(m, "memcg./a.pgscan_direct") < 20 * 2048,
	   "throttled: no OOM counted, %llu pages scanned for 2048 written (a jiffy is 400 of them)",
	   (unsigned long long)C(m, "memcg./a.pgscan_direct"));
	ok(C(m, "memcg./a.pgactivate") >= 512,
	   "the dirty pages reclaim met were activated (%llu)",
	   (unsigned long long)C(m, "memcg./a.pgactivate"));
	rf_model_free(m);
}

int main(void)
{
	struct rf_model *m;
	uint64_t act;

	plan(11);
	test_throttle();
	m = run("writeback=clean", "cgroup_writeback=off", 0);
	is_int(C(m, "memcg./a.pgactivate"), 0, "writeback=clean: dirty pages reclaimed as clean");
	rf_model_free(m);

	/*
	 * limit reclaim's first batch, at priority 12 (1 page of /a's 512), is
	 * all dirty: activated; the flusher woken writes the other 255
	 */
	m = run("writeback=flusher", "cgroup_writeback=off", 0);
	act = C(m, "memcg./a.pgactivate");
	ok(act == 1 && C(m, "memcg./a.pgsteal_file") >= 256 + 1024 - 512 - 1,
	   "writeback=flusher: the first batch, all dirty, activated; the flusher it woke "
	   "wrote the rest, reclaimed as clean (pgactivate %llu, pgsteal %llu)",
	   (unsigned long long)act, (unsigned long long)C(m, "memcg./a.pgsteal_file"));
	rf_model_free(m);

	m = run("writeback=flusher", "cgroup_writeback=off", 1);
	is_int(C(m, "memcg./a.pgactivate"), 0, "fsync() of the file wrote its pages: none activated");
	rf_model_free(m);

	m = run("writeback=flusher", "cgroup_writeback=off", 2);
	is_int(C(m, "memcg./a.pgactivate"), 0, "sync(): the same");
	rf_model_free(m);

	m = run("writeback=flusher", "cgroup_writeback=off", 3);
	is_int(C(m, "memcg./a.pgactivate"), act, "another file's fsync() writes none of them");
	rf_model_free(m);

	/*
	 * writeback=recorded: nothing writes but the trace.  Without a
	 * file_written every folio reclaim meets stays dirty and is activated
	 * (and the memcg, half of it dirty, thrashes on the rest); with the
	 * first 192 written, only the last 64 are; a sync call or the
	 * flusher's rules write nothing
	 */
	m = run("writeback=recorded", "cgroup_writeback=off", 0);
	act = C(m, "memcg./a.pgactivate");
	ok(act >= 256, "writeback=recorded, no file_written: every dirty page met is activated (%llu)",
	   (unsigned long long)act);
	rf_model_free(m);
	m = run("writeback=recorded", "cgroup_writeback=off", 4);
	ok(C(m, "memcg./a.pgactivate") >= 1 && C(m, "memcg./a.pgactivate") <= 64,
	   "192 of the 256 written by the kernel: only the other 64 can be activated (%llu)",
	   (unsigned long long)C(m, "memcg./a.pgactivate"));
	rf_model_free(m);
	m = run("writeback=recorded", "cgroup_writeback=off", 2);
	ok(C(m, "memcg./a.pgactivate") >= 256, "a sync() writes nothing there: the trace's "
	   "file_written says when (%llu)", (unsigned long long)C(m, "memcg./a.pgactivate"));
	rf_model_free(m);

	/*
	 * cgroup writeback: /a's domain is its 256 file pages and 256 of
	 * headroom; past its freerun ceiling (15 %: 76 pages) the flusher
	 * writes a chunk, and reclaim later meets no dirty page
	 */
	m = run("writeback=flusher", "cgroup_writeback=on", 0);
	ok(C(m, "memcg./a.pgactivate") == 0,
	   "cgroup writeback: the memcg's background writeback wrote them before reclaim "
	   "(pgactivate %llu)", (unsigned long long)C(m, "memcg./a.pgactivate"));
	rf_model_free(m);
	return done_testing();
}
