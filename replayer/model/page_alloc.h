/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page allocator of the single node (page_alloc.c, mm/page_alloc.c):
 * the watermarks, an allocation (waking kswapd, direct reclaim), a new page
 * allocated and charged before anything sees it, and the free of its last
 * reference.
 */
#ifndef REFAULT_MODEL_PAGE_ALLOC_H
#define REFAULT_MODEL_PAGE_ALLOC_H

#include "model-local.h"

/*
 * __alloc_pages(): @nr pages from the node, reclaiming as the kernel does
 * below the watermarks; 0, or -1 when a readahead's (@gfp) gives up.  A
 * GFP_KERNEL allocation that fails is counted (oom) and given anyway.
 */
int alloc_pages(struct rf_model *m, uint64_t nr, enum rf_gfp gfp);
/*
 * A new page (folio of 2^@order pages) for (@mapping, @index), allocated and
 * charged to @memcg, with @flags (PG_*); in no tree and on no list yet.
 * RF_NIL if a readahead's allocation or charge failed, or without memory
 * (m->error set).
 */
uint32_t new_page(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		  uint32_t memcg, uint16_t flags, enum rf_gfp gfp);
/* The last reference to page @page gone: out of its tree, uncharged, back to the free pool. */
void free_page_final(struct rf_model *m, uint32_t page);
/* init_per_zone_wmark_min() and __setup_per_zone_wmarks(): the node's watermarks. */
void setup_watermarks(struct rf_model *m);

#endif /* REFAULT_MODEL_PAGE_ALLOC_H */
