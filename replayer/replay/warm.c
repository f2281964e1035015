/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The page cache before the trace began.  The kernel had the program, its
 * libraries and other files cached when the recording started; the trace
 * then shows them as references to pages it never saw enter the cache.
 * A model that starts empty misses them and, worse, charges them to the
 * recorded cgroup, where limit reclaim evicts and reads them again: the
 * kernel had charged them to whichever memcg read them first (v1 never
 * moves a charge on access), outside the freshly created recorded one.
 *
 * A first pass over the trace finds them, and before the first event the
 * model is given them as resident pages of its root memcg, unreferenced,
 * by file_readahead events of no task (pid 0 charges the root).
 *
 * Which mention of a page decides it, in file order (the order the model
 * replays): an observed add or delete means the trace saw the page's fate
 * (a delete it never saw added was cached before but left: replay without
 * it); a file_readahead names pages the kernel just added (the recorder
 * builds it from the adds; a cached page in the window is skipped by
 * page_cache_ra_unbounded() and is no add), and a file_write may create a
 * page without reading it: neither says the page was cached.  A file_read
 * or a file_fault (the faulting folio, or a folio fault-around mapped)
 * touches a page that is in the cache at that moment: if it is the
 * page's first mention, the page was cached before the trace.
 *
 * The shadows before the trace.  A folio the trace first mentions as an
 * observed add may have been a refault: its shadow was left before the
 * trace (a command run twice finds the first run's).  The kernel counted
 * it (workingset_refault(), in the memory.stat of the memcg it charged it
 * to) and, when it found the shadow recent, activated it.  Which first adds
 * were refaults, from the counter: between two snapshots of a memcg's
 * workingset_refault_file, the kernel counted R refaults; the adds of pages
 * the trace saw the kernel delete (their shadows in the trace) account for
 * up to D of them, and the first R - D pages of first adds that the
 * workload then used (a read, fault, readahead or write named them: the
 * model inserts those; a file system's metadata in the block device's
 * cache is never named) were refaults, in trace order.  Which were recent:
 * under the classic LRU, workingset_refault() sets PG_active before
 * folio_add_lru() (v6.18; since v3.15, mm/workingset.c), so the folio's
 * insertion is on the active file list; the other way a new folio goes on
 * the LRU active is a second access while it still sits in the CPU's batch
 * (folio_mark_accessed() -> __lru_cache_activate_folio()): one reference
 * between the add and the insertion is the access that read it in, two
 * may be that, and such a folio is taken as not recent.  A multi-gen LRU
 * recording activates a folio inserted in a fault whatever its history
 * (folio_add_lru(), lru_gen_in_fault()): its refaults are all taken as not
 * recent.  A trace without memcg counter snapshots has only the insertions:
 * its first adds inserted active are its refaults then.
 *
 * The kernel's verdict rests on its whole workingset (every memcg's active
 * pages, not only the trace's), which the model does not have, so the model
 * is given each such shadow at the kernel's add (replay_warm_plant()) with
 * that verdict (rf_model_plant_shadow()): it refaults the folio at its
 * insertion, recent or not as the kernel found it.
 */
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/replay/replay-local.h"

RF_HASHMAP_DEFINE(page_set, uint64_t, uint8_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* A read larger than this (4 GiB of 4 KiB pages) is clipped: it bounds one event's work. */
#define MAX_EVENT_PAGES		(1ull << 20)

/*
 * A page's value in the seen set: mentioned; the references that touched
 * it while an add waited for its insertion (saturating); the kernel's
 * delete was its last mention (a re-add finds its shadow); no reference or
 * readahead named it since its first add (the model never inserts it).
 */
#define V_SEEN			0x01u
#define V_REF			0x02u		/* one reference, in bits 1..5 */
#define V_REFS			0x3eu
#define V_DELETED		0x40u
#define V_UNUSED		0x80u

/*
 * In the verdict set, by the first add's plant_key(): the refault's order
 * << 2 and whether the kernel found it recent.  The pfn in the key makes
 * it that add's: a later add of the page (after the model's own eviction)
 * is the model's to judge.
 */
#define SHADOW_OLD		1u
#define SHADOW_RECENT		2u

static inline uint64_t plant_key(uint64_t page_key, uint64_t pfn)
{
	return rf_hash2(page_key, pfn);
}

struct warm_folio {
	uint64_t ino;
	uint64_t index;			/* first page */
	uint32_t dev;
	uint8_t order;
};

/* A folio first mentioned by its add, and its space's part of its pages' keys. */
struct warm_add {
	struct warm_folio f;
	uint64_t space_key;
};

RF_HASHMAP_DEFINE(add_map, uint64_t, struct warm_add, rf_hash64, RF_HASHMAP_EQ, 50)

/*
 * Adds waiting for their insertion, at most: a folio waits in its CPU's
 * batch (PAGEVEC_SIZE, 15 or 31 folios) until the batch drains; more
 * waiting means the insertions are not in the trace (it was recorded
 * without them, or they were lost), and the adds are forgotten.
 */
#define MAX_WAITING_ADDS	(1u << 16)

/* A first add, by its first page's key, its folio's pfn, and its pages. */
struct first_add {
	uint64_t key;
	uint64_t pfn;
	uint32_t nr;
};

/* First page's key -> pfn << 4 | order + 1: a first add inserted active after at most one read. */
RF_HASHMAP_DEFINE(recent_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 50)

/* Between two snapshots of a memcg: its first adds, its re-adds, the refaults it counted. */
struct interval {
	size_t first, end;		/* its first adds: adds[first .. end) of the memcg */
	uint64_t readds;		/* pages */
	uint64_t refaults;		/* the counter's delta at the snapshot that closed it */
};

/* A memcg of the trace, by its counter snapshots. */
struct warm_memcg {
	uint64_t id;			/* the trace's cgroup id */
	uint64_t last;			/* workingset_refault_file at its last snapshot */
	bool counted;			/* a snapshot had it */
	struct first_add *adds;		/* since its first snapshot, in trace order */
	size_t nr_adds, cap_adds;
	struct interval *ivs;		/* closed by a snapshot */
	size_t nr_ivs, cap_ivs;
	struct interval cur;		/* since the last snapshot */
};

RF_HASHMAP_DEFINE(memcg_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 50)

struct replay_warm {
	struct page_set seen;		/* page by rf_pages_key() -> V_* */
	struct warm_folio *folios;	/* cached before the trace */
	size_t nr, cap;
	uint64_t pages;
	struct add_map added;		/* pfn -> a folio first mentioned by its add, until inserted */
	struct recent_map recent;	/* the first adds inserted active (on_insertion()) */
	struct memcg_map memcg_at;	/* trace cgroup id -> index in memcgs */
	struct warm_memcg *memcgs;
	size_t nr_memcgs, cap_memcgs;
	bool any_counter;		/* some memcg snapshot had the refault counter */
	struct page_set shadows;	/* the verdicts, by plant_key(): order << 2 | SHADOW_* */
	uint64_t shadow_pages, recent_pages;
	bool classic;			/* recorded without the multi-gen LRU */
	uint64_t t_first;		/* the first event's time */
	bool any_event;
	struct replay_kread *kread;	/* the folios the kernel read for itself (kread.c) */
};

static int push_folio(struct replay_warm *w, const struct rf_pages *p, uint64_t index,
		      unsigned int order)
{
	if (RF_GROW(w->folios, w->cap, w->nr + 1))
		return RF_ERR_NOMEM;
	w->folios[w->nr++] = (struct warm_folio){ .dev = p->space.dev, .ino = p->space.id,
						  .index = index, .order = (uint8_t)order };
	w->pages += 1ull << order;
	return 0;
}

/* @p's pages not mentioned before. */
static uint64_t count_new(const struct replay_warm *w, const struct rf_pages *p)
{
	uint64_t i, fresh = 0;

	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES; i++)
		fresh += !page_set_get(&w->seen, rf_pages_key(p, i));
	return fresh;
}

/* @p's pages are named by a readahead or a write: mentioned, used, nothing counted. */
static int mention(struct replay_warm *w, const struct rf_pages *p)
{
	uint64_t i;

	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES; i++)
		if (page_set_put(&w->seen, rf_pages_key(p, i), V_SEEN))
			return RF_ERR_NOMEM;
	return 0;
}

/*
 * A reference that reads pages in the cache: each page mentioned for the
 * first time was cached before the trace; one mentioned before is used,
 * and counts the reference while an add waits (on_insertion()).  A fault
 * names a whole folio (its first page and order): kept as that folio when
 * all of it is new, else as its new base pages.
 */
static int on_read(struct replay_warm *w, const struct rf_pages *p)
{
	unsigned int order = p->folio ? p->order : 0;
	bool waiting = add_map_count(&w->added);
	uint64_t i;
	int e = 0;

	if (order && count_new(w, p) == p->nr) {
		e = push_folio(w, p, p->first, order);
		return e ? e : mention(w, p);
	}
	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES && !e; i++) {
		uint8_t *v = page_set_get(&w->seen, rf_pages_key(p, i));

		if (v) {
			*v &= (uint8_t)~(V_UNUSED | V_DELETED);
			if (waiting && (*v & V_REFS) != V_REFS)
				*v += V_REF;
			continue;
		}
		e = page_set_put(&w->seen, rf_pages_key(p, i), V_SEEN);
		if (!e)
			e = push_folio(w, p, p->first + i, 0);
	}
	return e;
}

/* ------------------------------------------------------ shadows before the trace */

static struct warm_memcg *memcg_of(struct replay_warm *w, uint64_t id, bool create)
{
	const uint32_t *at = memcg_map_get(&w->memcg_at, id);

	if (at)
		return &w->memcgs[*at];
	if (!create || RF_GROW(w->memcgs, w->cap_memcgs, w->nr_memcgs + 1) ||
	    memcg_map_put(&w->memcg_at, id, (uint32_t)w->nr_memcgs))
		return NULL;
	w->memcgs[w->nr_memcgs] = (struct warm_memcg){ .id = id };
	return &w->memcgs[w->nr_memcgs++];
}

static void memcg_free(struct warm_memcg *c)
{
	free(c->adds);
	free(c->ivs);
	c->adds = NULL;
	c->ivs = NULL;
	c->nr_adds = c->cap_adds = c->nr_ivs = c->cap_ivs = 0;
}

/*
 * A memcg snapshot closes the interval since the one before, with the
 * refaults counted in it.  The first snapshot only starts the count.
 */
static int on_counters(struct replay_warm *w, const struct rf_event *ev)
{
	static const char *const names[] = { "total_workingset_refault_file",
					      "workingset_refault_file", "workingset_refault" };
	struct warm_memcg *c;
	uint64_t value = 0;
	bool found = false;
	size_t j;
	uint32_t i;

	if (ev->u.counters.source != RF_COUNTERS_MEMCG_STAT)
		return 0;
	for (j = 0; j < sizeof(names) / sizeof(names[0]) && !found; j++)
		for (i = 0; i < ev->u.counters.nr && !found; i++)
			if (!strcmp(ev->u.counters.entries[i].name, names[j])) {
				value = ev->u.counters.entries[i].value;
				found = true;
			}
	if (!found)
		return 0;
	c = memcg_of(w, ev->u.counters.cgroup, true);
	if (!c)
		return RF_ERR_NOMEM;
	w->any_counter = true;
	if (c->counted) {
		if (RF_GROW(c->ivs, c->cap_ivs, c->nr_ivs + 1))
			return RF_ERR_NOMEM;
		c->cur.end = c->nr_adds;
		c->cur.refaults = value > c->last ? value - c->last : 0;
		c->ivs[c->nr_ivs++] = c->cur;
	}
	c->cur = (struct interval){ .first = c->nr_adds };
	c->last = value;
	c->counted = true;
	return 0;
}

/* The first @want pages of @c's first adds in @iv the workload used are refaults; the pages taken. */
static int take(struct replay_warm *w, const struct warm_memcg *c, const struct interval *iv,
		uint64_t want, uint64_t *took)
{
	size_t i;

	*took = 0;
	for (i = iv->first; i < iv->end && *took < want; i++) {
		const struct first_add *a = &c->adds[i];
		const uint8_t *v = page_set_get(&w->seen, a->key);

		if (!v || (*v & V_UNUSED) || a->nr > want - *took)
			continue;
		if (page_set_put(&w->shadows, plant_key(a->key, a->pfn),
				 (uint8_t)(__builtin_ctz(a->nr) << 2 |
					   (recent_map_get(&w->recent, a->key) ? SHADOW_RECENT :
										 SHADOW_OLD))))
			return RF_ERR_NOMEM;
		*took += a->nr;
		w->shadow_pages += a->nr;
		w->recent_pages += recent_map_get(&w->recent, a->key) ? a->nr : 0;
	}
	return 0;
}

/*
 * The refaults of @c's first adds.  Over the whole trace, the refaults the
 * memcg counted beyond its re-adds (each a refault while its shadow lasts);
 * in each interval, those beyond the interval's re-adds, in trace order.
 * A snapshot races the workload: the counter may include adds the trace
 * shows just after the snapshot (a trace recorded before the counters
 * were stamped at the end of their read), or lag by the statistics' flush
 * threshold.  So what one interval counts beyond its adds is carried to
 * the next, and no interval takes more than the whole trace leaves: a
 * run that added no refault of an earlier shadow (after `record --cold`)
 * gets none, whatever the intervals say.
 */
static int decide(struct replay_warm *w, const struct warm_memcg *c)
{
	uint64_t refaults = 0, readds = 0, budget;
	int64_t carry = 0;
	size_t k;

	for (k = 0; k < c->nr_ivs; k++) {
		refaults += c->ivs[k].refaults;
		readds += c->ivs[k].readds;
	}
	budget = refaults > readds ? refaults - readds : 0;
	for (k = 0; k < c->nr_ivs && budget; k++) {
		const struct interval *iv = &c->ivs[k];
		int64_t v = (int64_t)iv->refaults - (int64_t)iv->readds + carry;
		uint64_t took = 0;
		int e = v > 0 ? take(w, c, iv, (uint64_t)v < budget ? (uint64_t)v : budget, &took) : 0;

		if (e)
			return e;
		carry = v - (int64_t)took;
		budget -= took;
	}
	return 0;
}

/*
 * An observed add of file pages.  Of pages all new: a first add, waiting
 * for its insertion and for its memcg's next snapshot.  Of a page the
 * kernel deleted before: a re-add, which its memcg counts as a refault if
 * the shadow is still there.
 */
static int on_add(struct replay_warm *w, const struct rf_event *ev, const struct rf_pages *p)
{
	struct warm_memcg *c = memcg_of(w, ev->u.file.cgroup, false);
	uint64_t i, nr = p->nr < MAX_EVENT_PAGES ? p->nr : MAX_EVENT_PAGES;
	uint8_t *first = page_set_get(&w->seen, rf_pages_key(p, 0));

	if (c && !c->counted)
		c = NULL;
	add_map_del(&w->added, ev->u.file.pfn, NULL);
	if (count_new(w, p) != nr) {
		if (first && (*first & V_DELETED) && c)
			c->cur.readds += nr;
		/* an add is no use: a page no reference named stays unused */
		for (i = 0; i < nr; i++) {
			bool fresh;
			uint8_t *v = page_set_slot(&w->seen, rf_pages_key(p, i), &fresh);

			if (!v)
				return RF_ERR_NOMEM;
			*v = (uint8_t)(V_SEEN | (fresh ? 0 : *v & V_UNUSED));
		}
		return 0;
	}
	for (i = 0; i < nr; i++)
		if (page_set_put(&w->seen, rf_pages_key(p, i), V_SEEN | V_UNUSED))
			return RF_ERR_NOMEM;
	if (c) {
		if (RF_GROW(c->adds, c->cap_adds, c->nr_adds + 1))
			return RF_ERR_NOMEM;
		c->adds[c->nr_adds++] = (struct first_add){ .key = rf_pages_key(p, 0),
							    .pfn = ev->u.file.pfn,
							    .nr = (uint32_t)nr };
	}
	if (!w->classic || (!p->folio && nr > 1))
		return 0;
	if (add_map_count(&w->added) >= MAX_WAITING_ADDS)
		add_map_destroy(&w->added);
	return add_map_put(&w->added, ev->u.file.pfn, (struct warm_add){
		.f = { .dev = p->space.dev, .ino = p->space.id, .index = p->first,
		       .order = p->folio ? p->order : 0 },
		.space_key = p->space_key });
}

/* The kernel deleted @p's pages: a re-add finds their shadow; a folio waiting for its insertion left. */
static int on_delete(struct replay_warm *w, const struct rf_event *ev, const struct rf_pages *p)
{
	uint64_t i;

	add_map_del(&w->added, ev->u.file.pfn, NULL);
	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES; i++) {
		bool fresh;
		uint8_t *v = page_set_slot(&w->seen, rf_pages_key(p, i), &fresh);

		if (!v)
			return RF_ERR_NOMEM;
		*v = (uint8_t)((fresh ? V_SEEN : *v) | V_DELETED);
	}
	return 0;
}

/*
 * The insertion of a first add: on the active file list (enum lru_list:
 * LRU_ACTIVE_FILE, 3) and read at most once since its add, it was a
 * recent refault.
 */
static int on_insertion(struct replay_warm *w, const struct rf_event *ev)
{
	struct warm_add a;
	uint64_t i, nr, refs = 0;

	if (!add_map_del(&w->added, ev->u.lru.pfn, &a) || ev->u.lru.lru != 3)
		return 0;
	nr = 1ull << a.f.order;
	for (i = 0; i < nr; i++) {
		const uint8_t *v = page_set_get(&w->seen, rf_page_key(a.space_key, a.f.index + i));

		refs += v ? (*v & V_REFS) / V_REF : 0;
	}
	if (refs > 1)
		return 0;
	return recent_map_put(&w->recent, rf_page_key(a.space_key, a.f.index),
			      ev->u.lru.pfn << 4 | (a.f.order + 1u));
}

static int warm_step(struct replay_warm *w, const struct rf_event *ev)
{
	struct rf_pages p;

	if (!w->any_event) {
		w->t_first = ev->time;
		w->any_event = true;
	}
	if (ev->type == RF_EV_LRU_ADD) {
		int e = replay_kread_insertion(w->kread, ev);

		return !e && add_map_count(&w->added) ? on_insertion(w, ev) : e;
	}
	if (ev->type == RF_EV_COUNTERS)
		return on_counters(w, ev);
	/*
	 * The file pages the event finds, puts or names in the page cache (the
	 * type table's, rf_event_pages(); a range of no pages is one page, as
	 * the model reads it); not the range a state event drops (fadvise,
	 * truncate).  The page shift is for anonymous addresses: none is
	 * looked at.
	 */
	if (rf_event_class(ev->type) == RF_CLASS_STATE || !rf_event_pages(ev, 12, &p) ||
	    p.space.kind != RF_SPACE_FILE)
		return 0;
	if (ev->type == RF_EV_PAGECACHE_ADD) {
		int e = replay_kread_add(w->kread, ev, &p);

		return e ? e : on_add(w, ev, &p);
	}
	if (ev->type == RF_EV_PAGECACHE_DEL) {
		replay_kread_forget(w->kread, ev);
		return on_delete(w, ev, &p);
	}
	if (replay_kread_named(w->kread, &p, ev->type == RF_EV_FILE_WRITE))
		return RF_ERR_NOMEM;
	return p.reads ? on_read(w, &p) : mention(w, &p);
}

/*
 * The verdicts, at the end of the scan: each memcg's first adds that were
 * refaults (the adds after its last snapshot have no count: none), recent
 * if their insertion said so.  Without any memcg counter, the first adds
 * inserted active that the workload used are the refaults.
 */
static int shadows_finish(struct replay_warm *w)
{
	struct recent_map_slot *s = NULL;
	size_t i;
	int e = 0;

	for (i = 0; i < w->nr_memcgs && !e; i++)
		e = decide(w, &w->memcgs[i]);
	if (w->any_counter)
		return e;
	while (!e && (s = recent_map_next(&w->recent, s)) != NULL) {
		const uint8_t *v = page_set_get(&w->seen, s->key);
		unsigned int order = (unsigned int)(s->val & 15u) - 1;

		if (!v || (*v & V_UNUSED))
			continue;
		e = page_set_put(&w->shadows, plant_key(s->key, s->val >> 4),
				 (uint8_t)(order << 2 | SHADOW_RECENT));
		w->shadow_pages += 1ull << order;
		w->recent_pages += 1ull << order;
	}
	return e;
}

static int cmp_folio(const void *a, const void *b)
{
	const struct warm_folio *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return 0;
}

/* What only the scan needs. */
static void scan_free(struct replay_warm *w)
{
	size_t i;

	page_set_destroy(&w->seen);
	add_map_destroy(&w->added);
	recent_map_destroy(&w->recent);
	memcg_map_destroy(&w->memcg_at);
	for (i = 0; i < w->nr_memcgs; i++)
		memcg_free(&w->memcgs[i]);
	free(w->memcgs);
	w->memcgs = NULL;
	w->nr_memcgs = w->cap_memcgs = 0;
}

void replay_warm_free(struct replay_warm *w)
{
	if (!w)
		return;
	scan_free(w);
	free(w->folios);
	page_set_destroy(&w->shadows);
	replay_kread_free(w->kread);
	free(w);
}

int replay_warm_scan(struct replay_warm **out, const char *path, bool skip_damaged, char *err,
		     size_t errlen)
{
	struct rf_trace_reader *rd = NULL;
	struct replay_warm *w = calloc(1, sizeof(*w));
	struct rf_event ev;
	int e, got;

	*out = NULL;
	if (!w)
		return RF_ERR_NOMEM;
	e = rf_trace_reader_open(&rd, path, skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (!e) {
		w->classic = !rf_trace_host_lru_gen_on(&rf_trace_reader_header(rd)->host);
		w->kread = replay_kread_new(w->classic);
		if (!w->kread)
			e = RF_ERR_NOMEM;
	}
	while (!e && (got = rf_trace_reader_next(rd, &ev)) != 0) {
		if (got < 0) {
			snprintf(err, errlen, "%s: %s", path, rf_trace_reader_errmsg(rd));
			e = got;
		} else {
			e = warm_step(w, &ev);
		}
	}
	rf_trace_reader_close(rd);
	if (!e)
		e = shadows_finish(w);
	if (!e)
		e = replay_kread_finish(w->kread);
	/* the seen pages were needed for the scan only; the folios go in file order */
	scan_free(w);
	if (w->nr)
		qsort(w->folios, w->nr, sizeof(*w->folios), cmp_folio);
	if (e) {
		if (!err[0])
			snprintf(err, errlen, "looking for pages cached before the trace: %s",
				 rf_strerror(e));
		replay_warm_free(w);
		return e;
	}
	*out = w;
	return 0;
}

uint64_t replay_warm_pages(const struct replay_warm *w)
{
	return w ? w->pages : 0;
}

uint64_t replay_warm_shadow_pages(const struct replay_warm *w, uint64_t *recent)
{
	if (recent)
		*recent = w ? w->recent_pages : 0;
	return w ? w->shadow_pages : 0;
}

/*
 * At the kernel's add of a folio that was a refault, @m is given its shadow
 * with the kernel's verdict: @m refaults it at its insertion (unless it
 * still holds the folio, or a shadow of its own there, which decides).  At
 * the add of a folio the kernel read for itself, @m reads it in (kread.c).
 */
int replay_warm_plant(const struct replay_warm *w, struct rf_model *m, const struct rf_event *ev)
{
	const uint8_t *v;
	struct rf_pages p;
	int e = 0;

	if (!w || ev->type != RF_EV_PAGECACHE_ADD || !rf_event_pages(ev, 12, &p) ||
	    p.space.kind != RF_SPACE_FILE)
		return 0;
	if (page_set_count(&w->shadows) &&
	    (v = page_set_get(&w->shadows, plant_key(rf_pages_key(&p, 0), ev->u.file.pfn))))
		e = rf_model_plant_shadow(m, p.space.dev, p.space.id, p.first, *v >> 2,
					  (*v & 3u) == SHADOW_RECENT);
	return e ? e : replay_kread_plant(w->kread, m, ev, &p);
}

uint64_t replay_warm_kernel_pages(const struct replay_warm *w)
{
	return w ? replay_kread_pages(w->kread) : 0;
}

uint64_t replay_warm_start(const struct replay_warm *w)
{
	return w ? w->t_first : 0;
}

/*
 * The model drains a CPU's LRU batch (lru_add_drain()) before a truncate:
 * one beyond the end of any file frees nothing and leaves the loaded pages
 * on the LRU, where pages cached long before the trace are, not in the
 * batch the workload's first insertions would share.
 */
static int drain(struct rf_model *m, const struct warm_folio *f, uint64_t t)
{
	struct rf_event ev = { .time = t, .type = RF_EV_TRUNCATE };

	ev.u.file.dev = f->dev;
	ev.u.file.ino = f->ino;
	ev.u.file.index = UINT64_MAX >> 1;
	return rf_model_feed(m, &ev);
}

/*
 * Give @m the pages, at time @t, in runs of one order per file: as
 * file_readahead of pid 0 (no task: the root memcg; inserted unreferenced,
 * on the inactive list, as readahead leaves them).
 */
int replay_warm_load(const struct replay_warm *w, struct rf_model *m, uint64_t t)
{
	size_t i = 0, j;
	int e = 0;

	if (!w || !w->nr)
		return 0;
	while (i < w->nr && !e) {
		const struct warm_folio *f = &w->folios[i];
		struct rf_event ev = { .time = t, .type = RF_EV_FILE_READAHEAD };
		uint64_t next = f->index + (1ull << f->order);

		for (j = i + 1; j < w->nr && w->folios[j].dev == f->dev &&
		     w->folios[j].ino == f->ino && w->folios[j].order == f->order &&
		     w->folios[j].index == next; j++)
			next += 1ull << f->order;
		ev.u.file.dev = f->dev;
		ev.u.file.ino = f->ino;
		ev.u.file.index = f->index;
		ev.u.file.nr = next - f->index;
		ev.u.file.order = f->order;
		e = rf_model_feed(m, &ev);
		i = j;
	}
	return e ? e : drain(m, &w->folios[0], t);
}
