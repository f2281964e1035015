/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-gen: synthetic traces of known workloads (refault gen).
 *
 * A generator turns a case name and a few sizes into the same event
 * vocabulary `refault record` writes (include/refault/trace.h), deterministically:
 * the same case and parameters give the same events, and through the writer
 * the same bytes.  docs/generators.md describes every case.
 *
 * Functions return 0 or a negative rf_err and, where they take @err, leave a
 * sentence there that names the parameter at fault.  Nothing here prints or
 * keeps global state.
 */
#ifndef REFAULT_GEN_H
#define REFAULT_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <refault/api.h>
#include <refault/trace.h>

/*
 * Version of the generators' output.  Bumped whenever the events for the same
 * arguments change, so a regenerated bundled trace is compared against the
 * right expectation.  Written as the header's producer_version.
 */
#define RF_GEN_VERSION		"2"

#define RF_GEN_PAGE_SIZE	4096u

/* Defaults of refault gen's options. */
#define RF_GEN_DEFAULT_SEED	1u
#define RF_GEN_DEFAULT_MEM	(256ull << 20)
#define RF_GEN_DEFAULT_CPUS	4u

/* What refault gen accepts; beyond these a trace gets unreasonably large or meaningless. */
#define RF_GEN_MIN_MEM		(4ull << 20)
#define RF_GEN_MAX_MEM		(1ull << 40)
#define RF_GEN_MAX_TASKS	4096u
#define RF_GEN_MAX_CPUS		4096u
#define RF_GEN_MAX_SCALE	1000.0
#define RF_GEN_MAX_EVENTS	(200ull * 1000 * 1000)

struct rf_gen_params {
	uint64_t seed;
	uint64_t mem_bytes;	/* the synthetic host's MemTotal */
	uint32_t tasks;		/* nr_task; 0 = the case's default */
	uint32_t cpus;
	double scale;		/* multiplies each case's footprint */
};

/* Receives the events in time order; a negative return stops the generator with it. */
typedef int (*rf_gen_sink_fn)(void *ctx, const struct rf_event *ev);

struct rf_gen_case_info {
	const char *name;
	const char *summary;	/* one line, for refault gen --list */
};

/* The @i-th case in --list order; NULL past the last. */
RF_API const struct rf_gen_case_info *rf_gen_case_at(size_t i);

/* Default params (seed, mem, cpus, scale 1, tasks 0). */
RF_API void rf_gen_params_init(struct rf_gen_params *p);

/**
 * rf_gen_header() - the header a generated trace carries
 * @h: filled: producer "refault gen", clock "synthetic", synthetic, params,
 *     host memory/CPUs/page size; created is 0 so bytes do not depend on the clock
 *
 * Return: 0, or RF_ERR_INVAL for an unknown case or bad parameters (@err says which).
 */
RF_API int rf_gen_header(const char *name, const struct rf_gen_params *p,
			 struct rf_trace_header *h, char *err, size_t errlen);

/**
 * rf_gen_run() - generate case @name into @sink
 *
 * Return: 0; RF_ERR_INVAL / RF_ERR_RANGE for bad parameters (@err says which),
 * RF_ERR_NOMEM, or what @sink returned.
 */
RF_API int rf_gen_run(const char *name, const struct rf_gen_params *p, rf_gen_sink_fn sink,
		      void *ctx, char *err, size_t errlen);

/**
 * rf_gen_write() - generate case @name into the trace file open on @fd
 * @path: the file's name, for messages
 * @nr_events: if not NULL, the number of events written
 *
 * The descriptor stays open; on failure what was written is the caller's to
 * discard (the CLI writes to a temporary it removes: lib/outfile.h).
 */
RF_API int rf_gen_write(const char *name, const struct rf_gen_params *p, int fd,
			const char *path, uint64_t *nr_events, char *err, size_t errlen);

#endif /* REFAULT_GEN_H */
