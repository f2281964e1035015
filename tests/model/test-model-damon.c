/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon_region events (replayer/model/damon.c): DAMON's k hits of N checks
 * bring the region's young fraction up to k / N of its span, then move k
 * young PTEs to PG_idle_young (DAMON's own check), which reclaim's
 * folio_referenced() still counts.  Figures derived by hand in each test.
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

/* model.damon_young / model.damon_checked, 0 while no event had accesses (not there then) */
static uint64_t young(const struct rf_model *m)
{
	uint64_t v = 0;

	return rf_model_counter(m, "model.damon_young", &v) ? v : 0;
}

static uint64_t checked(const struct rf_model *m)
{
	uint64_t v = 0;

	return rf_model_counter(m, "model.damon_checked", &v) ? v : 0;
}

/*
 * 64 pages of file 2 mapped and faulted (young), 16 more of it only read
 * (resident, not mapped), 8 anonymous pages.  Regions with no access, of
 * another mm, or past the pages change nothing.  Over the file mapping with
 * every check a hit and 4096 checks (k = N = 4096, more than its pages):
 * nothing to mark (80 of 80 wanted young, 64 young, none old; the 16 are no
 * PTE's), and all 64 young PTEs checked.  Again with k = N = 20: all 64 old
 * now, 80 wanted, so all 64 marked; then each young page checked with chance
 * 20 / 64: binomial mean 20, sd 3.7.  The heap the same way: 8 checked, then 8
 * marked.  --set damon=off: nothing.
 */
static void test_which_pages(void)
{
	const char *const off[] = { "cpus=1", "damon=off", NULL };
	struct rf_model *m = mk("v6.18", quiet), *o = mk("v6.18", off);
	uint64_t c;
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
	damon(m, MM + 1, ADDR, 80, 20, 20, 2000);
	damon(m, MM, ADDR + 80 * PAGE, 64, 20, 20, 3000);
	is_int(young(m) + checked(m), 0,
	   "no access, another address space, past the pages: nothing marked or checked");
	damon(m, MM, ADDR, 80, 4096, 4096, 4000);
	is_int(young(m) * 1000 + checked(m), 64,
	       "k = N = 4096 over the file mapping: none to mark, its 64 young PTEs checked");
	damon(m, MM, ADDR, 80, 20, 20, 5000);
	c = checked(m) - 64;
	ok(young(m) == 64 && c >= 9 && c <= 31,
	   "k = N = 20: the 64 mapped pages marked (%llu), then %llu checked (20 +- 11)",
	   (unsigned long long)young(m), (unsigned long long)c);
	damon(m, MM, HEAP - 4 * PAGE, 16, 4096, 4096, 6000);
	damon(m, MM, HEAP - 4 * PAGE, 16, 20, 20, 7000);
	ok(young(m) == 72 && checked(m) - c - 64 >= 8,
	   "the heap: its 8 anonymous pages checked, then marked");
	is_int(C(m, "model.damon_regions"), 5,
	       "five regions of its address space had accesses (the one past the pages too)");
	damon(o, MM, ADDR, 80, 20, 20, 4000);
	ok(!rf_model_counter(o, "model.damon_young", &(uint64_t){ 0 }),
	   "damon=off: the events change nothing");
	rf_model_free(m);
	rf_model_free(o);
}

/*
 * 4096 anonymous pages, all young from their faults: k = 1 of 20 wants 5 %
 * young, which they are already: nothing marked, each checked with chance
 * 1 / 4096.  All checked (k = N = 4096), then k = 205 of 4096: 205 wanted,
 * each old page marked with chance 205 / 4096: binomial mean 205, sd 14.
 * k = 10 of 20 on a second model, checked the same way first: 2048 +- 32.
 * Draws are a function of the event and the page: a third model gives the
 * same count.
 */
static void test_fraction(void)
{
	const char *const big[] = { "cpus=1", "memory=64M", NULL };
	struct rf_model *m = mk("v6.18", big), *m2 = mk("v6.18", big), *m3 = mk("v6.18", big);
	uint64_t y, y3;
	int i;

	for (i = 0; i < 4096; i++) {
		anon_fault(m, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
		anon_fault(m2, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
		anon_fault(m3, 0, 2, MM, HEAP + (uint64_t)i * PAGE, 0);
	}
	damon(m, MM, HEAP, 4096, 1, 20, 1000);
	ok(young(m) == 0 && checked(m) <= 6,
	   "k = 1 of 20 over pages a fault made young: none marked, %llu checked",
	   (unsigned long long)checked(m));
	damon(m, MM, HEAP, 4096, 4096, 4096, 2000);
	damon(m3, MM, HEAP, 4096, 1, 20, 1000);
	damon(m3, MM, HEAP, 4096, 4096, 4096, 2000);
	damon(m, MM, HEAP, 4096, 205, 4096, 3000);
	damon(m3, MM, HEAP, 4096, 205, 4096, 3000);
	y = young(m), y3 = young(m3);
	ok(y >= 163 && y <= 247, "k = 205 of 4096: %llu of 4096 pages marked (205 +- 42)",
	   (unsigned long long)y);
	is_int(y3, y, "the same events on the same pages: the same pages");
	damon(m2, MM, HEAP, 4096, 4096, 4096, 2000);
	damon(m2, MM, HEAP, 4096, 10, 20, 3000);
	ok(young(m2) >= 1952 && young(m2) <= 2144, "k = 10 of 20: %llu marked (2048 +- 96)",
	   (unsigned long long)young(m2));
	rf_model_free(m);
	rf_model_free(m2);
	rf_model_free(m3);
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
/*
 * On @m, with file 2 mapped at ADDR: fault its 64 pages, stream 8192 pages of
 * file 3, with a DAMON region over the 64 (every check a hit) every 256 if
 * @with_damon, fault the 64 again.  The major faults of the last, and
 * pgactivate before them (@activated, may be NULL); @m is freed.
 */
static uint64_t majfaults_after_stream(struct rf_model *m, bool with_damon, uint64_t *activated)
{
	uint64_t before;
	int i;

	fault_pages(m, MM, 2, 64);
	for (i = 0; i < 8192; i++) {
		read_pages(m, 0, 3, 3, (uint64_t)i, 1);
		if (with_damon && i % 256 == 255)
			damon(m, MM, ADDR, 64, 20, 20, 1000u + (uint64_t)i);
	}
	if (activated)
		*activated = C(m, "vmstat.pgactivate");
	before = C(m, "vmstat.pgmajfault");
	fault_pages(m, MM, 2, 64);
	before = C(m, "vmstat.pgmajfault") - before;
	rf_model_free(m);
	return before;
}

static void test_reclaim_sees_them(void)
{
	uint64_t act0, act1;

	is_int(majfaults_after_stream(small_mapped("v6.18", MM, ADDR), false, &act0), 64,
	       "no DAMON: the 64 mapped pages are evicted by the stream");
	is_int(majfaults_after_stream(small_mapped("v6.18", MM, ADDR), true, &act1), 0,
	       "accessed every 256 pages of the stream: none is evicted");
	ok(act1 >= 64 && act1 > act0, "... they were activated (pgactivate %llu, %llu without)",
	   (unsigned long long)act1, (unsigned long long)act0);
}

/*
 * The multi-gen LRU (v6.12.117): 64 pages of file 2 mapped and faulted (young
 * PTEs), then, with @check, all 64 PTEs checked by DAMON (PG_idle_young, the
 * PTE old), then 8192 pages of file 3 faulted through 4 MiB.  Eviction's
 * folio_referenced() runs lru_gen_look_around() only on a young PTE: it finds
 * the 64 checked pages' PTEs old, so look-around counts exactly 64 young PTEs
 * fewer, and folio_test_clear_young() still makes each referenced, so reclaim
 * keeps and then evicts them as it does without DAMON (64 major faults again).
 */
static void mglru_after_stream(bool check, uint64_t *look, uint64_t *maj)
{
	struct rf_model *m = small_mapped("v6.12-mglru", MM, ADDR);
	uint64_t before;

	fault_pages(m, MM, 2, 64);
	if (check)
		damon(m, MM, ADDR, 64, 4096, 4096, 1000);
	mmap_file(m, 2, MM, ADDR + (1ull << 30), 8192, 3);
	fault_pages(m, MM, 3, 8192);
	*look = C(m, "model.lru_gen_look_around.young");
	before = C(m, "vmstat.pgmajfault");
	fault_pages(m, MM, 2, 64);
	*maj = C(m, "vmstat.pgmajfault") - before;
	rf_model_free(m);
}

static void test_mglru_checked(void)
{
	uint64_t l0, m0, l1, m1;

	mglru_after_stream(false, &l0, &m0);
	mglru_after_stream(true, &l1, &m1);
	is_int(l0 - l1, 64, "v6.12-mglru: look-around finds the 64 checked PTEs old (%llu, %llu)",
	       (unsigned long long)l0, (unsigned long long)l1);
	ok(m0 == 64 && m1 == 64, "... and reclaim counts them referenced all the same: the "
	   "same evictions (%llu, %llu major faults after)", (unsigned long long)m0,
	   (unsigned long long)m1);
}

/*
 * vma_has_recency(), v6.3+ (v6.12, v6.18): references through a VM_RAND_READ
 * vma count for nothing, as VM_SEQ_READ ones never did; v6.1 counts them.
 * 64 mapped pages of file 2, the first 32 under MADV_RANDOM (the vma split
 * in two), faulted, then kept young by DAMON every 256 pages of a stream of
 * 8192 through 4 MiB (as test_reclaim_sees_them): on v6.18 the 32 random
 * ones are reclaimed as if never referenced (32 major faults after), on
 * v6.1 none is; MADV_NORMAL over the whole range before the faults: none.
 */
static uint64_t majfaults_rand(const char *profile, bool normal_after)
{
	struct rf_model *m = small_mapped(profile, MM, ADDR);

	madvise(m, 0, 2, MM, ADDR, 32, 1 /* MADV_RANDOM */);
	if (normal_after)
		madvise(m, 0, 2, MM, ADDR, 64, 0 /* MADV_NORMAL */);
	return majfaults_after_stream(m, true, NULL);
}

static void test_rand_read(void)
{
	is_int(majfaults_rand("v6.18", false), 32,
	       "v6.18: the 32 pages of the MADV_RANDOM half are reclaimed as unreferenced");
	is_int(majfaults_rand("v6.1", false), 0, "v6.1: references through it count");
	is_int(majfaults_rand("v6.18", true), 0, "v6.18, MADV_NORMAL after: they count again");
}

int main(void)
{
	plan(18);
	test_which_pages();
	test_fraction();
	test_reclaim_sees_them();
	test_mglru_checked();
	test_rand_read();
	return done_testing();
}
