/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-observe: what the recording kernel did, from the observations a
 * trace carries (page-cache and LRU tracepoints, reclaim summaries, counter
 * snapshots of /proc/vmstat and memory.stat, lost-event records).  One
 * account, used by every consumer: the results' "observed" section (and so
 * `refault compare NAME@kernel`) and `refault validate`.
 *
 * The rules, once:
 * - A cumulative counter of a snapshot counts from the cgroup's first
 *   snapshot, or from zero for a cgroup the trace saw created after its first
 *   counter snapshot (a new memcg's counters start at 0, and its first
 *   snapshot may come an interval later).  /proc/vmstat counts from its first
 *   snapshot.  A gauge (a size, nr_*) is its last value.  memory.stat sizes in
 *   bytes are given in pages of the recording host, the model's unit.
 * - A page-cache add is charged to the cgroup the recorder gives it (the
 *   adding task's); its deletion to the same cgroup, found by (dev, ino,
 *   index); a deletion of a page the trace never saw added is counted apart.
 * - An LRU insertion of a page-cache pfn goes to the cgroup of its add (the
 *   memcg charged), an activation to the cgroup of its pfn's insertion.
 * - A reclaim summary goes to the reclaiming task's cgroup; v1 reclaim
 *   tracepoints carry no memcg, so limit reclaim shows in the subtree of the
 *   cgroup over its limit: compare it per subtree.
 * - Folio orders from the file are clamped to RF_OBS_MAX_ORDER before any
 *   shift.
 *
 * Everything else in a trace is ignored.  Contract: feed events in file
 * order; accessors may be called at any point (a "capture").  0 or a
 * negative rf_err (RF_ERR_NOMEM); nothing prints; no global state.
 */
#ifndef REFAULT_OBSERVE_H
#define REFAULT_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include <refault/api.h>
#include <refault/trace.h>

/* Larger orders than a PUD-sized folio are not real: clamped (and counted in no shift past it). */
#define RF_OBS_MAX_ORDER	18u

/* The quantities counted per cgroup; all in base pages. */
enum rf_obs_q {
	RF_OBS_ADD,		/* page-cache insertions (misses) */
	RF_OBS_DEL,		/* page-cache deletions (evictions, invalidations) */
	RF_OBS_REFAULT_FILE,	/* workingset_refault_file */
	RF_OBS_REFAULT_ANON,	/* workingset_refault_anon */
	RF_OBS_PGACTIVATE,	/* promotions to the active list */
	RF_OBS_PGREFILL,	/* pages scanned on the active lists */
	RF_OBS_SCAN_FILE,	/* pages scanned on the inactive file list */
	RF_OBS_SCAN_ANON,
	RF_OBS_STEAL_FILE,	/* pages reclaimed from the file lists */
	RF_OBS_STEAL_ANON,
	RF_OBS_ACTIVE_FILE,	/* list sizes: gauges */
	RF_OBS_INACTIVE_FILE,
	RF_OBS_ACTIVE_ANON,
	RF_OBS_INACTIVE_ANON,
	/* the multi-gen LRU's sequence numbers of the memcg's own lruvec (debugfs): gauges */
	RF_OBS_GEN_MAX_SEQ,
	RF_OBS_GEN_MIN_SEQ_ANON,
	RF_OBS_GEN_MIN_SEQ_FILE,
	RF_OBS_NR
};

RF_API const char *rf_obs_q_name(enum rf_obs_q q);
RF_API bool rf_obs_q_is_gauge(enum rf_obs_q q);
/* A multi-gen LRU sequence number (RF_OBS_GEN_*): a lruvec's own, counted in generations. */
RF_API bool rf_obs_q_is_gen(enum rf_obs_q q);
/* Where the kernel's number for @q comes from, in words (@memstat: it came from memory.stat). */
RF_API const char *rf_obs_q_source(enum rf_obs_q q, bool memstat);

/* A cgroup as the trace names it.  Index 0 is the "unattributed" bucket (id 0). */
struct rf_obs_cgroup {
	uint64_t id;		/* kernfs id; 0: the "unattributed" bucket */
	uint64_t parent;
	char *path;		/* "/a/b", as the model names memcgs */
	int parent_idx;		/* -1 for roots */
	uint32_t memstat;	/* quantities its latest memory.stat gave (1 << q) */
};

struct rf_observe;

/*
 * RF_OBSERVE_PAGES: follow every page (the joins that attribute page-cache
 * and LRU events to cgroups, the pages cached before the trace): what
 * rf_observe_local(), rf_observe_unknown_deletes() and
 * rf_observe_precached() need, a hash lookup or more per page of every
 * reference.  Without it they read 0; the snapshots and the tallies of the
 * "observed" section are the same either way.
 */
#define RF_OBSERVE_PAGES	0x1u

/* @page_size: of the recording host (0: 4096); @flags: RF_OBSERVE_*. */
RF_API int rf_observe_new(struct rf_observe **out, uint32_t page_size, unsigned int flags);
RF_API void rf_observe_free(struct rf_observe *o);
RF_API int rf_observe_feed(struct rf_observe *o, const struct rf_event *ev);

/*
 * The "observed" section of a results file: "<key>": value pairs added to
 * @obj in the order first seen, under the keys the model's counters use
 * where they mean the same: "vmstat.<name>", "memcg.<path>.<name>",
 * "obs.pagecache_add", "obs.pagecache_del", "obs.lru_activate",
 * "obs.lru_add.<list>", "obs.reclaim.<kind>.nr_{scanned,reclaimed,activated}",
 * "obs.lost_events".  Return: 0 or RF_ERR_NOMEM.
 */
RF_API int rf_observe_to_json(const struct rf_observe *o, json_object *obj);

/* The cgroups, in the order the trace made them known. */
RF_API size_t rf_observe_nr_cgroups(const struct rf_observe *o);
RF_API const struct rf_obs_cgroup *rf_observe_cgroup(const struct rf_observe *o, size_t idx);
/* Index of the cgroup named @path ("/a/b"), or -1. */
RF_API long rf_observe_cgroup_by_path(const struct rf_observe *o, const char *path);

/* Counts from trace events, local to cgroup @idx (not its subtree): [RF_OBS_NR]. */
RF_API const uint64_t *rf_observe_local(const struct rf_observe *o, size_t idx);
/*
 * Cgroup @idx's latest memory.stat as quantities (hierarchical, by the rules
 * above) into @out[RF_OBS_NR]; returns the mask of those it gave (0: none).
 */
RF_API uint32_t rf_observe_memstat(const struct rf_observe *o, size_t idx, uint64_t *out);
/* /proc/vmstat as quantities, last minus first snapshot; false if the trace has none. */
RF_API bool rf_observe_host(const struct rf_observe *o, uint64_t *out);
/* Pages charged to cgroup @idx at its first memory.stat (0 for a cgroup born in the trace). */
RF_API uint64_t rf_observe_initial_pages(const struct rf_observe *o, size_t idx);

/* Pages deleted that the trace never saw added (cache older than the trace, other files). */
RF_API uint64_t rf_observe_unknown_deletes(const struct rf_observe *o);
/* Records the kernel dropped, as the trace's lost events count them. */
RF_API uint64_t rf_observe_lost_events(const struct rf_observe *o);
/* Pages referenced that the trace never saw enter the page cache (cached before it began). */
RF_API uint64_t rf_observe_precached(const struct rf_observe *o);
/* The largest page-cache folio order the trace shows (0: base pages only). */
RF_API unsigned int rf_observe_max_folio_order(const struct rf_observe *o);
/* The trace carries file_readahead: the model is told the kernel's folios. */
RF_API bool rf_observe_has_readahead(const struct rf_observe *o);
/* Reclaim summaries of @kind (enum rf_reclaim_kind). */
RF_API uint64_t rf_observe_reclaim_events(const struct rf_observe *o, uint32_t kind);
/* Whether the trace had any observation at all (else there is nothing to compare against). */
RF_API bool rf_observe_any(const struct rf_observe *o);

#endif /* REFAULT_OBSERVE_H */
