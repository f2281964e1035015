/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_model_new/feed/finish/free: the public entry points, and the dispatch of
 * each trace event to the kernel path it stands for.  Every allocation takes
 * a page from the node (watermarks, kswapd, direct reclaim) and charges the
 * memcg before the page becomes visible, as do_anonymous_page() and
 * add_to_page_cache_lru() do.
 *
 * event            kernel path (mm/ unless named)                  model
 * FILE_READ        filemap.c: do_generic_file_read() (v4.6),        filemap.c file_rw()
 *                  filemap_read() (v6.18); add_to_page_cache_lru()
 *                  on a miss, mark_page_accessed() per folio
 * FILE_WRITE       filemap.c: generic_perform_write(),              filemap.c file_rw()
 *                  grab_cache_page_write_begin()
 * FILE_FAULT       filemap.c: filemap_fault()                       filemap.c file_fault()
 * FILE_READAHEAD   readahead.c: page_cache_ra_order() (v6.18),      readahead.c ra_hold(),
 *                  __do_page_cache_readahead() (v4.6)               ra_release()
 * ANON_FAULT       memory.c: do_anonymous_page(), do_swap_page();   memory.c anon_touch(),
 *                  huge_memory.c: do_huge_pmd_anonymous_page()      swap.c do_swap_page()
 * ACCESS           (synthetic) with RF_REF_ANON as ANON_FAULT       memory.c anon_touch()
 *                  without its fault counts, else a one-page read   filemap.c file_rw()
 * DAMON_REGION     the MMU setting young PTE bits, as DAMON's       damon.c damon_region()
 *                  mm/damon/vaddr.c sampled them
 * PTE_YOUNG        the MMU setting young PTE bits, as page_idle.c   idle.c pte_young()
 *                  page_idle_clear_pte_refs() found them
 * MMAP             mmap.c: mmap_region()                            mmap.c mmap_region()
 * MUNMAP           mmap.c: do_munmap(), unmap_region();             mmap.c do_munmap(),
 *                  memory.c: zap_pte_range()                        memory.c zap_range()
 * MADVISE          madvise.c: madvise_dontneed_free(),              madvise.c do_madvise()
 *                  madvise_pageout(); vmscan.c: reclaim_pages()
 * FADVISE          fadvise.c: generic_fadvise();                    fadvise.c generic_fadvise(),
 *                  truncate.c: invalidate_mapping_pages()           truncate.c
 * TRUNCATE         truncate.c: truncate_inode_pages_range()         truncate.c
 * FILE_SYNC        fs/sync.c: vfs_fsync_range(), sync_file_range(),  writeback.c
 *                  ksys_sync() -> filemap_fdatawrite_range()        writeback_file_sync()
 * FILE_WRITTEN     page-writeback.c: __folio_end_writeback()         writeback.c
 *                                                                   writeback_written()
 * FORK, EXEC,      kernel/fork.c: copy_process(), mmput();          fork.c task_event(),
 * EXIT, NAME_PID   fs/exec.c: exec_mmap(); kernel/exit.c:           mmap.c mm_put()
 *                  exit_mm(); mmap.c: exit_mmap()
 * CGROUP_MKDIR     memcontrol.c: mem_cgroup_css_alloc(), _online()  memcg.c memcg_mkdir()
 * CGROUP_RMDIR     memcontrol.c: mem_cgroup_css_offline()           memcg.c memcg_rmdir()
 * CGROUP_ATTACH    kernel/cgroup: cgroup_attach_task()              fork.c pid_get()
 * CGROUP_LIMIT     memcontrol.c: memory_max_write() and the like    memcg.c memcg_set_limit()
 * COUNTERS         memcontrol.c: mem_cgroup_flush_stats() at a      memcg-stats.c
 *  (memory.stat)   memory.stat read (v6.x rstat)
 * (any event)      memcontrol.c: flush_memcg_stats_dwork(), every   memcg-stats.c
 *                  2 s of the event clock (v6.x rstat)              memcg_stats_tick()
 * anything else    nothing (counted in model.events_ignored)
 *
 * Under them: the allocator (page_alloc.c), the per-CPU LRU batches
 * (pagevec.c, mm/swap.c), the page cache tree (pagecache.c), THP splits
 * (huge_memory.c), reclaim (vmscan.c), workingset (workingset.c), memcg
 * charging (memcg.c), swap (swap.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "model-local.h"
#include "config.h"
#include "filemap.h"
#include "lru.h"
#include "memcg.h"
#include "mm.h"
#include "page_alloc.h"
#include "pagecache.h"
#include "readahead.h"
#include "writeback.h"

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
		mmap_region(m, x, ev, start, end);
		break;
	case RF_EV_MUNMAP:
		do_munmap(m, x, start, end);
		break;
	case RF_EV_MADVISE:
		do_madvise(m, x, ev->u.vma.advice, start, end);
		break;
	default:
		break;
	}
}

static void on_cgroup(struct rf_model *m, const struct rf_event *ev)
{
	struct rf_pid *t;
	uint32_t slot;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		switch (memcg_mkdir(m, ev->u.cgroup.id, ev->u.cgroup.parent, ev->u.cgroup.path)) {
		case 0:
			break;
		case 1:
			m->nr_ignored++;	/* folded into its parent */
			break;
		default:
			m->error = RF_ERR_NOMEM;
		}
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
		if (ev->type == RF_EV_FADVISE)
			generic_fadvise(m, mapping, ev->u.file.advice, ev->u.file.index,
					ev->u.file.nr);
		else
			truncate_inode_pages_range(m, mapping, ev->u.file.index,
						   ev->u.file.flags & RF_TRUNC_UNLINK);
		return;
	}
	mapping = file_mapping(m, ev->u.file.dev, ev->u.file.ino);
	if (mapping == RF_NONE)
		return;
	nr = file_range(m, ev->u.file.index, ev->u.file.nr);
	if (!nr)
		return;
	if (ev->type == RF_EV_FILE_FAULT) {
		file_fault(m, ev, memcg);
	} else if (ev->type == RF_EV_FILE_READAHEAD) {
		ra_hold(m, ev, memcg);
	} else if (ev->type == RF_EV_FILE_WRITE) {
		file_rw(m, mapping, ev->u.file.index, nr, clamp_order(ev->u.file.order), memcg,
			true, NULL);
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
			   ev->u.access.flags, memcg, ANON_ACCESS);
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
	FEED_DAMON,
	FEED_YOUNG,
	FEED_SYNC,
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
	[RF_EV_DAMON_REGION] = FEED_DAMON,
	[RF_EV_PTE_YOUNG] = FEED_YOUNG,
	[RF_EV_FILE_SYNC] = FEED_SYNC,
	[RF_EV_FILE_WRITTEN] = FEED_SYNC,
};

static enum feed_kind feed_kind(uint16_t type)
{
	return type < ARRAY_SIZE(feed_kinds) ? (enum feed_kind)feed_kinds[type] : FEED_IGNORE;
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
	/* the vma's madvise() read hint, as for file faults (filemap.c file_fault()) */
	anon_touch(m, x->anon_mapping, ev->u.anon.addr >> page_shift(m),
		   clamp_order(ev->u.anon.order), ev->u.anon.flags | vma_read_hint(x, ev->u.anon.addr),
		   memcg, x->born ? ANON_FAULT_ZERO : ANON_FAULT);
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
	m->now = ev->time;
	if (m->nr_ra_held && kind != FEED_IGNORE)
		ra_release(m, ev);
	m->cur_cpu = ev->cpu < m->cfg.cpus ? ev->cpu : ev->cpu % m->cfg.cpus;	/* no division per event */
	memcg_stats_tick(m, ev->time);
	writeback_tick(m);
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
		task_event(m, ev);
		break;
	case FEED_CGROUP:
		on_cgroup(m, ev);
		break;
	case FEED_COUNTERS:
		on_counters(m, ev);
		break;
	case FEED_DAMON:
		damon_region(m, ev);
		break;
	case FEED_YOUNG:
		pte_young(m, ev);
		break;
	case FEED_SYNC:
		if (ev->type == RF_EV_FILE_WRITTEN)
			writeback_written(m, ev);
		else if (writeback_tracked(m))
			writeback_file_sync(m, ev);
		break;
	case FEED_IGNORE:
	default:
		m->nr_ignored++;	/* observations, names, meta: nothing to model */
		break;
	}
	return m->error;
}

int rf_model_feed_hinted(struct rf_model *m, const struct rf_event *ev,
			 const struct rf_model_prefetch *st)
{
	if (st && !m->error && (ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_FAULT))
		xa_take_hint(m, st);
	return rf_model_feed(m, ev);
}

void rf_model_set_decision_cb(struct rf_model *m, rf_model_decision_cb cb, void *ctx)
{
	m->decide_cb = cb;
	m->decide_ctx = ctx;
}

void model_decide_page(struct rf_model *m, enum rf_model_decision d, const struct rf_page *p)
{
	const struct rf_mapping *mp = &m->mappings[p->mapping];
	const struct rf_memcg *mc = m->memcgs[p->memcg];
	struct rf_model_folio f = { .index = p->index, .nr = page_nr(p), .cgroup = mc->cgid,
				    .memcg = mc->path, .anon = mp->kind == MAPPING_ANON };

	if (f.anon) {
		f.mm = mp->ino;
	} else {
		f.ino = mp->ino;
		f.dev = mp->dev;
	}
	m->decide_cb(d, &f, m->decide_ctx);
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

int rf_model_new(struct rf_model **out, const struct rf_model_config *c, char *err, size_t errlen)
{
	struct rf_model *m;
	uint32_t i;
	int r;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	r = cfg_validate(c, err, errlen);
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
	m->cfg.cap_limits = c->nr_limits + 1;
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
	m->rng = c->lru_gen_seed;
	m->nr_cpus = c->cpus + 1;
	m->cpus = calloc(m->nr_cpus, sizeof(*m->cpus));
	m->nr_page_slots = 1;			/* slot 0 is RF_NIL */
	m->nr_node_slots = 1;
	m->access_mapping[0] = m->access_mapping[1] = RF_NONE;
	/* the other indexes start empty (a zeroed map is one) and grow */
	for (i = 0; i < MEMCG_NR_GENS * MEMCG_NR_BINS; i++) {
		m->memcg_lru_head[i / MEMCG_NR_BINS][i % MEMCG_NR_BINS] = RF_NONE;
		m->memcg_lru_tail[i / MEMCG_NR_BINS][i % MEMCG_NR_BINS] = RF_NONE;
	}
	if (!m->cpus || RF_GROW(m->pages, m->cap_pages, 1024) ||
	    RF_GROW(m->nodes, m->cap_nodes, 256) || pair_map_init(&m->node_index, 1024) ||
	    memcg_root_init(m))
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
	for (i = 0; i < m->nr_mms; i++) {
		free(m->mms[i].vmas);
		file_ptes_free(&m->mms[i]);
	}
	free(m->mms);
	free(m->pids);
	free(m->mappings);
	free(m->dirty_mappings);
	free(m->reclaim_bits);
	free(m->nodes);
	free(m->pages);
	free(m->cpus);
	free(m->read_state);
	pair_map_destroy(&m->node_index);
	pair_map_destroy(&m->mapping_index);
	id_map_destroy(&m->cgid_index);
	id_map_destroy(&m->cgid_folded);
	id_map_destroy(&m->pid_index);
	id_map_destroy(&m->mm_index);
	free(m);
}
