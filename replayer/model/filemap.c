/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page cache paths of file I/O: mm/filemap.c.  Insertion
 * (add_to_page_cache_lru(), filemap_add_folio()), reads and writes
 * (do_generic_file_read() / filemap_read(), generic_perform_write()) and
 * file faults (filemap_fault()).  Readahead is in readahead.c.
 */
#include "model-local.h"
#include "filemap.h"
#include "lru.h"
#include "memcg.h"
#include "mm.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "readahead.h"
#include "workingset.h"
#include "writeback.h"

#define PROT_EXEC	4

/* The mapping of file (@dev, @ino), made at its first use; RF_NONE (m->error) without memory. */
uint32_t file_mapping(struct rf_model *m, uint32_t dev, uint64_t ino)
{
	uint32_t mp = mapping_get(m, MAPPING_FILE, dev, ino);

	if (mp == RF_NONE)
		m->error = RF_ERR_NOMEM;
	return mp;
}

uint32_t entry_folio_mapping(struct rf_model *m, uint32_t dev, uint64_t ino, uint64_t *index,
			     unsigned int order, int *ret)
{
	uint64_t nr = 1ull << order;
	uint32_t mapping;

	*ret = m->error ? m->error : m->finished ? RF_ERR_STATE : 0;
	if (*ret)
		return RF_NONE;
	*index &= ~(nr - 1);
	if (file_range(m, *index, nr) < nr)
		return RF_NONE;
	mapping = file_mapping(m, dev, ino);
	*ret = m->error;
	return mapping;
}

/*
 * add_to_page_cache_lru(), v4.6.2 mm/filemap.c (v6.18 filemap_add_folio()):
 * charge, insert, and activate a refault the workingset code says is hot
 * (v4.9+: not for __GFP_WRITE inserts).  The shadow is the one the kernel's
 * insertion finds anywhere in the folio's range (xa_take_shadow()), looked
 * up after the charge, which may have reclaimed.  A large folio refaults
 * once, for all its pages.  v4.6.2's grab_cache_page_write_begin() pre-sets
 * PG_referenced on pages it creates (FGP_ACCESSED); since v4.7 ("mm: filemap:
 * only do access activations on reads") it does not.
 */
uint32_t insert_folio(struct rf_model *m, uint32_t mapping, uint64_t index, unsigned int order,
		      uint32_t memcg, bool write, enum rf_gfp gfp)
{
	uint64_t shadow;
	uint32_t idx;

	idx = new_page(m, mapping, index, order, memcg,
		       !write ? 0 : (m->p->write_not_accessed ? 0 : PG_referenced) |
		       (writeback_tracked(m) ? 0 : PG_dirty), gfp);
	if (idx == RF_NIL)
		return RF_NIL;
	shadow = xa_take_shadow(m, mapping, index, order, P(m, idx)->memcg);
	xa_store_page(m, idx);
	model_decide(m, RF_MODEL_INSERT, P(m, idx));
	if (shadow && !m->insert_cached && !(write && m->p->ws_no_write_refault))
		workingset_refault(m, P(m, idx), shadow);
	lru_cache_add(m, idx);
	return idx;
}

/* The folio of @order around @index, or the page at @index alone if that range is partly cached. */
static uint32_t add_to_page_cache_lru(struct rf_model *m, uint32_t mapping, uint64_t index,
				      unsigned int order, uint32_t memcg, bool write)
{
	uint64_t nr = 1ull << order, aligned = index & ~(nr - 1);

	if (order && range_free(m, mapping, aligned, nr))
		return insert_folio(m, mapping, aligned, order, memcg, write, RF_GFP_KERNEL);
	return insert_folio(m, mapping, index, 0, memcg, write, RF_GFP_KERNEL);
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
 * reads ended is in @rs (readpos.c).  generic_perform_write(), v4.6.2: a
 * hit is marked accessed (FGP_ACCESSED); since v4.7 a write marks nothing
 * (write_not_accessed), it only dirties.  Writes (@rs NULL) and synthetic
 * accesses do not read through a file.
 */
void file_rw(struct rf_model *m, uint32_t mapping, uint64_t index, uint64_t nr, unsigned int order,
	     uint32_t memcg, bool write, struct rf_read_state *rs)
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
		if (P(m, idx)->flags & PG_reading)
			ra_read_done(m, P(m, idx));	/* filemap_update_page() waited */
		if (write && writeback_tracked(m))
			folio_account_dirtied(m, idx);	/* writeback_dirty_folio */
		else if (write)
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
		if (!(write && (created || m->p->write_not_accessed)))
			mark_page_accessed(m, idx);
	}
	if (write && writeback_tracked(m) && !m->error)
		writeback_balance(m, memcg);
	if (rs)
		read_state_done(rs, stream, index + nr - 1,
				m->p->read_same_folio && m->mappings[mapping].large_folios);
}

/*
 * A folio the kernel read for itself (include/refault/model.h): inserted as
 * a read inserts it (add_to_page_cache_lru(), no readahead: sb_bread()
 * reads the one block), then marked accessed once per access, as
 * touch_buffer() and mark_buffer_accessed() mark a buffer's folio
 * (folio_mark_accessed(), v6.18 fs/buffer.c; mark_page_accessed(), v4.6).
 */
int rf_model_kernel_read(struct rf_model *m, uint64_t cgroup, uint32_t dev, uint64_t ino,
			 uint64_t index, unsigned int order, unsigned int accesses)
{
	unsigned int o = clamp_order(order), i;
	uint64_t nr = 1ull << o;
	uint32_t mapping, memcg;
	int ret;

	mapping = entry_folio_mapping(m, dev, ino, &index, o, &ret);
	if (mapping == RF_NONE)
		return ret;
	memcg = memcg_slot_by_cgid(m, cgroup);
	if (memcg == RF_NONE)
		memcg = 0;
	for (i = 0; i < (accesses < 2 ? 1 : 2) && !m->error; i++)
		file_rw(m, mapping, index, nr, o, memcg, false, NULL);
	return m->error;
}

/*
 * The RF_REF_* flags of file fault @ev with its vma's (the mm's, MMAP
 * events): VM_SEQ_READ / VM_RAND_READ from madvise(); @exec (may be NULL)
 * gets VM_EXEC.
 */
/* The vma of file fault @ev in its mm (*@mm), from the trace's MMAP events; NULL if none. */
static const struct rf_vma *fault_vma(const struct rf_model *m, const struct rf_event *ev,
				      struct rf_mm **mm)
{
	*mm = ev->u.file.mm ? mm_find(m, ev->u.file.mm) : NULL;
	return *mm ? find_file_vma(*mm, ev->u.file.dev, ev->u.file.ino, ev->u.file.index,
				   page_shift(m)) : NULL;
}

static uint8_t vma_fault_flags(const struct rf_event *ev, const struct rf_vma *v, bool *exec)
{
	if (exec)
		*exec = v && (v->prot & PROT_EXEC);
	return ev->u.file.flags | (v ? v->read_hint : 0);
}

uint8_t file_fault_flags(const struct rf_model *m, const struct rf_event *ev, bool *exec)
{
	struct rf_mm *x;

	return vma_fault_flags(ev, fault_vma(m, ev, &x), exec);
}

/*
 * What a fault-around folio the model does not hold does (config
 * fault_around).  The kernel had it cached and mapped it without reading
 * it.  A sequential reader goes on to touch what the window mapped, and
 * would have faulted it in where it was not cached: REFERENCE reads it in
 * as that fault.  A MADV_RANDOM reader says it will not touch it; what the
 * folio says then is only that the kernel had it: CACHED puts it in the
 * model's cache as the kernel had it, unreferenced, its shadow dropped and
 * no refault counted (a folio read in by the kernel's readahead long
 * before, as far as the model can tell).  MAPPED leaves it out.
 * DECIDED: auto, CACHED in a VM_RAND_READ mapping and REFERENCE elsewhere.
 * On 6.18's random mmap workload (docs/fidelity.md, "Random mmap"),
 * refaults after `record --cold`, where the kernel keeps an active list:
 * REFERENCE +56..+58 % (a folio the kernel kept and the model did not is
 * read in as a refault the workload never made, which evicts another),
 * MAPPED -24 % (the loads that hit resident pages are in no trace, and the
 * model's cache drifts from the kernel's), CACHED -4.2..-4.7 %; without an
 * active list -0.1..+0.2 %, -6.7..-7.8 % and -1.4..-1.6 %.  Traces
 * recorded before the flag carry fault-around folios as faults (REFERENCE).
 */
static enum rf_fault_around around_rule(const struct rf_model *m, uint8_t flags)
{
	if (m->cfg.fault_around != FAULT_AROUND_AUTO)
		return (enum rf_fault_around)m->cfg.fault_around;
	return flags & RF_REF_RAND ? FAULT_AROUND_CACHED : FAULT_AROUND_REFERENCE;
}

/*
 * filemap_fault(): a miss is a major fault, also where the trace has the
 * readahead it started first (ra_release()); no mark_page_accessed().  A
 * folio fault-around mapped (RF_REF_AROUND: do_fault_around() ->
 * filemap_map_pages(), v6.18; young PTEs, as x86 maps prefaulted pages)
 * was cached, and mapping it is no fault; one the model lacks: around_rule().
 * One already mapped keeps its PTE as it is: filemap_map_folio_range()
 * skips a PTE that is not none (v6.12; filemap_map_pages(), v6.1).  The
 * recorder writes every cached folio of each window (one window back it
 * leaves out what it wrote), so a random reader's windows name folios mapped
 * long before, whose young bits that re-mapping would set again: on 6.1,
 * where a MADV_RANDOM mapping's young bits count, the model activated
 * 78,965 pages of mmap-random against the kernel's 16,702, and 3,314 after.
 * "Already mapped" is this mm's PTE (file_pte_map()): a folio another
 * process maps gets a PTE of this one too.
 *
 * A private file mapping (MAP_PRIVATE, known from the trace's mmap): a write
 * fault is a copy on write (do_cow_fault(), or wp_page_copy() where the file
 * page was mapped read-only; v4.6.2 .. v6.18): the file folio is read as for
 * a read fault (__do_fault()) but neither mapped nor dirtied, and a new
 * anonymous page at the faulting address is.  The trace names the folio, not
 * the page in it (each of a large folio's pages written is a fault naming
 * its head): the copy goes to the folio's first page in the mapping that has
 * none, SIMPLIFIED (the count is the kernel's, the page may not be).  A write
 * fault where every page has its copy, and a read fault where the folio's
 * first page has one, is the copy's (swapped out: the recorder names the
 * address by its vma, a file's).
 */
void file_fault(struct rf_model *m, const struct rf_event *ev, uint32_t memcg)
{
	uint32_t mapping = file_mapping(m, ev->u.file.dev, ev->u.file.ino);
	uint32_t idx, anon = RF_NONE;
	bool exec, ra_miss = m->ra_fault_miss.set && m->ra_fault_miss.mapping == mapping &&
			     m->ra_fault_miss.index == ev->u.file.index;
	struct rf_mm *x;
	const struct rf_vma *v = fault_vma(m, ev, &x);
	uint8_t flags = vma_fault_flags(ev, v, &exec);
	uint64_t page = 0;

	m->ra_fault_miss.set = false;
	if (mapping == RF_NONE)
		return;
	if (v && !(flags & RF_REF_AROUND) && !(v->flags & VMA_MAP_SHARED)) {
		uint64_t end = (v->start >> page_shift(m)) + ev->u.file.index - v->pgoff +
			       (1ull << clamp_order(ev->u.file.order));

		page = (v->start >> page_shift(m)) + ev->u.file.index - v->pgoff;
		if (end > v->end >> page_shift(m))
			end = v->end >> page_shift(m);
		while ((flags & RF_REF_WRITE) && page + 1 < end && xa_load(m, x->anon_mapping, page))
			page++;
		if (xa_load(m, x->anon_mapping, page)) {
			anon_touch(m, x->anon_mapping, page, 0, flags, memcg, ANON_FAULT);
			return;
		}
		if (flags & RF_REF_WRITE)
			anon = x->anon_mapping;
	}
	idx = xa_lookup_page(m, mapping, ev->u.file.index);
	if (idx != RF_NIL && (flags & RF_REF_AROUND) &&
	    (x ? file_pte_mapped(m, x, mapping, P(m, idx)->index) : P(m, idx)->mapcount))
		return;
	if (idx == RF_NIL && (flags & RF_REF_AROUND)) {
		enum rf_fault_around rule = around_rule(m, flags);

		if (rule == FAULT_AROUND_MAPPED)
			return;
		if (rule == FAULT_AROUND_CACHED) {
			m->insert_cached = true;
			idx = add_to_page_cache_lru(m, mapping, ev->u.file.index,
						    clamp_order(ev->u.file.order), memcg, false);
			m->insert_cached = false;
			if (idx != RF_NIL)
				file_pte_map(m, x, idx, flags, exec);
			return;
		}
	}
	if (!(flags & RF_REF_AROUND) || idx == RF_NIL) {
		m->ev[EV_PGFAULT]++;
		count_memcg_event(m, memcg, EV_PGFAULT, 1);
	}
	if (idx == RF_NIL || ra_miss) {
		m->ev[EV_PGMAJFAULT]++;
		count_memcg_event(m, memcg, EV_PGMAJFAULT, 1);
	}
	if (idx == RF_NIL) {
		/* lru_gen_enter_fault(), v6.1+: vma_has_recency() */
		m->in_lru_fault = lru_gen_on(m) && !(flags & (RF_REF_SEQ | RF_REF_RAND));
		idx = add_to_page_cache_lru(m, mapping, ev->u.file.index,
					    clamp_order(ev->u.file.order), memcg, false);
		m->in_lru_fault = false;
		if (idx == RF_NIL)
			return;
	}
	if (P(m, idx)->flags & PG_reading)
		ra_read_done(m, P(m, idx));	/* lock_folio_maybe_drop_mmap() waited */
	if (anon != RF_NONE) {
		/* the copy: its fault is counted above */
		anon_touch(m, anon, page, 0, flags, memcg, ANON_ACCESS);
		return;
	}
	file_pte_map(m, x, idx, flags, exec);
}
