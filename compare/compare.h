/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-report: what `refault compare` is made of.  Load sides (refault
 * results files, LKP stats.json / matrix.json), judge each metric with the
 * LKP robot's rules, and render the result as an LKP table, JSON, CSV,
 * matrix.json, gates, ASCII plots or an HTML page.
 *
 * Conventions: 0 on success, negative enum rf_err on failure with a message
 * in the caller's @err buffer; nothing here prints to stderr or exits.
 * Renderers write to a FILE * the caller owns.
 */
#ifndef REFAULT_REPORT_COMPARE_H
#define REFAULT_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/errors.h>

#define RF_CMP_ERRLEN 512

struct json_object;

/* One metric of one side: a sample per run (LKP's matrix.json column). */
struct rf_cmp_metric {
	char *name;
	double *v;
	size_t n;
	/*
	 * A model counter replayed from one trace: a pure function of the trace
	 * and the configuration, so one sample is the exact value (stddev 0).
	 */
	bool exact;
};

/* A time series of one run: value per sample time. */
struct rf_cmp_series {
	char *name;
	double *v;
	size_t n;
};

struct rf_cmp_timeline {
	double interval_s;
	double *t_s;			/* trace time of each sample, seconds */
	size_t n;
	struct rf_cmp_series *series;
	size_t nseries;
};

/* One column of the table: a results file, a configuration in it, or a group of runs. */
struct rf_cmp_side {
	char *label;			/* column title: the configuration name or the file */
	char *spec;			/* as given on the command line */
	size_t runs;
	bool lkp;			/* imported from LKP stats.json / matrix.json */
	bool kernel;			/* "NAME@kernel": the kernel's numbers the trace observed */
	char **fingerprints;		/* per run, results files only */
	char *trace_path;		/* of the first run */
	uint64_t events_skipped;	/* summed over runs: non-zero means partial results */
	struct rf_cmp_metric *m;	/* sorted by name */
	size_t nm;
	struct rf_cmp_timeline tl;	/* the first run's time series (may be empty) */
};

/* side.c */
int rf_cmp_side_load(struct rf_cmp_side *side, const char *spec, char *err, size_t errlen);
/* The configuration names of a results file (for expanding "results.json" into all of them). */
int rf_cmp_results_configs(const char *path, char ***names, size_t *n, char *err, size_t errlen);
void rf_cmp_side_release(struct rf_cmp_side *side);
const struct rf_cmp_metric *rf_cmp_side_find(const struct rf_cmp_side *side, const char *name);
const struct rf_cmp_series *rf_cmp_side_series(const struct rf_cmp_side *side, const char *name);
/* 0 if @a and @b replay the same trace(s), else RF_ERR_INVAL with the reason in @err. */
int rf_cmp_same_traces(const struct rf_cmp_side *a, const struct rf_cmp_side *b,
		       char *err, size_t errlen);

/* run.c, load_results.c, load_lkp.c: one file, as loaded. */
struct rf_cmp_run {
	struct rf_cmp_metric *m;	/* sorted by name after rf_cmp_run_sort() */
	size_t nm, cap;
	size_t cols;			/* samples per metric: 1, or an LKP matrix's runs */
	bool lkp;
	bool kernel;			/* "observed" rather than "stats" */
	char *config;			/* the configuration's name (results files) */
	char *fingerprint;
	char *trace_path;
	uint64_t events_skipped;
	struct rf_cmp_timeline tl;
};

/* Append @n samples (copied) under @name. */
int rf_cmp_run_add(struct rf_cmp_run *r, const char *name, const double *v, size_t n, bool exact);
void rf_cmp_run_sort(struct rf_cmp_run *r);
void rf_cmp_run_release(struct rf_cmp_run *r);
void rf_cmp_timeline_release(struct rf_cmp_timeline *tl);
/*
 * @config may be NULL when the file holds one configuration.  Returns
 * RF_ERR_NOT_TRACE if the JSON is not a refault results file (then try LKP).
 */
int rf_cmp_load_results(struct rf_cmp_run *r, struct json_object *root, const char *path,
			const char *config, char *err, size_t errlen);
int rf_cmp_load_lkp(struct rf_cmp_run *r, struct json_object *root, const char *path,
		    char *err, size_t errlen);

/* names.c: what kind of metric a name is, by LKP's rules. */
/* The LKP spelling of one of our names: "vmstat.X" is LKP's "proc-vmstat.X". */
const char *rf_cmp_lkp_name(const char *name, char *buf, size_t len);
/* The reverse, applied when importing LKP files. */
const char *rf_cmp_from_lkp_name(const char *name, char *buf, size_t len);
bool rf_cmp_is_function_stat(const char *name);
bool rf_cmp_is_perf_metric(const char *name);
bool rf_cmp_is_absolute_change(const char *name);
bool rf_cmp_reasonable_change(const char *name, double delta, double max);
/* The test's own group ("cost" for refault, "vm-scalability" for LKP data): sorted first. */
bool rf_cmp_is_test_group(const char *group);
/* A model decision (not cost.*, replay.*, run.*): used for the decisions summary. */
bool rf_cmp_is_decision_stat(const char *name);
/*
 * Resolve a metric name a user typed: exact, or without its group prefix
 * when that is unique.  Returns the full name or NULL; *ambiguous is set
 * when several metrics match.
 */
const char *rf_cmp_resolve(const struct rf_cmp_side *sides, size_t nsides, const char *name,
			   bool *ambiguous);

/* stats.c */
struct rf_cmp_summary {
	double *sorted;			/* after trimming */
	size_t n;
	double min, median, max;
};

double rf_cmp_mean(const double *v, size_t n);
/* Population standard deviation (divides by n, as LKP does); -1 for fewer than 2 samples. */
double rf_cmp_stddev(const double *v, size_t n);
int rf_cmp_summarize(struct rf_cmp_summary *s, const double *v, size_t n, size_t max_margin);
void rf_cmp_summary_release(struct rf_cmp_summary *s);

struct rf_cmp_verdict {
	bool compared;			/* false: LKP skips it (too few samples, no base) */
	bool separated;			/* the samples are apart by LKP's median rule */
	bool changed;			/* separated and past the magnitude filters */
	double ratio;			/* median_high / median_low, capped at 5 */
	double delta;			/* median_high - median_low */
	const char *why;		/* one line: the rule that decided */
};

/* LKP's StatCompare#process for one metric: @nbase / @nnew are the sides' run counts. */
int rf_cmp_judge(const char *name, const double *base, size_t nbase, bool base_exact,
		 const double *new, size_t nnew, bool new_exact, struct rf_cmp_verdict *out);

/* rows.c: the table's content, shared by every renderer. */
struct rf_cmp_cell {
	bool present;			/* the side has the metric (else LKP counts it as 0) */
	size_t n;
	const double *samples;
	double mean;
	double stddev;			/* population; -1 with one sample */
	double change;			/* vs the base: percent, or absolute for '%' keys */
	struct rf_cmp_verdict verdict;	/* vs the base */
};

struct rf_cmp_row {
	const char *name;
	bool function_stat;		/* LKP failure table (dmesg.*, *.fail ...) */
	bool absolute;			/* change in units, not percent */
	bool shown;			/* changed in any column, or --all */
	struct rf_cmp_cell *cell;	/* one per side, [0] is the base */
	double *zeros;			/* the samples of sides that lack the metric */
	int group_rank;			/* LKP's sort_stats() group order */
};

struct rf_cmp_report {
	struct rf_cmp_side *sides;
	size_t nsides;
	struct rf_cmp_row *rows;	/* every metric, sorted in LKP's order */
	size_t nrows;
	size_t nshown;
	size_t missing;			/* metrics some side lacks */
};

int rf_cmp_report_build(struct rf_cmp_report *rep, struct rf_cmp_side *sides, size_t nsides,
			bool all, char *err, size_t errlen);
void rf_cmp_report_release(struct rf_cmp_report *rep);
const struct rf_cmp_row *rf_cmp_report_row(const struct rf_cmp_report *rep, const char *name);

/* table.c: LKP's ncompare layout. */
int rf_cmp_print_table(FILE *out, const struct rf_cmp_report *rep);
/* One cell as LKP prints it: value (10) + stddev (6); change (12). */
void rf_cmp_format_value(char *buf, size_t len, double mean, double stddev);
void rf_cmp_format_change(char *buf, size_t len, double change, bool absolute);

/* decisions.c: which model decisions differ, and how the estimated cost moves. */
int rf_cmp_print_decisions(FILE *out, const struct rf_cmp_report *rep);

/* export.c */
int rf_cmp_write_json(FILE *out, const struct rf_cmp_report *rep, bool all);
int rf_cmp_write_csv(FILE *out, const struct rf_cmp_report *rep, bool all);
int rf_cmp_write_matrix(const char *path, const struct rf_cmp_side *side, char *err, size_t errlen);

/* gate.c: --fail-if 'METRIC OP VALUE' */
enum rf_cmp_gate_op { RF_GATE_GT, RF_GATE_GE, RF_GATE_LT, RF_GATE_LE, RF_GATE_CHANGED };
enum rf_cmp_gate_unit { RF_GATE_PERCENT, RF_GATE_DELTA, RF_GATE_VALUE };

struct rf_cmp_gate {
	char *text;
	char *metric;
	enum rf_cmp_gate_op op;
	enum rf_cmp_gate_unit unit;
	double threshold;
};

int rf_cmp_gate_parse(struct rf_cmp_gate *g, const char *text, char *err, size_t errlen);
void rf_cmp_gate_release(struct rf_cmp_gate *g);
/*
 * Evaluate against every non-base side.  Returns 0 (holds), 1 (tripped:
 * @msg says where), or RF_ERR_INVAL for an unknown or ambiguous metric.
 */
int rf_cmp_gate_eval(const struct rf_cmp_gate *g, const struct rf_cmp_report *rep,
		     char *msg, size_t msglen);

/* plot.c: LKP-style ASCII plots (gnuplot's dumb terminal, 80x20). */
int rf_cmp_plot_variants(FILE *out, const struct rf_cmp_report *rep, const char *metric);
int rf_cmp_plot_time(FILE *out, const struct rf_cmp_side *sides, size_t nsides,
		     const char *series, char *err, size_t errlen);

/* html.c */
int rf_cmp_write_html(FILE *out, const struct rf_cmp_report *rep);

/* util.c */
char *rf_cmp_strdup(const char *s);
int rf_cmp_asprintf(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rf_cmp_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* REFAULT_REPORT_COMPARE_H */
