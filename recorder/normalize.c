/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tracepoint records -> refault events, in merged time order.
 *
 * References: a read() is the union of its filemap_get_pages ranges (the
 * kernel re-emits [pos, end] on every loop, so ranges of one syscall are
 * merged) and the folios the reading task added itself below the first range
 * (filemap_create_folio returns before the tracepoint).  Faults resolve
 * through the process's mapping table; a fault on a page that sits in an
 * order-9 folio, in a mapping aligned for it, was mapped by a PMD.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "recorder/norm.h"
#include "recorder/perfstack.h"

#define FAULT_WRITE	0x2u		/* x86 page-fault error code: write access */
#define CLONE_VM_FLAG	0x100ULL
#define CLONE_THREAD_FLAG 0x10000ULL
#define RECLAIM_WB_FILE	0x2u		/* vmscan reclaim_flags, from the event's print fmt */
#define PENDING_NS	(100ull * 1000)	/* a fault's filemap event comes within this */
#define FOLIO_ORDER_BITS 8		/* n->folios values: add sequence << 8 | order */
#define PFN_ORDER_BITS	8		/* n->pfn_info values: cgroup << 8 | order */
/* a task silent this long is taken to be out of its fault (memcg reclaim inside one: ms) */
#define HOLD_NS		(10ull * 1000 * 1000)

static int emit_stack_name(void *n, const struct rf_event *ev)
{
	return rec_norm_emit(n, ev);
}

/* The reference's user stack, named first when it is new (perfstack.c). */
static int take_stack(struct rf_norm *n, struct rf_event *ev)
{
	int err = 0;
	bool fault = ev->type == RF_EV_FILE_FAULT || ev->type == RF_EV_ANON_FAULT;

	ev->stack = rec_stacks_take(n->cfg.stacks, ev->pid, ev->time, fault, emit_stack_name, n, &err);
	return err;
}

int rec_norm_emit(struct rf_norm *n, const struct rf_event *ev)
{
	struct rf_event late, with_stack;
	int err;

	if (n->cfg.stacks && ev->pid > 0 && !ev->stack &&
	    ((ev->type == RF_EV_FILE_READ && n->read_exit) || ev->type == RF_EV_FILE_FAULT ||
	     ev->type == RF_EV_ANON_FAULT)) {
		with_stack = *ev;
		err = take_stack(n, &with_stack);
		if (err)
			return err;
		ev = &with_stack;
	}
	n->events++;
	if (ev->type < RF_EV_TYPE_MAX)
		n->by_type[ev->type]++;
	/* the file system's device of each file, for the writes that name only their bdi */
	if (ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_FAULT ||
	    ev->type == RF_EV_PAGECACHE_ADD)
		rec_u64_map_put(&n->ino_dev, ev->u.file.ino, ev->u.file.dev);
	if (ev->time < n->last_time) {
		/* held back (a fault waiting for its filemap event): keep the trace in order */
		late = *ev;
		late.time = n->last_time;
		ev = &late;
	}
	n->last_time = ev->time;
	return n->cfg.sink->event(n->cfg.sink->ctx, ev);
}

static uint32_t pmd_order(const struct rf_norm *n)
{
	/* a PMD maps as many pages as one page of 8-byte entries holds */
	return n->page_shift - 3;
}

static bool out_file(const struct rf_norm *n, uint32_t dev, uint64_t ino)
{
	return ino == n->cfg.out_ino && dev == n->cfg.out_dev;
}

static bool in_scope(struct rf_norm *n, const struct rec_task *t)
{
	return !n->cfg.scope_cgroup || rec_u64_map_get(&n->scope, t->cgroup);
}

/* ------------------------------------------------------------ reads */

static int emit_read(struct rf_norm *n, const struct rf_raw *raw, int32_t pid, uint32_t dev,
		     uint64_t ino, uint64_t first, uint64_t last)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = pid,
			       .type = RF_EV_FILE_READ };

	ev.u.file.dev = dev;
	ev.u.file.ino = ino;
	ev.u.file.index = first;
	ev.u.file.nr = last - first + 1;
	return rec_norm_emit(n, &ev);
}

static int on_get_pages(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			struct rec_task *t)
{
	const void *d = raw->data;
	uint64_t ino = rec_tp_u64(tp, TPF(mm_filemap_get_pages, i_ino), d);
	uint64_t idx = rec_tp_u64(tp, TPF(mm_filemap_get_pages, index), d);
	uint64_t last = rec_tp_u64(tp, TPF(mm_filemap_get_pages, last_index), d);
	uint32_t dev = rec_tp_u64(tp, TPF(mm_filemap_get_pages, s_dev), d);
	struct rf_read *rd = &t->rd;

	if (rd->active) {
		if (!rd->have_g || rd->ino != ino || rd->dev != dev) {
			rd->have_g = true;
			rd->ino = ino;
			rd->dev = dev;
			rd->gmin = idx;
			rd->gend = last;
		}
		rd->gmin = idx < rd->gmin ? idx : rd->gmin;
		rd->gend = last > rd->gend ? last : rd->gend;
		return 0;
	}
	/* a read we did not see enter (exec's, ...): what it read ahead, then the read */
	if (t->nr_loose) {
		int err = rec_ra_loose_take(n, t, dev, ino, idx);

		if (err)
			return err;
	}
	/* drop the kernel's re-emits */
	if (t->solo_ino == ino && t->solo_dev == dev && t->solo_last == last &&
	    idx >= t->solo_index)
		return 0;
	t->solo_ino = ino;
	t->solo_dev = dev;
	t->solo_index = idx;
	t->solo_last = last;
	return emit_read(n, raw, t->pid, dev, ino, idx, last);
}

/*
 * A read syscall begins: read() and pread64(); readv(), preadv() and
 * preadv2() (@count unknown; the offset of the last two, -1 for the file's
 * position); sendfile(), splice() and copy_file_range() (@splice: they read
 * into a pipe and write that out, to another file maybe: filemap_splice_read()
 * reads through filemap_get_pages() as filemap_read() does).
 */
static void read_begin(struct rec_task *t, uint64_t count, int fd, int64_t pos, bool sampled,
		       bool splice)
{
	memset(&t->rd, 0, sizeof(t->rd));
	t->ra_call = false;	/* its exit was not seen */
	t->rd.active = true;
	t->rd.count = count;
	t->rd.fd = fd;
	t->rd.pos = pos >= 0 ? (uint64_t)pos : 0;
	t->rd.have_pos = pos >= 0 && count == RD_COUNT_UNKNOWN;
	t->rd.sampled = sampled;
	t->rd.splice = splice;
}

/* The pages a finished read touched: get_pages union plus its own adds below it. */
static int read_end(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t, int64_t ret)
{
	struct rf_read *rd = &t->rd;
	uint64_t lo = UINT64_MAX, hi = 0, pages;
	uint32_t i;

	int err = rec_ra_flush(n, t);	/* what the read brought in, before what it touched */

	rd->active = false;
	if (err || ret <= 0 || (!rd->have_g && !rd->nr_adds))
		return err;
	if (rd->have_g) {
		lo = rd->gmin;
		hi = rd->gend;
	}
	for (i = 0; i < rd->nr_adds; i++) {
		if (rd->have_g && rd->add_index[i] >= rd->gmin)
			continue;	/* readahead, or already in the ranges */
		lo = rd->add_index[i] < lo ? rd->add_index[i] : lo;
		if (!rd->have_g && rd->add_index[i] + rd->add_nr[i] - 1 > hi)
			hi = rd->add_index[i] + rd->add_nr[i] - 1;
	}
	/* a short read stopped early (EOF): clip to the bytes returned */
	pages = ((uint64_t)ret + (1u << n->page_shift) - 1) >> n->page_shift;
	if (rd->have_pos) {		/* preadv: exactly the bytes returned at the offset */
		lo = rd->pos >> n->page_shift;
		hi = (rd->pos + (uint64_t)ret - 1) >> n->page_shift;
	} else if (rd->count == RD_COUNT_UNKNOWN && rd->have_g) {
		/* readv: neither length nor offset; one page more for a read begun inside one */
		hi = lo + pages < hi ? lo + pages : hi;
	} else if ((uint64_t)ret < rd->count || !rd->have_g) {
		hi = lo + pages - 1 < hi ? lo + pages - 1 : hi;
	}
	if (out_file(n, rd->dev, rd->ino))
		return 0;
	rec_name_file_from_fd(n, raw->ts, t->pid, rd->fd, rd->dev, rd->ino);
	/* the reference of read() or pread64(): its stack sample is there */
	n->read_exit = rd->sampled;
	err = emit_read(n, raw, t->pid, rd->dev, rd->ino, lo, hi);
	n->read_exit = false;
	return err;
}

/* ------------------------------------------------------- page cache */

/* The add and the delete are one event class in the kernel (mm_filemap_op_page_cache). */
#define PC_FIELD(field) \
	TPF_SAME(mm_filemap_add_to_page_cache, mm_filemap_delete_from_page_cache, field)

/* A page-cache tracepoint's record as a pagecache_add/del event of @pid. */
static void pc_event(struct rf_event *ev, const struct rf_tp *tp, const struct rf_raw *raw,
		     int32_t pid, bool add)
{
	const void *d = raw->data;

	*ev = (struct rf_event){ .time = raw->ts, .cpu = raw->cpu, .pid = pid,
				 .type = add ? RF_EV_PAGECACHE_ADD : RF_EV_PAGECACHE_DEL };
	ev->u.file.pfn = rec_tp_u64(tp, PC_FIELD(pfn), d);
	ev->u.file.ino = rec_tp_u64(tp, PC_FIELD(i_ino), d);
	ev->u.file.index = rec_tp_u64(tp, PC_FIELD(index), d);
	ev->u.file.dev = rec_tp_u64(tp, PC_FIELD(s_dev), d);
	ev->u.file.order = rec_tp_u64(tp, PC_FIELD(order), d);
}

static uint64_t folio_key(const struct rf_event *ev)
{
	return rf_hash2(rf_hash2(ev->u.file.dev, ev->u.file.ino), ev->u.file.index);
}

/* The folio of a page-cache delete left the cache; false if the scope never added it. */
static bool pc_forget(struct rf_norm *n, const struct rf_event *ev)
{
	rec_u64_map_del(&n->folios, folio_key(ev), NULL);
	return rec_u64_map_del(&n->pfn_info, ev->u.file.pfn, NULL);
}

static int fadvise_placed(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t,
			  uint32_t dev, uint64_t ino);

static int on_pc(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		 struct rec_task *t, bool add)
{
	struct rf_event ev;
	uint64_t ino, idx;
	uint32_t dev;
	uint8_t order;
	int err = 0;

	pc_event(&ev, tp, raw, t->pid, add);
	dev = ev.u.file.dev;
	ino = ev.u.file.ino;
	idx = ev.u.file.index;
	order = ev.u.file.order;
	if (out_file(n, dev, ino))
		return 0;
	if (!add) {
		pc_forget(n, &ev);
		err = fadvise_placed(n, raw, t, dev, ino);
		return err ? err : rec_norm_emit(n, &ev);
	}
	rec_u64_map_put(&n->pfn_info, ev.u.file.pfn, t->cgroup << PFN_ORDER_BITS | order);
	rec_u64_map_put(&n->folios, folio_key(&ev), ++n->pc_seq << FOLIO_ORDER_BITS | order);
	if (t->rd.active && t->rd.nr_adds < RF_READ_ADDS && (!t->rd.have_g ||
	    (t->rd.dev == dev && t->rd.ino == ino))) {
		t->rd.add_index[t->rd.nr_adds] = idx;
		t->rd.add_nr[t->rd.nr_adds++] = 1ull << order;
		t->rd.dev = dev;
		t->rd.ino = ino;
	}
	ev.u.file.cgroup = t->cgroup;
	/*
	 * Brought in for a read or a fault: readahead of the reference to come.  A
	 * fault reads ahead in the file it faults on only (filemap_fault() and its
	 * do_*_mmap_readahead() take the vma's file): an add of another file while
	 * a fault is held is the task's next, untraced, syscall (a write() whose
	 * copy faulted), not the fault's.  sendfile(), splice() and
	 * copy_file_range() write what they read: an add of a file other than the
	 * one they read is the write's (its file_write comes from the dirtying).
	 */
	if ((t->rd.active && !(t->rd.splice && t->rd.have_g &&
			       (t->rd.dev != dev || t->rd.ino != ino))) || t->ra_call ||
	    (t->fault.on && t->fault.ev.type == RF_EV_FILE_FAULT &&
	     t->fault.ev.u.file.dev == dev && t->fault.ev.u.file.ino == ino))
		err = rec_ra_add(n, t, raw, dev, ino, idx, order);
	else if (!t->rd.active && !t->fault.on)
		rec_ra_loose_add(t, raw, dev, ino, idx, order);
	return err ? err : rec_norm_emit(n, &ev);
}

static bool cached_folio(const struct rf_norm *n, uint32_t dev, uint64_t ino, uint64_t idx,
			 uint32_t *order, uint64_t *seq);

/*
 * The device of the file @ino whose folio the bdi named @raw's "name" dirtied:
 * the one the last read, fault or page-cache add of that inode number gave
 * (a partition's, where the bdi is its disk's; two file systems with the
 * same inode number in one recording: the last one seen), else the bdi's own
 * "MAJ:MIN"; 0 if neither (a bdi without a device number).
 */
static uint32_t dirty_dev(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			  uint64_t ino)
{
	const uint64_t *known = rec_u64_map_get(&n->ino_dev, ino);
	unsigned int major, minor;
	char bdi[40];

	if (known)
		return (uint32_t)*known;
	rec_tp_str(tp, TPF(writeback_dirty_folio, name), raw->data, raw->size, bdi, sizeof(bdi));
	if (sscanf(bdi, "%u:%u", &major, &minor) != 2 || major >= 1u << 12 || minor >= 1u << 20)
		return 0;
	return major << 20 | minor;
}

/*
 * @ev's file range: the folio (added while recording) that holds page @idx of
 * (@dev, @ino), or that page alone for one cached before the recording; its
 * order (a file_write's since format 3.4).
 */
static void folio_of(const struct rf_norm *n, struct rf_event *ev, uint32_t dev, uint64_t ino,
		     uint64_t idx)
{
	uint32_t order = 0;
	uint64_t seq;

	cached_folio(n, dev, ino, idx, &order, &seq);
	ev->u.file.dev = dev;
	ev->u.file.ino = ino;
	ev->u.file.index = idx & ~((1ull << order) - 1);
	ev->u.file.nr = 1ull << order;
	ev->u.file.order = (uint8_t)order;
}

/*
 * writeback:writeback_dirty_folio: a clean page-cache folio became dirty, in
 * the context of the task that dirtied it -- folio_account_dirtied(), from a
 * buffered write's ->write_end() or a shared mapping's page_mkwrite: that
 * task's file_write of the folio (of the order its add gave; the page alone if
 * it was cached before the recording).  A write to a folio already dirty sets
 * nothing the kernel's reclaim reads (since v4.7 a buffered write does not
 * mark the folio accessed: grab_cache_page_write_begin() without
 * FGP_ACCESSED), and makes no record.
 */
static int on_dirty(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		    struct rec_task *t)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid,
			       .type = RF_EV_FILE_WRITE };
	uint64_t ino = rec_tp_u64(tp, TPF(writeback_dirty_folio, ino), raw->data);
	uint64_t idx = rec_tp_u64(tp, TPF(writeback_dirty_folio, index), raw->data);
	uint32_t dev = dirty_dev(n, tp, raw, ino);

	if (!dev || out_file(n, dev, ino))
		return 0;
	folio_of(n, &ev, dev, ino, idx);
	if (!rec_u64_map_get(&n->dirtied, rf_hash2(dev, ino)) &&
	    rec_u64_map_put(&n->dirtied, rf_hash2(dev, ino), 1))
		return RF_ERR_NOMEM;
	return rec_norm_emit(n, &ev);
}

/*
 * refault:folio_end_writeback (a kprobe on __folio_end_writeback(), v5.17+):
 * a folio's writeback ended, in whatever context its I/O completed in (an
 * interrupt, another task): a file_written of that folio, for the files the
 * trace dirtied only (no other I/O of the host).  An anonymous folio's
 * mapping (low bits set) is no address_space: left out.
 */
static int on_written(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .type = RF_EV_FILE_WRITTEN };
	const void *d = raw->data;
	uint64_t ino = rec_tp_u64(tp, TPF(folio_end_writeback, i_ino), d);
	uint64_t idx = rec_tp_u64(tp, TPF(folio_end_writeback, index), d);
	uint32_t dev = (uint32_t)rec_tp_u64(tp, TPF(folio_end_writeback, s_dev), d);

	if ((rec_tp_u64(tp, TPF(folio_end_writeback, mapping), d) & 3) || !ino ||
	    !rec_u64_map_get(&n->dirtied, rf_hash2(dev, ino)))
		return 0;
	folio_of(n, &ev, dev, ino, idx);
	return rec_norm_emit(n, &ev);
}

/* ----------------------------------------------------------- faults */

/*
 * The vma of @addr.  A process's table is read from /proc/PID/maps once, at
 * its first fault; after that mmap/munmap keep it current, so an address no
 * vma covers is anonymous (heap or stack growth) -- unless a filemap event
 * says otherwise (@file: a mapping we were not told of), which costs a
 * re-read.  maps is read later than the fault: take only the vma at @addr,
 * so mappings the syscalls told us of, and that may be gone by now, stay.
 */
static struct rec_vma *resolve(struct rf_norm *n, struct rec_mm *mm, uint64_t addr, uint64_t now,
			       bool file)
{
	struct rec_vmas fresh = { 0 };
	const struct rec_vma *f;
	struct rec_vma *v = (struct rec_vma *)rec_vmas_find(&mm->vmas, addr);

	if (v || (mm->vmas.loaded_at && !file) || mm->vmas.gone)
		return v;
	if (!mm->vmas.loaded_at) {
		/* once only: a process that exited before we looked fails every time */
		mm->vmas.loaded_at = now ? now : 1;
		if (rec_vmas_load(&mm->vmas, mm->tgid)) {
			mm->vmas.gone = true;
			return NULL;
		}
		return (struct rec_vma *)rec_vmas_find(&mm->vmas, addr);
	}
	if (rec_vmas_load_upto(&fresh, mm->tgid, addr)) {
		mm->vmas.gone = true;
		return NULL;
	}
	f = rec_vmas_find(&fresh, addr);
	if (f)
		rec_vmas_insert(&mm->vmas, f);
	rec_vmas_free(&fresh);
	return (struct rec_vma *)rec_vmas_find(&mm->vmas, addr);
}

/*
 * The folio (added while recording) that holds page @idx of a file: true, its
 * order and when it was added (n->pc_seq) if there is one.  Folios are
 * naturally aligned, so it starts at @idx rounded down to its size.
 */
static bool cached_folio(const struct rf_norm *n, uint32_t dev, uint64_t ino, uint64_t idx,
			 uint32_t *order, uint64_t *seq)
{
	uint64_t file = rf_hash2(dev, ino), *v;
	uint32_t o;

	for (o = 0; o <= pmd_order(n); o++) {
		v = rec_u64_map_get(&n->folios, rf_hash2(file, idx & ~((1ull << o) - 1)));
		if (v && (*v & ((1u << FOLIO_ORDER_BITS) - 1)) == o) {
			*order = o;
			*seq = *v >> FOLIO_ORDER_BITS;
			return true;
		}
	}
	return false;
}

/* The large folio (added while recording) that holds page @idx of a file: its order, 0 if none. */
static uint32_t folio_order(const struct rf_norm *n, uint32_t dev, uint64_t ino, uint64_t idx)
{
	uint32_t order = 0;
	uint64_t seq;

	return cached_folio(n, dev, ino, idx, &order, &seq) ? order : 0;
}

/*
 * A fault maps (and so references) the whole folio: 6.18 maps all of a large
 * folio on fault-around, and a PMD maps an order-9 folio at once.
 */
static void fault_folio(struct rf_norm *n, const struct rec_vma *v, uint64_t addr,
			struct rf_event *ev)
{
	uint32_t po = pmd_order(n), shift = n->page_shift;
	uint64_t idx = v->pgoff + ((addr - v->start) >> shift);
	uint32_t order = folio_order(n, v->dev, v->ino, idx);
	uint64_t span = 1ull << (po + shift), base = addr & ~(span - 1);

	ev->u.file.index = idx & ~((1ull << order) - 1);
	ev->u.file.order = order;
	/* a PMD needs the virtual and file offsets to agree modulo its size */
	if (order == po && ((addr >> shift) - idx) % (1ull << po) == 0 && base >= v->start &&
	    base + span <= v->end)
		ev->u.file.flags |= RF_REF_PMD;
}

void rec_fault_refolio(struct rf_norm *n, const struct rec_task *t, struct rf_event *ev,
		       uint64_t addr)
{
	struct rec_mm *mm;
	const struct rec_vma *v;

	if (ev->type == RF_EV_ANON_FAULT) {
		if (!t->fault.large_inserted)
			ev->u.anon.order = 0;
		return;
	}
	mm = rec_mm_get(n, t->mm, t->tgid);
	v = mm ? rec_vmas_find(&mm->vmas, addr) : NULL;
	if (!v || v->ino != ev->u.file.ino || v->dev != ev->u.file.dev)
		return;
	ev->u.file.flags &= ~RF_REF_PMD;
	fault_folio(n, v, addr, ev);
}

/* A field of either event that names a fault: both name the file and page alike */
#define FILEMAP_FIELD(field) TPF_SAME(mm_filemap_fault, mm_filemap_map_pages, field)

/*
 * The filemap event right after a fault names the file for sure; the mapping
 * table may have it wrong (an mmap whose fd was closed and reused before we
 * could look), or have it anonymous: an mmap of a file whose mapping was gone
 * from /proc when the recorder looked (the loader maps /etc/ld.so.cache,
 * reads it and unmaps it within a millisecond).  Correct the vma, so later
 * PMD faults, which have no filemap event, resolve right too, and say so to
 * the model with an mmap of the vma's range and its file, out before the
 * fault: its unmap is then a file zap (each young PTE a
 * folio_mark_accessed(), zap_present_folio_ptes()), which is how the
 * kernel activates ld.so.cache's pages when the second process is done with
 * them; as an anonymous range the model marked them accessed never.
 */
static int correct_vma(struct rf_norm *n, struct rec_task *t, struct rec_vma *v, uint64_t addr,
		       uint64_t time, const struct rf_tp *tp, const struct rf_raw *raw, bool exact)
{
	struct rf_event ev = { .time = time, .cpu = raw->cpu, .pid = t->pid, .type = RF_EV_MMAP };
	uint64_t ino = rec_tp_u64(tp, FILEMAP_FIELD(i_ino), raw->data);
	uint64_t idx = rec_tp_u64(tp, FILEMAP_FIELD(index), raw->data);
	uint32_t dev = rec_tp_u64(tp, FILEMAP_FIELD(s_dev), raw->data);

	if (v->ino == ino && v->dev == dev)
		return 0;
	v->ino = ino;
	v->dev = dev;
	if (exact && idx >= (addr - v->start) >> n->page_shift)
		v->pgoff = idx - ((addr - v->start) >> n->page_shift);
	if (out_file(n, dev, ino))
		return 0;
	ev.u.vma.mm = t->mm;
	ev.u.vma.addr = v->start;
	ev.u.vma.len = v->end - v->start;
	ev.u.vma.ino = ino;
	ev.u.vma.dev = dev;
	ev.u.vma.pgoff = v->pgoff;
	ev.u.vma.prot = v->prot;
	ev.u.vma.flags = v->flags & RF_VMA_SHARED ? MAP_SHARED : MAP_PRIVATE;
	return rec_norm_emit(n, &ev);
}

/*
 * The page a kernel fault's filemap event names, as a one-page mapping in
 * @page, unless @v (the task's mapping at @addr) is of that file.  The
 * task's table is left alone: exec maps the new program (and padzero()
 * faults in it) before sched_process_exec gives the task its new mm.
 */
static struct rec_vma *kernel_fault_page(struct rf_norm *n, struct rec_vma *v, uint64_t addr,
					 const struct rf_tp *tp, const struct rf_raw *raw,
					 struct rec_vma *page)
{
	uint64_t ino = rec_tp_u64(tp, FILEMAP_FIELD(i_ino), raw->data);
	uint32_t dev = rec_tp_u64(tp, FILEMAP_FIELD(s_dev), raw->data);

	if (v && v->ino == ino && v->dev == dev)
		return v;
	*page = (struct rec_vma){ .start = addr & ~((1ull << n->page_shift) - 1), .ino = ino,
				  .dev = dev,
				  .pgoff = rec_tp_u64(tp, FILEMAP_FIELD(index), raw->data) };
	page->end = page->start + (1ull << n->page_shift);
	return page;
}

/*
 * Emit the fault held on @cpu, with the file named by @tp/@raw if it is its
 * filemap event; the event emitted in @out if it is not NULL.  A kernel fault
 * is the task's only where it put a page on the LRU: a file page its filemap
 * event names, or an anonymous page it wrote (a read()'s copy_to_user()).  A
 * read of an anonymous page maps the shared zero page (do_anonymous_page()),
 * and a copy with page faults disabled maps nothing: perf's copy of a user
 * stack (copy_from_user_nofault()), which --call-graph makes at every sample
 * and which faults at the same unmapped page once a read, a file page its
 * filemap event does not name included.  Those, and a kernel fault at an
 * address no mapping covers (a copy that failed with EFAULT), are left out.
 */
static int flush_fault(struct rf_norm *n, uint32_t cpu, const struct rf_tp *tp,
		       const struct rf_raw *raw, struct rf_event *out)
{
	struct rf_pending_fault *pf = &n->pending[cpu];
	struct rf_event dummy, *evp = out ? out : &dummy, ev = { .cpu = cpu, .pid = pf->pid };
	struct rec_task *t = rec_task_get(n, pf->time, pf->pid);
	struct rec_mm *mm = t ? rec_mm_get(n, t->mm, t->tgid) : NULL;
	struct rec_vma *v = mm ? resolve(n, mm, pf->addr, pf->time, tp && !pf->kernel) : NULL;
	struct rec_vma page;

	pf->on = false;
	n->nr_pending--;
	if (!t)
		return RF_ERR_NOMEM;
	ev.time = pf->time;
	if (pf->kernel && tp)
		v = kernel_fault_page(n, v, pf->addr, tp, raw, &page);
	else if (pf->kernel && (!v || v->ino || !(pf->flags & RF_REF_WRITE)))
		return 0;
	else if (v && tp) {
		int err = correct_vma(n, t, v, pf->addr, pf->time, tp, raw,
				      tp == &n->cfg.tps->tp[TP_mm_filemap_fault]);

		if (err)
			return err;
	}
	if (!v)
		n->unresolved++;
	if (v && v->ino) {
		ev.type = RF_EV_FILE_FAULT;
		ev.u.file.dev = v->dev;
		ev.u.file.ino = v->ino;
		ev.u.file.mm = t->mm;
		ev.u.file.flags = pf->flags;
		fault_folio(n, v, pf->addr, &ev);
		*evp = ev;
		/* out once the task leaves the fault, after what the fault reads ahead */
		return rec_fault_hold(n, t, &ev, pf->addr);
	}
	ev.type = RF_EV_ANON_FAULT;
	ev.u.anon.mm = t->mm;
	ev.u.anon.addr = pf->addr & ~((1ull << n->page_shift) - 1);
	ev.u.anon.order = pf->order;
	ev.u.anon.flags = pf->flags;
	*evp = ev;
	if (pf->order) {
		/* out once the task leaves the fault, of order 0 if the folio was not mapped */
		int err = rec_fault_hold(n, t, &ev, pf->addr);

		t->fault.large_pfn = pf->pfn;
		t->fault.large_inserted = false;
		return err;
	}
	return rec_norm_emit(n, &ev);
}

/*
 * Should fault-around have mapped page @idx?  filemap_map_pages() maps only
 * folios in the page cache (and up to date, and not marked for readahead).
 * We take the folios we saw enter the cache and not leave it.  Pages cached
 * before the recording (a program's libraries) are left out: the model starts
 * empty and would charge them to the recorded cgroup, which the kernel did not.
 */
static bool around_mapped(const struct rf_norm *n, uint32_t dev, uint64_t ino, uint64_t idx,
			  uint32_t *order, uint64_t *seq)
{
	*order = 0;
	*seq = 0;
	return cached_folio(n, dev, ino, idx, order, seq);
}

/*
 * The last fault-around window of @mm.  A fault on a page fault-around left
 * out (under read I/O, or marked for async readahead) maps the same window
 * again, and the kernel re-emits all of it; but the pages mapped the first
 * time stay mapped (filemap_map_pages() skips present PTEs) and are no new
 * reference -- unless reclaim took them in between, which a new add says.
 */
static struct rf_around *around_of(struct rf_norm *n, uint64_t mm_id, uint32_t dev, uint64_t ino,
				   uint64_t first)
{
	struct rec_mm **mm = rec_mm_map_get(&n->mms, mm_id);
	struct rf_around *a;

	if (!mm)
		return NULL;
	a = &(*mm)->around;
	if (a->dev != dev || a->ino != ino || a->first != first) {
		a->dev = dev;
		a->ino = ino;
		a->first = first;
		a->mapped = 0;
	}
	return a;
}

/* Did @a's window map page @idx already, and is it the same folio still? */
static bool around_seen(const struct rf_around *a, uint64_t idx, uint64_t seq)
{
	uint64_t bit = idx - a->first;

	return bit < 64 && (a->mapped >> bit & 1) && seq && seq <= a->seq;
}

static void around_mark(struct rf_around *a, uint64_t lo, uint64_t end)
{
	for (; lo < end; lo++)
		if (lo >= a->first && lo - a->first < 64)
			a->mapped |= 1ull << (lo - a->first);
}

/*
 * The pages fault-around mapped along with the fault @fault: 6.18's
 * do_fault_around() -> filemap_map_pages() maps the cached folios of up to
 * fault_around_bytes (64 KiB) around the faulting page, and the program then
 * touches them without faulting, so the mapping is the only reference we
 * see.  mm_filemap_map_pages gives the range asked for, [index, last_index],
 * not what was found: we take the folios we know are cached.  One reference
 * per folio, not counting the faulting one again.
 */
static int fault_around(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			const struct rf_event *fault)
{
	struct rf_event ev = *fault;
	const void *d = raw->data;
	uint64_t ino = rec_tp_u64(tp, TPF(mm_filemap_map_pages, i_ino), d);
	uint64_t idx = rec_tp_u64(tp, TPF(mm_filemap_map_pages, index), d);
	uint64_t last = rec_tp_u64(tp, TPF(mm_filemap_map_pages, last_index), d);
	uint32_t dev = rec_tp_u64(tp, TPF(mm_filemap_map_pages, s_dev), d), order;
	uint64_t f_lo = fault->u.file.index, f_hi = f_lo + (1ull << fault->u.file.order), seq;
	struct rf_around *a;
	int err = 0;

	if (fault->type != RF_EV_FILE_FAULT || fault->u.file.ino != ino ||
	    fault->u.file.dev != dev || last < idx || out_file(n, dev, ino))
		return 0;
	/* fault-around never leaves the page table the fault is in */
	if (last - idx >= 1ull << pmd_order(n))
		last = idx + (1ull << pmd_order(n)) - 1;
	ev.time = raw->ts;
	ev.cpu = raw->cpu;
	ev.u.file.flags = (uint8_t)((ev.u.file.flags & ~RF_REF_PMD) | RF_REF_AROUND);
	a = around_of(n, fault->u.file.mm, dev, ino, idx);
	while (idx <= last && !err) {
		uint64_t base, end;

		if (!around_mapped(n, dev, ino, idx, &order, &seq)) {
			idx++;
			continue;
		}
		base = idx & ~((1ull << order) - 1);
		end = base + (1ull << order);
		idx = end;
		if (base < f_hi && end > f_lo)
			continue;	/* the faulting folio: the fault is its reference */
		if (a && around_seen(a, base, seq))
			continue;
		ev.u.file.index = base;
		ev.u.file.order = order;
		err = rec_norm_emit(n, &ev);
		if (a)
			around_mark(a, base, end);
	}
	if (a) {
		around_mark(a, f_lo, f_hi);
		a->seq = n->pc_seq;
	}
	return err;
}

/*
 * The fault pending for @pid: on @cpu, where its events come, or on the CPU
 * it was on at the fault's entry if it moved since (the allocator and the
 * page clearing of a large folio may reschedule); its CPU in @at.
 */
static struct rf_pending_fault *pending_of(struct rf_norm *n, uint32_t cpu, int32_t pid,
					   uint32_t *at)
{
	uint32_t c;

	if (cpu < n->nr_cpus && n->pending[cpu].on && n->pending[cpu].pid == pid)
		c = cpu;
	else
		for (c = 0; c < n->nr_cpus; c++)
			if (n->pending[c].on && n->pending[c].pid == pid)
				break;
	if (c >= n->nr_cpus)
		return NULL;
	if (at)
		*at = c;
	return &n->pending[c];
}

/*
 * page_fault_user, or page_fault_kernel at a user address (@kernel): the
 * kernel itself touched a page of the task that was not mapped -- a read()'s
 * copy_to_user() into a buffer not touched yet, exec's padzero() clearing the
 * tail of the program's data (load_elf_binary()), whose filemap_fault() reads
 * around it in the program's file.  Either maps the page as a user fault
 * would (handle_mm_fault()), so both are the task's fault.
 */
static int on_fault(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		    struct rec_task *t, bool kernel)
{
	struct rf_pending_fault *pf;
	uint32_t cpu;

	/* one it left on another CPU is over: a task is in one fault at a time */
	pf = n->nr_pending ? pending_of(n, raw->cpu, t->pid, &cpu) : NULL;
	if (pf) {
		int err = flush_fault(n, cpu, NULL, NULL, NULL);

		if (err)
			return err;
	}
	pf = &n->pending[raw->cpu];
	if (!n->nr_pending++ || raw->ts < n->pending_oldest)
		n->pending_oldest = raw->ts;
	pf->on = true;
	pf->pid = t->pid;
	pf->time = raw->ts;
	pf->addr = rec_tp_u64(tp, TPF_SAME(page_fault_user, page_fault_kernel, address), raw->data);
	pf->flags = rec_tp_u64(tp, TPF_SAME(page_fault_user, page_fault_kernel, error_code),
			       raw->data) & FAULT_WRITE ? RF_REF_WRITE : 0;
	pf->order = 0;
	pf->kernel = kernel;
	if (!kernel)
		t->ra_call = false;	/* a user fault is outside any syscall: an exit was lost */
	return 0;
}

/*
 * kmem:mm_page_alloc, of movable folios of order above 0 only (recorder.c's
 * filter).  Inside a fault pending for the same task, it is the folio the
 * fault maps: do_huge_pmd_anonymous_page() (a PMD THP) and, since v6.8,
 * alloc_anon_folio() (an mTHP) allocate it after the fault's entry and before
 * mapping it, trying smaller orders after a failure (pfn -1, skipped), so the
 * fault's order is the last one allocated.  A page-cache folio for a file
 * fault's readahead is allocated the same way; its order comes from its
 * mm_filemap_add_to_page_cache.  The pfn waits in the task for the
 * mm_lru_insertion that follows in its context (folio_add_lru() puts a large
 * folio on the LRU at once, without batching it), so the observation has the
 * folio's order too.
 */
static int on_page_alloc(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			 int32_t pid)
{
	uint64_t pfn = rec_tp_u64(tp, TPF(mm_page_alloc, pfn), raw->data);
	uint64_t order = rec_tp_u64(tp, TPF(mm_page_alloc, order), raw->data);
	struct rf_pending_fault *pf;
	struct rec_task *t;

	if (pfn == UINT64_MAX || !order || order >= 32)
		return 0;
	pf = pending_of(n, raw->cpu, pid, NULL);
	if (pf) {
		pf->order = (uint8_t)order;
		pf->pfn = pfn;
	}
	t = rec_task_find(n, pid);
	if (t)
		t->large = (struct rf_large_alloc){ .pfn = pfn, .order = (uint8_t)order,
						    .in_fault = pf != NULL };
	return 0;
}

/* Emit held faults older than @before (all: UINT64_MAX), or those of @pid if it is not 0. */
static int flush_faults(struct rf_norm *n, uint64_t before, int32_t pid)
{
	uint32_t cpu;
	int err = 0;

	n->pending_oldest = UINT64_MAX;
	for (cpu = 0; cpu < n->nr_cpus && !err; cpu++) {
		struct rf_pending_fault *pf = &n->pending[cpu];

		if (!pf->on)
			continue;
		if (pf->time < before || pf->pid == pid)
			err = flush_fault(n, cpu, NULL, NULL, NULL);
		else if (pf->time < n->pending_oldest)
			n->pending_oldest = pf->time;
	}
	return err;
}

int rec_norm_flush(struct rf_norm *n)
{
	return flush_faults(n, UINT64_MAX, 0) ?: rec_ra_flush_all(n);
}

/* ------------------------------------------------------------- vmas */

static int on_mmap_enter(const struct rf_tp *tp, const struct rf_raw *raw, struct rec_task *t)
{
	const void *d = raw->data;

	t->mmap_len = rec_tp_u64(tp, TPF(sys_enter_mmap, len), d);
	t->mmap_prot = rec_tp_u64(tp, TPF(sys_enter_mmap, prot), d);
	t->mmap_flags = rec_tp_u64(tp, TPF(sys_enter_mmap, flags), d);
	t->mmap_fd = (int64_t)rec_tp_u64(tp, TPF(sys_enter_mmap, fd), d);
	t->mmap_off = rec_tp_u64(tp, TPF(sys_enter_mmap, off), d);
	t->mmap_pending = true;
	return 0;
}

static bool stat_file(const char *path, struct rec_vma *v)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	v->dev = rec_kdev(st.st_dev);
	v->ino = st.st_ino;
	return true;
}

/*
 * The file of /proc/PID/maps (@fresh) that could still be mapping @v: every
 * file vma overlapping it is one file, at the file offsets @v gave it (a
 * library split by mprotect() or MAP_FIXED segments, its bss anonymous).  A
 * mapping unmapped since, its hole refilled by other files (the loader's
 * /etc/ld.so.cache, then locale files at offset 0), has none.
 */
static const struct rec_vma *maps_file(const struct rf_norm *n, const struct rec_vmas *fresh,
				       const struct rec_vma *v)
{
	const struct rec_vma *m, *file = NULL;
	uint64_t base = (v->start >> n->page_shift) - v->pgoff;	/* page of file offset 0 */

	if (!fresh->nr)
		return NULL;	/* no maps read (the process gone): fresh->v may be NULL */
	for (m = rec_vmas_find(fresh, v->start) ?: fresh->v; m < fresh->v + fresh->nr; m++) {
		if (m->end <= v->start || !m->ino)
			continue;
		if (m->start >= v->end)
			break;
		if ((m->start >> n->page_shift) - m->pgoff != base ||
		    (file && (m->ino != file->ino || m->dev != file->dev)))
			return NULL;
		file = m;
	}
	return file;
}

/*
 * The file behind a new mapping.  We look later than the call (a poll
 * interval, ~20 ms): by then the program may have closed the fd and opened
 * another file under the same number -- the loader does so for every library,
 * and the workload's own file then takes fd 3 -- so the fd is not asked.
 * /proc/PID/map_files/START-END names exactly this mapping while it is whole;
 * once split, /proc/PID/maps does if its vmas there agree (maps_file()).  A
 * mapping gone by then is recorded as anonymous and corrected by the next
 * filemap fault event in it.
 */
static void mmap_file(struct rf_norm *n, struct rec_task *t, struct rec_mm *mm, struct rec_vma *v,
		      uint64_t now)
{
	struct rec_vmas fresh = { 0 };
	const struct rec_vma *m;
	char path[96];

	if (mm->vmas.gone)
		return;		/* the process exited before we could look */
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", (int)mm->tgid,
		 (unsigned long long)v->start, (unsigned long long)v->end);
	if (stat_file(path, v))
		goto name;
	if (rec_vmas_load_upto(&fresh, mm->tgid, v->end - 1)) {
		mm->vmas.gone = true;
		return;
	}
	m = maps_file(n, &fresh, v);
	if (m) {
		v->dev = m->dev;
		v->ino = m->ino;
	}
	rec_vmas_free(&fresh);
	if (!v->ino)
		return;
name:
	/* names it only if the fd is still that file */
	rec_name_file_from_fd(n, now, t->pid, (int)t->mmap_fd, v->dev, v->ino);
}

static int on_mmap_exit(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			struct rec_task *t)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid, .type = RF_EV_MMAP };
	int64_t ret = (int64_t)rec_tp_u64(tp, TPF(sys_exit_mmap, ret), raw->data);
	uint64_t pg = 1ull << n->page_shift;
	struct rec_mm *mm = rec_mm_get(n, t->mm, t->tgid);
	struct rec_vma v = { 0 };

	if (!t->mmap_pending || !mm || (ret < 0 && ret > -4096))
		return 0;
	t->mmap_pending = false;
	v.start = ret;
	v.end = v.start + ((t->mmap_len + pg - 1) & ~(pg - 1));
	v.pgoff = t->mmap_off >> n->page_shift;
	v.flags = t->mmap_flags & MAP_SHARED ? RF_VMA_SHARED : 0;
	v.prot = (uint32_t)t->mmap_prot;
	if (!(t->mmap_flags & MAP_ANONYMOUS) && t->mmap_fd >= 0)
		mmap_file(n, t, mm, &v, raw->ts);
	rec_vmas_insert(&mm->vmas, &v);
	ev.u.vma.mm = t->mm;
	ev.u.vma.addr = v.start;
	ev.u.vma.len = v.end - v.start;
	ev.u.vma.ino = v.ino;
	ev.u.vma.dev = v.dev;
	ev.u.vma.pgoff = v.ino ? v.pgoff : 0;
	ev.u.vma.prot = t->mmap_prot;
	ev.u.vma.flags = t->mmap_flags;
	return rec_norm_emit(n, &ev);
}

static int on_munmap_madvise(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			     struct rec_task *t, bool unmap)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid,
			       .type = unmap ? RF_EV_MUNMAP : RF_EV_MADVISE };
	uint64_t pg = 1ull << n->page_shift;
	struct rec_mm *mm = rec_mm_get(n, t->mm, t->tgid);

	const void *d = raw->data;

	ev.u.vma.mm = t->mm;
	if (unmap) {
		ev.u.vma.addr = rec_tp_u64(tp, TPF(sys_enter_munmap, addr), d);
		ev.u.vma.len = rec_tp_u64(tp, TPF(sys_enter_munmap, len), d);
	} else {
		ev.u.vma.addr = rec_tp_u64(tp, TPF(sys_enter_madvise, start), d);
		ev.u.vma.len = rec_tp_u64(tp, TPF(sys_enter_madvise, len_in), d);
		ev.u.vma.advice = rec_tp_u64(tp, TPF(sys_enter_madvise, behavior), d);
	}
	ev.u.vma.len = (ev.u.vma.len + pg - 1) & ~(pg - 1);
	if (unmap && mm)
		rec_vmas_remove(&mm->vmas, ev.u.vma.addr, ev.u.vma.addr + ev.u.vma.len);
	return rec_norm_emit(n, &ev);
}

/*
 * posix_fadvise(): the advice and its range on the descriptor's file.  The
 * recorder reads the descriptor in /proc when it gets to the call, and a task
 * may have closed it by then (fadvise(DONTNEED) then close() then exit, the
 * way a reader lets go of what it read), or given its number to another file.
 * So the one advice the model acts on, DONTNEED (generic_fadvise():
 * invalidate_mapping_pages(), in the task), takes its file from the call's
 * first page-cache delete, which names it (fadvise_placed()); /proc only for
 * a call that deleted nothing (fadvise_end()).  Other advice changes what
 * the kernel reads ahead, which the trace has as file_readahead.
 */
static int fadvise_emit(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t, int fd,
			uint32_t dev, uint64_t ino, uint64_t index, uint64_t nr, uint32_t advice)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid,
			       .type = RF_EV_FADVISE };

	ev.u.file.dev = dev;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;	/* 0: to the end */
	ev.u.file.advice = advice;
	rec_name_file_from_fd(n, raw->ts, t->pid, fd, dev, ino);
	return rec_norm_emit(n, &ev);
}

/* The file @fd names in /proc now, if a regular file. */
static bool fd_file(const struct rec_task *t, int fd, uint32_t *dev, uint64_t *ino)
{
	char link[64];
	struct stat st;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)t->pid, fd);
	if (stat(link, &st) || !S_ISREG(st.st_mode))
		return false;
	*dev = rec_kdev(st.st_dev);
	*ino = st.st_ino;
	return true;
}

static int on_fadvise(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		      struct rec_task *t)
{
	const void *d = raw->data;
	int fd = (int)rec_tp_u64(tp, TPF(sys_enter_fadvise64, fd), d);
	uint64_t off = rec_tp_u64(tp, TPF(sys_enter_fadvise64, offset), d);
	uint64_t len = rec_tp_u64(tp, TPF(sys_enter_fadvise64, len), d);
	uint32_t advice = (uint32_t)rec_tp_u64(tp, TPF(sys_enter_fadvise64, advice), d);
	uint64_t pg = 1ull << n->page_shift, ino;
	uint64_t index = off / pg, nr = len ? (off + len + pg - 1) / pg - off / pg : 0;
	uint32_t dev;

	if (advice == POSIX_FADV_DONTNEED) {
		t->fadv_pending = true;
		t->fadv_fd = fd;
		t->fadv_index = index;
		t->fadv_nr = nr;
		return 0;
	}
	t->fadv_pending = false;
	if (!fd_file(t, fd, &dev, &ino))
		return 0;	/* closed before we looked: the advice cannot be placed */
	return fadvise_emit(n, raw, t, fd, dev, ino, index, nr, advice);
}

/* A page-cache delete of @dev:@ino in @t: an fadvise(DONTNEED) waiting for its file is there. */
static int fadvise_placed(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t,
			  uint32_t dev, uint64_t ino)
{
	if (!t->fadv_pending)
		return 0;
	t->fadv_pending = false;
	return fadvise_emit(n, raw, t, t->fadv_fd, dev, ino, t->fadv_index, t->fadv_nr,
			    POSIX_FADV_DONTNEED);
}

/* The exit of an fadvise(DONTNEED) that deleted nothing: /proc, if it still shows the file. */
static int fadvise_end(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t)
{
	uint64_t ino;
	uint32_t dev;

	if (!t->fadv_pending)
		return 0;
	t->fadv_pending = false;
	if (!fd_file(t, t->fadv_fd, &dev, &ino))
		return 0;
	return fadvise_emit(n, raw, t, t->fadv_fd, dev, ino, t->fadv_index, t->fadv_nr,
			    POSIX_FADV_DONTNEED);
}

/*
 * The calls that start the writeback of a file's dirty pages, at their
 * entry: fsync() and fdatasync() (vfs_fsync_range() of the whole file),
 * sync_file_range() with SYNC_FILE_RANGE_WRITE (the range; without it the
 * call only waits), msync(MS_SYNC) of a shared file mapping (vfs_fsync_range()
 * of the mapped range; MS_ASYNC starts nothing since v2.6.19), syncfs() (every
 * file of the descriptor's file system) and sync() (every file).  A file_sync
 * names the pages whose writeback started; what the flusher writes on its own
 * is the model's (docs/model.md, "Writeback").  The descriptor is looked up in
 * /proc when the recorder gets to the call, which a short-lived task may have
 * left by then, or whose number it may have given to another file: /proc is
 * believed for a file the trace dirtied only, and an fsync() or fdatasync()
 * it cannot place waits for the file system's own event of the call in that
 * task (ext4_sync_file_enter, xfs_file_fsync), which names the file.
 */
static int on_sync(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		   struct rec_task *t, enum rf_tp_id id)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid,
			       .type = RF_EV_FILE_SYNC };
	const void *d = raw->data;
	uint64_t pg = 1ull << n->page_shift, off = 0, len = 0;
	int fd = -1;
	char link[64];
	struct stat st;

	switch (id) {
	case TP_sys_enter_fsync: fd = (int)rec_tp_u64(tp, TPF(sys_enter_fsync, fd), d); break;
	case TP_sys_enter_fdatasync:
		fd = (int)rec_tp_u64(tp, TPF(sys_enter_fdatasync, fd), d);
		ev.u.file.flags = RF_SYNC_DATA;
		break;
	case TP_ext4_sync_file_enter:
	case TP_xfs_file_fsync:
		if (!t->sync_pending)
			return 0;	/* placed at its entry, or not ours */
		t->sync_pending = false;
		ev.u.file.dev = (uint32_t)rec_tp_u64(tp, TPF_SAME(ext4_sync_file_enter,
								  xfs_file_fsync, dev), d);
		ev.u.file.ino = rec_tp_u64(tp, TPF_SAME(ext4_sync_file_enter, xfs_file_fsync, ino), d);
		ev.u.file.flags = t->sync_flags;
		return rec_norm_emit(n, &ev);
	case TP_sys_enter_sync_file_range:
		if (!(rec_tp_u64(tp, TPF(sys_enter_sync_file_range, flags), d) & SYNC_FILE_RANGE_WRITE))
			return 0;	/* waits only: starts no writeback */
		fd = (int)rec_tp_u64(tp, TPF(sys_enter_sync_file_range, fd), d);
		off = rec_tp_u64(tp, TPF(sys_enter_sync_file_range, offset), d);
		len = rec_tp_u64(tp, TPF(sys_enter_sync_file_range, nbytes), d);	/* 0: to the end */
		ev.u.file.flags = RF_SYNC_RANGE;
		break;
	case TP_sys_enter_syncfs:
		fd = (int)rec_tp_u64(tp, TPF(sys_enter_syncfs, fd), d);
		ev.u.file.flags = RF_SYNC_FS;
		break;
	case TP_sys_enter_sync:
		ev.u.file.flags = RF_SYNC_ALL;
		return rec_norm_emit(n, &ev);
	case TP_sys_enter_msync: {
		uint64_t start = rec_tp_u64(tp, TPF(sys_enter_msync, start), d);
		uint64_t end = start + rec_tp_u64(tp, TPF(sys_enter_msync, len), d);
		struct rec_mm *mm = rec_mm_get(n, t->mm, t->tgid);
		const struct rec_vma *v = mm ? rec_vmas_find(&mm->vmas, start) : NULL;

		if (!(rec_tp_u64(tp, TPF(sys_enter_msync, flags), d) & MS_SYNC) || !v || !v->ino ||
		    !(v->flags & RF_VMA_SHARED))
			return 0;	/* MS_ASYNC, or nothing of a shared file mapping there */
		if (end > v->end)
			end = v->end;	/* SIMPLIFIED: the first vma of the range only */
		ev.u.file.dev = v->dev;
		ev.u.file.ino = v->ino;
		ev.u.file.index = v->pgoff + (start - v->start) / pg;
		ev.u.file.nr = (end - start + pg - 1) / pg;
		ev.u.file.flags = RF_SYNC_MSYNC;
		return ev.u.file.nr ? rec_norm_emit(n, &ev) : 0;
	}
	default: return 0;
	}
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)t->pid, fd);
	/* what /proc cannot place, fsync()'s file system may: its own event names the file */
	t->sync_pending = id == TP_sys_enter_fsync || id == TP_sys_enter_fdatasync;
	t->sync_flags = ev.u.file.flags;
	if (stat(link, &st))
		return 0;	/* gone before we looked */
	ev.u.file.dev = rec_kdev(st.st_dev);
	if (ev.u.file.flags == RF_SYNC_FS) {
		t->sync_pending = false;
		return rec_norm_emit(n, &ev);
	}
	/*
	 * The descriptor may name another file by now (closed, its number
	 * taken again: LeakSanitizer's /proc/self/maps at an exit), so /proc
	 * is believed only for a file the trace dirtied, the only kind a sync
	 * changes anything of
	 */
	if (!S_ISREG(st.st_mode) ||
	    !rec_u64_map_get(&n->dirtied, rf_hash2(ev.u.file.dev, st.st_ino)))
		return 0;
	t->sync_pending = false;
	ev.u.file.ino = st.st_ino;
	ev.u.file.index = off / pg;
	ev.u.file.nr = len ? (off + len + pg - 1) / pg - off / pg : 0;
	rec_name_file_from_fd(n, raw->ts, t->pid, fd, ev.u.file.dev, ev.u.file.ino);
	return rec_norm_emit(n, &ev);
}

/*
 * The end of fadvise(WILLNEED), madvise(WILLNEED) of a file mapping or
 * readahead(2): generic_fadvise() -> force_page_cache_readahead() (madvise's
 * madvise_willneed() through vfs_fadvise(), readahead(2) through
 * ksys_readahead()) added the folios in the task's context, before their
 * reads were done; they go out as the file_readahead they are, before any
 * reference that touches them.
 */
static int ra_call_end(struct rf_norm *n, struct rec_task *t)
{
	if (!t->ra_call)
		return 0;
	t->ra_call = false;
	return rec_ra_flush(n, t);
}

/* ------------------------------------------------------------ tasks */

static int on_newtask(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		      struct rec_task *parent)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = parent->pid,
			       .type = RF_EV_FORK };
	int32_t child = rec_tp_u64(tp, TPF(task_newtask, pid), raw->data);
	uint64_t flags = rec_tp_u64(tp, TPF(task_newtask, clone_flags), raw->data);
	int32_t tgid = flags & CLONE_THREAD_FLAG ? parent->tgid : child;
	struct rec_task *c = rec_task_find(n, child);
	int err;

	/* pid reuse after a missed exit: the old task's held fault and readahead go out first */
	err = c ? rec_fault_release(n, c, true) : 0;
	if (err)
		return err;
	c = rec_task_forked(n, child, tgid);
	if (!c)
		return RF_ERR_NOMEM;
	c->cgroup = parent->cgroup;
	if (flags & CLONE_VM_FLAG)
		c->mm = parent->mm;
	else
		c->mm = rec_mm_new(n, tgid, rec_mm_get(n, parent->mm, parent->tgid));
	rec_task_event(&ev, c);
	ev.u.task.flags = flags & CLONE_VM_FLAG ? RF_FORK_THREAD : 0;
	return rec_norm_emit(n, &ev);
}

static int on_exec(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		   struct rec_task *t)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid, .type = RF_EV_EXEC };
	char file[4096], comm[16];
	const char *base;
	size_t len;

	rec_tp_str(tp, TPF(sched_process_exec, filename), raw->data, raw->size, file, sizeof(file));
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	len = strnlen(base, sizeof(comm) - 1);	/* the kernel's comm: 15 characters */
	memcpy(comm, base, len);
	comm[len] = '\0';
	t->mm = rec_mm_new(n, t->tgid, NULL);
	rec_task_event(&ev, t);
	ev.u.task.comm = comm;
	return rec_norm_emit(n, &ev);
}

static int on_task_exit(struct rf_norm *n, const struct rf_raw *raw, struct rec_task *t)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid, .type = RF_EV_EXIT };
	int err = n->nr_pending ? flush_faults(n, 0, t->pid) : 0;

	err = err ?: rec_fault_release(n, t, true);
	rec_task_event(&ev, t);
	err = err ?: rec_norm_emit(n, &ev);
	rec_task_drop(n, ev.pid);
	return err;
}

/* ---------------------------------------------------------- cgroups */

static struct rf_cgroup_rec *cg_find_path(struct rf_norm *n, const char *rel)
{
	const uint64_t *i = rec_u64_map_get(&n->cg_by_path, rf_hash_str(rel));

	return i && *i < n->nr_cgs ? &n->cgs[*i] : NULL;
}

static int cg_limits(struct rf_norm *n, uint64_t time, struct rf_cgroup_rec *cg)
{
	struct rf_event ev = { .time = time, .type = RF_EV_CGROUP_LIMIT };
	unsigned int k;
	int err = 0;

	for (k = 0; k < RF_LIMIT_KIND_MAX && !err; k++) {
		uint64_t v;

		if (!n->cfg.root || !rec_memcg_limit(n->cfg.root, cg->rel, k, &v))
			continue;
		if ((cg->have & 1u << k) && cg->limits[k] == v)
			continue;
		cg->have |= 1u << k;
		cg->limits[k] = v;
		ev.u.cgroup.id = cg->id;
		ev.u.cgroup.kind = k;
		ev.u.cgroup.value = v;
		err = rec_norm_emit(n, &ev);
	}
	return err;
}

int rec_norm_poll_limits(struct rf_norm *n, uint64_t time)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n->nr_cgs && !err; i++)
		if (n->cgs[i].id)
			err = cg_limits(n, time, &n->cgs[i]);
	return err;
}

static struct rf_cgroup_rec *cg_add(struct rf_norm *n, const char *rel, uint64_t id)
{
	struct rf_cgroup_rec *cg;

	if (RF_GROW(n->cgs, n->cap_cgs, n->nr_cgs + 1))
		return NULL;
	cg = &n->cgs[n->nr_cgs];
	memset(cg, 0, sizeof(*cg));
	cg->id = id;
	cg->rel = strdup(rel);
	if (!cg->rel || rec_u64_map_put(&n->cg_by_path, rf_hash_str(rel), n->nr_cgs)) {
		free(cg->rel);
		return NULL;
	}
	n->nr_cgs++;
	return cg;
}

int rec_norm_cgroup(struct rf_norm *n, uint64_t time, const char *rel, uint64_t id,
		    uint64_t parent)
{
	struct rf_event ev = { .time = time, .type = RF_EV_CGROUP_MKDIR };
	struct rf_cgroup_rec *cg = cg_add(n, strcmp(rel, "/") ? rel : "", id);
	int err;

	if (!cg)
		return RF_ERR_NOMEM;
	if (n->cfg.scope_cgroup && (id == n->cfg.scope_cgroup ||
				    rec_u64_map_get(&n->scope, parent)))
		rec_u64_map_put(&n->scope, id, 1);
	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = parent;
	ev.u.cgroup.path = rel;
	err = rec_norm_emit(n, &ev);
	return err ?: cg_limits(n, time, cg);
}

int rec_norm_cgroups_below(const struct rf_norm *n, uint64_t id,
			   int (*fn)(void *ctx, const char *rel, uint64_t id), void *ctx)
{
	const char *top = NULL;
	size_t i, len;
	int err = 0;

	for (i = 0; i < n->nr_cgs && !top; i++)
		if (n->cgs[i].id == id)
			top = n->cgs[i].rel;
	if (!top)
		return 0;
	len = strlen(top);
	/* in mkdir order: a parent is known before its children */
	for (i = 0; i < n->nr_cgs && !err; i++) {
		const struct rf_cgroup_rec *cg = &n->cgs[i];

		if (cg->id && cg->id != id && !strncmp(cg->rel, top, len) && cg->rel[len] == '/')
			err = fn(ctx, cg->rel, cg->id);
	}
	return err;
}

static bool our_hierarchy(const struct rf_norm *n, int64_t root)
{
	return n->cfg.root && root == n->cfg.root->hierarchy_id;
}

static int on_cg_mkdir(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw)
{
	char path[4096], parent[4096];
	struct rf_cgroup_rec *p;
	char *slash;

	if (!our_hierarchy(n, (int32_t)rec_tp_u64(tp, TPF(cgroup_mkdir, root), raw->data)))
		return 0;
	rec_tp_str(tp, TPF(cgroup_mkdir, path), raw->data, raw->size, path, sizeof(path));
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	p = cg_find_path(n, parent);
	return rec_norm_cgroup(n, raw->ts, path, rec_tp_u64(tp, TPF(cgroup_mkdir, id), raw->data),
			       p ? p->id : 0);
}

static int on_cg_rmdir(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .type = RF_EV_CGROUP_RMDIR };
	char path[4096];
	struct rf_cgroup_rec *cg;

	if (!our_hierarchy(n, (int32_t)rec_tp_u64(tp, TPF(cgroup_rmdir, root), raw->data)))
		return 0;
	rec_tp_str(tp, TPF(cgroup_rmdir, path), raw->data, raw->size, path, sizeof(path));
	cg = cg_find_path(n, path);
	if (cg)
		cg->id = 0;	/* no more limit polling */
	ev.u.cgroup.id = rec_tp_u64(tp, TPF(cgroup_rmdir, id), raw->data);
	return rec_norm_emit(n, &ev);
}

static int on_cg_attach(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			int32_t cur)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = cur,
			       .type = RF_EV_CGROUP_ATTACH };
	int32_t pid = rec_tp_u64(tp, TPF(cgroup_attach_task, pid), raw->data);
	struct rec_task *t;

	if (!our_hierarchy(n, (int32_t)rec_tp_u64(tp, TPF(cgroup_attach_task, dst_root),
						  raw->data)))
		return 0;
	ev.u.cgroup.id = rec_tp_u64(tp, TPF(cgroup_attach_task, dst_id), raw->data);
	ev.u.cgroup.pid = pid;
	t = rec_task_get(n, raw->ts, pid);
	if (t)
		t->cgroup = ev.u.cgroup.id;
	return rec_norm_emit(n, &ev);
}

/* -------------------------------------------------------------- lru */

/*
 * The insertion of the large folio @t allocated last (on_page_alloc()): its
 * order, and the fault of @t that allocated it mapped it (it was
 * charged: a charge that fails frees the folio and falls back to a page,
 * do_huge_pmd_anonymous_page() and alloc_anon_folio() alike).  One on an
 * anonymous list whose fault had gone out before the allocation came (direct
 * compaction inside the fault) is counted: that fault was written as order 0.
 */
static int large_insertion(struct rf_norm *n, struct rec_task *t, struct rf_event *ev)
{
	struct rf_large_alloc *la = t ? &t->large : NULL;
	struct rf_pending_fault *pf;
	uint32_t cpu;
	int err = 0;

	if (!la || !la->order || la->pfn != ev->u.lru.pfn)
		return 0;
	ev->u.lru.order = la->order;
	/* still pending on the CPU it left: it is over (the folio is mapped) */
	pf = n->nr_pending ? pending_of(n, ev->cpu, t->pid, &cpu) : NULL;
	if (pf && pf->order && pf->pfn == la->pfn)
		err = flush_fault(n, cpu, NULL, NULL, NULL);
	if (t->fault.held && t->fault.ev.type == RF_EV_ANON_FAULT &&
	    t->fault.large_pfn == la->pfn)
		t->fault.large_inserted = true;
	else if (!la->in_fault && ev->u.lru.lru <= 1)	/* LRU_INACTIVE_ANON, LRU_ACTIVE_ANON */
		n->large_late++;
	la->order = 0;
	return err;
}

/*
 * @t: the task whose context drained the per-CPU batch, NULL for one the
 * scope does not follow (the drain instance: a kworker's lru_add_drain_all(),
 * another process on that CPU).  A page-cache folio is charged to the cgroup
 * of its add, whoever drains, so its events are kept from any task, with the
 * drainer's pid; anonymous faults carry no pfn to join on: the event is the
 * draining task's, kept when that task is in scope (most often the one that
 * faulted: the batch is per CPU, drained by its next add).
 */
static int on_lru(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		  int32_t pid, struct rec_task *t, bool add)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = pid,
			       .type = add ? RF_EV_LRU_ADD : RF_EV_LRU_ACTIVATE };
	const uint64_t *info;

	/* both events give the pfn first */
	ev.u.lru.pfn = rec_tp_u64(tp, TPF_SAME(mm_lru_insertion, mm_lru_activate, pfn), raw->data);
	info = rec_u64_map_get(&n->pfn_info, ev.u.lru.pfn);
	if (!info && (!t || !in_scope(n, t)))
		return 0;
	ev.u.lru.order = info ? *info & ((1u << PFN_ORDER_BITS) - 1) : 0;
	if (add) {
		ev.u.lru.lru = rec_tp_u64(tp, TPF(mm_lru_insertion, lru), raw->data);
		if (!info) {
			int err = large_insertion(n, t, &ev);

			if (err)
				return err;
		}
		ev.u.lru.cgroup = info ? *info >> PFN_ORDER_BITS : t->cgroup;
	}
	return rec_norm_emit(n, &ev);
}

/*
 * Another task (kswapd, a truncate, a memcg reclaim of another group) took a
 * folio out of the page cache.  Its pfn must leave pfn_info, or the next
 * owner's LRU events would be kept with this folio's cgroup and order.  A
 * folio of the scope goes out as pagecache_del with the deleting task's pid,
 * as the main instance writes it under -G; others are none of the trace's.
 */
static int on_drain_del(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
			int32_t pid)
{
	struct rf_event ev;

	pc_event(&ev, tp, raw, pid, false);
	/* not a folio the scope added (the output file's are not kept): none of the trace's */
	return pc_forget(n, &ev) ? rec_norm_emit(n, &ev) : 0;
}

/*
 * damon:damon_aggregated, from the kdamond of --damon: one region of target 0
 * (the recorded process) over one aggregation interval, in the address space
 * the process has now (an exec replaces it; DAMON follows the pid).
 */
static int on_damon(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = n->cfg.damon_pid,
			       .type = RF_EV_DAMON_REGION };
	const struct rec_task *t = rec_task_find(n, n->cfg.damon_pid);
	const void *d = raw->data;
	uint64_t acc = rec_tp_u64(tp, TPF(damon_aggregated, nr_accesses), d);
	uint64_t age = rec_tp_u64(tp, TPF(damon_aggregated, age), d);

	if (!n->cfg.damon_pid || rec_tp_u64(tp, TPF(damon_aggregated, target_id), d) || !t)
		return 0;	/* not ours (one target), or the process is gone */
	ev.u.damon.mm = t->mm;
	ev.u.damon.start = rec_tp_u64(tp, TPF(damon_aggregated, start), d);
	ev.u.damon.end = rec_tp_u64(tp, TPF(damon_aggregated, end), d);
	ev.u.damon.nr_accesses = acc > UINT32_MAX ? UINT32_MAX : (uint32_t)acc;
	ev.u.damon.max_nr_accesses = n->cfg.damon_max_nr_accesses;
	ev.u.damon.age = age > UINT32_MAX ? UINT32_MAX : (uint32_t)age;
	return rec_norm_emit(n, &ev);
}

/* A record of the drain instance: another task's context, LRU events and page-cache deletes. */
static int on_drain(struct rf_norm *n, enum rf_tp_id id, const struct rf_tp *tp,
		    const struct rf_raw *raw, int32_t pid)
{
	if (id == TP_damon_aggregated)
		return on_damon(n, tp, raw);
	if (id == TP_mm_filemap_delete_from_page_cache)
		return on_drain_del(n, tp, raw, pid);
	if (id != TP_mm_lru_insertion && id != TP_mm_lru_activate)
		return 0;
	return on_lru(n, tp, raw, pid, NULL, id == TP_mm_lru_insertion);
}

/* ---------------------------------------------------------- reclaim */

static uint32_t reclaim_kind(const struct rec_task *t)
{
	if (t->reclaim)
		return t->reclaim - 1;
	return t->kswapd ? RF_RECLAIM_KSWAPD : RF_RECLAIM_PAGEOUT;
}

static int on_shrink(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		     struct rec_task *t, enum rf_tp_id id)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .pid = t->pid,
			       .type = RF_EV_RECLAIM };
	__typeof__(ev.u.reclaim) *r = &ev.u.reclaim;
	const void *d = raw->data;

	r->kind = id == TP_mm_vmscan_reclaim_pages ? RF_RECLAIM_PAGEOUT : reclaim_kind(t);
	r->cgroup = r->kind == RF_RECLAIM_MEMCG ? t->cgroup : 0;
	switch (id) {
	case TP_mm_vmscan_lru_shrink_active:
		r->list = RF_RECLAIM_LIST_ACTIVE;
		r->nid = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, nid), d);
		r->nr_scanned = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, nr_taken), d);
		r->nr_activated = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, nr_active), d);
		r->nr_deactivated = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, nr_deactivated),
					       d);
		r->priority = (int32_t)rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, priority),
						  d);
		r->file = !!(rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_active, reclaim_flags), d) &
			     RECLAIM_WB_FILE);
		break;
	case TP_mm_vmscan_lru_shrink_inactive:
		r->list = RF_RECLAIM_LIST_INACTIVE;
		r->nid = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, nid), d);
		r->nr_scanned = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, nr_scanned), d);
		r->nr_reclaimed = rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, nr_reclaimed),
					     d);
		r->nr_activated =
			rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, nr_activate0), d) +
			rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, nr_activate1), d);
		r->priority = (int32_t)rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, priority),
						  d);
		r->file = !!(rec_tp_u64(tp, TPF(mm_vmscan_lru_shrink_inactive, reclaim_flags), d) &
			     RECLAIM_WB_FILE);
		break;
	default:	/* mm_vmscan_reclaim_pages */
		r->list = RF_RECLAIM_LIST_ANY;
		r->nid = rec_tp_u64(tp, TPF(mm_vmscan_reclaim_pages, nid), d);
		r->nr_scanned = rec_tp_u64(tp, TPF(mm_vmscan_reclaim_pages, nr_scanned), d);
		r->nr_reclaimed = rec_tp_u64(tp, TPF(mm_vmscan_reclaim_pages, nr_reclaimed), d);
		r->nr_activated = rec_tp_u64(tp, TPF(mm_vmscan_reclaim_pages, nr_activate0), d) +
				  rec_tp_u64(tp, TPF(mm_vmscan_reclaim_pages, nr_activate1), d);
		break;
	}
	return rec_norm_emit(n, &ev);
}

/* ------------------------------------------------------------ driver */

static int on_lost(struct rf_norm *n, const struct rf_raw *raw)
{
	struct rf_event ev = { .time = raw->ts, .cpu = raw->cpu, .type = RF_EV_LOST };

	ev.u.lost.cpu = raw->cpu;
	ev.u.lost.count = raw->lost;
	ev.u.lost.t_begin = raw->lost_begin;
	ev.u.lost.t_end = raw->ts;
	n->lost += raw->lost;
	if (raw->cpu < n->nr_cpus)
		n->lost_per_cpu[raw->cpu] += raw->lost;
	return rec_norm_emit(n, &ev);
}

static bool is_reference(const struct rf_tp *tp)
{
	return tp->desc->group == RF_TPG_refs;
}

/* What a task does inside a file fault: add (and reclaim for) folios, retry it. */
static bool inside_fault(enum rf_tp_id id)
{
	switch (id) {
	case TP_mm_filemap_add_to_page_cache:
	case TP_mm_filemap_delete_from_page_cache:
	case TP_mm_filemap_fault:
	case TP_mm_filemap_map_pages:
	case TP_mm_lru_insertion:
	case TP_mm_lru_activate:
	case TP_mm_vmscan_lru_shrink_inactive:
	case TP_mm_vmscan_lru_shrink_active:
	case TP_mm_vmscan_reclaim_pages:
	case TP_mm_vmscan_direct_reclaim_begin:
	case TP_mm_vmscan_direct_reclaim_end:
	case TP_mm_vmscan_memcg_reclaim_begin:
	case TP_mm_vmscan_memcg_reclaim_end:
		return true;
	default:
		return false;
	}
}

/*
 * A fault that read ahead (or waited for a folio under read I/O) dropped the
 * mmap lock and returned VM_FAULT_RETRY; the retry maps the page by
 * fault-around, with no page_fault_user before it.  The fault's readahead and
 * reference go out, then the folios the retry maps around it.
 */
static int fault_retry(struct rf_norm *n, const struct rf_tp *tp, const struct rf_raw *raw,
		       int32_t pid)
{
	struct rec_task *t = rec_task_find(n, pid);
	int err;

	if (!t || !t->fault.on)
		return 0;
	t->fault.last = raw->ts;
	err = rec_fault_release(n, t, false);
	return err ?: fault_around(n, tp, raw, &t->fault.ev);
}

static int dispatch(struct rf_norm *n, enum rf_tp_id id, const struct rf_tp *tp,
		    const struct rf_raw *raw, struct rec_task *t)
{
	const void *d = raw->data;
	int64_t ret;

	switch (id) {
	case TP_mm_filemap_get_pages: return on_get_pages(n, tp, raw, t);
	case TP_mm_filemap_add_to_page_cache: return on_pc(n, tp, raw, t, true);
	case TP_mm_filemap_delete_from_page_cache: return on_pc(n, tp, raw, t, false);
	case TP_page_fault_user: return on_fault(n, tp, raw, t, false);
	case TP_page_fault_kernel: return on_fault(n, tp, raw, t, true);
	case TP_writeback_dirty_folio: return on_dirty(n, tp, raw, t);
	case TP_sys_enter_read:
		read_begin(t, rec_tp_u64(tp, TPF(sys_enter_read, count), d),
			   (int)rec_tp_u64(tp, TPF(sys_enter_read, fd), d), -1, true, false);
		return 0;
	case TP_sys_enter_pread64:
		read_begin(t, rec_tp_u64(tp, TPF(sys_enter_pread64, count), d),
			   (int)rec_tp_u64(tp, TPF(sys_enter_pread64, fd), d), -1, true, false);
		return 0;
	case TP_sys_enter_readv:
		read_begin(t, RD_COUNT_UNKNOWN, (int)rec_tp_u64(tp, TPF(sys_enter_readv, fd), d),
			   -1, false, false);
		return 0;
	case TP_sys_enter_preadv:
	case TP_sys_enter_preadv2:	/* pos_l is the whole offset on 64-bit (pos_from_hilo()) */
		read_begin(t, RD_COUNT_UNKNOWN,
			   (int)rec_tp_u64(tp, TPF_SAME(sys_enter_preadv, sys_enter_preadv2, fd), d),
			   (int64_t)rec_tp_u64(tp, TPF_SAME(sys_enter_preadv, sys_enter_preadv2, pos_l),
					       d), false, false);
		return 0;
	case TP_sys_enter_sendfile64:
		read_begin(t, rec_tp_u64(tp, TPF(sys_enter_sendfile64, count), d),
			   (int)rec_tp_u64(tp, TPF(sys_enter_sendfile64, in_fd), d), -1, false, true);
		return 0;
	case TP_sys_enter_splice:
	case TP_sys_enter_copy_file_range:
		read_begin(t, rec_tp_u64(tp, TPF_SAME(sys_enter_splice, sys_enter_copy_file_range,
						      len), d),
			   (int)rec_tp_u64(tp, TPF_SAME(sys_enter_splice, sys_enter_copy_file_range,
							fd_in), d), -1, false, true);
		return 0;
	case TP_sys_exit_read:
	case TP_sys_exit_pread64:
	case TP_sys_exit_readv:
	case TP_sys_exit_preadv:
	case TP_sys_exit_preadv2:
	case TP_sys_exit_sendfile64:
	case TP_sys_exit_splice:
	case TP_sys_exit_copy_file_range:
		/* every syscall's exit has its return value first */
		ret = rec_tp_u64(tp, TPF_SAME(sys_exit_read, sys_exit_pread64, ret), d);
		return t->rd.active ? read_end(n, raw, t, ret) : 0;
	case TP_sys_enter_mmap: return on_mmap_enter(tp, raw, t);
	case TP_sys_exit_mmap: return on_mmap_exit(n, tp, raw, t);
	case TP_sys_enter_munmap: return on_munmap_madvise(n, tp, raw, t, true);
	case TP_sys_enter_madvise:
		t->ra_call = rec_tp_u64(tp, TPF(sys_enter_madvise, behavior), d) == MADV_WILLNEED;
		return on_munmap_madvise(n, tp, raw, t, false);
	case TP_sys_enter_fadvise64:
		t->ra_call = rec_tp_u64(tp, TPF(sys_enter_fadvise64, advice), d) ==
			     POSIX_FADV_WILLNEED;
		return on_fadvise(n, tp, raw, t);
	case TP_sys_enter_readahead: t->ra_call = true; return 0;
	case TP_sys_enter_fsync:
	case TP_sys_enter_fdatasync:
	case TP_sys_enter_sync_file_range:
	case TP_sys_enter_msync:
	case TP_sys_enter_syncfs:
	case TP_sys_enter_sync:
	case TP_ext4_sync_file_enter:
	case TP_xfs_file_fsync: return on_sync(n, tp, raw, t, id);
	case TP_sys_exit_fadvise64:
		ret = fadvise_end(n, raw, t);
		return ret ? (int)ret : ra_call_end(n, t);
	case TP_sys_exit_madvise:
	case TP_sys_exit_readahead: return ra_call_end(n, t);
	case TP_task_newtask: return on_newtask(n, tp, raw, t);
	case TP_sched_process_exec: return on_exec(n, tp, raw, t);
	case TP_sched_process_exit: return on_task_exit(n, raw, t);
	case TP_mm_lru_insertion: return on_lru(n, tp, raw, t->pid, t, true);
	case TP_mm_lru_activate: return on_lru(n, tp, raw, t->pid, t, false);
	case TP_mm_vmscan_lru_shrink_inactive:
	case TP_mm_vmscan_lru_shrink_active:
	case TP_mm_vmscan_reclaim_pages: return on_shrink(n, tp, raw, t, id);
	case TP_mm_vmscan_direct_reclaim_begin: t->reclaim = RF_RECLAIM_DIRECT + 1; return 0;
	case TP_mm_vmscan_memcg_reclaim_begin: t->reclaim = RF_RECLAIM_MEMCG + 1; return 0;
	case TP_mm_vmscan_direct_reclaim_end:
	case TP_mm_vmscan_memcg_reclaim_end: t->reclaim = 0; return 0;
	default: return 0;
	}
}

int rec_norm_record(void *ctx, const struct rf_raw *raw)
{
	struct rf_norm *n = ctx;
	const struct rf_tp *tp;
	struct rec_task *t;
	enum rf_tp_id id;
	int32_t pid;

	if (!raw->data)
		return on_lost(n, raw);
	tp = rec_tp_of(n->cfg.tps, raw->data, &pid);
	if (!tp)
		return 0;
	n->records++;
	id = tp - n->cfg.tps->tp;
	/* a fault at a kernel address (the top half: bit 63 set) is no task's page */
	if (id == TP_page_fault_kernel &&
	    (int64_t)rec_tp_u64(tp, TPF(page_fault_kernel, address), raw->data) < 0)
		return 0;
	/* no task of the scope: it holds no fault, breaks no readahead run, is not named */
	/* an I/O completion: no task's, it breaks no readahead run and ends no fault */
	if (id == TP_folio_end_writeback)
		return on_written(n, tp, raw);
	if (raw->drain)
		return on_drain(n, id, tp, raw, pid);
	/* inside a fault or a read: it neither ends a readahead run nor flushes a fault */
	if (id == TP_mm_page_alloc)
		return on_page_alloc(n, tp, raw, pid);
	if (n->ra_open && pid != n->ra_pid) {
		int err = rec_ra_interleaved(n, pid);

		if (err)
			return err;
	}
	if (raw->cpu < n->nr_cpus && n->pending[raw->cpu].on) {
		bool names = (id == TP_mm_filemap_fault || id == TP_mm_filemap_map_pages) &&
			     pid == n->pending[raw->cpu].pid;
		struct rf_event fault;
		int err = flush_fault(n, raw->cpu, names ? tp : NULL, raw, &fault);

		if (!err && names && id == TP_mm_filemap_map_pages)
			err = fault_around(n, tp, raw, &fault);
		if (err || names)
			return err;
	}
	if (id == TP_mm_filemap_map_pages)
		return fault_retry(n, tp, raw, pid);
	if (id == TP_mm_filemap_fault)
		return 0;	/* the page_fault_user before it is the reference */
	/* a CPU that went idle after a fault must not hold it back for long */
	if (n->nr_pending && raw->ts > n->pending_oldest + PENDING_NS) {
		int err = flush_faults(n, raw->ts - PENDING_NS, 0);

		if (err)
			return err;
	}
	switch (id) {	/* events about cgroups, not about the task that caused them */
	case TP_cgroup_mkdir: return on_cg_mkdir(n, tp, raw);
	case TP_cgroup_rmdir: return on_cg_rmdir(n, tp, raw);
	case TP_cgroup_attach_task: return on_cg_attach(n, tp, raw, pid);
	default: break;
	}
	t = rec_task_get(n, raw->ts, pid);
	if (!t)
		return RF_ERR_NOMEM;
	/* a task's loose adds are a read's only if its get_pages comes next */
	if (t->nr_loose && !inside_fault(id) && id != TP_mm_filemap_get_pages)
		rec_ra_loose_drop(t);
	if (t->fault.on) {
		int err = 0;

		if (inside_fault(id))
			t->fault.last = raw->ts;
		else
			err = rec_fault_release(n, t, true);	/* the task left the fault */
		if (err)
			return err;
	}
	/* after the update above: a record inside a fault keeps it held, however late */
	if (n->nr_held && raw->ts > n->held_oldest + HOLD_NS) {
		int err = rec_fault_release_stale(n, raw->ts - HOLD_NS);

		if (err)
			return err;
	}
	if (is_reference(tp) && id != TP_mm_filemap_delete_from_page_cache && !in_scope(n, t))
		return 0;
	return dispatch(n, id, tp, raw, t);
}

static int cmp_tgid(const void *a, const void *b)
{
	int32_t x = (*(const struct rec_task *const *)a)->tgid;
	int32_t y = (*(const struct rec_task *const *)b)->tgid;

	return x < y ? -1 : x > y;
}

/* In tgid order: the table's order is its hash's. */
int rec_norm_each_process(struct rf_norm *n, int (*fn)(void *ctx, int32_t tgid, uint64_t mm),
			  void *ctx)
{
	struct rec_task_map_slot *s = NULL;
	const struct rec_task **procs = NULL;
	size_t nr = 0, cap = 0, i;
	int err = 0;

	while ((s = rec_task_map_next(&n->tasks, s)) != NULL) {
		if (s->val->pid != s->val->tgid || !in_scope(n, s->val))
			continue;
		if (RF_GROW(procs, cap, nr + 1)) {
			free(procs);
			return RF_ERR_NOMEM;
		}
		procs[nr++] = s->val;
	}
	if (nr)
		qsort(procs, nr, sizeof(*procs), cmp_tgid);
	for (i = 0; i < nr && !err; i++)
		err = fn(ctx, procs[i]->tgid, procs[i]->mm);
	free(procs);
	return err;
}

int rec_norm_task(struct rf_norm *n, uint64_t time, pid_t pid)
{
	return rec_task_get(n, time, pid) ? 0 : RF_ERR_NOMEM;
}

uint64_t rec_norm_lost_on(const struct rf_norm *n, uint32_t cpu)
{
	return cpu < n->nr_cpus ? n->lost_per_cpu[cpu] : 0;
}

void rec_norm_stats(const struct rf_norm *n, struct rf_record_stats *st)
{
	st->records = n->records;
	st->events = n->events;
	st->lost = n->lost;
	st->unresolved_faults = n->unresolved;
	st->large_late = n->large_late;
	memcpy(st->by_type, n->by_type, sizeof(st->by_type));
}

int rec_norm_new(struct rf_norm **out, const struct rf_norm_cfg *cfg)
{
	struct rf_norm *n = calloc(1, sizeof(*n));

	if (!n)
		return RF_ERR_NOMEM;
	n->cfg = *cfg;
	n->page_shift = __builtin_ctz(getpagesize());
	n->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	n->lost_per_cpu = calloc(n->nr_cpus, sizeof(*n->lost_per_cpu));
	n->pending = calloc(n->nr_cpus, sizeof(*n->pending));
	if (!n->lost_per_cpu || !n->pending) {
		free(n->lost_per_cpu);
		free(n->pending);
		free(n);
		return RF_ERR_NOMEM;
	}
	*out = n;
	return 0;
}

void rec_norm_free(struct rf_norm *n)
{
	size_t i;

	if (!n)
		return;
	rec_norm_free_tasks(n);
	rec_u64_map_destroy(&n->pfn_info);
	rec_ra_free(n);
	rec_u64_map_destroy(&n->folios);
	rec_u64_map_destroy(&n->named_files);
	rec_u64_map_destroy(&n->dirtied);
	rec_u64_map_destroy(&n->ino_dev);
	rec_u64_map_destroy(&n->cg_by_path);
	rec_u64_map_destroy(&n->scope);
	for (i = 0; i < n->nr_cgs; i++)
		free(n->cgs[i].rel);
	free(n->cgs);
	free(n->lost_per_cpu);
	free(n->pending);
	free(n);
}
