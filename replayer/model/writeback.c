/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Dirty file pages until they are written: mm/page-writeback.c (the
 * accounting, balance_dirty_pages()'s background threshold) and
 * fs/fs-writeback.c (the flusher), v6.12 as the reference (docs/model.md,
 * "Writeback").  With writeback=flusher the model is its own flusher:
 *
 *   folio_account_dirtied   a write dirties a page-cache folio (the trace's file_write)
 *   writeback_balance       balance_dirty_pages(): background writeback over the threshold
 *   writeback_file_sync     fsync, fdatasync, sync_file_range, msync, syncfs, sync
 *   wakeup_flusher_threads  reclaim met only dirty folios: everything is written
 *   writeback_tick          wb_workfn() every dirty_writeback_interval: expired inodes
 *
 * With writeback=recorded none of these writes: a page is dirty until the
 * trace's file_written says the recording kernel's write of it ended
 * (writeback_written()), whoever started it and however long the disk took.
 *
 * With either, reclaim that meets a dirty folio sets its PG_reclaim, and its
 * write's end rotates it to the inactive tail (folio_rotate_reclaimable()).
 *
 * SIMPLIFIED: dirty and under writeback are one state (reclaim treats them
 * alike); with writeback=flusher a write completes at once, when it starts
 * (no throttling); the tunables are the kernel's defaults (vm.dirty_background_ratio 10,
 * vm.dirty_ratio 20, dirty_expire_centisecs 3000, dirty_writeback_centisecs
 * 500); the per-wb thresholds (wb_bg_thresh) and the writeback bandwidth
 * are not modelled; a background pass writes MIN_WRITEBACK_PAGES of an
 * inode at a time, oldest-dirtied inode first, from where it stopped.
 */
#include "lib/compiler.h"
#include "lib/grow.h"
#include "model-local.h"
#include "lru.h"
#include "memcg.h"
#include "pagecache.h"
#include "writeback.h"

#define DIRTY_BACKGROUND_RATIO	10
#define DIRTY_RATIO		20
#define DIRTY_EXPIRE_NS		(30ull * 1000000000ull)	/* dirty_expire_interval */
#define DIRTY_WRITEBACK_NS	(5ull * 1000000000ull)	/* dirty_writeback_interval */
#define MIN_WRITEBACK_PAGES	1024ull			/* 4 MiB of 4 KiB pages */

static void account(struct rf_model *m, const struct rf_page *p, bool dirtied)
{
	struct rf_mapping *mp = &m->mappings[p->mapping];
	uint64_t nr = page_nr(p);

	if (dirtied) {
		m->nr_file_dirty += nr;
		m->memcgs[p->memcg]->nr_file_dirty += nr;
		mp->nr_dirty += nr;
	} else {
		m->nr_file_dirty -= RF_MIN(nr, m->nr_file_dirty);
		m->memcgs[p->memcg]->nr_file_dirty -= RF_MIN(nr, m->memcgs[p->memcg]->nr_file_dirty);
		mp->nr_dirty -= RF_MIN(nr, mp->nr_dirty);
	}
}

void folio_account_dirtied(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_mapping *mp = &m->mappings[p->mapping];

	if (p->flags & PG_dirty)
		return;		/* folio_mark_dirty() of a dirty folio: nothing */
	p->flags |= PG_dirty;
	if (!page_is_file(p))
		return;
	if (!mp->nr_dirty) {
		/* __mark_inode_dirty(): the inode joins b_dirty now; inode_attach_wb() */
		mp->dirtied_when = m->now;
		mp->wb_memcg = p->memcg;
		if (!mp->on_dirty_list) {
			if (RF_GROW(m->dirty_mappings, m->cap_dirty_mappings,
				    m->nr_dirty_mappings + 1)) {
				m->error = RF_ERR_NOMEM;
				return;
			}
			m->dirty_mappings[m->nr_dirty_mappings++] = p->mapping;
			mp->on_dirty_list = true;
		}
	}
	account(m, p, true);
	if (!m->wb_next_tick)
		m->wb_next_tick = m->now + DIRTY_WRITEBACK_NS;	/* wb_wakeup_delayed() */
}

void folio_account_cleaned(struct rf_model *m, const struct rf_page *p)
{
	if (page_is_file(p) && (p->flags & PG_dirty))
		account(m, p, false);
}

int folio_set_reclaim(struct rf_model *m, uint32_t idx)
{
	if (idx / 64 >= m->nr_reclaim_words &&
	    RF_GROW_ZERO(m->reclaim_bits, m->nr_reclaim_words, idx / 64 + 1))
		return m->error = RF_ERR_NOMEM;
	m->reclaim_bits[idx / 64] |= 1ull << (idx % 64);
	return 0;
}

static bool folio_test_clear_reclaim(struct rf_model *m, uint32_t idx)
{
	bool was = idx / 64 < m->nr_reclaim_words && (m->reclaim_bits[idx / 64] >> (idx % 64) & 1);

	folio_clear_reclaim(m, idx);
	return was;
}

/*
 * folio_end_writeback() of a PG_reclaim folio (v6.12 mm/swap.c; the same in
 * v4.6.2 rotate_reclaimable_page()): folio_rotate_reclaimable() moves it,
 * clean and on an LRU, to the tail of its inactive list, no longer active
 * (lru_move_tail(), pgrotated), where reclaim meets it first.
 */
static void folio_rotate_reclaimable(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (p->where != WHERE_LRU || (p->flags & (PG_locked | PG_dirty)))
		return;
	del_page_from_lru_list(m, idx);
	p->flags &= ~PG_active;
	add_page_to_lru_list_tail(m, idx, page_lru(p));
	m->ev[EV_PGROTATED] += page_nr(p);
}

/* folio_clear_dirty_for_io() and, at once, folio_end_writeback() */
static void write_folio(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (!(p->flags & PG_dirty) || !page_is_file(p))
		return;
	account(m, p, false);
	p->flags &= ~PG_dirty;
	if (folio_test_clear_reclaim(m, idx))
		folio_rotate_reclaimable(m, idx);
}

void folio_write_now(struct rf_model *m, uint32_t idx)
{
	if (m->cfg.writeback == WRITEBACK_FLUSHER)
		write_folio(m, idx);
}

struct write_ctx {
	uint64_t budget;	/* pages still to write */
	uint64_t written;
	uint64_t last;		/* the last index written */
};

static void write_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	struct write_ctx *c = vctx;
	uint32_t idx;

	if ((e & SLOT_TAG_MASK) != SLOT_PAGE || !c->budget)
		return;
	idx = (uint32_t)(e >> 2);
	if (!(P(m, idx)->flags & PG_dirty))
		return;
	c->written += page_nr(P(m, idx));
	c->budget -= RF_MIN(c->budget, page_nr(P(m, idx)));
	c->last = index + page_nr(P(m, idx)) - 1;
	write_folio(m, idx);
}

/*
 * do_writepages() of [@first, @last] of @mapping, at most @budget pages,
 * in index order (write_cache_pages() / writeback_iter()): pages written.
 */
static uint64_t write_range(struct rf_model *m, uint32_t mapping, uint64_t first, uint64_t last,
			    uint64_t budget)
{
	struct write_ctx c = { .budget = budget };

	if (!m->mappings[mapping].nr_dirty)
		return 0;
	xa_for_each_range(m, mapping, first, last, write_slot, &c);
	if (c.written)
		m->mappings[mapping].writeback_index = c.last + 1;
	return c.written;
}

#define LAST_INDEX	(UINT64_MAX >> 1)

/* A chunk of @mapping from its writeback_index on, cyclically (range_cyclic). */
static uint64_t write_chunk(struct rf_model *m, uint32_t mapping, uint64_t budget)
{
	uint64_t from = m->mappings[mapping].writeback_index, n;

	n = write_range(m, mapping, from, LAST_INDEX, budget);
	if (n < budget && from)
		n += write_range(m, mapping, 0, from - 1, budget - n);
	return n;
}

/* The b_dirty list without the inodes written clean since (they left it then). */
static void dirty_list_compact(struct rf_model *m)
{
	size_t i, k = 0;

	for (i = 0; i < m->nr_dirty_mappings; i++) {
		uint32_t mp = m->dirty_mappings[i];

		if (m->mappings[mp].nr_dirty)
			m->dirty_mappings[k++] = mp;
		else
			m->mappings[mp].on_dirty_list = false;
	}
	m->nr_dirty_mappings = k;
}

/* The memcg's pages of the file LRUs, as NR_FILE_PAGES of its subtree. */
static uint64_t memcg_file_pages(struct rf_model *m, uint32_t memcg)
{
	const struct rf_lruvec *lv = &m->memcgs[memcg]->lruvec;

	return lv->hier_size[LRU_INACTIVE_FILE] + lv->hier_size[LRU_ACTIVE_FILE];
}

/* global_dirtyable_memory(): free pages and the file LRUs (reserves not kept) */
static uint64_t global_avail(struct rf_model *m)
{
	return (m->nr_free > 0 ? (uint64_t)m->nr_free : 0) + m->nr_file_pages;
}

/*
 * mdtc_calc_avail() with mem_cgroup_wb_stats()'s headroom: the memcg's file
 * pages and what it could still grow by, up to the clean pages outside it.
 */
static uint64_t memcg_avail(struct rf_model *m, uint32_t memcg)
{
	uint64_t filepages = memcg_file_pages(m, memcg), headroom = UINT64_MAX;
	uint64_t gavail = global_avail(m), clean, global_clean, other_clean;
	uint32_t c;

	for (c = memcg; c; c = m->memcgs[c]->parent) {	/* up to, not including, the root */
		const struct page_counter *pc = &m->memcgs[c]->memory;
		uint64_t ceiling = RF_MIN(pc->max, m->memcgs[c]->high);

		headroom = RF_MIN(headroom, ceiling - RF_MIN(ceiling, pc->usage));
	}
	clean = filepages - RF_MIN(filepages, m->memcgs[memcg]->nr_file_dirty);
	global_clean = gavail - RF_MIN(gavail, m->nr_file_dirty);
	other_clean = global_clean - RF_MIN(global_clean, clean);
	return filepages + RF_MIN(headroom, other_clean);
}

/* domain_over_bg_thresh() of the node's domain, and of @memcg's (RF_NONE: none) */
static bool over_bg_thresh(struct rf_model *m, uint32_t memcg)
{
	if (m->nr_file_dirty > global_avail(m) * DIRTY_BACKGROUND_RATIO / 100)
		return true;
	return memcg != RF_NONE &&
	       m->memcgs[memcg]->nr_file_dirty > memcg_avail(m, memcg) * DIRTY_BACKGROUND_RATIO / 100;
}

/*
 * wb_writeback() for_background of @memcg's wb (RF_NONE: the one wb of v1):
 * inodes in b_dirty order, a chunk each, until the domains are under their
 * background thresholds (wb_over_bg_thresh()).
 */
static void writeback_background(struct rf_model *m, uint32_t memcg)
{
	bool progress = true;

	while (progress && over_bg_thresh(m, memcg) && !m->error) {
		size_t i;

		progress = false;
		dirty_list_compact(m);
		for (i = 0; i < m->nr_dirty_mappings; i++) {
			uint32_t mp = m->dirty_mappings[i];

			if (memcg != RF_NONE && m->mappings[mp].wb_memcg != memcg)
				continue;
			if (write_chunk(m, mp, MIN_WRITEBACK_PAGES))
				progress = true;
			if (!over_bg_thresh(m, memcg))
				return;
		}
	}
}

/*
 * balance_dirty_pages(), v6.12: background writeback starts once the node's
 * dirty pages pass its background threshold, or (cgroup writeback) the
 * memcg's pass its freerun ceiling, (thresh + bg_thresh) / 2.  SIMPLIFIED:
 * checked after each write event, not every nr_dirtied_pause pages.
 */
void writeback_balance(struct rf_model *m, uint32_t memcg)
{
	uint64_t avail;

	if (!m->nr_file_dirty || m->cfg.writeback == WRITEBACK_RECORDED)
		return;
	if (!m->cfg.cgroup_writeback) {
		if (m->nr_file_dirty > global_avail(m) * DIRTY_BACKGROUND_RATIO / 100)
			writeback_background(m, RF_NONE);
		return;
	}
	avail = memcg_avail(m, memcg);
	if (m->nr_file_dirty > global_avail(m) * DIRTY_BACKGROUND_RATIO / 100 ||
	    m->memcgs[memcg]->nr_file_dirty >
	    (avail * DIRTY_RATIO / 100 + avail * DIRTY_BACKGROUND_RATIO / 100) / 2)
		writeback_background(m, memcg);
}

/* Every dirty page of the mappings @match accepts. */
static void write_all(struct rf_model *m, uint32_t dev, bool any_dev)
{
	size_t i;

	dirty_list_compact(m);
	for (i = 0; i < m->nr_dirty_mappings && !m->error; i++) {
		uint32_t mp = m->dirty_mappings[i];

		if (any_dev || m->mappings[mp].dev == dev)
			write_range(m, mp, 0, LAST_INDEX, UINT64_MAX);
	}
	dirty_list_compact(m);
}

/*
 * vfs_fsync_range() (fsync, fdatasync, msync(MS_SYNC)),
 * sync_file_range(SYNC_FILE_RANGE_WRITE) -> __filemap_fdatawrite_range(),
 * sync_filesystem() (syncfs) and ksys_sync() (sync): the dirty pages named
 * are written.
 */
void writeback_file_sync(struct rf_model *m, const struct rf_event *ev)
{
	uint32_t mapping;
	uint64_t first = ev->u.file.index, last;

	if (!m->nr_file_dirty || m->cfg.writeback == WRITEBACK_RECORDED)
		return;
	if (ev->u.file.flags & RF_SYNC_ALL) {
		write_all(m, 0, true);
		return;
	}
	if (ev->u.file.flags & RF_SYNC_FS) {
		write_all(m, ev->u.file.dev, false);
		return;
	}
	mapping = mapping_find(m, MAPPING_FILE, ev->u.file.dev, ev->u.file.ino);
	if (mapping == RF_NONE || first > LAST_INDEX)
		return;
	last = ev->u.file.nr && ev->u.file.nr - 1 <= LAST_INDEX - first ?
	       first + ev->u.file.nr - 1 : LAST_INDEX;
	write_range(m, mapping, first, last, UINT64_MAX);
}

/*
 * shrink_inactive_list() (v6.12; lru_gen_shrink_lruvec() for the multi-gen
 * LRU) found only dirty folios not queued for I/O: wakeup_flusher_threads()
 * -> wb_start_writeback(WB_REASON_VMSCAN), which writes every dirty page
 * (wb_check_start_all(): get_nr_dirty_pages()).
 */
void wakeup_flusher_threads(struct rf_model *m)
{
	if (m->nr_file_dirty && m->cfg.writeback != WRITEBACK_RECORDED)
		write_all(m, 0, true);
}

void writeback_written(struct rf_model *m, const struct rf_event *ev)
{
	uint32_t mapping;
	uint64_t first = ev->u.file.index;

	if (!m->nr_file_dirty || m->cfg.writeback != WRITEBACK_RECORDED || first > LAST_INDEX ||
	    !ev->u.file.nr)
		return;
	mapping = mapping_find(m, MAPPING_FILE, ev->u.file.dev, ev->u.file.ino);
	if (mapping != RF_NONE)
		write_range(m, mapping, first, ev->u.file.nr - 1 <= LAST_INDEX - first ?
			    first + ev->u.file.nr - 1 : LAST_INDEX, UINT64_MAX);
}

/*
 * wb_workfn() -> wb_check_old_data_flush(), every dirty_writeback_interval
 * while anything is dirty: the inodes dirtied dirty_expire_interval ago or
 * earlier are written whole (for_kupdate).
 */
void writeback_tick(struct rf_model *m)
{
	size_t i;

	if (!m->wb_next_tick || m->now < m->wb_next_tick || m->cfg.writeback == WRITEBACK_RECORDED)
		return;
	for (i = 0; i < m->nr_dirty_mappings && !m->error; i++) {
		uint32_t mp = m->dirty_mappings[i];
		struct rf_mapping *x = &m->mappings[mp];

		if (x->nr_dirty && x->dirtied_when + DIRTY_EXPIRE_NS <= m->now)
			write_range(m, mp, 0, LAST_INDEX, UINT64_MAX);
	}
	dirty_list_compact(m);
	m->wb_next_tick = m->nr_file_dirty ? m->now + DIRTY_WRITEBACK_NS : 0;
}
