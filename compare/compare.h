/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-compare: what `refault compare` is made of.  Load sides (refault
 * results files, LKP stats.json / matrix.json), judge each metric with the LKP
 * robot's rules (lkp-tests/lib/stats.rb and lkp-tests/lib/compare.rb;
 * docs/compare.md), and render the result as an LKP table, JSON, CSV,
 * matrix.json, gates, ASCII plots or an HTML page; and the verb itself,
 * rf_compare_verb() (at the end), which cli/builtin-compare.c calls with the
 * options it parsed, as the fuzz targets do with theirs.
 *
 * Conventions: 0 on success, negative enum rf_err on failure with a message
 * in the caller's @err buffer (RF_COMPARE_ERRLEN bytes are enough); the verb
 * says its messages through the caller's struct rf_compare_log.  Nothing
 * here prints to stderr or exits.  Renderers write to a FILE * the caller
 * owns.  compare/compare-local.h has what the library's files share besides.
 */
#ifndef REFAULT_COMPARE_H
#define REFAULT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/api.h>
#include <refault/errors.h>

#define RF_COMPARE_ERRLEN 512

/* One metric of one side: a sample per run (LKP's matrix.json column). */
struct rf_compare_metric {
	char *name;
	double *v;
	size_t n;
	size_t cap;			/* room in @v */
	/*
	 * A model counter replayed from one trace: a pure function of the trace
	 * and the configuration, so one sample is the exact value (stddev 0).
	 */
	bool exact;
};

/* A time series of one run: value per sample time. */
struct rf_compare_series {
	char *name;
	double *v;
	size_t n;
};

struct rf_compare_timeline {
	double interval_s;
	double *t_s;			/* trace time of each sample, seconds */
	size_t n;
	struct rf_compare_series *series;	/* in the file's order */
	size_t nseries;
	size_t *by_name;		/* indices into @series, sorted by name */
};

/* One column of the table: a results file, a configuration in it, or a group of runs. */
/* A profile's kernel name for a metric stored under today's name (results "aliases"). */
struct rf_compare_alias {
	char *kernel_name;
	char *name;
};

struct rf_compare_side {
	char *label;			/* column title: the configuration name or the file */
	char *spec;			/* as given on the command line */
	size_t runs;
	bool lkp;			/* imported from LKP stats.json / matrix.json */
	bool kernel;			/* "NAME@kernel": the kernel's numbers the trace observed */
	char **fingerprints;		/* per run, results files only */
	char **trace_paths;		/* per run, as @fingerprints: its trace's path ("" if none) */
	size_t fingerprints_cap, trace_paths_cap;
	char *traces;			/* the distinct fingerprints, sorted, joined by spaces */
	char *trace_path;		/* of the first run */
	char *profile;			/* the runs' profile (results "profile"); NULL if they differ */
	bool sweep;			/* its runs are a sweep file's (stats only: no time series) */
	uint64_t events_skipped;	/* summed over runs: non-zero means partial results */
	uint64_t lost_events;		/* summed over runs: records the kernel lost recording */
	size_t sweep_not_done;		/* from a sweep file: its tasks failed or missing */
	uint64_t given;			/* the samples its files hold (before LKP's zeros) */
	struct rf_compare_metric *m;	/* sorted by name */
	size_t nm;
	struct rf_compare_alias *alias;	/* the first run's: its profile's kernel names */
	size_t nalias;
	struct rf_compare_timeline tl;	/* the first run's time series (may be empty) */
};

/*
 * The input files of one comparison, each parsed once however many sides
 * name it (a results file of 20,000 configurations is 20,000 sides): the
 * parsed files are kept, the least recently used let go past
 * RF_COMPARE_FILES_BYTES of files, and a file's configurations are found by
 * name through an index.  NULL from rf_compare_files_new() out of memory.
 */
#define RF_COMPARE_FILES_BYTES	(64u << 20)
struct rf_compare_files;
RF_API struct rf_compare_files *rf_compare_files_new(void);
RF_API void rf_compare_files_free(struct rf_compare_files *files);

/*
 * Load one side from a command-line spec: "file.json", "file.json:config"
 * ("config@kernel" for the kernel's own numbers), or a group of repeated
 * runs "a1.json,a2.json,a3.json" merged into one sample array per metric.
 * @files may be NULL (each file read for this side alone).
 *
 * LKP counts a sample a run lacks as 0, so a side of N metrics over M runs
 * holds N x M samples however few its files give; a side (and a report)
 * that would hold more than RF_COMPARE_FILL_FACTOR times the samples its
 * files give, and more than RF_COMPARE_FILL_FLOOR, is refused
 * (RF_ERR_TOO_LARGE, the message naming the file, the counts and what to do).
 */
#define RF_COMPARE_FILL_FACTOR	8
#define RF_COMPARE_FILL_FLOOR	(1ull << 20)
RF_API int rf_compare_side_load(struct rf_compare_side *side, struct rf_compare_files *files,
				const char *spec, char *err, size_t errlen);
/*
 * The configuration names of a results file or a sweep file (for expanding
 * "results.json" into all of them); with @workloads, each one's workload
 * (a sweep's; "" for a results file), in the same order.  @files as above.
 */
RF_API int rf_compare_results_configs(struct rf_compare_files *files, const char *path,
				      char ***names, char ***workloads, size_t *n, char *err,
				      size_t errlen);
RF_API void rf_compare_side_release(struct rf_compare_side *side);
/* 0 if @a and @b replay the same trace(s), else RF_ERR_INVAL with the reason in @err. */
RF_API int rf_compare_same_traces(const struct rf_compare_side *a, const struct rf_compare_side *b,
				  char *err, size_t errlen);
/*
 * Resolve a metric name a user typed (docs/compare.md, "Metric names"):
 * exact; a profile's kernel name (an alias: v4.6 "vmstat.pgscan_kswapd_normal"
 * is "vmstat.pgscan_kswapd"); or a short name, the end of full names after a
 * dot: the recorded cgroup's ("memcg.recorded.NAME") first, then the global
 * one ("vmstat.NAME"), then the only metric it ends.  Returns the full name,
 * or NULL: unknown, or ambiguous with the candidates in @cands ("a, b, c",
 * cut at @len; empty when unknown).
 */
RF_API const char *rf_compare_resolve(const struct rf_compare_side *sides, size_t nsides,
				      const char *name, char *cands, size_t len);

/* The LKP verdict on one metric of one side against the base. */
struct rf_compare_verdict {
	bool compared;			/* false: LKP skips it (too few samples, no base) */
	bool separated;			/* the samples are apart by LKP's median rule */
	bool changed;			/* separated and past the magnitude filters */
	/*
	 * LKP judges nothing here: fewer than 3 runs on both sides, not exact.
	 * @apparent: yet the samples (3 at least, both sides' together) lie
	 * apart and the change passes LKP's ratio and floors; the table shows
	 * it, marked as not judged against noise (docs/compare.md).
	 */
	bool few_runs;
	bool apparent;
	double ratio;			/* median_high / median_low, capped at 5 */
	double delta;			/* median_high - median_low */
	const char *why;		/* one line: the rule that decided */
};

/* The table's content, shared by every renderer. */
struct rf_compare_cell {
	bool present;			/* the side has the metric (else LKP counts it as 0) */
	size_t n;
	const double *samples;
	double mean;
	double stddev;			/* population; -1 with one sample */
	double change;			/* vs the base: percent, or absolute for '%' keys */
	struct rf_compare_verdict verdict;	/* vs the base */
};

struct rf_compare_row {
	const char *name;
	bool function_stat;		/* LKP failure table (dmesg.*, *.fail ...) */
	bool absolute;			/* change in units, not percent */
	bool shown;			/* changed or apparent in any column, or --all */
	bool changed;			/* a change by LKP's rules in some column */
	bool apparent;			/* a change shown without the noise rule in some column */
	bool headline;			/* refaults, scans, steals, activations: the page shows it always */
	struct rf_compare_cell *cell;	/* one per side, [0] is the base */
	int group_rank;			/* LKP's sort_stats() group order */
};

struct rf_compare_report {
	struct rf_compare_side *sides;
	size_t nsides;
	struct rf_compare_row *rows;	/* every metric, sorted in LKP's order */
	size_t nrows;
	size_t nshown;
	size_t missing;			/* metrics some side lacks */
	bool all;			/* --all: every row, and every pair's decisions */
	double *zeros;			/* the samples of a side that lacks a metric (LKP's 0) */
};

/*
 * Every metric of every side, judged against sides[0] and sorted in LKP's
 * order; RF_ERR_TOO_LARGE when the rows (the union of the sides' metrics,
 * each with a cell and, for a side that lacks it, zeros per run) would hold
 * more than RF_COMPARE_FILL_FACTOR times what the sides' files give.
 */
RF_API int rf_compare_report_build(struct rf_compare_report *rep, struct rf_compare_side *sides,
				   size_t nsides, bool all, char *err, size_t errlen);
RF_API void rf_compare_report_release(struct rf_compare_report *rep);

/*
 * LKP's ncompare table, and which model decisions differ and how the estimated cost moves.
 * Every text here that a file supplied (names, labels, paths) is escaped for a terminal
 * (lib/term.h), and columns are aligned by rf_term_width().
 */
RF_API int rf_compare_print_table(FILE *out, const struct rf_compare_report *rep);
RF_API int rf_compare_print_decisions(FILE *out, const struct rf_compare_report *rep);

/* The report as JSON or CSV (every row with @all, else the changed ones); a side as matrix.json. */
RF_API int rf_compare_write_json(FILE *out, const struct rf_compare_report *rep, bool all);
RF_API int rf_compare_write_csv(FILE *out, const struct rf_compare_report *rep, bool all);
RF_API int rf_compare_write_matrix(int fd, const char *path,
				   const struct rf_compare_side *side, char *err, size_t errlen);
RF_API int rf_compare_write_html(FILE *out, const struct rf_compare_report *rep);

/* --fail-if 'METRIC OP VALUE' */
enum rf_compare_gate_op { RF_GATE_GT, RF_GATE_GE, RF_GATE_LT, RF_GATE_LE, RF_GATE_CHANGED };
enum rf_compare_gate_unit { RF_GATE_PERCENT, RF_GATE_DELTA, RF_GATE_VALUE };

struct rf_compare_gate {
	char *text;
	char *metric;
	enum rf_compare_gate_op op;
	enum rf_compare_gate_unit unit;
	double threshold;
};

RF_API int rf_compare_gate_parse(struct rf_compare_gate *g, const char *text, char *err,
				 size_t errlen);
RF_API void rf_compare_gate_release(struct rf_compare_gate *g);
/*
 * Evaluate against every non-base side.  Returns 0 (holds), 1 (tripped:
 * @msg says where), or RF_ERR_INVAL for an unknown or ambiguous metric.
 */
RF_API int rf_compare_gate_eval(const struct rf_compare_gate *g,
				const struct rf_compare_report *rep, char *msg, size_t msglen);

/*
 * LKP-style ASCII plots (gnuplot's dumb terminal, 80x20): across the sides, or over time;
 * names and labels escaped as in the table.
 */
RF_API int rf_compare_plot_variants(FILE *out, const struct rf_compare_report *rep,
				    const char *metric);
RF_API int rf_compare_plot_time(FILE *out, const struct rf_compare_side *sides, size_t nsides,
				const char *series, char *err, size_t errlen);
/*
 * Against a setting (a sweep's axis, "memory"): x the values of @key in the
 * columns' names, one line per the rest of their names (the profile and
 * other settings), y the mean of @metric (a full name).
 */
RF_API int rf_compare_plot_axis(FILE *out, const struct rf_compare_report *rep, const char *metric,
				const char *key, char *err, size_t errlen);

/*
 * The verb (compare/verb.c, verb_output.c): `refault compare` between its
 * command line and its exit status.
 */

/* Its exit statuses, the command's (refault-compare(1)). */
enum {
	RF_COMPARE_EXIT_OK = 0,		/* compared (or exported); no gate tripped */
	RF_COMPARE_EXIT_FAILURE = 1,	/* unreadable or malformed input, an unknown metric,
					 * different traces without @force, over a limit, an
					 * output not written, out of memory */
	RF_COMPARE_EXIT_USAGE = 2,	/* a bad gate, --json with --csv, fewer than two sides */
	RF_COMPARE_EXIT_GATE = 3,	/* a gate tripped (each named through the log) */
};

enum rf_compare_say {
	RF_COMPARE_MESSAGE,		/* an error, "warning: ...", "note: ...", "gate tripped: ..." */
	RF_COMPARE_USAGE_ERROR,		/* what the options ask cannot be */
	RF_COMPARE_LINE,		/* a line to show as it is ("WARNING: SPEC: the kernel lost...") */
};

/*
 * struct rf_compare_log - where the verb's messages go
 * @say: called with each message, whole, without a newline, as it happens;
 *       the verb flushes its output (@out of the options) first, so a caller
 *       that shows both keeps them in order.  Text a file supplied (names,
 *       labels, paths) is already escaped for a terminal (lib/term.h).  The
 *       refault command prints a RF_COMPARE_MESSAGE as "refault compare:
 *       TEXT", a RF_COMPARE_USAGE_ERROR as that and "; see 'refault compare
 *       --help'", a RF_COMPARE_LINE as it is.  NULL: nothing is said.
 * @arg: the caller's, passed to @say
 *
 * A NULL struct rf_compare_log * is a log that says nothing.
 */
struct rf_compare_log {
	void (*say)(void *arg, enum rf_compare_say kind, const char *text);
	void *arg;
};

/*
 * struct rf_compare_opts - what one comparison is asked for (the options of
 * `refault compare`; docs/compare.md); zero is the table of two sides or more
 * @specs, @nspecs: the sides (rf_compare_side_load()); one results file alone
 *                  is every configuration in it, one sweep file of several
 *                  workloads a table per workload
 * @all: every row, every pair's decisions (--all)
 * @json, @csv: the rows as JSON or CSV instead of the table (not both)
 * @force: compare sides of different traces, with a warning (--force)
 * @over: with @plot: NULL (across the columns), "time", or a setting of the
 *        columns' names ("memory")
 * @plot: an ASCII plot of this metric after the table (--plot)
 * @html, @export_matrix: write the page, or the first side as an LKP
 *        matrix.json, to this file (under a temporary name, renamed when
 *        whole: an existing file is kept if the run fails); with
 *        @export_matrix one side is enough
 * @gates: --fail-if, each added by rf_compare_opts_add_gate()
 * @out: where the table, JSON, CSV and plots go; NULL: stdout
 */
struct rf_compare_opts {
	char *const *specs;
	size_t nspecs;
	bool all, json, csv, force;
	const char *over;
	const char *plot;
	const char *html;
	const char *export_matrix;
	struct rf_compare_gate *gates;
	size_t ngates, gates_cap;
	FILE *out;
};

/*
 * rf_compare_opts_add_gate() - parse @text (rf_compare_gate_parse()) as the
 * next of @o's gates
 *
 * Return: 0; RF_COMPARE_EXIT_USAGE after "--fail-if 'TEXT': what is wrong"
 * through @log; RF_COMPARE_EXIT_FAILURE out of memory (nothing said).
 */
RF_API int rf_compare_opts_add_gate(struct rf_compare_opts *o, const char *text,
				    const struct rf_compare_log *log);
/* The gates rf_compare_opts_add_gate() added; the rest of @o is the caller's. */
RF_API void rf_compare_opts_release(struct rf_compare_opts *o);

/*
 * rf_compare_verb() - `refault compare` with the options @o
 *
 * Loads the sides (each input file parsed once), says what they lack (lost
 * records, skipped events, a partial sweep), refuses sides of different
 * traces unless @o->force, titles alike columns by their specs, judges the
 * report, checks that every gate's metric exists, then writes the
 * decisions and the table (or JSON, CSV), the plot, the page and the
 * matrix, and evaluates the gates.  A sweep file of several workloads
 * alone is a table per workload, each under "== workload NAME ==", the
 * worst status of them.  Messages, in order with what goes to @o->out,
 * through @log.
 *
 * Return: an RF_COMPARE_EXIT_* status, never negative.
 */
RF_API int rf_compare_verb(const struct rf_compare_opts *o, const struct rf_compare_log *log);

#endif /* REFAULT_COMPARE_H */
