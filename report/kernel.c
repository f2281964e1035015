/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's decisions, from the observations the recorder wrote
 * (docs/report.md, "The kernel's decisions"):
 *   - a page-cache add (mm_filemap_add_to_page_cache) is a miss of its
 *     folio's pages, charged to the adding task and the cgroup the recorder
 *     gives; it is a refault too when one of those pages left the cache by
 *     an eviction the trace saw (the shadow workingset_refault() would find;
 *     the kernel drops some shadows first, so this counts at least as many
 *     as workingset_refault_file, which the report shows beside it);
 *   - a page-cache delete (mm_filemap_delete_from_page_cache) is an
 *     eviction, unless the deleting task is in an invalidation the trace
 *     shows (fadvise DONTNEED or a truncate of that range, until the task's
 *     next reference): those leave no shadow;
 *   - an LRU activation (mm_lru_activate) is one of the folio whose pfn the
 *     add gave; a pfn never added (anonymous memory, the cache older than
 *     the trace) is counted as unattributed.
 * Evictions and activations go to the task and cgroup of the folio's add.
 *
 * In the views of stacks an add goes to the call stack of its task's next
 * reference (file_read, file_write, file_fault, anon_fault): the recorder
 * writes a read when the read() returns and a fault when the task leaves it,
 * after the adds they made (recorder/normalize.c read_end(),
 * rec_fault_release()), so an add is counted when that reference comes.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replayer/observe/observe.h"
#include "report/report-local.h"

#define POSIX_FADV_DONTNEED	4

/*
 * Pages of a folio followed one by one (an owner entry each): 2^13, the
 * largest page-cache folio Linux makes (MAX_PAGECACHE_ORDER: a PMD of 64
 * KiB pages on arm64; 2^9 on x86-64).  A larger order from the file is
 * counted whole (to RF_OBS_MAX_ORDER, as the kernel's account counts it)
 * and followed by its first 2^13 pages, which bounds an event's work.
 */
#define TRACK_MAX_PAGES		(1ull << 13)

/* A folio whose pfn the trace gave: what an activation by pfn names. */
struct kfolio {
	uint64_t ino, index;
	uint32_t dev, gen;
	uint8_t order;
};

/* A task inside an invalidation of [first, last] of a file. */
struct inval {
	uint64_t ino, first, last;
	uint32_t dev;
	bool on;
};

/* An add waiting for its task's next reference (the views of stacks). */
struct kadd {
	struct report_folio f;
	uint64_t cgroup;
	bool refault;
};

struct kadds {
	struct kadd *adds;
	size_t nr, cap;
};

struct report_kernel {
	struct report_source s;
	struct report_map waiting_index;	/* pid -> index in waiting[] */
	struct kadds *waiting;
	size_t nr_waiting, cap_waiting;
	struct report_map pfn;		/* pfn -> index in folios[] */
	struct kfolio *folios;
	size_t nr_folios, cap_folios;
	uint64_t *free_folios;		/* indexes in folios[] free again */
	size_t nr_free, cap_free;
	struct report_map cg_index;	/* cgroup id -> index in cgs[] */
	uint64_t *cgs;
	size_t nr_cgs, cap_cgs;
	struct report_map inval_index;	/* pid -> index in invals[] */
	struct inval *invals;
	size_t nr_invals, cap_invals;
	struct rf_observe *obs;		/* for the counter snapshots; freed at the end */
	bool any;			/* a page-cache observation seen */
	bool counted;			/* the trace had /proc/vmstat snapshots */
	uint64_t refault_file;		/* their workingset_refault_file, last minus first */
};

static uint64_t folio_pages(uint8_t order)
{
	return 1ull << (order > RF_OBS_MAX_ORDER ? RF_OBS_MAX_ORDER : order);
}

static uint64_t tracked(const struct report_folio *f)
{
	return f->nr < TRACK_MAX_PAGES ? f->nr : TRACK_MAX_PAGES;
}

/*
 * The pages of @ev as the type table names them (rf_event_pages()): a
 * page-cache add's or delete's folio, an invalidation's range.  The page
 * shift is for anonymous addresses: none is looked at here.
 */
static struct rf_pages pages_of(const struct rf_event *ev)
{
	struct rf_pages p;

	rf_event_pages(ev, 12, &p);
	return p;
}

static struct report_folio folio_of(const struct report_kernel *k, const struct rf_event *ev)
{
	struct rf_pages p = pages_of(ev);

	return (struct report_folio){
		.dev = p.space.dev, .ino = p.space.id,
		.gen = report_names_file_gen(&k->s.names, p.space.dev, p.space.id),
		.index = p.first, .nr = folio_pages(p.order),
	};
}

/* An owner entry: who (report_who()), and the cgroup as an index in cgs[] (31 bits). */
static int owner_value(struct report_kernel *k, uint32_t who, uint64_t cgroup, uint64_t *v)
{
	const uint64_t *i = report_map_get(&k->cg_index, cgroup);
	uint64_t idx;

	if (i) {
		idx = *i;
	} else {
		if (k->nr_cgs >= (1ull << 31) - 1 || RF_GROW(k->cgs, k->cap_cgs, k->nr_cgs + 1))
			return RF_ERR_NOMEM;
		idx = k->nr_cgs;
		if (report_map_put(&k->cg_index, cgroup, idx))
			return RF_ERR_NOMEM;
		k->cgs[k->nr_cgs++] = cgroup;
	}
	*v = (uint64_t)who | idx << 33;
	return 0;
}

static uint64_t owner_cgroup(const struct report_kernel *k, uint64_t v)
{
	return k->cgs[v >> 33];
}

/*
 * The entry of a page the trace saw evicted but never added (cached before
 * it): evicted, for the refault of its next add, and no owner, its cgroup
 * an index owner_value() never gives.
 */
#define NO_CG		((1ull << 31) - 1)
#define NO_OWNER	(NO_CG << 33 | REPORT_OWNER_EVICTED)

/* Page @i of @f's owner entry; NULL if it has none (no entry, or NO_OWNER's). */
static const uint64_t *owner_of(const struct report_kernel *k, const struct report_folio *f,
				uint64_t i)
{
	const uint64_t *o = report_map_get(&k->s.owner, report_page_id(f, i));

	return o && *o >> 33 != NO_CG ? o : NULL;
}

/* The reference an owner entry names (none: the cache older than the trace). */
static struct report_ref owner_ref(const struct report_kernel *k, const uint64_t *o)
{
	return report_who_ref(k->s.by, o ? REPORT_OWNER_WHO(*o) : 0, o ? owner_cgroup(k, *o) : 0,
			      NULL);
}

static void count_add(struct report_kernel *k, const struct report_folio *f,
		      const struct report_ref *ref, bool refault)
{
	report_count(&k->s, RF_REPORT_MISSES, f, ref, f->nr);
	if (refault)
		report_count(&k->s, RF_REPORT_REFAULTS, f, ref, f->nr);
}

static int wait_for_reference(struct report_kernel *k, int32_t pid, const struct report_folio *f,
			      uint64_t cgroup, bool refault)
{
	const uint64_t *i = report_map_get(&k->waiting_index, (uint32_t)pid);
	struct kadds *w;

	if (!i) {
		if (RF_GROW(k->waiting, k->cap_waiting, k->nr_waiting + 1) ||
		    report_map_put(&k->waiting_index, (uint32_t)pid, k->nr_waiting))
			return RF_ERR_NOMEM;
		k->waiting[k->nr_waiting] = (struct kadds){ 0 };
		i = report_map_get(&k->waiting_index, (uint32_t)pid);
		k->nr_waiting++;
	}
	w = &k->waiting[*i];
	if (RF_GROW(w->adds, w->cap, w->nr + 1))
		return RF_ERR_NOMEM;
	w->adds[w->nr++] = (struct kadd){ .f = *f, .cgroup = cgroup, .refault = refault };
	return 0;
}

/*
 * @w's adds are the reference's of @stack: counted, and their pages' owner
 * entries (written with no stack) given it.  A page deleted and added again
 * by another task in between would be given it too: two adds of one page
 * before the first one's read returns, which the kernel does not make.
 */
static void claim(struct report_kernel *k, struct kadds *w, uint32_t stack)
{
	struct report_ref ref = { .stack = stack };
	size_t a;
	uint64_t i;

	for (a = 0; a < w->nr; a++) {
		const struct kadd *ka = &w->adds[a];

		ref.cgroup = ka->cgroup;
		count_add(k, &ka->f, &ref, ka->refault);
		for (i = 0; stack && i < tracked(&ka->f); i++) {
			uint64_t *o = report_map_get(&k->s.owner, report_page_id(&ka->f, i));

			if (o && !REPORT_OWNER_WHO(*o) && *o >> 33 != NO_CG)
				*o |= stack;
		}
	}
	w->nr = 0;
}

static void claim_pid(struct report_kernel *k, int32_t pid, uint32_t stack)
{
	const uint64_t *i = report_map_get(&k->waiting_index, (uint32_t)pid);

	if (i)
		claim(k, &k->waiting[*i], stack);
}

static struct inval *inval_of(struct report_kernel *k, int32_t pid, bool make)
{
	const uint64_t *i = report_map_get(&k->inval_index, (uint32_t)pid);

	if (i)
		return &k->invals[*i];
	if (!make || RF_GROW(k->invals, k->cap_invals, k->nr_invals + 1) ||
	    report_map_put(&k->inval_index, (uint32_t)pid, k->nr_invals))
		return NULL;
	k->invals[k->nr_invals] = (struct inval){ 0 };
	return &k->invals[k->nr_invals++];
}

/* @ev's task invalidates the pages @ev names (fadvise's range, truncate's tail). */
static int on_invalidate(struct report_kernel *k, const struct rf_event *ev)
{
	struct inval *in = inval_of(k, ev->pid, true);
	struct rf_pages p = pages_of(ev);

	if (!in)
		return RF_ERR_NOMEM;
	*in = (struct inval){ .dev = p.space.dev, .ino = p.space.id, .first = p.first,
			      .last = p.last, .on = true };
	return 0;
}

/* The delete of folio @f by @pid is its invalidation's. */
static bool invalidating(struct report_kernel *k, int32_t pid, const struct report_folio *f)
{
	struct inval *in = inval_of(k, pid, false);

	return in && in->on && in->dev == f->dev && in->ino == f->ino && f->index >= in->first &&
	       f->index <= in->last;
}

static int pfn_remember(struct report_kernel *k, const struct rf_event *ev,
			const struct report_folio *f)
{
	const uint64_t *old = report_map_get(&k->pfn, ev->u.file.pfn);
	uint64_t idx;

	if (old) {
		idx = *old;
	} else if (k->nr_free) {
		idx = k->free_folios[--k->nr_free];
	} else {
		if (RF_GROW(k->folios, k->cap_folios, k->nr_folios + 1))
			return RF_ERR_NOMEM;
		idx = k->nr_folios++;
	}
	k->folios[idx] = (struct kfolio){ .dev = f->dev, .ino = f->ino, .gen = f->gen,
					  .index = f->index, .order = ev->u.file.order };
	if (!old && report_map_put(&k->pfn, ev->u.file.pfn, idx)) {
		k->nr_folios -= idx == k->nr_folios - 1;
		return RF_ERR_NOMEM;
	}
	return 0;
}

static int pfn_forget(struct report_kernel *k, uint64_t pfn)
{
	uint64_t idx;

	if (!report_map_del(&k->pfn, pfn, &idx))
		return 0;
	if (RF_GROW(k->free_folios, k->cap_free, k->nr_free + 1))
		return RF_ERR_NOMEM;
	k->free_folios[k->nr_free++] = idx;
	return 0;
}

static int on_add(struct report_kernel *k, const struct rf_event *ev)
{
	struct report_folio f = folio_of(k, ev);
	bool refault = false;
	uint64_t i, v;

	struct report_ref ref = { .pid = ev->pid, .cgroup = ev->u.file.cgroup };

	/* in the views of stacks the owner's stack is not known yet: 0 until claim() */
	if (owner_value(k, report_who(k->s.by, ev->pid, 0), ev->u.file.cgroup, &v))
		return RF_ERR_NOMEM;
	for (i = 0; i < tracked(&f); i++) {
		uint64_t *o = report_map_get(&k->s.owner, report_page_id(&f, i));

		refault |= o && (*o & REPORT_OWNER_EVICTED);
		if (report_map_put(&k->s.owner, report_page_id(&f, i), v))
			return RF_ERR_NOMEM;
	}
	if (!report_by_stack(k->s.by))
		count_add(k, &f, &ref, refault);
	else if (wait_for_reference(k, ev->pid, &f, ev->u.file.cgroup, refault))
		return RF_ERR_NOMEM;
	return ev->u.file.pfn ? pfn_remember(k, ev, &f) : 0;
}

static int on_del(struct report_kernel *k, const struct rf_event *ev)
{
	struct report_folio f = folio_of(k, ev);
	const uint64_t *o = owner_of(k, &f, 0);
	struct report_ref ref = owner_ref(k, o);
	uint64_t i, v = o ? *o : NO_OWNER;

	if (ev->u.file.pfn && pfn_forget(k, ev->u.file.pfn))
		return RF_ERR_NOMEM;
	if (invalidating(k, ev->pid, &f)) {
		for (i = 0; i < tracked(&f); i++)
			report_map_del(&k->s.owner, report_page_id(&f, i), NULL);
		return 0;
	}
	if (o || k->s.by == RF_REPORT_BY_FILE)
		report_count(&k->s, RF_REPORT_EVICTIONS, &f, &ref, f.nr);
	else
		report_unattributed(&k->s, RF_REPORT_EVICTIONS, f.nr);
	for (i = 0; i < tracked(&f); i++)
		if (report_map_put(&k->s.owner, report_page_id(&f, i), v | REPORT_OWNER_EVICTED))
			return RF_ERR_NOMEM;
	return 0;
}

static void on_activate(struct report_kernel *k, const struct rf_event *ev)
{
	const uint64_t *idx = report_map_get(&k->pfn, ev->u.lru.pfn);
	uint64_t nr = folio_pages(ev->u.lru.order);
	const struct kfolio *kf;
	const uint64_t *o;
	struct report_folio f;
	struct report_ref ref;

	if (!idx) {
		report_unattributed(&k->s, RF_REPORT_ACTIVATIONS, nr);
		return;
	}
	kf = &k->folios[*idx];
	f = (struct report_folio){ .dev = kf->dev, .ino = kf->ino, .gen = kf->gen,
				   .index = kf->index, .nr = nr };
	o = owner_of(k, &f, 0);
	ref = owner_ref(k, o);
	if (o)
		report_count(&k->s, RF_REPORT_ACTIVATIONS, &f, &ref, nr);
	else
		report_unattributed(&k->s, RF_REPORT_ACTIVATIONS, nr);
}

int report_kernel_feed(struct report_kernel *k, const struct rf_event *ev)
{
	struct inval *in;
	int r;

	report_source_at(&k->s, ev->time);
	r = report_names_feed(&k->s.names, k->s.by, ev);
	/* the account is asked for /proc/vmstat only: it is given nothing else to keep */
	if (!r && ev->type == RF_EV_COUNTERS && ev->u.counters.source == RF_COUNTERS_VMSTAT)
		r = rf_observe_feed(k->obs, ev);
	if (r)
		return r;
	switch (ev->type) {
	case RF_EV_PAGECACHE_ADD:
		k->any = true;
		r = on_add(k, ev);
		break;
	case RF_EV_PAGECACHE_DEL:
		k->any = true;
		r = on_del(k, ev);
		break;
	case RF_EV_LRU_ACTIVATE:
		on_activate(k, ev);
		break;
	case RF_EV_FADVISE:
		if (ev->u.file.advice == POSIX_FADV_DONTNEED)
			r = on_invalidate(k, ev);
		break;
	case RF_EV_TRUNCATE:
		r = on_invalidate(k, ev);
		break;
	case RF_EV_EXIT:
		/* adds no reference of the task claimed: not another task's of its pid */
		claim_pid(k, ev->pid, 0);
		break;
	default:
		if (rf_event_class(ev->type) != RF_CLASS_REFERENCE)
			break;
		/* a reference a stack can name, not the readahead written before it */
		if (rf_event_type_info(ev->type)->stack)
			claim_pid(k, ev->pid, ev->stack);
		/* the task's next reference ends its invalidation */
		in = inval_of(k, ev->pid, false);
		if (in)
			in->on = false;
		break;
	}
	return r ? r : k->s.error;
}

int report_kernel_new(struct report_kernel **out, const struct rf_report_opts *o,
		      const struct report_heat *heat)
{
	struct report_kernel *k = calloc(1, sizeof(*k));

	*out = NULL;
	if (!k)
		return RF_ERR_NOMEM;
	report_source_init(&k->s, o);
	k->s.name = strdup(RF_REPORT_KERNEL);
	if (heat)
		k->s.heat = report_heat_new(heat);
	if (!k->s.name || rf_observe_new(&k->obs, 0, 0) || (heat && !k->s.heat)) {
		report_kernel_free(k);
		return RF_ERR_NOMEM;
	}
	*out = k;
	return 0;
}

struct report_source *report_kernel_source(struct report_kernel *k)
{
	return &k->s;
}

bool report_kernel_has_observations(const struct report_kernel *k)
{
	return k->any;
}

void report_kernel_end(struct report_kernel *k)
{
	uint64_t q[RF_OBS_NR];
	size_t i;

	/* adds that no reference of their task claimed: in the order their tasks first added */
	for (i = 0; i < k->nr_waiting; i++)
		claim(k, &k->waiting[i], 0);
	report_source_finish(&k->s);

	if (k->obs && rf_observe_host(k->obs, q)) {
		k->counted = true;
		k->refault_file = q[RF_OBS_REFAULT_FILE];
	}
	rf_observe_free(k->obs);
	k->obs = NULL;
	/* no more adds: the pages' owners and pfns are not asked again */
	report_map_destroy(&k->s.owner);
	report_map_destroy(&k->pfn);
}

bool report_kernel_counted(const struct report_kernel *k, uint64_t *refault_file)
{
	if (k->counted)
		*refault_file = k->refault_file;
	return k->counted;
}

void report_kernel_free(struct report_kernel *k)
{
	size_t i;

	if (!k)
		return;
	report_source_free(&k->s);
	report_map_destroy(&k->pfn);
	report_map_destroy(&k->cg_index);
	report_map_destroy(&k->inval_index);
	free(k->folios);
	free(k->free_folios);
	free(k->cgs);
	free(k->invals);
	for (i = 0; i < k->nr_waiting; i++)
		free(k->waiting[i].adds);
	free(k->waiting);
	report_map_destroy(&k->waiting_index);
	rf_observe_free(k->obs);
	free(k);
}
