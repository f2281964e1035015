/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page-cache and LRU tracepoints, attributed to cgroups by joins on the
 * page's identity (its key, rf_pages_key(): dev, ino, index) and its pfn
 * (observe.h says the rules), and the pages the trace reads without having
 * seen them enter the cache.  Which pages an event names is the type
 * table's (rf_event_pages()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "replayer/observe/observe-local.h"

/* A read larger than this (4 GiB of 4 KiB pages) is looked at no further: it bounds one event's work. */
#define MAX_EVENT_PAGES		(1ull << 20)

/*
 * The file pages @ev names (the type table's, rf_event_pages()); false for
 * none.  The page shift is for anonymous addresses: none is looked at.
 */
static bool file_pages(const struct rf_event *ev, struct rf_pages *p)
{
	return rf_event_pages(ev, 12, p) && p->space.kind == RF_SPACE_FILE;
}

/* Every page of a folio enters or leaves the set of pages known cached. */
static int track_cached(struct rf_observe *o, const struct rf_pages *p, bool add)
{
	uint64_t i, n = obs_pages(p->order);

	for (i = 0; i < n; i++) {
		if (!add)
			obs_map_del(&o->cached, rf_pages_key(p, i), NULL);
		else if (obs_map_put(&o->cached, rf_pages_key(p, i), 1))
			return RF_ERR_NOMEM;
	}
	return 0;
}

/*
 * A page a reference reads that the trace never saw enter the page cache
 * was cached before the recording (or by a path the trace does not show):
 * a hit for the kernel, a miss for a model that starts empty.  A read of
 * no pages is one page, as the model reads it.
 */
static int track_precached(struct rf_observe *o, const struct rf_pages *p)
{
	uint64_t i, n = p->folio ? obs_pages(p->order) : p->nr;

	for (i = 0; i < n && i < MAX_EVENT_PAGES; i++) {
		uint64_t key = rf_pages_key(p, i);

		if (obs_map_get(&o->cached, key) || obs_map_get(&o->precached, key))
			continue;
		if (obs_map_put(&o->precached, key, 1))
			return RF_ERR_NOMEM;
	}
	return 0;
}

static bool per_page(const struct rf_observe *o)
{
	return o->flags & RF_OBSERVE_PAGES;
}

static int on_add(struct rf_observe *o, const struct rf_event *ev)
{
	size_t idx = obs_cg_index(o, ev->u.file.cgroup);
	struct rf_pages p;

	if (ev->u.file.order > o->max_order)
		o->max_order = ev->u.file.order > RF_OBS_MAX_ORDER ? RF_OBS_MAX_ORDER :
				ev->u.file.order;
	if (!per_page(o))
		return obs_tally(o, "obs.pagecache_add", obs_pages(ev->u.file.order));
	o->cgs[idx].cnt[RF_OBS_ADD] += obs_pages(ev->u.file.order);
	file_pages(ev, &p);
	if (track_cached(o, &p, true) || obs_map_put(&o->page_cg, rf_pages_key(&p, 0), idx) ||
	    (ev->u.file.pfn && (obs_map_put(&o->pfn_cg, ev->u.file.pfn, idx) ||
				obs_map_put(&o->pc_pfn, ev->u.file.pfn, idx))))
		return RF_ERR_NOMEM;
	return obs_tally(o, "obs.pagecache_add", obs_pages(ev->u.file.order));
}

static int on_del(struct rf_observe *o, const struct rf_event *ev)
{
	uint64_t pages = obs_pages(ev->u.file.order), idx;
	struct rf_pages p;

	if (!per_page(o))
		return obs_tally(o, "obs.pagecache_del", pages);
	file_pages(ev, &p);
	track_cached(o, &p, false);
	if (ev->u.file.pfn)
		obs_map_del(&o->pc_pfn, ev->u.file.pfn, NULL);
	if (obs_map_del(&o->page_cg, rf_pages_key(&p, 0), &idx))
		o->cgs[idx].cnt[RF_OBS_DEL] += pages;
	else
		o->unknown_del += pages;
	return obs_tally(o, "obs.pagecache_del", pages);
}

static int on_lru_add(struct rf_observe *o, const struct rf_event *ev)
{
	static const char *const lists[] = { "inactive_anon", "active_anon", "inactive_file",
					     "active_file", "unevictable" };
	const uint64_t *pc = per_page(o) ? obs_map_get(&o->pc_pfn, ev->u.lru.pfn) : NULL;
	uint64_t idx = pc ? *pc : obs_cg_index(o, ev->u.lru.cgroup);
	char key[64];

	if (per_page(o) && obs_map_put(&o->pfn_cg, ev->u.lru.pfn, idx))
		return RF_ERR_NOMEM;
	if (ev->u.lru.lru >= ARRAY_SIZE(lists))
		return 0;
	snprintf(key, sizeof(key), "obs.lru_add.%s", lists[ev->u.lru.lru]);
	return obs_tally(o, key, obs_pages(ev->u.lru.order));
}

static int on_lru_activate(struct rf_observe *o, const struct rf_event *ev)
{
	const uint64_t *idx = per_page(o) ? obs_map_get(&o->pfn_cg, ev->u.lru.pfn) : NULL;

	if (per_page(o))
		o->cgs[idx ? *idx : 0].cnt[RF_OBS_PGACTIVATE] += obs_pages(ev->u.lru.order);
	return obs_tally(o, "obs.lru_activate", obs_pages(ev->u.lru.order));
}

/* The file pages a reference found in the cache (obs_reads_pages()), when pages are followed. */
static int on_reference(struct rf_observe *o, const struct rf_event *ev)
{
	struct rf_pages p;

	if (!per_page(o) || !file_pages(ev, &p) || !p.reads)
		return 0;
	return track_precached(o, &p);
}

/* Each observation has its rule; a reference is looked at for the pages it reads. */
int obs_on_page(struct rf_observe *o, const struct rf_event *ev)
{
	switch (ev->type) {
	case RF_EV_PAGECACHE_ADD:
		return on_add(o, ev);
	case RF_EV_PAGECACHE_DEL:
		return on_del(o, ev);
	case RF_EV_FILE_READAHEAD:
		o->readahead = true;
		return 0;
	case RF_EV_LRU_ADD:
		return on_lru_add(o, ev);
	case RF_EV_LRU_ACTIVATE:
		return on_lru_activate(o, ev);
	default:
		return on_reference(o, ev);
	}
}

bool obs_reads_pages(unsigned int type)
{
	struct rf_event ev = { .type = (uint16_t)type };
	struct rf_pages p;

	return file_pages(&ev, &p) && p.reads;
}

void obs_pages_free(struct rf_observe *o)
{
	obs_map_destroy(&o->page_cg);
	obs_map_destroy(&o->pfn_cg);
	obs_map_destroy(&o->pc_pfn);
	obs_map_destroy(&o->cached);
	obs_map_destroy(&o->precached);
}

uint64_t rf_observe_unknown_deletes(const struct rf_observe *o)
{
	return o->unknown_del;
}

uint64_t rf_observe_precached(const struct rf_observe *o)
{
	return obs_map_count(&o->precached);
}

unsigned int rf_observe_max_folio_order(const struct rf_observe *o)
{
	return o->max_order;
}

bool rf_observe_has_readahead(const struct rf_observe *o)
{
	return o->readahead;
}
