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

struct warm_folio {
	uint64_t ino;
	uint64_t index;			/* first page */
	uint32_t dev;
	uint8_t order;
};

struct replay_warm {
	struct page_set seen;		/* every page mentioned so far, by rf_pages_key() */
	struct warm_folio *folios;	/* cached before the trace */
	size_t nr, cap;
	uint64_t pages;
	uint64_t t_first;		/* the first event's time */
	bool any_event;
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

/* @p's pages are mentioned: whatever comes later, they are decided. */
static int mention(struct replay_warm *w, const struct rf_pages *p)
{
	uint64_t i;

	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES; i++)
		if (page_set_put(&w->seen, rf_pages_key(p, i), 1))
			return RF_ERR_NOMEM;
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

/*
 * A reference that reads pages in the cache: each page mentioned for the
 * first time was cached before the trace.  A fault names a whole folio
 * (its first page and order): kept as that folio when all of it is new,
 * else as its new base pages.
 */
static int on_read(struct replay_warm *w, const struct rf_pages *p)
{
	unsigned int order = p->folio ? p->order : 0;
	uint64_t i;
	int e = 0;

	if (order && count_new(w, p) == p->nr) {
		e = push_folio(w, p, p->first, order);
		return e ? e : mention(w, p);
	}
	for (i = 0; i < p->nr && i < MAX_EVENT_PAGES && !e; i++) {
		if (page_set_get(&w->seen, rf_pages_key(p, i)))
			continue;
		e = page_set_put(&w->seen, rf_pages_key(p, i), 1);
		if (!e)
			e = push_folio(w, p, p->first + i, 0);
	}
	return e;
}

static int warm_step(struct replay_warm *w, const struct rf_event *ev)
{
	struct rf_pages p;

	if (!w->any_event) {
		w->t_first = ev->time;
		w->any_event = true;
	}
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
	return p.reads ? on_read(w, &p) : mention(w, &p);
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

void replay_warm_free(struct replay_warm *w)
{
	if (!w)
		return;
	page_set_destroy(&w->seen);
	free(w->folios);
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
	while (!e && (got = rf_trace_reader_next(rd, &ev)) != 0) {
		if (got < 0) {
			snprintf(err, errlen, "%s: %s", path, rf_trace_reader_errmsg(rd));
			e = got;
		} else {
			e = warm_step(w, &ev);
		}
	}
	rf_trace_reader_close(rd);
	/* the seen pages were needed for the scan only; the folios go in file order */
	page_set_destroy(&w->seen);
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
