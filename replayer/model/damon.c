/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon_region events (`refault record --damon`): what DAMON's sampling of
 * the recorded process's accessed bits saw, given back to the mapped pages
 * as the young PTE bit a reference sets without a fault (the bit that
 * folio_referenced() (vmscan.c), lru_gen_look_around() and the multi-gen
 * page-table walk (lru_gen_walk.c) read and clear), and what DAMON's own
 * checks do to those bits.
 *
 * DAMON (mm/damon/vaddr.c, v5.15+: damon_va_prepare_access_checks(),
 * damon_va_check_accesses(); mm/damon/ops-common.c damon_ptep_mkold()) checks
 * one random address of the region each sampling interval: accessed if its
 * PTE was young, which the check then clears, moving the bit to the folio's
 * PG_young.  nr_accesses = k of max_nr_accesses = N checks hit, so k / N
 * estimates the fraction of the region's pages (its whole span: an address
 * with no page is never accessed) whose PTE is young.  The model brings the
 * region to that: with R pages in the span, Y of its resident mapped pages
 * young, and M of them not, each of the M becomes young with the chance
 * (k R / N - Y) / M, when that is positive (a fault has already made young
 * what DAMON saw of a stream).  Then DAMON's k hits: k of the young pages
 * (each with the chance k / young) lose the PTE bit to PG_idle_young, which
 * folio_referenced() counts (folio_test_clear_young()) but the multi-gen
 * page-table walk, which reads PTEs alone (walk_pte_range()), does not.
 * Draws are a hash of the event's time, the mapping and the page index, so a
 * replay is the same whatever the threads and configurations beside it.  The
 * event comes at the end of its interval: reclaim inside the interval sees
 * the bits up to one interval late.  `--set damon=off` ignores the events.
 */
#include "model-local.h"
#include "mm.h"
#include "pagecache.h"

enum damon_pass { DAMON_COUNT, DAMON_MARK, DAMON_CHECK };

struct damon_visit {
	enum damon_pass pass;
	uint64_t time;		/* the event's: with the page's mapping and index, its draw */
	uint64_t threshold;	/* MARK, CHECK: a page is picked when its draw is at most this */
	uint64_t young, old;	/* COUNT: resident mapped pages of the region, young or not */
};

/* A page (or a slot of a large folio) of the region, resident and mapped: one pass's work. */
static void damon_visit(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct damon_visit *v = ctx;
	struct rf_page *p;
	bool picked;

	if ((e & SLOT_TAG_MASK) != SLOT_PAGE && (e & SLOT_TAG_MASK) != SLOT_TAIL)
		return;	/* a shadow or swap entry: not resident */
	p = P(m, (uint32_t)(e >> 2));
	if (!p->mapcount || (p->flags & PG_orphan))
		return;
	picked = v->threshold == UINT64_MAX ||
		 rf_hash2(rf_hash2(v->time, p->mapping) ^ v->pass, index) <= v->threshold;
	switch (v->pass) {
	case DAMON_COUNT:
		if (p->flags & PG_young)
			v->young++;
		else
			v->old++;
		break;
	case DAMON_MARK:
		if (!(p->flags & PG_young) && picked) {
			p->flags |= PG_young;
			m->damon_young++;
			v->young++;
		}
		break;
	case DAMON_CHECK:
		if ((p->flags & PG_young) && picked) {
			p->flags = (p->flags & ~PG_young) | PG_idle_young;
			m->damon_checked++;
		}
		break;
	}
}

/* The chance @num / @den as a threshold on a 64-bit draw (UINT64_MAX: always). */
static uint64_t chance(double num, double den)
{
	double q;

	if (num >= den)
		return UINT64_MAX;
	q = num / den * 18446744073709551616.0;	/* x 2^64 */
	return q >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)q;
}

void damon_region(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_mm *x = mm_find(m, ev->u.damon.mm);
	uint64_t start = ev->u.damon.start, end = ev->u.damon.end;
	uint32_t k = ev->u.damon.nr_accesses, n = ev->u.damon.max_nr_accesses;
	struct damon_visit v = { .pass = DAMON_COUNT, .time = ev->time };
	double span, want;

	if (!m->cfg.damon || !k || !x || end <= start || end - start < 1ull << page_shift(m)) {
		m->nr_ignored++;
		return;
	}
	m->damon_regions++;
	if (!n || k > n)
		k = n = 1;	/* a count past its samples: every check hit */
	mm_for_each_range(m, x, start, end, damon_visit, &v);
	span = (double)((end - start) >> page_shift(m));
	want = (double)k * span / n - (double)v.young;
	if (want > 0 && v.old) {
		v.pass = DAMON_MARK;
		v.threshold = chance(want, (double)v.old);
		mm_for_each_range(m, x, start, end, damon_visit, &v);
	}
	if (v.young) {
		v.pass = DAMON_CHECK;
		v.threshold = chance(k, (double)v.young);
		mm_for_each_range(m, x, start, end, damon_visit, &v);
	}
}
