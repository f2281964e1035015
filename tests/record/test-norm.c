/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The normalizer fed raw tracepoint records by hand, no tracefs needed: the
 * cases a real recording shows only by chance (a task migrating between two
 * page-cache adds; a loader that closes an mmap'ed fd, reuses it and splits
 * the mapping before the recorder looks at /proc).
 *
 * The records use a made-up layout: common_type (u16) at 0, common_pid (s32)
 * at 4, field f (TPF()) as a u64 at 8 + 8 f; event id = enum rf_tp_id + 1.
 */
#include "config.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/compiler.h"
#include "recorder/record-local.h"
#include "recorder/record.h"
#include "tests/lib/tap.h"

#define MAX_EVENTS	64
#define FAKE_PID	5000000		/* above any pid_max: no /proc entry to find */
#define DEV		(8u << 20 | 1)
#define INO		4242u

struct sink_buf {
	struct rf_event ev[MAX_EVENTS];
	int nr;
};

struct harness {
	struct rf_tp_set tps;
	uint16_t by_id[TP_MAX + 1];
	struct sink_buf out;
	struct rf_record_sink sink;
	struct rf_norm *n;
};

static int collect(void *ctx, const struct rf_event *ev)
{
	struct sink_buf *b = ctx;

	if (b->nr < MAX_EVENTS)
		b->ev[b->nr++] = *ev;
	return 0;
}

/* @damon_pid: --damon's process (0: none), its samples 20 per aggregation */
static void harness_init_damon(struct harness *h, int32_t damon_pid)
{
	struct rf_norm_cfg cfg = { .tps = &h->tps, .sink = &h->sink, .damon_pid = damon_pid,
				   .damon_max_nr_accesses = damon_pid ? 20 : 0 };
	int i, f;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < TP_MAX; i++) {
		h->tps.tp[i].desc = rec_tp_desc(i);
		h->tps.tp[i].enabled = true;
		for (f = 0; f < RF_TP_MAX_FIELDS; f++)
			h->tps.tp[i].num[f] = (struct rf_tp_num){ .offset = 8 + 8 * f, .size = 8 };
		h->by_id[i + 1] = i + 1;
	}
	h->tps.type_num = (struct rf_tp_num){ .offset = 0, .size = 2 };
	h->tps.pid_num = (struct rf_tp_num){ .offset = 4, .size = 4 };
	h->tps.by_id = h->by_id;
	h->tps.max_id = TP_MAX;
	h->sink = (struct rf_record_sink){ .event = collect, .ctx = &h->out };
	if (rec_norm_new(&h->n, &cfg))
		exit(1);
}

static void harness_init(struct harness *h)
{
	harness_init_damon(h, 0);
}

/*
 * Each tracepoint's fields as u64s in tp.h's order (field f at 8 f): a record's body in
 * the made-up layout, so that a test names the fields it sets, as the normalizer does.
 */
#define REC_FIELD(field) uint64_t field;
#define REC_STRUCT(system, event, group, fields) struct rec_##event { fields };
RF_TRACEPOINTS(REC_STRUCT, REC_FIELD)

/* A record of tracepoint @id by @pid at @ts, from the drain instance if @drain. */
static int feed_raw(struct harness *h, bool drain, enum rf_tp_id id, int32_t pid, uint32_t cpu,
		    uint64_t ts, const void *fields, size_t size)
{
	unsigned char data[8 + 8 * RF_TP_MAX_FIELDS] = { 0 };
	uint16_t type = id + 1;
	struct rf_raw raw = { .ts = ts, .cpu = cpu, .data = data, .size = sizeof(data),
			      .drain = drain };

	memcpy(data, &type, sizeof(type));
	memcpy(data + 4, &pid, sizeof(pid));
	memcpy(data + 8, fields, size);
	return rec_norm_record(h->n, &raw);
}

/* One record of tracepoint @event by @pid on @cpu at @ts, its fields named: .pfn = 1, ... */
#define FEED(h, event, pid, cpu, ts, ...)						\
	feed_raw(h, false, TP_##event, pid, cpu, ts, &(struct rec_##event){ __VA_ARGS__ },	\
		 sizeof(struct rec_##event))

/* The same from the drain instance (CPU 0): a task the scope does not follow. */
#define FEED_DRAIN(h, event, pid, ts, ...)						\
	feed_raw(h, true, TP_##event, pid, 0, ts, &(struct rec_##event){ __VA_ARGS__ },	\
		 sizeof(struct rec_##event))

static void harness_free(struct harness *h)
{
	rec_norm_free(h->n);
}

static const struct rf_event *nth_of(const struct harness *h, enum rf_event_type type, int nth)
{
	int i;

	for (i = 0; i < h->out.nr; i++)
		if (h->out.ev[i].type == type && !nth--)
			return &h->out.ev[i];
	return NULL;
}

static int count_of(const struct harness *h, enum rf_event_type type)
{
	int i, c = 0;

	for (i = 0; i < h->out.nr; i++)
		c += h->out.ev[i].type == type;
	return c;
}

/* A page-cache add of folio @idx (order 0) of the test file, pfn made up from it. */
static int add(struct harness *h, uint32_t cpu, uint64_t ts, uint64_t idx)
{
	return FEED(h, mm_filemap_add_to_page_cache, FAKE_PID, cpu, ts, .pfn = 0x100000 + idx,
		    .i_ino = INO, .index = idx, .s_dev = DEV, .order = 0);
}

/*
 * tp.h makes the field indexes and tp.c's name lists from one table: at each
 * TPF() index stands that field's name, and each id names its event.
 */
#define CHECK_FIELD(field)								\
	bad += !d->fields[offsetof(struct_t, field)] ||					\
	       strcmp(d->fields[offsetof(struct_t, field)], #field);
#define CHECK_EVENT(sys, event, grp, fields)						\
	{										\
		typedef struct rf_tpf_##event struct_t;					\
		const struct rf_tp_desc *d = rec_tp_desc(TP_##event);			\
											\
		fields									\
		bad += strcmp(d->system, #sys) || strcmp(d->name, #event) ||		\
		       d->group != RF_TPG_##grp;					\
		nr_fields += sizeof(struct_t);						\
	}

static void test_field_names(void)
{
	size_t nr_fields = 0;
	int bad = 0;

	RF_TRACEPOINTS(CHECK_EVENT, CHECK_FIELD)
	ok(!bad, "the %zu fields of %d tracepoints stand at their TPF() index in the table",
	   nr_fields, TP_MAX);
}

/*
 * A read() whose readahead ran on CPU 0 for two pages, then on CPU 1 (the task
 * migrated) for three more: the folio_add_lru() of each went to its CPU's
 * batch, and each file_readahead must say which.
 */
static void test_readahead_cpu(void)
{
	const struct rf_event *a, *b, *rd;
	struct harness h;
	int err = 0;

	harness_init(&h);
	err |= FEED(&h, sys_enter_read, FAKE_PID, 0, 1000, .fd = 1000, .count = 5 * 4096);
	err |= add(&h, 0, 2000, 0);
	err |= add(&h, 0, 2100, 1);
	err |= add(&h, 1, 9000, 2);
	err |= add(&h, 1, 9100, 3);
	err |= add(&h, 1, 9200, 4);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 1, 9300, .i_ino = INO, .s_dev = DEV,
		    .index = 0, .last_index = 4);
	err |= FEED(&h, sys_exit_read, FAKE_PID, 1, 9400, .ret = 5 * 4096);
	err |= rec_norm_flush(h.n);
	is_int(err, 0, "records of a read across a migration are taken");
	is_int(count_of(&h, RF_EV_FILE_READAHEAD), 2, "the readahead is cut where the CPU changed");
	a = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	b = nth_of(&h, RF_EV_FILE_READAHEAD, 1);
	ok(a && a->cpu == 0 && a->u.file.index == 0 && a->u.file.nr == 2,
	   "first part: pages 0-1 on CPU 0 (got cpu %d index %d nr %d)", a ? (int)a->cpu : -1,
	   a ? (int)a->u.file.index : -1, a ? (int)a->u.file.nr : -1);
	ok(b && b->cpu == 1 && b->u.file.index == 2 && b->u.file.nr == 3,
	   "second part: pages 2-4 on CPU 1 (got cpu %d index %d nr %d)", b ? (int)b->cpu : -1,
	   b ? (int)b->u.file.index : -1, b ? (int)b->u.file.nr : -1);
	rd = nth_of(&h, RF_EV_FILE_READ, 0);
	ok(rd && b && rd > b && rd->u.file.index == 0 && rd->u.file.nr == 5,
	   "the read of pages 0-4 follows both");
	harness_free(&h);
}

/* Adds on one CPU still make one event. */
static void test_readahead_one_cpu(void)
{
	const struct rf_event *a;
	struct harness h;
	int err = 0, i;

	harness_init(&h);
	err |= FEED(&h, sys_enter_read, FAKE_PID, 1, 1000, .fd = 1000, .count = 4 * 4096);
	for (i = 0; i < 4; i++)
		err |= add(&h, 1, 2000 + i, i);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 1, 3000, .i_ino = INO, .s_dev = DEV,
		    .index = 0, .last_index = 3);
	err |= FEED(&h, sys_exit_read, FAKE_PID, 1, 3100, .ret = 4 * 4096);
	err |= rec_norm_flush(h.n);
	a = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	ok(!err && count_of(&h, RF_EV_FILE_READAHEAD) == 1 && a && a->cpu == 1 &&
	   a->u.file.nr == 4, "contiguous adds on one CPU: one file_readahead of 4 pages on it");
	harness_free(&h);
}

/*
 * preadv() names exactly the pages of the bytes it returned from its offset
 * (2 KiB into page 1, 8 KiB: pages 1-3), though get_pages asked for more;
 * copy_file_range() reads its input as read() does, and its adds of the
 * output file, after the input's get_pages, are its writes: no readahead.
 */
static void test_other_reads(void)
{
	const struct rf_event *rd, *cp, *ra;
	struct harness h;
	int err = 0, i;

	harness_init(&h);
	err |= FEED(&h, sys_enter_preadv, FAKE_PID, 0, 1000, .fd = 1000, .pos_l = 4096 + 2048);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 0, 1100, .i_ino = INO, .s_dev = DEV,
		    .index = 1, .last_index = 5);
	err |= FEED(&h, sys_exit_preadv, FAKE_PID, 0, 1200, .ret = 8192);
	err |= FEED(&h, sys_enter_copy_file_range, FAKE_PID, 0, 2000, .fd_in = 1000,
		    .len = 1ull << 62);
	for (i = 0; i < 4; i++)
		err |= add(&h, 0, 2100 + i, 16 + i);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 0, 2200, .i_ino = INO, .s_dev = DEV,
		    .index = 16, .last_index = 19);
	for (i = 0; i < 4; i++)
		err |= FEED(&h, mm_filemap_add_to_page_cache, FAKE_PID, 0, 2300 + i,
			    .pfn = 0x200000 + i, .i_ino = INO + 1, .index = i, .s_dev = DEV, .order = 0);
	err |= FEED(&h, sys_exit_copy_file_range, FAKE_PID, 0, 2400, .ret = 4 * 4096);
	err |= rec_norm_flush(h.n);
	rd = nth_of(&h, RF_EV_FILE_READ, 0);
	cp = nth_of(&h, RF_EV_FILE_READ, 1);
	ra = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	ok(!err && rd && rd->u.file.index == 1 && rd->u.file.nr == 3,
	   "preadv: pages 1-3 of the bytes it returned (got index %d nr %d)",
	   rd ? (int)rd->u.file.index : -1, rd ? (int)rd->u.file.nr : -1);
	ok(cp && cp->u.file.ino == INO && cp->u.file.index == 16 && cp->u.file.nr == 4 &&
	   count_of(&h, RF_EV_FILE_READAHEAD) == 1 && ra && ra->u.file.ino == INO &&
	   ra->u.file.nr == 4, "copy_file_range: its input read and read ahead, not its output "
	   "(%d file_readahead)", count_of(&h, RF_EV_FILE_READAHEAD));
	harness_free(&h);
}

/*
 * Following a pid, other tasks' records come from the drain instance: the LRU
 * events of a folio the scope added are kept (with the drainer's pid), those
 * of an unknown pfn are not, and once kswapd deleted the folio its pfn is
 * nobody's: the next owner's LRU events are not the scope's.
 */
static void test_drain(void)
{
	const uint64_t pfn = 0x200000, unknown = 0x300000;
	const int32_t drainer = FAKE_PID + 1, kswapd = FAKE_PID + 2;
	const struct rf_event *e, *del;
	struct harness h;
	int err = 0;

	harness_init(&h);
	/* the followed task adds an order-2 folio */
	err |= FEED(&h, mm_filemap_add_to_page_cache, FAKE_PID, 0, 1000, .pfn = pfn, .i_ino = INO,
		    .index = 8, .s_dev = DEV, .order = 2);
	err |= FEED_DRAIN(&h, mm_lru_insertion, drainer, 2000, .pfn = pfn, .lru = 2);
	err |= FEED_DRAIN(&h, mm_lru_insertion, drainer, 2100, .pfn = unknown, .lru = 2);
	err |= FEED_DRAIN(&h, mm_filemap_delete_from_page_cache, kswapd, 3000, .pfn = unknown,
			  .i_ino = INO + 1, .index = 0, .s_dev = DEV, .order = 0);
	err |= FEED_DRAIN(&h, mm_filemap_delete_from_page_cache, kswapd, 3100, .pfn = pfn,
			  .i_ino = INO, .index = 8, .s_dev = DEV, .order = 2);
	/* the pfn reused by an unrelated task's page */
	err |= FEED_DRAIN(&h, mm_lru_insertion, drainer, 4000, .pfn = pfn, .lru = 2);
	err |= FEED_DRAIN(&h, mm_lru_activate, drainer, 4100, .pfn = pfn);
	err |= rec_norm_flush(h.n);
	is_int(err, 0, "drain-instance records are taken");
	e = nth_of(&h, RF_EV_LRU_ADD, 0);
	ok(e && e->u.lru.pfn == pfn && e->pid == drainer && e->u.lru.order == 2,
	   "another task's lru_add of the scope's cached folio is kept, with its pid and the order");
	e = nth_of(&h, RF_EV_LRU_ADD, 1);
	ok(!e || e->u.lru.pfn != unknown, "another task's lru_add of an unknown pfn is dropped");
	ok(count_of(&h, RF_EV_LRU_ADD) + count_of(&h, RF_EV_LRU_ACTIVATE) == 1,
	   "after kswapd deleted the folio, the reused pfn's lru_add and activation are dropped");
	del = nth_of(&h, RF_EV_PAGECACHE_DEL, 0);
	ok(count_of(&h, RF_EV_PAGECACHE_DEL) == 1 && del && del->u.file.pfn == pfn &&
	   del->pid == kswapd && del->u.file.ino == INO && del->u.file.index == 8 &&
	   del->u.file.order == 2,
	   "kswapd's delete of the scope's folio is written with its pid, an unknown pfn's is not");
	harness_free(&h);
}

/*
 * --damon: the kdamond's damon_aggregated records (drain instance, the
 * kdamond's pid) become damon_region events of the recorded process, in the
 * address space it has at the time (here the one it had at start: mm id =
 * its tgid); a region without access is kept; a record of another target,
 * or one without --damon, is dropped.  (An exec's new address space is the
 * kernel lab's: its filename is a string this harness cannot lay out.)
 */
static void test_damon(void)
{
	const int32_t kdamond = FAKE_PID + 3;
	const struct rf_event *a, *b;
	struct harness h, none;
	int err = 0;

	harness_init_damon(&h, FAKE_PID);
	err |= FEED(&h, sys_enter_read, FAKE_PID, 0, 1000, .fd = 3, .count = 4096);
	err |= FEED_DRAIN(&h, damon_aggregated, kdamond, 2000, .target_id = 0,
			  .start = 0x400000, .end = 0x800000, .nr_accesses = 3, .age = 7);
	err |= FEED_DRAIN(&h, damon_aggregated, kdamond, 2100, .target_id = 1,
			  .start = 0x400000, .end = 0x800000, .nr_accesses = 5, .age = 1);
	err |= FEED_DRAIN(&h, damon_aggregated, kdamond, 4000, .target_id = 0,
			  .start = 0x1000, .end = 0x2000, .nr_accesses = 0, .age = 0);
	err |= rec_norm_flush(h.n);
	is_int(err, 0, "damon_aggregated records are taken");
	a = nth_of(&h, RF_EV_DAMON_REGION, 0);
	b = nth_of(&h, RF_EV_DAMON_REGION, 1);
	ok(count_of(&h, RF_EV_DAMON_REGION) == 2 && a && a->pid == FAKE_PID &&
	   a->u.damon.start == 0x400000 && a->u.damon.end == 0x800000 &&
	   a->u.damon.nr_accesses == 3 && a->u.damon.max_nr_accesses == 20 && a->u.damon.age == 7,
	   "target 0's region is the recorded process's, with its counts (target 1's dropped)");
	ok(a && b && a->u.damon.mm == (uint32_t)FAKE_PID && b->u.damon.mm == a->u.damon.mm &&
	   b->u.damon.nr_accesses == 0 && b->time == 4000,
	   "in the process's address space; a region without access is kept");
	harness_free(&h);
	harness_init(&none);
	err = FEED(&none, sys_enter_read, FAKE_PID, 0, 1000, .fd = 3, .count = 4096) |
	      FEED_DRAIN(&none, damon_aggregated, kdamond, 2000, .target_id = 0, .start = 0x1000,
			 .end = 0x2000, .nr_accesses = 1);
	ok(!err && count_of(&none, RF_EV_DAMON_REGION) == 0, "without --damon: none");
	harness_free(&none);
}

/*
 * Faults still held when the recording stops go out from rec_norm_flush() in
 * pid order, not in the order of the task table's hash: threads of one
 * process (made up: FAKE_PID's, so no /proc lookup) each name a file fault
 * that nothing ends before the flush.
 */
static void test_flush_order(void)
{
	static const int32_t tids[] = { 7, 3, 5, 1, 8, 2, 6, 4 };
	const uint64_t base = 0x7f0000000000ull;
	struct harness h;
	int32_t last = 0;
	size_t i;
	int err = 0, nr = 0, sorted = 1;

	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, FAKE_PID, 0, 1000, .addr = 0, .len = 16 * 4096,
		    .prot = PROT_READ, .flags = MAP_PRIVATE | MAP_ANONYMOUS, .fd = (uint64_t)-1,
		    .off = 0);
	err |= FEED(&h, sys_exit_mmap, FAKE_PID, 0, 1100, .ret = base);
	for (i = 0; i < ARRAY_SIZE(tids); i++) {
		int32_t tid = FAKE_PID + tids[i];
		uint64_t ts = 2000 + 10 * i;

		err |= FEED(&h, task_newtask, FAKE_PID, 0, ts, .pid = tid,
			    .clone_flags = CLONE_VM | CLONE_THREAD);
		err |= FEED(&h, page_fault_user, tid, 0, ts + 1, .address = base + 4096 * i);
		err |= FEED(&h, mm_filemap_fault, tid, 0, ts + 2, .i_ino = INO, .s_dev = DEV,
			    .index = i);
	}
	is_int(count_of(&h, RF_EV_FILE_FAULT), 0, "the threads' file faults are held");
	err |= rec_norm_flush(h.n);
	for (i = 0; i < (size_t)h.out.nr; i++) {
		const struct rf_event *e = &h.out.ev[i];

		if (e->type != RF_EV_FILE_FAULT)
			continue;
		nr++;
		sorted &= e->pid > last;
		last = e->pid;
	}
	ok(!err && nr == (int)ARRAY_SIZE(tids) && sorted,
	   "at the flush they go out, all %d, in pid order (got %d, %s)", (int)ARRAY_SIZE(tids), nr,
	   sorted ? "sorted" : "not sorted");
	harness_free(&h);
}

/*
 * Fault-around: the folios do_fault_around() -> filemap_map_pages() mapped
 * beside the faulting one, of those the recorder saw enter the cache, are
 * file faults flagged RF_REF_AROUND (mapped, not faulted: the model reads no
 * such folio into a VM_RAND_READ mapping); the fault itself is not flagged.
 */
static void test_fault_around(void)
{
	const uint64_t base = 0x7f0000400000ull;
	struct harness h;
	int err = 0, i, around = 0, faults = 0, bad = 0;

	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, FAKE_PID, 0, 1000, .addr = 0, .len = 16 * 4096,
		    .prot = PROT_READ, .flags = MAP_PRIVATE | MAP_ANONYMOUS, .fd = (uint64_t)-1,
		    .off = 0);
	err |= FEED(&h, sys_exit_mmap, FAKE_PID, 0, 1100, .ret = base);
	for (i = 0; i < 4; i++)
		err |= add(&h, 0, 1200 + (uint64_t)i, (uint64_t)i);
	err |= FEED(&h, page_fault_user, FAKE_PID, 0, 2000, .address = base + 4096);
	err |= FEED(&h, mm_filemap_map_pages, FAKE_PID, 0, 2001, .i_ino = INO, .s_dev = DEV,
		    .index = 0, .last_index = 15);
	err |= rec_norm_flush(h.n);
	for (i = 0; i < h.out.nr; i++) {
		const struct rf_event *e = &h.out.ev[i];

		if (e->type != RF_EV_FILE_FAULT)
			continue;
		if (e->u.file.flags & RF_REF_AROUND)
			around++, bad += e->u.file.index == 1;
		else
			faults++, bad += e->u.file.index != 1;
	}
	ok(!err && faults == 1 && around == 3 && !bad,
	   "fault-around: the fault at page 1 is a file_fault, the 3 other cached pages of the "
	   "window file_faults flagged RF_REF_AROUND (got %d and %d, %d misplaced)", faults,
	   around, bad);
	harness_free(&h);
}

/*
 * An anonymous fault's folio order from the page allocator's record inside it
 * (THP, mTHP): the last allocation that did not fail; the insertion after it
 * has the order too; an allocation by another task, or after the fault went
 * out, changes no fault, and the latter is counted when it goes on an
 * anonymous list.
 */
static void test_large_anon(void)
{
	const uint64_t base = 0x7f0000200000ull, fail = UINT64_MAX;
	const struct rf_event *f0, *f1, *f2, *f3, *f4, *f5, *f6, *l0, *l3, *l4;
	struct rf_record_stats st;
	struct harness h;
	int err = 0;

	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, FAKE_PID, 0, 1000, .addr = 0, .len = 8 << 20,
		    .prot = PROT_READ | PROT_WRITE, .flags = MAP_PRIVATE | MAP_ANONYMOUS,
		    .fd = (uint64_t)-1, .off = 0);
	err |= FEED(&h, sys_exit_mmap, FAKE_PID, 0, 1100, .ret = base);
	/* a PMD THP: the fault, its order-9 folio, the folio's insertion */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 2000, .address = base + 0x1234,
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 2010, .pfn = 0x40000, .order = 9);
	err |= FEED(&h, mm_lru_insertion, FAKE_PID, 1, 2020, .pfn = 0x40000, .lru = 0);
	/* an mTHP after a failed order 9, its memcg reclaiming for the charge */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 3000, .address = base + (2 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 3010, .pfn = fail, .order = 9);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 3011, .pfn = 0x50000, .order = 4);
	err |= FEED(&h, mm_vmscan_memcg_reclaim_begin, FAKE_PID, 1, 3020, .order = 0);
	err |= FEED(&h, mm_vmscan_memcg_reclaim_end, FAKE_PID, 1, 8000, .nr_reclaimed = 32);
	err |= FEED(&h, mm_lru_insertion, FAKE_PID, 1, 8010, .pfn = 0x50000, .lru = 0);
	/* another task's allocation on the CPU of the fault */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 9000, .address = base + (3 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID + 1, 1, 9010, .pfn = 0x60000, .order = 9);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID, 1, 9020, .start = 0, .len_in = 0);
	/* a charge that failed: the folio freed, not inserted, the fault served by a page */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 10000, .address = base + (5 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 10010, .pfn = 0x80000, .order = 9);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID, 1, 10200, .start = 0, .len_in = 0);
	/* a fault that went out (another CPU's record 200 us later) before its allocation */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 20000, .address = base + (4 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID + 2, 0, 220000, .start = 0, .len_in = 0);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 220010, .pfn = 0x70000, .order = 9);
	err |= FEED(&h, mm_lru_insertion, FAKE_PID, 1, 220020, .pfn = 0x70000, .lru = 0);
	/* moved to CPU 0 while clearing the folio, another task's record on CPU 1 meanwhile */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 300000, .address = base + (6 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 1, 300010, .pfn = 0x90000, .order = 9);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID + 2, 1, 300020, .start = 0, .len_in = 0);
	err |= FEED(&h, mm_lru_insertion, FAKE_PID, 0, 300030, .pfn = 0x90000, .lru = 0);
	/* moved before its allocation, nothing on CPU 1 since: the fault still pending there */
	err |= FEED(&h, page_fault_user, FAKE_PID, 1, 400000, .address = base + (7 << 20),
		    .error_code = 0x6);
	err |= FEED(&h, mm_page_alloc, FAKE_PID, 0, 400010, .pfn = 0xa0000, .order = 9);
	err |= FEED(&h, mm_lru_insertion, FAKE_PID, 0, 400020, .pfn = 0xa0000, .lru = 0);
	err |= rec_norm_flush(h.n);
	rec_norm_stats(h.n, &st);
	f0 = nth_of(&h, RF_EV_ANON_FAULT, 0);
	f1 = nth_of(&h, RF_EV_ANON_FAULT, 1);
	f2 = nth_of(&h, RF_EV_ANON_FAULT, 2);
	f3 = nth_of(&h, RF_EV_ANON_FAULT, 3);
	f4 = nth_of(&h, RF_EV_ANON_FAULT, 4);
	f5 = nth_of(&h, RF_EV_ANON_FAULT, 5);
	f6 = nth_of(&h, RF_EV_ANON_FAULT, 6);
	l0 = nth_of(&h, RF_EV_LRU_ADD, 0);
	l3 = nth_of(&h, RF_EV_LRU_ADD, 3);
	l4 = nth_of(&h, RF_EV_LRU_ADD, 4);
	ok(!err && f0 && f0->u.anon.order == 9 && f0->u.anon.addr == base + 0x1000,
	   "a THP fault is of order 9 at its page (got %d, %#llx)", f0 ? f0->u.anon.order : -1,
	   f0 ? (unsigned long long)f0->u.anon.addr : 0ull);
	ok(l0 && l0->u.lru.order == 9, "its insertion is of order 9 (got %d)",
	   l0 ? l0->u.lru.order : -1);
	ok(f1 && f1->u.anon.order == 4, "an mTHP fault after a failed allocation takes the order "
	   "allocated, through its charge's reclaim (got %d)", f1 ? f1->u.anon.order : -1);
	ok(f2 && f2->u.anon.order == 0, "another task's allocation leaves a fault at order 0 "
	   "(got %d)", f2 ? f2->u.anon.order : -1);
	ok(f3 && f3->u.anon.order == 0 && f3->u.anon.addr == base + (5 << 20),
	   "a large folio never inserted (its charge failed) leaves its fault at order 0 (got %d)",
	   f3 ? f3->u.anon.order : -1);
	ok(f4 && f4->u.anon.order == 0 && st.large_late == 1,
	   "an allocation after its fault went out is counted (order %d, %llu counted)",
	   f4 ? f4->u.anon.order : -1, (unsigned long long)st.large_late);
	ok(f5 && f5->u.anon.order == 9 && l3 && l3->u.lru.order == 9,
	   "a task that moved to another CPU between allocating and inserting its folio: "
	   "order 9 (fault %d, insertion %d)", f5 ? f5->u.anon.order : -1,
	   l3 ? l3->u.lru.order : -1);
	ok(f6 && f6->u.anon.order == 9 && l4 && l4->u.lru.order == 9 && st.large_late == 1,
	   "one that moved between its fault and the allocation: order 9 (fault %d, "
	   "insertion %d)", f6 ? f6->u.anon.order : -1, l4 ? l4->u.lru.order : -1);
	harness_free(&h);
}

/*
 * page_fault_kernel: the kernel touching a task's page.  A read()'s copy into a
 * buffer not touched yet is the task's anonymous fault, and the read's
 * readahead stays the read's; a fault at a kernel address, at one no mapping
 * covers (a copy that fails), or a kernel read of an anonymous page (the zero
 * page; perf's copy of a user stack, which maps nothing), is nothing.  exec's padzero() faults
 * in the new program before the recorder knows its mappings: the filemap
 * event names the page, and the read-around that follows is the fault's.
 */
static void test_kernel_fault(void)
{
	const uint64_t base = 0x7f0000800000ull, prog = 0x555555554000ull;
	const struct rf_event *an, *ra, *rd, *ff;
	struct harness h;
	int err = 0, i;

	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, FAKE_PID, 0, 1000, .addr = 0, .len = 16 * 4096,
		    .prot = PROT_READ | PROT_WRITE, .flags = MAP_PRIVATE | MAP_ANONYMOUS,
		    .fd = (uint64_t)-1, .off = 0);
	err |= FEED(&h, sys_exit_mmap, FAKE_PID, 0, 1100, .ret = base);
	err |= FEED(&h, sys_enter_read, FAKE_PID, 0, 2000, .fd = 1000, .count = 3 * 4096);
	err |= add(&h, 0, 2100, 0);
	err |= FEED(&h, page_fault_kernel, FAKE_PID, 0, 2200, .address = base + 0x1010,
		    .error_code = 0x2);
	err |= add(&h, 0, 2300, 1);
	err |= FEED(&h, page_fault_kernel, FAKE_PID, 0, 2400, .address = 0xffff888000001000ull,
		    .error_code = 0x0);
	err |= add(&h, 0, 2500, 2);
	err |= FEED(&h, page_fault_kernel, FAKE_PID, 0, 2600, .address = base + (1ull << 30),
		    .error_code = 0x2);
	/* perf's copy of a user stack (a read, page faults disabled): it maps nothing */
	err |= FEED(&h, page_fault_kernel, FAKE_PID, 0, 2650, .address = base + 0x5000,
		    .error_code = 0x0);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 0, 2700, .i_ino = INO, .s_dev = DEV,
		    .index = 0, .last_index = 2);
	err |= FEED(&h, sys_exit_read, FAKE_PID, 0, 2800, .ret = 3 * 4096);
	/* exec: padzero() writes the page, filemap_fault() reads 10 pages around it */
	err |= FEED(&h, page_fault_kernel, FAKE_PID, 1, 5000, .address = prog + 0x7123,
		    .error_code = 0x2);
	err |= FEED(&h, mm_filemap_fault, FAKE_PID, 1, 5010, .i_ino = INO + 1, .s_dev = DEV,
		    .index = 7);
	for (i = 0; i < 10; i++)
		err |= FEED(&h, mm_filemap_add_to_page_cache, FAKE_PID, 1, 5020 + (uint64_t)i,
			    .pfn = 0x200000 + (uint64_t)i, .i_ino = INO + 1, .index = (uint64_t)i,
			    .s_dev = DEV, .order = 0);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID, 1, 6000, .start = 0, .len_in = 0);
	err |= rec_norm_flush(h.n);
	an = nth_of(&h, RF_EV_ANON_FAULT, 0);
	ok(!err && count_of(&h, RF_EV_ANON_FAULT) == 1 && an && an->u.anon.addr == base + 0x1000 &&
	   (an->u.anon.flags & RF_REF_WRITE),
	   "a read()'s copy into an untouched buffer: one anonymous write fault at its page "
	   "(got %d, %#llx); a kernel address, an unmapped one and a kernel read: none",
	   count_of(&h, RF_EV_ANON_FAULT), an ? (unsigned long long)an->u.anon.addr : 0ull);
	ra = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	rd = nth_of(&h, RF_EV_FILE_READ, 0);
	ok(ra && rd && ra < rd && ra->u.file.ino == INO && ra->u.file.nr == 3 &&
	   rd->u.file.nr == 3, "the read's readahead (3 pages, got %d) is still the read's, "
	   "before it", ra ? (int)ra->u.file.nr : -1);
	ra = nth_of(&h, RF_EV_FILE_READAHEAD, 1);
	ff = nth_of(&h, RF_EV_FILE_FAULT, 0);
	ok(count_of(&h, RF_EV_FILE_FAULT) == 1 && ff && ra && ra < ff &&
	   ff->u.file.ino == INO + 1 && ff->u.file.index == 7 &&
	   (ff->u.file.flags & RF_REF_WRITE) && ra->u.file.ino == INO + 1 &&
	   ra->u.file.index == 0 && ra->u.file.nr == 10,
	   "exec's kernel fault in the program, no mapping known: a file fault at the page the "
	   "filemap event names (%lld), after its read-around as file_readahead (%d pages)",
	   ff ? (long long)ff->u.file.index : -1ll, ra ? (int)ra->u.file.nr : -1);
	harness_free(&h);
}

/*
 * Adds outside every read, fault and readahead call the recorder saw begin:
 * those a get_pages of the same task and file follows are that read's
 * readahead (exec's kernel_read() of the program's header), out before its
 * file_read; those another record of the task follows (a write()'s) are not.
 */
static void test_loose_adds(void)
{
	const struct rf_event *ra, *rd;
	struct harness h;
	int err = 0, i;

	harness_init(&h);
	for (i = 0; i < 4; i++)
		err |= add(&h, 0, 1000 + (uint64_t)i, (uint64_t)i);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 0, 1100, .i_ino = INO, .s_dev = DEV,
		    .index = 0, .last_index = 0);
	for (i = 0; i < 2; i++)
		err |= add(&h, 0, 2000 + (uint64_t)i, 10 + (uint64_t)i);
	err |= FEED(&h, sys_enter_fsync, FAKE_PID, 0, 2100, .fd = 1000);
	err |= FEED(&h, mm_filemap_get_pages, FAKE_PID, 0, 2200, .i_ino = INO, .s_dev = DEV,
		    .index = 10, .last_index = 11);
	err |= rec_norm_flush(h.n);
	ra = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	rd = nth_of(&h, RF_EV_FILE_READ, 0);
	ok(!err && ra && rd && ra < rd && ra->u.file.index == 0 && ra->u.file.nr == 4 &&
	   rd->u.file.index == 0 && rd->u.file.nr == 1,
	   "adds a get_pages follows with no read seen: its readahead (%d pages), before it",
	   ra ? (int)ra->u.file.nr : -1);
	ok(count_of(&h, RF_EV_FILE_READAHEAD) == 1 && count_of(&h, RF_EV_FILE_READ) == 2,
	   "adds another record follows: no readahead (%d in all), the later read still read",
	   count_of(&h, RF_EV_FILE_READAHEAD));
	harness_free(&h);
}

/*
 * The adds inside fadvise(WILLNEED), madvise(WILLNEED) and readahead(2) are
 * file_readahead, out at the syscall's exit; those of another advice are not.
 */
static void test_willneed(void)
{
	struct harness h;
	const struct rf_event *r0, *r1, *r2;
	int err = 0;

	harness_init(&h);
	err |= FEED(&h, sys_enter_fadvise64, FAKE_PID, 0, 1000, .fd = 1000, .offset = 0,
		    .len = 0, .advice = 3 /* POSIX_FADV_WILLNEED */);
	err |= add(&h, 0, 1010, 0);
	err |= add(&h, 0, 1020, 1);
	err |= FEED(&h, sys_exit_fadvise64, FAKE_PID, 0, 1030, .ret = 0);
	err |= FEED(&h, sys_enter_readahead, FAKE_PID, 0, 2000, .fd = 1000, .offset = 8192,
		    .count = 8192);
	err |= add(&h, 0, 2010, 2);
	err |= FEED(&h, sys_exit_readahead, FAKE_PID, 0, 2020, .ret = 0);
	err |= FEED(&h, sys_enter_madvise, FAKE_PID, 0, 3000, .start = 0, .len_in = 4096,
		    .behavior = 3 /* MADV_WILLNEED */);
	err |= add(&h, 0, 3010, 3);
	err |= FEED(&h, sys_exit_madvise, FAKE_PID, 0, 3020, .ret = 0);
	err |= FEED(&h, sys_enter_fadvise64, FAKE_PID, 0, 4000, .fd = 1000, .offset = 0,
		    .len = 0, .advice = 4 /* POSIX_FADV_DONTNEED */);
	err |= add(&h, 0, 4010, 4);
	err |= FEED(&h, sys_exit_fadvise64, FAKE_PID, 0, 4020, .ret = 0);
	err |= rec_norm_flush(h.n);
	r0 = nth_of(&h, RF_EV_FILE_READAHEAD, 0);
	r1 = nth_of(&h, RF_EV_FILE_READAHEAD, 1);
	r2 = nth_of(&h, RF_EV_FILE_READAHEAD, 2);
	ok(!err && r0 && r0->u.file.index == 0 && r0->u.file.nr == 2,
	   "fadvise(WILLNEED)'s adds are one file_readahead of pages 0-1 (got %d+%d)",
	   r0 ? (int)r0->u.file.index : -1, r0 ? (int)r0->u.file.nr : -1);
	ok(r1 && r1->u.file.index == 2 && r1->u.file.nr == 1 && r2 && r2->u.file.index == 3,
	   "readahead(2)'s and madvise(WILLNEED)'s too, each at its exit");
	is_int(count_of(&h, RF_EV_FILE_READAHEAD), 3, "an add inside fadvise(DONTNEED) is none");
	harness_free(&h);
}

/*
 * fadvise(DONTNEED) names its file by the call's first page-cache delete (the
 * descriptor may be closed by the time the recorder reads /proc, as FAKE_PID's
 * is): one fadvise event before the deletes; a call that deleted nothing and
 * whose descriptor /proc does not show is none, and a later delete is no call's.
 */
static void test_fadvise_dontneed(void)
{
	struct harness h;
	const struct rf_event *f;
	int err = 0, i, first_del = -1, at = -1;

	harness_init(&h);
	err |= add(&h, 0, 100, 0);
	err |= add(&h, 0, 110, 1);
	err |= FEED(&h, sys_enter_fadvise64, FAKE_PID, 0, 1000, .fd = 1000, .offset = 0,
		    .len = 8192, .advice = 4 /* POSIX_FADV_DONTNEED */);
	err |= FEED(&h, mm_filemap_delete_from_page_cache, FAKE_PID, 0, 1010, .pfn = 0x100000,
		    .i_ino = INO, .index = 0, .s_dev = DEV, .order = 0);
	err |= FEED(&h, mm_filemap_delete_from_page_cache, FAKE_PID, 0, 1020, .pfn = 0x100001,
		    .i_ino = INO, .index = 1, .s_dev = DEV, .order = 0);
	err |= FEED(&h, sys_exit_fadvise64, FAKE_PID, 0, 1030, .ret = 0);
	err |= FEED(&h, sys_enter_fadvise64, FAKE_PID, 0, 2000, .fd = 1000, .offset = 0,
		    .len = 0, .advice = 4 /* POSIX_FADV_DONTNEED */);
	err |= FEED(&h, sys_exit_fadvise64, FAKE_PID, 0, 2010, .ret = 0);
	err |= add(&h, 0, 3000, 2);
	err |= FEED(&h, mm_filemap_delete_from_page_cache, FAKE_PID, 0, 3010, .pfn = 0x100002,
		    .i_ino = INO, .index = 2, .s_dev = DEV, .order = 0);
	err |= rec_norm_flush(h.n);
	f = nth_of(&h, RF_EV_FADVISE, 0);
	for (i = 0; i < h.out.nr; i++) {
		if (first_del < 0 && h.out.ev[i].type == RF_EV_PAGECACHE_DEL)
			first_del = i;
		if (at < 0 && h.out.ev[i].type == RF_EV_FADVISE)
			at = i;
	}
	ok(!err && f && f->u.file.dev == DEV && f->u.file.ino == INO && f->u.file.index == 0 &&
	   f->u.file.nr == 2 && f->u.file.advice == 4 && f->time == 1010,
	   "fadvise(DONTNEED) of a closed descriptor is placed by its first delete (index %d nr %d)",
	   f ? (int)f->u.file.index : -1, f ? (int)f->u.file.nr : -1);
	ok(at >= 0 && at < first_del, "it goes out before the deletes (event %d, first delete %d)",
	   at, first_del);
	is_int(count_of(&h, RF_EV_FADVISE), 1,
	       "one that deleted nothing, descriptor gone, is none; a later delete is no call's");
	harness_free(&h);
}

/*
 * A folio made dirty is a file_write of the whole folio, on the device the
 * file's page-cache adds gave (the bdi's name is the disk's, not the
 * partition's); the output file's own are not the trace's.
 */
static void test_dirty(void)
{
	const struct rf_event *w0, *w1;
	struct harness h;
	int err = 0;

	harness_init(&h);
	err |= FEED(&h, mm_filemap_add_to_page_cache, FAKE_PID, 0, 1000, .pfn = 0x200000,
		    .i_ino = INO, .index = 16, .s_dev = DEV, .order = 4);
	err |= FEED(&h, writeback_dirty_folio, FAKE_PID, 0, 1010, .ino = INO, .index = 16);
	err |= FEED(&h, writeback_dirty_folio, FAKE_PID, 0, 1020, .ino = INO, .index = 40);
	err |= rec_norm_flush(h.n);
	w0 = nth_of(&h, RF_EV_FILE_WRITE, 0);
	w1 = nth_of(&h, RF_EV_FILE_WRITE, 1);
	ok(!err && w0 && w0->u.file.dev == DEV && w0->u.file.ino == INO && w0->u.file.index == 16 &&
	   w0->u.file.nr == 16, "a dirtied order-4 folio is a file_write of its 16 pages on the "
	   "file's device (got index %d nr %d)", w0 ? (int)w0->u.file.index : -1,
	   w0 ? (int)w0->u.file.nr : -1);
	ok(w1 && w1->u.file.index == 40 && w1->u.file.nr == 1,
	   "a folio cached before the recording: its page alone");
	harness_free(&h);
}

static int temp_file(char *path, size_t len, const char *tag, uint64_t *ino, uint32_t *dev)
{
	char page[4096] = { 0 };
	struct stat st;
	int fd, i;

	snprintf(path, len, "%s/rf-test-norm-%s-XXXXXX", getenv("TMPDIR") ?: "/tmp", tag);
	fd = mkstemp(path);
	for (i = 0; fd >= 0 && i < 4; i++)
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			return -1;
	if (fd < 0 || fstat(fd, &st))
		return -1;
	*ino = st.st_ino;
	*dev = rec_kdev(st.st_dev);
	return fd;
}

/*
 * What the loader does before the recorder looks: open A as fd N, mmap it,
 * close N, open B (N again), and either change part of the mapping (mprotect,
 * MAP_FIXED over it: its map_files entry is gone) or unmap it.  The mmap of A
 * must not be recorded as a mapping of B.
 */
static void test_mmap_fd_reused(void)
{
	char pa[256], pb[256], pc[256];
	uint64_t ino_a, ino_b, ino_c;
	uint32_t dev_a, dev_b, dev_c;
	int fa = temp_file(pa, sizeof(pa), "a", &ino_a, &dev_a), fb, fc;
	int32_t self = getpid();
	const struct rf_event *m;
	struct harness h;
	char *map;
	int err = 0;

	if (fa < 0) {
		skip(6, "cannot make a temporary file");
		return;
	}
	map = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fa, 0);
	close(fa);
	fb = temp_file(pb, sizeof(pb), "b", &ino_b, &dev_b);
	if (map == MAP_FAILED || fb != fa || mprotect(map + 4096, 4096, PROT_NONE)) {
		skip(6, "the fd was not reused or the mapping could not be split");
		goto out;
	}
	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, self, 0, 1000, .addr = 0, .len = 3 * 4096,
		    .prot = PROT_READ, .flags = MAP_PRIVATE, .fd = fa, .off = 0);
	err |= FEED(&h, sys_exit_mmap, self, 0, 1100, .ret = (uintptr_t)map);
	m = nth_of(&h, RF_EV_MMAP, 0);
	ok(!err && m, "the mmap is recorded");
	ok(m && m->u.vma.ino == ino_a && m->u.vma.dev == dev_a,
	   "a split mapping whose fd was reused is A's (ino %llu), not B's (%llu): got %llu",
	   (unsigned long long)ino_a, (unsigned long long)ino_b,
	   m ? (unsigned long long)m->u.vma.ino : 0ull);

	/* unmapped before we look, and the fd is another file: we cannot know; say so */
	munmap(map, 3 * 4096);
	map = MAP_FAILED;
	fc = temp_file(pc, sizeof(pc), "c", &ino_c, &dev_c);
	close(fb);
	fb = -1;
	err |= FEED(&h, sys_enter_mmap, self, 0, 2000, .addr = 0, .len = 3 * 4096,
		    .prot = PROT_READ, .flags = MAP_PRIVATE, .fd = fc, .off = 0);
	err |= FEED(&h, sys_exit_mmap, self, 0, 2100, .ret = 0x7f0000000000ull);
	m = nth_of(&h, RF_EV_MMAP, 1);
	ok(!err && m, "the second mmap is recorded");
	ok(m && m->u.vma.ino != ino_c,
	   "a mapping gone before the lookup is not given the file its fd holds now (ino %llu)",
	   m ? (unsigned long long)m->u.vma.ino : 0ull);
	/* its first fault's filemap event names the file: an mmap of it, out before the fault */
	err |= FEED(&h, page_fault_user, self, 0, 2200, .address = 0x7f0000000000ull + 4096);
	err |= FEED(&h, mm_filemap_fault, self, 0, 2201, .i_ino = INO, .s_dev = DEV, .index = 1);
	err |= rec_norm_flush(h.n);
	m = nth_of(&h, RF_EV_MMAP, 2);
	ok(!err && m && m->u.vma.ino == INO && m->u.vma.dev == DEV && m->u.vma.pgoff == 0 &&
	   m->u.vma.addr == 0x7f0000000000ull && m->u.vma.len == 3 * 4096 &&
	   m->u.vma.prot == PROT_READ && m->u.vma.flags == MAP_PRIVATE,
	   "a fault names the file of a mapping recorded anonymous: an mmap of its range and file");
	ok(m && nth_of(&h, RF_EV_FILE_FAULT, 0) > m, "... before the fault");
	if (fc >= 0)
		close(fc);
	unlink(pc);
	harness_free(&h);
out:
	if (map != MAP_FAILED)
		munmap(map, 3 * 4096);
	if (fb >= 0)
		close(fb);
	unlink(pa);
	unlink(pb);
}

/* The file the normalizer gave the mmap of @len bytes at @addr of fd @fd (0: anonymous). */
static uint64_t recorded_ino(void *addr, size_t len, int fd)
{
	const struct rf_event *m;
	struct harness h;
	uint64_t ino = UINT64_MAX;
	int32_t self = getpid();
	int err = 0;

	harness_init(&h);
	err |= FEED(&h, sys_enter_mmap, self, 0, 1000, .addr = 0, .len = len, .prot = PROT_READ,
		    .flags = MAP_PRIVATE, .fd = fd, .off = 0);
	err |= FEED(&h, sys_exit_mmap, self, 0, 1100, .ret = (uintptr_t)addr);
	m = nth_of(&h, RF_EV_MMAP, 0);
	if (!err && m)
		ino = m->u.vma.ino;
	harness_free(&h);
	return ino;
}

/*
 * The loader maps /etc/ld.so.cache (A, 3 pages), unmaps it, and locale files
 * (B, C) are mapped into the hole at offset 0 before the recorder looks: the
 * vma at A's start is B's at A's offset, but A's mapping is gone; it must be
 * recorded as anonymous, not as B.  A library whose bss is an anonymous
 * MAP_FIXED over its tail is still its file.
 */
static void test_mmap_hole_refilled(void)
{
	char pa[256], pb[256], pc[256];
	uint64_t ino_a, ino_b, ino_c, got;
	uint32_t dev_a, dev_b, dev_c;
	int fa = temp_file(pa, sizeof(pa), "cache", &ino_a, &dev_a);
	int fb = temp_file(pb, sizeof(pb), "lc1", &ino_b, &dev_b);
	int fc = temp_file(pc, sizeof(pc), "lc2", &ino_c, &dev_c);
	char *map = MAP_FAILED;

	if (fa < 0 || fb < 0 || fc < 0) {
		skip(2, "cannot make temporary files");
		goto out;
	}
	map = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE, fa, 0);
	if (map == MAP_FAILED ||
	    mmap(map, 4096, PROT_READ, MAP_PRIVATE | MAP_FIXED, fb, 0) == MAP_FAILED ||
	    mmap(map + 4096, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_FIXED, fc, 0) == MAP_FAILED) {
		skip(2, "cannot map the files");
		goto out;
	}
	got = recorded_ino(map, 3 * 4096, fa);
	ok(got == 0, "a mapping whose hole other files refilled is anonymous, not B's (ino %llu): "
	   "got %llu", (unsigned long long)ino_b, (unsigned long long)got);

	map = mmap(map, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_FIXED, fa, 0);
	if (map == MAP_FAILED || mmap(map + 2 * 4096, 4096, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) {
		skip(1, "cannot map the library-like mapping");
		goto out;
	}
	got = recorded_ino(map, 3 * 4096, fa);
	ok(got == ino_a, "a mapping split by an anonymous MAP_FIXED over its tail is A's (ino %llu): "
	   "got %llu", (unsigned long long)ino_a, (unsigned long long)got);
out:
	if (map != MAP_FAILED)
		munmap(map, 3 * 4096);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	if (fc >= 0)
		close(fc);
	unlink(pa);
	unlink(pb);
	unlink(pc);
}

int main(void)
{
	plan(50);
	test_field_names();
	test_readahead_cpu();
	test_readahead_one_cpu();
	test_other_reads();
	test_drain();
	test_flush_order();
	test_fault_around();
	test_large_anon();
	test_kernel_fault();
	test_loose_adds();
	test_willneed();
	test_fadvise_dontneed();
	test_dirty();
	test_mmap_fd_reused();
	test_mmap_hole_refilled();
	test_damon();
	return done_testing();
}
