/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-refpolicy: textbook replacement policies over a stream of page
 * references, as yardsticks for the Linux reclaim model (refault/model.h):
 *
 *   "lru"    plain LRU: evict the least recently referenced page;
 *   "clock"  CLOCK (second chance): a FIFO ring whose hand spares a page
 *            once if it was referenced since the hand last passed it;
 *   "opt"    OPT (Belady's MIN): evict the page whose next reference is
 *            farthest away; the lower bound on misses of any demand-paging
 *            policy at that capacity.
 *
 * A reference is a page key (any u64; rf_refpolicy_page_refs() makes them from
 * trace events the way the model names pages) and an order: the unit
 * weighs 2^order pages of the capacity, as a large folio would.  OPT is the
 * exact lower bound only when every reference has the same order; with
 * mixed orders it is the farthest-next-use rule, a good but not provably
 * optimal choice (the sized problem is NP-hard).
 *
 * LRU and CLOCK simulate as references arrive.  OPT needs the future, so it
 * runs in two passes: rf_refpolicy_ref() records the stream (about 9 bytes
 * per reference plus 16 per distinct page), rf_refpolicy_finish() simulates
 * it in O(log n) per reference.  Counters of an OPT policy are zero until
 * then.  Every policy is deterministic and has no global state.
 *
 * Conventions: 0 on success, negative enum rf_err on failure; nothing prints.
 */
#ifndef REFAULT_REFPOLICY_H
#define REFAULT_REFPOLICY_H

#include <refault/api.h>

#include <stdint.h>

#include <refault/errors.h>
#include <refault/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rf_refpolicy_kind {
	RF_REFPOLICY_LRU = 0,
	RF_REFPOLICY_CLOCK = 1,
	RF_REFPOLICY_OPT = 2,
	RF_REFPOLICY_KIND_MAX
};

/* "lru", "clock", "opt"; NULL for an unknown kind. */
RF_API const char *rf_refpolicy_name(enum rf_refpolicy_kind kind);

/* The kind named @name, or RF_REFPOLICY_KIND_MAX if none. */
RF_API enum rf_refpolicy_kind rf_refpolicy_from_name(const char *name);

struct rf_refpolicy;

/**
 * rf_refpolicy_new() - an empty cache of @capacity pages under policy @kind
 * Return: 0, RF_ERR_INVAL (unknown kind, zero capacity), RF_ERR_NOMEM.
 */
RF_API int rf_refpolicy_new(struct rf_refpolicy **out, enum rf_refpolicy_kind kind,
		     uint64_t capacity);

/**
 * rf_refpolicy_ref() - reference the unit @key of 2^@order pages
 *
 * A unit larger than the whole capacity is a miss and is not kept.  A key
 * seen again with another order takes the new order on its next load.
 * Return: 0, RF_ERR_INVAL (order over 20), RF_ERR_STATE (after finish),
 *         RF_ERR_RANGE (OPT: over 2^32 - 2 references), RF_ERR_NOMEM.
 */
RF_API int rf_refpolicy_ref(struct rf_refpolicy *p, uint64_t key, unsigned int order);

/*
 * A hint that @key will be referenced soon: start loading the slot of the
 * policy's index that its reference reads.  Changes no state and no result;
 * a caller that knows the stream ahead (a trace replay) calls it some
 * references early, so the lookup does not wait on memory.
 */
RF_API void rf_refpolicy_prefetch(const struct rf_refpolicy *p, uint64_t key);

/*
 * End of the stream.  OPT simulates what it recorded here and frees the
 * recording; LRU and CLOCK only refuse further references.
 */
RF_API int rf_refpolicy_finish(struct rf_refpolicy *p);

struct rf_refpolicy_stats {
	uint64_t refs;			/* references */
	uint64_t hits;
	uint64_t misses;		/* hits + misses = refs */
	uint64_t evictions;		/* units evicted */
	uint64_t hit_pages;		/* the same, weighted by 2^order */
	uint64_t miss_pages;
	uint64_t evicted_pages;
	uint64_t resident_pages;	/* at the end (after finish for OPT) */
	uint64_t resident_units;
	uint64_t distinct;		/* distinct keys seen (OPT only; 0 for the others) */
};

RF_API void rf_refpolicy_stats(const struct rf_refpolicy *p, struct rf_refpolicy_stats *st);

RF_API void rf_refpolicy_free(struct rf_refpolicy *p);

/*
 * Page keys of a reference event, named the way the reclaim model names
 * pages, so a policy sees the model's page stream:
 *
 *   RF_EV_FILE_READ, RF_EV_FILE_WRITE   the folios covering pages
 *       [index, index + nr) (nr 0 counts as 1) of file (dev, ino), one
 *       reference per folio of 2^order pages, keyed by its first (aligned)
 *       index: at order 0 a read of nr pages is nr references;
 *   RF_EV_FILE_FAULT   page (dev, ino, index), its folio as above;
 *   RF_EV_ANON_FAULT   page (mm, addr >> page_shift), aligned to its order;
 *   RF_EV_ACCESS       key (aligned to its order), in the anonymous or the
 *       file space after RF_REF_ANON, as the model keeps them apart.
 *
 * These are the pages rf_event_pages() (refault/trace.h) says the task
 * touched, walked by rf_event_folios(): a key is the one page identity,
 * rf_page_key() of the page's space and the folio's first index.  Distinct
 * pages of one space map to distinct keys (a bijection), pages of
 * different spaces collide with probability about n^2 / 2^65 (n spaces).
 * Other events have no page references.  The model decides a folio's order
 * once, when it inserts it; keying by the event's order ignores the model's
 * fallback to base pages when a huge range is partly used.
 */
typedef rf_page_folio_cb rf_page_ref_cb;

/*
 * Call @cb for each page reference of @ev (in index order); @page_shift is
 * log2 of the page size (12 for 4 KiB).  A non-zero return from @cb stops
 * the walk and is returned; otherwise 0.
 */
RF_API int rf_refpolicy_page_refs(const struct rf_event *ev, unsigned int page_shift,
				  rf_page_ref_cb cb, void *ctx);

/* rf_refpolicy_ref() for every page reference of @ev. */
RF_API int rf_refpolicy_feed_event(struct rf_refpolicy *p, const struct rf_event *ev,
			    unsigned int page_shift);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_REFPOLICY_H */
