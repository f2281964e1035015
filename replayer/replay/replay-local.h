/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals of the replay engine (librefault-replay), shared by its files. */
#ifndef REFAULT_RESULT_LOCAL_H
#define REFAULT_RESULT_LOCAL_H

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/replay/replay.h"

RF_HASHMAP_DEFINE(path_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* cgroup_names.c: the recorded cgroup as "memcg.recorded"; the others left out unless @all. */
struct replay_cgroup_names {
	char recorded[RF_MAX_STRING];	/* its path, "" when the trace names none */
	bool all;
	char **paths;			/* every memcg the model knows */
	size_t n, cap;
	struct path_map known;		/* rf_hash_str(path) -> index in paths */
};

int replay_cgroup_names_init(struct replay_cgroup_names *cn, const struct rf_trace_header *h,
			     const struct rf_model *m, const struct rf_observe *o, bool all);
/* @key as the results name it: itself, renamed into @buf, or NULL (a cgroup left out). */
const char *replay_cgroup_names_key(const struct replay_cgroup_names *cn, const char *key,
				    char *buf, size_t len);
void replay_cgroup_names_release(struct replay_cgroup_names *cn);
/*
 * Each configuration's per-cgroup settings ("limit.recorded", "limit./a") named as the trace
 * at @opts->trace_path names its cgroups: RF_ERR_CONFIG, the key and the trace's cgroups in
 * @err, for a cgroup the trace does not have.  Reads the trace once if a setting names a
 * cgroup but the root.
 */
int replay_cgroup_names_resolve_configs(struct rf_config_list *l, const struct rf_replay_opts *opts,
					const struct rf_trace_header *h, char *err, size_t errlen);

/*
 * warm.c: the pages a trace reads that were cached before it began, and the
 * folios it adds that were refaults of shadows left before it.
 * replay_warm_scan() reads @path once (past damaged chunks with @skip_damaged);
 * replay_warm_load() gives the pages to @m at time @t, resident, unreferenced
 * and charged to the root memcg; replay_warm_plant(), called with each event
 * before @m is fed it, gives @m the shadow of such a refault at its add, with
 * the kernel's verdict (rf_model_plant_shadow()), and reads in a folio the
 * kernel read for itself at its add (kread.c, rf_model_kernel_read()).  @w is
 * only read after the scan: one for every model, whichever threads feed them.
 */
struct replay_warm;
int replay_warm_scan(struct replay_warm **out, const char *path, bool skip_damaged, char *err,
		     size_t errlen);
int replay_warm_load(const struct replay_warm *w, struct rf_model *m, uint64_t t);
int replay_warm_plant(const struct replay_warm *w, struct rf_model *m, const struct rf_event *ev);
uint64_t replay_warm_pages(const struct replay_warm *w);
/* The pages of the refaults it found (whole folios), those the kernel found recent in @recent. */
uint64_t replay_warm_shadow_pages(const struct replay_warm *w, uint64_t *recent);
/* The pages of the adds of files no reference names, which the model reads in (kread.c). */
uint64_t replay_warm_kernel_pages(const struct replay_warm *w);
/* The time of the trace's first event. */
uint64_t replay_warm_start(const struct replay_warm *w);
void replay_warm_free(struct replay_warm *w);

/*
 * kread.c: the folios the kernel reads for itself (a file system's metadata
 * in the block device's cache), for the warm stage's scan: every add until
 * its insertion (replay_kread_add(), _insertion(), _forget() at a delete),
 * the files the trace names (replay_kread_named(); of a small @write, its
 * pages only); replay_kread_finish() keeps the adds of the others, and
 * replay_kread_plant() reads such a folio into @m at its add
 * (rf_model_kernel_read()).
 */
struct replay_kread;
struct replay_kread *replay_kread_new(bool classic);
void replay_kread_free(struct replay_kread *k);
int replay_kread_add(struct replay_kread *k, const struct rf_event *ev, const struct rf_pages *p);
int replay_kread_insertion(struct replay_kread *k, const struct rf_event *ev);
void replay_kread_forget(struct replay_kread *k, const struct rf_event *ev);
int replay_kread_named(struct replay_kread *k, const struct rf_pages *p, bool write);
int replay_kread_finish(struct replay_kread *k);
uint64_t replay_kread_pages(const struct replay_kread *k);
int replay_kread_plant(const struct replay_kread *k, struct rf_model *m, const struct rf_event *ev,
		       const struct rf_pages *p);

/*
 * series.c: a time series of samples, each what @walk gives of @src (key,
 * value pairs in a fixed order, as rf_model_sample() names them).
 */
struct replay_series;
typedef int (*replay_series_walk)(const void *src, rf_model_counter_cb cb, void *ctx);
/* rf_model_sample() as a walk of a struct rf_model. */
int replay_series_model_walk(const void *m, rf_model_counter_cb cb, void *ctx);
struct replay_series *replay_series_new(uint64_t interval_ns);
/* Call before feeding each event: takes the samples due before @t. */
int replay_series_advance(struct replay_series *s, replay_series_walk walk, const void *src,
			  uint64_t t);
int replay_series_finish(struct replay_series *s, replay_series_walk walk, const void *src,
			 uint64_t t_end);
/*
 * One sample at @t, times counted from @t0 (the first event): the kernel's
 * own series, a sample at each of its counter snapshots.
 */
int replay_series_sample(struct replay_series *s, uint64_t t0, uint64_t t, replay_series_walk walk,
			 const void *src);
json_object *replay_series_to_json(const struct replay_series *s);
size_t replay_series_samples(const struct replay_series *s);
void replay_series_free(struct replay_series *s);

/*
 * policy.c: a reference policy's configuration (struct rf_policy_config in replay.h), made,
 * set and freed as rf_model_config_*() do a model's.
 */
/* Whether @name is a reference policy's ("lru", "clock", "opt"), not a kernel profile. */
bool replay_policy_profile(const char *name);
int replay_policy_config_new(struct rf_policy_config **out, const char *profile);
int replay_policy_config_set(struct rf_policy_config *c, const char *key, const char *value,
			     char *err, size_t errlen);
void replay_policy_config_from_header(struct rf_policy_config *c, const struct rf_trace_header *h);
void replay_policy_config_free(struct rf_policy_config *c);

/* policy.c: a reference policy fed as a model is (see rf_policy_config in replay.h). */
struct replay_policy_run;
int replay_policy_run_new(struct replay_policy_run **out, const struct rf_policy_config *c,
			  const struct rf_trace_header *h);
int replay_policy_run_feed(struct replay_policy_run *r, const struct rf_event *ev);
int replay_policy_run_finish(struct replay_policy_run *r);
/* A hint, changing nothing: @ev comes soon, start loading what it will look up. */
void replay_policy_run_prefetch(const struct replay_policy_run *r, const struct rf_event *ev);
/* "policy.<name>" counters, in a fixed order: a replay_series_walk of a replay_policy_run. */
int replay_policy_run_counters(const void *r, rf_model_counter_cb cb, void *ctx);
bool replay_policy_run_counter(const struct replay_policy_run *r, const char *key, uint64_t *v);
/* Where its capacity came from: "cache", "memory limit of the recorded cgroup", "memory". */
const char *replay_policy_run_capacity_from(const struct replay_policy_run *r);
/* Whether its counters mean something during the trace (OPT's only at the end). */
bool replay_policy_run_series(const struct replay_policy_run *r);
void replay_policy_run_free(struct replay_policy_run *r);

/* One configuration's model (or reference policy) and what the engine counted around it. */
/*
 * Each run on cache lines of its own (allocated so): a worker writes its
 * runs' counters every event, and a neighbour's in the same line would
 * bounce it between the cores (2 configurations on 2 threads: 5.6 s, 4.2 s
 * each alone, before).
 */
struct replay_model_run {
	_Alignas(64) const struct rf_replay_config *conf;
	struct rf_model *model;		/* NULL for a reference policy */
	struct replay_policy_run *policy;	/* NULL for a kernel profile */
	struct replay_series *series;	/* NULL: none (OPT) */
	uint64_t events;
	uint64_t by_type[RF_EV_TYPE_MAX];
	uint64_t out_of_order;		/* events earlier than the one before */
	uint64_t last_time;
};

/* What a run's series samples: the model's rf_model_sample(), or the policy's counters. */
static inline replay_series_walk replay_run_walk(const struct replay_model_run *mr)
{
	return mr->model ? replay_series_model_walk : replay_policy_run_counters;
}

static inline const void *replay_run_src(const struct replay_model_run *mr)
{
	return mr->model ? (const void *)mr->model : (const void *)mr->policy;
}

struct rf_replay_result {
	char *trace_path;
	uint64_t trace_bytes;
	struct rf_trace_header header;
	uint64_t fingerprint;		/* FNV-1a over every chunk's zstd checksum */
	struct replay_model_run *runs;
	size_t nr;
	struct rf_observe *observe;	/* the kernel's account; NULL once taken */
	uint64_t lost;			/* its lost records, once taken */
	bool warm_cache;		/* the warm stage ran */
	uint64_t preloaded;		/* pages the warm pass gave each model */
	uint64_t preloaded_shadows;	/* and the pages of the refaults before the trace it found */
	uint64_t kernel_reads;		/* and the pages of the kernel's own reads it read in (kread.c) */
	uint64_t preloaded_recent;	/* of which the kernel found recent */
	struct replay_warm *warm;	/* its findings, for replay_warm_plant() */
	const struct rf_chunk_info *index;	/* owned by the reader; NULL without an index */
	size_t nr_index;
	uint64_t chunks_damaged;
	uint64_t events_skipped;
	char first_damage[512];
	unsigned int threads;
	double wall_seconds;
	uint64_t peak_rss_bytes;
	bool all_cgroups;		/* --all-cgroups: keep the cgroups outside the recorded one */
	struct replay_series *kernel_series;	/* the kernel's, at its counter snapshots */
	uint64_t t_first;		/* the first event's time, once fed */
	bool fed;
	bool kernel_pending;		/* a snapshot's counters were fed, not yet sampled */
	uint64_t kernel_t;		/* the time of its last counters event */
};

/*
 * kernel_series.c: the kernel's series takes one sample per snapshot (its
 * vmstat and memory.stat counters events, back to back), after the last of
 * them: call before each event that is not counters, and at the end.
 */
int replay_kernel_sample(struct rf_replay_result *res);



int replay_pipeline(const struct rf_replay_opts *opts, struct rf_trace_reader *r,
		    struct rf_replay_result *res, uint64_t total_chunks, char *err, size_t errlen);
void replay_fingerprint_frame(struct rf_replay_result *res, const void *frame, size_t size);
uint64_t replay_index_events_at(const struct rf_replay_result *res, uint64_t offset);

#endif /* REFAULT_RESULT_LOCAL_H */
