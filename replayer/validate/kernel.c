/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel side: what the trace's observations say the kernel did, in
 * the quantities of enum vq, per cgroup (local to each, summed up the tree
 * later by rows.c) and from memory.stat / /proc/vmstat snapshots.
 *
 * Attribution (v1 reclaim tracepoints carry no memcg):
 * - a page-cache add is charged to the cgroup the recorder gives it (the
 *   adding task's); its deletion goes to the same cgroup, by (dev, ino,
 *   index); a deletion of a page the trace never saw added is counted apart
 *   (cache older than the recording, or another process's file);
 * - an LRU insertion of a page-cache pfn goes to the cgroup of its add (the
 *   memcg it is charged to: the recorder's own lru_add cgroup was, before
 *   format 1.1 recorders, the task that drained the per-CPU batch); an LRU
 *   activation goes to the cgroup of its pfn's insertion;
 * - a reclaim summary goes to the reclaiming task's cgroup, which for limit
 *   reclaim is in the subtree of the cgroup over its limit: compare reclaim
 *   per subtree, not per child.
 *
 * memory.stat comes for the recorded cgroup and, since the recorder of
 * format 2.1, for every cgroup below it; counters are taken as the change
 * since a cgroup's first snapshot, or since its creation for a cgroup the
 * trace saw created (a new memcg's counters start at 0, and its first
 * snapshot may come a snapshot interval later).
 */
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "replayer/validate/validate.h"

struct vkernel {
	struct vcgroup *cgs;
	size_t nr_cg, cap_cg;
	uint64_t (*cnt)[NR_VQ];		/* local, from trace events */
	uint64_t (*stat)[NR_VQ];	/* latest memory.stat, hierarchical */
	uint64_t (*stat0)[NR_VQ];	/* first memory.stat */
	uint64_t *initial;		/* pages charged at the first memory.stat */
	bool *born;			/* created after the trace's first counters snapshot */
	bool counters_seen;
	struct vmap by_id;
	struct vmap by_path;
	struct vmap page_cg;		/* hash(dev, ino, index) -> cgroup index */
	struct vmap pfn_cg;		/* pfn -> cgroup index */
	struct vmap pc_pfn;		/* page-cache pfn -> cgroup index of its add, while cached */
	struct vmap cached;		/* every page the trace saw enter and not leave */
	struct vmap precached;		/* pages referenced that the trace never saw enter */
	uint64_t unknown_del;
	uint64_t lost;
	unsigned int max_order;		/* largest page-cache folio seen */
	bool readahead;			/* the trace has file_readahead references */
	uint64_t reclaim_ev[5];
	uint64_t host0[NR_VQ], host[NR_VQ];
	bool host_seen;
};

static const char *const names[NR_VQ] = {
	[Q_ADD] = "pagecache_add", [Q_DEL] = "pagecache_del",
	[Q_REFAULT_FILE] = "workingset_refault_file", [Q_REFAULT_ANON] = "workingset_refault_anon",
	[Q_PGACTIVATE] = "pgactivate", [Q_PGREFILL] = "pgrefill",
	[Q_SCAN_FILE] = "pgscan_file", [Q_SCAN_ANON] = "pgscan_anon",
	[Q_STEAL_FILE] = "pgsteal_file", [Q_STEAL_ANON] = "pgsteal_anon",
	[Q_ACTIVE_FILE] = "active_file", [Q_INACTIVE_FILE] = "inactive_file",
	[Q_ACTIVE_ANON] = "active_anon", [Q_INACTIVE_ANON] = "inactive_anon",
};

const char *vq_name(enum vq q)
{
	return names[q];
}

bool vq_is_gauge(enum vq q)
{
	return q >= Q_ACTIVE_FILE;
}

const char *vq_kernel_source(enum vq q, bool memstat)
{
	switch (q) {
	case Q_ADD: return "mm_filemap_add_to_page_cache";
	case Q_DEL: return "mm_filemap_delete_from_page_cache";
	case Q_REFAULT_FILE:
	case Q_REFAULT_ANON: return memstat ? "memory.stat" : "/proc/vmstat";
	case Q_PGACTIVATE: return "mm_lru_activate + shrink_inactive nr_activate";
	case Q_PGREFILL: return "mm_vmscan_lru_shrink_active nr_taken";
	case Q_SCAN_FILE:
	case Q_SCAN_ANON: return "mm_vmscan_lru_shrink_inactive nr_scanned";
	case Q_STEAL_FILE:
	case Q_STEAL_ANON: return "mm_vmscan_lru_shrink_inactive nr_reclaimed";
	default: return "memory.stat";
	}
}

/* ------------------------------------------------------------- cgroups */

static long add_cgroup(struct vkernel *k, uint64_t id, uint64_t parent, const char *path)
{
	struct vcgroup *cg;
	uint64_t pidx;
	size_t n = k->nr_cg;

	if (n == k->cap_cg) {
		size_t cap = n ? n * 2 : 16;
		void *a = realloc(k->cgs, cap * sizeof(*k->cgs));

		if (!a)
			return RF_ERR_NOMEM;
		k->cgs = a;
#define GROW(f) do { a = realloc(k->f, cap * sizeof(*k->f)); if (!a) return RF_ERR_NOMEM; \
		     k->f = a; } while (0)
		GROW(cnt);
		GROW(stat);
		GROW(stat0);
		GROW(initial);
		GROW(born);
#undef GROW
		k->cap_cg = cap;
	}
	cg = &k->cgs[n];
	memset(cg, 0, sizeof(*cg));
	memset(k->cnt[n], 0, sizeof(k->cnt[n]));
	memset(k->stat[n], 0, sizeof(k->stat[n]));
	memset(k->stat0[n], 0, sizeof(k->stat0[n]));
	k->initial[n] = 0;
	k->born[n] = k->counters_seen;
	cg->id = id;
	cg->parent = parent;
	cg->parent_idx = vmap_get(&k->by_id, parent, &pidx) && parent != id ? (int)pidx : -1;
	/* the model prefixes '/' to every path: name cgroups the same way */
	if (path && path[0] == '/')
		cg->path = strdup(path);
	else if (path && path[0] && (cg->path = malloc(strlen(path) + 2)))
		sprintf(cg->path, "/%s", path);
	else if (!path || !path[0])
		cg->path = strdup(id ? "/" : "(unattributed)");
	if (!cg->path || vmap_put(&k->by_id, id, n) ||
	    vmap_put(&k->by_path, vhash_str(cg->path), n))
		return RF_ERR_NOMEM;
	k->nr_cg++;
	return (long)n;
}

int vkernel_new(struct vkernel **out)
{
	struct vkernel *k = calloc(1, sizeof(*k));

	*out = NULL;
	if (!k)
		return RF_ERR_NOMEM;
	if (add_cgroup(k, 0, 0, NULL) < 0) {
		vkernel_free(k);
		return RF_ERR_NOMEM;
	}
	*out = k;
	return 0;
}

void vkernel_free(struct vkernel *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr_cg; i++)
		free(k->cgs[i].path);
	free(k->cgs);
	free(k->cnt);
	free(k->stat);
	free(k->stat0);
	free(k->initial);
	free(k->born);
	vmap_free(&k->by_id);
	vmap_free(&k->by_path);
	vmap_free(&k->page_cg);
	vmap_free(&k->pfn_cg);
	vmap_free(&k->pc_pfn);
	vmap_free(&k->cached);
	vmap_free(&k->precached);
	free(k);
}

size_t vkernel_nr_cgroups(const struct vkernel *k)
{
	return k->nr_cg;
}

const struct vcgroup *vkernel_cgroup(const struct vkernel *k, size_t idx)
{
	return &k->cgs[idx];
}

long vkernel_cgroup_by_path(const struct vkernel *k, const char *path)
{
	uint64_t i;

	if (!vmap_get(&k->by_path, vhash_str(path), &i) || strcmp(k->cgs[i].path, path))
		return -1;
	return (long)i;
}

static size_t cg_index(const struct vkernel *k, uint64_t id)
{
	uint64_t i;

	return id && vmap_get(&k->by_id, id, &i) ? (size_t)i : 0;
}

uint64_t vkernel_unknown_deletes(const struct vkernel *k)
{
	return k->unknown_del;
}

bool vkernel_has_readahead(const struct vkernel *k)
{
	return k->readahead;
}

unsigned int vkernel_max_folio_order(const struct vkernel *k)
{
	return k->max_order;
}

uint64_t vkernel_precached(const struct vkernel *k)
{
	return k->precached.nr;
}

uint64_t vkernel_lost_events(const struct vkernel *k)
{
	return k->lost;
}

uint64_t vkernel_reclaim_events(const struct vkernel *k, uint32_t kind)
{
	return kind < 5 ? k->reclaim_ev[kind] : 0;
}

uint64_t vkernel_initial_pages(const struct vkernel *k, size_t idx)
{
	return idx < k->nr_cg ? k->initial[idx] : 0;
}

/* ---------------------------------------------------------- snapshots */

struct stat_name {
	const char *name;
	enum vq q;
	bool bytes;		/* a size in bytes, not a count of pages */
};

/* v1 memory.stat (hierarchical total_*), then the v2 names of the same things */
static const struct stat_name memstat_names[] = {
	{ "total_workingset_refault_file", Q_REFAULT_FILE, false },
	{ "total_workingset_refault_anon", Q_REFAULT_ANON, false },
	{ "total_active_file", Q_ACTIVE_FILE, true },
	{ "total_inactive_file", Q_INACTIVE_FILE, true },
	{ "total_active_anon", Q_ACTIVE_ANON, true },
	{ "total_inactive_anon", Q_INACTIVE_ANON, true },
	{ "workingset_refault_file", Q_REFAULT_FILE, false },
	{ "workingset_refault_anon", Q_REFAULT_ANON, false },
	{ "active_file", Q_ACTIVE_FILE, true },
	{ "inactive_file", Q_INACTIVE_FILE, true },
	{ "active_anon", Q_ACTIVE_ANON, true },
	{ "inactive_anon", Q_INACTIVE_ANON, true },
	{ "pgactivate", Q_PGACTIVATE, false },
	{ "pgrefill", Q_PGREFILL, false },
};

static const struct stat_name vmstat_names[] = {
	{ "workingset_refault_file", Q_REFAULT_FILE, false },
	{ "workingset_refault_anon", Q_REFAULT_ANON, false },
	{ "pgactivate", Q_PGACTIVATE, false },
	{ "pgrefill", Q_PGREFILL, false },
	{ "pgscan_file", Q_SCAN_FILE, false },
	{ "pgscan_anon", Q_SCAN_ANON, false },
	{ "pgsteal_file", Q_STEAL_FILE, false },
	{ "pgsteal_anon", Q_STEAL_ANON, false },
};

/* The first name of @tab that the snapshot has wins for its quantity: total_* before local. */
static void read_names(const struct rf_event *ev, const struct stat_name *tab, size_t n,
		       uint32_t page_size, uint64_t *vals, uint32_t *seen)
{
	uint32_t i;
	size_t j;

	*seen = 0;
	for (j = 0; j < n; j++) {
		if (*seen & 1u << tab[j].q)
			continue;
		for (i = 0; i < ev->u.counters.nr; i++) {
			const struct rf_counter *c = &ev->u.counters.entries[i];

			if (strcmp(c->name, tab[j].name))
				continue;
			vals[tab[j].q] = tab[j].bytes ? c->value / page_size : c->value;
			*seen |= 1u << tab[j].q;
			break;
		}
	}
}

static uint64_t charged_pages(const struct rf_event *ev, uint32_t page_size)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < ev->u.counters.nr; i++)
		if (!strcmp(ev->u.counters.entries[i].name, "total_cache") ||
		    !strcmp(ev->u.counters.entries[i].name, "total_rss"))
			v += ev->u.counters.entries[i].value / page_size;
	return v;
}

static void on_counters(struct vkernel *k, const struct rf_event *ev, uint32_t page_size)
{
	uint64_t vals[NR_VQ] = { 0 };
	uint32_t seen;
	size_t i;

	k->counters_seen = true;
	if (ev->u.counters.source == RF_COUNTERS_VMSTAT) {
		read_names(ev, vmstat_names, sizeof(vmstat_names) / sizeof(vmstat_names[0]),
			   page_size, vals, &seen);
		if (!k->host_seen)
			memcpy(k->host0, vals, sizeof(vals));
		memcpy(k->host, vals, sizeof(vals));
		k->host_seen = true;
		return;
	}
	if (ev->u.counters.source != RF_COUNTERS_MEMCG_STAT)
		return;
	i = cg_index(k, ev->u.counters.cgroup);
	if (!i)
		return;
	read_names(ev, memstat_names, sizeof(memstat_names) / sizeof(memstat_names[0]),
		   page_size, vals, &seen);
	if (!k->cgs[i].memstat && !k->born[i]) {
		memcpy(k->stat0[i], vals, sizeof(vals));
		k->initial[i] = charged_pages(ev, page_size);
	}
	memcpy(k->stat[i], vals, sizeof(vals));
	k->cgs[i].memstat = seen;
}

/* ------------------------------------------------------- observations */

static uint64_t page_key(const struct rf_event *ev)
{
	return vhash2(vhash2(ev->u.file.dev, ev->u.file.ino), ev->u.file.index);
}

static uint64_t page_key_at(const struct rf_event *ev, uint64_t i)
{
	return vhash2(vhash2(ev->u.file.dev, ev->u.file.ino), ev->u.file.index + i);
}

/* Every page of a folio enters or leaves the set of pages known cached. */
static int track_cached(struct vkernel *k, const struct rf_event *ev, bool add)
{
	uint64_t i, n = 1ull << ev->u.file.order;

	for (i = 0; i < n; i++) {
		if (!add)
			vmap_del(&k->cached, page_key_at(ev, i), NULL);
		else if (vmap_put(&k->cached, page_key_at(ev, i), 1))
			return RF_ERR_NOMEM;
	}
	return 0;
}

/*
 * A page a reference reads that the trace never saw enter the page cache
 * was cached before the recording (or by a path the trace does not show):
 * a hit for the kernel, a miss for the model, which starts empty.
 */
static int track_precached(struct vkernel *k, const struct rf_event *ev)
{
	uint64_t i, n = ev->type == RF_EV_FILE_READ ? ev->u.file.nr : 1ull << ev->u.file.order;

	for (i = 0; i < n && i < (1ull << 20); i++) {
		uint64_t key = page_key_at(ev, i);

		if (vmap_get(&k->cached, key, NULL) || vmap_get(&k->precached, key, NULL))
			continue;
		if (vmap_put(&k->precached, key, 1))
			return RF_ERR_NOMEM;
	}
	return 0;
}

/*
 * shrink_active_list and shrink_inactive_list both become RF_EV_RECLAIM,
 * which says which since format 2.1 (.list).  Before, a guess: the recorder
 * fills nr_deactivated only for the active list, and nr_reclaimed only for
 * the inactive one.  An active scan that moved nothing (all rotated) looks
 * like an inactive scan that activated every page it took and freed none:
 * read as active (see docs/fidelity.md).
 */
static bool active_scan(const struct rf_event *ev)
{
	if (ev->u.reclaim.list != RF_RECLAIM_LIST_UNKNOWN)
		return ev->u.reclaim.list == RF_RECLAIM_LIST_ACTIVE;
	return ev->u.reclaim.nr_deactivated ||
	       (!ev->u.reclaim.nr_reclaimed && ev->u.reclaim.nr_scanned &&
		ev->u.reclaim.nr_activated == ev->u.reclaim.nr_scanned);
}

static void on_reclaim(struct vkernel *k, const struct rf_event *ev)
{
	uint64_t *c = k->cnt[cg_index(k, ev->u.reclaim.cgroup)];
	bool file = ev->u.reclaim.file;

	if (ev->u.reclaim.kind < 5)
		k->reclaim_ev[ev->u.reclaim.kind]++;
	if (ev->u.reclaim.kind == RF_RECLAIM_PAGEOUT) {
		/* reclaim_pages(): counted as pgactivate when a page is kept, not as scans */
		c[Q_PGACTIVATE] += ev->u.reclaim.nr_activated;
		return;
	}
	if (active_scan(ev)) {
		c[Q_PGREFILL] += ev->u.reclaim.nr_scanned;
		return;
	}
	c[file ? Q_SCAN_FILE : Q_SCAN_ANON] += ev->u.reclaim.nr_scanned;
	c[file ? Q_STEAL_FILE : Q_STEAL_ANON] += ev->u.reclaim.nr_reclaimed;
	c[Q_PGACTIVATE] += ev->u.reclaim.nr_activated;
}

int vkernel_feed(struct vkernel *k, const struct rf_event *ev, uint32_t page_size)
{
	uint64_t idx, pages;

	switch (ev->type) {
	case RF_EV_CGROUP_MKDIR:
		if (vmap_get(&k->by_id, ev->u.cgroup.id, NULL))
			return 0;
		return add_cgroup(k, ev->u.cgroup.id, ev->u.cgroup.parent, ev->u.cgroup.path) < 0 ?
			RF_ERR_NOMEM : 0;
	case RF_EV_COUNTERS:
		on_counters(k, ev, page_size);
		return 0;
	case RF_EV_PAGECACHE_ADD:
		idx = cg_index(k, ev->u.file.cgroup);
		k->cnt[idx][Q_ADD] += 1ull << ev->u.file.order;
		if (ev->u.file.order > k->max_order && ev->u.file.order < 32)
			k->max_order = ev->u.file.order;
		if (track_cached(k, ev, true) || vmap_put(&k->page_cg, page_key(ev), idx) ||
		    (ev->u.file.pfn && (vmap_put(&k->pfn_cg, ev->u.file.pfn, idx) ||
					vmap_put(&k->pc_pfn, ev->u.file.pfn, idx))))
			return RF_ERR_NOMEM;
		return 0;
	case RF_EV_PAGECACHE_DEL:
		pages = 1ull << ev->u.file.order;
		track_cached(k, ev, false);
		if (ev->u.file.pfn)
			vmap_del(&k->pc_pfn, ev->u.file.pfn, NULL);
		if (vmap_del(&k->page_cg, page_key(ev), &idx))
			k->cnt[idx][Q_DEL] += pages;
		else
			k->unknown_del += pages;
		return 0;
	case RF_EV_FILE_READ:
	case RF_EV_FILE_FAULT:
		return track_precached(k, ev);
	case RF_EV_FILE_READAHEAD:
		k->readahead = true;
		return 0;
	case RF_EV_LRU_ADD:
		if (!vmap_get(&k->pc_pfn, ev->u.lru.pfn, &idx))
			idx = cg_index(k, ev->u.lru.cgroup);
		return vmap_put(&k->pfn_cg, ev->u.lru.pfn, idx);
	case RF_EV_LRU_ACTIVATE:
		if (!vmap_get(&k->pfn_cg, ev->u.lru.pfn, &idx))
			idx = 0;
		k->cnt[idx][Q_PGACTIVATE] += 1ull << ev->u.lru.order;
		return 0;
	case RF_EV_RECLAIM:
		on_reclaim(k, ev);
		return 0;
	case RF_EV_LOST:
		k->lost += ev->u.lost.count;
		return 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ capture */

int vkernel_capture(const struct vkernel *k, struct vcapture *c)
{
	size_t n = k->nr_cg, i;
	int q;

	c->nr_cg = n;
	c->k = calloc(n * NR_VQ, sizeof(*c->k));
	c->k_stat = calloc(n * NR_VQ, sizeof(*c->k_stat));
	c->k_statmask = calloc(n, sizeof(*c->k_statmask));
	c->m = calloc(n * NR_VQ, sizeof(*c->m));
	if (!c->k || !c->k_stat || !c->k_statmask || !c->m)
		return RF_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		memcpy(&c->k[i * NR_VQ], k->cnt[i], sizeof(k->cnt[i]));
		c->k_statmask[i] = k->cgs[i].memstat;
		if (!k->cgs[i].memstat)
			continue;
		for (q = 0; q < NR_VQ; q++)
			c->k_stat[i * NR_VQ + q] = vq_is_gauge(q) ? k->stat[i][q] :
				k->stat[i][q] - k->stat0[i][q];
	}
	c->host_have = k->host_seen;
	for (q = 0; q < NR_VQ; q++)
		c->host_k[q] = k->host[q] - k->host0[q];
	return 0;
}

void vcapture_release(struct vcapture *c)
{
	free(c->k);
	free(c->k_stat);
	free(c->k_statmask);
	free(c->m);
	c->k = c->k_stat = c->m = NULL;
	c->k_statmask = NULL;
}
