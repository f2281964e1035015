/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* librefault-report's insides: the names a trace gives, one source's table, the sources. */
#ifndef REFAULT_REPORT_LOCAL_H
#define REFAULT_REPORT_LOCAL_H

#include <refault/trace.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "report/report.h"

RF_HASHMAP_DEFINE(report_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

/*
 * stacks.c: the call stacks the trace names (name_stack, its frames named by
 * name_frame), as the keys of the callsite and symbol views.  A key's name is
 * the text of a stack's innermost @depth frames, so two stacks whose frames
 * have the same names (other return addresses in the same functions) are one
 * row, as perf report merges call chains by function.
 */
struct report_frame {
	char *dso, *symbol, *file;	/* NULL: not said */
	uint64_t addr;			/* in the dso's own address space */
	uint32_t line;			/* 0: unknown */
};

struct report_stack {
	uint64_t *frames;		/* name_frame ids, innermost first */
	uint32_t nr;
};

/*
 * The --children keys of a stack: its frames' names, each once, innermost
 * first, as the hashes of their text (the symbol view's key ids), and the
 * position in the stack of the frame that first has each name.
 */
struct report_chain {
	uint64_t *ids;
	uint32_t *pos;
	uint32_t nr;			/* 0: the stack's key is a bracketed one */
};

struct report_stacks {
	unsigned int depth;		/* the innermost frames a key has; 0: all */
	struct report_map frame_index;	/* name_frame id -> index in frames[] */
	struct report_frame *frames;
	size_t nr_frames, cap_frames;
	struct report_map stack_index;	/* name_stack id -> index in stacks[] */
	struct report_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct report_map chain_index;	/* stack id -> index in chains[], made once (--children) */
	struct report_chain *chains;
	size_t nr_chains, cap_chains;
};

int report_stacks_feed(struct report_stacks *st, const struct rf_event *ev);
/*
 * Its text, allocated: "inner <- caller <- ...", or "[no stack]" (0),
 * "[stack N]" (never named), "[empty stack]"; NULL without memory.
 */
char *report_stacks_key_name(const struct report_stacks *st, uint32_t stack);
/* The frames of @stack's key (0 for the bracketed keys), and its frame @i, innermost first. */
size_t report_stacks_nr_frames(const struct report_stacks *st, uint32_t stack);
const struct report_frame *report_stacks_frame(const struct report_stacks *st, uint32_t stack,
					       size_t i);
/* How a key names a frame: its symbol, else "[DSO's basename+0xADDR]", else "[unknown]". */
void report_frame_label(const struct report_frame *fr, char *buf, size_t len);
/*
 * @stack's functions for --children in @out (valid until the next call, or the
 * next name_frame or name_stack fed): nr 0 for a bracketed key.  0 or RF_ERR_NOMEM.
 */
int report_stacks_chain(struct report_stacks *st, uint32_t stack, const struct report_chain **out);
/* The label of @stack's frame @pos, allocated; NULL without memory. */
char *report_stacks_frame_name(const struct report_stacks *st, uint32_t stack, size_t pos);
void report_stacks_free(struct report_stacks *st);

/* The views whose key is the reference's call stack. */
static inline bool report_by_stack(enum rf_report_by by)
{
	return by == RF_REPORT_BY_CALLSITE || by == RF_REPORT_BY_SYMBOL;
}

/*
 * names.c: what the trace's own events name, as of the event last fed, and
 * the first name each pid, file (of a generation) and cgroup was given
 */
struct report_names {
	struct report_map pid_comm;	/* pid -> index in strs[] */
	struct report_map pid_first;	/* pid -> index in strs[]: its first command */
	struct report_map mm_pid;	/* address space -> its first pid, and the command then */
	struct report_map file;		/* hash(dev, ino) -> index in strs[]; none once unlinked */
	struct report_map file_first;	/* hash(dev, ino, generation) -> index in strs[] */
	struct report_map file_gen;	/* hash(dev, ino) -> its generation, > 0 once unlinked */
	struct report_map cgroup;	/* cgroup id -> index in strs[] */
	struct report_map cgroup_first;	/* cgroup id -> index in strs[] */
	struct report_stacks stacks;	/* the views of stacks only */
	char **strs;
	size_t nr_strs, cap_strs;
	bool any_unlink;		/* a file's generation changed */
};

/*
 * Names the view @by shows: files for the file view, cgroups for the cgroup
 * view, stacks for the views of stacks, tasks and the files' generations for all.
 */
int report_names_feed(struct report_names *n, enum rf_report_by by, const struct rf_event *ev);
/* The names of now; NULL: not named (yet) */
const char *report_names_comm(const struct report_names *n, int32_t pid);
const char *report_names_file(const struct report_names *n, uint32_t dev, uint64_t ino);
const char *report_names_cgroup(const struct report_names *n, uint64_t id);
/* The first names given; NULL: never named */
const char *report_names_comm_first(const struct report_names *n, int32_t pid);
const char *report_names_file_first(const struct report_names *n, uint32_t dev, uint64_t ino,
				    uint32_t gen);
const char *report_names_cgroup_first(const struct report_names *n, uint64_t id);
/* The file's generation now: 0, then one more each time the trace shows its last link gone. */
uint32_t report_names_file_gen(const struct report_names *n, uint32_t dev, uint64_t ino);
/* The first pid seen using the address space (0: unknown), and its command then (NULL: unknown). */
int32_t report_names_mm_pid(const struct report_names *n, uint64_t mm);
const char *report_names_mm_comm(const struct report_names *n, uint64_t mm);
void report_names_free(struct report_names *n);

/* The identity of a folio: a file's (dev, ino, index) or an address space's (mm, index). */
struct report_folio {
	uint64_t ino;		/* or the mm */
	uint64_t index;
	uint64_t nr;		/* base pages */
	uint32_t dev;
	uint32_t gen;		/* the file's generation (report_names_file_gen()) */
	bool anon;
};

/* table.c: one source's counts per key, and who owns each page */

/* What a key is in its view, for the name the trace gives it (report_source_finish()). */
enum report_key_kind {
	REPORT_KEY_FILE,		/* @who the inode of @dev, of generation @gen */
	REPORT_KEY_ANON,		/* @who the address space */
	REPORT_KEY_CGROUP,		/* @who the cgroup id */
	REPORT_KEY_PID,			/* @who the pid */
	REPORT_KEY_COMM,		/* a command's name (or "[no task]") */
	REPORT_KEY_UNNAMED_COMM,	/* @who the pid, whose command was not known yet */
	REPORT_KEY_STACK,		/* the views of stacks: @stack */
};

struct report_key {
	char *name;
	uint64_t id;			/* its identity in the view */
	uint64_t who;			/* what the view's key is (report_key_kind) */
	uint32_t dev, gen;		/* a file's */
	uint8_t kind;			/* enum report_key_kind */
	bool pending;			/* the trace had not named it when it was first counted */
	uint32_t stack;			/* views of stacks: the stack (the first counted to it) */
	uint32_t frame;			/* --children: the frame of that stack naming it */
	bool heat;			/* the heatmap's second pass: the grid's key */
	uint64_t v[RF_REPORT_NR_METRICS];
	/* --children: where it is the innermost frame; else v's own */
	uint64_t self[RF_REPORT_NR_METRICS];
	/*
	 * each metric's decisions (when v[m]): the times of the first and the
	 * last, the lowest first page and past the highest page (the file view's)
	 */
	uint64_t t_first[RF_REPORT_NR_METRICS], t_last[RF_REPORT_NR_METRICS];
	uint64_t index_lo[RF_REPORT_NR_METRICS], index_hi[RF_REPORT_NR_METRICS];
};

/* heatmap.c: one key's decisions over (time, page index), a grid of cells */
struct report_heat {
	/*
	 * the key, by name: keys apart may have one (two files with one path),
	 * and a row is all the keys of its name
	 */
	const char *key;
	const uint64_t *ids;		/* the identities of those keys, sorted (the second pass) */
	size_t nr_ids;
	uint64_t t0, t1;		/* decision times covered, inclusive */
	uint64_t t_origin;		/* the trace's earliest event: the axis counts from there */
	uint64_t t_end;			/* its latest */
	bool metric_seen;		/* [t0, t1] is the sort metric's (else every decision's) */
	uint64_t index_start, index_end;	/* page indexes covered: [index_start, index_end) */
	uint64_t file_end;		/* past the highest page of the file's decisions of any metric */
	/* time across, page index down: as asked, but no more than nanoseconds or pages covered */
	unsigned int cols, rows;
	uint64_t (*cell)[RF_REPORT_NR_METRICS];	/* rows * cols */
};

/* A grid shaped as @proto (its cells not copied); NULL without memory. */
struct report_heat *report_heat_new(const struct report_heat *proto);
/* Whether the key @id is one of the grid's (the second pass). */
bool report_heat_has(const struct report_heat *h, uint64_t id);
void report_heat_add(struct report_heat *h, uint64_t time, uint64_t index,
		     enum rf_report_metric metric, uint64_t nr);
void report_heat_free(struct report_heat *h);

struct report_source {
	char *name;			/* "kernel", "v6.18,memory=1G" */
	enum rf_report_by by;
	bool children;			/* --children: a key per function on the stack */
	struct report_names names;
	struct report_map ids;		/* a key's identity in the view -> index in keys[] */
	struct report_key *keys;
	size_t nr_keys, cap_keys;
	struct report_map owner;	/* page identity -> its owner (report_owner_*) */
	uint64_t total[RF_REPORT_NR_METRICS];
	uint64_t unattributed[RF_REPORT_NR_METRICS];
	uint64_t now;			/* the time of the event being fed */
	uint64_t t_start, t_end;	/* the events' earliest and latest times */
	bool started;			/* an event was fed */
	uint64_t t_first, t_last;	/* of the decisions counted */
	bool decided;			/* any decision counted */
	struct report_heat *heat;	/* the heatmap's second pass: its key's grid */
	int error;			/* the first RF_ERR_NOMEM */
};

/* The reference a decision is counted to, and the folio's memory cgroup. */
struct report_ref {
	int32_t pid;			/* the task; 0: none */
	uint32_t stack;			/* its call stack (name_stack id); 0: none */
	uint64_t cgroup;		/* the memory cgroup charged */
	const char *cgpath;		/* its name if the source knows it; NULL: the trace's */
};

/*
 * A page's owner entry: who brought it in (report_who()), the cgroup charged
 * (kernel), whether it was evicted.
 */
#define REPORT_OWNER_WHO(v)		((uint32_t)(v))
#define REPORT_OWNER_EVICTED	(1ull << 32)

/*
 * What an owner entry keeps of the reference, in 32 bits: its stack in the
 * views of stacks, else its pid (the only part of it the view's key needs).
 */
static inline uint32_t report_who(enum rf_report_by by, int32_t pid, uint32_t stack)
{
	return report_by_stack(by) ? stack : (uint32_t)pid;
}

static inline struct report_ref report_who_ref(enum rf_report_by by, uint32_t who, uint64_t cgroup,
					       const char *cgpath)
{
	return (struct report_ref){ .pid = report_by_stack(by) ? 0 : (int32_t)who,
				    .stack = report_by_stack(by) ? who : 0, .cgroup = cgroup,
				    .cgpath = cgpath };
}

uint64_t report_page_id(const struct report_folio *f, uint64_t i);
/*
 * Count @nr pages of @metric for the key of @f in the source's view: the
 * reference's pid or call stack, the folio's cgroup, the folio's file or
 * address space.
 */
void report_count(struct report_source *s, enum rf_report_metric metric,
		  const struct report_folio *f, const struct report_ref *ref, uint64_t nr);
/* A source's view as @o asks for it (its by, the depth of its stacks, --children). */
void report_source_init(struct report_source *s, const struct rf_report_opts *o);
/* The event being fed is at @time. */
static inline void report_source_at(struct report_source *s, uint64_t time)
{
	s->now = time;
	if (!s->started || time < s->t_start)
		s->t_start = time;
	if (!s->started || time > s->t_end)
		s->t_end = time;
	s->started = true;
}
/*
 * The reading is over: each key the trace had not named when it was first
 * counted takes the first name the trace gave it after; the keys of stacks
 * are named by the trace's stacks and frames, and with --children turned
 * into a key per function.  Sets s->error without memory.
 */
void report_source_finish(struct report_source *s);
/* @nr pages of @metric in the totals that no key takes */
void report_unattributed(struct report_source *s, enum rf_report_metric metric, uint64_t nr);
void report_source_free(struct report_source *s);

/* kernel.c: the kernel's decisions from the trace's observations */
struct report_kernel;
/* @heat: NULL, or the shape of the grid to fill (the heatmap's pass) */
int report_kernel_new(struct report_kernel **out, const struct rf_report_opts *o,
		      const struct report_heat *heat);
int report_kernel_feed(struct report_kernel *k, const struct rf_event *ev);
struct report_source *report_kernel_source(struct report_kernel *k);
/* The trace is over: what the kernel counted is kept, the rest of its account freed. */
void report_kernel_end(struct report_kernel *k);
bool report_kernel_counted(const struct report_kernel *k, uint64_t *refault_file);
bool report_kernel_has_observations(const struct report_kernel *k);
void report_kernel_free(struct report_kernel *k);

/* source_model.c: model configurations' decisions, replayed */
int report_models_run(const struct rf_report_opts *o, const char *const *profiles, size_t nr,
		      const struct report_heat *heat, struct report_source **out, char *err,
		      size_t errlen);

/* report.c: the table */
#define MAX_SOURCES	16

/* A row as the sort sees it: everything the comparison needs, carried along. */
struct rowref {
	const char *key;
	const uint64_t (*v)[RF_REPORT_NR_METRICS];
	/* views of stacks: the stack that named the key, and its source's stacks */
	const struct report_stacks *stacks;
	uint32_t stack;
	uint32_t frame;			/* --children: the key's frame in that stack */
	const uint64_t (*self)[RF_REPORT_NR_METRICS];	/* v's own but with --children */
	size_t nr_src;
	enum rf_report_metric sort;
};

struct rf_report {
	char *trace;
	enum rf_report_by by;
	bool children;				/* --children (the symbol view) */
	struct report_kernel *kernel;		/* when the kernel is a source */
	struct report_source *src[MAX_SOURCES];
	size_t nr_src;
	enum rf_report_metric sort;
	/* rows: key names, and [source][metric] counts */
	const char **keys;
	uint64_t (*v)[RF_REPORT_NR_METRICS];	/* nr_rows * nr_src */
	uint64_t (*self)[RF_REPORT_NR_METRICS];	/* the same, the self counts */
	size_t nr_rows;
	struct rowref *order;		/* the rows in the table's order */
	const char *heat_key;		/* the heatmap's key (a row's), NULL: none */
	bool heat_none;			/* one was asked for, but the table has no row */
	bool counted;
	uint64_t counted_refault_file;
};

/* Source @i is the kernel's. */
static inline bool report_is_kernel(const struct rf_report *r, size_t i)
{
	return r->kernel && r->src[i] == report_kernel_source(r->kernel);
}

/*
 * report.c: row @i (in the table's order) shows nothing but zeros in the
 * tables for a person (one source: every metric; several: the sort metric
 * of each), which leave it out and say how many they left; the JSON has it.
 */
bool report_row_blank(const struct rf_report *r, size_t i);
size_t report_nr_blank(const struct rf_report *r);

/* heatmap.c: the busiest cell of every source's grid, for the sort metric: one scale for all */
uint64_t report_heat_busiest(const struct rf_report *r);
/*
 * An axis's ticks: a step of 1, 2 or 5 times a power of ten that puts at
 * most @max ticks on a span of @span (> 0) units.
 */
double report_tick_step(double span, unsigned int max);
/*
 * The @k-th tick from @lo on, @step apart; callers stop past the axis's end
 * and after a bounded number of ticks (a step below a double's precision at
 * @lo, a page index near 2^64, gives the same tick again).
 */
double report_tick(double lo, double step, unsigned int k);
#define REPORT_MAX_TICKS	64
/*
 * A time of @secs on an axis whose ticks are @step apart and whose largest
 * time is @top, in the unit that fits (s, ms, us, ns), with the decimals the step needs.
 */
void report_time_label(char *buf, size_t len, double secs, double step, double top);

/*
 * folded.c: a source's rows in a view of stacks as folded stacks, one per
 * distinct stack ("outer;...;inner", frames with ';' or control characters
 * written '?'), its count the sort metric's, none of 0; sorted by the text.
 */
struct report_fold {
	char *stack;
	uint64_t count;
};

int report_folded(const struct rf_report *r, size_t src, struct report_fold **out, size_t *nr);
void report_folded_free(struct report_fold *folds, size_t nr);

/* flame.c: source @src's folded stacks as a flame graph, one <svg class="flame"> on @out */
int report_flame_svg(FILE *out, const struct rf_report *r, size_t src);

#endif /* REFAULT_REPORT_LOCAL_H */
