/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Processes and their address spaces: tasks (fork.c, kernel/fork.c), mms and
 * vmas (mmap.c), faults and unmaps (memory.c), madvise() (madvise.c), DAMON's
 * samples (damon.c) and THP splits (huge_memory.c): the kernel's
 * include/linux/mm.h side of the model.  Anonymous memory lives in the page
 * index (pagecache.h) under the mm's own mapping (MAPPING_ANON, index =
 * address >> PAGE_SHIFT).
 */
#ifndef REFAULT_MODEL_MM_H
#define REFAULT_MODEL_MM_H

#include "model-local.h"
#include "pagecache.h"

struct rf_vma {
	uint64_t start, end;		/* bytes */
	uint64_t ino, pgoff;
	uint32_t dev, prot, flags;
	uint8_t read_hint;		/* madvise(): RF_REF_SEQ (VM_SEQ_READ), RF_REF_RAND (VM_RAND_READ) */
};

/* MAP_SHARED (MAP_SHARED_VALIDATE too) in .flags, the mmap()'s as the trace has them */
#define VMA_MAP_SHARED	0x01u

struct rf_mm {
	uint64_t mm;
	uint32_t anon_mapping;
	uint32_t users;
	bool lru_gen_walked;		/* on a memcg's mm list since its last walk (lru_gen_walk.c) */
	bool read_hints;		/* a vma of it has had MADV_SEQUENTIAL or MADV_RANDOM */
	bool born;			/* made by an exec or a fork the trace has: all its pages are in it */
	struct rf_vma *vmas;
	uint32_t nr_vmas;
	size_t cap_vmas;
	/*
	 * Its page tables' file entries: a folio (file_pte_key() -> page slab
	 * index) this mm has a PTE of; memory.c, file_pte_map()
	 */
	struct id_map file_ptes;
	size_t file_ptes_sweep;		/* the count at which its stale entries go */
};

/* A task (m->pids[], found by pid through m->pid_index). */
struct rf_pid {
	uint32_t memcg;
	uint64_t mm;
};

/* ---------------------------------------------------------------- tasks */

/* The memcg @pid charges: the root for an unknown task or one left in a removed cgroup. */
uint32_t task_memcg(struct rf_model *m, int32_t pid);
/* The task @pid, made (in the root memcg, no mm) at its first use; NULL without memory. */
struct rf_pid *pid_get(struct rf_model *m, int32_t pid);
/* A FORK, EXEC, EXIT or NAME_PID event (fork.c says what each does). */
void task_event(struct rf_model *m, const struct rf_event *ev);

/* ---------------------------------------------------------- mms, vmas */

/*
 * A fault maps file folio @idx in @x (NULL: an mm the trace did not name):
 * a PTE of its own if @x had none of that folio (mapcount + 1), young
 * (map_page()); where it had one, that PTE is made young again.  A
 * fault-around over a folio @x maps already maps nothing: file_fault()
 * returns before (file_pte_mapped()).
 */
void file_pte_map(struct rf_model *m, struct rf_mm *x, uint32_t idx, uint8_t flags, bool exec);
/* Is the folio at (@mapping, @index) mapped by a PTE of @x? */
bool file_pte_mapped(struct rf_model *m, struct rf_mm *x, uint32_t mapping, uint64_t index);
/* @x's mm is gone: its PTEs' table freed. */
void file_ptes_free(struct rf_mm *x);

/* The mm @mm, made (with its anonymous mapping) at its first use; NULL without memory. */
struct rf_mm *mm_get(struct rf_model *m, uint64_t mm);
/* The mm @mm, or NULL if no event made it. */
struct rf_mm *mm_find(const struct rf_model *m, uint64_t mm);
/* mmput(): one user less; the last gone, exit_mmap() unmaps and frees everything. */
void mm_put(struct rf_model *m, uint64_t mm);
/* The vma of @x mapping file (@dev, @ino) at page @index (pages of 2^@shift bytes), or NULL. */
const struct rf_vma *find_file_vma(const struct rf_mm *x, uint32_t dev, uint64_t ino,
				   uint64_t index, unsigned int shift);
/* mmap_region(): the new vma of @ev over [@start, @end) replaces what the range held. */
void mmap_region(struct rf_model *m, struct rf_mm *x, const struct rf_event *ev, uint64_t start,
		 uint64_t end);
/* do_munmap(): the range drained and zapped, its vmas gone. */
void do_munmap(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end);
/* MADV_SEQUENTIAL / MADV_RANDOM / MADV_NORMAL: the vmas' read hint @hint on the range (split). */
void vma_set_read_hint(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end,
		       uint8_t hint);
/* The read hint of the vma of @x holding @addr (0: none, or no such vma). */
uint8_t vma_read_hint(const struct rf_mm *x, uint64_t addr);
/* @fn for every slot of the pages @x maps in [@start, @end): file pages, then anonymous ones. */
void mm_for_each_range(struct rf_model *m, const struct rf_mm *x, uint64_t start, uint64_t end,
		       xa_visit_fn fn, void *ctx);

/* ------------------------------------------------------- faults, unmaps */

/* A fault maps @page: one more PTE, young, dirty on a write (@flags RF_REF_*; @exec VM_EXEC). */
void map_page(struct rf_model *m, uint32_t page, uint8_t flags, bool exec);
/* What anon_touch() is given. */
enum anon_touch_kind {
	ANON_ACCESS,		/* a synthetic access: a use of the page, no fault counted */
	ANON_FAULT,		/* a fault */
	ANON_FAULT_ZERO,	/* a fault in an mm whose every page the trace has: a read of an
				 * empty slot maps the zero page */
};

/*
 * An access to anonymous page @index of @mapping: present, its PTE young;
 * on swap, do_swap_page(); a read fault (ANON_FAULT_ZERO) of an empty slot,
 * the zero page; else a new page (folio of 2^@order where the range is
 * free) charged to @memcg.
 */
void anon_touch(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		uint8_t flags, uint32_t memcg, enum anon_touch_kind kind);
/* unmap_page_range() on [@start, @end) of @x: the file pages its vmas map, then its anon memory. */
void zap_range(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end);
/* do_madvise(): @advice (MADV_*) on [@start, @end) of @x. */
void do_madvise(struct rf_model *m, struct rf_mm *x, uint32_t advice, uint64_t start, uint64_t end);
/* A damon_region event: DAMON's accessed-bit samples make the region's pages young. */
void damon_region(struct rf_model *m, const struct rf_event *ev);
/* A pte_young event: a scan's accessed pages, mapped where they were not, their bits moved (idle.c). */
void pte_young(struct rf_model *m, const struct rf_event *ev);
/* split_huge_page(): large folio @page into base pages on its lists; RF_ERR_NOMEM. */
int split_huge_page(struct rf_model *m, uint32_t page);

#endif /* REFAULT_MODEL_MM_H */
