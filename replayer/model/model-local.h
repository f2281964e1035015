/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the reclaim model: its state.  One struct rf_model holds
 * everything; nothing is global.  Names follow the kernel (mm/vmscan.c,
 * mm/swap.c, mm/workingset.c, mm/memcontrol.c) so that a reader can hold a
 * rule next to the function it models.  docs/model.md describes the memory
 * layout and every simplification.
 *
 * Memory layout (see docs/model.md): pages live in one slab array of 32-byte
 * struct rf_page, linked into lists by 32-bit slab indices (0 = nil).  Page
 * cache and anonymous address spaces share one structure modelled on the
 * kernel's radix tree / xarray: 64-slot nodes of 8-byte entries, found by an
 * open-addressing hash on (mapping, index >> 6).  A slot holds a page, a
 * tail reference of a large folio, a shadow entry or a swap entry.
 *
 * Every file includes this header; the functions of each subsystem are
 * declared in its own, as mm/ is split, and a file includes the headers of
 * what it calls:
 *   profile.h, config.h,   the switches, the configuration and the counters
 *   vmstat.h               (included here: every rule reads and counts)
 *   pagecache.h            the page index, the mappings, the page slab
 *   lru.h                  the LRU lists and the per-CPU batches
 *   lru_gen.h              the multi-gen LRU
 *   memcg.h                memory cgroups: tree, charges, statistics
 *   workingset.h           shadows, refaults, the shadow-node lists
 *   vmscan.h               reclaim
 *   swap.h                 swap slots, the swap cache, swap-ins
 *   page_alloc.h           the allocator and the watermarks
 *   filemap.h, readahead.h reads, writes, faults, truncation; readahead
 *   mm.h                   tasks, mms, vmas, anonymous faults, unmaps, madvise
 */
#ifndef REFAULT_MODEL_LOCAL_H
#define REFAULT_MODEL_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/model.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "config.h"
#include "profile.h"
#include "vmstat.h"

#define RF_NIL		0u		/* page / node slab index 0 is never used */
#define RF_NONE		UINT32_MAX

#define SWAP_CLUSTER_MAX	32u	/* include/linux/swap.h */
#define DEF_PRIORITY		12	/* include/linux/mmzone.h */
/* reclaim_throttle(VMSCAN_THROTTLE_CONGESTED), v6.12: one jiffy, CONFIG_HZ=250 (Debian) */
#define RECLAIM_THROTTLE_NS	4000000ull
#define MEM_CGROUP_ID_MAX	65535u
#define MAX_PAGEVEC		64u	/* largest batch size a config may ask for */
#define MAX_MEMCGS		65535u
#define MAX_MEMCG_DEPTH		256u	/* levels below the root the model nests memcgs */
#define RA_HOLD_MAX		8u	/* file_readahead events one read or fault may follow */
#define RA_PIN_MAX		MAX_PAGEVEC	/* the most folios a read holds (read_batch) */
#define RA_READS_MAX		64u	/* readaheads whose reads may still be in flight */
#define MAX_ORDER_MODEL		9	/* PMD order: larger orders are taken as THPs */

/* An event's order, bounded: larger orders are taken as PMD-sized folios. */
static inline unsigned int clamp_order(unsigned int order)
{
	return order > MAX_ORDER_MODEL ? MAX_ORDER_MODEL : order;
}

enum lru_list {
	LRU_INACTIVE_ANON = 0,
	LRU_ACTIVE_ANON = 1,
	LRU_INACTIVE_FILE = 2,
	LRU_ACTIVE_FILE = 3,
	LRU_UNEVICTABLE = 4,
	NR_LRU_LISTS
};

static inline bool is_file_lru(int lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(int lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

/* ----------------------------------------------------------------- pages */

#define PG_referenced	0x0001u
#define PG_active	0x0002u
#define PG_workingset	0x0004u
#define PG_swapbacked	0x0008u	/* anon: lives on the anon LRU */
#define PG_young	0x0010u	/* a PTE mapping it is young (one bit for all PTEs) */
#define PG_exec		0x0020u	/* mapped by a VM_EXEC vma */
#define PG_seqread	0x0040u	/* mapped by a vma without recency (VM_SEQ_READ; VM_RAND_READ
				 * too with rand_no_recency): young bits ignored */
#define PG_orphan	0x0080u	/* freed while a per-CPU batch held it: free at drain */
#define PG_dirty	0x0100u
#define PG_uncharged	0x0200u	/* swapped out: memory already uncharged */
#define PG_swapcache	0x0400u	/* written to swap, still resident: holds its slot (swap.c) */
#define PG_writeback	0x0800u	/* swap write started in this reclaim pass (vmscan.c) */
#define PG_locked	0x1000u	/* a readahead in progress added it: reclaim cannot lock it */
#define PG_pinned	0x2000u	/* the read or fault that started a readahead holds it */
#define PG_reading	0x4000u	/* locked until its read completes: readahead.c ra_read_busy() */
#define PG_idle_young	0x8000u	/* the folio's own PG_young (CONFIG_PAGE_IDLE_FLAG): a young
				 * PTE DAMON's check cleared (damon.c); folio_referenced()
				 * counts it, the multi-gen page-table walk does not see it */

enum page_where {
	WHERE_FREE = 0,
	WHERE_PVEC,		/* in a CPU's lru_add batch, not on an LRU (PageLRU clear) */
	WHERE_LRU,		/* on lruvec list page->lru (PageLRU set) */
	WHERE_ISOLATED,		/* isolated by reclaim */
};

struct rf_page {
	uint32_t prev, next;	/* list links (slab indices) */
	uint32_t mapping;	/* index in m->mappings */
	uint16_t memcg;		/* memcg slot: page->mem_cgroup */
	uint16_t cpu;		/* the CPU whose lru_add batch holds it */
	uint64_t index;		/* page index of the head in its mapping */
	uint16_t flags;		/* PG_* */
	uint8_t order;
	uint8_t where;		/* enum page_where */
	uint8_t lru;		/* enum lru_list while WHERE_LRU / ISOLATED */
	uint8_t mapcount;	/* PTE mappings, saturating at 255 */
	uint8_t batch_refs;	/* references held by activate batches */
	uint8_t gen;		/* multi-gen LRU: LRU_GEN_* bits (lru_gen.c), 0 off its lists */
};

static inline uint64_t page_nr(const struct rf_page *p)
{
	return 1ull << p->order;
}

static inline bool page_is_file(const struct rf_page *p)
{
	return !(p->flags & PG_swapbacked);
}

/*
 * The model's indexes are lib/hashmap.h maps to a u32 slot: pair_map on two
 * words ((mapping, index >> 6) -> tree node, (kind << 32 | dev, ino) ->
 * mapping), id_map on one (cgroup id, pid, mm).  Nothing walks them, so
 * their order never shows.
 */
struct rf_pair {
	uint64_t a, b;
};

/* one finaliser round over a golden-ratio step: a pair's words are small, the step keeps them apart */
static inline uint64_t rf_pair_hash(struct rf_pair k)
{
	return rf_hash64(k.a * 0x9e3779b97f4a7c15ull + k.b);
}

#define RF_PAIR_EQ(x, y) ((x).a == (y).a && (x).b == (y).b)

RF_HASHMAP_DEFINE(pair_map, struct rf_pair, uint32_t, rf_pair_hash, RF_PAIR_EQ, 75)
RF_HASHMAP_DEFINE(id_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* The slot of (@a, @b), or RF_NONE. */
static inline uint32_t pair_map_find(const struct pair_map *h, uint64_t a, uint64_t b)
{
	const uint32_t *v = pair_map_get(h, (struct rf_pair){ a, b });

	return v ? *v : RF_NONE;
}

/* The slot of @key, or RF_NONE. */
static inline uint32_t id_map_find(const struct id_map *h, uint64_t key)
{
	const uint32_t *v = id_map_get(h, key);

	return v ? *v : RF_NONE;
}

/* ---------------------------------------------------------------- lruvec */

/*
 * The multi-gen LRU (include/linux/mmzone.h, v6.1..v6.18): generations seq
 * min_seq[type]..max_seq of each type, gen = seq % MAX_NR_GENS; a folio's
 * generation (plus one) and its refs are in rf_page.gen as the kernel keeps
 * them in folio->flags (LRU_GEN_MASK, LRU_REFS_MASK).  CONFIG_LRU_GEN_STATS
 * is off in the kernels modelled (Debian's), so NR_HIST_GENS is 1.
 */
#define MIN_NR_GENS		2u
#define MAX_NR_GENS		4u
#define MAX_NR_TIERS		4u
#define LRU_REFS_WIDTH		2u	/* MAX_NR_TIERS - 2 spare flag bits (page-flags-layout.h) */
#define MIN_LRU_BATCH		64u	/* BITS_PER_LONG */
#define MAX_LRU_BATCH		(MIN_LRU_BATCH * 64)
#define MEMCG_NR_GENS		3u
#define MEMCG_NR_BINS		8u
#define LRU_GEN_CAP_CORE	0x1u	/* /sys/kernel/mm/lru_gen/enabled bits */
#define LRU_GEN_CAP_MM_WALK	0x2u
#define LRU_GEN_CAP_NONLEAF	0x4u

#define LRU_GEN_MASK		0x07u	/* rf_page.gen: gen + 1, 0 = on no generation list */
#define LRU_REFS_SHIFT		3
#define LRU_REFS_MASK		(((1u << LRU_REFS_WIDTH) - 1) << LRU_REFS_SHIFT)

struct rf_lrugen {
	uint64_t max_seq, min_seq[2];		/* [0] anon, [1] file (LRU_GEN_ANON/FILE) */
	uint64_t timestamps[MAX_NR_GENS];	/* trace ns each generation was made */
	uint32_t head[MAX_NR_GENS][2], tail[MAX_NR_GENS][2];
	int64_t nr_pages[MAX_NR_GENS][2];	/* base pages (one zone) */
	uint64_t avg_refaulted[2][MAX_NR_TIERS], avg_total[2][MAX_NR_TIERS];
	uint64_t protected[2][MAX_NR_TIERS];	/* by tier (tier 0 only from v6.18) */
	uint64_t evicted[2][MAX_NR_TIERS], refaulted[2][MAX_NR_TIERS];
	uint64_t mm_seq;			/* lru_gen_mm_state.seq */
	struct pair_map bloom[2];		/* the Bloom filters: (mm, PMD) sets (lru_gen_walk.c) */
	bool bloom_made[2];
	/* the node's memcg LRU (lru_gen_rotate_memcg()): generation, segment, bin, links */
	uint8_t memcg_gen, seg, bin;
	bool on_memcg_lru;
	uint32_t memcg_prev, memcg_next;	/* memcg slots, RF_NONE at the ends */
};

struct rf_lruvec {
	uint32_t head[NR_LRU_LISTS], tail[NR_LRU_LISTS];
	uint64_t size[NR_LRU_LISTS];		/* base pages on each list */
	uint64_t hier_size[NR_LRU_LISTS];	/* this memcg and its descendants */
	uint64_t recent_scanned[2], recent_rotated[2];	/* [0] anon, [1] file */
	uint64_t anon_cost, file_cost;
	uint64_t inactive_age;			/* nonresident_age from v5.9 */
	uint64_t refaults[2];			/* snapshot_refaults() */
	/* lruvec_page_state() as of the last rstat flush (stats_flushed) */
	uint64_t flushed_size[NR_LRU_LISTS];
	uint64_t flushed_activate[2];		/* WORKINGSET_ACTIVATE_ANON/FILE, hierarchical */
	uint64_t flushed_local[NR_LRU_LISTS];	/* lruvec_page_state_local() as flushed */
	uint64_t flushed_xa_nodes;		/* page-cache nodes charged, as flushed */
	struct rf_lrugen lrugen;
};

/* ----------------------------------------------------------------- memcg */

struct page_counter {
	uint64_t usage;		/* pages */
	uint64_t max;		/* pages; UINT64_MAX = unlimited */
	uint64_t failcnt;
};

struct rf_memcg {
	char *path;
	uint64_t cgid;			/* cgroup id in the trace */
	uint32_t slot;
	uint32_t parent, first_child, last_child, next_sibling;
	uint32_t depth;			/* levels below the root */
	uint16_t id;			/* mem_cgroup_id(); 0 once released */
	bool online;
	int swappiness;			/* -1: the global vm_swappiness */
	struct page_counter memory, memsw, swap;
	uint64_t low, high;		/* pages */
	uint64_t lim_set;		/* bitmask of RF_LIMIT_* fixed by the config */
	struct rf_lruvec lruvec;
	uint32_t iter_pos[DEF_PRIORITY + 1];	/* mem_cgroup_reclaim_iter cursor (slot+1) */
	uint64_t ev[NR_VM_EVENTS];
	uint64_t ws_activate_hier[2];	/* WORKINGSET_ACTIVATE_ANON/FILE of the subtree, now */
	uint64_t nr_pages;		/* charged base pages (memory.usage without children) */
	uint64_t throttled_until;	/* trace time: limit reclaim sleeps in reclaim_throttle() */
	uint64_t nr_swap;		/* swap entries recorded for it */
	/* its part of the shadow-node list_lru (workingset.c), and what is charged to it */
	uint32_t shadow_head, shadow_tail;
	uint64_t nr_shadow_nodes;	/* on its list: list_lru_count_one() */
	uint64_t shadow_deferred;	/* shrinker nr_deferred of this memcg (v5.13+) */
	uint64_t nr_xa_nodes;		/* page-cache nodes charged to it (slab) */
	uint64_t nr_file_dirty;		/* NR_FILE_DIRTY of its pages (writeback=flusher) */
};

/* ---------------------------------------------------------------- model */

/* What struct rf_model only points to is its subsystem's. */
struct rf_xnode;		/* pagecache.h */
struct rf_mapping;		/* pagecache.h */
struct rf_mm;			/* mm.h */
struct rf_pid;			/* mm.h */
struct rf_cpu;			/* lru.h */
struct rf_read_state;		/* filemap.h */

struct rf_model {
	struct rf_model_config cfg;
	const struct rf_profile *p;	/* = &cfg.p */

	/* pages */
	struct rf_page *pages;
	uint32_t nr_page_slots, free_page;
	size_t cap_pages;

	/* page cache / anon trees */
	struct rf_xnode *nodes;
	uint32_t nr_node_slots, free_node;
	size_t cap_nodes;
	struct pair_map node_index;	/* (mapping, base) -> node */
	uint32_t last_mapping, last_node;	/* one-entry lookup cache (streams) */
	uint64_t last_base;
	uint32_t access_mapping[2];	/* RF_EV_ACCESS file / anon mappings, RF_NONE until used */
	struct rf_mapping *mappings;
	uint32_t nr_mappings;
	size_t cap_mappings;
	struct pair_map mapping_index;	/* (kind<<32|dev, ino) -> mapping */
	uint32_t mapping_hit;		/* the last one mapping_get() returned (a stream's file) */
	uint64_t nr_shadow_nodes;	/* on every memcg's shadow list (WORKINGSET_NODES) */
	uint64_t shadow_deferred;	/* shrinker->nr_deferred[nid] (before v5.13) */

	/* memcgs */
	struct rf_memcg **memcgs;	/* by slot; [0] = root */
	size_t cap_memcgs;
	uint32_t nr_memcgs;
	/*
	 * mem_cgroup_from_id(): ids 0 .. nr_ids - 1, RF_NONE where free; the ids
	 * past them are free too.  Grown as ids are taken, lowest first, as the
	 * kernel's idr does: a model of a few cgroups keeps a few entries, not
	 * MEM_CGROUP_ID_MAX + 1.
	 */
	uint32_t *id_to_slot;
	uint32_t nr_ids;
	size_t cap_ids;
	struct id_map cgid_index;	/* trace cgroup id -> slot */
	struct id_map cgid_folded;	/* cgroups the model folds into an ancestor -> its slot */

	/* processes */
	struct id_map pid_index;	/* pid -> index in pids[] */
	int32_t pid_hit;		/* the last pid task_memcg() found (0: none), and its index */
	uint32_t pid_hit_index;
	struct rf_pid *pids;
	uint32_t nr_pids;
	size_t cap_pids;
	struct id_map mm_index;		/* mm -> index in mms[] */
	struct rf_mm *mms;
	uint32_t nr_mms;
	size_t cap_mms;

	/* file_readahead events held until the read or fault they were for (readahead.c) */
	struct rf_held_ra {
		struct rf_event ev;
		uint32_t memcg, cpu;
	} ra_held[RA_HOLD_MAX];
	uint32_t nr_ra_held;
	/*
	 * the fault those readaheads were for found its folio missing: it is a
	 * major fault though its readahead came first (ra_release(), file_fault())
	 */
	struct { uint32_t mapping; uint64_t index; bool set; } ra_fault_miss;
	/* the last readaheads, whose folios' reads may not have completed (readahead.c) */
	struct rf_ra_read {
		uint64_t index, end;	/* [index, end) of the mapping */
		uint64_t time;		/* trace time the readahead ran */
		uint32_t mapping;
		bool reached;		/* a read or fault reached one of its folios */
	} ra_reads[RA_READS_MAX];
	uint32_t ra_reads_next;
	uint64_t now;			/* trace time of the event modelled (a readahead's own) */
	uint64_t nr_dirty_met;		/* dirty file pages reclaim met (writeback=flusher, recorded) */

	struct rf_read_state *read_state;	/* READ_STATE_SLOTS, allocated at the first read */
	struct rf_read_state *last_read_state;	/* the entry the last read used */

	/* per-CPU batches */
	struct rf_cpu *cpus;
	uint32_t nr_cpus;		/* cfg.cpus + 1 (the kswapd CPU) */
	uint32_t cur_cpu;

	/* node (the single NUMA node / zone) */
	uint64_t managed;		/* pages */
	int64_t nr_free;
	uint64_t wmark_min, wmark_low, wmark_high;
	uint64_t zone_inactive_age;	/* v4.5 zone->inactive_age */
	uint64_t nr_pages_scanned;	/* NR_PAGES_SCANNED, reset on free */
	uint64_t swap_total, swap_used;	/* pages */
	uint64_t nr_file_pages, nr_anon_pages, nr_shadow, nr_swap_shadow;
	/* writeback.c: NR_FILE_DIRTY, the dirty inodes in the order they became dirty (b_dirty) */
	uint64_t nr_file_dirty;
	uint32_t *dirty_mappings;
	size_t nr_dirty_mappings, cap_dirty_mappings;
	uint64_t wb_next_tick;		/* trace time of the flusher's next periodic pass, 0: none */
	/* PG_reclaim of file pages, a bit per page slot (the flags have no room) */
	uint64_t *reclaim_bits;
	size_t nr_reclaim_words;
	uint64_t file_pages_added;	/* page-cache pages allocated, base pages: the reads from disk */
	unsigned int inactive_anon_ratio_zone;	/* zone->inactive_ratio (v4.5) */
	bool kswapd_wanted;
	bool in_reclaim;		/* no nested reclaim from allocations */
	bool oom;			/* an allocation failed; no reclaim until a page is freed */
	uint64_t next_stats_flush;	/* trace time of the next periodic rstat flush, 0: none */
	bool stats_ever_flushed;	/* until then memcg stats read exact (memcg-stats.c) */

	/* the multi-gen LRU (lru_gen.c, lru_gen_evict.c) */
	bool in_lru_fault;		/* current->in_lru_fault: a fault with recency runs */
	bool insert_cached;		/* insert_folio(): a folio the kernel had cached, no refault */
	bool lru_gen_walk;		/* reclaim has a walk context (set_mm_walk()) */
	uint64_t memcg_lru_seq;		/* pgdat->memcg_lru.seq */
	uint32_t memcg_lru_head[MEMCG_NR_GENS][MEMCG_NR_BINS];
	uint32_t memcg_lru_tail[MEMCG_NR_GENS][MEMCG_NR_BINS];
	uint32_t memcg_lru_nr[MEMCG_NR_GENS];
	uint64_t rng;			/* get_random_u32_below()'s stand-in: seeded, lru_gen_seed */
	uint64_t nr_min_ttl_oom;	/* lru_gen_age_node() would have called the OOM killer */
	/* the walk's statistics, as debugfs lru_gen_full's mm_stats name them */
	uint64_t walk_leaf_total, walk_leaf_young, walk_nonleaf_found, walk_nonleaf_added;
	uint64_t look_young;		/* young PTEs look-around cleared (the folio's own too) */
	uint64_t damon_regions;		/* damon_region events with accesses (damon.c) */
	uint64_t damon_young;		/* pages they made young */
	uint64_t damon_checked;		/* young PTEs DAMON's checks moved to PG_idle_young */
	uint64_t idle_scans;		/* pte_young events (idle.c) */
	uint64_t idle_young;		/* folios they found accessed, moved to PG_idle_young */
	uint64_t idle_faults;		/* their pages the model had resident, not mapped: mapped */
	uint64_t idle_absent;		/* their pages the model had not resident: left out */

	/* counters */
	uint64_t ev[NR_VM_EVENTS];
	uint64_t cost[NR_COST_OPS];
	uint64_t pvec_pages, pvec_pages_peak, pvec_pages_at_exit;
	uint64_t stranded, stranded_peak, stranded_at_exit;
	uint64_t nr_vmscan_write, nr_events, nr_ignored;
	bool finished;
	int error;

	/* rf_model_set_decision_cb(): who is told of each folio's fate (model_decide()) */
	rf_model_decision_cb decide_cb;
	void *decide_ctx;
};

/* model.c: tell the decision callback, if there is one, about page @p */
void model_decide_page(struct rf_model *m, enum rf_model_decision d, const struct rf_page *p);
static inline void model_decide(struct rf_model *m, enum rf_model_decision d,
				const struct rf_page *p)
{
	if (m->decide_cb)
		model_decide_page(m, d, p);
}

static inline struct rf_page *P(struct rf_model *m, uint32_t idx)
{
	return &m->pages[idx];
}

/*
 * How an allocation may fail.  RF_GFP_KERNEL: after all its retries the page
 * is given anyway (the model kills nothing).  RF_GFP_READAHEAD,
 * readahead_gfp_mask() (include/linux/pagemap.h): __GFP_NORETRY, the page
 * allocator gives up after one direct reclaim round (alloc_pages()), and so
 * does the memcg charge from v4.7 (ra_charge_noretry); before, the charge
 * was GFP_KERNEL's, which in a read or fault fails after all its retries
 * (try_charge()).  A readahead folio that fails is not added.
 */
enum rf_gfp { RF_GFP_KERNEL, RF_GFP_READAHEAD };

static inline void count_memcg_event(struct rf_model *m, uint32_t memcg, enum rf_vm_event ev,
				     uint64_t n)
{
	m->memcgs[memcg]->ev[ev] += n;
}

static inline unsigned int page_shift(const struct rf_model *m)
{
	return __builtin_ctz(m->cfg.page_size);
}

/* The multi-gen LRU is on (lru_gen.h): its paths replace the classic lists' where the kernel's do. */
static inline bool lru_gen_on(const struct rf_model *m)
{
	return m->p->lru_gen_caps & LRU_GEN_CAP_CORE;
}

/* One operation @op (n times) of the cost model, vmstat.h. */
static inline void cost_add(struct rf_model *m, enum rf_cost_op op, uint64_t n)
{
	m->cost[op] += n;
}

#endif /* REFAULT_MODEL_LOCAL_H */
