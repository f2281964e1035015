/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Readahead: mm/readahead.c (page_cache_ra_order(), page_cache_ra_unbounded(),
 * v6.18; __do_page_cache_readahead(), v4.6.2), and the model's delivery of
 * file_readahead events: each is held until the read or fault it was for,
 * which says which folios the reader held while it ran (filemap_fault(),
 * filemap_get_pages()); and when the reads it submitted complete.
 */
#include "model-local.h"
#include "filemap.h"
#include "pagecache.h"
#include "readahead.h"

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
 * (__do_page_cache_readahead(), v4.6.2).  A folio whose allocation or
 * charge fails (readahead_gfp_mask(), new_page()) ends the readahead: in
 * page_cache_ra_order() a large one hands the rest to do_page_cache_ra()
 * as -EEXIST does, and there page_cache_ra_unbounded() stops at -ENOMEM
 * (v6.18) and __do_page_cache_readahead() at a failed allocation (v4.6.2).
 * SIMPLIFIED: after a failed charge v4.6.2's read_pages() and v5.10's
 * page_cache_ra_unbounded() go on to the next page; with the folios before
 * it still locked each attempt fails the same way, and only the counters of
 * those failed charges are missing.
 */
static void file_readahead(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr,
			   unsigned int order, uint32_t memcg)
{
	uint64_t i = index, end = index + nr;

	if (!m->p->large_file_folios)
		order = 0;
	while (i < end && !m->error) {
		unsigned int o = order;
		uint64_t len;

		while (o && ((i & ((1ull << o) - 1)) || end - i < (1ull << o)))
			o--;
		len = 1ull << o;
		if (range_free(m, mapping, i, len)) {
			uint32_t idx = insert_folio(m, mapping, i, o, memcg, false, RF_GFP_READAHEAD);

			if (idx != RF_NIL) {
				P(m, idx)->flags |= PG_locked;
			} else if (o) {
				order = 0;	/* page_cache_ra_order(): do_page_cache_ra() goes on */
				continue;
			} else {
				break;
			}
		} else if (o) {
			order = 0;	/* -EEXIST: base pages from here on, this slot included */
			continue;
		}
		i += len;
	}
}

/*
 * The readahead of [index, index + nr) at trace time @time is over: the
 * folios it added are submitted for read (read_pages(), v6.18; v4.6.2 the
 * same) and stay locked until each read completes, when the filesystem's
 * bio completion calls folio_end_read() (ext4: mpage_end_io(), v6.18;
 * unlock_page() in v4.6.2), which the trace does not record (ra_read_busy()).
 */
static void ra_submit_reads(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr,
			    uint64_t time)
{
	uint64_t i = index, end = index + nr;
	bool added = false;

	while (i < end) {
		uint32_t idx = xa_lookup_page(m, mapping, i);
		struct rf_page *p;

		if (idx == RF_NIL) {
			i++;
			continue;
		}
		p = P(m, idx);
		if (p->flags & PG_locked) {
			p->flags = (p->flags & ~PG_locked) | PG_reading;
			added = true;
		}
		i = p->index + page_nr(p);
	}
	if (added) {
		m->ra_reads[m->ra_reads_next] = (struct rf_ra_read){
			.index = index, .end = end, .time = time, .mapping = mapping };
		m->ra_reads_next = (m->ra_reads_next + 1) % RA_READS_MAX;
	}
}

/* The most recent readahead that covers @p's index, whose reads it is under. */
static struct rf_ra_read *ra_read_of(struct rf_model *m, const struct rf_page *p)
{
	uint32_t i, k = m->ra_reads_next;

	for (i = 0; i < RA_READS_MAX; i++) {
		struct rf_ra_read *r;

		k = (k + RA_READS_MAX - 1) % RA_READS_MAX;
		r = &m->ra_reads[k];
		if (r->mapping == p->mapping && r->end > r->index && p->index >= r->index &&
		    p->index < r->end)
			return r;
	}
	return NULL;
}

/*
 * Is the read of readahead folio @p still in flight?  Reclaim then cannot
 * lock it (folio_trylock() fails in shrink_folio_list(), v6.18;
 * trylock_page() in shrink_page_list(), v4.6.2) and keeps it.  When the
 * read completes the trace does not say (no event marks folio_end_read()).
 * It says when the reader got there: filemap_fault() waits for the folio's
 * lock (lock_folio_maybe_drop_mmap(), the fault retried once it is read)
 * and filemap_read() for its update (filemap_update_page()), so the first
 * read or fault of a readahead folio ends after its read completed; the
 * reader's first arrival in a readahead is the one most likely to have
 * waited for it (later ones include its reading of the folios before).
 * DECIDED: a readahead's reads take as long as, on the last readahead of
 * the same file a reader reached, the time from that readahead to the
 * first read or fault of one of its folios (ra_read_done()); before any
 * was reached, they complete when the readahead is over.  Each such time is
 * an upper bound of the read's (the reader may come long after the read
 * completed), so a shorter one is taken at once and a longer one an eighth
 * of the way: one readahead reached seconds later (a random reader's window
 * faulted long after) made every later readahead of the file unreclaimable
 * for seconds, and the model's reclaim scanned 11 million pages it could not
 * take (refault workload seed 29 on 6.18: pgscan_file 12.8 million against
 * the kernel's 3.8 million, when per-mm page tables let more fault-arounds
 * reach such folios first).  Past that time,
 * or once its readahead is no longer among the RA_READS_MAX last, the
 * folio is taken as read and unlocked.
 */
bool ra_read_busy(struct rf_model *m, struct rf_page *p)
{
	const struct rf_ra_read *r = ra_read_of(m, p);
	uint64_t took = m->mappings[p->mapping].ra_read_time;

	if (r && took && m->now < r->time + took)
		return true;
	p->flags &= ~PG_reading;
	return false;
}

/*
 * The first read or fault of readahead folio @p: its read is complete.  The
 * first of its readahead's folios reached says how long its reads took.
 */
void ra_read_done(struct rf_model *m, struct rf_page *p)
{
	struct rf_ra_read *r = ra_read_of(m, p);

	if (r && !r->reached) {
		uint64_t took = m->now > r->time ? m->now - r->time : 0;
		uint64_t *t = &m->mappings[p->mapping].ra_read_time;

		r->reached = true;
		*t = !*t || took <= *t ? took : *t + (took - *t) / 8;
	}
	p->flags &= ~PG_reading;
}

/*
 * The folios the read or fault @next holds while the readahead it started
 * runs: filemap_fault() found the folio (filemap_get_folio() takes a
 * reference) and calls do_async_mmap_readahead() before it locks it;
 * filemap_get_pages() holds its batch of cached folios (up to PAGEVEC_SIZE,
 * from the read's first page to the first hole: v5.10+, read_batch; before,
 * do_generic_file_read() held the one page) across filemap_readahead().
 * Reclaim meets them with that extra reference and __remove_mapping()'s
 * folio_ref_freeze() fails: kept (v6.18 shrink_folio_list(); the same in
 * v4.6.2).  A read or fault whose first page is not cached started a
 * synchronous readahead and holds nothing.  Returns how many it pinned.
 */
static uint32_t pin_reader(struct rf_model *m, const struct rf_event *next, uint32_t mapping,
			   uint32_t *pinned)
{
	uint64_t i = next->u.file.index;
	uint64_t end = i + (next->type == RF_EV_FILE_FAULT ? 1 : file_range(m, i, next->u.file.nr));
	uint32_t n = 0, max = m->p->read_batch ? m->p->pagevec_size : 1;

	while (i < end && n < max) {
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
 * complete after that, so reclaim the readahead's own charges run skips them;
 * and after it, until ra_read_busy() takes their reads as complete.  Each
 * readahead runs at its own event's time, which follows its page-cache adds
 * in the trace.
 */
void ra_release(struct rf_model *m, const struct rf_event *next)
{
	uint32_t pinned[RA_PIN_MAX], nr_pinned = 0, i, n = m->nr_ra_held, cpu = m->cur_cpu;
	uint32_t mapping = RF_NONE;
	uint64_t now = m->now;

	m->nr_ra_held = 0;
	if (next && (next->type == RF_EV_FILE_FAULT || next->type == RF_EV_FILE_READ) &&
	    same_file(&m->ra_held[0].ev, next)) {
		mapping = mapping_find(m, MAPPING_FILE, next->u.file.dev, next->u.file.ino);
		if (mapping != RF_NONE)
			nr_pinned = pin_reader(m, next, mapping, pinned);
		/*
		 * filemap_fault() (v4.6.2 to v6.18) counts PGMAJFAULT when its
		 * folio is not cached, then runs do_sync_mmap_readahead() (or, in
		 * a VM_RAND_READ mapping, adds the one folio itself): the trace
		 * has those adds first, so the miss is decided here, before them.
		 */
		if (mapping != RF_NONE && next->type == RF_EV_FILE_FAULT &&
		    !(next->u.file.flags & RF_REF_AROUND) &&
		    xa_lookup_page(m, mapping, next->u.file.index) == RF_NIL) {
			m->ra_fault_miss.mapping = mapping;
			m->ra_fault_miss.index = next->u.file.index;
			m->ra_fault_miss.set = true;
		}
	}
	/* a fault's readahead runs inside it: lru_gen_enter_fault() (v6.1+ handle_mm_fault()) */
	m->in_lru_fault = lru_gen_on(m) && next && next->type == RF_EV_FILE_FAULT &&
		!(file_fault_flags(m, next, NULL) & (RF_REF_SEQ | RF_REF_RAND));
	for (i = 0; i < n && !m->error; i++) {
		const struct rf_held_ra *h = &m->ra_held[i];

		m->cur_cpu = h->cpu;
		m->now = h->ev.time;
		mapping = file_mapping(m, h->ev.u.file.dev, h->ev.u.file.ino);
		if (mapping != RF_NONE)
			file_readahead(m, mapping, h->ev.u.file.index,
				       file_range(m, h->ev.u.file.index, h->ev.u.file.nr),
				       clamp_order(h->ev.u.file.order), h->memcg);
	}
	for (i = 0; i < n && !m->error; i++) {
		const struct rf_event *ev = &m->ra_held[i].ev;

		mapping = mapping_find(m, MAPPING_FILE, ev->u.file.dev, ev->u.file.ino);
		if (mapping != RF_NONE)
			ra_submit_reads(m, mapping, ev->u.file.index,
					file_range(m, ev->u.file.index, ev->u.file.nr), ev->time);
	}
	m->in_lru_fault = false;
	for (i = 0; i < nr_pinned; i++)
		P(m, pinned[i])->flags &= ~PG_pinned;
	m->cur_cpu = cpu;
	m->now = now;
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
