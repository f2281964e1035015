/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --fail-if gates: 'METRIC OP VALUE' against every variant column.
 * VALUE "+5%" is the change against the base in percent, "+100" (signed) the
 * change in the metric's units, "100" (unsigned) the variant's own value.
 * 'METRIC changed' trips when LKP's rules call the difference real.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

static int parse_value(struct rf_compare_gate *g, const char *v, char *err, size_t errlen)
{
	bool sign = *v == '+' || *v == '-';
	char *end;

	errno = 0;
	g->threshold = strtod(v, &end);
	if (end == v || errno) {
		compare_seterr(err, errlen, "'%s' is not a number (want e.g. +5%%, -100, 1e6)",
			       v);
		return RF_ERR_INVAL;
	}
	/* no value is above or below NaN, none above +inf: such a gate trips always or never */
	if (!isfinite(g->threshold)) {
		compare_seterr(err, errlen, "'%s' is not a finite number: a gate against NaN or "
			       "an infinity trips always or never (want e.g. +5%%, -100, 1e6)", v);
		return RF_ERR_INVAL;
	}
	g->unit = sign ? RF_GATE_DELTA : RF_GATE_VALUE;
	if (*end == '%') {
		g->unit = RF_GATE_PERCENT;
		end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end) {
		compare_seterr(err, errlen, "unexpected '%s' after the value", end);
		return RF_ERR_INVAL;
	}
	return 0;
}

int compare_gate_parse(struct rf_compare_gate *g, const char *text, char *err, size_t errlen)
{
	size_t op = strcspn(text, "<>");
	const char *changed = strstr(text, " changed");
	char *value = NULL;
	int ret;

	memset(g, 0, sizeof(*g));
	g->text = strdup(text);
	if (changed && !changed[8] && op == strlen(text)) {
		g->op = RF_GATE_CHANGED;
		g->metric = trimmed(text, (size_t)(changed - text));
	} else if (text[op]) {
		bool eq = text[op + 1] == '=';

		g->op = text[op] == '>' ? (eq ? RF_GATE_GE : RF_GATE_GT) :
					  (eq ? RF_GATE_LE : RF_GATE_LT);
		g->metric = trimmed(text, op);
		value = trimmed(text + op + 1 + eq, strlen(text + op + 1 + eq));
	} else {
		compare_seterr(err, errlen, "want 'METRIC OP VALUE' (OP: > >= < <=) or "
			       "'METRIC changed'");
		return RF_ERR_INVAL;
	}
	if (!g->text || !g->metric || (g->op != RF_GATE_CHANGED && !value))
		return RF_ERR_NOMEM;
	if (!*g->metric) {
		compare_seterr(err, errlen, "no metric name before the operator");
		ret = RF_ERR_INVAL;
	} else {
		ret = g->op == RF_GATE_CHANGED ? 0 : parse_value(g, value, err, errlen);
	}
	free(value);
	return ret;
}

void compare_gate_release(struct rf_compare_gate *g)
{
	free(g->text);
	free(g->metric);
	memset(g, 0, sizeof(*g));
}

static bool holds(enum rf_compare_gate_op op, double x, double threshold)
{
	switch (op) {
	case RF_GATE_GT: return x > threshold;
	case RF_GATE_GE: return x >= threshold;
	case RF_GATE_LT: return x < threshold;
	case RF_GATE_LE: return x <= threshold;
	default: return false;
	}
}

static double quantity(const struct rf_compare_gate *g, const struct rf_compare_cell *base,
		       const struct rf_compare_cell *c)
{
	switch (g->unit) {
	case RF_GATE_PERCENT:
		return 100.0 * (c->mean - base->mean) / (base->mean ? base->mean : 1e-100);
	case RF_GATE_DELTA:
		return c->mean - base->mean;
	default:
		return c->mean;
	}
}

static const struct rf_compare_row *find_row(const struct rf_compare_gate *g,
					     const struct rf_compare_report *rep, char *msg,
					     size_t len)
{
	const struct rf_compare_row *row;
	char cands[400];
	const char *name;
	size_t i;

	name = compare_resolve(rep->sides, rep->nsides, g->metric, cands, sizeof(cands));
	if (!name) {
		if (cands[0])
			compare_seterr(msg, len, "metric '%s' is ambiguous: %s (name one)",
				       g->metric, cands);
		else
			compare_seterr(msg, len, "unknown metric '%s' (in no column; refault "
				       "compare --all lists them)", g->metric);
		return NULL;
	}
	row = compare_report_row(rep, name);
	if (!row) {
		compare_seterr(msg, len, "metric %s is not in every column (beside an @kernel "
			       "column only the quantities both have are compared)", name);
		return NULL;
	}
	for (i = 0; i < rep->nsides; i++)
		if (!row->cell[i].present) {
			compare_seterr(msg, len, "metric %s is missing from column %s (%s)",
				       name, rep->sides[i].label, rep->sides[i].spec);
			return NULL;
		}
	return row;
}

int compare_gate_eval(const struct rf_compare_gate *g, const struct rf_compare_report *rep,
		      char *msg, size_t len)
{
	const struct rf_compare_row *row = find_row(g, rep, msg, len);
	size_t i, k, used = 0;
	char chg[64];
	int tripped = 0;

	if (!row)
		return RF_ERR_INVAL;
	for (i = 1; i < rep->nsides; i++) {
		const struct rf_compare_cell *b = &row->cell[0], *c = &row->cell[i];
		bool trip = g->op == RF_GATE_CHANGED ? c->verdict.changed :
			    holds(g->op, quantity(g, b, c), g->threshold);
		int n;

		if (!trip)
			continue;
		/* the change as the table shows it ("from 0", "x1234" where a percentage is absurd) */
		compare_format_change(chg, sizeof(chg), b->mean, c->mean, false);
		for (k = strlen(chg); k && chg[k - 1] == ' '; k--)
			chg[k - 1] = 0;
		n = snprintf(msg + used, used < len ? len - used : 0,
			     "%s'%s': %s in %s is %.10g against %.10g in %s (%s%s)",
			     tripped ? "; " : "", g->text, row->name, rep->sides[i].label, c->mean,
			     b->mean, rep->sides[0].label, chg + strspn(chg, " "), c->verdict.changed ?
			     ", a change by LKP's rules" : c->verdict.apparent ?
			     ", a change not judged against noise: too few runs" : "");
		used += n > 0 ? (size_t)n : 0;
		tripped = 1;
	}
	return tripped;
}
