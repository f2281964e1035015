/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page index (pagecache.c): what the kernel keeps in each mapping's
 * radix tree (v4.x) / xarray (v4.20+), for page cache and anonymous memory
 * alike: 64-slot nodes found by a hash on (mapping, index >> 6), a slot
 * holding a page, the tail of a large folio, a shadow or a swap entry.  The
 * page slab and the mapping table live here too.  A node that holds only
 * shadows is on its memcg's shadow-node list (workingset.h).
 */
#ifndef REFAULT_MODEL_PAGECACHE_H
#define REFAULT_MODEL_PAGECACHE_H

#include "model-local.h"
#include "memcg.h"

#define XA_CHUNK_SHIFT		6	/* RADIX_TREE_MAP_SHIFT */
#define XA_CHUNK_SIZE		(1u << XA_CHUNK_SHIFT)

/* Slot encoding, two tag bits as the kernel's radix-tree exceptional entries. */
#define SLOT_TAG_MASK	3ull
#define SLOT_PAGE	0ull	/* page slab index << 2 */
#define SLOT_SHADOW	1ull	/* file shadow: workingset.c pack_shadow() */
#define SLOT_TAIL	2ull	/* page slab index << 2 of the head of a large folio */
#define SLOT_SWAP	3ull	/* anon page on swap, with its shadow bits */

/*
 * A file shadow carries the order of the folio that left it: it stands for
 * the folio's whole range, as the multi-index entry page_cache_delete()
 * stores (v6.18, xas_set_order()).  The model keeps it in the slot of the
 * range's first index only; the other slots of the range stay empty.
 */
#define SHADOW_ORDER_SHIFT	19
#define SHADOW_ORDER_MASK	0xfull
#define SHADOW_MAX_ORDER	9	/* PMD order: the largest folio the model makes */
/*
 * A shadow from before the trace (rf_model_plant_shadow()): its eviction
 * field holds the recording kernel's verdict on the refault (1: recent),
 * whatever the model's workingset holds.
 */
#define SHADOW_PLANTED		(1ull << (SHADOW_ORDER_SHIFT + 4))

static inline bool slot_is_shadow(uint64_t e)
{
	return e && (e & SLOT_TAG_MASK) == SLOT_SHADOW;
}

static inline unsigned int shadow_order(uint64_t e)
{
	return (unsigned int)((e >> SHADOW_ORDER_SHIFT) & SHADOW_ORDER_MASK);
}

static inline uint64_t shadow_with_order(uint64_t e, unsigned int order)
{
	return (e & ~(SHADOW_ORDER_MASK << SHADOW_ORDER_SHIFT)) |
		((uint64_t)order << SHADOW_ORDER_SHIFT);
}

struct rf_xnode {
	uint64_t slots[XA_CHUNK_SIZE];
	uint64_t base;			/* index >> XA_CHUNK_SHIFT */
	uint32_t mapping;
	uint32_t map_prev, map_next;	/* nodes of one mapping; free list */
	uint32_t lru_prev, lru_next;	/* shadow-node list_lru (oldest at head) */
	uint8_t nr_pages;		/* page + tail slots */
	uint8_t nr_values;		/* shadow + swap slots */
	uint8_t on_lru;
	uint8_t nr_leaf_shadows;	/* shadows of order < XA_CHUNK_SHIFT: the kernel's leaf */
	uint16_t memcg;			/* the memcg the node is charged to (its list_lru) */
	uint8_t level;			/* 0: a leaf; 1: a level-1 node of a file (below) */
	uint8_t upper_bits;		/* leaf: what it stands for in its level-1 node (LEAF_*) */
	uint8_t nr_children;		/* level 1: leaves of small entries under it */
};

/*
 * A file's level-1 node (4096 indices, key (mapping | XA_UPPER_KEY, index >>
 * 12)) holds no slots in the model: it counts what the kernel's would hold,
 * for the shadow-node list only (workingset.c).  An entry of order >= 6 is
 * the kernel's level-1 entry: a leaf that holds one stands for level-1 slots
 * (a folio: nr_pages, its shadow: nr_values), a leaf of smaller entries for
 * a child node (nr_children).
 */
#define XA_UPPER_KEY		(1ull << 32)

enum mapping_kind {
	MAPPING_FILE = 1,	/* (dev, ino) */
	MAPPING_ANON,		/* one mm's anonymous memory, index = addr >> PAGE_SHIFT */
	MAPPING_ACCESS_FILE,	/* synthetic RF_EV_ACCESS keys */
	MAPPING_ACCESS_ANON,
};

struct rf_mapping {
	uint64_t ino;		/* or mm */
	uint32_t dev;
	uint8_t kind;
	bool large_folios;	/* it has held a folio of order > 0 (readpos.c tracks streams) */
	uint32_t first_node;
	uint32_t nr_large_shadows;	/* shadow entries of order > 0 (lookups skip them if 0) */
	uint64_t ra_read_time;	/* trace ns the reader took to reach its last readahead */
	uint64_t nrpages;	/* base pages */
	uint64_t nrshadows;	/* shadow entries (one per evicted folio, whatever its order) */
	/* writeback.c: dirty pages, when the inode became dirty, where writeback goes on */
	uint64_t nr_dirty;
	uint64_t dirtied_when;
	uint64_t writeback_index;
	uint16_t wb_memcg;	/* the memcg whose writeback domain owns it (inode_attach_wb()) */
	bool on_dirty_list;
};

/*
 * The memcg a node is charged to, past offline ones: an offline memcg's
 * list_lru and slab went to its parent (memcg_reparent_list_lrus(),
 * memcg_reparent_objcgs()), so the node is accounted there from then on.
 */
static inline uint32_t xa_node_memcg(struct rf_model *m, uint32_t idx)
{
	struct rf_xnode *n = &m->nodes[idx];
	uint32_t c = memcg_online_ancestor(m, n->memcg);

	n->memcg = (uint16_t)c;
	return c;
}

/* ------------------------------------------------------------ page slab */

/* A zeroed page struct's slab index (never RF_NIL), or RF_NIL without memory. */
uint32_t page_alloc_slot(struct rf_model *m);
/* Page @idx back to the slab (zeroed). */
void page_free_slot(struct rf_model *m, uint32_t idx);

/* ------------------------------------------------------------ mappings */

/* The mapping of (@kind, @dev, @ino), made at its first use; RF_NONE without memory. */
uint32_t mapping_get(struct rf_model *m, enum mapping_kind kind, uint32_t dev, uint64_t ino);
/* The mapping of (@kind, @dev, @ino), or RF_NONE if none was made. */
uint32_t mapping_find(const struct rf_model *m, enum mapping_kind kind, uint32_t dev, uint64_t ino);

/* ------------------------------------------------------------ the tree */

/* The entry at @index of @mapping (0: none). */
uint64_t xa_load(struct rf_model *m, uint32_t mapping, uint64_t index);
/* The page (head) whose head or tail slot is @index, or RF_NIL. */
uint32_t xa_lookup_page(struct rf_model *m, uint32_t mapping, uint64_t index);
/*
 * Store @entry (0 erases) at @index, keeping the node and mapping counts and
 * the shadow-node list right; 0 or RF_ERR_NOMEM.
 */
int xa_store(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t entry);
/* Page @page's head and tail slots into its mapping's tree (m->error without memory). */
void xa_store_page(struct rf_model *m, uint32_t page);
/* Page @page out of its tree, leaving @shadow (0: none) for it. */
void xa_erase_page(struct rf_model *m, uint32_t page, uint64_t shadow);
/*
 * The shadow a folio of 2^@order pages of @memcg inserted at @index takes
 * over (__filemap_add_folio()), or 0; a larger one covering it is split.
 */
uint64_t xa_take_shadow(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		       uint32_t memcg);
/* Drop the shadow covering @index whose range starts before it (truncate from @index). */
void xa_drop_covering_shadow(struct rf_model *m, uint32_t mapping, uint64_t index);
/* Whether no page, folio tail or swap entry sits in [@index, @index + @nr). */
bool range_free(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr);
/*
 * @fn for every non-empty slot of @mapping in [@first, @last], in index
 * order; @fn may change the slot it is given, and only that one.
 */
typedef void (*xa_visit_fn)(struct rf_model *m, uint64_t index, uint64_t entry, void *ctx);
void xa_for_each_range(struct rf_model *m, uint32_t mapping, uint64_t first, uint64_t last,
		       xa_visit_fn fn, void *ctx);
/* What rf_model_prefetch() found, as the lookup caches' last hits where it still holds. */
void xa_take_hint(struct rf_model *m, const struct rf_model_prefetch *st);

#endif /* REFAULT_MODEL_PAGECACHE_H */
