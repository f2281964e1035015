/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One self-contained HTML page: inline CSS and SVG, no network, no external
 * script.  The decisions summary, the LKP table as a table (html_table.c;
 * the text form folded below it, to copy into mail), then SVG charts over
 * trace time (svg.c), one per quantity with one line per column: each LRU
 * list's size, refault and scan rates, globally and per cgroup (the model's
 * samples of the first RF_MODEL_SAMPLE_MEMCGS cgroups).  The global counters have one name
 * in every profile, so columns of every kernel era share each chart.  A
 * short inline script only writes what it found into #status, so a
 * headless browser can check that the page loaded.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare-local.h"
#include "lib/html.h"

static const char *basename_of(const char *series)
{
	const char *dot = strrchr(series, '.');

	return dot ? dot + 1 : series;
}

/* vmstat's nr_*active*, nr_unevictable; a cgroup's inactive_file and active_file. */
static bool is_list_size(const char *series)
{
	const char *b = basename_of(series);

	if (!strncmp(series, "memcg.", 6))
		return !strcmp(b, "inactive_file") || !strcmp(b, "active_file");
	return !strncmp(b, "nr_", 3) && (strstr(b, "active") || strstr(b, "unevictable"));
}

static bool is_rate_counter(const char *series)
{
	const char *b = basename_of(series);

	return !is_list_size(series) && (strstr(b, "refault") || strstr(b, "pgscan"));
}

static bool any_nonzero(const struct rf_compare_line *l, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < l[i].n; j++)
			if (l[i].y[j] != 0)
				return true;
	return false;
}

/* @name into the list of quantities zero throughout (@zero: "a, b, c"). */
static void note_zero(char *zero, size_t len, const char *name)
{
	size_t used = strlen(zero);

	if (used + 1 < len)
		snprintf(zero + used, len - used, "%s%s", used ? ", " : "", name);
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

struct series_ref {
	const char *name;
	size_t order;			/* of the series of every column, column by column */
};

static int ref_cmp(const void *pa, const void *pb)
{
	const struct series_ref *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/*
 * Of the series of every column, column by column, which are the first of
 * their name (a chart each): sorted by name, n log n.  NULL out of memory.
 */
static bool *first_of_name(const struct rf_compare_report *rep, size_t n)
{
	struct series_ref *ref = calloc(n + 1, sizeof(*ref));
	bool *first = calloc(n + 1, sizeof(*first));
	size_t i, j, k = 0;

	if (!ref || !first) {
		free(ref);
		free(first);
		return NULL;
	}
	for (i = 0; i < rep->nsides; i++)
		for (j = 0; j < rep->sides[i].tl.nseries; j++, k++)
			ref[k] = (struct series_ref){ rep->sides[i].tl.series[j].name, k };
	qsort(ref, n, sizeof(*ref), ref_cmp);
	for (k = 0; k < n; k++)
		first[ref[k].order] = !k || strcmp(ref[k].name, ref[k - 1].name);
	free(ref);
	return first;
}

/*
 * One quantity over trace time, a line per column: its value (a list's size),
 * or with @rate its rate per second (a cumulative counter); none if zero
 * throughout, named in @zero instead.
 */
static bool quantity_chart(FILE *out, const struct rf_compare_report *rep, const char *name,
			   bool rate, char *zero, size_t zlen)
{
	bool drawn = false;
	struct rf_compare_line *l = calloc(rep->nsides, sizeof(*l));
	char title[256];
	size_t i;

	if (!l)
		return false;
	for (i = 0; i < rep->nsides; i++) {
		const struct rf_compare_series *ser = compare_side_series(&rep->sides[i], name);

		l[i].name = rep->sides[i].label;
		/* the kernel's: what its snapshots measured, nothing drawn between them */
		l[i].style = !rep->sides[i].kernel ? RF_LINE_PATH : rate ? RF_LINE_STEPS :
			     RF_LINE_POINTS;
		if (!ser)
			continue;
		l[i].x = rep->sides[i].tl.t_s;
		l[i].y = rate ? rate_of(&rep->sides[i], ser) : ser->v;
		l[i].n = l[i].y ? ser->n : 0;
	}
	snprintf(title, sizeof(title), rate ? "%s per second" : "%s", name);
	drawn = any_nonzero(l, rep->nsides);
	if (drawn)
		compare_svg_chart(out, title, rate ? "pages/s" : "pages", l, rep->nsides);
	else
		note_zero(zero, zlen, name);
	for (i = 0; rate && i < rep->nsides; i++)
		free((void *)l[i].y);
	free(l);
	return drawn;
}

/* A page draws this many charts at most (a file may have a series for each of 10^5 cgroups). */
#define MAX_CHARTS	256

/* Why a page has no chart over trace time: what the columns are, and what would give one. */
static void no_series(FILE *out, const struct rf_compare_report *rep)
{
	size_t i, sweep = 0, lkp = 0, kernel = 0;

	for (i = 0; i < rep->nsides; i++) {
		sweep += rep->sides[i].sweep;
		lkp += rep->sides[i].lkp;
		kernel += rep->sides[i].kernel;
	}
	fprintf(out, "<h2>Over trace time</h2>\n<p class=\"note\">");
	if (sweep)
		fprintf(out, "A sweep file keeps each run's counters, not its time series (refault "
			"sweep merge leaves them in the store): each run's own results, STORE/ID.json "
			"(ID the run's task, its \"sweep\".\"task\"), are a results file that refault "
			"compare draws over time.");
	else if (lkp)
		fprintf(out, "LKP files carry no time series.");
	else if (kernel)
		fprintf(out, "The recording has no counter snapshots to draw (refault record "
			"--snapshot-interval takes them during the recording).");
	else
		fprintf(out, "These results carry no time series (refault replay writes them every "
			"--interval of trace time).");
	fprintf(out, "</p>\n");
}

static size_t time_charts(FILE *out, const struct rf_compare_report *rep, size_t max_charts)
{
	size_t i, j, k, n = 0, drawn = 0, left = 0;
	char zero[1024] = "";
	bool *first;

	for (i = 0; i < rep->nsides; i++)
		n += rep->sides[i].tl.nseries;
	if (!n) {
		no_series(out, rep);
		return 0;
	}
	first = first_of_name(rep, n);
	if (!first)
		return 0;
	fprintf(out, "<h2>LRU list sizes over trace time</h2>\n<div class=\"charts\">\n");
	for (i = 0, k = 0; i < rep->nsides; i++)
		for (j = 0; j < rep->sides[i].tl.nseries; j++, k++) {
			const char *name = rep->sides[i].tl.series[j].name;

			if (!is_list_size(name) || !first[k])
				continue;
			if (drawn < max_charts)
				drawn += quantity_chart(out, rep, name, false, zero, sizeof(zero));
			else
				left++;
		}
	fprintf(out, "</div>\n<h2>Refault and scan rates</h2>\n<div class=\"charts\">\n");
	for (i = 0, k = 0; i < rep->nsides; i++)
		for (j = 0; j < rep->sides[i].tl.nseries; j++, k++) {
			const char *name = rep->sides[i].tl.series[j].name;

			if (!is_rate_counter(name) || !first[k])
				continue;
			if (drawn < max_charts)
				drawn += quantity_chart(out, rep, name, true, zero, sizeof(zero));
			else
				left++;
		}
	fprintf(out, "</div>\n");
	free(first);
	if (left)
		fprintf(out, "<p class=\"note\">%zu more quantities have time series: a page draws "
			"%d charts at most (refault compare --plot NAME --over time plots any).</p>\n",
			left, MAX_CHARTS);
	if (*zero) {
		fprintf(out, "<p class=\"note\">Zero throughout, in every column (not drawn): ");
		rf_html_escape_str(out, zero);
		fprintf(out, ".</p>\n");
	}
	return drawn;
}

static ssize_t escape_write(void *cookie, const char *buf, size_t n)
{
	rf_html_escape(cookie, buf, n);
	return (ssize_t)n;
}

/*
 * The text table, escaped into a <pre> as it is printed (its size is the
 * table's: rows times columns), folded away under @summary.
 */
static int pre_table(FILE *out, const struct rf_compare_report *rep, const char *summary)
{
	static const cookie_io_functions_t io = { .write = escape_write };
	FILE *f;
	int ret;

	fprintf(out, "<details><summary>%s</summary>\n<pre class=\"table\">", summary);
	f = fopencookie(out, "w", io);
	if (!f)
		return RF_ERR_NOMEM;
	ret = compare_print_table(f, rep);
	if (fclose(f) && !ret)
		ret = RF_ERR_IO;
	fprintf(out, "</pre>\n</details>\n");
	return ret;
}

/* Parts of the decisions summary, escaped into a <pre>; folded under @summary when there is one. */
static int pre_parts(FILE *out, const struct rf_compare_report *rep, unsigned parts,
		     const char *cls, const char *summary)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return RF_ERR_NOMEM;
	ret = compare_decisions(mem, rep, parts);
	fclose(mem);
	if (!ret && len) {
		if (summary)
			fprintf(out, "<details><summary>%s</summary>\n", summary);
		fprintf(out, "<pre class=\"%s\">", cls);
		rf_html_escape(out, buf, len);
		fprintf(out, "</pre>\n%s", summary ? "</details>\n" : "");
	}
	free(buf);
	return ret;
}

/*
 * The page uses its width: the table and, beside it where there is room,
 * the decisions and the notes; the charts in as many columns of at least
 * 520 px as fit, each as wide as its column (the SVG scales).
 */
static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.4em;margin:0 0 .4em}h2{font-size:1.1em;margin:1.4em 0 .5em}"
	"pre{font-family:ui-monospace,monospace;font-size:12px;background:#f6f6f4;padding:.8em;"
	"overflow-x:auto;border:1px solid #ddd}"
	".top{display:flex;flex-wrap:wrap;gap:0 2.5em;align-items:flex-start}"
	".top>section{flex:0 1 auto;max-width:100%}.top>aside{flex:1 1 420px;min-width:0}"
	"aside pre{white-space:pre-wrap;overflow-wrap:anywhere}"
	".scroll{overflow-x:auto;max-width:100%}"
	".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:1em}"
	"figure{margin:0;min-width:0}figcaption{font-size:12px}"
	"svg.chart{display:block;width:100%;height:auto;background:#fff;border:1px solid #ddd}"
	".frame{fill:none;stroke:#999}.grid{stroke:#eee}.line{fill:none;stroke-width:1.6}"
	".bar{fill:none;stroke-width:1.4}"
	".tick,.unit{font-size:11px;fill:#444}.title{font-size:13px;fill:#222}"
	"table.lkp{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}"
	"table.lkp th,table.lkp td{padding:2px 8px;border-bottom:1px solid #eee;white-space:nowrap}"
	"table.lkp th{text-align:right;background:#f6f6f4;position:sticky;top:0;"
	"white-space:normal;vertical-align:bottom}"
	"table.lkp td.val,table.lkp td.chg{text-align:right}"
	"table.lkp td.name,table.lkp th.name{text-align:left;font-family:ui-monospace,monospace;"
	"position:sticky;right:0;background:#fff}table.lkp th.name{background:#f6f6f4}"
	"table.lkp tr.same td{color:#999}table.lkp tbody tr:hover{background:#f3f7ff}"
	"table.lkp tr.headline td.name{color:#555}"
	"table.lkp td.up{color:#b00;font-weight:600;background:#fdecea}"
	"table.lkp td.down{color:#06c;font-weight:600;background:#e8f1fb}"
	"table.lkp td.few{font-weight:400;font-style:italic;outline:1px dashed #bbb;"
	"outline-offset:-2px}"
	".note{font-size:12px;color:#555;max-width:70em}"
	".warn{font-size:12px;color:#6b4500;background:#fff6dd;border:1px solid #e8d18f;"
	"padding:.5em .8em;max-width:70em}"
	".legend{white-space:nowrap;margin-right:.8em}svg.key{vertical-align:middle}"
	"details summary{cursor:pointer;font-size:12px;color:#555;margin:.6em 0}"
	"#status{display:none}";

/* For a headless browser's check: what it drew, and how much of the width the page uses. */
static const char script[] =
	"(function(){var c=document.querySelectorAll('svg.chart'),p=0,e=0,r=0;"
	"c.forEach(function(s){s.querySelectorAll('path.line').forEach(function(l){"
	"if(l.getTotalLength()>0)p++;else e++;});"
	"s.querySelectorAll('g.pts').forEach(function(g){"
	"if(g.querySelector('circle'))p++;else e++;});});"
	"document.querySelectorAll('figure,table.lkp,.top>aside').forEach(function(f){"
	"r=Math.max(r,f.getBoundingClientRect().right);});"
	"document.getElementById('status').textContent='loaded: '+c.length+' charts, '+p+"
	"' drawn lines, '+e+' empty lines, content to '+Math.round(100*r/"
	"document.documentElement.clientWidth)+'% of the width';})();";

/* The kernel's numbers: what they are, and how the charts draw them. */
static void kernel_notes(FILE *out, const struct rf_compare_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nsides; i++) {
		const struct rf_compare_side *s = &rep->sides[i];

		if (!s->kernel)
			continue;
		fprintf(out, "<p class=\"warn\"><b>");
		rf_html_escape_str(out, s->label);
		fprintf(out, "</b> is the recording kernel's own numbers: its vmstat.* rows are the "
			"whole host's /proc/vmstat, the model's only the traced processes: read the "
			"memcg rows of the recorded cgroup (refault validate compares quantity by "
			"quantity).");
		if (s->tl.n)
			fprintf(out, " Its charts draw what its %zu counter snapshot%s measured, and "
				"nothing between: a list size as a point at each snapshot, a rate as "
				"the mean rate between two snapshots, flat over the interval "
				"(refault record --snapshot-interval samples more often).", s->tl.n,
				s->tl.n == 1 ? "" : "s");
		fprintf(out, "</p>\n");
	}
}

/* The decisions summary (a few lines; every pair under <details> past them), the cost's note. */
static int decisions(FILE *out, const struct rf_compare_report *rep)
{
	char note[512];
	int ret;

	ret = pre_parts(out, rep, RF_DECISIONS_SUMMARY | RF_DECISIONS_COST | RF_DECISIONS_PAGE,
			"decisions", NULL);
	if (!ret && compare_decisions_grouped(rep))
		ret = pre_parts(out, rep, RF_DECISIONS_PAIRS, "decisions", "every pair of columns");
	if (compare_cost_eras(rep, note, sizeof(note))) {
		fprintf(out, "<p class=\"warn\">");
		rf_html_escape_str(out, note);
		fprintf(out, ".</p>\n");
	}
	return ret;
}

/* Beside the table: the decisions and the notes, when there are any (LKP data has none). */
static int aside(FILE *out, const struct rf_compare_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem)
		return RF_ERR_NOMEM;
	ret = decisions(mem, rep);
	kernel_notes(mem, rep);
	if (fclose(mem) && !ret)
		ret = RF_ERR_NOMEM;
	if (!ret && len) {
		fprintf(out, "<aside>\n<h2>Decisions and notes</h2>\n");
		fwrite(buf, 1, len, out);
		fprintf(out, "</aside>\n");
	}
	free(buf);
	return ret;
}

int compare_write_html(FILE *out, const struct rf_compare_report *rep)
{
	size_t i, drawn;
	int ret;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>refault compare: ");
	for (i = 0; i < rep->nsides; i++) {
		fprintf(out, "%s", i ? " vs " : "");
		rf_html_escape_str(out, rep->sides[i].label);
	}
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>refault compare</h1>\n"
		"<div class=\"top\">\n<section>\n<h2>LKP comparison table</h2>\n", style);
	compare_html_table(out, rep);
	ret = pre_table(out, rep, "the table as text (lkp-tests ncompare's form, to copy into mail)");
	fprintf(out, "</section>\n");
	if (!ret)
		ret = aside(out, rep);
	fprintf(out, "</div>\n");
	drawn = compare_html_settings(out, rep, MAX_CHARTS);
	time_charts(out, rep, MAX_CHARTS - drawn);
	fprintf(out, "<p id=\"status\">script did not run</p>\n<script>%s</script>\n"
		"</body></html>\n", script);
	if (!ret && ferror(out))
		ret = RF_ERR_IO;
	return ret;
}
