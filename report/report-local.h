/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* librefault-report's insides: the names a trace gives, one source's table, the sources. */
#ifndef REFAULT_REPORT_LOCAL_H
#define REFAULT_REPORT_LOCAL_H

#include <refault/trace.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "report/report.h"

RF_HASHMAP_DEFINE(rp_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

/*
 * stacks.c: the call stacks the trace names (name_stack, its frames named by
 * name_frame), as the keys of the callsite and symbol views.  A key is the
 * text of a stack's innermost @depth frames, so two stacks whose frames have
 * the same names (other return addresses in the same functions) are one key,
 * as perf report merges call chains by function.
 */
struct rp_frame {
	char *dso, *symbol, *file;	/* NULL: not said */
	uint64_t addr;			/* in the dso's own address space */
	uint32_t line;			/* 0: unknown */
};

struct rp_stack {
	uint64_t *frames;		/* name_frame ids, innermost first */
	uint32_t nr;
};

/*
 * The --children keys of a stack: its frames' names, each once, innermost
 * first, as the hashes of their text (the symbol view's key ids), and the
 * position in the stack of the frame that first has each name.
 */
struct rp_chain {
	uint64_t *ids;
	uint32_t *pos;
	uint32_t nr;			/* 0: the stack's key is a bracketed one */
};

struct rp_stacks {
	unsigned int depth;		/* the innermost frames a key has; 0: all */
	struct rp_map frame_index;	/* name_frame id -> index in frames[] */
	struct rp_frame *frames;
	size_t nr_frames, cap_frames;
	struct rp_map stack_index;	/* name_stack id -> index in stacks[] */
	struct rp_stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct rp_map key_hash;		/* stack id -> the hash of its key's text, made once */
	struct rp_map chain_index;	/* stack id -> index in chains[], made once (--children) */
	struct rp_chain *chains;
	size_t nr_chains, cap_chains;
};

int rp_stacks_feed(struct rp_stacks *st, const struct rf_event *ev);
/* The identity of @stack's key in @id: the hash of its text.  0 or RF_ERR_NOMEM. */
int rp_stacks_key_id(struct rp_stacks *st, uint32_t stack, uint64_t *id);
/*
 * Its text, allocated: "inner <- caller <- ...", or "[no stack]" (0),
 * "[stack N]" (never named), "[empty stack]"; NULL without memory.
 */
char *rp_stacks_key_name(const struct rp_stacks *st, uint32_t stack);
/* The frames of @stack's key (0 for the bracketed keys), and its frame @i, innermost first. */
size_t rp_stacks_nr_frames(const struct rp_stacks *st, uint32_t stack);
const struct rp_frame *rp_stacks_frame(const struct rp_stacks *st, uint32_t stack, size_t i);
/* How a key names a frame: its symbol, else "[DSO's basename+0xADDR]", else "[unknown]". */
void rp_frame_label(const struct rp_frame *fr, char *buf, size_t len);
/*
 * @stack's functions for --children in @out (valid until the next call, or the
 * next name_frame or name_stack fed): nr 0 for a bracketed key.  0 or RF_ERR_NOMEM.
 */
int rp_stacks_chain(struct rp_stacks *st, uint32_t stack, const struct rp_chain **out);
/* The label of @stack's frame @pos, allocated; NULL without memory. */
char *rp_stacks_frame_name(const struct rp_stacks *st, uint32_t stack, size_t pos);
void rp_stacks_free(struct rp_stacks *st);

/* The views whose key is the reference's call stack. */
static inline bool rp_by_stack(enum rf_report_by by)
{
	return by == RF_REPORT_BY_CALLSITE || by == RF_REPORT_BY_SYMBOL;
}

/* names.c: what the trace's own events name, as of the event last fed */
struct rp_names {
	struct rp_map pid_comm;		/* pid -> index in strs[] */
	struct rp_map mm_pid;		/* address space -> the first pid seen using it */
	struct rp_map file;		/* hash(dev, ino) -> index in strs[] */
	struct rp_map cgroup;		/* cgroup id -> index in strs[] */
	struct rp_stacks stacks;	/* the views of stacks only */
	char **strs;
	size_t nr_strs, cap_strs;
};

/*
 * Names the view @by shows: files for the file view, cgroups for the cgroup
 * view, stacks for the views of stacks, tasks for all.
 */
int rp_names_feed(struct rp_names *n, enum rf_report_by by, const struct rf_event *ev);
const char *rp_names_comm(const struct rp_names *n, int32_t pid);	/* NULL: unknown */
const char *rp_names_file(const struct rp_names *n, uint32_t dev, uint64_t ino);
const char *rp_names_cgroup(const struct rp_names *n, uint64_t id);
int32_t rp_names_mm_pid(const struct rp_names *n, uint64_t mm);	/* 0: unknown */
void rp_names_free(struct rp_names *n);

/* The identity of a folio: a file's (dev, ino, index) or an address space's (mm, index). */
struct rp_folio {
	uint64_t ino;		/* or the mm */
	uint64_t index;
	uint64_t nr;		/* base pages */
	uint32_t dev;
	bool anon;
};

/* table.c: one source's counts per key, and who owns each page */
struct rp_key {
	char *name;
	uint64_t id;			/* its identity in the view */
	uint32_t stack;			/* views of stacks: the first stack counted to it */
	uint32_t frame;			/* --children: the frame of that stack naming it */
	uint64_t index_end;		/* file view: past the highest page index decided on */
	bool heat;			/* the heatmap's second pass: the grid's key */
	uint64_t v[RF_REPORT_NR_METRICS];
	/* --children: where it is the innermost frame; else v's own */
	uint64_t self[RF_REPORT_NR_METRICS];
};

/* heatmap.c: one key's decisions over (time, page index), a grid of cells */
struct rp_heat {
	/*
	 * the key, by name: keys apart may have one (two files with one path),
	 * and a row is all the keys of its name
	 */
	const char *key;
	uint64_t t0, t1;		/* decision times covered, inclusive */
	uint64_t index_end;		/* page indexes covered: [0, index_end) */
	unsigned int cols, rows;	/* time across, page index down */
	uint64_t (*cell)[RF_REPORT_NR_METRICS];	/* rows * cols */
};

/* A grid shaped as @proto (its cells not copied); NULL without memory. */
struct rp_heat *rp_heat_new(const struct rp_heat *proto);
void rp_heat_add(struct rp_heat *h, uint64_t time, uint64_t index, enum rf_report_metric metric,
		 uint64_t nr);
void rp_heat_free(struct rp_heat *h);

struct rp_source {
	char *name;			/* "kernel", "v6.18,memory=1G" */
	enum rf_report_by by;
	bool children;			/* --children: a key per function on the stack */
	struct rp_names names;
	struct rp_map ids;		/* a key's identity in the view -> index in keys[] */
	struct rp_key *keys;
	size_t nr_keys, cap_keys;
	struct rp_map owner;		/* page identity -> its owner (rp_owner_*) */
	uint64_t total[RF_REPORT_NR_METRICS];
	uint64_t unattributed[RF_REPORT_NR_METRICS];
	uint64_t now;			/* the time of the event being fed */
	uint64_t t_first, t_last;	/* of the decisions counted */
	bool decided;			/* any decision counted */
	struct rp_heat *heat;		/* the heatmap's second pass: its key's grid */
	int error;			/* the first RF_ERR_NOMEM */
};

/* The reference a decision is counted to, and the folio's memory cgroup. */
struct rp_ref {
	int32_t pid;			/* the task; 0: none */
	uint32_t stack;			/* its call stack (name_stack id); 0: none */
	uint64_t cgroup;		/* the memory cgroup charged */
	const char *cgpath;		/* its name if the source knows it; NULL: the trace's */
};

/*
 * A page's owner entry: who brought it in (rp_who()), the cgroup charged
 * (kernel), whether it was evicted.
 */
#define RP_OWNER_WHO(v)		((uint32_t)(v))
#define RP_OWNER_EVICTED	(1ull << 32)

/*
 * What an owner entry keeps of the reference, in 32 bits: its stack in the
 * views of stacks, else its pid (the only part of it the view's key needs).
 */
static inline uint32_t rp_who(enum rf_report_by by, int32_t pid, uint32_t stack)
{
	return rp_by_stack(by) ? stack : (uint32_t)pid;
}

static inline struct rp_ref rp_who_ref(enum rf_report_by by, uint32_t who, uint64_t cgroup,
				       const char *cgpath)
{
	return (struct rp_ref){ .pid = rp_by_stack(by) ? 0 : (int32_t)who,
				.stack = rp_by_stack(by) ? who : 0, .cgroup = cgroup,
				.cgpath = cgpath };
}

uint64_t rp_page_id(const struct rp_folio *f, uint64_t i);
/*
 * Count @nr pages of @metric for the key of @f in the source's view: the
 * reference's pid or call stack, the folio's cgroup, the folio's file or
 * address space.
 */
void rp_count(struct rp_source *s, enum rf_report_metric metric, const struct rp_folio *f,
	      const struct rp_ref *ref, uint64_t nr);
/* A source's view as @o asks for it (its by, the depth of its stacks, --children). */
void rp_source_init(struct rp_source *s, const struct rf_report_opts *o);
/* @nr pages of @metric in the totals that no key takes */
void rp_unattributed(struct rp_source *s, enum rf_report_metric metric, uint64_t nr);
void rp_source_free(struct rp_source *s);

/* kernel.c: the kernel's decisions from the trace's observations */
struct rp_kernel;
/* @heat: NULL, or the shape of the grid to fill (the heatmap's pass) */
int rp_kernel_new(struct rp_kernel **out, const struct rf_report_opts *o,
		  const struct rp_heat *heat);
int rp_kernel_feed(struct rp_kernel *k, const struct rf_event *ev);
struct rp_source *rp_kernel_source(struct rp_kernel *k);
/* The trace is over: what the kernel counted is kept, the rest of its account freed. */
void rp_kernel_end(struct rp_kernel *k);
bool rp_kernel_counted(const struct rp_kernel *k, uint64_t *refault_file);
bool rp_kernel_has_observations(const struct rp_kernel *k);
void rp_kernel_free(struct rp_kernel *k);

/* source_model.c: model configurations' decisions, replayed */
int rp_models_run(const struct rf_report_opts *o, const char *const *profiles, size_t nr,
		  const struct rp_heat *heat, struct rp_source **out, char *err, size_t errlen);

/* report.c: the table */
#define MAX_SOURCES	16

/* A row as the sort sees it: everything the comparison needs, carried along. */
struct rowref {
	const char *key;
	const uint64_t (*v)[RF_REPORT_NR_METRICS];
	/* views of stacks: the stack that named the key, and its source's stacks */
	const struct rp_stacks *stacks;
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
	struct rp_kernel *kernel;		/* when the kernel is a source */
	struct rp_source *src[MAX_SOURCES];
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

/* heatmap.c: the busiest cell of every source's grid, for the sort metric: one scale for all */
uint64_t rp_heat_busiest(const struct rf_report *r);

/*
 * folded.c: a source's rows in a view of stacks as folded stacks, one per
 * distinct stack ("outer;...;inner", frames with ';' or control characters
 * written '?'), its count the sort metric's, none of 0; sorted by the text.
 */
struct rp_fold {
	char *stack;
	uint64_t count;
};

int rp_folded(const struct rf_report *r, size_t src, struct rp_fold **out, size_t *nr);
void rp_folded_free(struct rp_fold *folds, size_t nr);

/* flame.c: source @src's folded stacks as a flame graph, one <svg class="flame"> on @out */
int rp_flame_svg(FILE *out, const struct rf_report *r, size_t src);

#endif /* REFAULT_REPORT_LOCAL_H */
