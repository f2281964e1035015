/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Swap: slots and the swap_cgroup record.  mm/swap_state.c: add_to_swap(),
 * mm/memory.c: do_swap_page(), v4.6.2 (the memcg swap charges and the
 * accounting switch are memcg.c's).
 *
 * Decisions (docs/model.md "swap"): swap writeback is asynchronous (disk
 * or file swap): a page written in one reclaim pass stays in the swap cache
 * (PG_swapcache, still resident, holding its slot) and a later pass frees it
 * (vmscan.c); if reclaim keeps it instead, or its owner frees it, the slot
 * is dropped (swap_cache_drop()).  Otherwise there is no swap cache
 * residency: a swap-in reads the page
 * (pgmajfault, pswpin) and frees the slot at once, as the zram
 * SWP_SYNCHRONOUS_IO path does and as a write fault's reuse_swap_page()
 * does on disk swap.  The swap entry lives in the anonymous mapping's slot
 * and carries the memcg id (swap_cgroup) and, for profiles with anon
 * workingset, the shadow's eviction timestamp.
 */
#include "model-local.h"
#include "lru.h"
#include "memcg.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "swap.h"
#include "workingset.h"

/* mm/swap_state.c: add_to_swap(): a slot, charged to the page's memcg */
bool add_to_swap(struct rf_model *m, struct rf_page *p)
{
	uint64_t nr = page_nr(p);

	if (m->swap_used + nr > m->swap_total)
		return false;
	if (!mem_cgroup_try_charge_swap(m, p->memcg, nr))
		return false;
	m->swap_used += nr;
	return true;
}

/*
 * folio_free_swap() (v6.18; try_to_free_swap(), v4.6.2) on a resident page
 * of the swap cache: its slot and the swap charge add_to_swap() took go.
 * SIMPLIFIED: the kernel drops the slot of a kept or activated swap cache
 * page only when swap is half full (mem_cgroup_swap_full()) or on a write
 * fault; the model always does, so a page reclaim met again is rewritten.
 */
void swap_cache_drop(struct rf_model *m, struct rf_page *p)
{
	uint64_t nr = page_nr(p);

	if (!(p->flags & PG_swapcache))
		return;
	p->flags &= ~PG_swapcache;
	m->swap_used -= nr;
	mem_cgroup_cancel_charge_swap(m, p->memcg, nr);
}

/* swap_free() -> mem_cgroup_uncharge_swap(): @nr slots of one swap entry */
void swap_entry_free(struct rf_model *m, uint64_t entry, uint64_t nr)
{
	uint16_t id = swap_entry_owner(entry);
	uint32_t slot;

	m->swap_used -= nr;
	m->nr_swap_shadow -= nr;
	slot = memcg_id_slot(m, id);
	if (slot != RF_NONE)
		mem_cgroup_uncharge_swap(m, slot, nr);
}

/*
 * mm/memory.c: do_swap_page(), v4.6.2 (swap-in through
 * __read_swap_cache_async(): lru_cache_add_anon(), inactive), with v5.9+
 * workingset_refault() on the swap shadow and SetPageWorkingset (v4.20+).
 * With swap accounting the page is charged to the memcg recorded for the
 * entry if that memcg is still online, else to the faulting task's.
 */
int do_swap_page(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t entry,
		 uint32_t memcg, uint8_t flags)
{
	uint16_t id = swap_entry_owner(entry);
	uint32_t idx, owner = memcg;
	struct rf_page *p;

	if (swap_account_on(m)) {
		uint32_t s = mem_cgroup_from_id(m, id);

		if (s != RF_NONE && m->memcgs[s]->online)
			owner = s;
	}
	m->ev[EV_PGMAJFAULT]++;
	count_memcg_event(m, owner, EV_PGMAJFAULT, 1);
	m->ev[EV_PSWPIN]++;
	count_memcg_event(m, owner, EV_PSWPIN, 1);
	if (alloc_pages(m, 1, RF_GFP_KERNEL))
		return m->error;
	try_charge(m, owner, 1, RF_GFP_KERNEL);
	idx = page_alloc_slot(m);
	if (idx == RF_NIL)
		return m->error = RF_ERR_NOMEM;
	p = P(m, idx);
	p->mapping = mapping;
	p->index = index;
	p->memcg = owner;
	p->flags = PG_swapbacked | PG_young | ((flags & RF_REF_WRITE) ? PG_dirty : 0);
	p->mapcount = 1;
	m->nr_anon_pages++;
	xa_store(m, mapping, index, 0);		/* the entry goes, slot freed below */
	swap_entry_free(m, entry, 1);
	xa_store_page(m, idx);
	model_decide(m, RF_MODEL_INSERT, p);
	if (m->p->ws_anon)
		workingset_refault(m, p, entry);
	if (m->p->ws_restore && !lru_gen_on(m))
		p->flags |= PG_workingset;
	lru_cache_add(m, idx);
	return m->error;
}
