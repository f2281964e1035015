/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-gen LRU (v6.1..v6.18), only where lru_gen_on(): generations,
 * placement, refs and aging (lru_gen.c: mm_inline.h's lru_gen_*() and the
 * "aging" of mm/vmscan.c), the page-table walk, its Bloom filters and
 * look-around (lru_gen_walk.c), eviction, the PID controller and the memcg
 * LRU (lru_gen_evict.c); its shadows are workingset.c's.  The state
 * (struct rf_lrugen, the LRU_GEN_* and LRU_REFS_* bits of rf_page.gen) is
 * in model-local.h.  The rules are v6.12.117's, v6.1.192's and v6.18.2's
 * where the profile's lru_gen_* switches say (profile.h).
 */
#ifndef REFAULT_MODEL_LRU_GEN_H
#define REFAULT_MODEL_LRU_GEN_H

#include "model-local.h"

struct scan_control;		/* vmscan.h */

static inline struct rf_lrugen *lrugen_of(struct rf_model *m, uint32_t memcg)
{
	return &m->memcgs[memcg]->lruvec.lrugen;
}

/* folio_lru_gen(): the generation @p's flags name, -1 on none. */
static inline int folio_lru_gen(const struct rf_page *p)
{
	return (int)(p->gen & LRU_GEN_MASK) - 1;
}

static inline int lru_gen_from_seq(uint64_t seq)
{
	return (int)(seq % MAX_NR_GENS);
}

/* ---------------------------------------------- generations (lru_gen.c) */

/* lru_gen_init_lruvec(): @memcg's generations, max_seq = MIN_NR_GENS + 1, born now. */
void lru_gen_init_lruvec(struct rf_model *m, uint32_t memcg);
/* The generations of @g's type @type (0 anon, 1 file): max_seq - min_seq + 1. */
int get_nr_gens(const struct rf_lrugen *g, int type);
/* lru_gen_add_folio(): @page onto the generation its flags place it in (@reclaiming: rotated). */
void lru_gen_add_folio(struct rf_model *m, uint32_t page, bool reclaiming);
/* The seq lru_gen_add_folio() would give @page now, outside reclaim. */
uint64_t lru_gen_add_seq(struct rf_model *m, uint32_t page);
/* lru_gen_del_folio(): off its generation (outside reclaim PG_active if of the two youngest). */
void lru_gen_del_folio(struct rf_model *m, uint32_t page, bool reclaiming);
/* list_move() of page @page onto generation @gen's list, at its tail if @tail. */
void lru_gen_list_move(struct rf_model *m, uint32_t page, int gen, bool tail);
/* A large folio split: the head now a base page, its @nr @tails behind it, same generation. */
void lru_gen_split_folio(struct rf_model *m, uint32_t head, const uint32_t *tails, uint32_t nr);
/* folio_mark_accessed() with the multi-gen LRU (folio_inc_refs(); v6.18 lru_gen_inc_refs()). */
void lru_gen_inc_refs(struct rf_model *m, struct rf_page *p);
/* folio_lru_refs(): @p's accesses through file descriptors. */
int folio_lru_refs(const struct rf_model *m, const struct rf_page *p);
/* lru_tier_from_refs(): the tier of @refs accesses (v6.18: and of @workingset). */
int lru_tier_from_refs(const struct rf_model *m, int refs, bool workingset);
/* folio_clear_lru_refs(): the refs bits and PG_referenced (v6.12: PG_workingset too) cleared. */
void folio_clear_lru_refs(const struct rf_model *m, struct rf_page *p);
/* lru_gen_set_refs(), v6.18: a young PTE seen; true at the second sighting (PG_workingset). */
bool lru_gen_set_refs(struct rf_page *p);
/* folio_update_gen(): promote page @page to @gen by its flags; the old generation, or -1. */
int folio_update_gen(struct rf_model *m, uint32_t page, int gen);
/* folio_inc_gen(): a folio of the oldest generation to the next; the generation it is in. */
int folio_inc_gen(struct rf_model *m, uint32_t page);
/* try_to_inc_min_seq(): min_seq past empty generations; true if one moved. */
bool try_to_inc_min_seq(struct rf_model *m, uint32_t memcg, bool can_swap);
/*
 * try_to_inc_max_seq(): the page-table walk where enabled, then a new
 * generation; false if @seq was walked already (mm_seq) or is no longer max_seq.
 */
bool try_to_inc_max_seq(struct rf_model *m, uint32_t memcg, uint64_t seq, bool can_swap);

/* ------------------------------------------------------- lru_gen_walk.c */

/* try_to_inc_max_seq()'s walk of the mms of @memcg's tasks for generation @seq. */
void lru_gen_walk_mm(struct rf_model *m, uint32_t memcg, uint64_t seq, bool can_swap);
/* lru_gen_look_around(): whether @page's PTE was young (cleared); its young neighbours promoted. */
bool lru_gen_look_around(struct rf_model *m, uint32_t page);
/* The Bloom filters of @g freed. */
void lru_gen_free_filters(struct rf_lrugen *g);

/* ------------------------------------------------------ lru_gen_evict.c */

/* lru_gen_shrink_node(), v6.12: root reclaim through the memcg LRU. */
void lru_gen_shrink_node(struct rf_model *m, struct scan_control *sc);
/* lru_gen_shrink_lruvec(): reclaim of @memcg's lruvec (memcg reclaim; v6.1: every reclaim). */
void lru_gen_shrink_lruvec(struct rf_model *m, uint32_t memcg, struct scan_control *sc);
/* lru_gen_age_node(): kswapd's round (v6.1: the aging; v6.12: min_ttl_ms's OOM test). */
void lru_gen_age_node(struct rf_model *m, struct scan_control *sc);
/* lru_gen_online_memcg(), _offline_memcg(), _release_memcg(): @memcg on the memcg LRU and off. */
void lru_gen_online_memcg(struct rf_model *m, uint32_t memcg);
void lru_gen_offline_memcg(struct rf_model *m, uint32_t memcg);
void lru_gen_release_memcg(struct rf_model *m, uint32_t memcg);

#endif /* REFAULT_MODEL_LRU_GEN_H */
