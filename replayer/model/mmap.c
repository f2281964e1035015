/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Address spaces: the model's mm table and its vmas (mm/mmap.c: mmap_region(),
 * do_munmap(), exit_mmap(); kernel/fork.c: mmput()).  A vma is kept only for
 * what the rules need from it: the file it maps (zap, MADV_PAGEOUT) and its
 * protection (VM_EXEC for file faults).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "model-local.h"
#include "lru.h"
#include "mm.h"
#include "pagecache.h"

/* The mm @mm, or NULL if no event made it. */
struct rf_mm *mm_find(const struct rf_model *m, uint64_t mm)
{
	uint32_t i = id_map_find(&m->mm_index, mm);

	return i == RF_NONE ? NULL : &m->mms[i];
}

/* The mm @mm, made (with its anonymous mapping) at its first use; NULL without memory. */
struct rf_mm *mm_get(struct rf_model *m, uint64_t mm)
{
	struct rf_mm *x = mm_find(m, mm);

	if (x)
		return x;
	if (RF_GROW(m->mms, m->cap_mms, m->nr_mms + 1))
		return NULL;
	x = &m->mms[m->nr_mms];
	memset(x, 0, sizeof(*x));
	x->mm = mm;
	x->anon_mapping = mapping_get(m, MAPPING_ANON, 0, mm);
	if (x->anon_mapping == RF_NONE || id_map_put(&m->mm_index, mm, m->nr_mms))
		return NULL;
	return &m->mms[m->nr_mms++];
}

/* The vma of @x mapping file (@dev, @ino) at page @index, or NULL. */
const struct rf_vma *find_file_vma(const struct rf_mm *x, uint32_t dev, uint64_t ino,
				   uint64_t index, unsigned int shift)
{
	uint32_t i;

	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint64_t pages = (v->end - v->start) >> shift;

		if (v->ino == ino && v->dev == dev && index >= v->pgoff && index < v->pgoff + pages)
			return v;
	}
	return NULL;
}

static void vma_remove_range(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	uint32_t i;

	for (i = 0; i < x->nr_vmas;) {
		struct rf_vma *v = &x->vmas[i];

		if (end <= v->start || start >= v->end) {
			i++;
			continue;
		}
		if (start <= v->start && end >= v->end) {
			x->vmas[i] = x->vmas[--x->nr_vmas];
			continue;
		}
		if (start > v->start && end < v->end) {
			struct rf_vma tail = *v;

			tail.pgoff += (end - v->start) >> page_shift(m);
			tail.start = end;
			v->end = start;
			if (RF_GROW(x->vmas, x->cap_vmas, x->nr_vmas + 1)) {
				m->error = RF_ERR_NOMEM;
				return;
			}
			x->vmas[x->nr_vmas++] = tail;
			return;
		}
		if (start <= v->start) {
			v->pgoff += (end - v->start) >> page_shift(m);
			v->start = end;
		} else {
			v->end = start;
		}
		i++;
	}
}

/* exit_mmap(), v4.6.2: drain this CPU, then unmap and free everything */
static void exit_mmap(struct rf_model *m, struct rf_mm *x)
{
	lru_add_drain(m);
	zap_range(m, x, 0, UINT64_MAX);
	x->nr_vmas = 0;
	file_ptes_free(x);
}

/* mmput(), kernel/fork.c: the last user gone, exit_mmap(). */
void mm_put(struct rf_model *m, uint64_t mm)
{
	struct rf_mm *x = mm_find(m, mm);

	if (!x)
		return;
	if (x->users > 1) {
		x->users--;
		return;
	}
	x->users = 0;
	exit_mmap(m, x);
}

/* mmap_region(): the new vma of @ev over [@start, @end) replaces what the range held. */
void mmap_region(struct rf_model *m, struct rf_mm *x, const struct rf_event *ev, uint64_t start,
		 uint64_t end)
{
	vma_remove_range(m, x, start, end);
	if (RF_GROW(x->vmas, x->cap_vmas, x->nr_vmas + 1)) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	x->vmas[x->nr_vmas++] = (struct rf_vma){
		.start = start, .end = end, .ino = ev->u.vma.ino, .pgoff = ev->u.vma.pgoff,
		.dev = ev->u.vma.dev, .prot = ev->u.vma.prot, .flags = ev->u.vma.flags,
	};
}

/*
 * madvise_vma_behavior() (v6.12; madvise_behavior(), v4.6): MADV_SEQUENTIAL,
 * MADV_RANDOM and MADV_NORMAL set or clear VM_SEQ_READ / VM_RAND_READ on the
 * range, splitting the vmas it cuts (split_vma()).
 */
void vma_set_read_hint(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end,
		       uint8_t hint)
{
	uint32_t i, n = x->nr_vmas;

	for (i = 0; i < n; i++) {
		struct rf_vma v = x->vmas[i], out;

		if (end <= v.start || start >= v.end)
			continue;
		if (start > v.start || end < v.end) {
			if (RF_GROW(x->vmas, x->cap_vmas, x->nr_vmas + 2)) {
				m->error = RF_ERR_NOMEM;
				return;
			}
		}
		if (start > v.start) {	/* the part before start keeps its hint */
			out = v;
			out.end = start;
			x->vmas[x->nr_vmas++] = out;
			v.pgoff += (start - v.start) >> page_shift(m);
			v.start = start;
		}
		if (end < v.end) {	/* and the part after end */
			out = v;
			out.start = end;
			out.pgoff += (end - v.start) >> page_shift(m);
			x->vmas[x->nr_vmas++] = out;
			v.end = end;
		}
		v.read_hint = hint;
		x->vmas[i] = v;
	}
	if (hint)
		x->read_hints = true;
}

/* The read hint of the vma of @x holding @addr (0: none, or no such vma). */
uint8_t vma_read_hint(const struct rf_mm *x, uint64_t addr)
{
	uint32_t i;

	if (!x->read_hints)
		return 0;
	for (i = 0; i < x->nr_vmas; i++)
		if (addr >= x->vmas[i].start && addr < x->vmas[i].end)
			return x->vmas[i].read_hint;
	return 0;
}

/*
 * Every slot of the pages @x maps in [@start, @end): file pages through its
 * vmas, then anonymous ones by address (madvise.c, damon.c).
 */
void mm_for_each_range(struct rf_model *m, const struct rf_mm *x, uint64_t start, uint64_t end,
		       xa_visit_fn fn, void *ctx)
{
	unsigned int shift = page_shift(m);
	uint32_t i, mp;

	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint64_t s = start > v->start ? start : v->start;
		uint64_t e = end < v->end ? end : v->end;

		if (!v->ino || s >= e)
			continue;
		mp = mapping_find(m, MAPPING_FILE, v->dev, v->ino);
		if (mp != RF_NONE)	/* a pgoff that wraps gives last < first: nothing */
			xa_for_each_range(m, mp, v->pgoff + ((s - v->start) >> shift),
					  v->pgoff + ((e - v->start - 1) >> shift), fn, ctx);
	}
	xa_for_each_range(m, x->anon_mapping, start >> shift, (end - 1) >> shift, fn, ctx);
}

/* do_munmap(), v4.6.2: unmap_region() drains this CPU and zaps the range; its vmas go. */
void do_munmap(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	lru_add_drain(m);	/* unmap_region() */
	zap_range(m, x, start, end);
	vma_remove_range(m, x, start, end);
}
