/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * damon_region events (`refault record --damon`): what DAMON's sampling of
 * the recorded process's accessed bits saw, given back to the mapped pages
 * as the young PTE bit a reference sets without a fault (the bit that
 * folio_referenced() (vmscan.c), lru_gen_look_around() and the multi-gen
 * page-table walk (lru_gen_walk.c) read and clear).
 *
 * DAMON (mm/damon/vaddr.c, v5.15+: damon_va_prepare_access_checks(),
 * damon_va_check_accesses()) checks one random page per region each sampling
 * interval; nr_accesses of max_nr_accesses checks found it accessed since the
 * previous one.  So k / N estimates the chance that a page of the region is
 * referenced within one sampling interval, and, taking the intervals as
 * independent, q = 1 - (1 - k / N)^N the chance that it was referenced at
 * least once during the aggregation interval the event closes: each resident
 * mapped page of the region is made young with probability q.  The draw is a
 * hash of the event's time, the mapping and the page index, so a replay is
 * the same whatever the threads and configurations beside it.  The event
 * comes at the end of its interval, so a reclaim inside the interval sees the
 * bits one interval late.  A region with no access sets nothing: it does not
 * say that pages were not referenced before it.  `--set damon=off` ignores
 * the events.
 */
#include "model-local.h"

struct damon_visit {
	uint64_t salt;
	uint64_t threshold;	/* a page is young when its draw is at most this */
};

/* A page (or a slot of a large folio) of the region: young if mapped and drawn. */
static void damon_young(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	const struct damon_visit *v = ctx;
	struct rf_page *p;

	if ((e & SLOT_TAG_MASK) != SLOT_PAGE && (e & SLOT_TAG_MASK) != SLOT_TAIL)
		return;	/* a shadow or swap entry: not resident */
	p = P(m, (uint32_t)(e >> 2));
	if (!p->mapcount || (p->flags & PG_orphan))
		return;
	if (v->threshold != UINT64_MAX && rf_hash2(v->salt, index) > v->threshold)
		return;
	m->damon_young++;
	p->flags |= PG_young;
}

/* @x to the power @n by squaring: the same double on every machine (IEEE 754, no libm). */
static double powi(double x, uint32_t n)
{
	double r = 1.0;

	for (; n; n >>= 1, x *= x)
		if (n & 1)
			r *= x;
	return r;
}

/* q of the comment above, as a threshold on a 64-bit draw. */
static uint64_t young_threshold(uint32_t k, uint32_t n)
{
	double q;

	if (!n || k >= n)
		return UINT64_MAX;
	q = (1.0 - powi(1.0 - (double)k / n, n)) * 18446744073709551616.0;	/* x 2^64 */
	return q >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)q;
}

void damon_region(struct rf_model *m, const struct rf_event *ev)
{
	const struct rf_mm *x = mm_find(m, ev->u.damon.mm);
	unsigned int shift = page_shift(m);
	uint64_t start = ev->u.damon.start, end = ev->u.damon.end;
	struct damon_visit v;
	uint32_t i, mapping;

	if (!m->cfg.damon || !ev->u.damon.nr_accesses || !x || end <= start) {
		m->nr_ignored++;
		return;
	}
	m->damon_regions++;
	v.threshold = young_threshold(ev->u.damon.nr_accesses, ev->u.damon.max_nr_accesses);
	/* anonymous pages by address; a page-aligned range [first, last] */
	v.salt = rf_hash2(ev->time, x->anon_mapping);
	if (end - start >= 1ull << shift)
		xa_for_each_range(m, x->anon_mapping, start >> shift, ((end - 1) >> shift),
				  damon_young, &v);
	/* file pages through the vmas mapping them */
	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *a = &x->vmas[i];
		uint64_t lo = a->start > start ? a->start : start;
		uint64_t hi = a->end < end ? a->end : end;

		if (!a->ino || hi <= lo || hi - lo < 1ull << shift)
			continue;
		mapping = mapping_find(m, MAPPING_FILE, a->dev, a->ino);
		if (mapping == RF_NONE)
			continue;
		v.salt = rf_hash2(ev->time, mapping);
		lo = a->pgoff + ((lo - a->start) >> shift);
		hi = a->pgoff + ((hi - 1 - a->start) >> shift);
		if (hi >= lo)	/* pgoff + offset could wrap on a hostile vma */
			xa_for_each_range(m, mapping, lo, hi, damon_young, &v);
	}
}
