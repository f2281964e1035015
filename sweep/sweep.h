/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-sweep: what `refault sweep` is made of (docs/sweeps.md).  A
 * sweep is traces x configurations x repetitions, planned into tasks that
 * any engine runs (local processes, GNU parallel, a Slurm job array), each
 * task one `refault replay` of one trace through a group of configurations
 * that share its pass, writing a results file named by a hash of its inputs
 * into the plan's store; the merge gathers them into one file `refault
 * compare` reads.
 *
 *   spec.c   the SPEC file (sweep_spec_read(), sweep-local.h)
 *   plan.c   SPEC -> PLAN: expand, fingerprint, group, name; PLAN read back
 *   task.c   one task: `refault replay` as a child, its log and status
 *   run.c    every task here: GNU parallel or a pool of processes
 *   emit.c   a command list for GNU parallel, an sbatch --array script
 *   merge.c  the store -> SWEEP.json (docs/sweeps.md, "The merged file")
 *
 * Conventions: 0 on success, a negative rf_err (or negated errno) on
 * failure with a message in @err (RF_SWEEP_ERRLEN bytes are enough);
 * nothing here prints to stderr, exits or reads a global setting.
 */
#ifndef REFAULT_SWEEP_H
#define REFAULT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/api.h>
#include <refault/errors.h>

#define RF_SWEEP_ERRLEN 1024

struct rf_sweep_plan;

/* One task of a plan, as the plan file gives it; paths are absolute. */
struct rf_sweep_task {
	const char *id;			/* 16 hex digits: the hash of everything its result depends on */
	const char *workload;
	const char *trace;
	const char *fingerprint;	/* the trace's, as its results file will say it */
	const char *matrix;		/* STORE/ID.matrix: its configurations, one per line */
	const char *results;		/* STORE/ID.json */
	const char *log;		/* STORE/ID.log: the replay's stdout and stderr */
	const char *status;		/* STORE/ID.status: how it ended (written after it) */
	size_t nr_configs;
	uint64_t events;		/* in the trace, by its chunk list */
	uint64_t memory_bytes;		/* the plan's bound on the task's memory */
	uint64_t seconds;		/* the plan's bound on its time (Slurm --time) */
};

/*
 * rf_sweep_plan_make() - read the SPEC at @spec_path and write the plan at
 * @plan_path (JSON, docs/sweeps.md) and the tasks' matrices into its store
 * @refault: the program a task runs (recorded in the plan for the engines)
 * @summary: if not NULL, one paragraph for the user (tasks, configurations,
 *           memory and time bounds), malloc()ed
 */
RF_API int rf_sweep_plan_make(const char *spec_path, const char *plan_path, const char *refault,
			      char **summary, char *err, size_t errlen);

/*
 * rf_sweep_plan_load() - read back the plan at @plan_path (docs/sweeps.md,
 * "The plan"), trusted no more than any file: its format; its own path, its
 * store's, its program's and every task's trace's fit for a script
 * (sweep_check_path(): docs/sweeps.md, "Paths"); each replay's threads (1 to
 * 1024); its replay options those a spec may give; a task's id 16 hex digits
 *
 * Return: 0 with *@out for rf_sweep_plan_free(); else *@out NULL and a
 * negated errno (the path does not resolve), rf_json_read_object()'s error
 * (unreadable, too large, not JSON), RF_ERR_CORRUPT (not a plan, or a field
 * that is not what `refault sweep plan` writes) or RF_ERR_NOMEM, with @err
 * naming the plan and what is wrong.
 */
RF_API int rf_sweep_plan_load(struct rf_sweep_plan **out, const char *plan_path, char *err,
			      size_t errlen);
RF_API void rf_sweep_plan_free(struct rf_sweep_plan *p);
/*
 * What a loaded plan holds: its tasks (task @i, NULL past the last), its
 * path (absolute), store, program and each replay's --threads.
 */
RF_API size_t rf_sweep_plan_nr_tasks(const struct rf_sweep_plan *p);
RF_API const struct rf_sweep_task *rf_sweep_plan_task(const struct rf_sweep_plan *p, size_t i);
RF_API const char *rf_sweep_plan_path(const struct rf_sweep_plan *p);	/* absolute */
RF_API const char *rf_sweep_plan_store(const struct rf_sweep_plan *p);
RF_API const char *rf_sweep_plan_refault(const struct rf_sweep_plan *p);
RF_API unsigned int rf_sweep_plan_threads(const struct rf_sweep_plan *p);

enum rf_sweep_state {
	RF_SWEEP_MISSING,		/* no results and no status: never ran, or still running */
	RF_SWEEP_FAILED,		/* a status that is not success, or results that do not hold */
	RF_SWEEP_DONE,
};

/*
 * rf_sweep_task_state() - what the store says of task @i; with @why (may be
 * NULL) the reason for RF_SWEEP_FAILED, from its status and the end of its
 * log, or what is wrong with its results.  It reads the status and the
 * results file: done means results that parse and hold every configuration
 * the task was to run, with its stats, for the plan's trace (a results file
 * cut short, or of another trace, is failed, and runs again).
 */
RF_API enum rf_sweep_state rf_sweep_task_state(const struct rf_sweep_plan *p, size_t i,
					       char *why, size_t whylen);

/* The replay command line of task @i: a NULL-terminated argv, malloc()ed (free each, then it). */
RF_API char **rf_sweep_task_argv(const struct rf_sweep_plan *p, size_t i);
RF_API void rf_sweep_argv_free(char **argv);

/*
 * rf_sweep_task_run() - run task @i here, unless it is done: the replay
 * (@refault, or the plan's program when NULL) as a child with its output in
 * the task's log, then its status, written atomically.  Sets *@ran.
 * Returns 0 when the task is done (now or before), RF_ERR_INVAL with the
 * reason in @err when its replay failed.
 */
RF_API int rf_sweep_task_run(const struct rf_sweep_plan *p, size_t i, const char *refault,
			     bool *ran, char *err, size_t errlen);

/* How the tasks that are not done are run here. */
enum rf_sweep_engine {
	RF_SWEEP_ENGINE_AUTO,		/* GNU parallel when it is on PATH, else processes */
	RF_SWEEP_ENGINE_PARALLEL,
	RF_SWEEP_ENGINE_PROCESSES,
};

struct rf_sweep_run_stats {
	size_t tasks, skipped, ran, failed;
	double wall_seconds;		/* of the whole run */
	double task_seconds;		/* the sum of the tasks' own wall times (their status) */
	bool parallel;			/* GNU parallel ran them */
};

/*
 * rf_sweep_run_local() - every task not done, @jobs at a time, each as
 * `REFAULT sweep task PLAN I` (@refault: this program), by @engine.
 * Returns 0 when every task is done, RF_ERR_INVAL when some failed (the
 * stats say how many; rf_sweep_task_state() says why).
 */
RF_API int rf_sweep_run_local(const struct rf_sweep_plan *p, const char *refault,
			      unsigned int jobs, enum rf_sweep_engine engine,
			      struct rf_sweep_run_stats *st, char *err, size_t errlen);

/*
 * rf_sweep_emit_parallel() - one command per task not done, `REFAULT sweep
 * task PLAN I`, for `parallel < FILE` (locally, or with --sshloginfile)
 */
RF_API int rf_sweep_emit_parallel(const struct rf_sweep_plan *p, FILE *out);

/*
 * rf_sweep_shell_quote() - @s as one word for sh(1): in single quotes, each '
 * as '\''.  The one rule for every path or name the sweep writes into a
 * script, a command list, a task's log header or a hint to the user; the
 * paths a plan holds were checked (no control character, no backslash) when
 * it was made and when it was read, so that the word is one line and means
 * the same in every common shell.
 */
RF_API void rf_sweep_shell_quote(FILE *out, const char *s);
/*
 * rf_sweep_emit_slurm() - an sbatch script: a job array of every task (a task
 * already done ends at once), memory and time from the plan's largest task,
 * @max_running at a time (0: no limit), each element's log in the store
 */
RF_API int rf_sweep_emit_slurm(const struct rf_sweep_plan *p, FILE *out, unsigned int max_running);

struct rf_sweep_merge_stats {
	size_t tasks, done, failed, missing, partial;	/* partial: done past damaged chunks */
	size_t configs, runs;
};

/*
 * rf_sweep_merge() - gather the store into one sweep file (docs/sweeps.md)
 * on @fd, whatever is missing: what is not there is listed as missing or
 * failed (with why) and the file says it is not complete.  @report gets
 * one line per task that is not done.
 */
RF_API int rf_sweep_merge(const struct rf_sweep_plan *p, int fd, FILE *report,
			  struct rf_sweep_merge_stats *st, char *err, size_t errlen);

#endif /* REFAULT_SWEEP_H */
