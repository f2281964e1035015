/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory cgroups: the tree, ids, hierarchical page counters and charging.
 * mm/memcontrol.c: try_charge(), mem_cgroup_iter(), mem_cgroup_low(),
 * mem_cgroup_get_nr_swap_pages(); mm/page_counter.c, v4.6.2 unless noted.
 *
 * Decisions (docs/model.md "memcg"): no per-CPU charge stock (charges are
 * exact); the root memcg is never limited; a memcg OOM is counted and the
 * charge forced (the model kills nothing); a removed memcg goes offline and
 * keeps its pages on its lruvec (reclaim still walks it, as css_tryget()
 * succeeds on an offline css); its id is released once it holds no page
 * and no swap entry (css release), and from then on mem_cgroup_from_id()
 * fails for shadows that carry it.  Ids are reused lowest first, like
 * idr_alloc().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "model-local.h"
#include "lru_gen.h"
#include "memcg.h"
#include "vmscan.h"
#include "workingset.h"

/*
 * The memcg swap accounting switch, mm/memcontrol.c: do_swap_account
 * (v4.x), !cgroup_memory_noswap (v5.x).  Every test of the switch is
 * counted; swap_account_key=static makes it free (c1b8fdae).
 */
bool swap_account_on(struct rf_model *m)
{
	cost_add(m, COST_SWAP_ACCOUNT_CHECK, 1);
	return m->p->swap_account;
}

static uint64_t bytes_to_pages_limit(const struct rf_model *m, uint64_t bytes)
{
	return bytes == RF_UNLIMITED ? UINT64_MAX : bytes / m->cfg.page_size;
}

uint32_t memcg_slot_by_cgid(const struct rf_model *m, uint64_t cgid)
{
	uint32_t slot = id_map_find(&m->cgid_index, cgid);

	return slot != RF_NONE ? slot : id_map_find(&m->cgid_folded, cgid);
}

uint32_t mem_cgroup_from_id(struct rf_model *m, uint16_t id)
{
	cost_add(m, COST_MEMCG_LOOKUP_ID, 1);
	return memcg_id_slot(m, id);
}

/* mem_cgroup_alloc_id(): the lowest free id, 1 .. MEM_CGROUP_ID_MAX; 0 when none (or no memory). */
static int alloc_id(struct rf_model *m, uint32_t slot)
{
	uint32_t id;

	for (id = 1; id < m->nr_ids; id++) {
		if (m->id_to_slot[id] == RF_NONE) {
			m->id_to_slot[id] = slot;
			return id;
		}
	}
	if (id > MEM_CGROUP_ID_MAX || RF_GROW(m->id_to_slot, m->cap_ids, (size_t)id + 1))
		return 0;
	m->id_to_slot[id] = slot;
	m->nr_ids = id + 1;
	return id;
}

static void apply_config_limits(struct rf_model *m, struct rf_memcg *mc);
static void set_limit(struct rf_model *m, struct rf_memcg *mc, uint32_t kind, uint64_t bytes);

static struct rf_memcg *memcg_alloc(struct rf_model *m, uint64_t cgid, const char *path,
				    uint32_t parent)
{
	struct rf_memcg *mc;
	uint32_t slot = m->nr_memcgs;
	int i;

	if (slot >= MAX_MEMCGS || RF_GROW(m->memcgs, m->cap_memcgs, slot + 1))
		return NULL;
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return NULL;
	mc->path = strdup(path);
	if (!mc->path) {
		free(mc);
		return NULL;
	}
	mc->id = alloc_id(m, slot);
	if (!mc->id) {
		free(mc->path);
		free(mc);
		return NULL;
	}
	mc->cgid = cgid;
	mc->slot = slot;
	mc->parent = parent;
	mc->first_child = mc->last_child = mc->next_sibling = RF_NONE;
	mc->online = true;
	mc->swappiness = -1;
	mc->memory.max = mc->memsw.max = mc->swap.max = UINT64_MAX;
	mc->high = UINT64_MAX;
	for (i = 0; i < NR_LRU_LISTS; i++)
		mc->lruvec.head[i] = mc->lruvec.tail[i] = RF_NIL;
	if (parent != RF_NONE) {
		struct rf_memcg *pm = m->memcgs[parent];

		mc->swappiness = pm->swappiness;
		if (pm->last_child == RF_NONE)
			pm->first_child = slot;
		else
			m->memcgs[pm->last_child]->next_sibling = slot;
		pm->last_child = slot;
	}
	m->memcgs[slot] = mc;
	m->nr_memcgs++;
	lru_gen_init_lruvec(m, slot);
	if (lru_gen_on(m))
		lru_gen_online_memcg(m, slot);	/* mem_cgroup_css_online() */
	apply_config_limits(m, mc);
	return mc;
}

int memcg_root_init(struct rf_model *m)
{
	if (RF_GROW(m->id_to_slot, m->cap_ids, 16))
		return RF_ERR_NOMEM;
	m->id_to_slot[0] = RF_NONE;	/* id 0 is no memcg */
	m->nr_ids = 1;
	if (!memcg_alloc(m, 0, "/", RF_NONE))
		return RF_ERR_NOMEM;
	return 0;
}

void memcg_free_all(struct rf_model *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_memcgs; i++) {
		lru_gen_free_filters(&m->memcgs[i]->lruvec.lrugen);
		free(m->memcgs[i]->path);
		free(m->memcgs[i]);
	}
	free(m->memcgs);
	free(m->id_to_slot);
}

/* The limits the configuration fixes for this path win over the trace's. */
static void apply_config_limits(struct rf_model *m, struct rf_memcg *mc)
{
	uint32_t i;

	for (i = 0; i < m->cfg.nr_limits; i++) {
		const struct rf_limit_override *l = &m->cfg.limits[i];

		if (strcmp(l->path, mc->path))
			continue;
		set_limit(m, mc, l->kind, l->bytes);
		mc->lim_set |= 1ull << l->kind;
	}
}

int memcg_mkdir(struct rf_model *m, uint64_t cgid, uint64_t parent, const char *path)
{
	uint32_t ps = memcg_slot_by_cgid(m, parent);
	struct rf_memcg *mc;
	char buf[RF_MAX_STRING + 2];

	if (memcg_slot_by_cgid(m, cgid) != RF_NONE)
		return 0;		/* already known (e.g. named twice) */
	if (id_map_get(&m->cgid_folded, parent) ||
	    (ps != RF_NONE && m->memcgs[ps]->depth >= MAX_MEMCG_DEPTH) ||
	    m->nr_memcgs >= MAX_MEMCGS)
		return id_map_put(&m->cgid_folded, cgid, ps == RF_NONE ? 0 : ps) ? RF_ERR_NOMEM : 1;
	/* The hierarchy's root, as recorders and gen name it: that is the model's root memcg. */
	if (path && !strcmp(path, "/"))
		return id_map_put(&m->cgid_index, cgid, 0);
	if (ps == RF_NONE)
		ps = 0;
	if (!path || !*path) {
		snprintf(buf, sizeof(buf), "/cgroup-%llu", (unsigned long long)cgid);
		path = buf;
	} else if (path[0] != '/') {
		/* paths in counters and limit overrides always start with '/' */
		snprintf(buf, sizeof(buf), "/%s", path);
		path = buf;
	}
	mc = memcg_alloc(m, cgid, path, ps);
	if (!mc)
		return RF_ERR_NOMEM;
	mc->depth = m->memcgs[ps]->depth + 1;
	return id_map_put(&m->cgid_index, cgid, mc->slot);
}

/* Take a released memcg out of its parent's child list (the css is freed). */
static void memcg_unlink(struct rf_model *m, uint32_t slot)
{
	struct rf_memcg *mc = m->memcgs[slot], *pm = m->memcgs[mc->parent];
	uint32_t c, prev = RF_NONE;

	for (c = pm->first_child; c != RF_NONE && c != slot; c = m->memcgs[c]->next_sibling)
		prev = c;
	if (c == RF_NONE)
		return;
	if (prev == RF_NONE)
		pm->first_child = mc->next_sibling;
	else
		m->memcgs[prev]->next_sibling = mc->next_sibling;
	if (pm->last_child == slot)
		pm->last_child = prev;
	mc->next_sibling = RF_NONE;
}

/* invalidate_reclaim_iterators(): no cursor may point at a freed memcg */
static void invalidate_reclaim_iterators(struct rf_model *m, uint32_t slot)
{
	uint32_t c;
	int prio;

	for (c = m->memcgs[slot]->parent; c != RF_NONE; c = m->memcgs[c]->parent)
		for (prio = 0; prio <= DEF_PRIORITY; prio++)
			if (m->memcgs[c]->iter_pos[prio] == slot + 1)
				m->memcgs[c]->iter_pos[prio] = 0;
}

/*
 * css release: an offline memcg with no page, no swap entry and no child
 * left gives its id back and leaves the tree (reclaim walks no longer see
 * it); its parent may then go the same way.
 */
static void memcg_maybe_release_id(struct rf_model *m, uint32_t slot)
{
	while (slot != 0 && slot != RF_NONE) {
		struct rf_memcg *mc = m->memcgs[slot];
		uint32_t parent = mc->parent;

		if (mc->online || !mc->id || mc->memory.usage || mc->nr_swap || mc->nr_pages ||
		    mc->first_child != RF_NONE)
			return;
		m->id_to_slot[mc->id] = RF_NONE;
		mc->id = 0;
		if (lru_gen_on(m))
			lru_gen_release_memcg(m, slot);	/* mem_cgroup_css_released() */
		memcg_unlink(m, slot);
		invalidate_reclaim_iterators(m, slot);
		slot = parent;
	}
}

/* css_offline: pages stay where they are; the id goes when nothing pins it. */
void memcg_rmdir(struct rf_model *m, uint64_t cgid)
{
	uint32_t slot = id_map_find(&m->cgid_index, cgid);

	id_map_del(&m->cgid_folded, cgid, NULL);
	if (slot == RF_NONE || slot == 0)
		return;
	m->memcgs[slot]->online = false;
	if (lru_gen_on(m))
		lru_gen_offline_memcg(m, slot);	/* mem_cgroup_css_offline() */
	shadow_nodes_reparent(m, slot);
	id_map_del(&m->cgid_index, cgid, NULL);
	memcg_maybe_release_id(m, slot);
}

/* A limit of the trace's (CGROUP_LIMIT) for memcg @cgid, unless the configuration set it. */
void memcg_set_limit(struct rf_model *m, uint64_t cgid, uint32_t kind, uint64_t bytes)
{
	uint32_t slot = id_map_find(&m->cgid_index, cgid);
	struct rf_memcg *mc;

	if (slot == RF_NONE || slot == 0)
		return;		/* the root memcg has no limits */
	mc = m->memcgs[slot];
	if (kind < 64 && (mc->lim_set & (1ull << kind)))
		return;
	set_limit(m, mc, kind, bytes);
}

static void set_limit(struct rf_model *m, struct rf_memcg *mc, uint32_t kind, uint64_t bytes)
{
	switch (kind) {
	case RF_LIMIT_MEMORY:
		mc->memory.max = bytes_to_pages_limit(m, bytes);
		break;
	case RF_LIMIT_MEMSW:
		mc->memsw.max = bytes_to_pages_limit(m, bytes);
		break;
	case RF_LIMIT_SWAP:
		mc->swap.max = bytes_to_pages_limit(m, bytes);
		break;
	case RF_LIMIT_HIGH:
		mc->high = bytes_to_pages_limit(m, bytes);
		break;
	case RF_LIMIT_LOW:
		mc->low = bytes == RF_UNLIMITED ? UINT64_MAX : bytes / m->cfg.page_size;
		break;
	case RF_LIMIT_SWAPPINESS:
		mc->swappiness = bytes > m->p->swappiness_max ? (int)m->p->swappiness_max :
			(int)bytes;
		break;
	default:
		break;		/* min, soft limit: not modelled */
	}
}

/*
 * mm/page_counter.c: page_counter_try_charge(), v4.6.2 - charge every level
 * from @memcg up to (not including) the root; on the first level over its
 * limit undo the walk and return that level.
 */
static uint32_t page_counter_try_charge(struct rf_model *m, uint32_t memcg, size_t off,
					uint64_t nr)
{
	uint32_t c, u;

	for (c = memcg; c != 0 && c != RF_NONE; c = m->memcgs[c]->parent) {
		struct page_counter *pc = (void *)((char *)m->memcgs[c] + off);

		if (pc->usage + nr > pc->max) {
			pc->failcnt++;
			for (u = memcg; u != c; u = m->memcgs[u]->parent)
				((struct page_counter *)((char *)m->memcgs[u] + off))->usage -= nr;
			return c;
		}
		pc->usage += nr;
	}
	return RF_NONE;
}

static void page_counter_charge(struct rf_model *m, uint32_t memcg, size_t off, int64_t nr)
{
	uint32_t c;

	for (c = memcg; c != 0 && c != RF_NONE; c = m->memcgs[c]->parent)
		((struct page_counter *)((char *)m->memcgs[c] + off))->usage += nr;
}

static uint64_t mem_cgroup_margin(struct rf_model *m, uint32_t memcg)
{
	struct rf_memcg *mc = m->memcgs[memcg];
	uint64_t margin = 0, ms;

	if (mc->memory.max > mc->memory.usage)
		margin = mc->memory.max - mc->memory.usage;
	if (swap_account_on(m)) {
		ms = mc->memsw.max > mc->memsw.usage ? mc->memsw.max - mc->memsw.usage : 0;
		if (ms < margin)
			margin = ms;
	}
	return margin;
}

/*
 * mm/memcontrol.c: reclaim_high(), v4.6.2 - after a charge, every level over
 * memory.high is reclaimed by the charge size.  The kernel does it on the
 * way back to user space; the model right after the charge.
 */
static void reclaim_high(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	uint32_t c;

	if (m->in_reclaim)
		return;
	for (c = memcg; c != 0 && c != RF_NONE; c = m->memcgs[c]->parent) {
		if (m->memcgs[c]->memory.usage <= m->memcgs[c]->high)
			continue;
		count_memcg_event(m, c, EV_MEMCG_HIGH, 1);
		try_to_free_mem_cgroup_pages(m, c, nr, true);
	}
}

/*
 * mm/memcontrol.c: try_charge(), v4.6.2 (retries: MEM_CGROUP_RECLAIM_RETRIES
 * = 5; v5.x MAX_RECLAIM_RETRIES = 16; try_charge_memcg(), v6.18).  memsw is
 * charged first when swap accounting is on; a memsw failure reclaims
 * without swap.  Out of retries the charge is forced (the model kills
 * nothing), except a readahead's (@gfp): __GFP_NORETRY fails after the
 * first reclaim ("goto nomem", from v4.7), GFP_KERNEL in a read or fault
 * after mem_cgroup_oom() (v4.6.2 "nomem": -ENOMEM unless __GFP_NOFAIL).
 * Returns -1 when it failed, nothing charged.
 */
int try_charge(struct rf_model *m, uint32_t memcg, uint64_t nr, enum rf_gfp gfp)
{
	unsigned int retries = m->p->memcg_reclaim_retries, loops = 0;
	uint64_t dirty_met = m->nr_dirty_met;
	const size_t mem_off = offsetof(struct rf_memcg, memory);
	const size_t msw_off = offsetof(struct rf_memcg, memsw);
	uint32_t over;
	bool may_swap;

	m->memcgs[memcg]->nr_pages += nr;
	if (memcg == 0)
		return 0;
	for (;;) {
		over = RF_NONE;
		may_swap = true;
		if (swap_account_on(m))
			over = page_counter_try_charge(m, memcg, msw_off, nr);
		if (over != RF_NONE) {
			may_swap = false;
		} else {
			over = page_counter_try_charge(m, memcg, mem_off, nr);
			if (over == RF_NONE) {
				reclaim_high(m, memcg, nr);
				return 0;
			}
			if (swap_account_on(m))
				page_counter_charge(m, memcg, msw_off, -(int64_t)nr);
		}
		count_memcg_event(m, over, EV_MEMCG_MAX, 1);
		if (m->in_reclaim || ++loops > 64)
			break;
		/* its reclaimer asleep in reclaim_throttle() (vmscan.c shrink_node()) */
		if (m->memcgs[over]->throttled_until > m->now)
			goto force;
		{
			uint64_t reclaimed = try_to_free_mem_cgroup_pages(m, over, nr, may_swap);

			if (mem_cgroup_margin(m, over) >= nr)
				continue;
			if (gfp == RF_GFP_READAHEAD && m->p->ra_charge_noretry)
				goto nomem;
			if (reclaimed && nr <= 8)
				continue;
		}
		if (!retries--)
			break;
	}
	/*
	 * mem_cgroup_oom(): counted; the charge is forced (nothing is killed), a
	 * readahead's fails.  DECIDED: where the reclaim that failed met dirty
	 * pages, which only the disk's time cleans, the memcg's charges go
	 * through for a jiffy of trace time rather than repeat that reclaim on
	 * each page (a trace replayed under a smaller limit than it was
	 * recorded with: with the multi-gen LRU, 100 s for a 64 MiB write,
	 * every dirty folio sorted up a generation per pass).  The kernel
	 * would have killed a task.
	 */
	count_memcg_event(m, over, EV_MEMCG_OOM, 1);
	if (m->nr_dirty_met != dirty_met)
		m->memcgs[over]->throttled_until = m->now + RECLAIM_THROTTLE_NS;
	if (gfp == RF_GFP_READAHEAD)
		goto nomem;
force:
	page_counter_charge(m, memcg, mem_off, nr);
	if (swap_account_on(m))
		page_counter_charge(m, memcg, msw_off, nr);
	return 0;
nomem:
	m->memcgs[memcg]->nr_pages -= nr;
	return -1;
}

/* mem_cgroup_uncharge(): the page is freed */
void mem_cgroup_uncharge(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	m->memcgs[memcg]->nr_pages -= nr;
	page_counter_charge(m, memcg, offsetof(struct rf_memcg, memory), -(int64_t)nr);
	if (swap_account_on(m))
		page_counter_charge(m, memcg, offsetof(struct rf_memcg, memsw), -(int64_t)nr);
	memcg_maybe_release_id(m, memcg);
}

/* css_next_descendant_pre() restricted to @root's subtree */
uint32_t memcg_next_preorder(struct rf_model *m, uint32_t root, uint32_t pos)
{
	struct rf_memcg *mc;

	if (pos == RF_NONE)
		return root;
	mc = m->memcgs[pos];
	if (mc->first_child != RF_NONE)
		return mc->first_child;
	while (pos != root) {
		mc = m->memcgs[pos];
		if (mc->next_sibling != RF_NONE)
			return mc->next_sibling;
		pos = mc->parent;
	}
	return RF_NONE;
}

/*
 * mm/memcontrol.c: mem_cgroup_iter(), v4.6.2.  With the shared cursor
 * (profiles with memcg_iter_cookie) a walk starts after the memcg the last
 * walk at this priority stopped at, and ends at the end of the pre-order
 * (*@gen_done then set).  Released memcgs are skipped (css_tryget fails).
 */
uint32_t mem_cgroup_iter(struct rf_model *m, uint32_t root, uint32_t prev, int priority,
			 bool *gen_done)
{
	uint32_t *cursor = m->p->memcg_iter_cookie ? &m->memcgs[root]->iter_pos[priority] : NULL;
	uint32_t pos = prev, next;

	if (cursor)
		pos = *cursor ? *cursor - 1 : RF_NONE;
	for (next = pos;;) {
		next = memcg_next_preorder(m, root, next);
		if (next == RF_NONE) {
			if (prev == RF_NONE && cursor && pos != RF_NONE) {
				pos = RF_NONE;	/* a new walker at the end restarts at root */
				continue;
			}
			break;
		}
		if (next == root || m->memcgs[next]->id)
			break;
	}
	if (cursor) {
		*cursor = next == RF_NONE ? 0 : next + 1;
		if (next == RF_NONE && gen_done)
			*gen_done = true;
	}
	return next;
}

/* mm/memcontrol.c: mem_cgroup_low(), v4.6.2 */
bool mem_cgroup_low(struct rf_model *m, uint32_t root, uint32_t memcg)
{
	if (memcg == root)
		return false;
	for (; memcg != root && memcg != 0; memcg = m->memcgs[memcg]->parent)
		if (m->memcgs[memcg]->memory.usage >= m->memcgs[memcg]->low)
			return false;
	return true;
}

/* include/linux/swap.h: mem_cgroup_swappiness() */
int mem_cgroup_swappiness(struct rf_model *m, uint32_t memcg)
{
	int s = m->memcgs[memcg]->swappiness;

	if (memcg == 0 || s < 0)
		return (int)m->cfg.swappiness;
	return s;
}

/* mm/memcontrol.c: mem_cgroup_get_nr_swap_pages(), v4.6.2 */
uint64_t mem_cgroup_get_nr_swap_pages(struct rf_model *m, uint32_t memcg)
{
	uint64_t nr = m->swap_total - m->swap_used;
	uint32_t c;

	cost_add(m, COST_SWAP_ACCOUNT_CHECK, 1);
	if (!m->p->swap_account)
		return nr;
	for (c = memcg; c != 0 && c != RF_NONE; c = m->memcgs[c]->parent) {
		struct page_counter *pc = &m->memcgs[c]->swap;
		uint64_t left = pc->max > pc->usage ? pc->max - pc->usage : 0;

		if (left < nr)
			nr = left;
	}
	return nr;
}

/*
 * mm/memcontrol.c: mem_cgroup_swapout(), v4.6.2 - the page leaves memory for
 * a swap slot: memory is uncharged, the memsw charge (swap accounting on)
 * stays with the slot until swap_entry_free().
 */
void mem_cgroup_swapout(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	m->memcgs[memcg]->nr_pages -= nr;
	page_counter_charge(m, memcg, offsetof(struct rf_memcg, memory), -(int64_t)nr);
}

/* mem_cgroup_try_charge_swap(), v4.6.2 (cgroup v2 memory.swap.max) */
bool mem_cgroup_try_charge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	if (swap_account_on(m) &&
	    page_counter_try_charge(m, memcg, offsetof(struct rf_memcg, swap), nr) != RF_NONE)
		return false;
	m->memcgs[memcg]->nr_swap += nr;
	return true;
}

/*
 * A slot freed while its page is still resident (swap cache): only what
 * mem_cgroup_try_charge_swap() charged goes back; memsw still holds the
 * page, which mem_cgroup_swapout() never moved to the slot.
 */
void mem_cgroup_cancel_charge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	m->memcgs[memcg]->nr_swap -= nr;
	if (swap_account_on(m))
		page_counter_charge(m, memcg, offsetof(struct rf_memcg, swap), -(int64_t)nr);
}

/* mem_cgroup_uncharge_swap(), v4.6.2: the slot is freed */
void mem_cgroup_uncharge_swap(struct rf_model *m, uint32_t memcg, uint64_t nr)
{
	m->memcgs[memcg]->nr_swap -= nr;
	if (swap_account_on(m)) {
		page_counter_charge(m, memcg, offsetof(struct rf_memcg, swap), -(int64_t)nr);
		page_counter_charge(m, memcg, offsetof(struct rf_memcg, memsw), -(int64_t)nr);
	}
	memcg_maybe_release_id(m, memcg);
}
