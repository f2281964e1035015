/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-model: a deterministic model of Linux page reclaim (classic
 * two-list LRU, workingset refault detection, memcg, per-CPU LRU batches).
 *
 * A configuration is a profile (a kernel version: "v4.6", "v6.18", ...) plus
 * switch overrides ("memory=4G", "pagevec=pre-8f18", "cost.lru_lock=40").
 * A model is built from a configuration, fed trace events in trace order and
 * read back as counters with the kernel's names.  There is no global mutable
 * state: several models run side by side.  The same configuration and the
 * same events give the same counters, always.  docs/model.md lists the rules
 * and the simplifications.
 *
 * Conventions: 0 on success, negative enum rf_err on failure; nothing prints.
 */
#ifndef REFAULT_MODEL_H
#define REFAULT_MODEL_H

#include <refault/api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/errors.h>
#include <refault/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rf_model_config;

/* NULL-terminated list of profile names ("v4.5", "v4.6", ...), for --help. */
RF_API const char *const *rf_model_profiles(void);

/* One line that says what a profile models, or NULL for an unknown name. */
RF_API const char *rf_model_profile_summary(const char *profile);

/*
 * rf_model_profile_for_release() - the profile for a trace recorded on
 * kernel @release (as uname -r says it: "6.18.4-arch1")
 *
 * The profile of that major.minor release, else the nearest older one, else
 * (older than every profile) the oldest; a release that does not start with
 * "<major>.<minor>", or NULL, gets the newest.  Only profiles of plain
 * releases are picked ("v4.6+55779ec" never is).  @why (@whylen bytes)
 * says in one line which of these it was.
 * Return: a profile name (static), never NULL.
 */
RF_API const char *rf_model_profile_for_release(const char *release, char *why, size_t whylen);

/**
 * rf_model_config_new() - a configuration with @profile's switches
 * Return: 0, RF_ERR_CONFIG for an unknown profile, RF_ERR_NOMEM.
 */
RF_API int rf_model_config_new(struct rf_model_config **out, const char *profile);

/* A deep copy of @c. */
RF_API int rf_model_config_dup(struct rf_model_config **out, const struct rf_model_config *c);

/**
 * rf_model_config_set() - override one switch
 * @key: "memory", "cpus", "swap", "swappiness", "pagevec", "pagevec_size",
 *       "swap_account", "drain", "limit./path", "memsw./path",
 *       "cost.<op>", ... (rf_model_config_keys() lists them all)
 * @err: on failure, a message that names the key and says what it takes
 * Return: 0, RF_ERR_CONFIG (unknown key, bad value), RF_ERR_NOMEM.
 */
RF_API int rf_model_config_set(struct rf_model_config *c, const char *key, const char *value,
			char *err, size_t errlen);

/* Fill memory, swap, CPUs and page size from the trace, unless set explicitly. */
RF_API void rf_model_config_from_header(struct rf_model_config *c, const struct rf_trace_header *h);

/*
 * Every effective key and value, in a fixed order; @overridden is true for
 * values set with rf_model_config_set() or taken from a trace header.
 * A non-zero return from @cb stops the walk and is returned.
 */
typedef int (*rf_model_describe_cb)(const char *key, const char *value, bool overridden,
				    void *ctx);
RF_API int rf_model_config_describe(const struct rf_model_config *c, rf_model_describe_cb cb, void *ctx);

/* The kind of value a configuration key takes. */
enum rf_model_key_type {
	RF_MODEL_KEY_SIZE = 0,	/* bytes: 65536, 64K, 512M, 4G (powers of 1024; KiB, kb too) */
	RF_MODEL_KEY_UINT = 1,	/* a decimal integer */
	RF_MODEL_KEY_ENUM = 2,	/* one of the names in values */
};

#define RF_MODEL_KEY_PER_CGROUP	0x1u	/* the key is name + a cgroup path: "limit./a/b" */
#define RF_MODEL_KEY_UNLIMITED	0x2u	/* SIZE: "max" (no limit) is taken too */
#define RF_MODEL_KEY_POW2	0x4u	/* UINT: a power of two */
#define RF_MODEL_KEY_PROFILE_MAX 0x8u	/* UINT: the profile sets a lower maximum (swappiness) */

/* One key rf_model_config_set() takes. */
struct rf_model_key {
	const char *name;		/* "memory", "cost.lru_lock"; "limit." for limit.<path> */
	enum rf_model_key_type type;
	unsigned int flags;		/* RF_MODEL_KEY_* */
	uint64_t min, max;		/* SIZE, UINT: the range taken */
	const char *const *values;	/* ENUM: the names taken, NULL-terminated; else NULL */
	const char *help;		/* one line: what the key sets, and its default */
};

/*
 * rf_model_config_keys() - call @cb for every key rf_model_config_set()
 * takes, in the order rf_model_config_describe() lists them (per-cgroup
 * keys last).  The keys and their strings are static.  A non-zero return
 * from @cb stops the walk and is returned.
 */
typedef int (*rf_model_key_cb)(const struct rf_model_key *key, void *ctx);
RF_API int rf_model_config_keys(rf_model_key_cb cb, void *ctx);

RF_API void rf_model_config_free(struct rf_model_config *c);

struct rf_model;

/**
 * rf_model_new() - a model in the initial state of @c (copied)
 * Return: 0, RF_ERR_CONFIG (message in @err: zero CPUs, memory too small...),
 *         RF_ERR_NOMEM.
 */
RF_API int rf_model_new(struct rf_model **out, const struct rf_model_config *c, char *err, size_t errlen);

/*
 * Apply one trace event.  Observations and unknown types are ignored.
 * Return: 0, or RF_ERR_NOMEM (the model is then unusable).
 */
RF_API int rf_model_feed(struct rf_model *m, const struct rf_event *ev);

/* End of trace: freeze the final gauges (e.g. pages stranded at exit). */
RF_API int rf_model_finish(struct rf_model *m);

/*
 * Every counter, in a fixed order: "vmstat.<name>" (global, as the profile's
 * /proc/vmstat would count), "memcg.<path>.<name>", "cost.<op>",
 * "cost.estimated_ns", "gauge.<name>".  Values in base pages unless named
 * otherwise.  A non-zero return from @cb stops the walk and is returned.
 */
typedef int (*rf_model_counter_cb)(const char *key, uint64_t value, void *ctx);
RF_API int rf_model_counters(const struct rf_model *m, rf_model_counter_cb cb, void *ctx);

/* A cheap subset for time series: list sizes and the main cumulative counters. */
RF_API int rf_model_sample(const struct rf_model *m, rf_model_counter_cb cb, void *ctx);

/* A single counter by key (as rf_model_counters() names it); false if unknown. */
RF_API bool rf_model_counter(const struct rf_model *m, const char *key, uint64_t *value);

RF_API void rf_model_free(struct rf_model *m);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_MODEL_H */
