/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Large file folios, readahead and repeated reads (issue 8): one hand-made
 * event sequence per kernel rule, the expected numbers derived in the
 * comments.  Every run has 256M of memory (no global reclaim), swap off, and
 * batches of one page (a page reaches its list at once).
 */
#include "model-helpers.h"

#define MADV_PAGEOUT	21
#define MM		1ull
#define MAP_ADDR	0x40000000ull	/* 2 MiB aligned: file page i at MAP_ADDR + i pages */

static const char *const quiet[] = { "memory=256M", "cpus=2", "pagevec_size=1",
				     "memcg_stats=exact", NULL };

static void fault_order(struct rf_model *m, int pid, uint64_t ino, uint64_t index, int order)
{
	struct rf_event ev = { .pid = pid, .type = RF_EV_FILE_FAULT };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.order = order;
	ev.u.file.mm = MM;
	feed(m, &ev);
}

static void readahead(struct rf_model *m, int pid, uint64_t ino, uint64_t index, uint64_t nr,
		      int order)
{
	struct rf_event ev = { .pid = pid, .type = RF_EV_FILE_READAHEAD };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = order;
	feed(m, &ev);
}

/*
 * The next event the model acts on: a file_readahead takes effect with the
 * read or fault that follows it (the recorder writes it just before that
 * one), or with whatever comes next.
 */
static void settle(struct rf_model *m)
{
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	feed(m, &ev);
}

/* MADV_PAGEOUT of file pages [@index, @index + @nr) mapped at MAP_ADDR (reclaim_pages()) */
static void pageout(struct rf_model *m, uint64_t index, uint64_t nr)
{
	madvise(m, 0, 0, MM, MAP_ADDR + index * PAGE, nr, MADV_PAGEOUT);
}

static void drain(struct rf_model *m)
{
	madvise(m, 0, 0, 77, 0, 1, 4);		/* MADV_DONTNEED of nothing: lru_add_drain() */
}

/*
 * page_cache_delete(), v6.18: the shadow of an evicted 2 MiB folio is one
 * multi-index entry over its 512 indices.  __filemap_add_folio() finds it
 * from any index: a base page read at 300 refaults (1 page); the insertion
 * splits the entry (xas_try_split()) so the rest keeps the value, in one
 * entry per order 0..8, and a read at 5 refaults again; a 16-page folio read
 * ahead at 32 refaults once for its 16 pages.  18 pages in all.
 */
static void test_big_into_small(void)
{
	struct rf_model *m = mk("v6.18", quiet);

	mmap_file(m, 0, MM, MAP_ADDR, 512, 3);
	fault_order(m, 0, 3, 0, 9);
	pageout(m, 0, 512);
	is_int(C(m, "vmstat.nr_file_pages"), 0, "the 2 MiB folio is reclaimed whole");
	is_int(C(m, "model.nr_shadow"), 1, "... and leaves one shadow entry, not 512");
	read_pages(m, 0, 1, 3, 300, 1);
	is_int(C(m, "vmstat.workingset_refault_file"), 1,
	       "a base page at index 300 of the evicted folio is a refault");
	is_int(C(m, "model.nr_shadow"), 9,
	       "... the shadow split around it: 9 entries (orders 0..8) keep the value");
	read_pages(m, 0, 1, 3, 5, 1);
	is_int(C(m, "vmstat.workingset_refault_file"), 2, "index 5 still finds the shadow");
	readahead(m, 1, 3, 32, 16, 4);
	settle(m);
	is_int(C(m, "vmstat.workingset_refault_file"), 18,
	       "a 16-page folio at 32 refaults once, for its 16 pages");
	rf_model_free(m);
}

/*
 * __filemap_add_folio(), v6.18, small into big: a 16-page folio inserted
 * over base-page shadows takes the one xas_for_each_conflict() meets last,
 * the highest index, and refaults once for 16 pages.  Four pages of another
 * file read by two readers each make active_file 4 (the workingset size
 * with no swap).  Page @first of file 4 is evicted, then 8 pages of file 5
 * (8 pages of age), then page @second: with the v6.18 stamp-then-age rule the
 * later eviction is at distance 1 when the folio comes, the earlier one at
 * 10.  Distance 1 <= 4 activates, 10 does not: the folio is activated iff
 * the later eviction is at the higher index.
 */
static uint64_t small_into_big(uint64_t first, uint64_t second, uint64_t *refault,
			       uint64_t *shadows)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t a, i;

	for (i = 0; i < 4; i++) {
		read_pages(m, 0, 1, 2, i, 1);
		read_pages(m, 0, 2, 2, i, 1);
	}
	mmap_file(m, 0, MM, MAP_ADDR, 16, 4);
	mmap_file(m, 0, MM, MAP_ADDR + 64 * PAGE, 8, 5);
	fault_order(m, 0, 4, first, 0);
	pageout(m, first, 1);
	for (i = 0; i < 8; i++)
		fault_order(m, 0, 5, i, 0);
	pageout(m, 64, 8);
	fault_order(m, 0, 4, second, 0);
	pageout(m, second, 1);
	a = C(m, "vmstat.workingset_activate_file");
	readahead(m, 1, 4, 0, 16, 4);
	settle(m);
	*refault = C(m, "vmstat.workingset_refault_file");
	*shadows = C(m, "model.nr_shadow");
	a = C(m, "vmstat.workingset_activate_file") - a;
	rf_model_free(m);
	return a;
}

static void test_small_into_big(void)
{
	uint64_t r, s, a;

	a = small_into_big(2, 9, &r, &s);
	is_int(r, 16, "a 16-page folio over base-page shadows: one refault of 16 pages");
	is_int(s, 8, "... its shadows gone (the 8 of file 5 remain)");
	is_int(a, 16, "shadow at the highest index (distance 1) decides: activated");
	a = small_into_big(9, 2, &r, &s);
	is_int(a, 0, "highest index evicted earlier (distance 10 > 4): not activated");
}

/*
 * Readahead inserts through filemap_add_folio() and folio_add_lru() without
 * marking (page_cache_ra_order(), v6.18); filemap_read() marks.  A folio read
 * ahead and read once is referenced, not active; read by a second reader it
 * is activated; read ahead and reclaimed before any read it was never
 * touched: no activation, a steal.
 */
static void test_readahead_unreferenced(void)
{
	struct rf_model *m = mk("v6.18", quiet);

	readahead(m, 1, 7, 0, 16, 4);
	settle(m);
	is_int(C(m, "vmstat.nr_inactive_file"), 16, "readahead: one 16-page folio, inactive");
	read_pages(m, 0, 1, 7, 0, 16);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 0,
	       "read once after readahead: not active (readahead did not reference it)");
	read_pages(m, 0, 2, 7, 0, 16);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 16, "a second reader activates the folio");
	rf_model_free(m);

	/* /a holds 64 pages; 128 more pages read after the readahead push it out first */
	m = mk("v6.18", quiet);
	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 64 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	readahead(m, 100, 7, 0, 16, 4);
	read_pages(m, 0, 100, 8, 0, 128);
	ok(C(m, "memcg./a.pgsteal_file") >= 80 && C(m, "memcg./a.pgactivate") == 0,
	   "readahead folio reclaimed unread: stolen, never activated (pgsteal %llu)",
	   (unsigned long long)C(m, "memcg./a.pgsteal_file"));
	readahead(m, 100, 7, 0, 16, 4);
	settle(m);
	is_int(C(m, "memcg./a.workingset_refault_file"), 16,
	       "... it was evicted whole: reading it ahead again refaults 16 pages");
	rf_model_free(m);
}

/*
 * filemap_read(), v6.18: the first folio of a read is marked only if the
 * previous read of the file ended in another folio (pos_same_folio()); the
 * others always.  Two separate reads of a folio (another read in between)
 * activate it; the 32 consecutive 64 KiB reads of one 2 MiB folio are one
 * access (a second reader then activates it: it was referenced).
 */
static void test_read_same_folio(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	int i;

	readahead(m, 1, 7, 0, 16, 4);
	read_pages(m, 0, 1, 7, 0, 16);
	read_pages(m, 0, 1, 7, 64, 16);
	read_pages(m, 0, 1, 7, 0, 16);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 16, "two separate reads of a folio: activated");
	rf_model_free(m);

	m = mk("v6.18", quiet);
	readahead(m, 1, 7, 0, 512, 9);
	for (i = 0; i < 32; i++)
		read_pages(m, 0, 1, 7, i * 16, 16);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 0,
	       "32 consecutive 64 KiB reads of one 2 MiB folio: one access, not active");
	read_pages(m, 0, 2, 7, 0, 16);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 512, "... a second reader activates all of it");
	rf_model_free(m);

	/*
	 * A stream and random reads of one file by one task (two descriptors:
	 * vworkload hot): each 64 KiB stream read goes on from the previous
	 * stream read, random reads of other pages in between, so the 2 MiB
	 * folio still gets one access.
	 */
	m = mk("v6.18", quiet);
	readahead(m, 1, 7, 0, 512, 9);
	for (i = 0; i < 32; i++) {
		int k;

		read_pages(m, 0, 1, 7, i * 16, 16);
		for (k = 0; k < 4; k++)
			read_pages(m, 0, 1, 7, 4096 + (uint64_t)((i * 4 + k) * 37 % 512), 1);
	}
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 0,
	       "stream reads with random reads between them: the folio is one access");
	rf_model_free(m);

	/* one descriptor, page A, page B, page A again: A is read twice */
	m = mk("v6.18", quiet);
	read_pages(m, 0, 1, 7, 10, 1);
	read_pages(m, 0, 1, 7, 20, 1);
	read_pages(m, 0, 1, 7, 10, 1);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 1, "A, B, A by one reader: A activated");
	rf_model_free(m);

	/* the same reads of a file cached in base pages: each page touched once */
	m = mk("v6.18", quiet);
	for (i = 0; i < 32; i++)
		read_pages(m, 0, 1, 7, i * 16, 16);
	read_pages(m, 0, 1, 7, 511, 1);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 0,
	       "base pages: re-reading the page the last read ended in is no second access");
	rf_model_free(m);
}

/*
 * v4.6.2: no large file folios; __do_page_cache_readahead() reads ahead base
 * pages (the event's order is not taken), and do_generic_file_read() skips
 * the mark of the page where the previous read stopped.  After a 2 MiB
 * readahead, two readers of page 5 activate that page only.
 */
static void test_v46_base_pages(void)
{
	struct rf_model *m = mk("v4.6", quiet);

	readahead(m, 1, 7, 0, 512, 9);
	drain(m);
	is_int(C(m, "vmstat.nr_inactive_file"), 512, "v4.6: readahead of 512 pages");
	read_pages(m, 0, 1, 7, 5, 1);
	read_pages(m, 0, 1, 7, 5, 1);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 0, "v4.6: one reader re-reading page 5: one access");
	read_pages(m, 0, 2, 7, 5, 1);
	drain(m);
	is_int(C(m, "vmstat.nr_active_file"), 1,
	       "v4.6: a second reader activates page 5 alone (base pages)");
	rf_model_free(m);
}

/*
 * A folio slot already (partly) cached: filemap_add_folio() -> -EEXIST, and
 * page_cache_ra_order() leaves the rest of the window to do_page_cache_ra(),
 * base pages that skip present ones (page_cache_ra_unbounded()).  Page 3
 * read, then readahead of [0, 16) in one 16-page folio: the 15 others come in
 * as base pages.  Readahead [16, 48) in 16-page folios with page 40 cached:
 * the folio at 16 comes in whole, then 32..47 as base pages around page 40.
 * Readahead of what is cached changes no counter.
 */
static void test_readahead_cached(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t act;

	read_pages(m, 0, 1, 7, 3, 1);
	readahead(m, 1, 7, 0, 16, 4);
	settle(m);
	is_int(C(m, "vmstat.nr_file_pages"), 16,
	       "folio slot partly cached: the 15 other pages come in as base pages");
	read_pages(m, 0, 1, 7, 40, 1);
	readahead(m, 1, 7, 16, 32, 4);
	settle(m);
	is_int(C(m, "vmstat.nr_file_pages") - 17, 31,
	       "after the first -EEXIST the rest of the window is base pages (16 + 15)");
	act = C(m, "vmstat.pgactivate");
	readahead(m, 1, 7, 0, 16, 0);
	readahead(m, 1, 7, 0, 16, 4);
	drain(m);
	ok(C(m, "vmstat.nr_file_pages") == 48 && C(m, "vmstat.pgactivate") == act &&
	   C(m, "vmstat.nr_active_file") == 0,
	   "readahead of cached pages is a no-op (no insert, no access)");
	rf_model_free(m);
}

/*
 * filemap_add_folio() charges the memcg first (mem_cgroup_charge() ->
 * try_charge(), which reclaims the limit): 32 pages read ahead into /b
 * limited to 32 and holding 32 pages read before reclaim /b, whose usage
 * stays within the limit.
 */
static void test_readahead_charges(void)
{
	struct rf_model *m = mk("v6.18", quiet);

	cg_mkdir(m, 11, 1, "/b");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 11, 0, RF_LIMIT_MEMORY, 32 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 11, 200, 0, 0);
	read_pages(m, 0, 200, 10, 0, 32);
	readahead(m, 200, 9, 0, 32, 0);
	settle(m);
	ok(C(m, "memcg./b.usage") <= 32 && C(m, "memcg./b.pgsteal_file") >= 32 &&
	   C(m, "memcg./b.pgscan_file") >= C(m, "memcg./b.pgsteal_file"),
	   "readahead into a 32-page limit: charged, limit reclaim (usage %llu, steal %llu)",
	   (unsigned long long)C(m, "memcg./b.usage"),
	   (unsigned long long)C(m, "memcg./b.pgsteal_file"));
	ok(C(m, "memcg./b.failcnt") > 0,
	   "... the charges hit the limit (failcnt %llu)",
	   (unsigned long long)C(m, "memcg./b.failcnt"));
	rf_model_free(m);
}

/*
 * A fault on a cached folio that starts an async readahead holds the folio
 * (filemap_fault() -> filemap_get_folio(), then do_async_mmap_readahead()):
 * reclaim run by the readahead's charges keeps it (__remove_mapping() cannot
 * freeze the reference).  /c holds 64 pages: folios A = [0, 16) and B =
 * [16, 32) read ahead, then 32 pages of another file.  Readahead of [32, 48)
 * needs 16 pages; reclaim takes 32 from the tail: A, B, then 16 of the other
 * file.  When the fault at 0 follows the readahead, A is held: B goes and A
 * stays (the fault is minor); when something else follows, A goes too (the
 * order-0 fault then reads one page back: one refault).
 */
static uint64_t held_by_fault(bool fault_follows, uint64_t *majflt)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t left;

	cg_mkdir(m, 12, 1, "/c");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 12, 0, RF_LIMIT_MEMORY, 64 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 12, 300, 0, 0);
	mmap_file(m, 300, MM, MAP_ADDR, 64, 12);
	readahead(m, 300, 12, 0, 16, 4);
	readahead(m, 300, 12, 16, 16, 4);
	read_pages(m, 0, 300, 13, 0, 32);
	readahead(m, 300, 12, 32, 16, 4);
	if (!fault_follows)
		settle(m);
	*majflt = C(m, "vmstat.pgmajfault");
	file_fault(m, 0, 300, MM, 12, 0);
	*majflt = C(m, "vmstat.pgmajfault") - *majflt;
	left = C(m, "memcg./c.workingset_refault_file");
	rf_model_free(m);
	return left;
}

static void test_readahead_holds_reader(void)
{
	uint64_t maj, refault = held_by_fault(true, &maj);

	ok(refault == 0 && maj == 0,
	   "the fault that started a readahead holds its folio: kept, minor fault (%llu, %llu)",
	   (unsigned long long)refault, (unsigned long long)maj);
	refault = held_by_fault(false, &maj);
	ok(refault == 1 && maj == 1,
	   "... not held when no fault follows: evicted, the fault is major and refaults "
	   "(%llu, %llu)",
	   (unsigned long long)refault, (unsigned long long)maj);
}

/*
 * page_cache_ra_order(), v6.18: a readahead adds its folios locked and
 * submits their reads at the end (read_pages()); reclaim run by its own
 * later charges cannot lock them (folio_trylock() in shrink_folio_list()).
 * /d holds 48 pages: 24 pages of file 15 faulted (mapped, young), then 32
 * pages read ahead in 4-page folios.  At the 7th folio reclaim keeps the 24
 * young pages once (PG_referenced) and, the folios read ahead so far being
 * locked, comes back to them: all 32 pages read ahead stay cached.
 */
static void test_readahead_locks_its_folios(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t i;

	cg_mkdir(m, 13, 1, "/d");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 13, 0, RF_LIMIT_MEMORY, 48 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 13, 400, 0, 0);
	mmap_file(m, 400, MM, MAP_ADDR, 24, 15);
	for (i = 0; i < 24; i++)
		file_fault(m, 0, 400, MM, 15, i);
	readahead(m, 400, 14, 0, 32, 2);
	settle(m);
	ok(C(m, "vmstat.nr_file_pages") == 32 && C(m, "memcg./d.pgsteal_file") == 24,
	   "reclaim during a readahead skips the folios it added: all 32 cached (%llu), the 24 "
	   "young pages reclaimed on the second look (%llu)",
	   (unsigned long long)C(m, "vmstat.nr_file_pages"),
	   (unsigned long long)C(m, "memcg./d.pgsteal_file"));
	rf_model_free(m);
}

/*
 * The reads a readahead submits complete some time later (folio_end_read()
 * from the bio completion), and until then reclaim cannot lock its folios
 * (folio_trylock() in shrink_folio_list(), v6.18).  The trace does not say
 * when; the model takes a readahead's reads to take as long as a reader took
 * to reach the file's last readahead it reached (readahead.c,
 * ra_read_busy()).  /e holds 48 pages.  Folio A = [0, 16) of file 18 is read
 * ahead at 0 and read at 5 ms: reads take 5 ms.  Folio B = [16, 32) is read
 * ahead at 10 ms, then 32 pages of file 19 are read at @fill_ms: at the 17th
 * the limit reclaims 32 pages from the tail: A (read once), then B, then
 * file 19's first pages.  At 11 ms B's read is in flight: kept (scanned, not
 * freed, at each priority that reaches it) and file 19's pages go instead;
 * at 20 ms it is complete and goes, unread, and reading it refaults.  Events
 * without a time (every other test) read at once.
 */
static void read_at(struct rf_model *m, uint64_t ino, uint64_t index, uint64_t nr, uint64_t ms)
{
	struct rf_event ev = { .pid = 500, .type = RF_EV_FILE_READ, .time = ms * 1000000 };

	ev.u.file.dev = 8;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	feed(m, &ev);
}

static void readahead_at(struct rf_model *m, uint64_t index, uint64_t ms)
{
	struct rf_event ev = { .pid = 500, .type = RF_EV_FILE_READAHEAD, .time = ms * 1000000 };

	ev.u.file.dev = 8;
	ev.u.file.ino = 18;
	ev.u.file.index = index;
	ev.u.file.nr = 16;
	ev.u.file.order = 4;
	feed(m, &ev);
}

static void reads_in_flight(uint64_t fill_ms, uint64_t *refault, uint64_t *kept)
{
	struct rf_model *m = mk("v6.18", quiet);
	struct rf_event ev = { .type = RF_EV_COUNTERS, .time = 10 * 1000000 };

	cg_mkdir(m, 14, 1, "/e");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 14, 0, RF_LIMIT_MEMORY, 48 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 14, 500, 0, 0);
	readahead_at(m, 0, 0);
	read_at(m, 18, 0, 1, 5);
	readahead_at(m, 16, 10);
	feed(m, &ev);
	read_at(m, 19, 0, 32, fill_ms);
	*kept = C(m, "memcg./e.pgscan_file") - C(m, "memcg./e.pgsteal_file");
	read_at(m, 18, 16, 1, fill_ms + 1);
	*refault = C(m, "memcg./e.workingset_refault_file");
	rf_model_free(m);
}

static void test_readahead_reads_in_flight(void)
{
	uint64_t refault, kept;

	reads_in_flight(11, &refault, &kept);
	ok(refault == 0 && kept >= 16 && kept % 16 == 0,
	   "a folio read ahead 1 ms ago, reads taking 5 ms: kept by reclaim (scanned, not freed: "
	   "%llu), then read without a refault (%llu)",
	   (unsigned long long)kept, (unsigned long long)refault);
	reads_in_flight(20, &refault, &kept);
	ok(refault > 0 && kept == 0,
	   "... read ahead 10 ms ago: its read is complete, reclaimed unread (kept %llu), and "
	   "reading it refaults (%llu)",
	   (unsigned long long)kept, (unsigned long long)refault);
}

/*
 * zap_pte_range(): an unmap takes every PTE the range holds, whatever the
 * folio.  A 16-page folio faulted at four of its pages (four PTEs) is
 * unmapped by munmap(), and POSIX_FADV_DONTNEED then drops it (a mapped one
 * would only be deactivated); so is one unmapped from its second page on.
 */
static uint64_t left_after_unmap(uint64_t unmap_from)
{
	struct rf_model *m = mk("v6.18", quiet);
	struct rf_event ev = { .pid = 0, .type = RF_EV_MUNMAP };
	uint64_t i, left;

	mmap_file(m, 0, MM, MAP_ADDR, 16, 16);
	fault_order(m, 0, 16, 0, 4);
	for (i = 1; i < 4; i++)
		fault_order(m, 0, 16, i, 4);
	ev.u.vma.mm = MM;
	ev.u.vma.addr = MAP_ADDR + unmap_from * PAGE;
	ev.u.vma.len = (16 - unmap_from) * PAGE;
	feed(m, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_FADVISE;
	ev.u.file.dev = 8;
	ev.u.file.ino = 16;
	ev.u.file.nr = 16;
	ev.u.file.advice = 4;		/* POSIX_FADV_DONTNEED */
	feed(m, &ev);
	left = C(m, "vmstat.nr_file_pages");
	rf_model_free(m);
	return left;
}

static void test_unmap_takes_every_pte(void)
{
	is_int(left_after_unmap(0), 0,
	       "munmap of a folio faulted at 4 pages unmaps it: fadvise drops it");
	is_int(left_after_unmap(1), 0, "... also when the unmapped range starts inside the folio");
}

struct counters {
	char text[1 << 16];
	size_t len;
};

static int collect(const char *key, uint64_t value, void *ctx)
{
	struct counters *c = ctx;
	int n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%s=%llu\n", key,
			 (unsigned long long)value);

	if (n > 0 && (size_t)n < sizeof(c->text) - c->len)
		c->len += (size_t)n;
	return 0;
}

/* large folios, their shadows, readahead and repeated reads under a limit */
static void mixed_run(struct counters *out)
{
	struct rf_model *m = mk("v6.18", quiet);
	int i;

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 1024 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 101, 0, 0);
	for (i = 0; i < 96; i++) {
		int pid = 100 + (i % 2);
		uint64_t ino = 20 + (uint64_t)(i % 3);
		uint64_t at = (uint64_t)(i * 37 % 8) * 512;

		readahead(m, pid, ino, at, 512, i % 4 ? 9 : 4);
		read_pages(m, i % 2, pid, ino, at + (uint64_t)(i % 5) * 16, 64);
	}
	out->len = 0;
	rf_model_counters(m, collect, out);
	rf_model_free(m);
}

/*
 * filemap_fault() -> __filemap_get_folio(FGP_CREAT), v6.18: where a folio of
 * the order asked for does not fit (page 4 already cached), the page the
 * fault wants is added alone, at its own index, not at the folio's start.
 * A fault at 5 (order 2: pages 4..7) with page 4 cached: page 5 comes in, a
 * major fault; the same fault again finds it: no second major fault, and
 * page 4 is still the one page read before.
 */
static void test_partly_cached_fault(void)
{
	struct rf_model *m = mk("v6.18", quiet);

	mmap_file(m, 0, MM, MAP_ADDR, 8, 6);
	read_pages(m, 0, 1, 6, 4, 1);
	fault_order(m, 0, 6, 5, 2);
	fault_order(m, 0, 6, 5, 2);
	is_int(C(m, "vmstat.nr_file_pages"), 2, "a partly cached folio range: page 5 added alone");
	is_int(C(m, "vmstat.pgmajfault"), 1, "... at index 5: the second fault there is minor");
	rf_model_free(m);
}

/*
 * filemap_fault(), v4.6.2 to v6.18: the folio is not cached, so the fault is
 * major (PGMAJFAULT), then do_sync_mmap_readahead() adds it and the pages
 * around it.  The trace has those adds (a file_readahead) before the fault:
 * the fault is still major.  A fault on a page a readahead added before, for
 * another fault, is minor; and so is the fault the held readahead's pages
 * already covered (test_readahead_holds_reader()).
 */
static void test_fault_after_own_readahead(void)
{
	struct rf_model *m = mk("v6.18", quiet);

	mmap_file(m, 0, MM, MAP_ADDR, 64, 7);
	readahead(m, 0, 7, 0, 16, 0);
	fault_order(m, 0, 7, 0, 0);
	is_int(C(m, "vmstat.pgmajfault"), 1, "a fault whose own readahead the trace has first: major");
	fault_order(m, 0, 7, 5, 0);
	is_int(C(m, "vmstat.pgmajfault"), 1, "... a fault on a page that readahead added: minor");
	readahead(m, 0, 7, 40, 1, 0);		/* VM_RAND_READ: the fault's one folio */
	fault_order(m, 0, 7, 40, 0);
	is_int(C(m, "vmstat.pgmajfault"), 2, "... the one folio a random fault adds: major");
	is_int(C(m, "vmstat.pgfault"), 3, "... three faults");
	rf_model_free(m);
}

static void test_determinism(void)
{
	static struct counters a, b;

	mixed_run(&a);
	mixed_run(&b);
	ok(a.len > 0 && a.len == b.len && !memcmp(a.text, b.text, a.len),
	   "same events, same counters (%zu bytes of counters)", a.len);
}

/*
 * Shadow nodes of large folios (workingset_update_node()): the kernel keeps
 * an entry of order >= 6 in a level-1 node (4096 indices), not in a leaf.
 * Eight 2 MiB folios paged out leave 8 shadows in level-1 node 0 and no
 * leaf: one shadow node.  A base page read at 300 splits the shadow around
 * it (orders 0..8): the entries of order < 6 and the page make a leaf, a
 * child of the level-1 node, which is no longer shadow-only; the leaf holds a
 * page: no shadow node.  That page paged out: the leaf holds shadows only,
 * one shadow node, and its parent still has a child.
 */
static void test_level1_shadow_node(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t i, n8, n_read;

	mmap_file(m, 0, MM, MAP_ADDR, 4096, 3);
	for (i = 0; i < 4096; i += 512)
		fault_order(m, 0, 3, i, 9);
	pageout(m, 0, 4096);
	n8 = C(m, "vmstat.workingset_nodes");
	read_pages(m, 0, 1, 3, 300, 1);
	n_read = C(m, "vmstat.workingset_nodes");
	fault_order(m, 0, 3, 300, 0);
	pageout(m, 300, 1);
	ok(n8 == 1 && n_read == 0 && C(m, "vmstat.workingset_nodes") == 1,
	   "8 order-9 shadows: one level-1 shadow node (%llu); a page read among them: none "
	   "(%llu); paged out again: its leaf (%llu)", (unsigned long long)n8,
	   (unsigned long long)n_read, (unsigned long long)C(m, "vmstat.workingset_nodes"));
	rf_model_free(m);
}

/*
 * Who pays for the nodes a shadow split creates (v6.18 xas_try_split() in
 * __filemap_add_folio()): the inserting task's memcg, here /a's reader.
 * The root evicts a 2 MiB folio: its shadow sits in leaf 0 and level-1 node
 * 0, both the root's.  /a reads a base page at 300: the buddies of orders
 * 0..5 land in leaf 4 (with the page), those of orders 6 and 7 in leaves 5
 * and 6, new leaves all three: /a's.  The page paged out, leaf 4 holds
 * shadows only and goes to /a's shadow list, not the root's.  After /a is
 * removed its nodes are the root's, and they leave the root's count as they
 * are reclaimed (truncate).
 */
static void test_split_nodes_charged(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	uint64_t a_nodes, a_shadow, root_nodes, root_shadow, moved;
	struct rf_event tr = { .type = RF_EV_TRUNCATE };

	cg_mkdir(m, 1, 0, "/");
	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	mmap_file(m, 0, MM, MAP_ADDR, 512, 3);
	fault_order(m, 0, 3, 0, 9);
	pageout(m, 0, 512);
	read_pages(m, 0, 100, 3, 300, 1);
	fault_order(m, 100, 3, 300, 0);		/* mapped, so that MADV_PAGEOUT reaches it */
	pageout(m, 300, 1);
	a_nodes = C(m, "model.memcg./a.xa_nodes");
	a_shadow = C(m, "model.memcg./a.shadow_nodes");
	root_nodes = C(m, "model.memcg./.xa_nodes");
	root_shadow = C(m, "model.memcg./.shadow_nodes");
	ok(a_nodes == 3 && root_nodes == 2, "a shadow split by /a's insertion: its 3 new leaves "
	   "charged to /a (%llu), the root keeps leaf 0 and the level-1 node (%llu)",
	   (unsigned long long)a_nodes, (unsigned long long)root_nodes);
	ok(a_shadow == 1 && root_shadow == 0, "... the page's leaf, shadow-only, on /a's shadow "
	   "list (%llu), not the root's (%llu)", (unsigned long long)a_shadow,
	   (unsigned long long)root_shadow);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 1, 100, 0, 0);
	cg_simple(m, RF_EV_CGROUP_RMDIR, 10, 0, 0, 0);
	moved = C(m, "model.memcg./.xa_nodes");
	tr.u.file.dev = 8;
	tr.u.file.ino = 3;
	tr.u.file.index = 0;
	feed(m, &tr);
	ok(moved == 5 && C(m, "model.memcg./.xa_nodes") == 0 &&
	   C(m, "model.memcg./.shadow_nodes") == 0, "rmdir /a: the root holds all 5 nodes (%llu); "
	   "truncated, none left charged (%llu)", (unsigned long long)moved,
	   (unsigned long long)C(m, "model.memcg./.xa_nodes"));
	rf_model_free(m);
}

/*
 * A held file_readahead (it takes effect with the event the model acts on
 * next) stays held across events the model only counts (a page-cache
 * observation, a file name), and is run by the next one it acts on, here a
 * counters event.
 */
static void test_readahead_held_across_ignored(void)
{
	struct rf_model *m = mk("v6.18", quiet);
	struct rf_event obs = { .type = RF_EV_PAGECACHE_ADD }, name = { .type = RF_EV_NAME_FILE };
	uint64_t held, ignored;

	readahead(m, 1, 9, 0, 16, 0);
	obs.u.file.dev = 8;
	obs.u.file.ino = 9;
	feed(m, &obs);
	feed(m, &name);
	held = C(m, "vmstat.nr_file_pages");
	ignored = C(m, "model.events_ignored");
	settle(m);
	ok(held == 0 && ignored == 2 && C(m, "vmstat.nr_file_pages") == 16,
	   "a readahead stays held across 2 ignored events (%llu pages, %llu ignored), runs with "
	   "the next modelled one (%llu pages)", (unsigned long long)held,
	   (unsigned long long)ignored, (unsigned long long)C(m, "vmstat.nr_file_pages"));
	rf_model_free(m);
}

/*
 * A readahead allocates with readahead_gfp_mask(): __GFP_NORETRY.  /f holds
 * 32 pages; a readahead of 64 pages fills it with 32 locked pages, and the
 * 33rd charge finds nothing reclaim can take.  From v4.7 the charge gives
 * up after that one reclaim (no OOM) and the readahead stops; v4.6.2's
 * GFP_KERNEL charge retries, counts a memcg OOM and fails (the model forces
 * only what is not a readahead).  Nothing is charged past the limit.
 */
static void readahead_over_limit(const char *profile, uint64_t oom)
{
	struct rf_model *m = mk(profile, quiet);

	cg_mkdir(m, 16, 1, "/f");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 16, 0, RF_LIMIT_MEMORY, 32 * PAGE);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 16, 600, 0, 0);
	readahead(m, 600, 20, 0, 64, 0);
	settle(m);
	ok(C(m, "vmstat.nr_file_pages") == 32 && C(m, "memcg./f.usage") == 32 &&
	   C(m, "memcg./f.events.oom") == oom,
	   "%s: a readahead past its cgroup's limit stops at the failed charge (cached %llu, "
	   "usage %llu, oom %llu)", profile, (unsigned long long)C(m, "vmstat.nr_file_pages"),
	   (unsigned long long)C(m, "memcg./f.usage"),
	   (unsigned long long)C(m, "memcg./f.events.oom"));
	rf_model_free(m);
}

/*
 * What no kernel can have is bounded, not trusted: a read past
 * MAX_LFS_FILESIZE reads nothing, one of 2^40 pages reads MAX_RW_COUNT
 * bytes (524287 pages), and a cgroup nested deeper than 256 levels is
 * folded into its ancestor at that depth (its mkdir ignored).
 */
static void test_bounded_input(void)
{
	struct rf_model *m = mk("v6.18", (const char *const[]){ "memory=4G", "cpus=2", NULL });
	char path[2 * 300 + 1] = "";
	uint64_t id, ignored;

	read_pages(m, 0, 700, 21, (uint64_t)INT64_MAX >> 12, 4);
	is_int(C(m, "vmstat.nr_file_pages"), 0, "a read past MAX_LFS_FILESIZE reads nothing");
	read_pages(m, 0, 700, 21, 0, 1ull << 40);
	is_int(C(m, "vmstat.nr_file_pages"), 524287, "a read of 2^40 pages reads MAX_RW_COUNT bytes");
	ignored = C(m, "model.events_ignored");
	for (id = 2; id < 302; id++) {
		strcat(path, "/c");
		cg_mkdir(m, id, id - 1, path);
	}
	cg_simple(m, RF_EV_CGROUP_ATTACH, 301, 701, 0, 0);
	read_pages(m, 0, 701, 22, 0, 1);
	is_int(C(m, "model.events_ignored") - ignored, 44,
	       "300 nested cgroups: the 44 below level 256 are folded into their ancestor");
	rf_model_free(m);
}

int main(void)
{
	plan(53);
	test_big_into_small();
	test_small_into_big();
	test_readahead_unreferenced();
	test_read_same_folio();
	test_v46_base_pages();
	test_readahead_cached();
	test_readahead_charges();
	test_readahead_holds_reader();
	test_readahead_locks_its_folios();
	test_readahead_reads_in_flight();
	test_partly_cached_fault();
	test_fault_after_own_readahead();
	test_unmap_takes_every_pte();
	test_determinism();
	test_level1_shadow_node();
	test_split_nodes_charged();
	test_readahead_held_across_ignored();
	readahead_over_limit("v6.18", 0);
	readahead_over_limit("v4.6", 1);
	test_bounded_input();
	return done_testing();
}
