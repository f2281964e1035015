/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Readahead: mm/readahead.c (page_cache_ra_order(), page_cache_ra_unbounded(),
 * v6.18; __do_page_cache_readahead(), v4.6.2), and the model's delivery of
 * file_readahead events: each is held until the read or fault it was for,
 * which says which folios the reader held while it ran (filemap_fault(),
 * filemap_get_pages()).
 */
#include "model-local.h"

/*
 * A file_readahead reference: page_cache_ra_order() (v6.18 mm/readahead.c)
 * brings the range in folios of the order given, smaller where the index is
 * not aligned to it or the folio would pass the range's end.  Each goes
 * through filemap_add_folio(): the memcg charge (which may reclaim),
 * workingset_refault() against the shadow it replaces, folio_add_lru()
 * through the per-CPU batch; none is marked accessed (the read or fault that
 * follows touches what it uses).  Where a folio's range is already (partly)
 * cached, filemap_add_folio() fails with -EEXIST: page_cache_ra_order()
 * stops there and leaves the rest of the window to do_page_cache_ra(), which
 * reads base pages and skips each present one (page_cache_ra_unbounded()).
 * Profiles without large file folios read ahead base pages
 * (__do_page_cache_readahead(), v4.6.2).
 */
static void file_readahead(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr,
			   unsigned int order, uint32_t memcg)
{
	uint64_t i = index, end;

	if (nr > UINT64_MAX - index)
		nr = UINT64_MAX - index;
	end = index + nr;
	if (!m->p->large_file_folios)
		order = 0;
	while (i < end && !m->error) {
		unsigned int o = order;
		uint64_t len;

		while (o && ((i & ((1ull << o) - 1)) || end - i < (1ull << o)))
			o--;
		len = 1ull << o;
		if (range_free(m, mapping, i, len)) {
			uint32_t idx = insert_folio(m, mapping, i, o, memcg, false);

			if (idx != RF_NIL)
				P(m, idx)->flags |= PG_locked;
		} else if (o) {
			order = 0;	/* -EEXIST: base pages from here on, this slot included */
			continue;
		}
		i += len;
	}
}

/* The folios of [index, index + nr) that a readahead locked, unlocked: its reads complete. */
static void unlock_range(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr)
{
	uint64_t i = index, end = index + nr;

	while (i < end) {
		uint32_t idx = xa_lookup_page(m, mapping, i);

		if (idx == RF_NIL) {
			i++;
			continue;
		}
		P(m, idx)->flags &= ~PG_locked;
		i = P(m, idx)->index + page_nr(P(m, idx));
	}
}

/*
 * The folios the read or fault @next holds while the readahead it started
 * runs: filemap_fault() found the folio (filemap_get_folio() takes a
 * reference) and calls do_async_mmap_readahead() before it locks it;
 * filemap_get_pages() holds its batch of cached folios (up to PAGEVEC_SIZE,
 * from the read's first page to the first hole) across filemap_readahead().
 * Reclaim meets them with that extra reference and __remove_mapping()'s
 * folio_ref_freeze() fails: kept (v6.18 shrink_folio_list(); the same in
 * v4.6.2).  A read or fault whose first page is not cached started a
 * synchronous readahead and holds nothing.  Returns how many it pinned.
 */
static uint32_t pin_reader(struct rf_model *m, const struct rf_event *next, uint32_t mapping,
			   uint32_t *pinned)
{
	uint64_t i = next->u.file.index;
	uint64_t end = next->type == RF_EV_FILE_FAULT ? i + 1 : i + clamp_range(next->u.file.nr);
	uint32_t n = 0;

	if (end <= i)
		end = i + 1;
	while (i < end && n < RA_PIN_MAX) {
		uint32_t idx = xa_lookup_page(m, mapping, i);
		struct rf_page *p;

		if (idx == RF_NIL)
			break;
		p = P(m, idx);
		if (!(p->flags & PG_pinned)) {
			p->flags |= PG_pinned;
			pinned[n++] = idx;
		}
		i = p->index + page_nr(p);
	}
	return n;
}

static bool same_file(const struct rf_event *a, const struct rf_event *b)
{
	return a->pid == b->pid && a->u.file.dev == b->u.file.dev && a->u.file.ino == b->u.file.ino;
}

/*
 * Run the file_readahead events held so far.  The recorder writes a
 * readahead just before the read or fault it was for (docs/recording.md),
 * so @next, the next event the model acts on, says which folios the reader
 * held meanwhile (pin_reader()).  Every folio the readaheads add stays
 * locked until all of them are done: page_cache_ra_order() adds its folios
 * locked and submits their reads at the end (read_pages()), and the reads
 * complete after that, so reclaim the readahead's own charges run skips them.
 * SIMPLIFIED: the model completes those reads when the readahead is over; in
 * the kernel they complete some time later, which the trace does not say.
 */
void ra_release(struct rf_model *m, const struct rf_event *next)
{
	uint32_t pinned[RA_PIN_MAX], nr_pinned = 0, i, n = m->nr_ra_held, cpu = m->cur_cpu;
	uint32_t mapping = RF_NONE;

	m->nr_ra_held = 0;
	if (next && (next->type == RF_EV_FILE_FAULT || next->type == RF_EV_FILE_READ) &&
	    same_file(&m->ra_held[0].ev, next)) {
		mapping = mapping_find(m, MAPPING_FILE, next->u.file.dev, next->u.file.ino);
		if (mapping != RF_NONE)
			nr_pinned = pin_reader(m, next, mapping, pinned);
	}
	for (i = 0; i < n && !m->error; i++) {
		const struct rf_held_ra *h = &m->ra_held[i];

		m->cur_cpu = h->cpu;
		mapping = file_mapping(m, h->ev.u.file.dev, h->ev.u.file.ino);
		if (mapping != RF_NONE)
			file_readahead(m, mapping, h->ev.u.file.index,
				       h->ev.u.file.nr ? clamp_range(h->ev.u.file.nr) : 1,
				       clamp_order(h->ev.u.file.order), h->memcg);
	}
	for (i = 0; i < n && !m->error; i++) {
		const struct rf_event *ev = &m->ra_held[i].ev;

		mapping = mapping_find(m, MAPPING_FILE, ev->u.file.dev, ev->u.file.ino);
		if (mapping != RF_NONE)
			unlock_range(m, mapping, ev->u.file.index,
				     ev->u.file.nr ? clamp_range(ev->u.file.nr) : 1);
	}
	for (i = 0; i < nr_pinned; i++)
		P(m, pinned[i])->flags &= ~PG_pinned;
	m->cur_cpu = cpu;
}

/* Hold a file_readahead for the event after it (ra_release()). */
void ra_hold(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	struct rf_held_ra *h;

	if (m->nr_ra_held == RA_HOLD_MAX ||
	    (m->nr_ra_held && !same_file(&m->ra_held[0].ev, ev)))
		ra_release(m, NULL);
	h = &m->ra_held[m->nr_ra_held++];
	h->ev = *ev;
	h->memcg = memcg;
	h->cpu = m->cur_cpu;
}
