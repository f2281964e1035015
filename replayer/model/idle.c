/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pte_young events (`refault record --idle-pages`): the mapped pages a scan
 * of the recorded processes found accessed through their page tables since
 * the scan before, with no fault (mm/page_idle.c, v4.3+, CONFIG_IDLE_PAGE_
 * TRACKING: the recorder marks the pages idle, page_idle_bitmap_write() ->
 * page_idle_clear_pte_refs(); an access through a PTE sets its accessed bit,
 * which the next scan finds).  Each page, by its file and index or its
 * anonymous address:
 *   - resident and mapped in the model: a hit, no fault;
 *   - resident, not mapped: a minor fault maps it (the recording kernel had
 *     it mapped: fault-around, or a mapping the model does not know, such as
 *     the program's own image, which execve() maps with no mmap event);
 *   - not resident: counted (model.idle_absent); where the model evicted it
 *     (a shadow or a swap entry), faulted in, as the access would have
 *     under the model's policy (a file fault, or do_swap_page() for an
 *     anonymous page); idle_absent=skip leaves it alone.  The event comes
 *     at the scan, up to an interval after the access: where the kernel
 *     kept the page for its young PTE and the model, which learns of it
 *     only now, evicted it meanwhile, the fault is a refault the kernel
 *     never had; where the model's policy or limit is another kernel's, it
 *     is the refault that kernel had (docs/fidelity.md, "Idle page tracking across changes":
 *     memory.max 32M -> 24M on a random mmap workload, refaults kernel
 *     +64.8 %, model from the 32M recordings +63.1 % with fault; -3.5 %
 *     with skip on earlier recordings).
 * Then the scan's marking: it moves each young PTE bit to the folio's own
 * young flag (folio_set_young()), which folio_referenced() counts
 * (folio_test_clear_young()) and the multi-gen LRU's page-table walk, which
 * reads PTEs alone (walk_pte_range()), does not: PG_young moves to
 * PG_idle_young, as after DAMON's check (damon.c).  Reclaim between an
 * access and the scan sees the bit in the kernel, not in the model, so the
 * interval bounds the error.
 */
#include <stdlib.h>

#include "lib/grow.h"
#include "model-local.h"
#include "filemap.h"
#include "mm.h"
#include "pagecache.h"

/* A page (or a large folio's tail) in slot @e; 0 is an empty slot. */
static bool slot_resident(uint64_t e)
{
	return e && ((e & SLOT_TAG_MASK) == SLOT_PAGE || (e & SLOT_TAG_MASK) == SLOT_TAIL);
}

/* What a walk over a run's slots found. */
struct young_walk {
	uint64_t resident;	/* pages resident */
	uint64_t *unmapped;	/* file pages resident, not mapped: their indexes */
	size_t nr_unmapped, cap_unmapped;
	uint64_t *evicted;	/* pages the model evicted (a shadow, a swap entry): their indexes */
	size_t nr_evicted, cap_evicted;
	bool nomem;
};

/*
 * The scan's marking: the PTE bit of @p, a page the run found mapped, moves
 * to the folio's own young flag.
 */
static void mark_moved(struct rf_model *m, struct rf_page *p)
{
	if (!(p->flags & PG_idle_young))
		m->idle_young++;
	p->flags = (p->flags & ~PG_young) | PG_idle_young;
}

/* A slot of the run: only those the tree holds are visited, so a huge run costs its pages. */
static void young_visit(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct young_walk *w = ctx;
	struct rf_page *p;

	if (!slot_resident(e)) {
		/* a shadow or a swap entry: evicted, for idle_absent=fault */
		if (!e)
			return;
		if (RF_GROW(w->evicted, w->cap_evicted, w->nr_evicted + 1)) {
			w->nomem = true;
			return;
		}
		w->evicted[w->nr_evicted++] = index;
		return;
	}
	w->resident++;
	p = P(m, (uint32_t)(e >> 2));
	if (p->mapcount && !(p->flags & PG_orphan)) {
		mark_moved(m, p);
		return;
	}
	if (!page_is_file(p) || (e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;	/* a large folio's fault maps it from its head */
	if (RF_GROW(w->unmapped, w->cap_unmapped, w->nr_unmapped + 1)) {
		w->nomem = true;
		return;
	}
	w->unmapped[w->nr_unmapped++] = index;
}

/*
 * idle_absent=fault (the default): each page of the run the model evicted
 * (its slot holds a shadow or a swap entry) is faulted in, as the access
 * the scan saw would have faulted under the model's policy: filemap_fault()
 * for a file page (a major fault, a refault), do_swap_page() for an
 * anonymous one (anon_touch()).  A page of the run the model never held
 * (no slot at all) is left alone: its fault, if the recording kernel took
 * one, is in the trace; and a run, which a damaged trace may make as long
 * as the address space, then costs the slots the model has, not its length.
 */
static void fault_evicted(struct rf_model *m, const struct rf_event *ev, struct rf_mm *x,
			  const struct young_walk *w)
{
	uint32_t memcg = task_memcg(m, ev->pid);
	unsigned int shift = page_shift(m);
	size_t i;

	for (i = 0; i < w->nr_evicted && !m->error; i++) {
		m->idle_faults++;
		if (ev->u.young.ino) {
			struct rf_event f = { .time = ev->time, .cpu = ev->cpu, .pid = ev->pid,
					      .type = RF_EV_FILE_FAULT };

			f.u.file.dev = ev->u.young.dev;
			f.u.file.ino = ev->u.young.ino;
			f.u.file.index = w->evicted[i];
			f.u.file.mm = ev->u.young.mm;
			file_fault(m, &f, memcg);
		} else {
			anon_touch(m, x->anon_mapping, w->evicted[i], 0,
				   vma_read_hint(x, w->evicted[i] << shift), memcg, ANON_FAULT);
		}
	}
}

void pte_young(struct rf_model *m, const struct rf_event *ev)
{
	unsigned int shift = page_shift(m);
	uint64_t first = ev->u.young.start >> shift, nr, i;
	struct young_walk w = { 0 };
	struct rf_mm *x;

	if (ev->u.young.end <= ev->u.young.start) {
		m->nr_ignored++;
		return;
	}
	nr = ((ev->u.young.end - 1) >> shift) - first + 1;
	x = mm_get(m, ev->u.young.mm);
	if (!x) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	m->idle_scans++;
	if (ev->u.young.ino) {
		uint32_t mapping = mapping_find(m, MAPPING_FILE, ev->u.young.dev, ev->u.young.ino);

		nr = file_range(m, ev->u.young.index, nr);	/* past the largest file: none */
		if (mapping != RF_NONE && nr)
			xa_for_each_range(m, mapping, ev->u.young.index,
					  ev->u.young.index + nr - 1, young_visit, &w);
		/* resident only: a minor fault maps each, then the scan's marking */
		for (i = 0; i < w.nr_unmapped && !m->error; i++) {
			struct rf_event f = { .time = ev->time, .cpu = ev->cpu, .pid = ev->pid,
					      .type = RF_EV_FILE_FAULT };
			uint64_t e;

			f.u.file.dev = ev->u.young.dev;
			f.u.file.ino = ev->u.young.ino;
			f.u.file.index = w.unmapped[i];
			f.u.file.mm = ev->u.young.mm;
			file_fault(m, &f, task_memcg(m, ev->pid));
			m->idle_faults++;
			e = xa_load(m, mapping, w.unmapped[i]);
			if (slot_resident(e))
				mark_moved(m, P(m, (uint32_t)(e >> 2)));
		}
	} else {
		xa_for_each_range(m, x->anon_mapping, first, first + nr - 1, young_visit, &w);
	}
	if (w.nomem)
		m->error = RF_ERR_NOMEM;
	m->idle_absent += nr > w.resident ? nr - w.resident : 0;
	if (!m->cfg.idle_absent_skip && !m->error)
		fault_evicted(m, ev, x, &w);
	free(w.unmapped);
	free(w.evicted);
}
