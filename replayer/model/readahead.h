/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Readahead (readahead.c, mm/readahead.c): a file_readahead event is held
 * until the read or fault it was for, which says which folios the reader
 * held while it ran; its folios stay locked until their reads complete,
 * which the trace does not say (ra_read_busy()).  The held events and the
 * reads in flight are in struct rf_model (ra_held[], ra_reads[]).
 */
#ifndef REFAULT_MODEL_READAHEAD_H
#define REFAULT_MODEL_READAHEAD_H

#include "model-local.h"

/* Hold file_readahead @ev (charged to @memcg) for the event after it. */
void ra_hold(struct rf_model *m, const struct rf_event *ev, uint32_t memcg);
/* Run the readaheads held, @next (NULL: none) being the event they were for. */
void ra_release(struct rf_model *m, const struct rf_event *next);
/* Whether the read of readahead folio @p is still in flight (reclaim cannot lock it). */
bool ra_read_busy(struct rf_model *m, struct rf_page *p);
/* The first read or fault of readahead folio @p: its read is complete. */
void ra_read_done(struct rf_model *m, struct rf_page *p);

#endif /* REFAULT_MODEL_READAHEAD_H */
