/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page index: what the kernel keeps in each mapping's radix tree
 * (v4.x) / xarray (v4.20+).  Nodes of 64 slots cover 64 aligned indices of
 * one mapping, like RADIX_TREE_MAP_SHIFT = XA_CHUNK_SHIFT = 6, and are found
 * through one hash map on (mapping, index >> 6) (node_index) instead of a
 * tree walk.  A node that holds shadow entries and no pages sits on the
 * shadow-node list, oldest first, like the kernel's shadow_nodes list_lru
 * (mm/workingset.c: workingset_update_node(), v5.10; page_cache_tree_delete,
 * v4.6).  The page slab and the mapping table live here too.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "model-local.h"
#include "memcg.h"
#include "pagecache.h"
#include "workingset.h"
#include "writeback.h"

/* ------------------------------------------------------------ page slab */

uint32_t page_alloc_slot(struct rf_model *m)
{
	uint32_t idx;

	if (m->free_page != RF_NIL) {
		idx = m->free_page;
		m->free_page = m->pages[idx].next;
	} else {
		/* indices are 32 bits; RF_GROW's 1.5x keeps the slack bounded */
		if (m->nr_page_slots == RF_NONE ||
		    RF_GROW(m->pages, m->cap_pages, (size_t)m->nr_page_slots + 1))
			return RF_NIL;
		idx = m->nr_page_slots++;
	}
	memset(&m->pages[idx], 0, sizeof(m->pages[idx]));
	return idx;
}

void page_free_slot(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = &m->pages[idx];

	memset(p, 0, sizeof(*p));
	folio_clear_reclaim(m, idx);
	p->next = m->free_page;
	m->free_page = idx;
}

/* --------------------------------------------------------------- mappings */

uint32_t mapping_find(const struct rf_model *m, enum mapping_kind kind, uint32_t dev, uint64_t ino)
{
	return pair_map_find(&m->mapping_index, (uint64_t)kind << 32 | dev, ino);
}

uint32_t mapping_get(struct rf_model *m, enum mapping_kind kind, uint32_t dev, uint64_t ino)
{
	uint32_t id = m->mapping_hit;
	struct rf_mapping *mp;

	/* mappings are never removed: the last one found stays what it was */
	if (id < m->nr_mappings && m->mappings[id].ino == ino && m->mappings[id].dev == dev &&
	    m->mappings[id].kind == kind)
		return id;
	id = mapping_find(m, kind, dev, ino);
	if (id != RF_NONE) {
		m->mapping_hit = id;
		return id;
	}
	if (m->nr_mappings == RF_NONE || RF_GROW(m->mappings, m->cap_mappings, m->nr_mappings + 1))
		return RF_NONE;
	id = m->nr_mappings;
	if (pair_map_put(&m->mapping_index, (struct rf_pair){ (uint64_t)kind << 32 | dev, ino },
			 id))
		return RF_NONE;
	mp = &m->mappings[id];
	memset(mp, 0, sizeof(*mp));
	mp->kind = kind;
	mp->dev = dev;
	mp->ino = ino;
	mp->first_node = RF_NIL;
	m->nr_mappings++;
	return id;
}

/* ------------------------------------------------------------------ nodes */

/* The node for (@mapping, @base); the last hit is remembered for streams. */
static uint32_t node_find(struct rf_model *m, uint32_t mapping, uint64_t base)
{
	uint32_t n;

	if (m->last_node != RF_NIL && m->last_base == base && m->last_mapping == mapping)
		return m->last_node;
	n = pair_map_find(&m->node_index, mapping, base);
	if (n == RF_NONE)
		return RF_NIL;
	m->last_node = n;
	m->last_base = base;
	m->last_mapping = mapping;
	return n;
}

static bool mapping_is_file(const struct rf_mapping *mp)
{
	return mp->kind == MAPPING_FILE || mp->kind == MAPPING_ACCESS_FILE;
}

/*
 * A new node, charged to @memcg (the kernel: the inserting task's memcg, here
 * the inserted folio's) or, when that one is offline, to its nearest online
 * ancestor (the objcg of an offline memcg charges its parent), which is where
 * node_delete() uncharges it.
 */
static uint32_t node_create(struct rf_model *m, uint32_t mapping, uint64_t base, uint32_t memcg,
			    uint8_t level)
{
	struct rf_mapping *mp = &m->mappings[mapping];
	struct rf_xnode *n;
	uint32_t idx;

	if (m->free_node != RF_NIL) {
		idx = m->free_node;
		m->free_node = m->nodes[idx].map_next;
	} else {
		if (m->nr_node_slots == RF_NONE ||
		    RF_GROW(m->nodes, m->cap_nodes, (size_t)m->nr_node_slots + 1))
			return RF_NIL;
		idx = m->nr_node_slots++;
	}
	if (pair_map_put(&m->node_index,
			 (struct rf_pair){ mapping | (level ? XA_UPPER_KEY : 0), base }, idx)) {
		m->nodes[idx].map_next = m->free_node;
		m->free_node = idx;
		return RF_NIL;
	}
	n = &m->nodes[idx];
	memset(n, 0, sizeof(*n));
	n->base = base;
	n->mapping = mapping;
	memcg = memcg_online_ancestor(m, memcg);
	n->memcg = (uint16_t)memcg;
	n->level = level;
	if (mapping_is_file(mp))
		m->memcgs[memcg]->nr_xa_nodes++;
	n->map_prev = RF_NIL;
	n->map_next = RF_NIL;
	if (level)
		return idx;		/* not on the mapping's list of leaves */
	n->map_next = mp->first_node;
	if (mp->first_node != RF_NIL)
		m->nodes[mp->first_node].map_prev = idx;
	mp->first_node = idx;
	return idx;
}

static void node_delete(struct rf_model *m, uint32_t idx)
{
	struct rf_xnode *n = &m->nodes[idx];
	struct rf_mapping *mp = &m->mappings[n->mapping];

	if (n->on_lru)
		shadow_node_remove(m, idx);
	if (mapping_is_file(mp))
		m->memcgs[xa_node_memcg(m, idx)]->nr_xa_nodes--;
	if (m->last_node == idx)
		m->last_node = RF_NIL;
	pair_map_del(&m->node_index, (struct rf_pair){ n->mapping | (n->level ? XA_UPPER_KEY : 0),
						       n->base }, NULL);
	n->mapping = RF_NONE;	/* free: xa_take_hint() must not take it */
	if (!n->level) {
		if (n->map_prev != RF_NIL)
			m->nodes[n->map_prev].map_next = n->map_next;
		else
			mp->first_node = n->map_next;
		if (n->map_next != RF_NIL)
			m->nodes[n->map_next].map_prev = n->map_prev;
	}
	n->map_next = m->free_node;
	m->free_node = idx;
}

static bool slot_is_page(uint64_t e)
{
	uint64_t tag = e & SLOT_TAG_MASK;

	return e && (tag == SLOT_PAGE || tag == SLOT_TAIL);
}

static void slot_count(struct rf_xnode *n, uint64_t e, int delta)
{
	if (!e)
		return;
	if (slot_is_page(e))
		n->nr_pages += delta;
	else
		n->nr_values += delta;
	if (slot_is_shadow(e) && shadow_order(e) < XA_CHUNK_SHIFT)
		n->nr_leaf_shadows += delta;
}

uint64_t xa_load(struct rf_model *m, uint32_t mapping, uint64_t index)
{
	uint32_t n = node_find(m, mapping, index >> XA_CHUNK_SHIFT);

	if (n == RF_NIL)
		return 0;
	return m->nodes[n].slots[index & (XA_CHUNK_SIZE - 1)];
}

void rf_model_prefetch(const struct rf_model *m, const struct rf_event *ev, unsigned int stage,
		       struct rf_model_prefetch *st)
{
	const struct pair_map *ni = &m->node_index;
	const uint32_t *v;
	uint64_t e;

	if (stage == RF_PREFETCH_INDEX) {
		st->mapping = st->node = RF_NONE;
		if ((ev->type != RF_EV_FILE_READ && ev->type != RF_EV_FILE_FAULT) || !ni->slots)
			return;
		st->mapping = pair_map_find(&m->mapping_index,
					    (uint64_t)MAPPING_FILE << 32 | ev->u.file.dev,
					    ev->u.file.ino);
		st->base = ev->u.file.index >> XA_CHUNK_SHIFT;
		st->hash = rf_pair_hash((struct rf_pair){ st->mapping, st->base });
		if (st->mapping != RF_NONE)
			__builtin_prefetch(&ni->slots[st->hash & ni->mask]);
		return;
	}
	/* each later stage reads only what the one before started loading */
	if (st->mapping == RF_NONE || !ni->slots)
		return;
	if (stage == RF_PREFETCH_NODE) {
		v = pair_map_get_hashed(ni, (struct rf_pair){ st->mapping, st->base }, st->hash);
		st->node = v ? *v : RF_NONE;
		if (st->node != RF_NONE)
			__builtin_prefetch(&m->nodes[st->node].slots[ev->u.file.index &
								    (XA_CHUNK_SIZE - 1)]);
		return;
	}
	/* the tree may have changed since: a node or page freed is still in its array */
	if (st->node == RF_NONE || st->node >= m->nr_node_slots)
		return;
	e = m->nodes[st->node].slots[ev->u.file.index & (XA_CHUNK_SIZE - 1)];
	if (slot_is_page(e) && (e >> 2) < m->nr_page_slots)
		__builtin_prefetch(&m->pages[e >> 2]);
}

/*
 * What a hint found (rf_model_prefetch()) as the lookup caches' last hits, where it still holds:
 * the mapping (mapping_get() checks its key itself), and the node if it is still the live leaf
 * of that mapping and base (the one node_index holds for them: a node is freed and taken again,
 * never moved).
 */
void xa_take_hint(struct rf_model *m, const struct rf_model_prefetch *st)
{
	const struct rf_xnode *n;

	if (st->mapping == RF_NONE)
		return;
	m->mapping_hit = st->mapping;
	if (st->node == RF_NIL || st->node >= m->nr_node_slots)
		return;
	n = &m->nodes[st->node];
	if (n->mapping != st->mapping || n->base != st->base || n->level)
		return;
	m->last_node = st->node;
	m->last_base = st->base;
	m->last_mapping = st->mapping;
}

uint32_t xa_lookup_page(struct rf_model *m, uint32_t mapping, uint64_t index)
{
	uint64_t e = xa_load(m, mapping, index);

	return slot_is_page(e) ? (uint32_t)(e >> 2) : RF_NIL;
}

/* Whether no page, folio tail or swap entry sits in [@index, @index + @nr). */
bool range_free(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr)
{
	uint64_t i;

	for (i = 0; i < nr; i++) {
		uint64_t e = xa_load(m, mapping, index + i);

		if (e && ((e & SLOT_TAG_MASK) == SLOT_PAGE || (e & SLOT_TAG_MASK) == SLOT_TAIL ||
			  (e & SLOT_TAG_MASK) == SLOT_SWAP))
			return false;
	}
	return true;
}

/* ------------------------------------------------------- level-1 nodes */

#define LEAF_SMALL		1u	/* shadows of order < 6: a child node of the level-1 node */
#define LEAF_LARGE_PAGE		2u	/* under a folio of order >= 6: level-1 slots hold it */
#define LEAF_LARGE_SHADOW	4u	/* the shadow of such a folio: a level-1 value slot */
#define LEAF_SMALL_PAGE		8u	/* pages of order < 6: a child node too */

/*
 * What file leaf @n stands for in its level-1 node.  Whether its pages are
 * one large folio's or small ones changes only when its first page comes
 * (@recheck) or a folio is split (split_huge_page() stores the head again,
 * also @recheck); otherwise the last answer holds, which saves a look at the
 * page on every store.
 */
static unsigned int leaf_bits(struct rf_model *m, const struct rf_xnode *n, bool recheck)
{
	unsigned int bits = 0, known = n->upper_bits & (LEAF_LARGE_PAGE | LEAF_SMALL_PAGE), i;

	if (n->nr_leaf_shadows)
		bits |= LEAF_SMALL;
	if (n->nr_values > n->nr_leaf_shadows)
		bits |= LEAF_LARGE_SHADOW;
	if (!n->nr_pages)
		return bits;
	if (known && !recheck)
		return bits | known;
	/* a folio of order >= 6 covers whole leaves: any page slot tells */
	for (i = 0; i < XA_CHUNK_SIZE && !slot_is_page(n->slots[i]); i++)
		;
	if (P(m, (uint32_t)(n->slots[i] >> 2))->order >= XA_CHUNK_SHIFT)
		return bits | LEAF_LARGE_PAGE;
	return bits | LEAF_SMALL_PAGE;
}

static int bit_delta(unsigned int old, unsigned int new, unsigned int bit)
{
	return !!(new & bit) - !!(old & bit);
}

/* Leaf @leaf now stands for @bits in its level-1 node: count it there. */
static void upper_note(struct rf_model *m, uint32_t leaf, unsigned int bits)
{
	struct rf_xnode *n = &m->nodes[leaf], *un;
	unsigned int old = n->upper_bits;
	uint32_t mapping = n->mapping, memcg = n->memcg, u;
	uint64_t ubase = n->base >> XA_CHUNK_SHIFT;

	n->upper_bits = (uint8_t)bits;
	u = pair_map_find(&m->node_index, mapping | XA_UPPER_KEY, ubase);
	if (u == RF_NONE) {
		if (!bits)
			return;
		u = node_create(m, mapping, ubase, memcg, 1);
		if (u == RF_NIL) {
			m->error = RF_ERR_NOMEM;
			return;
		}
	}
	un = &m->nodes[u];
	un->nr_children += bit_delta(old, bits, LEAF_SMALL | LEAF_SMALL_PAGE);
	un->nr_pages += bit_delta(old, bits, LEAF_LARGE_PAGE);
	un->nr_values += bit_delta(old, bits, LEAF_LARGE_SHADOW);
	if (!un->nr_children && !un->nr_pages && !un->nr_values)
		node_delete(m, u);
	else
		workingset_update_node(m, u);
}

/*
 * Store @entry (0 erases) at @index, keeping node counts, mapping counts and
 * the shadow-node list right; deletes a node that became empty.  A node
 * created for it is charged to @memcg.
 */
static int xa_store_charged(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t entry,
			    uint32_t memcg)
{
	uint64_t base = index >> XA_CHUNK_SHIFT;
	uint32_t idx = node_find(m, mapping, base);
	struct rf_mapping *mp = &m->mappings[mapping];
	struct rf_xnode *n;
	uint64_t *slot, old;

	if (idx == RF_NIL) {
		if (!entry)
			return 0;
		idx = node_create(m, mapping, base, memcg, 0);
		if (idx == RF_NIL)
			return RF_ERR_NOMEM;
	}
	n = &m->nodes[idx];
	slot = &n->slots[index & (XA_CHUNK_SIZE - 1)];
	old = *slot;
	slot_count(n, old, -1);
	if (slot_is_shadow(old)) {
		mp->nrshadows--;
		m->nr_shadow--;
		mp->nr_large_shadows -= shadow_order(old) > 0;
	}
	*slot = entry;
	slot_count(n, entry, +1);
	if (slot_is_shadow(entry)) {
		mp->nrshadows++;
		m->nr_shadow++;
		mp->nr_large_shadows += shadow_order(entry) > 0;
	}
	if (mapping_is_file(mp)) {
		bool recheck = slot_is_page(entry) && (n->nr_pages == 1 || old == entry);
		unsigned int bits = n->nr_pages || n->nr_values ? leaf_bits(m, n, recheck) : 0;

		if (bits != n->upper_bits)
			upper_note(m, idx, bits);	/* may move m->nodes */
		n = &m->nodes[idx];
	}
	if (!n->nr_pages && !n->nr_values)
		node_delete(m, idx);
	else if (mapping_is_file(mp))
		workingset_update_node(m, idx);
	return 0;
}

/* Store @entry at @index; a node created for a page is charged to the page's memcg. */
int xa_store(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t entry)
{
	uint32_t memcg = slot_is_page(entry) ? P(m, (uint32_t)(entry >> 2))->memcg : 0;

	return xa_store_charged(m, mapping, index, entry, memcg);
}

/* Put page @idx (head and tails) into its mapping's tree. */
void xa_store_page(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	uint64_t i, nr = page_nr(p);

	for (i = 0; i < nr; i++) {
		uint64_t e = (uint64_t)idx << 2 | (i ? SLOT_TAIL : SLOT_PAGE);

		if (xa_store(m, p->mapping, p->index + i, e))
			m->error = RF_ERR_NOMEM;
	}
	m->mappings[p->mapping].nrpages += nr;
	if (p->order)
		m->mappings[p->mapping].large_folios = true;
}

/*
 * Take page @idx out of its tree, leaving @shadow (0 for none) in the head
 * slot.  A file shadow covers the folio's whole range: page_cache_delete(),
 * v6.18, stores one multi-index entry (xas_set_order() + xas_store()); here
 * the head slot holds it with the folio's order and the other slots are
 * emptied (xa_take_shadow() finds it from any index of the range).
 * Anonymous pages going to swap leave a swap entry in every slot they
 * covered (a THP is split into base-page swap entries, as v4.x does).
 */
void xa_erase_page(struct rf_model *m, uint32_t idx, uint64_t shadow)
{
	struct rf_page *p = P(m, idx);
	uint64_t i, nr = page_nr(p);
	bool swap = shadow && (shadow & SLOT_TAG_MASK) == SLOT_SWAP;

	if (slot_is_shadow(shadow))
		shadow = shadow_with_order(shadow, p->order);

	for (i = 0; i < nr; i++) {
		uint64_t cur = xa_load(m, p->mapping, p->index + i);

		if (!slot_is_page(cur) || (cur >> 2) != idx)
			continue;
		if (xa_store(m, p->mapping, p->index + i, (i == 0 || swap) ? shadow : 0))
			m->error = RF_ERR_NOMEM;
	}
	m->mappings[p->mapping].nrpages -= nr;
}

/* ------------------------------------------------------ multi-index shadows */

static uint64_t order_mask(unsigned int order)
{
	return (1ull << order) - 1;
}

/*
 * The shadow entry covering the whole aligned range of 2^@order pages at
 * @index, or 0; its first index in *@head.  Entries never overlap, so it is
 * the first non-empty slot among the range's aligned heads at orders
 * @order..SHADOW_MAX_ORDER, if that slot holds a shadow at least that large.
 */
static uint64_t shadow_covering(struct rf_model *m, uint32_t mapping, uint64_t index,
				unsigned int order, uint64_t *head)
{
	unsigned int k, top = m->mappings[mapping].nr_large_shadows ? SHADOW_MAX_ORDER : order;

	for (k = order; k <= top; k++) {
		uint64_t h = index & ~order_mask(k), e = xa_load(m, mapping, h);

		if (!e)
			continue;
		if (slot_is_shadow(e) && shadow_order(e) >= k) {
			*head = h;
			return e;
		}
		return 0;
	}
	return 0;
}

/*
 * Split the shadow @e of order k at @head around the folio of 2^@order
 * pages at @index, as __filemap_add_folio() does with xas_try_split() (v6.18,
 * since "mm/filemap: use xas_try_split() in __filemap_add_folio()"): the
 * rest of the range keeps the value, in one entry of each order
 * @order..k-1 (the buddies on the way from the folio up to the entry).  A
 * buddy may land in a leaf that does not exist yet: xas_try_split()
 * allocates it in the inserting task's memcg, @memcg here (the folio's).
 */
static void shadow_split(struct rf_model *m, uint32_t mapping, uint64_t e, uint64_t index,
			 unsigned int order, uint32_t memcg)
{
	unsigned int o, k = shadow_order(e);

	for (o = order; o < k; o++) {
		uint64_t buddy = (index & ~order_mask(o)) ^ (1ull << o);

		if (xa_store_charged(m, mapping, buddy, shadow_with_order(e, o), memcg))
			m->error = RF_ERR_NOMEM;
	}
}

/*
 * The shadow a folio of 2^@order pages of @memcg inserted at @index (aligned,
 * no page in the range) takes over, or 0: __filemap_add_folio(), v6.18.  Its
 * xas_for_each_conflict() leaves the last entry met in the range: an entry
 * covering the whole range is the only one met (and is split when larger
 * than the folio); else the entry at the highest index inside the range.
 * The entries inside the range are the caller's to overwrite with the folio
 * (xa_store_page()).
 */
uint64_t xa_take_shadow(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		       uint32_t memcg)
{
	uint64_t head = 0, e = shadow_covering(m, mapping, index, order, &head), i;

	if (e) {
		if (shadow_order(e) > order)
			shadow_split(m, mapping, e, index, order, memcg);
		return e;
	}
	if (!order || !m->mappings[mapping].nrshadows)
		return 0;
	for (i = order_mask(order) + 1; i-- > 0;) {
		e = xa_load(m, mapping, index + i);
		if (e)
			return slot_is_shadow(e) ? e : 0;
	}
	return 0;
}

/* Drop the shadow covering @index whose range starts before it (truncate from @index). */
void xa_drop_covering_shadow(struct rf_model *m, uint32_t mapping, uint64_t index)
{
	uint64_t head = 0, e = shadow_covering(m, mapping, index, 0, &head);

	if (e && head < index)
		xa_store(m, mapping, head, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Append @b to the growing array *@bases; -1 when out of memory (the array is kept). */
static int push_base(uint64_t **bases, size_t *nb, size_t *cap, uint64_t b)
{
	if (RF_GROW(*bases, *cap, *nb + 1))
		return -1;
	(*bases)[(*nb)++] = b;
	return 0;
}

/*
 * Call @fn for every non-empty slot of @mapping in [@first, @last].  @fn may
 * change the slot it is given (and only that one).  Walks the mapping's node
 * list when the range is larger than the mapping, else node by node.
 */
void xa_for_each_range(struct rf_model *m, uint32_t mapping, uint64_t first, uint64_t last,
		       xa_visit_fn fn, void *ctx)
{
	struct rf_mapping *mp = &m->mappings[mapping];
	uint64_t b, nr_nodes_range = (last >> XA_CHUNK_SHIFT) - (first >> XA_CHUNK_SHIFT) + 1;
	uint64_t *bases = NULL;
	size_t nb = 0, cap = 0, k;
	uint32_t n;

	if (last < first)
		return;
	/* Snapshot the node bases first: @fn may free nodes. */
	if (nr_nodes_range > 4096 || nr_nodes_range == 0) {
		for (n = mp->first_node; n != RF_NIL; n = m->nodes[n].map_next) {
			b = m->nodes[n].base;
			if (b < (first >> XA_CHUNK_SHIFT) || b > (last >> XA_CHUNK_SHIFT))
				continue;
			if (push_base(&bases, &nb, &cap, b)) {
				m->error = RF_ERR_NOMEM;
				free(bases);
				return;
			}
		}
		/* ascending index order, so results do not depend on the node list */
		if (nb > 1)
			qsort(bases, nb, sizeof(*bases), cmp_u64);
	} else {
		for (b = first >> XA_CHUNK_SHIFT; b <= last >> XA_CHUNK_SHIFT; b++) {
			if (node_find(m, mapping, b) == RF_NIL)
				continue;
			if (push_base(&bases, &nb, &cap, b)) {
				m->error = RF_ERR_NOMEM;
				free(bases);
				return;
			}
		}
	}
	for (k = 0; k < nb; k++) {
		uint64_t lo = bases[k] << XA_CHUNK_SHIFT, i;

		for (i = 0; i < XA_CHUNK_SIZE; i++) {
			uint64_t index = lo + i, e;

			if (index < first || index > last)
				continue;
			n = node_find(m, mapping, bases[k]);
			if (n == RF_NIL)
				break;
			e = m->nodes[n].slots[i];
			if (e)
				fn(m, index, e, ctx);
		}
	}
	free(bases);
}
