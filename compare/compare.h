/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-compare: `refault compare` as one call, rf_compare_verb() (at
 * the end; compare/verb.c, verb_output.c), which cli/builtin-compare.c calls
 * with the options it parsed, as the fuzz targets do with theirs.  Behind it
 * (compare/compare-local.h): load sides (refault results files, LKP
 * stats.json / matrix.json), judge each metric with the LKP robot's rules
 * (lkp-tests/lib/stats.rb and lkp-tests/lib/compare.rb; docs/compare.md),
 * and render the result as an LKP table, JSON, CSV, matrix.json, gates,
 * ASCII plots or an HTML page.
 *
 * Conventions: the verb says its messages through the caller's struct
 * rf_compare_log and returns the command's exit status; nothing here prints
 * to stderr or exits.
 */
#ifndef REFAULT_COMPARE_H
#define REFAULT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <refault/api.h>

/* --fail-if 'METRIC OP VALUE': a gate of struct rf_compare_opts (rf_compare_opts_add_gate()) */
enum rf_compare_gate_op { RF_GATE_GT, RF_GATE_GE, RF_GATE_LT, RF_GATE_LE, RF_GATE_CHANGED };
enum rf_compare_gate_unit { RF_GATE_PERCENT, RF_GATE_DELTA, RF_GATE_VALUE };

struct rf_compare_gate {
	char *text;
	char *metric;
	enum rf_compare_gate_op op;
	enum rf_compare_gate_unit unit;
	double threshold;
};

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
 * @specs, @nspecs: the sides (compare_side_load()); one results file alone
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
 * @change: "PA,PB": the change table instead (docs/compare.md, "A change,
 *          kernel against model"): @specs are two groups of results files,
 *          the recordings of kernel A and of kernel B, each file a replay
 *          through profiles PA (A's model) and PB (B's); with @json, @html
 *          (the table as a page) and @all
 */
struct rf_compare_opts {
	char *const *specs;
	size_t nspecs;
	bool all, json, csv, force;
	const char *change;
	const char *over;
	const char *plot;
	const char *html;
	const char *export_matrix;
	struct rf_compare_gate *gates;
	size_t ngates, gates_cap;
	FILE *out;
};

/*
 * rf_compare_opts_add_gate() - parse @text (compare_gate_parse()) as the
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
