/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pte_young events (replayer/model/idle.c): each page a scan found accessed
 * is a hit where the model has it mapped, a minor fault where it is resident
 * only, faulted in (counted) where it is not, or with idle_absent=skip left
 * out; then its PTE bit moves to
 * PG_idle_young, which reclaim's folio_referenced() counts.
 */
#include "tests/model/model-helpers.h"

#define MM	7
#define ADDR	0x100000ull

/* @pages pages of file @ino (0: anonymous) from page @index, mapped at @start in @mm. */
static void young(struct rf_model *m, uint64_t mm, uint64_t start, uint64_t pages, uint64_t ino,
		  uint64_t index, uint64_t time)
{
	struct rf_event ev = { .time = time, .pid = 2, .type = RF_EV_PTE_YOUNG };

	ev.u.young.mm = mm;
	ev.u.young.start = start;
	ev.u.young.end = start + pages * PAGE;
	ev.u.young.dev = ino ? 8 : 0;
	ev.u.young.ino = ino;
	ev.u.young.index = index;
	feed(m, &ev);
}

static uint64_t counter(const struct rf_model *m, const char *key)
{
	uint64_t v = 0;

	return rf_model_counter(m, key, &v) ? v : 0;
}

/*
 * File 2 mapped over 80 pages, 64 of them faulted, 16 only read (resident,
 * no PTE): a scan over all 80 is 64 hits and 16 minor faults, all 80 moved;
 * over 8 anonymous pages never touched, with idle_absent=skip, left out.  An
 * empty range: nothing.
 */
static void test_which_pages(void)
{
	const char *const quiet[] = { "cpus=1", "idle_absent=skip", NULL };
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t maj;

	mmap_file(m, 2, MM, ADDR, 80, 2);
	fault_pages(m, MM, 2, 64);
	read_pages(m, 0, 2, 2, 64, 16);
	young(m, MM, ADDR, 0, 2, 0, 1000);
	is_int(counter(m, "model.idle_young"), 0, "an empty range: nothing");
	maj = C(m, "vmstat.pgmajfault");
	young(m, MM, ADDR, 80, 2, 0, 2000);
	ok(counter(m, "model.idle_young") == 80 && counter(m, "model.idle_faults") == 16 &&
	   C(m, "vmstat.pgmajfault") == maj, "over the mapping: 64 hits, 16 minor faults, 80 moved "
	   "(moved %llu, faults %llu)", (unsigned long long)counter(m, "model.idle_young"),
	   (unsigned long long)counter(m, "model.idle_faults"));
	young(m, MM, 0x900000ull, 8, 0, 0, 3000);
	ok(counter(m, "model.idle_faults") == 16 && counter(m, "model.idle_young") == 80 &&
	   counter(m, "model.idle_absent") == 8,
	   "8 anonymous pages the model never saw: left out, counted (absent %llu, moved %llu)",
	   (unsigned long long)counter(m, "model.idle_absent"),
	   (unsigned long long)counter(m, "model.idle_young"));
	rf_model_free(m);
}

/*
 * With idle_absent=skip a page the model evicted and the recording kernel
 * kept (a hit there, no fault in the trace) is left out: the scan comes
 * after the access (idle.c says why): 64 mapped pages, a stream that evicts
 * them from a 4 MiB model, then a scan that found them accessed: no fault,
 * 64 counted absent.
 */
static void test_model_miss(void)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1",
				      "idle_absent=skip", NULL };
	struct rf_model *m = mk("v6.18", small);
	uint64_t maj;
	int i;

	mmap_file(m, 2, MM, ADDR, 64, 2);
	fault_pages(m, MM, 2, 64);
	for (i = 0; i < 8192; i++)
		read_pages(m, 0, 3, 3, (uint64_t)i, 1);
	maj = C(m, "vmstat.pgmajfault");
	young(m, MM, ADDR, 64, 2, 0, 1000000);
	ok(C(m, "vmstat.pgmajfault") == maj && counter(m, "model.idle_absent") == 64,
	   "the 64 the model evicted: no fault, 64 absent");
	rf_model_free(m);
}

/*
 * The same with idle_absent=fault, the default: the access the scan saw
 * faults each of the 64 in again under the model's policy: 64 major
 * faults, 64 refaults (their shadows), 64 counted absent and 64 faulted;
 * a second scan naming
 * them again finds them held: hits.  A scan of 8 anonymous pages the
 * model never held: left alone (a page it never had has its fault in the
 * trace); one over the whole address space costs the slots, not its length.
 */
static void test_model_miss_fault(void)
{
	const char *const small[] = { "memory=4M", "cpus=1", "pagevec_size=1", NULL };
	struct rf_model *m = mk("v6.18", small);
	uint64_t maj, refault;
	int i;

	mmap_file(m, 2, MM, ADDR, 64, 2);
	fault_pages(m, MM, 2, 64);
	for (i = 0; i < 8192; i++)
		read_pages(m, 0, 3, 3, (uint64_t)i, 1);
	maj = C(m, "vmstat.pgmajfault");
	refault = C(m, "vmstat.workingset_refault_file");
	young(m, MM, ADDR, 64, 2, 0, 1000000);
	ok(C(m, "vmstat.pgmajfault") - maj == 64 &&
	   C(m, "vmstat.workingset_refault_file") - refault == 64 &&
	   counter(m, "model.idle_absent") == 64 && counter(m, "model.idle_faults") == 64,
	   "idle_absent=fault: the 64 the model evicted fault in again, 64 refaults "
	   "(majfault %llu, refault %llu)",
	   (unsigned long long)(C(m, "vmstat.pgmajfault") - maj),
	   (unsigned long long)(C(m, "vmstat.workingset_refault_file") - refault));
	young(m, MM, ADDR, 64, 2, 0, 1001000);
	is_int(counter(m, "model.idle_faults"), 64, "... named again: held, hits");
	young(m, MM, 0x900000ull, 8, 0, 0, 1002000);
	ok(counter(m, "model.idle_faults") == 64 && C(m, "vmstat.nr_anon_pages") == 0,
	   "... 8 anonymous pages never seen: left alone (their fault is the trace's; anon %llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	young(m, MM, 0, (UINT64_MAX >> 12) - 1, 0, 0, 1003000);
	ok(counter(m, "model.idle_faults") == 64,
	   "... a run over the whole address space: nothing more, at once");
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
	struct rf_model *m = small_mapped("v6.18", MM, ADDR);
	uint64_t before;
	int i;

	fault_pages(m, MM, 2, 64);
	for (i = 0; i < 8192; i++) {
		read_pages(m, 0, 3, 3, (uint64_t)i, 1);
		if (scans && i % 256 == 255)
			young(m, MM, ADDR, 64, 2, 0, 1000u + (uint64_t)i);
	}
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

	is_int(majfaults_after_stream(false, &act0), 64,
	       "no scan: the 64 mapped pages are evicted by the stream");
	is_int(majfaults_after_stream(true, &act1), 0,
	       "found accessed every 256 pages of the stream: none is evicted");
	ok(act1 >= 64 && act1 > act0, "... they were activated (pgactivate %llu, %llu without)",
	   (unsigned long long)act1, (unsigned long long)act0);
}

int main(void)
{
	plan(11);
	test_which_pages();
	test_model_miss();
	test_model_miss_fault();
	test_reclaim_sees_them();
	return done_testing();
}
