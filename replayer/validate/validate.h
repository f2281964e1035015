/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * refault validate: replay a recorded trace through the model configured as
 * the recording kernel, and put the kernel's own numbers (observations and
 * counter snapshots in the trace) beside the model's, per cgroup, per phase.
 *
 * kernel.c   the kernel side: observations -> per-cgroup counts
 * warm.c     the pages cached before the trace, loaded into the model first
 * modelside.c the model side: model counters -> the same quantities
 * run.c      the replay loop and the captures at every counter snapshot
 * rows.c     captures -> rows (scope, quantity, kernel, model, error, phase)
 * output.c   rows -> text table or JSON
 */
#ifndef REFAULT_VALIDATE_H
#define REFAULT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/model.h>
#include <refault/trace.h>

/* The quantities compared; all in base pages. */
enum vq {
	Q_ADD,			/* page-cache insertions (misses) */
	Q_DEL,			/* page-cache deletions (evictions, invalidations) */
	Q_REFAULT_FILE,		/* workingset_refault_file */
	Q_REFAULT_ANON,		/* workingset_refault_anon */
	Q_PGACTIVATE,		/* promotions to the active list */
	Q_PGREFILL,		/* pages scanned on the active lists */
	Q_SCAN_FILE,		/* pages scanned on the inactive file list */
	Q_SCAN_ANON,
	Q_STEAL_FILE,		/* pages reclaimed from the file lists */
	Q_STEAL_ANON,
	Q_ACTIVE_FILE,		/* list sizes: gauges */
	Q_INACTIVE_FILE,
	Q_ACTIVE_ANON,
	Q_INACTIVE_ANON,
	NR_VQ
};

const char *vq_name(enum vq q);
bool vq_is_gauge(enum vq q);
/* Where the kernel's number for @q comes from, in words. */
const char *vq_kernel_source(enum vq q, bool memstat);

/* ------------------------------------------------------------- u64 map */

struct vmap {
	uint64_t *keys;
	uint64_t *vals;
	size_t cap, nr;
};

int vmap_put(struct vmap *m, uint64_t key, uint64_t val);
bool vmap_get(const struct vmap *m, uint64_t key, uint64_t *val);
bool vmap_del(struct vmap *m, uint64_t key, uint64_t *val);
void vmap_free(struct vmap *m);
uint64_t vhash_str(const char *s);
uint64_t vhash2(uint64_t a, uint64_t b);

/* -------------------------------------------------------------- cgroups */

struct vcgroup {
	uint64_t id;		/* kernfs id; 0: the "unattributed" bucket */
	uint64_t parent;
	char *path;
	int parent_idx;		/* -1 for roots */
	uint32_t memstat;	/* quantities its memory.stat snapshots give (1 << q) */
};

/* ------------------------------------------------------------- captures */

/* The state of both sides at one point of the trace (a counter snapshot, or the end). */
struct vcapture {
	uint64_t time;
	size_t nr_cg;
	uint64_t *k;		/* [nr_cg][NR_VQ] kernel, local to each cgroup */
	uint32_t *k_statmask;	/* [nr_cg]: the quantities its memory.stat had (1 << q) */
	uint64_t *k_stat;	/* [nr_cg][NR_VQ] kernel from memory.stat (hierarchical) */
	uint64_t *m;		/* [nr_cg][NR_VQ] model, local to each memcg */
	uint64_t m_global[NR_VQ];	/* model, whole machine (vmstat.*) */
	uint64_t host_k[NR_VQ];		/* kernel /proc/vmstat (cumulative, raw) */
	uint64_t host_m[NR_VQ];		/* model vmstat.* for the same names */
	bool host_have;
	const char *marker;	/* last marker at or before this point; owned by the run */
};

/* ------------------------------------------------------------ the kernel */

struct vkernel;

int vkernel_new(struct vkernel **out);
void vkernel_free(struct vkernel *k);
/* Observations and cgroup events; everything else is ignored. */
int vkernel_feed(struct vkernel *k, const struct rf_event *ev, uint32_t page_size);
size_t vkernel_nr_cgroups(const struct vkernel *k);
const struct vcgroup *vkernel_cgroup(const struct vkernel *k, size_t idx);
/* Index of the cgroup named @path (as the model names it), or -1. */
long vkernel_cgroup_by_path(const struct vkernel *k, const char *path);
/* Fill the kernel side of @c (allocates its arrays for the cgroups known now). */
int vkernel_capture(const struct vkernel *k, struct vcapture *c);
/* Pages deleted that the trace never saw added (cache older than the trace, other files). */
uint64_t vkernel_unknown_deletes(const struct vkernel *k);
uint64_t vkernel_lost_events(const struct vkernel *k);
/* Pages referenced that the trace never saw enter the page cache (cached before it began). */
uint64_t vkernel_precached(const struct vkernel *k);
/* The largest page-cache folio order the trace shows (0: base pages only). */
unsigned int vkernel_max_folio_order(const struct vkernel *k);
/* The trace carries file_readahead: the model is told the kernel's folios. */
bool vkernel_has_readahead(const struct vkernel *k);
uint64_t vkernel_reclaim_events(const struct vkernel *k, uint32_t kind);
/* Did the trace's first memory.stat snapshot of cgroup @idx show pages already charged? */
uint64_t vkernel_initial_pages(const struct vkernel *k, size_t idx);

/* ------------------------------------------------------------- the model */

/*
 * Fill the model side of @c; @k names the cgroups. Adds/deletes need @freed (see run.c).
 * @base (may be NULL): counters of vmodel_baseline(), taken off the cumulative ones.
 */
int vmodel_capture(const struct rf_model *m, const struct vkernel *k, struct vcapture *c,
		   const uint64_t *freed_local, uint64_t freed_global, const struct vmap *base);

/*
 * The model's counters now (by vhash_str() of their keys; zeros left out), to take off
 * every later capture: what the model did before the trace's first event is no part of it.
 */
int vmodel_baseline(const struct rf_model *m, struct vmap *base);

/* Charged pages per cgroup (model "usage"), for frees at fadvise/truncate. */
int vmodel_usage(const struct rf_model *m, const struct vkernel *k, uint64_t *usage,
		 size_t nr, uint64_t *file_pages);

void vcapture_release(struct vcapture *c);

/* --------------------------------------------- the cache before the trace */

struct vwarm;

/* Read @path once: the pages its references find cached that it never saw enter. */
int vwarm_scan(struct vwarm **out, const char *path, char *err, size_t errlen);
/* Give them to @m at time @t, resident and charged to the root memcg (pid 0). */
int vwarm_load(struct vwarm *w, struct rf_model *m, uint64_t t);
uint64_t vwarm_pages(const struct vwarm *w);
/* The time of the trace's first event. */
uint64_t vwarm_start(const struct vwarm *w);
void vwarm_free(struct vwarm *w);

/* --------------------------------------------------------------- a run */

struct rf_validate_opts {
	const char *profile;		/* NULL: chosen from the trace header */
	const char *const *sets;	/* "KEY=VALUE" model overrides */
	size_t nr_sets;
	double tolerance;		/* 0.05 = 5 % */
	uint64_t slack;			/* absolute slack in pages (small counts) */
	bool cold_cache;		/* the model starts empty; pages cached before are slack */
};

struct vrow {
	char *scope;			/* cgroup path, "(trace)" or "(host)" */
	enum vq q;
	uint64_t kernel, model;
	bool gated;			/* counts toward the exit status */
	uint64_t slack;			/* absolute slack this row was allowed, pages */
	bool ok;
	double err_pct;			/* (model - kernel) / kernel * 100; inf: kernel 0 */
	int phase;			/* first phase out of tolerance, -1 none */
	const char *source;		/* the kernel number's source */
	const char *note;		/* what the trace cannot know about this row, or NULL */
};

struct rf_validation {
	struct rf_trace_header header;
	char profile[64];
	char profile_why[256];
	double tolerance;
	uint64_t slack;			/* --slack (+ the pages cached before, with cold_cache) */
	uint64_t precached;		/* pages read that the trace never saw enter (kernel.c) */
	uint64_t preloaded;		/* pages the model was given before the trace (warm.c) */
	bool cold_cache;
	uint64_t stat_slack;		/* memory.stat's flush threshold: 64 pages per CPU */
	uint64_t folio_slack;		/* file lists: one folio of the largest order seen */
	struct vcapture *caps;		/* caps[0]: start; the last: end of trace */
	size_t nr_caps;
	struct vkernel *kernel;
	struct vrow *rows;
	size_t nr_rows;
	size_t nr_bad;			/* gated rows out of tolerance */
	char **markers;
	size_t nr_markers;
	uint64_t t0;			/* first event time */
	uint64_t events;
	char notes[8][512];		/* confounders found in the trace */
	size_t nr_notes;
	int main_cg;			/* the cgroup with memory.stat (the recorded one); -1 */
	uint64_t madv_pageout;		/* MADV_PAGEOUT calls in the trace */
};

/* Choose a profile for a kernel release ("6.18.4-..." -> "v6.18"); @why explains. */
const char *rf_validate_pick_profile(const char *release, char *why, size_t whylen);

/*
 * Replay @path and compare.  On failure returns a negative rf_err with a
 * message in @err; RF_ERR_CONFIG for a bad profile or --set.
 */
int rf_validate_run(struct rf_validation **out, const char *path,
		    const struct rf_validate_opts *o, char *err, size_t errlen);
void rf_validation_free(struct rf_validation *v);

/* rows.c: captures -> rows; sets nr_bad. */
int vrows_build(struct rf_validation *v);
/* The row of @quantity ("pgscan_file") for @scope ("/a/b", "(trace)"), or NULL. */
const struct vrow *vrows_find(const struct rf_validation *v, const char *scope,
			      const char *quantity);
/* Both sides of row @r at capture @i; false when either has no number there. */
bool vrow_at(const struct rf_validation *v, const struct vrow *r, size_t i, uint64_t *k,
	     uint64_t *m);

/* output.c */
void rf_validation_print(const struct rf_validation *v, FILE *out, bool series);
int rf_validation_print_json(const struct rf_validation *v, FILE *out);

#endif /* REFAULT_VALIDATE_H */
