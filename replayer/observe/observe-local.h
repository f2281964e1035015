/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals of librefault-observe, shared by its files. */
#ifndef REFAULT_OBSERVE_LOCAL_H
#define REFAULT_OBSERVE_LOCAL_H

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/observe/observe.h"

RF_HASHMAP_DEFINE(obs_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

#define OBS_STR_EQ(a, b) (strcmp((a), (b)) == 0)
RF_HASHMAP_DEFINE(obs_keys, const char *, size_t, rf_hash_str, OBS_STR_EQ, 75)

/* One counter of the snapshots, as the results' "observed" section gives it. */
struct obs_value {
	char *key;		/* "vmstat.<name>", "memcg.<path>.<name>", "obs.<...>" */
	uint64_t first;		/* what a cumulative counter counts from */
	uint64_t last;
	bool gauge;
};

/* A cgroup and what the trace says of it. */
struct obs_cg {
	struct rf_obs_cgroup cg;
	uint64_t cnt[RF_OBS_NR];	/* local, from trace events */
	uint64_t stat[RF_OBS_NR];	/* latest memory.stat, hierarchical */
	uint64_t stat0[RF_OBS_NR];	/* what memory.stat's counters count from */
	uint64_t initial;		/* pages charged at the first memory.stat */
	bool born;			/* created after the trace's first counters snapshot */
};

struct rf_observe {
	uint32_t page_size;
	unsigned int flags;		/* RF_OBSERVE_* */
	/* cgroups.c */
	struct obs_cg *cgs;
	size_t nr_cg, cap_cg;
	struct obs_map by_id;		/* cgroup id -> index */
	struct obs_map by_path;		/* rf_hash_str(path) -> index */
	/* snapshots.c */
	bool counters_seen;
	struct obs_value *vals;		/* in first-seen order: deterministic */
	size_t nr_vals, cap_vals;
	struct obs_keys by_key;
	uint64_t host0[RF_OBS_NR], host[RF_OBS_NR];
	bool host_seen;
	/* pages.c */
	struct obs_map page_cg;		/* page key -> cgroup index of its add */
	struct obs_map pfn_cg;		/* pfn -> cgroup index of its LRU insertion */
	struct obs_map pc_pfn;		/* page-cache pfn -> cgroup index of its add, while cached */
	struct obs_map cached;		/* every page the trace saw enter and not leave */
	struct obs_map precached;	/* pages referenced that the trace never saw enter */
	uint64_t unknown_del;
	unsigned int max_order;
	bool readahead;
	/* observe.c */
	bool looks[RF_EV_TYPE_MAX];	/* rf_observe_feed() looks at the type's events */
	uint64_t lost;
	uint64_t reclaim_ev[5];
	bool any;
};

/* cgroups.c */
long obs_add_cgroup(struct rf_observe *o, uint64_t id, uint64_t parent, const char *path);
size_t obs_cg_index(const struct rf_observe *o, uint64_t id);
void obs_cgroups_free(struct rf_observe *o);

/* snapshots.c */
int obs_on_counters(struct rf_observe *o, const struct rf_event *ev);
/* Add @v to the tally "obs.<...>" @key. */
int obs_tally(struct rf_observe *o, const char *key, uint64_t v);
void obs_values_free(struct rf_observe *o);

/* pages.c */
int obs_on_page(struct rf_observe *o, const struct rf_event *ev);
/* Events of @type read file pages (rf_event_pages(): .reads of a file's pages). */
bool obs_reads_pages(unsigned int type);
void obs_pages_free(struct rf_observe *o);

static inline uint64_t obs_pages(unsigned int order)
{
	return 1ull << (order > RF_OBS_MAX_ORDER ? RF_OBS_MAX_ORDER : order);
}

#endif /* REFAULT_OBSERVE_LOCAL_H */
