/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The replay engine: one trace, K model configurations, N worker threads.
 *
 * The reading thread pulls raw chunk frames off the trace in file order into
 * a ring of slots; any worker decodes any slot (chunks are independent);
 * each model consumes every decoded slot in order, so K models cost about
 * one decode.  A slot is reused only when every model thread has consumed
 * it, which bounds memory and makes a slow model hold the reader back.
 * Results depend only on the trace and the configurations: each model sees
 * the same events in the same order whatever the thread count.
 *
 * Stages, in order: an optional first pass over the trace finds the pages
 * it reads that were cached before it began (warm.c) and gives them to
 * every model; then the pipeline feeds the events; at the end every model
 * is finished.  The kernel's own account (librefault-observe) is fed the
 * same events once, on the thread of the first configuration.  A probe
 * (validate's captures) watches one configuration's model as it is fed.
 */
#ifndef REFAULT_ENGINE_H
#define REFAULT_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include <refault/api.h>
#include <refault/model.h>
#include <refault/trace.h>

#include "replayer/observe/observe.h"

/*
 * A probe watches one configuration's model while the engine feeds it, on
 * that model's thread, in trace order.  @obs is the engine's account of the
 * kernel up to (not including) @ev for the first configuration, NULL for the
 * others.  Any callback may be NULL; a non-zero return stops the replay
 * with that error.
 */
struct rf_replay_probe {
	/* after the warm pre-load (if any), before the first event */
	int (*start)(void *ctx, struct rf_model *m);
	int (*before)(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		      const struct rf_event *ev);
	int (*after)(void *ctx, const struct rf_model *m, const struct rf_event *ev);
	/* after rf_model_finish(); @t_end: the last event's time */
	int (*finish)(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		      uint64_t t_end);
};

/*
 * policy.c: the reference policies of librefault-refpolicy ("lru", "clock",
 * "opt") as configurations beside the kernel profiles.  Keys: "cache" (the
 * capacity; default the recorded cgroup's first memory limit, else the
 * memory), "memory", "page_size"; a kernel profile's other keys are checked
 * and kept as ignored.  Made, set and freed inside the engine (replay-local.h).
 */
struct rf_policy_config;
/* Its settings, as rf_model_config_describe() gives a model configuration's. */
RF_API int rf_policy_config_describe(const struct rf_policy_config *c, rf_model_describe_cb cb,
				     void *ctx);

/* One configuration to replay: a name and the model configuration (or a reference policy's). */
struct rf_replay_config {
	char *name;			/* "v4.6" or "v4.6,memory=1G" */
	char *line;			/* the same as a --matrix line: "v4.6 memory=1G" */
	char *profile;
	struct rf_model_config *cfg;	/* NULL for a reference policy */
	struct rf_policy_config *policy;	/* NULL for a kernel profile */
	const struct rf_replay_probe *probe;	/* NULL: none */
	void *probe_ctx;
};

struct rf_config_list {
	struct rf_replay_config *items;
	size_t nr;
	size_t cap;
};

/* config_list.c: --profile / --set / --matrix into a list of named configurations */
RF_API int rf_config_list_add_profiles(struct rf_config_list *l, const char *profiles,
				       char *const *sets, size_t nr_sets, char *err, size_t errlen);
RF_API int rf_config_list_add_matrix(struct rf_config_list *l, const char *path, char *const *sets,
				     size_t nr_sets, char *err, size_t errlen);
/* One line of a matrix, as a --matrix file's (the configurations at most 4096 in all). */
RF_API int rf_config_list_add_matrix_line(struct rf_config_list *l, const char *line,
					  char *const *sets, size_t nr_sets, char *err,
					  size_t errlen);
RF_API void rf_config_list_apply_header(struct rf_config_list *l, const struct rf_trace_header *h);
RF_API void rf_config_list_free(struct rf_config_list *l);

/*
 * replay.c: the "fingerprint" of the trace at @path as its results file gives
 * it (every chunk frame's checksum, from the chunk list: no chunk is
 * decoded), and its events by the chunk list.  Returns 0, or a negative
 * rf_err with the reason in @err; @fingerprint and @events are written
 * either way, meaningful on success only.  With @reader, the trace's reader
 * is handed back open on success (for its header; the caller closes it).
 */
RF_API int rf_replay_trace_fingerprint(const char *path, uint64_t *fingerprint, uint64_t *events,
				       struct rf_trace_reader **reader, char *err, size_t errlen);

/* How far a replay is, for a progress line (rf_replay_opts.progress). */
struct rf_replay_progress {
	uint64_t chunks;		/* chunks read so far */
	uint64_t total_chunks;		/* the trace's, from its index; 0 when not known */
	double events_per_s;		/* the events fed so far over the time since the start */
	double eta_s;			/* the time left at that rate, when total_chunks is known */
	bool final;			/* the last call, the trace read whole */
};
/* Called from the reading thread at most every 0.5 s, and once with @p->final. */
typedef void (*rf_replay_progress_cb)(const struct rf_replay_progress *p, void *ctx);

struct rf_replay_opts {
	const char *trace_path;
	unsigned int threads;		/* worker threads (>= 1) */
	uint64_t interval_ns;		/* 0: automatic */
	bool skip_damaged;
	rf_replay_progress_cb progress;	/* NULL: none (the library prints nothing) */
	void *progress_ctx;
	bool warm_cache;		/* pre-load the pages cached before the trace (warm.c) */
	bool observe_pages;		/* the kernel's account follows every page (RF_OBSERVE_PAGES) */
	bool all_cgroups;		/* results keep the cgroups outside the recorded one */
	bool allow_mglru;		/* replay a trace recorded with the multi-gen LRU on
					 * (header host.lru_gen) through the classic-LRU
					 * profiles; RF_ERR_CONFIG otherwise */
};

/* What a replay produced, before it becomes JSON. */
struct rf_replay_result;

RF_API int rf_replay_run(const struct rf_replay_opts *opts, struct rf_config_list *configs,
			 struct rf_replay_result **out, char *err, size_t errlen);
RF_API json_object *rf_replay_result_json(const struct rf_replay_result *res, bool with_run);
/* A few lines per configuration for a person. */
RF_API void rf_replay_result_summary(const struct rf_replay_result *res, FILE *out);
/* The header of the trace replayed. */
RF_API const struct rf_trace_header *rf_replay_result_header(const struct rf_replay_result *res);
/* FNV-1a over every chunk's zstd checksum: the results' "trace" "fingerprint". */
RF_API uint64_t rf_replay_result_fingerprint(const struct rf_replay_result *res);
/* Events of the trace the models were fed. */
RF_API uint64_t rf_replay_result_events(const struct rf_replay_result *res);
/* Records the kernel dropped while the trace was recorded (its lost events). */
RF_API uint64_t rf_replay_result_lost(const struct rf_replay_result *res);
/* Pages the warm pass gave every model before the trace (0 without --warm-cache). */
RF_API uint64_t rf_replay_result_preloaded(const struct rf_replay_result *res);
/*
 * Pages of the folios the trace adds that the warm pass found were refaults
 * of shadows left before the trace, each given to every model at its add
 * (0 without --warm-cache); those the recording kernel found recent in
 * @recent (may be NULL).
 */
RF_API uint64_t rf_replay_result_preloaded_shadows(const struct rf_replay_result *res,
						   uint64_t *recent);
/*
 * Pages of the folios the trace adds to files no reference of it names (a
 * file system's metadata, in the block device's cache), each read into
 * every model at its add with the accesses its insertion implies (0
 * without --warm-cache; replayer/replay/kread.c).
 */
RF_API uint64_t rf_replay_result_kernel_reads(const struct rf_replay_result *res);
/* The kernel's account, taken out of @res (the caller frees it with rf_observe_free()). */
RF_API struct rf_observe *rf_replay_result_take_observe(struct rf_replay_result *res);
RF_API void rf_replay_result_free(struct rf_replay_result *res);

#endif /* REFAULT_ENGINE_H */
