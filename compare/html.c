/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One self-contained HTML page: inline CSS and SVG, no network, no external
 * script.  The decisions summary and the LKP table as text, then SVG charts
 * over trace time: LRU list sizes per column, and refault and scan rates
 * with one line per column.  A short inline script only writes what it
 * found into #status, so a headless browser can check that the page loaded.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"

#define CW	560.0		/* chart width */
#define CH	240.0		/* chart height */
#define ML	70.0		/* margins: left, right, top, bottom */
#define MR	12.0
#define MT	28.0
#define MB	34.0

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
};

struct line {
	const char *name;
	const double *x;
	double *y;
	size_t n;
};

static void escape(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(s[i], out);
		}
	}
}

static void escape_str(FILE *out, const char *s)
{
	escape(out, s, strlen(s));
}

static const char *basename_of(const char *series)
{
	const char *dot = strrchr(series, '.');

	return dot ? dot + 1 : series;
}

static bool is_list_size(const char *series)
{
	const char *b = basename_of(series);

	return !strncmp(b, "nr_", 3) && (strstr(b, "active") || strstr(b, "unevictable"));
}

static bool is_rate_counter(const char *series)
{
	const char *b = basename_of(series);

	return !is_list_size(series) && (strstr(b, "refault") || strstr(b, "pgscan"));
}

static void bounds(const struct line *l, size_t n, double *xmax, double *ymin, double *ymax)
{
	size_t i, j;

	*xmax = 0;
	*ymin = 0;
	*ymax = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < l[i].n; j++) {
			*xmax = fmax(*xmax, l[i].x[j]);
			*ymin = fmin(*ymin, l[i].y[j]);
			*ymax = fmax(*ymax, l[i].y[j]);
		}
	if (*ymax == *ymin)
		*ymax = *ymin + 1;
	if (*xmax == 0)
		*xmax = 1;
}

static void axes(FILE *out, double xmax, double ymin, double ymax, const char *unit)
{
	int i;

	fprintf(out, "<rect class=\"frame\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\"/>\n",
		ML, MT, CW - ML - MR, CH - MT - MB);
	for (i = 0; i <= 4; i++) {
		double y = MT + (CH - MT - MB) * i / 4;

		fprintf(out, "<line class=\"grid\" x1=\"%g\" x2=\"%g\" y1=\"%g\" y2=\"%g\"/>"
			"<text class=\"tick\" x=\"%g\" y=\"%g\" text-anchor=\"end\">%.4g</text>\n",
			ML, CW - MR, y, y, ML - 4, y + 4, ymax - (ymax - ymin) * i / 4);
	}
	for (i = 0; i <= 4; i++) {
		double x = ML + (CW - ML - MR) * i / 4;

		fprintf(out, "<text class=\"tick\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">%.3g"
			"</text>\n", x, CH - MB + 14, xmax * i / 4);
	}
	fprintf(out, "<text class=\"unit\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">trace time "
		"(s)</text><text class=\"unit\" x=\"4\" y=\"%g\">%s</text>\n",
		ML + (CW - ML - MR) / 2, CH - 4, MT - 8, unit);
}

static void path(FILE *out, const struct line *l, size_t k, double xmax, double ymin,
		 double ymax)
{
	size_t j;

	fprintf(out, "<path class=\"line\" stroke=\"%s\" d=\"", colors[k % 8]);
	for (j = 0; j < l->n; j++)
		fprintf(out, "%c%.1f %.1f", j ? 'L' : 'M',
			ML + (CW - ML - MR) * l->x[j] / xmax,
			MT + (CH - MT - MB) * (ymax - l->y[j]) / (ymax - ymin));
	fprintf(out, "\"><title>");
	escape_str(out, l->name);
	fprintf(out, "</title></path>\n");
}

static void chart(FILE *out, const char *title, const char *unit, const struct line *l,
		  size_t n)
{
	double xmax, ymin, ymax;
	size_t k;

	bounds(l, n, &xmax, &ymin, &ymax);
	fprintf(out, "<figure><svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %g %g\" width=\"%g\" height=\"%g\" role=\"img\">\n"
		"<text class=\"title\" x=\"%g\" y=\"16\" text-anchor=\"middle\">", CW, CH, CW, CH,
		CW / 2);
	escape_str(out, title);
	fprintf(out, "</text>\n");
	axes(out, xmax, ymin, ymax, unit);
	for (k = 0; k < n; k++)
		if (l[k].n)
			path(out, &l[k], k, xmax, ymin, ymax);
	fprintf(out, "</svg><figcaption>");
	for (k = 0; k < n; k++) {
		fprintf(out, "<span class=\"key\" style=\"color:%s\">&#9632;</span> ", colors[k % 8]);
		escape_str(out, l[k].name);
		fprintf(out, " &nbsp; ");
	}
	fprintf(out, "</figcaption></figure>\n");
}

static void list_chart(FILE *out, const struct rf_compare_side *s)
{
	struct line l[16];
	char title[256];
	size_t i, n = 0;

	for (i = 0; i < s->tl.nseries && n < 16; i++)
		if (is_list_size(s->tl.series[i].name))
			l[n++] = (struct line){ s->tl.series[i].name, s->tl.t_s, s->tl.series[i].v,
						s->tl.series[i].n };
	if (!n)
		return;
	snprintf(title, sizeof(title), "LRU list sizes: %s", s->label);
	chart(out, title, "pages", l, n);
}

/* A cumulative counter as a rate per second of trace time, between samples. */
static double *rate_of(const struct rf_compare_side *s, const struct rf_compare_series *ser)
{
	double *r = calloc(ser->n + 1, sizeof(*r));
	size_t j;

	for (j = 1; r && j < ser->n; j++) {
		double dt = s->tl.t_s[j] - s->tl.t_s[j - 1];

		r[j] = dt > 0 ? (ser->v[j] - ser->v[j - 1]) / dt : 0;
	}
	return r;
}

static bool seen_before(const struct rf_compare_report *rep, size_t side, const char *name)
{
	size_t i;

	for (i = 0; i < side; i++)
		if (rf_compare_side_series(&rep->sides[i], name))
			return true;
	return false;
}

static void rate_chart(FILE *out, const struct rf_compare_report *rep, const char *name)
{
	struct line *l = calloc(rep->nsides, sizeof(*l));
	char title[256];
	size_t i;

	if (!l)
		return;
	for (i = 0; i < rep->nsides; i++) {
		const struct rf_compare_series *ser = rf_compare_side_series(&rep->sides[i], name);

		l[i].name = rep->sides[i].label;
		if (!ser)
			continue;
		l[i].x = rep->sides[i].tl.t_s;
		l[i].y = rate_of(&rep->sides[i], ser);
		l[i].n = l[i].y ? ser->n : 0;
	}
	snprintf(title, sizeof(title), "%s per second", name);
	chart(out, title, "/s", l, rep->nsides);
	for (i = 0; i < rep->nsides; i++)
		free(l[i].y);
	free(l);
}

static void charts(FILE *out, const struct rf_compare_report *rep)
{
	size_t i, j, n = 0;

	for (i = 0; i < rep->nsides; i++)
		n += rep->sides[i].tl.nseries;
	if (!n) {
		fprintf(out, "<p>These results carry no time series (refault replay writes them "
			"every --interval of trace time).</p>\n");
		return;
	}
	fprintf(out, "<h2>LRU list sizes over trace time</h2>\n<div class=\"charts\">\n");
	for (i = 0; i < rep->nsides; i++)
		list_chart(out, &rep->sides[i]);
	fprintf(out, "</div>\n<h2>Refault and scan rates</h2>\n<div class=\"charts\">\n");
	for (i = 0; i < rep->nsides; i++)
		for (j = 0; j < rep->sides[i].tl.nseries; j++) {
			const char *name = rep->sides[i].tl.series[j].name;

			if (is_rate_counter(name) && !seen_before(rep, i, name))
				rate_chart(out, rep, name);
		}
	fprintf(out, "</div>\n");
}

/* Text output of @fn, escaped into a <pre>. */
static int pre(FILE *out, const struct rf_compare_report *rep,
	       int (*fn)(FILE *, const struct rf_compare_report *), const char *cls)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return RF_ERR_NOMEM;
	ret = fn(mem, rep);
	fclose(mem);
	if (!ret && len) {
		fprintf(out, "<pre class=\"%s\">", cls);
		escape(out, buf, len);
		fprintf(out, "</pre>\n");
	}
	free(buf);
	return ret;
}

static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}"
	"pre{font-family:ui-monospace,monospace;font-size:12px;background:#f6f6f4;padding:.8em;"
	"overflow-x:auto;border:1px solid #ddd}"
	".charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}"
	"figcaption{font-size:12px;max-width:560px}"
	"svg.chart{background:#fff;border:1px solid #ddd}"
	".frame{fill:none;stroke:#999}.grid{stroke:#eee}.line{fill:none;stroke-width:1.6}"
	".tick,.unit{font-size:10px;fill:#555}.title{font-size:13px;fill:#222}"
	"#status{font-size:11px;color:#888}";

static const char script[] =
	"(function(){var c=document.querySelectorAll('svg.chart'),p=0,e=0;"
	"c.forEach(function(s){s.querySelectorAll('path.line').forEach(function(l){"
	"if(l.getTotalLength()>0)p++;else e++;});});"
	"document.getElementById('status').textContent='loaded: '+c.length+' charts, '+p+"
	"' drawn lines, '+e+' empty lines';})();";

int rf_compare_write_html(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;
	int ret;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>refault compare: ");
	for (i = 0; i < rep->nsides; i++) {
		fprintf(out, "%s", i ? " vs " : "");
		escape_str(out, rep->sides[i].label);
	}
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>refault compare</h1>\n",
		style);
	ret = pre(out, rep, rf_compare_print_decisions, "decisions");
	fprintf(out, "<h2>LKP comparison table</h2>\n");
	if (!ret)
		ret = pre(out, rep, rf_compare_print_table, "table");
	charts(out, rep);
	fprintf(out, "<p id=\"status\">script did not run</p>\n<script>%s</script>\n"
		"</body></html>\n", script);
	if (!ret && ferror(out))
		ret = RF_ERR_IO;
	return ret;
}
