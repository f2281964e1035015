/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Swap (swap.c: mm/swap_state.c, mm/swapfile.c, do_swap_page() of
 * mm/memory.c): slots, the swap cache a page written out stays in until a
 * later reclaim pass frees it, and swap-ins.  The entry a swapped-out page
 * leaves is workingset.h's, the swap charges and the accounting switch
 * memcg.h's.
 */
#ifndef REFAULT_MODEL_SWAP_H
#define REFAULT_MODEL_SWAP_H

#include "model-local.h"

/* add_to_swap(): a slot for @p, charged to its memcg; false when none is left or allowed. */
bool add_to_swap(struct rf_model *m, struct rf_page *p);
/* folio_free_swap() on a resident page of the swap cache: its slot and swap charge go. */
void swap_cache_drop(struct rf_model *m, struct rf_page *p);
/* swap_free(): @nr slots of swap entry @entry, uncharged from the memcg that owns them. */
void swap_entry_free(struct rf_model *m, uint64_t entry, uint64_t nr);
/*
 * do_swap_page(): a fault on anonymous page @index of @mapping that holds
 * swap entry @entry reads it back (charged to the entry's memcg if online,
 * else @memcg; @flags RF_REF_*), the refault judged against its shadow.
 * m->error.
 */
int do_swap_page(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t entry,
		 uint32_t memcg, uint8_t flags);

#endif /* REFAULT_MODEL_SWAP_H */
