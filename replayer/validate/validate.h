/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-validate (`refault validate`): replay a recorded trace through
 * the model configured as the recording kernel, through the replay engine
 * (decoding on every thread, the warm-cache stage, progress), and put the
 * kernel's own numbers (librefault-observe) beside the model's, per cgroup,
 * per phase, with tolerances.
 *
 * Conventions: 0 or a negative rf_err with a message in @err; nothing
 * prints but the print functions.
 */
#ifndef REFAULT_VALIDATE_H
#define REFAULT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/api.h>

#include "replayer/replay/replay.h"

/*
 * The floor a person gets without --slack: what no trace shows (the program's own text and
 * libraries activated through the loader's mappings, a few pages of metadata) measured 1..51
 * pages over the validation suite's recordings (docs/fidelity.md); the suite runs with 0.
 */
#define RF_VALIDATE_DEFAULT_SLACK	64u

struct rf_validate_opts {
	const char *profile;		/* NULL: chosen from the trace header */
	char *const *sets;		/* "KEY=VALUE" model overrides */
	size_t nr_sets;
	double tolerance;		/* 0.05 = 5 % */
	uint64_t slack;			/* absolute slack in pages (small counts); the CLI's
					 * default is RF_VALIDATE_DEFAULT_SLACK */
	bool cold_cache;		/* the model starts empty; pages cached before are slack */
	unsigned int threads;		/* replay engine threads (0: 1) */
	rf_replay_progress_cb progress;	/* the engine's progress (NULL: none) */
	void *progress_ctx;
	bool allow_mglru;		/* validate a trace recorded with the multi-gen LRU on
					 * against a classic-LRU profile (refused otherwise) */
};

struct rf_validation;

/*
 * rf_validate_run() - replay @path and compare
 * Return: 0; RF_ERR_CONFIG for a bad profile or --set, or a trace recorded
 * with the multi-gen LRU on (header host.lru_gen) without @o->allow_mglru;
 * RF_ERR_INVAL for a trace with no observations; other errors of the trace
 * or the model.
 */
RF_API int rf_validate_run(struct rf_validation **out, const char *path,
			   const struct rf_validate_opts *o, char *err, size_t errlen);
/* Gated rows out of tolerance (0: the model reproduces the kernel). */
RF_API size_t rf_validation_nr_bad(const struct rf_validation *v);
/* The table for a person, with the time series unless !@series. */
RF_API void rf_validation_print(const struct rf_validation *v, FILE *out, bool series);
RF_API int rf_validation_print_json(const struct rf_validation *v, FILE *out);
RF_API void rf_validation_free(struct rf_validation *v);

#endif /* REFAULT_VALIDATE_H */
