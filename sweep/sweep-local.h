/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to librefault-sweep: the SPEC as read (spec.c) and the plan as held (plan.c). */
#ifndef REFAULT_SWEEP_LOCAL_H
#define REFAULT_SWEEP_LOCAL_H

#include "sweep/sweep.h"

#define SWEEP_PLAN_FORMAT	"refault-sweep-plan"
#define SWEEP_FORMAT		"refault-sweep"
#define SWEEP_DEFAULT_BUDGET	(4ull << 30)
#define SWEEP_DEFAULT_GROUP	8u
#define SWEEP_MAX_REPEAT	1000u
#define SWEEP_MAX_TASKS		1000000u

/* A workload: a name and its traces (repeated recordings of it), paths as resolved. */
struct sweep_workload {
	char *name;
	char **traces;
	size_t nr, cap;
};

struct sweep_spec {
	char *path;
	struct sweep_workload *wl;
	size_t nr_wl, cap_wl;
	char **matrix;			/* the lines of --matrix syntax, as written */
	unsigned int *matrix_lineno;
	size_t nr_matrix, cap_matrix, cap_lineno;
	char **sets;			/* KEY=VALUE for every configuration */
	size_t nr_sets, cap_sets;
	char **replay_opts;		/* the replay options every task passes */
	size_t nr_opts, cap_opts;
	unsigned int repeat;		/* runs of a configuration that has randomness */
	uint64_t budget;		/* bytes a task may use */
	unsigned int group;		/* configurations a task shares one pass among, at most */
	unsigned int threads;		/* each replay's --threads */
	char *store;			/* NULL: "sweep-store" beside the plan */
};

/* spec.c */
int sweep_spec_read(struct sweep_spec *s, const char *path, char *err, size_t errlen);
void sweep_spec_release(struct sweep_spec *s);

/* plan.c's task list, in the order the plan file lists them */
struct rf_sweep_plan {
	char *path;
	char *store;
	char *refault;
	unsigned int threads;
	char **replay_opts;
	size_t nr_opts;
	struct rf_sweep_task *tasks;
	size_t nr_tasks;
	struct json_object *root;	/* the plan as read: merge.c takes configurations from it */
};

/* task.c: the task's own wall time, from its status (0 when none). */
double sweep_task_seconds(const struct rf_sweep_task *t);

/* util.c: the last non-empty line of a file (a log), into @buf; "" when none. */
void sweep_last_line(const char *path, char *buf, size_t len);
/* A message into @err, as snprintf(). */
void sweep_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* @text as the whole of @path, atomically (lib/outfile.h). */
int sweep_write_file(const char *path, const char *text, char *err, size_t errlen);
/* mkdir -p */
int sweep_mkdir_p(const char *path, char *err, size_t errlen);
/*
 * sweep_check_path() - 0 when @path may be written into the engines' scripts
 * and command lines (docs/sweeps.md, "Paths"): absolute, no control
 * character (one command a line, one comment a line), no backslash (fish and
 * sbatch read it inside quotes); a @store, which sbatch reads in an #SBATCH
 * line, also without "hetjob" or "packjob" in any case.  Else RF_ERR_INVAL,
 * naming @what and the path (as it is: the caller escapes what it prints).
 */
int sweep_check_path(const char *what, const char *path, bool store, char *err, size_t errlen);
/*
 * sweep_replay_option() - how many of @w[0..n) the replay option at @w[0]
 * takes (1 for a flag, 2 for --interval T), 0 when a sweep does not pass it
 * (spec.c's list: what changes a replay's results, not where it writes).
 */
size_t sweep_replay_option(char *const *w, size_t n);

/* emit.c: task @i's line for a shell, `'REFAULT' sweep task 'PLAN' I` and a newline. */
void sweep_task_command(FILE *out, const struct rf_sweep_plan *p, const char *refault, size_t i);

/*
 * task.c: the state of task @i, as rf_sweep_task_state(); when it is
 * RF_SWEEP_DONE and @results is not NULL, its results file as read and
 * checked (sweep_results_read()), for the caller to put.
 */
enum rf_sweep_state sweep_task_state(const struct rf_sweep_plan *p, size_t i, char *why,
				     size_t whylen, struct json_object **results);

/*
 * results.c: task @i's results file, whole (JSON that parses) and what the
 * merge takes from it (the plan's trace by its fingerprint; every
 * configuration the task was to run, with its stats), into *@out; else
 * RF_ERR_CORRUPT (or an errno) with why in @why.
 */
int sweep_results_read(const struct rf_sweep_plan *p, size_t i, struct json_object **out,
		       char *why, size_t whylen);
/* results.c: configuration @replay_name of a results file with its stats, or NULL. */
struct json_object *sweep_results_config(struct json_object *results, const char *replay_name);

#endif /* REFAULT_SWEEP_LOCAL_H */
