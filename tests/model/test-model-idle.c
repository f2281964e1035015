/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pte_young events (replayer/model/idle.c): the mapped pages a scan found
 * accessed have their PTE bit moved to PG_idle_young, which reclaim's
 * folio_referenced() counts; pages not resident or not mapped, and other
 * address spaces, are left alone.
 */
#include "tests/model/model-helpers.h"

#define MM	7
#define ADDR	0x100000ull

static void young(struct rf_model *m, uint64_t mm, uint64_t start, uint64_t pages, uint64_t time)
{
	struct rf_event ev = { .time = time, .pid = 2, .type = RF_EV_PTE_YOUNG };

	ev.u.young.mm = mm;
	ev.u.young.start = start;
	ev.u.young.end = start + pages * PAGE;
	feed(m, &ev);
}

static uint64_t moved(const struct rf_model *m)
{
	uint64_t v = 0;

	return rf_model_counter(m, "model.idle_young", &v) ? v : 0;
}

/*
 * File 2 mapped over 80 pages, 64 of them faulted, 16 only read (resident,
 * no PTE): a scan over all 80 moves 64; one of another address space or past
 * the mapping moves none.
 */
static void test_which_pages(void)
{
	const char *const quiet[] = { "cpus=1", NULL };
	struct rf_model *m = mk("v6.18", quiet);
	int i;

	mmap_file(m, 2, MM, ADDR, 80, 2);
	for (i = 0; i < 64; i++)
		file_fault(m, 0, 2, MM, 2, (uint64_t)i);
	read_pages(m, 0, 2, 2, 64, 16);
	young(m, MM + 1, ADDR, 80, 1000);
	young(m, MM, ADDR + 80 * PAGE, 64, 2000);
	is_int(moved(m), 0, "another address space, past the mapping: nothing");
	young(m, MM, ADDR, 80, 3000);
	is_int(moved(m), 64, "over the mapping: its 64 mapped pages, not the 16 only read");
	rf_model_free(m);
}

/*
 * Classic reclaim (folio_check_references(), v6.18) of 64 mapped file pages
 * faulted once, then a stream of 8192 read pages through 4 MiB: without
 * scans they are found young once, then old, and evicted (64 major faults
 * again); with a scan finding them accessed every 256 pages of the stream,
 * they are referenced at each look, activated, and stay.
 */
static uint64_t majfaults_after_stream(bool scans, uint64_t *activated)
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
		if (scans && i % 256 == 255)
			young(m, MM, ADDR, 64, 1000u + (uint64_t)i);
	}
	*activated = C(m, "vmstat.pgactivate");
	before = C(m, "vmstat.pgmajfault");
	for (i = 0; i < 64; i++)
		file_fault(m, 0, 2, MM, 2, (uint64_t)i);
	before = C(m, "vmstat.pgmajfault") - before;
	rf_model_free(m);
	return before;
}

static void test_reclaim_sees_them(void)
{
	uint64_t act0, act1;

	is_int(majfaults_after_stream(false, &act0), 64,
	       "no scan: the 64 mapped pages are evicted by the stream");
	is_int(majfaults_after_stream(true, &act1), 0,
	       "found accessed every 256 pages of the stream: none is evicted");
	ok(act1 >= 64 && act1 > act0, "... they were activated (pgactivate %llu, %llu without)",
	   (unsigned long long)act1, (unsigned long long)act0);
}

int main(void)
{
	plan(5);
	test_which_pages();
	test_reclaim_sees_them();
	return done_testing();
}
