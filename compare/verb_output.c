/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the verb (verb.c) makes of a report: the notes on it, the decisions
 * and the table (or JSON, CSV), the plot, the page and the matrix, each file
 * written under a temporary name and renamed when whole (lib/outfile.h), and
 * the gates.  Each returns an RF_COMPARE_EXIT_* status after saying why.
 */
#include "config.h"

#include <string.h>

#include "compare/compare-local.h"
#include "lib/outfile.h"

#define say(c, ...) compare_say((c)->log, (c)->out, RF_COMPARE_MESSAGE, __VA_ARGS__)

void compare_verb_notes(const struct rf_compare_ctx *c, const struct rf_compare_report *rep)
{
	size_t i, j;

	for (i = 0; i < rep->nsides; i++)
		if (rep->sides[i].kernel) {
			say(c, "note: %s's vmstat.* rows are the whole host's /proc/vmstat, the "
			    "model's only the traced processes: read the memcg rows of the "
			    "recorded cgroup (refault validate compares quantity by quantity)",
			    rep->sides[i].label);
			break;
		}
	if (!rep->missing)
		return;
	for (i = 0; i < rep->nrows; i++)
		for (j = 0; j < rep->nsides; j++)
			if (!rep->rows[i].cell[j].present) {
				say(c, "note: %zu metric%s missing from some column and count "
				    "as 0 there, as in LKP (first: %s, missing in %s)",
				    rep->missing, rep->missing == 1 ? " is" : "s are",
				    rep->rows[i].name, rep->sides[j].label);
				return;
			}
}

int compare_verb_gates(const struct rf_compare_ctx *c, const struct rf_compare_report *rep,
		       bool check_only)
{
	const struct rf_compare_opts *o = c->o;
	char msg[1024];
	size_t i;
	int tripped = 0, ret;

	for (i = 0; i < o->ngates; i++) {
		ret = compare_gate_eval(&o->gates[i], rep, msg, sizeof(msg));
		if (ret < 0) {
			say(c, "--fail-if '%s': %s", o->gates[i].text, msg);
			return RF_COMPARE_EXIT_FAILURE;
		}
		if (ret && !check_only) {
			say(c, "gate tripped: %s", msg);
			tripped = 1;
		}
	}
	return tripped ? RF_COMPARE_EXIT_GATE : RF_COMPARE_EXIT_OK;
}

static int write_html(const struct rf_compare_ctx *c, const char *path,
		      const struct rf_compare_report *rep)
{
	struct rf_outfile out;
	char msg[1024];
	FILE *f;

	if (rf_outfile_open(&out, path, 0, msg, sizeof(msg))) {
		say(c, "%s", msg);
		return RF_COMPARE_EXIT_FAILURE;
	}
	f = rf_outfile_stdio(&out);
	if (!f || compare_write_html(f, rep)) {
		say(c, "%s: write failed", path);
		rf_outfile_abandon(&out);
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&out, msg, sizeof(msg))) {
		say(c, "%s", msg);
		return RF_COMPARE_EXIT_FAILURE;
	}
	return 0;
}

static int plot(const struct rf_compare_ctx *c, const struct rf_compare_report *rep)
{
	const struct rf_compare_opts *o = c->o;
	char err[RF_COMPARE_ERRLEN], cands[400];
	const char *name;

	if (o->over && !strcmp(o->over, "time")) {
		if (compare_plot_time(c->out, rep->sides, rep->nsides, o->plot, err,
				      sizeof(err))) {
			say(c, "--plot %s: %s", o->plot, err);
			return RF_COMPARE_EXIT_FAILURE;
		}
		return 0;
	}
	name = compare_resolve(rep->sides, rep->nsides, o->plot, cands, sizeof(cands));
	if (!name) {
		if (cands[0])
			say(c, "--plot %s: ambiguous metric: %s (name one)", o->plot, cands);
		else
			say(c, "--plot %s: unknown metric (refault compare --all lists them)",
			    o->plot);
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (o->over) {
		if (compare_plot_axis(c->out, rep, name, o->over, err, sizeof(err))) {
			say(c, "%s", err);
			return RF_COMPARE_EXIT_FAILURE;
		}
		return 0;
	}
	compare_plot_variants(c->out, rep, name);
	return 0;
}

int compare_verb_output(const struct rf_compare_ctx *c, const struct rf_compare_report *rep)
{
	const struct rf_compare_opts *o = c->o;
	int ret;

	if (o->json)
		ret = compare_write_json(c->out, rep, o->all);
	else if (o->csv)
		ret = compare_write_csv(c->out, rep, o->all);
	else {
		ret = compare_print_decisions(c->out, rep);
		if (!ret)
			ret = compare_print_table(c->out, rep);
	}
	if (ret) {
		say(c, "cannot write the output: %s", rf_strerror(ret));
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (o->plot && (ret = plot(c, rep)))
		return ret;
	if (o->html)
		return write_html(c, o->html, rep);
	return 0;
}

int compare_verb_export(const struct rf_compare_ctx *c, const struct rf_compare_side *side)
{
	const char *path = c->o->export_matrix;
	char err[RF_COMPARE_ERRLEN];
	struct rf_outfile out;

	if (rf_outfile_open(&out, path, 0, err, sizeof(err))) {
		say(c, "%s", err);
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (compare_write_matrix(out.fd, path, side, err, sizeof(err))) {
		say(c, "%s", err);
		rf_outfile_abandon(&out);
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&out, err, sizeof(err))) {
		say(c, "%s", err);
		return RF_COMPARE_EXIT_FAILURE;
	}
	return 0;
}
