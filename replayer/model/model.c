/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_model_new/feed/finish/free: the public entry points, and the kernel
 * paths each trace event stands for (shared/reference/linux-lru-model.md
 * §3a).  Every allocation takes a page from the node (watermarks, kswapd,
 * direct reclaim) and charges the memcg before the page becomes visible,
 * as do_anonymous_page() and add_to_page_cache_lru() do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MADV_DONTNEED	4
#define MADV_FREE	8
#define MADV_PAGEOUT	21
#define POSIX_FADV_DONTNEED	4
#define PROT_EXEC	4
#define MAX_ORDER_MODEL	9		/* PMD order: larger orders are taken as THPs */
#define MAX_RANGE_PAGES	(1ull << 24)	/* pages one read/write/fadvise event may cover */

static unsigned int clamp_order(unsigned int order)
{
	return order > MAX_ORDER_MODEL ? MAX_ORDER_MODEL : order;
}

static uint64_t clamp_range(uint64_t nr)
{
	return nr > MAX_RANGE_PAGES ? MAX_RANGE_PAGES : nr;
}

static unsigned int page_shift(const struct rf_model *m)
{
	return __builtin_ctz(m->cfg.page_size);
}

/* ------------------------------------------------------------- page life */

/*
 * The allocator (SIMPLIFIED, §4.10 of the reference): fast path above the
 * low watermark; else wake kswapd (which runs to completion now), retry at
 * the min watermark, then direct reclaim up to 16 rounds while it makes
 * progress.  A failure is counted as "oom" and the page is given anyway.
 */
int alloc_pages(struct rf_model *m, uint64_t nr)
{
	int tries;

	cost_add(m, COST_PAGE_ALLOC, 1);
	if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_low || m->in_reclaim || m->oom)
		goto take;
	wakeup_kswapd(m);
	kswapd_run(m);
	if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_min)
		goto take;
	for (tries = 0; tries < 16; tries++) {
		uint64_t progress = try_to_free_pages(m);

		if (m->nr_free - (int64_t)nr >= (int64_t)m->wmark_min)
			goto take;
		if (!progress)
			break;
	}
	m->ev[EV_OOM]++;
	m->oom = true;
take:
	m->nr_free -= nr;
	return 0;
}

/* The last reference is gone: back to the free pool, uncharged. */
void free_page_final(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);
	uint64_t nr = page_nr(p);

	if (!(p->flags & PG_orphan)) {
		if (xa_lookup_page(m, p->mapping, p->index) == idx)
			xa_erase_page(m, idx, 0);
	}
	swap_cache_drop(m, p);		/* freed by its owner while in the swap cache */
	if (!(p->flags & PG_uncharged))
		mem_cgroup_uncharge(m, p->memcg, nr);
	if (page_is_file(p))
		m->nr_file_pages -= nr;
	else
		m->nr_anon_pages -= nr;
	m->nr_free += nr;
	m->oom = false;
	m->nr_pages_scanned = 0;	/* free_pcppages_bulk() resets NR_PAGES_SCANNED */
	m->ev[EV_PGFREE] += nr;
	page_free_slot(m, idx);
}

/*
 * The owner lets go (truncate, munmap, exit, fadvise): the page leaves its
 * mapping at once; if a per-CPU batch still holds it, it is freed when that
 * batch drains (release_pages() in __pagevec_lru_add()).
 */
void release_page(struct rf_model *m, uint32_t idx)
{
	struct rf_page *p = P(m, idx);

	if (p->flags & PG_orphan)
		return;
	xa_erase_page(m, idx, 0);
	p->mapcount = 0;
	if (p->where == WHERE_PVEC || p->batch_refs) {
		p->flags |= PG_orphan;
		if (p->where == WHERE_PVEC) {
			m->stranded += page_nr(p);
			pvec_note_stranded(m);
		}
		return;
	}
	if (p->where == WHERE_LRU)
		del_page_from_lru_list(m, idx);
	p->flags |= PG_orphan;
	free_page_final(m, idx);
}

/*
 * split_huge_page_to_list(), v4.6.2 (SIMPLIFIED): the head becomes a base
 * page, each tail a base page with the head's state, put on the head's
 * list (just before the head, i.e. older) or, when the head is isolated,
 * on the inactive list's tail so this reclaim round finds them next.
 */
int split_huge_page(struct rf_model *m, uint32_t head)
{
	struct rf_page *h = P(m, head);
	uint64_t i, nr = page_nr(h);
	int lru = page_lru(h);

	for (i = 1; i < nr; i++) {
		uint32_t idx = page_alloc_slot(m);
		struct rf_page *t;

		if (idx == RF_NIL)
			return m->error = RF_ERR_NOMEM;
		h = P(m, head);
		t = P(m, idx);
		*t = *h;
		t->order = 0;
		t->index = h->index + i;
		t->batch_refs = 0;
		t->prev = t->next = RF_NIL;
		xa_store(m, t->mapping, t->index, (uint64_t)idx << 2 | SLOT_PAGE);
		if (h->where == WHERE_LRU || h->where == WHERE_ISOLATED)
			add_page_to_lru_list_tail(m, idx, lru);
		else
			t->where = WHERE_FREE;
	}
	h = P(m, head);
	if (h->where == WHERE_LRU) {
		/* the head keeps its place; its size on the list shrinks */
		del_page_from_lru_list(m, head);
		h->order = 0;
		add_page_to_lru_list(m, head, lru);
	} else {
		h->order = 0;
	}
	/* the same entry again: its node now holds base pages (pagecache.c counts them) */
	if (xa_load(m, h->mapping, h->index) == ((uint64_t)head << 2 | SLOT_PAGE))
		xa_store(m, h->mapping, h->index, (uint64_t)head << 2 | SLOT_PAGE);
	return 0;
}

static bool range_free(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr)
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

static uint32_t new_page(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
			 uint32_t memcg, uint16_t flags)
{
	uint64_t nr = 1ull << order;
	uint32_t idx;
	struct rf_page *p;

	alloc_pages(m, nr);
	try_charge(m, memcg, nr);
	idx = page_alloc_slot(m);
	if (idx == RF_NIL) {
		m->error = RF_ERR_NOMEM;
		return RF_NIL;
	}
	p = P(m, idx);
	p->mapping = mapping;
	p->index = index;
	p->order = order;
	p->memcg = memcg;
	p->flags = flags;
	if (flags & PG_swapbacked)
		m->nr_anon_pages += nr;
	else
		m->nr_file_pages += nr;
	return idx;
}

/*
 * add_to_page_cache_lru(), v4.6.2 mm/filemap.c (v6.18 filemap_add_folio()):
 * charge, insert, and activate a refault the workingset code says is hot
 * (v4.9+: not for __GFP_WRITE inserts).  The shadow is the one the kernel's
 * insertion finds anywhere in the folio's range (xa_take_shadow()), looked
 * up after the charge, which may have reclaimed.  A large folio refaults
 * once, for all its pages.  grab_cache_page_write_begin() pre-sets
 * PG_referenced on pages it creates.
 */
static uint32_t insert_folio(struct rf_model *m, uint32_t mapping, uint64_t index,
			     unsigned int order, uint32_t memcg, bool write)
{
	uint64_t shadow;
	uint32_t idx;

	idx = new_page(m, mapping, index, order, memcg, write ? PG_referenced | PG_dirty : 0);
	if (idx == RF_NIL)
		return RF_NIL;
	shadow = xa_take_shadow(m, mapping, index, order, P(m, idx)->memcg);
	xa_store_page(m, idx);
	if (shadow && !(write && m->p->ws_no_write_refault))
		workingset_refault(m, P(m, idx), shadow);
	lru_cache_add(m, idx);
	return idx;
}

/* The folio of @order around @index, or the page at @index alone where that range is partly cached. */
static uint32_t add_to_page_cache_lru(struct rf_model *m, uint32_t mapping, uint64_t index,
				      unsigned int order, uint32_t memcg, bool write)
{
	uint64_t nr = 1ull << order, aligned = index & ~(nr - 1);

	if (order && range_free(m, mapping, aligned, nr))
		return insert_folio(m, mapping, aligned, order, memcg, write);
	return insert_folio(m, mapping, index, 0, memcg, write);
}

/* ------------------------------------------------------------- processes */

static uint32_t task_memcg(struct rf_model *m, int32_t pid)
{
	uint32_t i = pid > 0 ? rf_htab_get(&m->pid_index, (uint64_t)pid, 0) : RF_NONE;

	/* a task left behind in a removed cgroup charges the root (the trace lost its move) */
	if (i == RF_NONE || !m->memcgs[m->pids[i].memcg]->online)
		return 0;
	return m->pids[i].memcg;
}

static struct rf_pid *pid_get(struct rf_model *m, int32_t pid)
{
	uint32_t i = rf_htab_get(&m->pid_index, (uint64_t)pid, 0);

	if (i != RF_NONE)
		return &m->pids[i];
	if (m->nr_pids == m->cap_pids) {
		uint32_t cap = m->cap_pids ? m->cap_pids * 2 : 64;
		struct rf_pid *n = realloc(m->pids, cap * sizeof(*n));

		if (!n)
			return NULL;
		m->pids = n;
		m->cap_pids = cap;
	}
	if (rf_htab_put(&m->pid_index, (uint64_t)pid, 0, m->nr_pids))
		return NULL;
	m->pids[m->nr_pids].memcg = 0;
	m->pids[m->nr_pids].mm = 0;
	return &m->pids[m->nr_pids++];
}

static struct rf_mm *mm_get(struct rf_model *m, uint64_t mm)
{
	uint32_t i = rf_htab_get(&m->mm_index, mm, 0);
	struct rf_mm *x;

	if (i != RF_NONE)
		return &m->mms[i];
	if (m->nr_mms == m->cap_mms) {
		uint32_t cap = m->cap_mms ? m->cap_mms * 2 : 64;

		x = realloc(m->mms, cap * sizeof(*x));
		if (!x)
			return NULL;
		m->mms = x;
		m->cap_mms = cap;
	}
	x = &m->mms[m->nr_mms];
	memset(x, 0, sizeof(*x));
	x->mm = mm;
	x->anon_mapping = mapping_get(m, MAPPING_ANON, 0, mm);
	if (x->anon_mapping == RF_NONE || rf_htab_put(&m->mm_index, mm, 0, m->nr_mms))
		return NULL;
	return &m->mms[m->nr_mms++];
}

static void bind_pid_mm(struct rf_model *m, struct rf_pid *t, uint64_t mm)
{
	struct rf_mm *x;

	if (!mm || t->mm == mm)
		return;
	x = mm_get(m, mm);
	if (!x) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	x->users++;
	t->mm = mm;
}

/* The vma of @x mapping file (@dev, @ino) at page @index, or NULL. */
static const struct rf_vma *find_file_vma(const struct rf_mm *x, uint32_t dev, uint64_t ino,
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

/* ------------------------------------------------------------ references */

static uint32_t file_mapping(struct rf_model *m, uint32_t dev, uint64_t ino)
{
	uint32_t mp = mapping_get(m, MAPPING_FILE, dev, ino);

	if (mp == RF_NONE)
		m->error = RF_ERR_NOMEM;
	return mp;
}

/*
 * do_generic_file_read(), v4.6.2 (filemap_read(), v6.18): a miss inserts
 * the page (folio), then every folio of the read is marked accessed once,
 * the first one only if the read does not continue the previous read of the
 * file.  v6.18 marks the first folio unless pos_same_folio(pos, prev_pos -
 * 1): the previous read ended in it.  v4.6.2 marks a page unless the read
 * starts where the previous one stopped (prev_index, prev_offset); a read to
 * the end of page P leaves prev_pos at P's start, so with the trace's
 * whole-page reads: unless it starts in the page the previous read ended in.
 * A fresh file (f_ra.prev_pos = -1) continues nothing.  Where the previous
 * reads ended is in @rs (readpos.c).  generic_perform_write(): a hit is
 * marked accessed (FGP_ACCESSED); writes (@rs NULL) and synthetic accesses
 * do not read through a file.
 */
static void file_rw(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr,
		    unsigned int order, uint32_t memcg, bool write, struct rf_read_state *rs)
{
	uint32_t last = RF_NIL;
	int stream = -1;
	uint64_t i;

	for (i = 0; i < nr && !m->error; i++) {
		uint32_t idx = xa_lookup_page(m, mapping, index + i);
		bool created = false;

		if (idx == RF_NIL) {
			idx = add_to_page_cache_lru(m, mapping, index + i, order, memcg, write);
			if (idx == RF_NIL)
				return;
			created = true;
		}
		if (write)
			P(m, idx)->flags |= PG_dirty;
		if (idx == last)
			continue;
		last = idx;
		if (!i && rs) {
			bool skip;

			stream = read_state_match(m, rs, index, idx, &skip);
			if (skip)
				continue;
		}
		if (!(write && created))
			mark_page_accessed(m, idx);
	}
	if (rs)
		read_state_done(rs, stream, index + nr - 1,
				m->p->read_same_folio && m->mappings[mapping].large_folios);
}

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
static void ra_release(struct rf_model *m, const struct rf_event *next)
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
static void ra_hold(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
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

static void map_page(struct rf_model *m, uint32_t idx, uint8_t flags, bool exec)
{
	struct rf_page *p = P(m, idx);

	if (p->mapcount < 255)
		p->mapcount++;
	p->flags |= PG_young;
	if (flags & RF_REF_WRITE)
		p->flags |= PG_dirty;
	if (flags & RF_REF_SEQ)
		p->flags |= PG_seqread;
	if (exec)
		p->flags |= PG_exec;
}

/* filemap_fault(): a miss is a major fault; no mark_page_accessed() */
static void file_fault(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	uint32_t mapping = file_mapping(m, ev->u.file.dev, ev->u.file.ino);
	uint32_t idx;
	bool exec = false;

	if (mapping == RF_NONE)
		return;
	m->ev[EV_PGFAULT]++;
	count_memcg_event(m, memcg, EV_PGFAULT, 1);
	idx = xa_lookup_page(m, mapping, ev->u.file.index);
	if (idx == RF_NIL) {
		m->ev[EV_PGMAJFAULT]++;
		count_memcg_event(m, memcg, EV_PGMAJFAULT, 1);
		idx = add_to_page_cache_lru(m, mapping, ev->u.file.index,
					    clamp_order(ev->u.file.order), memcg, false);
		if (idx == RF_NIL)
			return;
	}
	if (ev->u.file.mm) {
		uint32_t i = rf_htab_get(&m->mm_index, ev->u.file.mm, 0);

		if (i != RF_NONE) {
			const struct rf_vma *v = find_file_vma(&m->mms[i], ev->u.file.dev,
							       ev->u.file.ino, ev->u.file.index,
							       page_shift(m));

			exec = v && (v->prot & PROT_EXEC);
		}
	}
	map_page(m, idx, ev->u.file.flags, exec);
}

/*
 * do_anonymous_page() / do_huge_pmd_anonymous_page(), v4.6.2: new anon
 * pages go to the active list (lru_cache_add_active_or_unevictable); v5.9+
 * to the inactive list.  A swap entry in the slot means do_swap_page(); a
 * present page just gets its PTE young bit.
 */
static void anon_touch(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		       uint8_t flags, uint32_t memcg, bool fault)
{
	uint64_t e = xa_load(m, mapping, index), nr;
	uint32_t idx;

	if (fault) {
		m->ev[EV_PGFAULT]++;
		count_memcg_event(m, memcg, EV_PGFAULT, 1);
	}
	if (e && ((e & SLOT_TAG_MASK) == SLOT_PAGE || (e & SLOT_TAG_MASK) == SLOT_TAIL)) {
		P(m, (uint32_t)(e >> 2))->flags |= PG_young;
		return;
	}
	if (e && (e & SLOT_TAG_MASK) == SLOT_SWAP) {
		do_swap_page(m, mapping, index, e, memcg, flags);
		return;
	}
	nr = 1ull << order;
	if (order && range_free(m, mapping, index & ~(nr - 1), nr))
		index &= ~(nr - 1);
	else
		order = 0;	/* the huge range is partly used: a base page */
	idx = new_page(m, mapping, index, order, memcg,
		       PG_swapbacked | (m->p->new_anon_inactive ? 0 : PG_active));
	if (idx == RF_NIL)
		return;
	map_page(m, idx, flags | RF_REF_WRITE, false);
	xa_store_page(m, idx);
	lru_cache_add(m, idx);
}

/* --------------------------------------------------------------- unmaps */

struct zap_ctx {
	bool seqread;
	uint64_t first, last;	/* the file pages the zap covers */
};

/*
 * zap_pte_range(), v4.6.2: a young file PTE outside VM_SEQ_READ ->
 * mark_page_accessed (v6.18 zap_present_folio_ptes(): once per folio).  The
 * folio loses the PTEs of its pages in the range: each fault mapped one page
 * (a PMD fault all of them, counted once), so as many mappings go as the
 * range holds pages of it (SIMPLIFIED: exact for one mm; with several, one
 * mm's unmap may take another's count down too).
 */
static void zap_file_slot(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	struct zap_ctx *z = ctx;
	uint64_t lo, hi;
	uint32_t idx;
	struct rf_page *p;

	/* a folio's head slot, or its tail at the first page when the range starts inside it */
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE &&
	    ((e & SLOT_TAG_MASK) != SLOT_TAIL || index != z->first))
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (!p->mapcount)
		return;
	lo = p->index > z->first ? p->index : z->first;
	hi = p->index + page_nr(p) - 1 < z->last ? p->index + page_nr(p) - 1 : z->last;
	p->mapcount = hi - lo + 1 >= p->mapcount ? 0 : p->mapcount - (uint8_t)(hi - lo + 1);
	if ((p->flags & PG_young) && !z->seqread && !(p->flags & PG_seqread))
		mark_page_accessed(m, idx);
	if (!p->mapcount)
		p->flags &= ~(PG_young | PG_exec | PG_seqread);
}

/* zap_pte_range() on anonymous memory: pages freed, swap entries released */
static void zap_anon_slot(struct rf_model *m, uint64_t index, uint64_t e, void *ctx)
{
	uint64_t tag = e & SLOT_TAG_MASK;

	if (tag == SLOT_SWAP) {
		swap_entry_free(m, e, 1);
		xa_store(m, *(uint32_t *)ctx, index, 0);
	} else if (tag == SLOT_PAGE) {
		release_page(m, (uint32_t)(e >> 2));
	}
}

static void zap_range(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	unsigned int shift = page_shift(m);
	uint32_t i;

	if (end <= start)
		return;
	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint64_t s = start > v->start ? start : v->start;
		uint64_t e = end < v->end ? end : v->end;
		uint32_t mp;
		struct zap_ctx z = { .seqread = false };

		if (!v->ino || s >= e)
			continue;
		mp = mapping_find(m, MAPPING_FILE, v->dev, v->ino);
		if (mp == RF_NONE)
			continue;
		z.first = v->pgoff + ((s - v->start) >> shift);
		z.last = v->pgoff + ((e - v->start - 1) >> shift);
		xa_for_each_range(m, mp, z.first, z.last, zap_file_slot, &z);
	}
	xa_for_each_range(m, x->anon_mapping, start >> shift, (end - 1) >> shift, zap_anon_slot,
			  &x->anon_mapping);
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
			if (x->nr_vmas == x->cap_vmas) {
				uint32_t cap = x->cap_vmas ? x->cap_vmas * 2 : 8;
				struct rf_vma *n = realloc(x->vmas, cap * sizeof(*n));

				if (!n) {
					m->error = RF_ERR_NOMEM;
					return;
				}
				x->vmas = n;
				x->cap_vmas = cap;
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
}

static void mm_put(struct rf_model *m, uint64_t mm)
{
	uint32_t i = rf_htab_get(&m->mm_index, mm, 0);

	if (i == RF_NONE)
		return;
	if (m->mms[i].users > 1) {
		m->mms[i].users--;
		return;
	}
	m->mms[i].users = 0;
	exit_mmap(m, &m->mms[i]);
}

/* ------------------------------------------------------- madvise/fadvise */

struct pageout_ctx {
	uint32_t *list;
	uint32_t nr, cap;
};

/* madvise_cold_or_pageout_pte_range(), v6.1: exclusive LRU pages only */
static void pageout_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	struct pageout_ctx *c = vctx;
	uint32_t idx;
	struct rf_page *p;

	(void)index;
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (p->where != WHERE_LRU || p->mapcount != 1 || (p->flags & PG_orphan))
		return;
	if (c->nr == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 64;
		uint32_t *n = realloc(c->list, cap * sizeof(*n));

		if (!n) {
			m->error = RF_ERR_NOMEM;
			return;
		}
		c->list = n;
		c->cap = cap;
	}
	p->flags &= ~(PG_young | PG_referenced);
	del_page_from_lru_list(m, idx);
	c->list[c->nr++] = idx;
}

static void madvise_pageout(struct rf_model *m, struct rf_mm *x, uint64_t start, uint64_t end)
{
	struct pageout_ctx c = { 0 };
	unsigned int shift = page_shift(m);
	uint32_t i;

	lru_add_drain(m);
	cost_add(m, COST_LRU_LOCK, 1);
	for (i = 0; i < x->nr_vmas; i++) {
		const struct rf_vma *v = &x->vmas[i];
		uint64_t s = start > v->start ? start : v->start;
		uint64_t e = end < v->end ? end : v->end;
		uint32_t mp;

		if (!v->ino || s >= e)
			continue;
		mp = mapping_find(m, MAPPING_FILE, v->dev, v->ino);
		if (mp != RF_NONE)
			xa_for_each_range(m, mp, v->pgoff + ((s - v->start) >> shift),
					  v->pgoff + ((e - v->start - 1) >> shift), pageout_slot,
					  &c);
	}
	xa_for_each_range(m, x->anon_mapping, start >> shift, (end - 1) >> shift, pageout_slot,
			  &c);
	if (c.nr)
		reclaim_pages(m, c.list, c.nr);
	free(c.list);
}

struct fadvise_ctx {
	uint32_t busy;
};

/*
 * invalidate_mapping_pages(), v4.6.2: clean, unmapped LRU pages go (no
 * shadow); mapped ones are deactivated (deactivate_file_page(),
 * SIMPLIFIED: moved at once, not through the per-CPU batch); pages a
 * batch holds are busy and retried after lru_add_drain_all().
 */
static void fadvise_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	struct fadvise_ctx *c = vctx;
	uint32_t idx;
	struct rf_page *p;

	(void)index;
	if ((e & SLOT_TAG_MASK) != SLOT_PAGE)
		return;
	idx = (uint32_t)(e >> 2);
	p = P(m, idx);
	if (p->where != WHERE_LRU || p->batch_refs) {
		c->busy++;
		return;
	}
	if (p->mapcount) {
		if (p->flags & PG_active) {
			del_page_from_lru_list(m, idx);
			p->flags &= ~(PG_active | PG_referenced);
			add_page_to_lru_list(m, idx, page_lru(p));
			m->ev[EV_PGDEACTIVATE] += page_nr(p);
			count_memcg_event(m, p->memcg, EV_PGDEACTIVATE, page_nr(p));
		}
		return;
	}
	release_page(m, idx);
}

static void fadvise_dontneed(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr)
{
	struct fadvise_ctx c = { 0 };
	uint64_t last = nr ? index + nr - 1 : UINT64_MAX >> 1;

	lru_add_drain(m);
	xa_for_each_range(m, mapping, index, last, fadvise_slot, &c);
	if (c.busy) {
		lru_add_drain_all(m);
		c.busy = 0;
		xa_for_each_range(m, mapping, index, last, fadvise_slot, &c);
	}
}

/* truncate_inode_pages_range(), v4.6.2: pages and shadows from @index on */
static void truncate_slot(struct rf_model *m, uint64_t index, uint64_t e, void *vctx)
{
	uint32_t mapping = *(uint32_t *)vctx;

	if (slot_is_shadow(e)) {
		xa_store(m, mapping, index, 0);
		return;
	}
	if ((e & SLOT_TAG_MASK) == SLOT_PAGE)
		release_page(m, (uint32_t)(e >> 2));
}

/* ------------------------------------------------------------- dispatch */

static void on_vma(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_mm *x = mm_get(m, ev->u.vma.mm);
	uint64_t start = ev->u.vma.addr, end = start + ev->u.vma.len;

	if (!x) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	if (end < start)
		end = UINT64_MAX;
	switch (ev->type) {
	case RF_EV_MMAP:
		vma_remove_range(m, x, start, end);
		if (x->nr_vmas == x->cap_vmas) {
			uint32_t cap = x->cap_vmas ? x->cap_vmas * 2 : 8;
			struct rf_vma *n = realloc(x->vmas, cap * sizeof(*n));

			if (!n) {
				m->error = RF_ERR_NOMEM;
				return;
			}
			x->vmas = n;
			x->cap_vmas = cap;
		}
		x->vmas[x->nr_vmas++] = (struct rf_vma){
			.start = start, .end = end, .ino = ev->u.vma.ino, .pgoff = ev->u.vma.pgoff,
			.dev = ev->u.vma.dev, .prot = ev->u.vma.prot, .flags = ev->u.vma.flags,
		};
		break;
	case RF_EV_MUNMAP:
		lru_add_drain(m);	/* unmap_region() */
		zap_range(m, x, start, end);
		vma_remove_range(m, x, start, end);
		break;
	case RF_EV_MADVISE:
		if (ev->u.vma.advice == MADV_DONTNEED || ev->u.vma.advice == MADV_FREE) {
			lru_add_drain(m);
			zap_range(m, x, start, end);
		} else if (ev->u.vma.advice == MADV_PAGEOUT) {
			madvise_pageout(m, x, start, end);
		}
		break;
	default:
		break;
	}
}

static void on_task(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_pid *t = NULL;

	switch (ev->type) {
	case RF_EV_FORK: {
		uint32_t memcg = task_memcg(m, ev->pid);

		t = pid_get(m, ev->u.task.pid);
		if (!t)
			break;
		t->memcg = memcg;
		bind_pid_mm(m, t, ev->u.task.mm);
		break;
	}
	case RF_EV_EXEC:
		t = pid_get(m, ev->pid);
		if (!t || t->mm == ev->u.task.mm)
			break;
		if (t->mm) {
			uint64_t old = t->mm;

			t->mm = 0;
			mm_put(m, old);
		}
		bind_pid_mm(m, t, ev->u.task.mm);
		break;
	case RF_EV_EXIT: {
		uint32_t i = ev->pid > 0 ? rf_htab_get(&m->pid_index, (uint64_t)ev->pid, 0) :
			RF_NONE;
		uint64_t mm = ev->u.task.mm;

		if (i != RF_NONE && m->pids[i].mm) {
			mm = m->pids[i].mm;
			m->pids[i].mm = 0;
		}
		if (mm)
			mm_put(m, mm);
		read_state_forget(m, ev->pid);
		break;
	}
	case RF_EV_NAME_PID: {
		uint32_t slot = memcg_slot_by_cgid(m, ev->u.task.cgroup);

		t = pid_get(m, ev->u.task.pid);
		if (!t)
			break;
		if (slot != RF_NONE)
			t->memcg = slot;
		bind_pid_mm(m, t, ev->u.task.mm);
		break;
	}
	default:
		break;
	}
	if (!t && !m->error && ev->type != RF_EV_EXIT && ev->type != RF_EV_EXEC)
		m->error = RF_ERR_NOMEM;
}

static void on_cgroup(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_pid *t;
	uint32_t slot;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		if (memcg_mkdir(m, ev->u.cgroup.id, ev->u.cgroup.parent, ev->u.cgroup.path))
			m->error = RF_ERR_NOMEM;
		break;
	case RF_EV_CGROUP_RMDIR:
		memcg_rmdir(m, ev->u.cgroup.id);
		break;
	case RF_EV_CGROUP_ATTACH:
		slot = memcg_slot_by_cgid(m, ev->u.cgroup.id);
		t = pid_get(m, ev->u.cgroup.pid);
		if (!t)
			m->error = RF_ERR_NOMEM;
		else
			t->memcg = slot == RF_NONE ? 0 : slot;
		break;
	case RF_EV_CGROUP_LIMIT:
		memcg_set_limit(m, ev->u.cgroup.id, ev->u.cgroup.kind, ev->u.cgroup.value);
		break;
	default:
		break;
	}
}

static void on_file(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	uint32_t mapping;
	uint64_t nr;

	if (ev->type == RF_EV_TRUNCATE || ev->type == RF_EV_FADVISE) {
		mapping = mapping_find(m, MAPPING_FILE, ev->u.file.dev, ev->u.file.ino);
		if (mapping == RF_NONE)
			return;
		if (ev->type == RF_EV_FADVISE) {
			if (ev->u.file.advice == POSIX_FADV_DONTNEED)
				fadvise_dontneed(m, mapping, ev->u.file.index,
						 clamp_range(ev->u.file.nr));
			return;
		}
		lru_add_drain(m);	/* __pagevec_release() */
		if (!(ev->u.file.flags & RF_TRUNC_UNLINK))
			xa_drop_covering_shadow(m, mapping, ev->u.file.index);
		xa_for_each_range(m, mapping,
				  (ev->u.file.flags & RF_TRUNC_UNLINK) ? 0 : ev->u.file.index,
				  UINT64_MAX >> 1, truncate_slot, &mapping);
		return;
	}
	mapping = file_mapping(m, ev->u.file.dev, ev->u.file.ino);
	if (mapping == RF_NONE)
		return;
	nr = ev->u.file.nr ? clamp_range(ev->u.file.nr) : 1;
	if (ev->type == RF_EV_FILE_FAULT) {
		file_fault(m, ev, memcg);
	} else if (ev->type == RF_EV_FILE_READAHEAD) {
		ra_hold(m, ev, memcg);
	} else if (ev->type == RF_EV_FILE_WRITE) {
		file_rw(m, mapping, ev->u.file.index, nr, clamp_order(ev->u.file.order), memcg, true,
			NULL);
	} else {
		struct rf_read_state *rs = read_state_get(m, ev->pid, mapping);

		if (rs)
			file_rw(m, mapping, ev->u.file.index, nr, clamp_order(ev->u.file.order),
				memcg, false, rs);
	}
}

static void on_access(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	bool anon = ev->u.access.flags & RF_REF_ANON;
	uint32_t mapping = m->access_mapping[anon];

	if (mapping == RF_NONE) {
		mapping = mapping_get(m, anon ? MAPPING_ACCESS_ANON : MAPPING_ACCESS_FILE, 0, 0);
		if (mapping == RF_NONE) {
			m->error = RF_ERR_NOMEM;
			return;
		}
		m->access_mapping[anon] = mapping;
	}
	if (anon)
		anon_touch(m, mapping, ev->u.access.key, clamp_order(ev->u.access.order),
			   ev->u.access.flags, memcg, false);
	else
		file_rw(m, mapping, ev->u.access.key, 1, clamp_order(ev->u.access.order), memcg,
			ev->u.access.flags & RF_REF_WRITE, NULL);
}

/*
 * What rf_model_feed() does with each event type: the one table both the
 * dispatch and the release of held readaheads read, so a type added to the
 * model is seen by both.  Types not listed (observations, names, meta) are
 * only counted, and leave a held readahead held.
 */
enum feed_kind {
	FEED_IGNORE = 0,
	FEED_FILE,
	FEED_ANON,
	FEED_ACCESS,
	FEED_VMA,
	FEED_TASK,
	FEED_CGROUP,
	FEED_COUNTERS,
};

static const uint8_t feed_kinds[] = {
	[RF_EV_FILE_READ] = FEED_FILE,
	[RF_EV_FILE_WRITE] = FEED_FILE,
	[RF_EV_FILE_FAULT] = FEED_FILE,
	[RF_EV_FILE_READAHEAD] = FEED_FILE,
	[RF_EV_FADVISE] = FEED_FILE,
	[RF_EV_TRUNCATE] = FEED_FILE,
	[RF_EV_ANON_FAULT] = FEED_ANON,
	[RF_EV_ACCESS] = FEED_ACCESS,
	[RF_EV_MMAP] = FEED_VMA,
	[RF_EV_MUNMAP] = FEED_VMA,
	[RF_EV_MADVISE] = FEED_VMA,
	[RF_EV_FORK] = FEED_TASK,
	[RF_EV_EXEC] = FEED_TASK,
	[RF_EV_EXIT] = FEED_TASK,
	[RF_EV_NAME_PID] = FEED_TASK,
	[RF_EV_CGROUP_MKDIR] = FEED_CGROUP,
	[RF_EV_CGROUP_RMDIR] = FEED_CGROUP,
	[RF_EV_CGROUP_ATTACH] = FEED_CGROUP,
	[RF_EV_CGROUP_LIMIT] = FEED_CGROUP,
	[RF_EV_COUNTERS] = FEED_COUNTERS,
};

static enum feed_kind feed_kind(uint16_t type)
{
	return type < sizeof(feed_kinds) ? (enum feed_kind)feed_kinds[type] : FEED_IGNORE;
}

/* A memory.stat read flushes the memcg's stats (memcg-stats.c); otherwise only counted. */
static void on_counters(struct rf_model *m, const struct rf_event *ev)
{
	if (ev->u.counters.source == RF_COUNTERS_MEMCG_STAT) {
		uint32_t c = memcg_slot_by_cgid(m, ev->u.counters.cgroup);

		if (c != RF_NONE)
			mem_cgroup_flush_stats(m, c);
	}
	m->nr_ignored++;
}

static void on_anon_fault(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	struct rf_mm *x = mm_get(m, ev->u.anon.mm);

	if (!x) {
		m->error = RF_ERR_NOMEM;
		return;
	}
	anon_touch(m, x->anon_mapping, ev->u.anon.addr >> page_shift(m),
		   clamp_order(ev->u.anon.order), ev->u.anon.flags, memcg, true);
}

int rf_model_feed(struct rf_model *m, const struct rf_event *ev)
{
	enum feed_kind kind = feed_kind(ev->type);
	uint32_t memcg;

	if (m->error)
		return m->error;
	if (m->finished)
		return RF_ERR_STATE;
	m->nr_events++;
	if (m->nr_ra_held && kind != FEED_IGNORE)
		ra_release(m, ev);
	m->cur_cpu = ev->cpu % m->cfg.cpus;
	memcg_stats_tick(m, ev->time);
	memcg = task_memcg(m, ev->pid);
	switch (kind) {
	case FEED_FILE:
		on_file(m, ev, memcg);
		break;
	case FEED_ANON:
		on_anon_fault(m, ev, memcg);
		break;
	case FEED_ACCESS:
		on_access(m, ev, memcg);
		break;
	case FEED_VMA:
		on_vma(m, ev);
		break;
	case FEED_TASK:
		on_task(m, ev);
		break;
	case FEED_CGROUP:
		on_cgroup(m, ev);
		break;
	case FEED_COUNTERS:
		on_counters(m, ev);
		break;
	case FEED_IGNORE:
	default:
		m->nr_ignored++;	/* observations, names, meta: nothing to model */
		break;
	}
	return m->error;
}

int rf_model_finish(struct rf_model *m)
{
	if (!m->finished && !m->error && m->nr_ra_held)
		ra_release(m, NULL);
	if (!m->finished) {
		m->pvec_pages_at_exit = m->pvec_pages;
		m->stranded_at_exit = m->stranded;
		m->finished = true;
	}
	return m->error;
}

/* ------------------------------------------------------------- lifecycle */

static uint64_t isqrt(uint64_t x)
{
	uint64_t r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/* init_per_zone_wmark_min() and __setup_per_zone_wmarks(), v4.6.2 (v4.5: no scale factor) */
static void setup_watermarks(struct rf_model *m)
{
	uint64_t kb = m->managed * (m->cfg.page_size / 1024), min_kb = m->cfg.min_free_kbytes, tmp;

	if (!min_kb) {
		min_kb = isqrt(kb * 16);
		if (min_kb < 128)
			min_kb = 128;
		if (min_kb > 65536)
			min_kb = 65536;
	}
	m->wmark_min = min_kb / (m->cfg.page_size / 1024);
	if (m->p->no_wmark_scale) {
		m->wmark_low = m->wmark_min + m->wmark_min / 4;
		m->wmark_high = m->wmark_min + m->wmark_min / 2;
		return;
	}
	tmp = m->managed * m->cfg.watermark_scale_factor / 10000;
	if (tmp < m->wmark_min / 4)
		tmp = m->wmark_min / 4;
	m->wmark_low = m->wmark_min + tmp;
	m->wmark_high = m->wmark_min + 2 * tmp;
}

static int validate(const struct rf_model_config *c, char *err, size_t errlen)
{
	uint32_t i;

	if (!c->cpus)
		return snprintf(err, errlen, "cpus=0: a model needs at least one CPU"),
			RF_ERR_CONFIG;
	if (c->kswapd_cpu >= (int32_t)c->cpus)
		return snprintf(err, errlen, "kswapd_cpu=%d: only %u CPUs", c->kswapd_cpu, c->cpus),
			RF_ERR_CONFIG;
	if (c->memory_bytes / c->page_size < 256)
		return snprintf(err, errlen, "memory=%llu: below the 256 pages the model needs",
				(unsigned long long)c->memory_bytes), RF_ERR_CONFIG;
	if (!c->p.pagevec_size || c->p.pagevec_size > MAX_PAGEVEC)
		return snprintf(err, errlen, "pagevec_size=%u: want 1..%u", c->p.pagevec_size,
				MAX_PAGEVEC), RF_ERR_CONFIG;
	for (i = 0; i < c->nr_limits; i++)
		if (c->limits[i].kind == RF_LIMIT_MEMORY && c->limits[i].bytes < c->page_size)
			return snprintf(err, errlen,
					"limit.%s: below one page (%u bytes) cannot hold any page",
					c->limits[i].path, c->page_size), RF_ERR_CONFIG;
	return 0;
}

int rf_model_new(struct rf_model **out, const struct rf_model_config *c, char *err, size_t errlen)
{
	struct rf_model *m;
	uint32_t i;
	int r;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	r = validate(c, err, errlen);
	if (r)
		return r;
	m = calloc(1, sizeof(*m));
	if (!m)
		return RF_ERR_NOMEM;
	m->cfg = *c;
	m->cfg.limits = NULL;
	m->cfg.nr_limits = 0;
	m->p = &m->cfg.p;
	m->cfg.limits = calloc(c->nr_limits + 1, sizeof(*m->cfg.limits));
	if (!m->cfg.limits)
		goto nomem;
	for (i = 0; i < c->nr_limits; i++) {
		m->cfg.limits[i] = c->limits[i];
		m->cfg.limits[i].path = strdup(c->limits[i].path);
		if (!m->cfg.limits[i].path)
			goto nomem;
		m->cfg.nr_limits++;
	}
	m->managed = c->memory_bytes / c->page_size;
	m->nr_free = (int64_t)m->managed;
	m->swap_total = c->swap_bytes / c->page_size;
	setup_watermarks(m);
	m->nr_cpus = c->cpus + 1;
	m->cpus = calloc(m->nr_cpus, sizeof(*m->cpus));
	m->cap_pages = 1024;
	m->pages = malloc(m->cap_pages * sizeof(*m->pages));
	m->nr_page_slots = 1;			/* slot 0 is RF_NIL */
	m->cap_nodes = 256;
	m->nodes = malloc(m->cap_nodes * sizeof(*m->nodes));
	m->nr_node_slots = 1;
	m->access_mapping[0] = m->access_mapping[1] = RF_NONE;
	if (!m->cpus || !m->pages || !m->nodes)
		goto nomem;
	if (rf_htab_init(&m->node_index, 1024) || rf_htab_init(&m->mapping_index, 64) ||
	    rf_htab_init(&m->cgid_index, 64) || rf_htab_init(&m->pid_index, 64) ||
	    rf_htab_init(&m->mm_index, 64) || memcg_root_init(m))
		goto nomem;
	*out = m;
	return 0;
nomem:
	rf_model_free(m);
	return RF_ERR_NOMEM;
}

void rf_model_free(struct rf_model *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->cfg.nr_limits; i++)
		free(m->cfg.limits[i].path);
	free(m->cfg.limits);
	if (m->memcgs)
		memcg_free_all(m);
	else
		free(m->id_to_slot);
	for (i = 0; i < m->nr_mms; i++)
		free(m->mms[i].vmas);
	free(m->mms);
	free(m->pids);
	free(m->mappings);
	free(m->nodes);
	free(m->pages);
	free(m->cpus);
	free(m->read_state);
	rf_htab_destroy(&m->node_index);
	rf_htab_destroy(&m->mapping_index);
	rf_htab_destroy(&m->cgid_index);
	rf_htab_destroy(&m->pid_index);
	rf_htab_destroy(&m->mm_index);
	free(m);
}
