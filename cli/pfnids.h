/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Folio ids in place of the kernel's pfns (docs/trace-format.md, "Folio ids").
 *
 * pagecache_add, pagecache_del, lru_add and lru_activate carry the pfn of
 * their folio; a trace's readers only join the events of one folio on it
 * (replayer/observe/pages.c, report/kernel.c).  Which pfn the page allocator
 * handed out is the machine's history, not the workload's, and costs a
 * recorded trace half its bytes.  An id numbers the folios instead, 1, 2, 3
 * ... in the order they are first seen, so that the columns code as small
 * steps.  Applied to events in trace order:
 *
 *  - pagecache_add: a new folio in the page cache, always a new id;
 *  - pagecache_del, lru_add, lru_activate: the id of the folio at that pfn,
 *    a new one if none is known (a folio from before the recording, an
 *    anonymous one); pagecache_del then forgets the pfn;
 *  - a pfn of 0 (none known) stays 0; other events are left alone.
 *
 * Two events name the same id exactly when they named the same pfn, except
 * across a page-cache delete: a folio that takes a deleted folio's pfn gets
 * an id of its own, which no reader's join mistakes for the old one.
 */
#ifndef REFAULT_CLI_PFNIDS_H
#define REFAULT_CLI_PFNIDS_H

#include <stdint.h>

#include <refault/trace.h>

#include "lib/hash.h"
#include "lib/hashmap.h"

RF_HASHMAP_DEFINE(rf_pfnid_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

struct rf_pfn_ids {
	struct rf_pfnid_map ids;	/* pfn -> id of the folio there now */
	uint64_t last;			/* the last id given */
};

/*
 * rf_pfn_ids_apply() - @ev's pfn replaced by its folio id (rules above)
 * @s: zeroed before the first event; one per trace
 *
 * Returns 0, or RF_ERR_NOMEM with @ev left as it was.  Memory: one entry a
 * folio cached or a pfn seen outside the page cache, 24-byte slots in a table
 * a quarter to three quarters full (32 to 96 bytes an entry).
 */
int rf_pfn_ids_apply(struct rf_pfn_ids *s, struct rf_event *ev);

void rf_pfn_ids_free(struct rf_pfn_ids *s);

#endif /* REFAULT_CLI_PFNIDS_H */
