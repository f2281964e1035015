/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to librefault-compare: what the verb of compare/compare.h is made
 * of and its files share: sides and the report (loading, LKP's naming and
 * statistics rules), the renderers, gates and plots, cell formatting, string
 * helpers.
 *
 * Conventions: 0 on success, negative enum rf_err on failure with a message
 * in the caller's @err buffer (RF_COMPARE_ERRLEN bytes are enough).
 * Renderers write to a FILE * the caller owns.  Nothing here prints to
 * stderr or exits.
 */
#ifndef REFAULT_COMPARE_LOCAL_H
#define REFAULT_COMPARE_LOCAL_H

#include <stdint.h>

#include <refault/errors.h>

#include "compare/compare.h"
#include "lib/compiler.h"

struct json_object;

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
 * name through an index.  NULL from compare_files_new() out of memory.
 */
#define RF_COMPARE_FILES_BYTES	(64u << 20)
struct rf_compare_files;
struct rf_compare_files *compare_files_new(void);
void compare_files_free(struct rf_compare_files *files);

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
int compare_side_load(struct rf_compare_side *side, struct rf_compare_files *files,
		      const char *spec, char *err, size_t errlen);
/*
 * The configuration names of a results file or a sweep file (for expanding
 * "results.json" into all of them); with @workloads, each one's workload
 * (a sweep's; "" for a results file), in the same order.  @files as above.
 */
int compare_results_configs(struct rf_compare_files *files, const char *path,
			    char ***names, char ***workloads, size_t *n, char *err,
			    size_t errlen);
void compare_side_release(struct rf_compare_side *side);
/* 0 if @a and @b replay the same trace(s), else RF_ERR_INVAL with the reason in @err. */
int compare_same_traces(const struct rf_compare_side *a, const struct rf_compare_side *b,
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
const char *compare_resolve(const struct rf_compare_side *sides, size_t nsides,
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
int compare_report_build(struct rf_compare_report *rep, struct rf_compare_side *sides,
			 size_t nsides, bool all, char *err, size_t errlen);
void compare_report_release(struct rf_compare_report *rep);

/*
 * LKP's ncompare table, and which model decisions differ and how the estimated cost moves.
 * Every text here that a file supplied (names, labels, paths) is escaped for a terminal
 * (lib/term.h), and columns are aligned by rf_term_width().
 */
int compare_print_table(FILE *out, const struct rf_compare_report *rep);
int compare_print_decisions(FILE *out, const struct rf_compare_report *rep);

/* The report as JSON or CSV (every row with @all, else the changed ones); a side as matrix.json. */
int compare_write_json(FILE *out, const struct rf_compare_report *rep, bool all);
int compare_write_csv(FILE *out, const struct rf_compare_report *rep, bool all);
int compare_write_matrix(int fd, const char *path,
			 const struct rf_compare_side *side, char *err, size_t errlen);
int compare_write_html(FILE *out, const struct rf_compare_report *rep);

int compare_gate_parse(struct rf_compare_gate *g, const char *text, char *err,
		       size_t errlen);
void compare_gate_release(struct rf_compare_gate *g);
/*
 * Evaluate against every non-base side.  Returns 0 (holds), 1 (tripped:
 * @msg says where), or RF_ERR_INVAL for an unknown or ambiguous metric.
 */
int compare_gate_eval(const struct rf_compare_gate *g,
		      const struct rf_compare_report *rep, char *msg, size_t msglen);

/*
 * LKP-style ASCII plots (gnuplot's dumb terminal, 80x20): across the sides, or over time;
 * names and labels escaped as in the table.
 */
int compare_plot_variants(FILE *out, const struct rf_compare_report *rep,
			  const char *metric);
int compare_plot_time(FILE *out, const struct rf_compare_side *sides, size_t nsides,
		      const char *series, char *err, size_t errlen);
/*
 * Against a setting (a sweep's axis, "memory"): x the values of @key in the
 * columns' names, one line per the rest of their names (the profile and
 * other settings), y the mean of @metric (a full name).
 */
int compare_plot_axis(FILE *out, const struct rf_compare_report *rep, const char *metric,
		      const char *key, char *err, size_t errlen);


/*
 * files.c: one input file as parsed, kept in a struct rf_compare_files;
 * its "configs" by name through an index made when first asked.
 */
struct rf_compare_config_name {
	const char *name;
	size_t idx;			/* in "configs" */
};

struct rf_compare_file {
	char *path;
	struct json_object *root;
	size_t bytes;
	uint64_t used;			/* the files' clock when last asked for */
	struct rf_compare_config_name *index;
	size_t nindex;
	bool indexed;
};

/* The file at @path, parsed (rf_json_read_object()); valid until the next call. */
int compare_files_get(struct rf_compare_files *files, const char *path, const char *what,
		      struct rf_compare_file **out, char *err, size_t errlen);
/* Of @file's "configs" (@configs), the first named @name; NULL if none. */
struct json_object *compare_file_config(struct rf_compare_file *file,
					struct json_object *configs, const char *name);

/* @made samples from @given within RF_COMPARE_FILL_FACTOR and RF_COMPARE_FILL_FLOOR? */
bool compare_fill_ok(uint64_t made, uint64_t given);
/* a x b, or UINT64_MAX past it */
uint64_t compare_mul(uint64_t a, uint64_t b);

/* side.c: a side's metric and time series by exact name; NULL if it has none. */
const struct rf_compare_metric *compare_side_find(const struct rf_compare_side *side,
						  const char *name);
const struct rf_compare_series *compare_side_series(const struct rf_compare_side *side,
						    const char *name);

/* run.c, load_results.c, load_lkp.c: one file, as loaded. */
struct rf_compare_run {
	struct rf_compare_metric *m;	/* sorted by name after compare_run_sort() */
	size_t nm, cap;
	size_t cols;			/* samples per metric: 1, or an LKP matrix's runs */
	uint64_t given;			/* the samples the file holds */
	bool lkp;
	bool kernel;			/* "observed" rather than "stats" */
	char *config;			/* the configuration's name (results files) */
	char *profile;			/* its "profile" (results files) */
	char *fingerprint;
	char *trace_path;
	uint64_t events_skipped;
	uint64_t lost_events;		/* records the kernel dropped while recording */
	struct rf_compare_timeline tl;
	struct rf_compare_alias *alias;	/* results "aliases" */
	size_t nalias, alias_cap;
};

/* Append @n samples (copied) under @name. */
int compare_run_add(struct rf_compare_run *r, const char *name, const double *v, size_t n,
		    bool exact);
void compare_run_sort(struct rf_compare_run *r);
/* One alias of a results file: @kernel_name, the profile's, is stored as @name. */
int compare_run_alias(struct rf_compare_run *r, const char *kernel_name, const char *name);
void compare_aliases_release(struct rf_compare_alias *alias, size_t n);
void compare_run_release(struct rf_compare_run *r);
void compare_timeline_release(struct rf_compare_timeline *tl);
/*
 * @config may be NULL when the file holds one configuration.  Returns
 * RF_ERR_NOT_TRACE if the JSON is not a refault results file (then try LKP).
 * @file: the file @root is (its index of configurations), or NULL.
 */
int compare_load_results(struct rf_compare_run *r, struct json_object *root,
			 struct rf_compare_file *file, const char *path, const char *config,
			 char *err, size_t errlen);
/*
 * load_results.c: of a results or sweep file's "configs", the one named
 * @config, or the only one when @config is NULL; NULL with @err naming the
 * configurations there are.  @file as above.
 */
struct json_object *compare_pick_config(struct json_object *configs,
					struct rf_compare_file *file, const char *path,
					const char *config, char *err, size_t errlen);
/* load_sweep.c: a sweep file (its "format"), its tasks not done, the runs of a configuration. */
bool compare_is_sweep(struct json_object *root);
size_t compare_sweep_not_done(struct json_object *root);
int compare_sweep_runs(struct rf_compare_file *file, const char *config,
		       struct json_object **runs, char *err, size_t errlen);
int compare_load_lkp(struct rf_compare_run *r, struct json_object *root, const char *path,
		     char *err, size_t errlen);

/* names.c: what kind of metric a name is, by LKP's rules. */
/* The LKP spelling of one of our names: "vmstat.X" is LKP's "proc-vmstat.X". */
const char *compare_lkp_name(const char *name, char *buf, size_t len);
/* The reverse, applied when importing LKP files. */
const char *compare_from_lkp_name(const char *name, char *buf, size_t len);
bool compare_is_function_stat(const char *name);
bool compare_is_perf_metric(const char *name);
bool compare_is_absolute_change(const char *name);
bool compare_reasonable_change(const char *name, double delta, double max);
/* The test's own group ("cost" for refault, "vm-scalability" for LKP data): sorted first. */
bool compare_is_test_group(const char *group);
/*
 * A headline counter (refaults, scans, steals, activations; vmstat.* and
 * memcg.recorded.*): its place in their order, else -1.
 */
int compare_headline_rank(const char *name);
/* A model decision (not cost.*, replay.*, run.*): used for the decisions summary. */
bool compare_is_decision_stat(const char *name);

/* stats.c */
struct rf_compare_summary {
	double *sorted;			/* after trimming */
	size_t n;
	double min, median, max;
};

double compare_mean(const double *v, size_t n);
/* Population standard deviation (divides by n, as LKP does); -1 for fewer than 2 samples. */
double compare_stddev(const double *v, size_t n);
int compare_summarize(struct rf_compare_summary *s, const double *v, size_t n,
		      size_t max_margin);
void compare_summary_release(struct rf_compare_summary *s);

/* LKP's StatCompare#process for one metric: @nbase / @nnew are the sides' run counts. */
int compare_judge(const char *name, const double *base, size_t nbase, bool base_exact,
		  const double *new, size_t nnew, bool new_exact,
		  struct rf_compare_verdict *out);

/*
 * decisions.c: the decisions summary in parts, for the page (html.c);
 * compare_print_decisions() is SUMMARY (PAIRS with --all), COST, ERAS.
 * SUMMARY: a line per pair of columns (each variant against the base and
 * the one before it), or past a few pairs, the pairs grouped by statement
 * in a few lines; PAIRS: a line per pair; COST: the estimated cost's line;
 * ERAS: a note when that cost compares profiles of different kernel eras;
 * PAGE: the summary's pointer to every pair is the page's.
 */
enum {
	RF_DECISIONS_SUMMARY = 1, RF_DECISIONS_PAIRS = 2, RF_DECISIONS_COST = 4,
	RF_DECISIONS_ERAS = 8, RF_DECISIONS_PAGE = 16,
};
int compare_decisions(FILE *out, const struct rf_compare_report *rep, unsigned parts);
/* SUMMARY groups the pairs (there are more than a few). */
bool compare_decisions_grouped(const struct rf_compare_report *rep);
/* The ERAS note's text into @buf; false when the columns' cost is of one era (or none). */
bool compare_cost_eras(const struct rf_compare_report *rep, char *buf, size_t len);

/*
 * axis.c: the columns on a setting's axis ("memory" of a sweep or a matrix,
 * whose columns are named "PROFILE,KEY=VALUE,..."): each column's value of
 * @key is its place, the rest of its name its line; places ordered by size
 * or number, else by name, lines numbered as their first column comes.
 * @key NULL: the columns themselves along the axis, one line.  An error
 * names a column without @key.
 */
struct rf_compare_axis_point {
	char *line;			/* the rest of the column's name */
	char *value;			/* its value of the key */
	double num;			/* @value as a size or number, else NaN */
	size_t side;
	size_t vrank;			/* of the distinct values, in the axis's order */
	size_t lrank;			/* of the lines */
};

struct rf_compare_axis {
	struct rf_compare_axis_point *p;	/* one per column, in the columns' order */
	struct rf_compare_axis_point **by;	/* the points, as compare_axis_sort() left them */
	size_t n, nvalues, nlines;
	size_t *line_first;		/* of each line, its first column (an index of @p) */
};

enum { RF_AXIS_BY_VALUE, RF_AXIS_BY_LINE };
int compare_axis_make(struct rf_compare_axis *ax, const struct rf_compare_report *rep,
		      const char *key, char *err, size_t errlen);
/* @by in the axis's order, or by line and then along the axis (the points a line joins). */
void compare_axis_sort(struct rf_compare_axis *ax, int order);
void compare_axis_release(struct rf_compare_axis *ax);
/*
 * The settings the columns' names vary: of the first column's, those every
 * column sets and not all to one value, in its order, at most @max (each a
 * new string in @keys).  Returns how many.
 */
size_t compare_axis_keys(const struct rf_compare_report *rep, char **keys, size_t max);

/* rows.c: the row of metric @name; NULL if none. */
const struct rf_compare_row *compare_report_row(const struct rf_compare_report *rep,
						const char *name);

/* table.c: one cell as LKP prints it: value (10) + stddev (6); change (12). */
/* html.c's parts: the table (html_table.c) and the charts (svg.c). */
enum rf_compare_line_style {
	RF_LINE_PATH,			/* the samples joined: the model's, every --interval */
	RF_LINE_POINTS,			/* the samples alone: the kernel's counter snapshots */
	RF_LINE_STEPS,			/* y[j] flat over (x[j-1], x[j]]: a mean rate between two */
};

struct rf_compare_line {
	const char *name;
	const double *x;		/* trace time, s */
	const double *y;
	size_t n;			/* 0: the column has no such series */
	enum rf_compare_line_style style;
};

void compare_html_table(FILE *out, const struct rf_compare_report *rep);
/*
 * One chart; a line of more points than the plot has pixel columns is drawn
 * by the first, the lowest, the highest and the last point of each column
 * (the min/max downsampling of plotting tools), so its path has at most
 * four points a pixel column whatever the series' length.
 */
void compare_svg_chart(FILE *out, const char *title, const char *unit,
		       const struct rf_compare_line *l, size_t n);
/*
 * One chart of @row against @ax's setting (@key, NULL for the columns
 * themselves): a point per column at its mean over its runs, a bar from its
 * lowest run to its highest, a line's points joined along the axis.
 */
void compare_svg_axis_chart(FILE *out, const char *title, const char *unit, const char *key,
			    struct rf_compare_axis *ax, const struct rf_compare_row *row);
/* html_sweep.c: the page's charts against the settings the columns vary; how many drawn. */
size_t compare_html_settings(FILE *out, const struct rf_compare_report *rep, size_t max_charts);

void compare_format_value(char *buf, size_t len, double mean, double stddev);
/*
 * The %change cell of @mean against @base (12 columns, the last a space):
 * LKP's "%+10.1f%%", but "from 0" against a zero base and the ratio "x1234"
 * past 100000 %; absolute changes as LKP's.
 */
void compare_format_change(char *buf, size_t len, double base, double mean, bool absolute);
/* The mark after a %change shown without LKP's noise rule (fewer than 3 runs). */
#define RF_COMPARE_APPARENT	'?'

/*
 * verb.c, verb_output.c: one run of the verb, where it writes (@out, never
 * NULL) and says things (compare_say()).
 */
struct rf_compare_ctx {
	const struct rf_compare_opts *o;
	const struct rf_compare_log *log;
	FILE *out;
};

/* verb_output.c: the run's parts after the report is built; each an RF_COMPARE_EXIT_* status. */
/* The notes on a kernel's column and on metrics some column lacks. */
void compare_verb_notes(const struct rf_compare_ctx *c, const struct rf_compare_report *rep);
/* Every gate evaluated: with @check_only, an unknown metric's error alone, else every trip too. */
int compare_verb_gates(const struct rf_compare_ctx *c, const struct rf_compare_report *rep,
		       bool check_only);
/* The decisions and the table, or JSON, or CSV; then the plot and the page. */
int compare_verb_output(const struct rf_compare_ctx *c, const struct rf_compare_report *rep);
/* @side as an LKP matrix.json at @o->export_matrix. */
int compare_verb_export(const struct rf_compare_ctx *c, const struct rf_compare_side *side);

/* change.c: the change table of @c->o->change, kernel A's runs @a against kernel B's @b. */
int compare_change(const struct rf_compare_ctx *c, const char *a, const char *b);

/* util.c */
/*
 * A message of the verb (struct rf_compare_log), printf-formatted and escaped
 * for a terminal whole (lib/term.h), after @out (may be NULL) is flushed;
 * "out of memory" if it cannot be made.
 */
void compare_say(const struct rf_compare_log *log, FILE *out, enum rf_compare_say kind,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * File-supplied text on a terminal (lib/term.h's rule): @s escaped, cut at a
 * character to @width columns (0: no limit), and padded to them with spaces
 * on the left (@align > 0), on the right (@align < 0), or not (@align 0).
 */
void compare_term_field(FILE *out, const char *s, size_t width, int align);
char *compare_strdup(const char *s);
int compare_asprintf(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void compare_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* REFAULT_COMPARE_LOCAL_H */
