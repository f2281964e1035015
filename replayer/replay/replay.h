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
 */
#ifndef REFAULT_ENGINE_H
#define REFAULT_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include <refault/model.h>
#include <refault/trace.h>

/* One configuration to replay: a name and the model configuration. */
struct rf_replay_config {
	char *name;			/* "v4.6" or "v4.6,memory=1G" */
	char *profile;
	struct rf_model_config *cfg;
};

struct rf_config_list {
	struct rf_replay_config *items;
	size_t nr;
	size_t cap;
};

/* config_list.c: --profile / --set / --matrix into a list of named configurations */
int rf_config_list_add_profiles(struct rf_config_list *l, const char *profiles,
				char *const *sets, size_t nr_sets, char *err, size_t errlen);
int rf_config_list_add_matrix(struct rf_config_list *l, const char *path, char *const *sets,
			      size_t nr_sets, char *err, size_t errlen);
void rf_config_list_apply_header(struct rf_config_list *l, const struct rf_trace_header *h);
void rf_config_list_free(struct rf_config_list *l);

struct rf_replay_opts {
	const char *trace_path;
	unsigned int threads;		/* worker threads (>= 1) */
	uint64_t interval_ns;		/* 0: automatic */
	bool skip_damaged;
	bool progress;			/* a progress line on stderr */
};

/* What a replay produced, before it becomes JSON. */
struct rf_replay_result;

int rf_replay_run(const struct rf_replay_opts *opts, struct rf_config_list *configs,
		  struct rf_replay_result **out, char *err, size_t errlen);
json_object *rf_replay_result_json(const struct rf_replay_result *res, bool with_run);
/* A few lines per configuration for a person. */
void rf_replay_result_summary(const struct rf_replay_result *res, FILE *out);
void rf_replay_result_free(struct rf_replay_result *res);

/* observed.c: the kernel's own numbers, from the observations in the trace */
struct rf_observed;
/* @page_size: of the recording host, to give memory.stat sizes in pages as the model does. */
struct rf_observed *rf_observed_new(uint32_t page_size);
int rf_observed_feed(struct rf_observed *o, const struct rf_event *ev);
/* Adds "<key>": value pairs to @obj in a fixed order. */
void rf_observed_to_json(const struct rf_observed *o, json_object *obj);
void rf_observed_free(struct rf_observed *o);

/* series.c: a time series of model samples */
struct rf_series;
struct rf_series *rf_series_new(uint64_t interval_ns);
/* Call before feeding each event: takes the samples due before @t. */
int rf_series_advance(struct rf_series *s, const struct rf_model *m, uint64_t t);
int rf_series_finish(struct rf_series *s, const struct rf_model *m, uint64_t t_end);
json_object *rf_series_to_json(const struct rf_series *s);
void rf_series_free(struct rf_series *s);

#endif /* REFAULT_ENGINE_H */
