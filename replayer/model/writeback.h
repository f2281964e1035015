/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Dirty file pages and their writeback (writeback.c): mm/page-writeback.c's
 * accounting and background threshold, fs/fs-writeback.c's flusher.  Only
 * with the configuration's writeback=recorded or flusher (writeback_tracked());
 * with writeback=clean a dirty file page counts nowhere and reclaim takes it
 * as clean, as before format 3.3 traces carried the writeback.
 */
#ifndef REFAULT_MODEL_WRITEBACK_H
#define REFAULT_MODEL_WRITEBACK_H

#include "model-local.h"

struct rf_event;

/* Whether dirty file pages are tracked until written (writeback=flusher or recorded). */
static inline bool writeback_tracked(const struct rf_model *m)
{
	return m->cfg.writeback != WRITEBACK_CLEAN;
}

/*
 * PG_reclaim of a file folio (writeback=flusher, recorded): reclaim met it
 * dirty (shrink_folio_list(): folio_set_reclaim()), so its write's end moves
 * it to the inactive list's tail (folio_rotate_reclaimable()).  A bit per page
 * slot, cleared when the slot is freed.
 */
int folio_set_reclaim(struct rf_model *m, uint32_t idx);

static inline bool folio_test_reclaim(const struct rf_model *m, uint32_t idx)
{
	return idx / 64 < m->nr_reclaim_words && (m->reclaim_bits[idx / 64] >> (idx % 64) & 1);
}

static inline void folio_clear_reclaim(struct rf_model *m, uint32_t idx)
{
	if (idx / 64 < m->nr_reclaim_words)
		m->reclaim_bits[idx / 64] &= ~(1ull << (idx % 64));
}

/*
 * folio_mark_dirty() -> folio_account_dirtied() of page-cache folio @idx by
 * a task of @memcg: PG_dirty and the counts, once; the flusher's background
 * check (balance_dirty_pages()) is writeback_balance()'s, once per write.
 */
void folio_account_dirtied(struct rf_model *m, uint32_t idx);
/* A dirty file folio leaves the page cache (truncate, reclaim): its counts go. */
void folio_account_cleaned(struct rf_model *m, const struct rf_page *p);
/*
 * generic_fadvise()'s write of a dirty file folio before invalidating: at
 * once with writeback=flusher; with recorded, when the trace's file_written
 * says.
 */
void folio_write_now(struct rf_model *m, uint32_t idx);
/* balance_dirty_pages() after a task of @memcg dirtied pages. */
void writeback_balance(struct rf_model *m, uint32_t memcg);
/* RF_EV_FILE_WRITTEN (writeback=recorded): the kernel's write of those pages ended. */
void writeback_written(struct rf_model *m, const struct rf_event *ev);
/* RF_EV_FILE_SYNC: the writeback the call started, complete at once. */
void writeback_file_sync(struct rf_model *m, const struct rf_event *ev);
/* wakeup_flusher_threads(WB_REASON_VMSCAN): every dirty page written. */
void wakeup_flusher_threads(struct rf_model *m);
/* wb_workfn()'s periodic pass: inodes dirtied dirty_expire_interval ago written. */
void writeback_tick(struct rf_model *m);

#endif /* REFAULT_MODEL_WRITEBACK_H */
