/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LRU lists of one lruvec: the model has one node and one zone, so a memcg
 * has exactly one lruvec (mem_cgroup_zone_lruvec() in v4.6, mem_cgroup_lruvec()
 * from v4.8).  Root-cgroup pages sit on the root memcg's lruvec and "the
 * zone's LRU" is the union of all lruvecs, as with memcg enabled in the
 * kernel.  Lists are exact doubly-linked lists; "head" is where new pages go
 * (list_add), reclaim takes from the tail (lru_to_page).  Sizes count base
 * pages (hpage_nr_pages()); hier_size sums a memcg and its descendants, the
 * hierarchical lruvec_page_state() that v5.x workingset code reads.
 */
#include "model-local.h"
#include "lru.h"
#include "lru_gen.h"

struct rf_lruvec *mem_cgroup_lruvec(struct rf_model *m, uint32_t memcg)
{
	return &m->memcgs[memcg]->lruvec;
}

struct rf_lruvec *page_lruvec(struct rf_model *m, const struct rf_page *p)
{
	return &m->memcgs[p->memcg]->lruvec;
}

/* include/linux/mm_inline.h: page_lru(), v4.6 */
int page_lru(const struct rf_page *p)
{
	int lru = page_is_file(p) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;

	if (p->flags & PG_active)
		lru += 1;
	return lru;
}

/* __update_lru_size(): the list's size in @memcg's lruvec and, hierarchically, its ancestors' */
void update_lru_size(struct rf_model *m, uint32_t memcg, int lru, int64_t nr)
{
	struct rf_memcg *mc = m->memcgs[memcg];

	mc->lruvec.size[lru] += nr;
	for (;;) {
		mc->lruvec.hier_size[lru] += nr;
		if (mc->parent == RF_NONE)
			break;
		mc = m->memcgs[mc->parent];
	}
}

static void link_page(struct rf_model *m, uint32_t idx, int lru, bool tail)
{
	struct rf_page *p = P(m, idx);
	struct rf_lruvec *lv = page_lruvec(m, p);

	page_list_add(m, idx, &lv->head[lru], &lv->tail[lru], tail);
	p->where = WHERE_LRU;
	p->lru = lru;
	update_lru_size(m, p->memcg, lru, (int64_t)page_nr(p));
	cost_add(m, COST_PAGE_MOVE, 1);
}

/*
 * include/linux/mm_inline.h: add_page_to_lru_list(), v4.6 (list_add at the
 * head); lruvec_add_folio(), v6.1+: with the multi-gen LRU on, its
 * generation lists instead (lru_gen_add_folio(), which places the folio by
 * its flags: @lru is not used).
 */
void add_page_to_lru_list(struct rf_model *m, uint32_t idx, int lru)
{
	if (lru_gen_on(m))
		lru_gen_add_folio(m, idx, false);
	else
		link_page(m, idx, lru, false);
}

/* add_page_to_lru_list_tail(), v4.6: rotation and lru_deactivate_file_fn (v6.1+ lruvec_add_folio_tail()) */
void add_page_to_lru_list_tail(struct rf_model *m, uint32_t idx, int lru)
{
	if (lru_gen_on(m))
		lru_gen_add_folio(m, idx, true);
	else
		link_page(m, idx, lru, true);
}

/* del_page_from_lru_list(), v4.6 (v6.1+ lruvec_del_folio()); the caller decides where it goes */
void del_page_from_lru_list(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	struct rf_lruvec *lv = page_lruvec(m, p);
	int lru = p->lru;

	if (lru_gen_on(m)) {
		lru_gen_del_folio(m, idx, false);
		return;
	}

	page_list_del(m, idx, &lv->head[lru], &lv->tail[lru]);
	p->where = WHERE_ISOLATED;
	update_lru_size(m, p->memcg, lru, -(int64_t)page_nr(p));
}

uint64_t lruvec_lru_size(struct rf_model *m, uint32_t memcg, int lru)
{
	return m->memcgs[memcg]->lruvec.size[lru];
}
