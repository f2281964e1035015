/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internals of the replay engine shared by pipeline.c, replay.c and results.c. */
#ifndef REFAULT_RESULT_LOCAL_H
#define REFAULT_RESULT_LOCAL_H

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "replayer/replay/replay.h"

RF_HASHMAP_DEFINE(path_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* cgroup_names.c: the recorded cgroup as "memcg.recorded"; the others left out unless @all. */
struct rf_cgroup_names {
	char recorded[RF_MAX_STRING];	/* its path, "" when the trace names none */
	bool all;
	char **paths;			/* every memcg the model knows */
	size_t n, cap;
	struct path_map known;		/* rf_hash_str(path) -> index in paths */
};

int rf_cgroup_names_init(struct rf_cgroup_names *cn, const struct rf_trace_header *h,
			 const struct rf_model *m, const struct rf_observe *o, bool all);
/* @key as the results name it: itself, renamed into @buf, or NULL (a cgroup left out). */
const char *rf_cgroup_names_key(const struct rf_cgroup_names *cn, const char *key, char *buf,
				size_t len);
void rf_cgroup_names_release(struct rf_cgroup_names *cn);

/* One configuration's model and what the engine counted around it. */
struct rf_model_run {
	const struct rf_replay_config *conf;
	struct rf_model *model;
	struct rf_series *series;
	uint64_t events;
	uint64_t by_type[RF_EV_TYPE_MAX];
	uint64_t out_of_order;		/* events earlier than the one before */
	uint64_t last_time;
};

struct rf_replay_result {
	char *trace_path;
	uint64_t trace_bytes;
	struct rf_trace_header header;
	uint64_t fingerprint;		/* FNV-1a over every chunk's zstd checksum */
	struct rf_model_run *runs;
	size_t nr;
	struct rf_observe *observe;	/* the kernel's account; NULL once taken */
	uint64_t lost;			/* its lost records, once taken */
	bool warm_cache;		/* the warm stage ran */
	uint64_t preloaded;		/* pages the warm pass gave each model */
	const struct rf_chunk_info *index;	/* owned by the reader; NULL without an index */
	size_t nr_index;
	uint64_t chunks_damaged;
	uint64_t events_skipped;
	char first_damage[512];
	unsigned int threads;
	double wall_seconds;
	uint64_t peak_rss_bytes;
	bool all_cgroups;		/* --all-cgroups: keep the cgroups outside the recorded one */
	struct rf_series *kernel_series;	/* the kernel's, at its counter snapshots */
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
int rf_replay_kernel_sample(struct rf_replay_result *res);



int rf_replay_pipeline(const struct rf_replay_opts *opts, struct rf_trace_reader *r,
		       struct rf_replay_result *res, uint64_t total_chunks, char *err, size_t errlen);
void rf_replay_fingerprint_frame(struct rf_replay_result *res, const void *frame, size_t size);
uint64_t rf_replay_index_events_at(const struct rf_replay_result *res, uint64_t offset);

#endif /* REFAULT_RESULT_LOCAL_H */
