/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of librefault-validate.  The kernel side is librefault-observe
 * (replayer/observe/), the pre-loaded cache the replay engine's warm stage.
 *
 * capture.c  both sides at one point of the trace
 * modelside.c the model side: model counters -> the same quantities
 * run.c      the replay through the engine: a probe takes the captures
 * rows.c     captures -> rows (scope, quantity, kernel, model, error, phase)
 * output.c   rows -> text table or JSON
 */
#ifndef REFAULT_VALIDATE_LOCAL_H
#define REFAULT_VALIDATE_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/model.h>
#include <refault/trace.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/observe/observe.h"
#include "replayer/validate/validate.h"

RF_HASHMAP_DEFINE(counter_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* ------------------------------------------------------------- captures */

/* The state of both sides at one point of the trace (a counter snapshot, or the end). */
struct validate_capture {
	uint64_t time;
	size_t nr_cg;
	uint64_t *k;		/* [nr_cg][RF_OBS_NR] kernel, local to each cgroup */
	uint32_t *k_statmask;	/* [nr_cg]: the quantities its memory.stat had (1 << q) */
	uint64_t *k_stat;	/* [nr_cg][RF_OBS_NR] kernel from memory.stat (hierarchical) */
	uint64_t *m;		/* [nr_cg][RF_OBS_NR] model, local to each memcg */
	uint64_t *k_sub;	/* [nr_cg][RF_OBS_NR] k summed over each cgroup's subtree (rows.c) */
	uint64_t *m_sub;	/* [nr_cg][RF_OBS_NR] m summed over each cgroup's subtree (rows.c) */
	uint64_t m_global[RF_OBS_NR];	/* model, whole machine (vmstat.*) */
	uint64_t host_k[RF_OBS_NR];		/* kernel /proc/vmstat (cumulative, raw) */
	uint64_t host_m[RF_OBS_NR];		/* model vmstat.* for the same names */
	bool host_have;
	const char *marker;	/* last marker at or before this point; owned by the run */
};

/* ------------------------------------------------------------ the kernel */

/* Fill the kernel side of @c from @o (allocates its arrays for the cgroups known now). */
int validate_kernel_capture(const struct rf_observe *o, struct validate_capture *c);

/* ------------------------------------------------------------- the model */

/*
 * Fill the model side of @c; @k names the cgroups. Adds/deletes need @freed (see run.c).
 * @base (may be NULL): counters of validate_model_baseline(), taken off the cumulative ones.
 */
int validate_model_capture(const struct rf_model *m, const struct rf_observe *k,
			   struct validate_capture *c, const uint64_t *freed_local,
			   uint64_t freed_global, const struct counter_map *base);

/*
 * The model's counters now (by rf_hash_str() of their keys; zeros left out), to take off
 * every later capture: what the model did before the trace's first event is no part of it.
 */
int validate_model_baseline(const struct rf_model *m, struct counter_map *base);

/* Charged pages per cgroup (model "usage"), for frees at fadvise/truncate. */
int validate_model_usage(const struct rf_model *m, const struct rf_observe *k, uint64_t *usage,
			 size_t nr, uint64_t *file_pages);

void validate_capture_release(struct validate_capture *c);

/* --------------------------------------------------------------- a run */

struct validate_row {
	const char *scope;		/* cgroup path (the kernel side's), "(trace)" or "(host)" */
	long cg;			/* the cgroup's index; -1: "(trace)" or "(host)" */
	enum rf_obs_q q;
	uint64_t kernel, model;
	bool gated;			/* counts toward the exit status */
	uint64_t slack;			/* absolute slack this row was allowed, pages */
	bool ok;
	double err_pct;			/* (model - kernel) / kernel * 100; inf: kernel 0 */
	int phase;			/* first phase out of tolerance, -1 none */
	const char *source;		/* the kernel number's source */
	const char *note;		/* what the trace cannot know about this row, or NULL */
	bool not_recorded;		/* the trace has no source for the kernel's number */
};

struct rf_validation {
	struct rf_trace_header header;
	char profile[64];
	char profile_why[256];
	double tolerance;
	uint64_t slack;			/* --slack (+ the pages cached before, with cold_cache) */
	uint64_t precached;		/* pages read that the trace never saw enter (librefault-observe) */
	uint64_t preloaded;		/* pages the model was given before the trace (the engine's warm stage) */
	uint64_t preloaded_shadows;	/* and the pages it adds that were refaults of earlier shadows */
	uint64_t preloaded_recent;	/* of which the kernel found recent (warm.c) */
	uint64_t kernel_reads;		/* pages the kernel read for itself, read into the model (kread.c) */
	bool cold_cache;
	uint64_t stat_slack;		/* memory.stat's flush threshold: 64 pages per CPU */
	uint64_t folio_slack;		/* file lists: one folio of the largest order seen */
	bool evict_unseen;		/* a multi-gen LRU that evicts without the vmscan
					 * tracepoints (rows.c eviction_unseen()) */
	struct validate_capture *caps;	/* caps[0]: start; the last: end of trace */
	size_t nr_caps;
	uint64_t snapshots;		/* counter snapshots in the trace */
	uint64_t capture_stride;	/* every stride-th of them is a capture (run.c) */
	uint64_t capture_values;	/* the bound that set the stride */
	struct rf_observe *kernel;
	struct validate_row *rows;
	size_t nr_rows, cap_rows;
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

/* rows.c: captures -> rows; sets nr_bad. */
int validate_rows_build(struct rf_validation *v);
/* The row of @quantity ("pgscan_file") for @scope ("/a/b", "(trace)"), or NULL. */
const struct validate_row *validate_rows_find(const struct rf_validation *v, const char *scope,
					      const char *quantity);
/* Both sides of row @r at capture @i; false when either has no number there. */
bool validate_row_at(const struct rf_validation *v, const struct validate_row *r, size_t i,
		     uint64_t *k, uint64_t *m);


#endif /* REFAULT_VALIDATE_LOCAL_H */
