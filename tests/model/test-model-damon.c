/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon_region events (replayer/model/damon.c): DAMON's accessed-bit samples
 * make the region's resident mapped pages young, each with the chance
 * q = 1 - (1 - k/N)^N the samples give, and reclaim then sees them
 * referenced.  Figures derived by hand in each test.
 */
#include "tests/model/model-helpers.h"

#define MM	7
#define ADDR	0x100000ull
#define HEAP	0x900000ull

static const char *const quiet[] = { "cpus=1", NULL };

static void damon(struct rf_model *m, uint64_t mm, uint64_t start, uint64_t pages, uint32_t k,
		  uint32_t n, uint64_t time)
{
	struct rf_event ev = { .time = time, .pid = 2, .type = RF_EV_DAMON_REGION };

	ev.u.damon.mm = mm;
	ev.u.damon.start = start;
	ev.u.damon.end = start + pages * PAGE;
	ev.u.damon.nr_accesses = k;
	ev.u.damon.max_nr_accesses = n;
	feed(m, &ev);
}

/* model.damon_young, 0 while no event had accesses (the counter is not there then) */
static uint64_t young(const struct rf_model *m)
{
	uint64_t v = 0;

	return rf_model_counter(m, "model.damon_young", &v) ? v : 0;
}

/*
 * 64 pages of file 2 mapped and faulted, 16 more of it only read (resident,
 * not mapped), 8 anonymous pages: a region over all of it with every sample
 * accessed (k = N) makes the 64 mapped and the 8 anonymous young, not the
 * 16; one with no access, one of another mm, one past the pages, one with
 * --set damon=off: none.
 */
static void test_which_pages(void)
{
	const char *const off[] = { "cpus=1", "damon=off", NULL };
	struct rf_model *m = mk("v6.18", quiet), *o = mk("v6.18", off);
	int i, j;

	for (j = 0; j < 2; j++) {
		struct rf_model *x = j ? o : m;

		mmap_file(x, 2, MM, ADDR, 80, 2);
		for (i = 0; i < 64; i++)
			file_fault(x, 0, 2, MM, 2, (uint64_t)i);
		read_pages(x, 0, 2, 2, 64, 16);
		for (i = 0; i < 8; i++)
			anon_fault(x, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
	}
	damon(m, MM, ADDR, 80, 0, 20, 1000);
	is_int(young(m), 0, "a region with no access: no page");
	damon(m, MM + 1, ADDR, 80, 20, 20, 2000);
	is_int(young(m), 0, "a region of another address space: no page");
	damon(m, MM, ADDR + 80 * PAGE, 64, 20, 20, 3000);
	is_int(young(m), 0, "a region past the mapped pages: no page");
	damon(m, MM, ADDR, 80, 20, 20, 4000);
	is_int(young(m), 64, "k = N over the file mapping: its 64 mapped pages, not the 16 only read");
	damon(m, MM, HEAP - 4 * PAGE, 16, 20, 20, 5000);
	is_int(young(m), 72, "... over the heap: its 8 anonymous pages");
	is_int(C(m, "model.damon_regions"), 3,
	       "three regions of its address space had accesses (the one past the pages too)");
	damon(o, MM, ADDR, 80, 20, 20, 4000);
	ok(!rf_model_counter(o, "model.damon_young", &(uint64_t){ 0 }),
	   "damon=off: the events change nothing");
	rf_model_free(m);
	rf_model_free(o);
}

/*
 * k = 1 of N = 20: q = 1 - 0.95^20 = 0.6415; over 4096 mapped anonymous
 * pages the expected 2627.6 young, sd sqrt(4096 x 0.6415 x 0.3585) = 30.7:
 * within 4 sd.  k = 10: q = 1 - 0.5^20, all but 0.004 pages.  The draw is a
 * function of the event and the page: a second model gives the same count.
 */
static void test_fraction(void)
{
	struct rf_model *m = mk("v6.18", (const char *const[]){ "cpus=1", "memory=64M", NULL });
	struct rf_model *m2 = mk("v6.18", (const char *const[]){ "cpus=1", "memory=64M", NULL });
	uint64_t y, y2;
	int i;

	for (i = 0; i < 4096; i++) {
		anon_fault(m, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
		anon_fault(m2, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
	}
	damon(m, MM, HEAP, 4096, 1, 20, 1000);
	damon(m2, MM, HEAP, 4096, 1, 20, 1000);
	y = young(m), y2 = young(m2);
	ok(y >= 2505 && y <= 2750, "k = 1 of 20: %llu of 4096 pages young (expected 2628 +- 123)",
	   (unsigned long long)y);
	is_int(y2, y, "the same event on the same pages: the same pages");
	damon(m, MM, HEAP, 4096, 10, 20, 2000);
	is_int(young(m) - y, 4096, "k = 10 of 20: every page");
	rf_model_free(m);
	rf_model_free(m2);
}

/*
 * Classic reclaim of a mapped, non-exec file page (folio_check_references(),
 * v6.18): the first scan that finds it young and without PG_referenced sets
 * PG_referenced and keeps it; the next one that finds it young activates it;
 * one that finds it old reclaims it.  64 mapped pages faulted once, then a
 * stream of 8192 read pages through 4 MiB: without DAMON they are found young
 * once and then old, all evicted (their faults again are major); with a
 * region of theirs accessed every 256 pages of the stream they stay young,
 * are activated and stay (faults again are minor).
 */
static uint64_t majfaults_after_stream(bool with_damon, uint64_t *activated)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk("v6.18", small);
	uint64_t before;
	int i;

	mmap_file(m, 2, MM, ADDR, 64, 2);
	for (i = 0; i < 64; i++)
		file_fault(m, 0, 2, MM, 2, (uint64_t)i);
	for (i = 0; i < 8192; i++) {
		read_pages(m, 0, 3, 3, (uint64_t)i, 1);
		if (with_damon && i % 256 == 255)
			damon(m, MM, ADDR, 64, 20, 20, 1000u + (uint64_t)i);
	}
	before = C(m, "vmstat.pgmajfault");
	for (i = 0; i < 64; i++)
		file_fault(m, 0, 2, MM, 2, (uint64_t)i);
	*activated = C(m, "vmstat.pgactivate");
	before = C(m, "vmstat.pgmajfault") - before;
	rf_model_free(m);
	return before;
}

static void test_reclaim_sees_them(void)
{
	uint64_t act0, act1;

	is_int(majfaults_after_stream(false, &act0), 64,
	       "no DAMON: the 64 mapped pages are evicted by the stream");
	is_int(majfaults_after_stream(true, &act1), 0,
	       "accessed every 256 pages of the stream: none is evicted");
	ok(act1 >= 64 && act1 > act0, "... they were activated (pgactivate %llu, %llu without)",
	   (unsigned long long)act1, (unsigned long long)act0);
}

int main(void)
{
	plan(13);
	test_which_pages();
	test_fraction();
	test_reclaim_sees_them();
	return done_testing();
}
