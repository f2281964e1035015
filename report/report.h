/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-report: who refaults (`refault report`).  One trace, one or more
 * sources of decisions, and a table of what each decided per key:
 *
 *   - the kernel: its own decisions as the trace's observations show them
 *     (page-cache adds and deletes, LRU activations; kernel.c);
 *   - a model configuration: the decisions of librefault-model replaying the
 *     trace (rf_model_set_decision_cb(); source_model.c).
 *
 * A decision about a folio is attributed to a key of the view asked for
 * (enum rf_report_by): the folio's file (or the address space of an
 * anonymous folio), or the pid, command, memory cgroup or call stack of a
 * reference.  Misses and refaults go to the reference that brought the
 * folio in (the event being fed; for the kernel, the add's task, and in the
 * views of stacks that task's next reference, which the recorder writes
 * after the adds it made); evictions and
 * activations to the one that brought it in last (its owner), found by the
 * folio's identity.  Counts are base pages.  docs/report.md says the rules
 * for each source and what they cannot see.
 *
 * A source's totals are its decisions, each counted once: its rows' sums
 * plus what it left unattributed.  With --children (the symbol view) a
 * decision goes to every distinct function on its stack, so rows overlap
 * and their sums pass the totals; their self counts (the innermost frame's,
 * the symbol view's rows) keep that promise instead.
 *
 * The results do not depend on the thread count.  0 or a negative rf_err;
 * messages in the caller's buffer; nothing prints but rf_report_print*().
 */
#ifndef REFAULT_REPORT_H
#define REFAULT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/api.h>

#include "replayer/replay/replay.h"

enum rf_report_by {
	RF_REPORT_BY_FILE,	/* the folio's file; anonymous memory by address space */
	RF_REPORT_BY_CGROUP,	/* the memory cgroup charged */
	RF_REPORT_BY_PID,	/* the task of the reference */
	RF_REPORT_BY_COMM,	/* its command name */
	RF_REPORT_BY_CALLSITE,	/* its call stack, by the names of its frames */
	RF_REPORT_BY_SYMBOL,	/* its innermost frame's name */
	RF_REPORT_BY_NR
};

enum rf_report_metric {
	RF_REPORT_REFAULTS,	/* came back while their shadow was there */
	RF_REPORT_MISSES,	/* entered memory: page-cache insertions, swap-ins */
	RF_REPORT_EVICTIONS,	/* reclaimed */
	RF_REPORT_ACTIVATIONS,	/* moved to the active list (pgactivate) */
	RF_REPORT_NR_METRICS
};

/*
 * "file", "cgroup", "pid", "comm", "callsite", "symbol";
 * rf_report_by_from_name() gives RF_REPORT_BY_NR if unknown.
 */
RF_API const char *rf_report_by_name(enum rf_report_by by);
RF_API enum rf_report_by rf_report_by_from_name(const char *name);
/* "refaults", "misses", "evictions", "activations"; RF_REPORT_NR_METRICS if unknown. */
RF_API const char *rf_report_metric_name(enum rf_report_metric m);
RF_API enum rf_report_metric rf_report_metric_from_name(const char *name);

/* The name of the kernel source in rf_report_opts.sources. */
#define RF_REPORT_KERNEL	"kernel"

struct rf_report_opts {
	const char *trace_path;
	enum rf_report_by by;
	enum rf_report_metric sort;
	/* the callsite view: the innermost frames a key has (0: the whole stack) */
	unsigned int callsite_depth;
	/*
	 * The symbol view only (RF_ERR_CONFIG otherwise), perf report's
	 * --children: a decision counts once to every distinct function (by
	 * its frame's name) on its stack, and to the innermost one's self.
	 */
	bool children;
	/*
	 * Comma-separated sources, the first the baseline: "kernel" and model
	 * profiles ("v6.18"); NULL: the kernel when the trace has page-cache
	 * observations, else v6.18.
	 */
	const char *sources;
	/*
	 * Instead of @sources when not NULL: the sources one by one, "kernel"
	 * or "PROFILE[,KEY=VALUE...]" (a configuration's name, as a results
	 * file gives it; rf_report_side_load()).
	 */
	const char *const *entries;
	size_t nr_entries;
	char *const *sets;		/* KEY=VALUE for every model configuration */
	size_t nr_sets;
	unsigned int threads;		/* the models' replay (>= 1) */
	bool skip_damaged;
	rf_replay_progress_cb progress;	/* the replay's progress (NULL: none) */
	void *progress_ctx;
	bool warm_cache;		/* the models start with the pages cached before the trace */
	bool check_fingerprint;		/* the trace must be the one @fingerprint names */
	uint64_t fingerprint;		/* of a results file's "trace" */
	/*
	 * A heatmap of one file (the view must be by file): the decisions of
	 * the @sort metric over time and page index, @heat_cols by @heat_rows
	 * cells, for the key named @heat_key (NULL: the table's first row).
	 * It costs a second reading of the trace by every source.
	 */
	bool heatmap;
	const char *heat_key;
	unsigned int heat_cols, heat_rows;	/* 1..1024 each */
};

/*
 * One key's counts: [source][metric], a key by its name (keys apart that the
 * trace names alike, two files with one path, are one row, their counts
 * added).  @self: with --children, those where the key is the innermost
 * frame (@v: every stack through it); else @v.
 */
struct rf_report_row {
	const char *key;
	const uint64_t (*v)[RF_REPORT_NR_METRICS];
	const uint64_t (*self)[RF_REPORT_NR_METRICS];
};

struct rf_report;

/*
 * A results file's configuration as a source: "RESULTS.json" (with one
 * configuration) or "RESULTS.json:NAME".  rf_report_is_results() says
 * whether @arg names one (a path ending in .json, with or without :NAME).
 */
struct rf_report_side {
	char *trace;		/* the trace it replayed (beside the results if relative) */
	char *source;		/* its configuration's name: "PROFILE[,KEY=VALUE...]" */
	uint64_t fingerprint;	/* of that trace's chunks, as the results give it */
	bool warm_cache;	/* it was replayed with --warm-cache */
};

RF_API bool rf_report_is_results(const char *arg);
/* Return: 0; RF_ERR_IO, _CORRUPT, _CONFIG (no such configuration), _NOMEM with @err. */
RF_API int rf_report_side_load(const char *arg, struct rf_report_side *side, char *err,
			       size_t errlen);
RF_API void rf_report_side_free(struct rf_report_side *side);

/*
 * Read the trace once per source kind (the kernel's observations; every
 * model configuration in one replay) and build the table, sorted by the
 * baseline's @sort metric, then the other sources', then the key.
 * Return: 0; RF_ERR_CONFIG (a bad source or setting), a trace error, or
 *         RF_ERR_NOMEM, with the message in @err.
 */
RF_API int rf_report_run(const struct rf_report_opts *opts, struct rf_report **out, char *err,
			 size_t errlen);
RF_API void rf_report_free(struct rf_report *r);

RF_API size_t rf_report_nr_sources(const struct rf_report *r);
RF_API const char *rf_report_source(const struct rf_report *r, size_t i);
/* The index of the source named @name in @i; false if there is none. */
RF_API bool rf_report_find_source(const struct rf_report *r, const char *name, size_t *i);
RF_API size_t rf_report_nr_rows(const struct rf_report *r);
/* Row @i in the table's order; valid until rf_report_free(). */
RF_API struct rf_report_row rf_report_row(const struct rf_report *r, size_t i);
/*
 * Source @i's totals: every decision once, the rows' sums (their self
 * counts' with --children) plus the unattributed.
 */
RF_API const uint64_t *rf_report_total(const struct rf_report *r, size_t i);
/*
 * Source @i's decisions that no key could take, per metric: kernel
 * activations of a pfn the trace never saw added (anonymous pages, the
 * cache older than the trace), evictions of folios whose owner is unknown.
 */
RF_API const uint64_t *rf_report_unattributed(const struct rf_report *r, size_t i);
/*
 * What the kernel itself counted for the trace, to set beside the kernel
 * source's attributed refaults: /proc/vmstat's workingset_refault_file,
 * last snapshot minus first; false if the trace has no snapshots.
 */
RF_API bool rf_report_kernel_counted(const struct rf_report *r, uint64_t *refault_file);
/* Whether the rows are --children's (rf_report_opts.children). */
RF_API bool rf_report_children(const struct rf_report *r);

/*
 * A table for a person on @f: the first @lines rows (0: all), with the
 * share of the sort metric's total; one source: every metric; several: the
 * sort metric per source and each one's change against the first.  With
 * --children, perf's two shares, Children and Self, for one source; a self
 * column beside each source's count for several.
 */
RF_API int rf_report_print(const struct rf_report *r, FILE *f, size_t lines);
/* The whole table as JSON (docs/report.md), on @f; with the heatmap's cells if there is one. */
RF_API int rf_report_print_json(const struct rf_report *r, FILE *f);
/*
 * The heatmap (rf_report_opts.heatmap) for a terminal: one grid per
 * source, shaded on one scale, its axes and scale said.  Nothing when the
 * report has none.
 */
RF_API int rf_report_print_heatmap(const struct rf_report *r, FILE *f);
/*
 * Source @src's rows of a view of stacks (callsite, symbol) as folded stacks
 * for flame-graph tools (Brendan Gregg's stackcollapse format): one line per
 * distinct stack, "outermost;...;innermost COUNT", COUNT the sort metric's
 * (lines of 0 left out), sorted by the stack's text.  With --children the
 * self counts: the symbol view's lines, which add up to the total.
 * Return: 0; RF_ERR_CONFIG (not a view of stacks), RF_ERR_NOMEM, or -1 (@f's error).
 */
RF_API int rf_report_print_folded(const struct rf_report *r, FILE *f, size_t src);
/*
 * One self-contained HTML page on @f: the table (its first @lines rows, 0:
 * all), the heatmap as SVG if there is one, and in a view of stacks one
 * flame graph per source.  Return: 0 or RF_ERR_IO.
 */
RF_API int rf_report_write_html(const struct rf_report *r, FILE *f, size_t lines);

#endif /* REFAULT_REPORT_H */
