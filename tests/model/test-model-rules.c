/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One hand-made event sequence per reclaim rule; the expected numbers are
 * derived in the comments from the kernel function each rule models.
 * All runs use 256M of memory (no global reclaim) unless a test says so.
 */
#include "model-helpers.h"

#define MADV_PAGEOUT 21

static const char *const quiet_v46[] = { "memory=256M", "cpus=2", "pagevec_size=1", NULL };

/*
 * mm/swap.c: mark_page_accessed(), v4.6.2.  First read: PG_referenced.
 * Second read: the page is in this CPU's lru_add batch (pre-8f18, size 1:
 * it stays until the next add), __lru_cache_activate_page() sets PG_active
 * there, so it reaches the active list at drain without a pgactivate.
 * The third page read drains the batch.
 */
static void test_two_touch(void)
{
	struct rf_model *m = mk("v4.6", quiet_v46);

	read_pages(m, 0, 0, 1, 0, 1);
	read_pages(m, 0, 0, 1, 1, 1);		/* drains page 0: inactive, referenced */
	is_int(C(m, "vmstat.nr_inactive_file"), 1, "one touch: page 0 inactive");
	is_int(C(m, "vmstat.nr_active_file"), 0, "one touch: nothing active");
	read_pages(m, 0, 0, 1, 0, 1);		/* second touch of page 0 (on the LRU) */
	is_int(C(m, "vmstat.nr_active_file"), 1, "two touches: page 0 active");
	is_int(C(m, "vmstat.pgactivate"), 1,
	       "activation through activate_page() counts pgactivate");
	rf_model_free(m);

	/* the second touch on another CPU, while CPU 0's batch holds the page, is lost */
	m = mk("v4.6", (const char *const[]){ "memory=256M", "cpus=2", NULL });
	read_pages(m, 0, 0, 1, 0, 1);
	read_pages(m, 1, 1, 1, 0, 1);		/* another reader, on CPU 1 */
	madvise(m, 0, 0, 77, 0, 1, 4);		/* MADV_DONTNEED drains CPU 0 */
	is_int(C(m, "vmstat.nr_active_file") * 10 + C(m, "vmstat.nr_inactive_file"), 1,
	       "second touch from another CPU while batched: lost (inactive, not active)");
	rf_model_free(m);

	m = mk("v4.6", (const char *const[]){ "memory=256M", "cpus=2", NULL });
	read_pages(m, 0, 0, 1, 0, 1);
	read_pages(m, 0, 1, 1, 0, 1);		/* another reader (the same one would not count) */
	madvise(m, 0, 0, 77, 0, 1, 4);
	is_int(C(m, "vmstat.nr_active_file"), 1,
	       "second touch on the same CPU: activated inside the lru_add batch");
	is_int(C(m, "vmstat.pgactivate"), 0, "... without a pgactivate count");
	rf_model_free(m);
}

/*
 * Refault distance (mm/workingset.c, 23047a96 / v4.6): A = 4 pages made
 * active (4 activations, inactive_age 4), one mapped page evicted by
 * MADV_PAGEOUT (E = 5), k more evictions (age 5 + k), refault: distance k,
 * activated iff k <= NR_ACTIVE_FILE of the memcg (4).
 */
static void refault_after(const char *profile, int k, uint64_t *refault, uint64_t *activate)
{
	struct rf_model *m = mk(profile, quiet_v46);
	int i;

	for (i = 0; i < 4; i++) {
		read_pages(m, 0, 0, 2, i, 1);
		read_pages(m, 0, 1, 2, i, 1);	/* another reader: a second access */
	}
	mmap_file(m, 0, 1, 0x100000, 16, 3);
	for (i = 0; i <= k; i++)
		file_fault(m, 0, 0, 1, 3, i);
	madvise(m, 0, 0, 1, 0x100000, 16, MADV_PAGEOUT);
	read_pages(m, 0, 0, 3, 0, 1);
	*refault = C(m, "vmstat.workingset_refault");
	*activate = C(m, "vmstat.workingset_activate");
	rf_model_free(m);
}

static void test_refault_distance(void)
{
	uint64_t r, a;

	refault_after("v4.6", 4, &r, &a);
	ok(r == 1 && a == 1, "distance 4 <= active_file 4: refault activated (refault %llu, "
	   "activate %llu)", (unsigned long long)r, (unsigned long long)a);
	refault_after("v4.6", 5, &r, &a);
	ok(r == 1 && a == 0, "distance 5 > active_file 4: refault counted, not activated "
	   "(refault %llu, activate %llu)", (unsigned long long)r, (unsigned long long)a);
}

/*
 * v6.18: eviction reads nonresident_age before aging it by nr (v5.10.7 aged
 * first) and activations age it too, so E = 4 and now = 5 + k: distance k + 1.
 * The threshold is the active file list (no swap, so anon does not count),
 * read exactly here (memcg_stats=exact; the flushed reading is tested below).
 */
static const char *const exact_v618[] = { "memory=256M", "cpus=2", "pagevec_size=1",
					  "memcg_stats=exact", NULL };

enum stats_flush { NO_FLUSH, MEMORY_STAT_READ, PERIODIC_FLUSH };

/* an event with the trace clock at @t: a memory.stat read of the root, or /proc/vmstat */
static void counters_at(struct rf_model *m, uint64_t t, bool memcg_stat)
{
	struct rf_event ev = { .time = t, .type = RF_EV_COUNTERS };

	ev.u.counters.source = memcg_stat ? RF_COUNTERS_MEMCG_STAT : RF_COUNTERS_VMSTAT;
	ev.u.counters.cgroup = 1;
	feed(m, &ev);
}

static uint64_t refault_v618_at(const char *const *kv, int k, enum stats_flush flush)
{
	struct rf_model *m = mk("v6.18", kv);
	uint64_t a;
	int i;

	cg_mkdir(m, 1, 0, "/");
	/* a first flush (empty lists); the periodic one counts from here */
	counters_at(m, 1000, true);
	for (i = 0; i < 4; i++) {
		read_pages(m, 0, 0, 2, i, 1);
		read_pages(m, 0, 1, 2, i, 1);	/* another reader: a second access */
	}
	if (flush == MEMORY_STAT_READ)
		counters_at(m, 2000, true);
	if (flush == PERIODIC_FLUSH)
		counters_at(m, 1000 + 2000000000ull, false);
	mmap_file(m, 0, 1, 0x100000, 16, 3);
	for (i = 0; i <= k; i++)
		file_fault(m, 0, 0, 1, 3, i);
	madvise(m, 0, 0, 1, 0x100000, 16, MADV_PAGEOUT);
	read_pages(m, 0, 0, 3, 0, 1);
	a = C(m, "vmstat.workingset_activate_file");
	rf_model_free(m);
	return a;
}

static void refault_v618(int k, uint64_t *a)
{
	*a = refault_v618_at(exact_v618, k, NO_FLUSH);
}

static void test_refault_v618(void)
{
	uint64_t a4, a5;

	refault_v618(3, &a4);
	refault_v618(4, &a5);
	ok(a4 == 1 && a5 == 0, "v6.18: activated at distance 4, not at 5 (active_file 4)");
	/*
	 * 6.x rstat: workingset_test_recent() reads the active list as of the
	 * last stats flush (until the first flush, the current values).  With
	 * a flush before the 4 activations and none since it sees 0;
	 * a memory.stat read (the recorder's snapshot) or the periodic flush
	 * 2 s of trace time later brings it to 4.
	 */
	ok(refault_v618_at(quiet_v46, 3, NO_FLUSH) == 0,
	   "v6.18 flushed stats: no flush since the activations, distance 4 not activated");
	ok(refault_v618_at(quiet_v46, 3, MEMORY_STAT_READ) == 1,
	   "... a memory.stat read flushes: activated");
	ok(refault_v618_at(quiet_v46, 3, PERIODIC_FLUSH) == 1,
	   "... the periodic flush 2 s later: activated");
}

/*
 * 23047a96: a refault whose evicting memcg id is gone is neither activated
 * nor counted (mem_cgroup_from_id() fails); v4.5 has no id in the shadow
 * and counts it, and activates it (distance 0 <= zone active 0).
 */
static void gone_memcg(const char *profile, uint64_t *r, uint64_t *a)
{
	struct rf_model *m = mk(profile, quiet_v46);

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	mmap_file(m, 100, 1, 0x100000, 4, 3);
	file_fault(m, 0, 100, 1, 3, 0);
	madvise(m, 0, 100, 1, 0x100000, 4, MADV_PAGEOUT);	/* evicted, charged to /a */
	cg_simple(m, RF_EV_CGROUP_ATTACH, 999, 100, 0, 0);	/* back to the root */
	cg_simple(m, RF_EV_CGROUP_RMDIR, 10, 0, 0, 0);		/* /a empty: id released */
	read_pages(m, 0, 200, 3, 0, 1);
	*r = C(m, "vmstat.workingset_refault");
	*a = C(m, "vmstat.workingset_activate");
	rf_model_free(m);
}

static void test_gone_memcg(void)
{
	uint64_t r, a;

	gone_memcg("v4.6", &r, &a);
	ok(r == 0 && a == 0, "v4.6: refault of a removed memcg's page: not counted, not activated");
	gone_memcg("v4.6+55779ec", &r, &a);
	ok(r == 0 && a == 0, "v4.6+55779ec: same as v4.6");
	gone_memcg("v4.5", &r, &a);
	ok(r == 1 && a == 1, "v4.5: the same refault is counted and activated");
}

/*
 * Two cgroups.  /hot (pid 100) has 4 active pages and one hot page h that
 * was evicted; /stream (pid 200) then streams: 6 of its pages are evicted.
 * h refaults.
 *   v4.5: one zone counter: the 6 stream evictions age h's shadow, distance
 *         6 > zone NR_ACTIVE_FILE 4 -> not activated: the stream pushes the
 *         hot set out.
 *   v4.6: /hot's own counter did not move: distance 0 <= /hot's active 4 ->
 *         activated: the stream in another cgroup no longer ages /hot.
 */
static void two_cgroups(const char *profile, uint64_t *a)
{
	struct rf_model *m = mk(profile, quiet_v46);
	int i;

	cg_mkdir(m, 10, 1, "/hot");
	cg_mkdir(m, 11, 1, "/stream");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 200, 0, 0);
	for (i = 0; i < 4; i++) {
		read_pages(m, 0, 100, 2, i, 1);
		read_pages(m, 0, 100, 2, i, 1);
	}
	mmap_file(m, 100, 1, 0x100000, 1, 3);
	file_fault(m, 0, 100, 1, 3, 0);
	madvise(m, 0, 100, 1, 0x100000, 1, MADV_PAGEOUT);
	mmap_file(m, 200, 2, 0x100000, 6, 4);
	for (i = 0; i < 6; i++)
		file_fault(m, 0, 200, 2, 4, i);
	madvise(m, 0, 200, 2, 0x100000, 6, MADV_PAGEOUT);
	read_pages(m, 0, 100, 3, 0, 1);
	*a = C(m, "vmstat.workingset_activate");
	rf_model_free(m);
}

static void test_two_cgroups(void)
{
	uint64_t a45, a46;

	two_cgroups("v4.5", &a45);
	two_cgroups("v4.6", &a46);
	ok(a45 == 0, "v4.5: the stream in /stream ages /hot's refault past the zone's active list");
	ok(a46 == 1, "v4.6: /hot's refault is judged in /hot alone and activated");
}

/*
 * rf_model_plant_shadow(): a shadow from before the trace whose refault the
 * recording kernel found recent.  A page of /a read after it is planted is
 * a refault, activated, counted in /a, though the model's workingset holds
 * nothing (distance 0 <= 0 would pass, so the read comes after 6 evictions
 * of a stream in the root: v6.18 ages the root's nonresident age); a page
 * whose slot holds a page keeps it; after rf_model_finish(), refused.  Under
 * the multi-gen LRU the refault counts in the folio's memcg too.
 */
static void planted(const char *profile, uint64_t *r, uint64_t *a, uint64_t *cached)
{
	struct rf_model *m = mk(profile, quiet_v46);
	int i;

	read_pages(m, 0, 300, 7, 0, 1);			/* a page already cached */
	ok(rf_model_plant_shadow(m, 8, 3, 0, 0, true) == 0 &&
	   rf_model_plant_shadow(m, 8, 7, 0, 0, true) == 0,
	   "%s: shadows planted (one where a page is: left as it is)", profile);
	mmap_file(m, 200, 2, 0x100000, 6, 4);
	for (i = 0; i < 6; i++)
		file_fault(m, 0, 200, 2, 4, i);
	madvise(m, 0, 200, 2, 0x100000, 6, MADV_PAGEOUT);
	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	read_pages(m, 0, 100, 3, 0, 1);
	read_pages(m, 0, 100, 7, 0, 1);
	*r = C(m, "memcg./a.workingset_refault_file");
	*a = C(m, "memcg./a.workingset_activate_file");
	*cached = C(m, "vmstat.workingset_refault_file");
	rf_model_finish(m);
	ok(rf_model_plant_shadow(m, 8, 5, 0, 0, true) == RF_ERR_STATE,
	   "%s: refused after rf_model_finish()", profile);
	rf_model_free(m);
}

static void test_planted_shadow(void)
{
	uint64_t r, a, all;

	planted("v6.18", &r, &a, &all);
	ok(r == 1 && a == 1 && all == 1, "v6.18: the planted shadow's page refaults in /a, recent "
	   "after the root aged 6, and the cached page is no refault (refault %llu, activate %llu, "
	   "all %llu)", (unsigned long long)r, (unsigned long long)a, (unsigned long long)all);
	planted("v6.18-mglru", &r, &a, &all);
	ok(r == 1 && all == 1, "v6.18-mglru: counted in the folio's memcg (refault %llu, all %llu)",
	   (unsigned long long)r, (unsigned long long)all);
}

/*
 * Fault-around (RF_REF_AROUND): a folio filemap_map_pages() mapped is no
 * fault.  Held: mapped, no pgfault counted.  Not held (page 1, whose
 * shadow the model has): reference reads it in as a fault (a refault);
 * cached puts it in without one; mapped leaves it out; auto is cached in
 * a MADV_RANDOM mapping, reference elsewhere.
 */
static void around(const char *mode, int advice, uint64_t *pages, uint64_t *faults,
		   uint64_t *refaults)
{
	const char *const kv[] = { "memory=64M", "cpus=2", "pagevec_size=1", mode, NULL };
	struct rf_model *m = mk("v6.18", kv);
	struct rf_event ev = { .pid = 200, .type = RF_EV_FILE_FAULT };

	mmap_file(m, 200, 2, 0x100000, 16, 4);
	if (advice >= 0)
		madvise(m, 0, 200, 2, 0x100000, 16, advice);
	file_fault(m, 0, 200, 2, 4, 0);			/* faults: read pages 0 and 1 in */
	file_fault(m, 0, 200, 2, 4, 1);
	madvise(m, 0, 200, 2, 0x100000 + PAGE, 1, MADV_PAGEOUT);	/* page 1: a shadow */
	ev.u.file.dev = 8;
	ev.u.file.ino = 4;
	ev.u.file.mm = 2;
	ev.u.file.flags = RF_REF_AROUND;
	ev.u.file.index = 0;				/* held: only mapped */
	feed(m, &ev);
	ev.u.file.index = 1;				/* not held */
	feed(m, &ev);
	*pages = C(m, "vmstat.nr_file_pages");
	*faults = C(m, "vmstat.pgfault");
	*refaults = C(m, "vmstat.workingset_refault_file");
	rf_model_free(m);
}

static void test_fault_around(void)
{
	static const struct { const char *mode; int advice; uint64_t p, f, r; } want[] = {
		{ "fault_around=reference", -1, 2, 3, 1 },
		{ "fault_around=cached", -1, 2, 2, 0 },
		{ "fault_around=mapped", -1, 1, 2, 0 },
		{ "fault_around=auto", -1, 2, 3, 1 },
		{ "fault_around=auto", 1 /* MADV_RANDOM */, 2, 2, 0 },
	};
	uint64_t p, f, r;
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		around(want[i].mode, want[i].advice, &p, &f, &r);
		if (p != want[i].p || f != want[i].f || r != want[i].r) {
			diag("%s%s: pages %llu faults %llu refaults %llu", want[i].mode,
			     want[i].advice < 0 ? "" : " (MADV_RANDOM)", (unsigned long long)p,
			     (unsigned long long)f, (unsigned long long)r);
			bad++;
		}
	}
	ok(!bad, "fault-around: a held folio is mapped, no fault; one not held read in as a "
	   "refault (reference), put in without one (cached), left out (mapped); auto: cached "
	   "in a MADV_RANDOM mapping, else reference (%d of %zu differ)", bad, ARRAY_SIZE(want));
}

/*
 * Fault-around over folios mapped already: filemap_map_folio_range() skips
 * a present PTE, so mapping them again sets no young bit.  v6.1 (a
 * MADV_RANDOM mapping's young bits count there): 64 pages faulted into a
 * 32-page memcg, each fault followed by fault-around events naming the 8
 * pages before it (mapped, while resident); reclaim finds each page young
 * once, from its fault, keeps it once and evicts it: no activation.  Had
 * the windows set young bits again, the pages would be referenced twice.
 */
static uint64_t around_remapped(void)
{
	struct rf_model *m = mk("v6.1", quiet_v46);
	struct rf_event ev = { .pid = 200, .type = RF_EV_FILE_FAULT };
	uint64_t act;
	int i, j;

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 200, 0, 0);
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 32 * PAGE);
	mmap_file(m, 200, 2, 0x100000, 256, 4);
	madvise(m, 0, 200, 2, 0x100000, 256, 1 /* MADV_RANDOM */);
	ev.u.file.dev = 8;
	ev.u.file.ino = 4;
	ev.u.file.mm = 2;
	ev.u.file.flags = RF_REF_AROUND;
	for (i = 0; i < 64; i++) {
		file_fault(m, 0, 200, 2, 4, (uint64_t)i);
		for (j = i > 8 ? i - 8 : 0; j < i; j++) {
			ev.u.file.index = (uint64_t)j;
			feed(m, &ev);
		}
	}
	act = C(m, "vmstat.pgactivate");
	rf_model_free(m);
	return act;
}

static void test_around_remapped(void)
{
	uint64_t act = around_remapped();

	ok(act == 0, "fault-around over folios mapped already sets no young bit: no activation "
	   "(pgactivate %llu)", (unsigned long long)act);
}

/*
 * Page tables are per mm (file_pte_map()): a fault-around in mm 2 maps a
 * folio mm 1 maps already (its own PTE, young); each exit's zap marks it
 * accessed once, and the second activates it (zap_present_folio_ptes(),
 * v6.18: the libraries and ld.so.cache of a shell script's processes).  An
 * mm whose vma covers the folio and never mapped it marks nothing.
 */
static uint64_t two_mms(bool second_maps)
{
	struct rf_model *m = mk("v6.18", (const char *const[]){ "memory=64M", "cpus=1",
								"pagevec_size=1", NULL });
	struct rf_event ev = { .pid = 11, .type = RF_EV_FILE_FAULT };
	uint64_t act;

	task_event(m, RF_EV_EXEC, 0, 10, 0, 1);
	task_event(m, RF_EV_EXEC, 0, 11, 0, 2);
	mmap_file(m, 10, 1, 0x100000, 16, 4);
	mmap_file(m, 11, 2, 0x200000, 16, 4);
	file_fault(m, 0, 10, 1, 4, 0);
	if (second_maps) {
		ev.u.file.dev = 8;
		ev.u.file.ino = 4;
		ev.u.file.mm = 2;
		ev.u.file.flags = RF_REF_AROUND;
		feed(m, &ev);
	}
	task_event(m, RF_EV_EXIT, 0, 11, 0, 2);
	task_event(m, RF_EV_EXIT, 0, 10, 0, 1);
	act = C(m, "vmstat.pgactivate");
	rf_model_free(m);
	return act;
}

static void test_ptes_per_mm(void)
{
	uint64_t both = two_mms(true), one = two_mms(false);

	ok(both == 1 && one == 0, "a folio two mms map is marked accessed at each exit and "
	   "activated (pgactivate %llu); an mm that never mapped it marks nothing (%llu)",
	   (unsigned long long)both, (unsigned long long)one);
}

/*
 * The kernel's own reads (rf_model_kernel_read()): a folio read in,
 * charged to the trace cgroup's memcg, accessed once (inactive) or twice
 * (active once its batch drains); a held one only marked.
 */
static void test_kernel_read(void)
{
	struct rf_model *m = mk("v6.18", quiet_v46);
	int i, e = 0;

	cg_mkdir(m, 10, 1, "/a");
	for (i = 0; i < 40; i++)
		e |= rf_model_kernel_read(m, 10, 3, 20, (uint64_t)i, 0, i < 2 ? 2 : 1);
	e |= rf_model_kernel_read(m, 10, 3, 20, 0, 0, 1);
	ok(!e && C(m, "memcg./a.usage") == 40 && C(m, "vmstat.nr_active_file") == 2 &&
	   C(m, "model.file_pages_added") == 40,
	   "rf_model_kernel_read(): 40 folios in /a (usage %llu), the 2 read twice active (%llu)",
	   (unsigned long long)C(m, "memcg./a.usage"),
	   (unsigned long long)C(m, "vmstat.nr_active_file"));
	rf_model_finish(m);
	ok(rf_model_kernel_read(m, 10, 3, 20, 50, 0, 1) == RF_ERR_STATE,
	   "rf_model_kernel_read(): refused after rf_model_finish()");
	rf_model_free(m);
}

/*
 * Per-CPU batches and THP (8f182270): a task faults 3 THPs on CPU 1 and
 * exits on CPU 0; exit_mmap() drains only CPU 0.  Before 8f182270 the THPs
 * sit in CPU 1's lru_add batch (it drains only when full): 3 * 512 pages
 * stranded.  After, a compound page drains the batch at once: none.
 */
static void stranded(const char *pvec, uint64_t *at_exit, uint64_t *after_drain)
{
	const char *kv[] = { "memory=256M", "cpus=2", pvec, NULL };
	struct rf_model *m = mk("v4.6", kv);
	int i;

	for (i = 0; i < 3; i++)
		anon_fault(m, 1, 100, 1, 0x200000ull * (i + 1), 9);
	task_event(m, RF_EV_EXIT, 0, 100, 0, 1);
	rf_model_finish(m);
	*at_exit = C(m, "gauge.stranded_pages_at_exit");
	rf_model_free(m);

	m = mk("v4.6", kv);
	for (i = 0; i < 3; i++)
		anon_fault(m, 1, 100, 1, 0x200000ull * (i + 1), 9);
	task_event(m, RF_EV_EXIT, 0, 100, 0, 1);
	madvise(m, 1, 300, 2, 0, 1, 4);		/* any lru_add_drain() on CPU 1 */
	*after_drain = C(m, "vmstat.nr_anon_pages");
	rf_model_free(m);
}

static void test_stranded(void)
{
	uint64_t e, d;

	stranded("pagevec=pre-8f18", &e, &d);
	is_int(e, 3 * 512, "pre-8f18: 3 THPs stranded in CPU 1's batch after exit");
	is_int(d, 0, "pre-8f18: freed once CPU 1 drains");
	stranded("pagevec=post-8f18", &e, &d);
	is_int(e, 0, "post-8f18: no THP stays in a batch");
}

/*
 * MADV_PAGEOUT (reclaim_pages(), v6.1): 8 anon pages.  Without swap
 * add_to_swap() fails: every page is activated (pgactivate 8) and stays.
 * With swap the write is asynchronous (disk swap): the first pass writes the
 * 8 pages (pswpout 8) and keeps them, resident in the swap cache with their
 * slots (shrink_folio_list(): pageout(), then "goto keep" under writeback);
 * a second MADV_PAGEOUT finds them written and clean and frees them, with no
 * second write.  Touching them then is 8 major faults and swap-ins, and 8
 * anon refaults (v6.18 anon workingset).
 */
static void test_pageout(void)
{
	struct rf_model *m = mk("v6.18", (const char *const[]){ "memory=256M", NULL });
	int i;

	for (i = 0; i < 8; i++)
		anon_fault(m, 0, 100, 1, 0x100000 + i * PAGE, 0);
	madvise(m, 0, 100, 1, 0x100000, 8, MADV_PAGEOUT);
	ok(C(m, "vmstat.pgactivate") == 8 && C(m, "vmstat.pswpout") == 0 &&
	   C(m, "vmstat.nr_anon_pages") == 8, "no swap: 8 pages activated, none written, all kept");
	rf_model_free(m);

	m = mk("v6.18", (const char *const[]){ "memory=256M", "swap=64M", NULL });
	for (i = 0; i < 8; i++)
		anon_fault(m, 0, 100, 1, 0x100000 + i * PAGE, 0);
	madvise(m, 0, 100, 1, 0x100000, 8, MADV_PAGEOUT);
	ok(C(m, "vmstat.pswpout") == 8 && C(m, "vmstat.nr_anon_pages") == 8 &&
	   C(m, "model.swap_used") == 8 && C(m, "model.nr_swap_entries") == 0,
	   "swap, first pass: 8 pages written, kept in the swap cache with their slots");
	madvise(m, 0, 100, 1, 0x100000, 8, MADV_PAGEOUT);
	ok(C(m, "vmstat.pswpout") == 8 && C(m, "vmstat.nr_anon_pages") == 0 &&
	   C(m, "model.swap_used") == 8 && C(m, "model.nr_swap_entries") == 8,
	   "second pass: the 8 written pages freed, not written again");
	for (i = 0; i < 8; i++)
		anon_fault(m, 0, 100, 1, 0x100000 + i * PAGE, 0);
	ok(C(m, "vmstat.pswpin") == 8 && C(m, "vmstat.pgmajfault") == 8 &&
	   C(m, "vmstat.workingset_refault_anon") == 8 && C(m, "model.swap_used") == 0,
	   "touched again: 8 swap-ins, 8 major faults, 8 anon refaults, slots freed");
	rf_model_free(m);
}

/*
 * thp=never: a recorded 2 MiB fault is its 512 base pages, each a fault
 * (do_anonymous_page()); recorded, one folio and one fault.  A fault
 * inside a range already present just makes it young.
 */
static void test_thp_never(void)
{
	struct rf_model *m = mk("v6.12", (const char *const[]){ "memory=256M", NULL });

	anon_fault(m, 0, 100, 1, 0x200000 + 5 * PAGE, 9);
	ok(C(m, "vmstat.pgfault") == 1 && C(m, "vmstat.nr_anon_pages") == 512,
	   "thp=recorded: one order-9 fault, 512 pages (%llu faults)",
	   (unsigned long long)C(m, "vmstat.pgfault"));
	rf_model_free(m);
	m = mk("v6.12", (const char *const[]){ "memory=256M", "thp=never", NULL });
	anon_fault(m, 0, 100, 1, 0x200000 + 5 * PAGE, 9);
	ok(C(m, "vmstat.pgfault") == 512 && C(m, "vmstat.nr_anon_pages") == 512,
	   "thp=never: the same fault is 512 base-page faults (%llu)",
	   (unsigned long long)C(m, "vmstat.pgfault"));
	anon_fault(m, 0, 100, 1, 0x200000 + 7 * PAGE, 9);
	ok(C(m, "vmstat.pgfault") == 1024 && C(m, "vmstat.nr_anon_pages") == 512,
	   "thp=never: again over present pages: faults counted, no page added");
	rf_model_free(m);
}

/* A read (flags 0) or write fault of anonymous page @page of @mm. */
static void anon_rw(struct rf_model *m, uint64_t mm, uint64_t page, bool write)
{
	struct rf_event ev = { .pid = 100, .type = RF_EV_ANON_FAULT };

	ev.u.anon.mm = mm;
	ev.u.anon.addr = 0x10000000 + page * PAGE;
	ev.u.anon.flags = write ? RF_REF_WRITE : 0;
	feed(m, &ev);
}

/*
 * do_anonymous_page(): a read fault of an untouched page maps the zero page
 * (zero_page=on), the write that follows allocates; a kernel that forbids it
 * (zero_page=off) allocates at the read.  An mm older than the trace (named,
 * not exec'd) may have had the page swapped out: its read faults allocate.
 */
static void test_zero_page(void)
{
	struct rf_model *m = mk("v6.12", (const char *const[]){ "memory=256M", "zero_page=on", NULL });
	uint64_t p;

	task_event(m, RF_EV_EXEC, 0, 100, 0, 7);
	for (p = 0; p < 64; p++)
		anon_rw(m, 7, p, false);
	ok(C(m, "vmstat.pgfault") == 64 && C(m, "vmstat.nr_anon_pages") == 0,
	   "zero_page=on: 64 read faults, no page (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	for (p = 0; p < 32; p++)
		anon_rw(m, 7, p, true);
	ok(C(m, "vmstat.pgfault") == 96 && C(m, "vmstat.nr_anon_pages") == 32,
	   "... the 32 writes after them: 32 pages (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	task_event(m, RF_EV_NAME_PID, 0, 0, 200, 8);
	for (p = 0; p < 16; p++)
		anon_rw(m, 8, p, false);
	ok(C(m, "vmstat.nr_anon_pages") == 48,
	   "... a process older than the trace: its 16 read faults allocate (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	rf_model_free(m);
	m = mk("v6.12", (const char *const[]){ "memory=256M", "zero_page=off", NULL });
	task_event(m, RF_EV_EXEC, 0, 100, 0, 7);
	for (p = 0; p < 64; p++)
		anon_rw(m, 7, p, false);
	ok(C(m, "vmstat.nr_anon_pages") == 64, "zero_page=off: 64 read faults, 64 pages (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	rf_model_free(m);
}

/* A write fault of page @index (a folio of 2^@order) of file @ino through mm @mm. */
static void file_write_fault(struct rf_model *m, uint64_t mm, uint64_t ino, uint64_t index,
			     int order)
{
	struct rf_event ev = { .pid = 2, .type = RF_EV_FILE_FAULT };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.order = order;
	ev.u.file.flags = RF_REF_WRITE;
	ev.u.file.mm = mm;
	feed(m, &ev);
}

/*
 * do_cow_fault(): a write fault in a private file mapping reads the file page
 * and maps an anonymous copy; in a shared one (MAP_SHARED) it maps the file
 * page.  The trace names a large folio's head at each of its pages' faults:
 * each is one more copy.
 */
static void test_cow(void)
{
	struct rf_model *m = mk("v6.12", (const char *const[]){ "memory=256M", NULL });
	struct rf_event ev = { .pid = 2, .type = RF_EV_MMAP };
	uint64_t i;

	mmap_file(m, 2, 9, 0x40000000, 64, 5);		/* flags 0: MAP_PRIVATE */
	for (i = 0; i < 8; i++)
		file_write_fault(m, 9, 5, i, 0);
	ok(C(m, "vmstat.nr_anon_pages") == 8 && C(m, "vmstat.nr_file_pages") == 8,
	   "private mapping: 8 write faults, 8 copies and the 8 file pages read (%llu, %llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"),
	   (unsigned long long)C(m, "vmstat.nr_file_pages"));
	for (i = 0; i < 4; i++)
		file_write_fault(m, 9, 5, 16, 2);
	ok(C(m, "vmstat.nr_anon_pages") == 12 && C(m, "vmstat.nr_file_pages") == 12,
	   "... an order-2 folio's 4 write faults: 4 copies (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"));
	ev.u.vma.mm = 10;
	ev.u.vma.addr = 0x50000000;
	ev.u.vma.len = 64 * PAGE;
	ev.u.vma.ino = 6;
	ev.u.vma.dev = 8;
	ev.u.vma.prot = 3;
	ev.u.vma.flags = 1;				/* MAP_SHARED */
	feed(m, &ev);
	for (i = 0; i < 8; i++)
		file_write_fault(m, 10, 6, i, 0);
	ok(C(m, "vmstat.nr_anon_pages") == 12 && C(m, "vmstat.nr_file_pages") == 20,
	   "a shared mapping's 8 write faults map the file pages, no copy (%llu, %llu)",
	   (unsigned long long)C(m, "vmstat.nr_anon_pages"),
	   (unsigned long long)C(m, "vmstat.nr_file_pages"));
	rf_model_free(m);
}

/*
 * Hierarchical limit (try_charge() / try_to_free_mem_cgroup_pages(), v4.6.2):
 * /p is limited to 64 pages, its child /p/c is not.  A task in /p/c reads 200
 * pages: every charge also charges /p, so /p's limit triggers limit reclaim
 * of /p's subtree, which finds the pages on /p/c's lruvec.  The sibling /q
 * is not touched, and global counters see no reclaim.
 */
/*
 * v6.18 prepare_scan_control(): limit reclaim may deactivate the file list
 * when WORKINGSET_ACTIVATE_FILE (hierarchical, as flushed) moved since the
 * last snapshot_refaults(), not only when the inactive list is low.  /a (128
 * pages) holds 16 active pages; a stream of 400 pages keeps the inactive list
 * well above them, so without refaults nothing is deactivated.  Re-reading
 * 8 of the stream pages evicted last refaults them, the last evicted with a
 * distance short enough to be activated; once a memory.stat read has flushed
 * that, the next stream's reclaims deactivate.  A memory.stat read after the
 * first stream flushes the list sizes the refault test and the ratio read.
 * Returns pgrefill of /a.
 */
static uint64_t deactivate_after_refaults(bool refaults, bool flush)
{
	struct rf_model *m = mk("v6.18", quiet_v46);
	struct rf_event ev = { .type = RF_EV_COUNTERS };
	uint64_t r;

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 128 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	read_pages(m, 0, 100, 2, 0, 16);
	read_pages(m, 0, 100, 2, 0, 16);
	ev.u.counters.source = RF_COUNTERS_MEMCG_STAT;
	ev.u.counters.cgroup = 10;
	read_pages(m, 0, 100, 3, 0, 400);
	feed(m, &ev);
	if (refaults)
		read_pages(m, 0, 100, 3, 288, 8);
	if (flush)
		feed(m, &ev);
	read_pages(m, 0, 100, 4, 0, 400);
	diag("refaults %d flush %d: activate %llu pgrefill %llu", refaults, flush,
	     (unsigned long long)C(m, "memcg./a.workingset_activate_file"),
	     (unsigned long long)C(m, "memcg./a.pgrefill"));
	r = C(m, "memcg./a.pgrefill");
	rf_model_free(m);
	return r;
}

/*
 * Swap-out takes two passes (shrink_folio_list(), v6.18): anon pages faulted
 * once each and never touched again, in a 64-page limit.  A page's first
 * scan sees its young PTE (two-look rule: PG_referenced, kept); the second
 * writes it (pswpout) and keeps it under writeback, rotated to the tail when
 * the write completes; the third frees it (pgsteal).  So each page reclaimed
 * was scanned exactly three times and written once, and the pages still
 * resident at the end add 1 or 2 scans each and, if written, a swap cache
 * slot: pgscan_anon = 3 pgsteal_anon + at most 2 x 64, pswpout = pgsteal_anon
 * + the slots of the swap cache.  (Freed in the writing pass it would be 2.)
 */
static void test_swapout_two_passes(void)
{
	struct rf_model *m = mk("v6.18", (const char *const[]){ "memory=256M", "swap=64M", NULL });
	uint64_t steal, scan, cached;
	int i;

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 64 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	for (i = 0; i < 1000; i++)
		anon_fault(m, 0, 100, 1, 0x100000 + i * PAGE, 0);
	steal = C(m, "vmstat.pgsteal_anon");
	scan = C(m, "vmstat.pgscan_anon");
	cached = C(m, "model.swap_used") - C(m, "model.nr_swap_entries");
	diag("pgscan_anon %llu pgsteal_anon %llu pswpout %llu swap cache %llu",
	     (unsigned long long)scan, (unsigned long long)steal,
	     (unsigned long long)C(m, "vmstat.pswpout"), (unsigned long long)cached);
	ok(steal >= 1000 - 64 - 31 && scan >= 3 * steal && scan <= 3 * steal + 2 * 64,
	   "each page reclaimed was scanned three times: look, write, free");
	ok(C(m, "vmstat.pswpout") == steal + cached && cached > 0 && cached <= 64,
	   "each page written once; written pages not yet freed stay in the swap cache");
	rf_model_free(m);
}

static void test_deactivate_after_refaults(void)
{
	ok(deactivate_after_refaults(false, true) == 0,
	   "v6.18: no refault activations, inactive list not low: nothing deactivated");
	ok(deactivate_after_refaults(true, true) > 0,
	   "v6.18: refault activations seen by a stats flush: limit reclaim deactivates");
	ok(deactivate_after_refaults(true, false) == 0,
	   "v6.18: the same activations not yet flushed: nothing deactivated");
}

static void test_hierarchical_limit(void)
{
	struct rf_model *m = mk("v4.6", (const char *const[]){ "memory=256M", NULL });

	cg_mkdir(m, 10, 1, "/p");
	cg_mkdir(m, 11, 10, "/p/c");
	cg_mkdir(m, 12, 1, "/q");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 64 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 12, 200, 0, 0);
	read_pages(m, 0, 200, 5, 0, 10);
	read_pages(m, 0, 100, 4, 0, 200);
	ok(C(m, "memcg./p.usage") <= 64, "/p stays within its limit (%llu pages)",
	   (unsigned long long)C(m, "memcg./p.usage"));
	ok(C(m, "memcg./p/c.pgsteal_direct") >= 136, "reclaim took /p/c's pages (%llu)",
	   (unsigned long long)C(m, "memcg./p/c.pgsteal_direct"));
	ok(C(m, "memcg./p.events.max") > 0, "/p counts limit hits");
	is_int(C(m, "memcg./q.usage"), 10, "sibling /q keeps its 10 pages");
	is_int(C(m, "vmstat.pgscan_direct_normal") + C(m, "vmstat.pgscan_kswapd_normal"), 0,
	       "limit reclaim is not counted in the global pgscan (v4.6)");
	rf_model_free(m);

	/* memory.high: no charge fails, but each charge above it reclaims its size */
	m = mk("v4.6", (const char *const[]){ "memory=256M", NULL });
	cg_mkdir(m, 10, 1, "/h");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_HIGH, 64 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	read_pages(m, 0, 100, 4, 0, 200);
	ok(C(m, "memcg./h.usage") <= 64 + 14 && C(m, "memcg./h.events.high") > 0 &&
	   C(m, "memcg./h.events.max") == 0, "memory.high: usage held near 64 pages (%llu) "
	   "by reclaim_high(), no limit failures", (unsigned long long)C(m, "memcg./h.usage"));
	rf_model_free(m);
}

/*
 * Global reclaim: a 64M node, a 96M file read twice (lru-file-readtwice
 * shape).  kswapd keeps the node above its min watermark; the second pass
 * refaults (every page was evicted before its second touch).
 */
static void test_global_reclaim(void)
{
	struct rf_model *m = mk("v4.9", (const char *const[]){ "memory=64M", NULL });
	uint64_t pages = 96 * 256, free;

	read_pages(m, 0, 0, 9, 0, pages);
	read_pages(m, 0, 0, 9, 0, pages);
	free = C(m, "vmstat.nr_free_pages");
	ok(free >= C(m, "model.wmark_min"), "free pages (%llu) stay above min (%llu)",
	   (unsigned long long)free, (unsigned long long)C(m, "model.wmark_min"));
	ok(C(m, "vmstat.pgsteal_kswapd") > pages, "kswapd reclaimed (%llu)",
	   (unsigned long long)C(m, "vmstat.pgsteal_kswapd"));
	ok(C(m, "vmstat.workingset_refault") > 0, "the second pass refaults (%llu)",
	   (unsigned long long)C(m, "vmstat.workingset_refault"));
	rf_model_free(m);
}

/* ----------------------------------------------------- determinism, cost */

struct snap {
	char (*keys)[96];
	uint64_t *vals;
	size_t nr, cap;
};

static int snap_cb(const char *key, uint64_t v, void *ctx)
{
	struct snap *s = ctx;

	if (s->nr == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->keys = realloc(s->keys, s->cap * sizeof(*s->keys));
		s->vals = realloc(s->vals, s->cap * sizeof(*s->vals));
	}
	snprintf(s->keys[s->nr], sizeof(s->keys[0]), "%s", key);
	s->vals[s->nr++] = v;
	return 0;
}

static void snap_free(struct snap *s)
{
	free(s->keys);
	free(s->vals);
}

/* A mixed stream: two cgroups, file reads, anon faults, synthetic accesses. */
static void mixed_event(uint64_t *seed, struct rf_event *ev)
{
	uint64_t r;

	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	r = *seed >> 33;
	memset(ev, 0, sizeof(*ev));
	ev->cpu = r % 3;
	ev->pid = 100 + (r >> 2) % 2;
	switch ((r >> 4) % 4) {
	case 0:
		ev->type = RF_EV_FILE_READ;
		ev->u.file.dev = 8;
		ev->u.file.ino = 1 + (r >> 6) % 3;
		ev->u.file.index = (r >> 8) % 6000;
		ev->u.file.nr = 1 + (r >> 20) % 8;
		break;
	case 1:
		ev->type = RF_EV_ANON_FAULT;
		ev->u.anon.mm = ev->pid;
		ev->u.anon.addr = ((r >> 8) % 3000) * PAGE;
		ev->u.anon.flags = RF_REF_WRITE;
		break;
	default:
		ev->type = RF_EV_ACCESS;
		ev->u.access.key = (r >> 8) % ((r & 64) ? 500 : 8000);
		ev->u.access.flags = (r & 128) ? RF_REF_ANON : 0;
		break;
	}
}

static void setup_mixed(struct rf_model *m)
{
	cg_mkdir(m, 10, 1, "/a");
	cg_mkdir(m, 11, 1, "/b");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 101, 0, 0);
	cg_simple(m, RF_EV_CGROUP_LIMIT, 11, 0, RF_LIMIT_MEMORY, 2048 * PAGE);
}

static void run_mixed_kv(const char *profile, const char *const *kv, bool cgroups,
			 struct snap *s, int nr_events)
{
	struct rf_model *m = mk(profile, kv);
	struct rf_event ev;
	uint64_t seed = 42;
	int i;

	if (cgroups)
		setup_mixed(m);
	for (i = 0; i < nr_events; i++) {
		mixed_event(&seed, &ev);
		feed(m, &ev);
	}
	rf_model_finish(m);
	memset(s, 0, sizeof(*s));
	rf_model_counters(m, snap_cb, s);
	rf_model_free(m);
}

static void run_mixed(const char *profile, struct snap *s, int nr_events)
{
	static const char *const kv[] = { "memory=48M", "swap=16M", "cpus=3", NULL };

	run_mixed_kv(profile, kv, true, s, nr_events);
}

static bool same_non_cost(const struct snap *a, const struct snap *b, const char **diff)
{
	size_t i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		if (strcmp(a->keys[i], b->keys[i]))
			return false;
		if (!strncmp(a->keys[i], "cost.", 5))
			continue;
		if (a->vals[i] != b->vals[i]) {
			*diff = a->keys[i];
			return false;
		}
	}
	return true;
}

static uint64_t snap_get(const struct snap *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->keys[i], key))
			return s->vals[i];
	return UINT64_MAX;
}

static void test_determinism(void)
{
	struct snap a, b;
	const char *diff = "";
	size_t i;
	bool same = true;

	run_mixed("v4.6", &a, 60000);
	run_mixed("v4.6", &b, 60000);
	for (i = 0; i < a.nr && same; i++)
		same = a.nr == b.nr && !strcmp(a.keys[i], b.keys[i]) && a.vals[i] == b.vals[i];
	ok(same && a.nr == b.nr, "same config and events: identical counters (%zu keys)", a.nr);
	ok(snap_get(&a, "vmstat.pgsteal_kswapd_normal") > 0 &&
	   snap_get(&a, "vmstat.workingset_refault") > 0 && snap_get(&a, "vmstat.pswpout") > 0,
	   "the mixed stream exercises reclaim, refaults and swap");
	snap_free(&b);

	/* v4.6 and v4.6+55779ec: identical decisions, different cost */
	run_mixed("v4.6+55779ec", &b, 60000);
	ok(same_non_cost(&a, &b, &diff), "v4.6 and v4.6+55779ec: identical state and counters%s%s",
	   *diff ? ", first difference: " : "", diff);
	ok(snap_get(&a, "cost.lock_page_memcg") > 0 && snap_get(&b, "cost.lock_page_memcg") == 0,
	   "lock_page_memcg only in v4.6 (%llu)",
	   (unsigned long long)snap_get(&a, "cost.lock_page_memcg"));
	ok(snap_get(&a, "cost.estimated_ns") > snap_get(&b, "cost.estimated_ns"),
	   "v4.6 costs more kernel time than v4.6+55779ec (%llu vs %llu ns)",
	   (unsigned long long)snap_get(&a, "cost.estimated_ns"),
	   (unsigned long long)snap_get(&b, "cost.estimated_ns"));
	snap_free(&a);
	snap_free(&b);
}

/*
 * Root cgroup only (where the vm-scalability readtwice regression of
 * 23047a96 was measured): the root memcg's lruvec holds every page, so
 * v4.5's zone counter and v4.6's root lruvec counter age and judge alike:
 * identical decisions, once the two rows' unrelated switches (shadow-node
 * limit, watermarks) are aligned.  The regression is a cost effect.
 */
static void test_root_only(void)
{
	static const char *const kv45[] = { "memory=48M", "swap=16M", "cpus=3",
		"shadow_limit=file16", "watermarks=scaled", NULL };
	static const char *const kv46[] = { "memory=48M", "swap=16M", "cpus=3", NULL };
	struct snap a, b;
	const char *diff = "";

	run_mixed_kv("v4.5", kv45, false, &a, 60000);
	run_mixed_kv("v4.6", kv46, false, &b, 60000);
	ok(same_non_cost(&a, &b, &diff), "root cgroup only: v4.5 and v4.6 decide alike%s%s",
	   *diff ? ", first difference: " : "", diff);
	ok(snap_get(&b, "cost.lock_page_memcg") > 0 && snap_get(&a, "cost.lock_page_memcg") == 0,
	   "... and v4.6 pays lock_page_memcg on every activation (%llu)",
	   (unsigned long long)snap_get(&b, "cost.lock_page_memcg"));
	snap_free(&a);
	snap_free(&b);
}

/* Two models fed alternately in one process give what each gives alone. */
static void test_side_by_side(void)
{
	static const char *const kv[] = { "memory=48M", "swap=16M", "cpus=3", NULL };
	struct rf_model *m1 = mk("v6.18", kv), *m2 = mk("v4.5", kv);
	struct snap a, b, alone;
	struct rf_event ev;
	uint64_t seed = 42;
	int i;

	setup_mixed(m1);
	setup_mixed(m2);
	for (i = 0; i < 30000; i++) {
		mixed_event(&seed, &ev);
		feed(m1, &ev);
		feed(m2, &ev);
	}
	rf_model_finish(m1);
	rf_model_finish(m2);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rf_model_counters(m1, snap_cb, &a);
	rf_model_counters(m2, snap_cb, &b);
	run_mixed("v6.18", &alone, 30000);
	ok(a.nr == alone.nr && !memcmp(a.vals, alone.vals, a.nr * sizeof(*a.vals)),
	   "a model fed next to another gives the same counters as alone");
	rf_model_free(m1);
	rf_model_free(m2);
	snap_free(&a);
	snap_free(&b);
	snap_free(&alone);
}

static int count_root_usage(const char *key, uint64_t value, void *ctx)
{
	(void)value;
	*(int *)ctx += !strcmp(key, "memcg./.usage");
	return 0;
}

/*
 * Recorders and gen name the hierarchy's root with a mkdir of "/" (parent 0):
 * that is the model's own root, not a child called "/".
 */
static void test_root_named(void)
{
	static const char *const kv[] = { "memory=16M", "cpus=1", NULL };
	struct rf_model *m = mk("v4.6", kv);
	struct rf_event ev = { .type = RF_EV_NAME_PID };
	int keys = 0;

	cg_mkdir(m, 1, 0, "/");
	ev.u.task.pid = 100;
	ev.u.task.tgid = 100;
	ev.u.task.cgroup = 1;
	feed(m, &ev);
	read_pages(m, 0, 100, 5, 0, 10);
	rf_model_counters(m, count_root_usage, &keys);
	ok(keys == 1 && C(m, "memcg./.usage") == 10,
	   "a mkdir of \"/\" names the root memcg: one memcg./ with the 10 pages read (%d keys)",
	   keys);
	rf_model_free(m);
}

/*
 * Shadow nodes (mm/workingset.c, workingset_update_node()): a page-cache
 * node (64 indices) holding shadows and no page is on its memcg's shadow
 * list (vmstat workingset_nodes); a page coming back takes it off.  Four
 * mapped nodes' pages paged out: 4 shadow nodes; one page of the third
 * faulted back: 3; half of a fifth node paged out (its other half still
 * cached): no shadow node.
 */
static void test_shadow_nodes(void)
{
	struct rf_model *m = mk("v6.18", exact_v618);
	uint64_t i, n4, n3, n3b;

	mmap_file(m, 0, 1, 0x1000000, 5 * 64, 3);
	for (i = 0; i < 5 * 64; i++)
		file_fault(m, 0, 0, 1, 3, i);
	madvise(m, 0, 0, 1, 0x1000000, 4 * 64 + 32, MADV_PAGEOUT);
	n4 = C(m, "vmstat.workingset_nodes");
	file_fault(m, 0, 0, 1, 3, 2 * 64 + 5);
	n3 = C(m, "vmstat.workingset_nodes");
	madvise(m, 0, 0, 1, 0x1000000 + (4 * 64 + 32) * PAGE, 16, MADV_PAGEOUT);
	n3b = C(m, "vmstat.workingset_nodes");
	ok(n4 == 4 && n3 == 3 && n3b == 3, "shadow nodes: 4 after paging out 4.5 nodes' pages, 3 "
	   "once a page comes back to one, still 3 with a node half cached (%llu, %llu, %llu)",
	   (unsigned long long)n4, (unsigned long long)n3, (unsigned long long)n3b);
	is_int(C(m, "vmstat.workingset_nodereclaim"), 0, "no reclaim: no shadow node reclaimed");
	rf_model_free(m);
}

/*
 * The shadow shrinker in limit reclaim: /s (limit 4 MiB = 1024 pages)
 * streams a 96 MiB file (24576 pages, 384 nodes), then reads nodes 160..191
 * (2048 pages) again.  Shadow nodes are listed oldest first, and the
 * shrinker takes them from the head.  v6.18 count_shadow_nodes() allows /s
 * (its own LRU + slab pages) >> 3 nodes, from stats as of the last flush:
 * the memory.stat read before /s had a page gives 0, so every shadow-only
 * node is freeable; do_shrink_slab() (seeks 0) scans freeable / 2 plus
 * nr_deferred >> priority, and a batch of 128 goes each time that reaches
 * 128: twice here, nodes 0..255, and the re-read finds no shadow.  With
 * exact stats (1024 + 54 slab pages) >> 3 = 134 nodes stay: freeable is
 * smaller, one batch goes (nodes 0..127) and the re-read refaults as with
 * shadow_shrinker=off.  v4.6 (0a6b76dd, file pages >> 4 = 64 nodes stay,
 * delta proportional to the LRU scan, deferred) shrinks in limit reclaim
 * too; v4.5 lists shadow nodes for the node and shrinks them in global
 * reclaim only.
 */
static void shrink_stream(const char *profile, const char *const *kv, uint64_t *refaults,
			  uint64_t *nodereclaim)
{
	struct rf_model *m = mk(profile, kv);

	cg_mkdir(m, 1, 0, "/");
	cg_mkdir(m, 10, 1, "/s");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 1024 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	counters_at(m, 1000, true);	/* the recorder's first memory.stat read: /s empty */
	read_pages(m, 0, 100, 7, 0, 24576);
	read_pages(m, 0, 100, 7, 10240, 2048);	/* nodes 160..191 */
	*refaults = C(m, "memcg./s.workingset_refault_file");
	*nodereclaim = C(m, "vmstat.workingset_nodereclaim");
	rf_model_free(m);
}

static void test_shadow_shrinker(void)
{
	static const char *const flushed[] = { "memory=256M", "cpus=2", NULL };
	static const char *const off[] = { "memory=256M", "cpus=2", "shadow_shrinker=off", NULL };
	static const char *const exact[] = { "memory=256M", "cpus=2", "memcg_stats=exact", NULL };
	uint64_t r_on, n_on, r_off, n_off, r_ex, n_ex, r46, n46, r45, n45;

	shrink_stream("v6.18", flushed, &r_on, &n_on);
	shrink_stream("v6.18", off, &r_off, &n_off);
	shrink_stream("v6.18", exact, &r_ex, &n_ex);
	shrink_stream("v4.6", quiet_v46, &r46, &n46);
	shrink_stream("v4.5", quiet_v46, &r45, &n45);
	ok(n_off == 0 && r_off == 2048, "shrinker off: every re-read page refaults (%llu)",
	   (unsigned long long)r_off);
	ok(n_on == 256 && r_on == 0, "v6.18, a fresh cgroup's flushed allowance of 0: the oldest "
	   "%llu shadow nodes reclaimed, re-read refaults %llu", (unsigned long long)n_on,
	   (unsigned long long)r_on);
	ok(n_ex == 128 && r_ex == 2048, "v6.18 with exact stats: 134 nodes allowed, %llu "
	   "reclaimed, the re-read ones kept (%llu refaults)", (unsigned long long)n_ex,
	   (unsigned long long)r_ex);
	ok(n46 > 0 && r46 == 2048, "v4.6: shrunk in limit reclaim (%llu nodes), the re-read ones "
	   "kept (%llu refaults)", (unsigned long long)n46, (unsigned long long)r46);
	ok(n45 == 0 && r45 == 2048, "v4.5: no shadow shrinking in limit reclaim (%llu nodes, "
	   "%llu refaults)", (unsigned long long)n45, (unsigned long long)r45);
}

/*
 * css offline: the memcg's shadow nodes go to its parent's list
 * (memcg_reparent_list_lrus()); they stay counted and reclaimable.
 */
static void test_shadow_reparent(void)
{
	struct rf_model *m = mk("v6.18", exact_v618);
	uint64_t i, before, after;

	cg_mkdir(m, 1, 0, "/");
	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	mmap_file(m, 100, 1, 0x1000000, 128, 3);
	for (i = 0; i < 128; i++)
		file_fault(m, 0, 100, 1, 3, i);
	madvise(m, 0, 100, 1, 0x1000000, 128, MADV_PAGEOUT);
	before = C(m, "vmstat.workingset_nodes");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 1, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_RMDIR, 10, 0, 0, 0);
	after = C(m, "vmstat.workingset_nodes");
	file_fault(m, 0, 100, 1, 3, 0);		/* a page back into a reparented node */
	ok(before == 2 && after == 2 && C(m, "vmstat.workingset_nodes") == 1,
	   "rmdir: the cgroup's 2 shadow nodes move to the root's list, and leave it as a page "
	   "comes back (%llu, %llu, %llu)", (unsigned long long)before,
	   (unsigned long long)after, (unsigned long long)C(m, "vmstat.workingset_nodes"));
	rf_model_free(m);
}

/*
 * v6.18 nr_deferred at rmdir (reparent_shrinker_deferred()): /s's deferred
 * scan count goes to its parent, the root, whose shrinker reads it from the
 * same place (its own shrinker_info: shrink_slab() gives do_shrink_slab()
 * root_mem_cgroup).  /s streams as in shrink_stream() and leaves a deferred
 * count; removed, its count and its 128 remaining shadow nodes are the
 * root's.  Then /t streams 320 MiB with no limit: global reclaim runs the
 * root's shrinker on the reparented nodes (the root has no LRU pages of its
 * own, its allowance is 0: freeable 128), which reads the deferred count:
 * (224 >> priority) + delta 64 is under a batch, nothing is scanned, and
 * nr + delta is deferred again, at most 2 * freeable = 256 (the kernel's
 * arithmetic; reclaim never gets to a priority where the count would
 * matter).  Before, the root kept its count elsewhere: 224 stayed unread.
 */
static void test_shadow_deferred_reparent(void)
{
	static const char *const kv[] = { "memory=256M", "cpus=2", NULL };
	struct rf_model *m = mk("v6.18", kv);
	uint64_t child, root_before, root_after, root_end, nodes_end;

	cg_mkdir(m, 1, 0, "/");
	cg_mkdir(m, 10, 1, "/s");
	cg_mkdir(m, 11, 1, "/t");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 1024 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 200, 0, 0);
	counters_at(m, 1000, true);
	read_pages(m, 0, 100, 7, 0, 24576);
	child = C(m, "model.memcg./s.shadow_deferred");
	root_before = C(m, "model.memcg./.shadow_deferred");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_RMDIR, 10, 0, 0, 0);
	root_after = C(m, "model.memcg./.shadow_deferred");
	read_pages(m, 0, 200, 8, 0, 81920);
	root_end = C(m, "model.memcg./.shadow_deferred");
	nodes_end = C(m, "model.memcg./.shadow_nodes");
	ok(child > 0 && root_after == root_before + child,
	   "v6.18 rmdir: /s's deferred count (%llu) goes to the root's", (unsigned long long)child);
	ok(root_end == 256 && nodes_end == 128, "... where the root's shrinker reads it in global "
	   "reclaim: 224 + 64, at most 2 * 128 (%llu), no batch of 128 (%llu nodes left)",
	   (unsigned long long)root_end, (unsigned long long)nodes_end);
	rf_model_free(m);
}

/* ------------------------------------------------------ counter names */

/* vmstat.* names only, a '\n'-joined list, with the restore/nodes counters of v4.20+ left out. */
static int vmstat_names_cb(const char *key, uint64_t v, void *ctx)
{
	char *list = ctx;

	(void)v;
	if (strncmp(key, "vmstat.", 7) || strstr(key, "workingset_restore") ||
	    !strcmp(key, "vmstat.workingset_nodes"))
		return 0;
	if (strlen(list) + strlen(key) + 2 < 4096) {
		strcat(list, key);
		strcat(list, "\n");
	}
	return 0;
}

struct alias_check {
	const struct rf_model *m;
	int n, same;
	bool refault;
};

static int alias_cb(const char *kernel_name, const char *name, void *ctx)
{
	struct alias_check *a = ctx;
	uint64_t k = 1, v = 2;

	a->n++;
	a->same += rf_model_counter(a->m, kernel_name, &k) && rf_model_counter(a->m, name, &v) &&
		   k == v;
	a->refault |= !strcmp(kernel_name, "vmstat.workingset_refault") &&
		      !strcmp(name, "vmstat.workingset_refault_file");
	return 0;
}

/*
 * One quantity, one name across profiles: every profile's global counters
 * carry today's names (mm/vmstat.c vmstat_text, v6.18), and
 * rf_model_aliases() gives each kernel's own (v4.6.2 zone-suffixed
 * pgscan_kswapd_normal, v4.x workingset_refault), which rf_model_counter()
 * also takes.
 */
static void test_stable_names(void)
{
	static const char *const profiles[] = { "v4.5", "v4.6", "v4.9", "v5.10" };
	static char ref[4096], got[4096];
	struct rf_model *m = mk("v6.18", quiet_v46);
	struct alias_check a = { .m = m };
	size_t i;

	ref[0] = 0;
	rf_model_counters(m, vmstat_names_cb, ref);
	rf_model_aliases(m, alias_cb, &a);
	is_int(a.n, 0, "v6.18 has today's names: no aliases");
	rf_model_free(m);
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		m = mk(profiles[i], quiet_v46);
		read_pages(m, 0, 64, 1, 0, 1);
		got[0] = 0;
		rf_model_counters(m, vmstat_names_cb, got);
		ok(!strcmp(got, ref), "%s: the global counters have v6.18's names", profiles[i]);
		memset(&a, 0, sizeof(a));
		a.m = m;
		rf_model_aliases(m, alias_cb, &a);
		ok(a.same == a.n && (a.n > 0) == (i < 3) && a.refault == (i < 3),
		   "%s: %d aliases (its kernel's names), each read as its counter", profiles[i], a.n);
		rf_model_free(m);
	}
	{
		struct snap v49, v510;

		/* the alias of v4.x workingset_refault is today's _file count: no anon shadows before v5.9 */
		run_mixed("v4.9", &v49, 60000);
		run_mixed("v5.10", &v510, 60000);
		ok(snap_get(&v49, "vmstat.workingset_refault_anon") == 0 &&
		   snap_get(&v510, "vmstat.workingset_refault_anon") > 0,
		   "before v5.9 no anonymous refault (v4.9: 0), so workingset_refault is the _file count "
		   "(v5.10 on the same swapping stream: %llu)",
		   (unsigned long long)snap_get(&v510, "vmstat.workingset_refault_anon"));
		snap_free(&v49);
		snap_free(&v510);
	}
	m = mk("v4.6", quiet_v46);
	read_pages(m, 0, 64, 1, 0, 1);
	ok(rf_model_counter(m, "vmstat.pgscan_kswapd_normal", NULL) &&
	   !rf_model_counter(m, "vmstat.pgscan_kswapd_dma", NULL),
	   "v4.6: rf_model_counter() takes the kernel's pgscan_kswapd_normal, not a made-up name");
	rf_model_free(m);
}

int main(void)
{
	plan(90);
	test_two_touch();
	test_refault_distance();
	test_refault_v618();
	test_gone_memcg();
	test_two_cgroups();
	test_planted_shadow();
	test_fault_around();
	test_around_remapped();
	test_kernel_read();
	test_stranded();
	test_pageout();
	test_thp_never();
	test_zero_page();
	test_cow();
	test_ptes_per_mm();
	test_swapout_two_passes();
	test_deactivate_after_refaults();
	test_hierarchical_limit();
	test_global_reclaim();
	test_determinism();
	test_root_only();
	test_side_by_side();
	test_root_named();
	test_shadow_nodes();
	test_shadow_shrinker();
	test_shadow_reparent();
	test_shadow_deferred_reparent();
	test_stable_names();
	return done_testing();
}
