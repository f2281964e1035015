/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The report as one self-contained HTML page (--html), no script: the table
 * (its blank rows left out, as the terminal's), with --heatmap one SVG grid
 * per source on one colour scale, its axes ticked in seconds from the
 * trace's start and in page indexes, and in a view of stacks one flame graph
 * per source (flame.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/html.h"
#include "report/report-local.h"

#define PLOT_W	960.0	/* px: the grid, as wide as a flame graph */
#define PLOT_H	320.0	/* px: the grid's height at most */
#define MARGIN_L 78	/* the page index ticks and the axis's name */
#define MARGIN_R 150	/* the colour scale */
#define MARGIN_T 8
#define MARGIN_B 40	/* the time ticks and the axis's name */
#define FILL	"#b2182b"

static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}p.note{font-size:13px;color:#444}"
	"table.rep{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}"
	"table.rep th,table.rep td{padding:2px 8px;border-bottom:1px solid #eee;white-space:nowrap}"
	"table.rep th{background:#f6f6f4;text-align:right}table.rep td{text-align:right}"
	"table.rep td.key,table.rep th.key{text-align:left}tr.total td{font-weight:600}"
	"svg.heat{border:1px solid #ddd;background:#fff}.tick{font-size:11px;fill:#444}"
	".axis{font-size:12px;fill:#222}line.tick{stroke:#999}"
	"figure{margin:0 0 1em 0}figcaption{font-size:13px}"
	"svg.flame{background:#fcfcf6}svg.flame text{font-size:11px;font-family:monospace;"
	"fill:#000;pointer-events:none}";

static void td_u64(FILE *out, uint64_t v)
{
	fprintf(out, "<td>%" PRIu64 "</td>", v);
}

static void td_key(FILE *out, const char *key)
{
	fputs("<td class=\"key\">", out);
	rf_html_escape_str(out, key);
	fputs("</td>", out);
}

static void change(FILE *out, uint64_t base, uint64_t v)
{
	if (base)
		fprintf(out, "<td>%+.1f%%</td>", 100.0 * ((double)v - (double)base) / (double)base);
	else
		fprintf(out, "<td>%s</td>", v ? "new" : "");
}

/* --children: row @i's self count of source @s (SIZE_MAX: the total row, none) */
static void self_td(FILE *out, const struct rf_report *r, size_t i, size_t s)
{
	if (!r->children)
		return;
	if (i == SIZE_MAX)
		fputs("<td></td>", out);
	else
		td_u64(out, r->order[i].self[s][r->sort]);
}

static void table(FILE *out, const struct rf_report *r, size_t lines)
{
	int m, sort = r->sort;
	size_t i, s, shown = 0, blank = report_nr_blank(r);

	fputs("<table class=\"rep\"><tr>", out);
	if (r->nr_src == 1) {
		fputs(r->children ? "<th>children</th><th>self</th>" : "<th>share</th>", out);
		for (m = 0; m < RF_REPORT_NR_METRICS; m++)
			fprintf(out, "<th>%s</th>", rf_report_metric_name(m));
	} else {
		for (s = 0; s < r->nr_src; s++) {
			fputs(s ? "<th>%change</th><th>" : "<th>", out);
			rf_html_escape_str(out, r->src[s]->name);
			fprintf(out, " %s</th>", rf_report_metric_name(sort));
			if (r->children)
				fputs("<th>self</th>", out);
		}
	}
	fprintf(out, "<th class=\"key\">%s</th></tr>\n", rf_report_by_name(r->by));
	for (i = 0; i <= r->nr_rows; i++) {
		bool total = i == r->nr_rows;

		/* the rows with something to show, the first @lines of them; then the total */
		if (!total && (report_row_blank(r, i) || (lines && shown == lines)))
			continue;
		shown += !total;

		fputs(total ? "<tr class=\"total\">" : "<tr class=\"row\">", out);
		if (r->nr_src == 1) {
			const uint64_t *v = total ? r->src[0]->total : r->order[i].v[0];
			const uint64_t *t = r->src[0]->total;

			fprintf(out, "<td>%.2f%%</td>",
				t[sort] ? 100.0 * (double)v[sort] / (double)t[sort] : 0.0);
			if (r->children && total)
				fputs("<td></td>", out);
			else if (r->children)
				fprintf(out, "<td>%.2f%%</td>", t[sort] ? 100.0 *
					(double)r->order[i].self[0][sort] / (double)t[sort] : 0.0);
			for (m = 0; m < RF_REPORT_NR_METRICS; m++)
				td_u64(out, v[m]);
		} else {
			const uint64_t *b = total ? r->src[0]->total : r->order[i].v[0];

			td_u64(out, b[sort]);
			self_td(out, r, total ? SIZE_MAX : i, 0);
			for (s = 1; s < r->nr_src; s++) {
				const uint64_t *v = total ? r->src[s]->total : r->order[i].v[s];

				change(out, b[sort], v[sort]);
				td_u64(out, v[sort]);
				self_td(out, r, total ? SIZE_MAX : i, s);
			}
		}
		td_key(out, total ? "(total)" : r->order[i].key);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (shown < r->nr_rows - blank)
		fprintf(out, "<p class=\"note\">%zu more rows (--lines 0 shows all).</p>\n",
			r->nr_rows - blank - shown);
	if (blank)
		fprintf(out, "<p class=\"note\" id=\"blank\">%zu %s%s with %s%s left out: every count "
			"the table would show is 0 (--json lists them).</p>\n", blank,
			rf_report_by_name(r->by), blank > 1 ? "s" : "", r->nr_src > 1 ? "no " :
			"nothing counted", r->nr_src > 1 ? rf_report_metric_name(sort) : "");
}

/* Seconds from the trace's first event. */
static double secs_of(const struct report_heat *h, uint64_t t)
{
	return t > h->t_origin ? (double)(t - h->t_origin) / 1e9 : 0;
}

/* The cells' colour: white to deep red by the share of the busiest cell, never invisible. */
static double opacity(uint64_t v, uint64_t max)
{
	return 0.08 + 0.92 * (double)v / (double)(max ? max : 1);
}

/*
 * One source's grid: cells with their counts in tooltips, ticks along both
 * axes (seconds from the trace's start across, page indexes down), the axes'
 * names, and the colour scale.
 */
static void heat_svg(FILE *out, const struct rf_report *r, const struct report_heat *h,
		     uint64_t max)
{
	double cw = PLOT_W / h->cols, ch = floor(PLOT_H / h->rows), a, span, step, t, x, y, lo, pages;
	const char *metric = rf_report_metric_name(r->sort);
	unsigned int row, col, i, k;
	char label[32];
	double ht;

	if (ch > 24)
		ch = 24;
	if (ch < 2)
		ch = PLOT_H / h->rows;
	ht = ch * h->rows;
	fprintf(out, "<svg class=\"heat\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\">\n", MARGIN_L + PLOT_W + MARGIN_R, MARGIN_T + ht + MARGIN_B);
	for (row = 0; row < h->rows; row++)
		for (col = 0; col < h->cols; col++) {
			uint64_t v = h->cell[(size_t)row * h->cols + col][r->sort];

			if (!v)
				continue;
			fprintf(out, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" fill=\"" FILL "\" fill-opacity=\"%.3f\"><title>%" PRIu64
				" %s</title></rect>\n", MARGIN_L + col * cw, MARGIN_T + row * ch, cw, ch,
				opacity(v, max), v, metric);
		}
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.2f\" fill=\"none\" "
		"stroke=\"#999\"/>\n", MARGIN_L, MARGIN_T, PLOT_W, ht);

	/* page index down: ticks at round indexes */
	lo = (double)h->index_start;
	pages = (double)(h->index_end - h->index_start);
	step = report_tick_step(pages, ht / 40 >= 2 ? (unsigned int)(ht / 40) : 2);
	for (k = 0; k < REPORT_MAX_TICKS && (t = report_tick(lo, step, k)) < lo + pages; k++) {
		y = MARGIN_T + (t - lo) / pages * ht;
		fprintf(out, "<line class=\"tick\" x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>"
			"<text class=\"tick ytick\" x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%.0f</text>\n",
			MARGIN_L - 5, y, MARGIN_L, y, MARGIN_L - 7, y + 4, t);
	}
	fprintf(out, "<text class=\"axis\" transform=\"translate(14 %.2f) rotate(-90)\" "
		"text-anchor=\"middle\">page index</text>\n", MARGIN_T + ht / 2);

	/* time across: seconds from the trace's start, at round times */
	a = secs_of(h, h->t0);
	span = ((double)(h->t1 - h->t0) + 1) / 1e9;
	step = report_tick_step(span, 8);
	for (k = 0; k < REPORT_MAX_TICKS && (t = report_tick(a, step, k)) < a + span; k++) {
		x = MARGIN_L + (t - a) / span * PLOT_W;
		report_time_label(label, sizeof(label), t, step, a + span);
		fprintf(out, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>"
			"<text class=\"tick xtick\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s"
			"</text>\n", x, MARGIN_T + ht, x, MARGIN_T + ht + 5, x, MARGIN_T + ht + 17, label);
	}
	fprintf(out, "<text class=\"axis\" x=\"%.0f\" y=\"%.2f\" text-anchor=\"middle\">time since "
		"the trace's start</text>\n", MARGIN_L + PLOT_W / 2, MARGIN_T + ht + 34);

	/* the colour scale: five steps from one page to the busiest cell */
	fprintf(out, "<text class=\"tick\" x=\"%.0f\" y=\"%d\">%s per cell</text>\n",
		MARGIN_L + PLOT_W + 16, MARGIN_T + 10, metric);
	for (i = 0; i < 5; i++) {
		uint64_t v = i == 0 ? 1 : (uint64_t)ceil((double)max * i / 4);

		if (i && v <= 1)
			continue;
		y = MARGIN_T + 18 + i * 18;
		fprintf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"14\" fill=\"" FILL "\" "
			"fill-opacity=\"%.3f\" stroke=\"#ccc\"/><text class=\"tick\" x=\"%.0f\" "
			"y=\"%.0f\">%" PRIu64 "</text>\n", MARGIN_L + PLOT_W + 16, y, opacity(v, max),
			MARGIN_L + PLOT_W + 36, y + 11, v);
	}
	fputs("</svg>\n", out);
}

static void heatmaps(FILE *out, const struct rf_report *r)
{
	const struct report_heat *h0 = r->heat_key ? r->src[0]->heat : NULL;
	const char *metric = rf_report_metric_name(r->sort);
	uint64_t max = report_heat_busiest(r);
	char a[32], b[32], e[32], c[32];
	double span;
	size_t i;

	if (r->heat_none)
		fputs("<p class=\"note\">No heatmap: no decision of the trace is about a file.</p>\n",
		      out);
	if (!h0)
		return;
	span = ((double)(h0->t1 - h0->t0) + 1) / 1e9;
	report_time_label(a, sizeof(a), secs_of(h0, h0->t0), span / h0->cols, secs_of(h0, h0->t1));
	report_time_label(b, sizeof(b), secs_of(h0, h0->t1), span / h0->cols, secs_of(h0, h0->t1));
	report_time_label(e, sizeof(e), secs_of(h0, h0->t_end), span / h0->cols,
			  secs_of(h0, h0->t_end));
	report_time_label(c, sizeof(c), span / h0->cols, span / h0->cols / 10, span / h0->cols);
	fputs("<h2>Heatmap of ", out);
	rf_html_escape_str(out, r->heat_key);
	fprintf(out, "</h2>\n<p class=\"note\">The file's %s over time (across) and page index "
		"(down), a decision in the cell of its time and of its folio's first page; one colour "
		"scale for every source (the busiest cell: %" PRIu64 "). The axes span where they are: "
		"across, ", metric, max);
	if (h0->metric_seen)
		fprintf(out, "from the first (%s after the trace's start) to the last (%s)", a, b);
	else
		fprintf(out, "the file's decisions (none of them %s) from %s to %s after the trace's "
			"start", metric, a, b);
	fprintf(out, " of a trace of %s, %s a column; down, pages %" PRIu64 " to %" PRIu64, e, c,
		h0->index_start, h0->index_end - 1);
	if (h0->index_start || h0->file_end > h0->index_end)
		fprintf(out, " (the file's decisions reach page %" PRIu64 ")", h0->file_end - 1);
	fprintf(out, ", %.*f a row.</p>\n",
		(double)(h0->index_end - h0->index_start) / h0->rows >= 100 ? 0 : 1,
		(double)(h0->index_end - h0->index_start) / h0->rows);
	for (i = 0; i < r->nr_src; i++) {
		fputs("<figure><figcaption>", out);
		rf_html_escape_str(out, r->src[i]->name);
		if (!r->src[i]->decided) {
			fprintf(out, ": no decision at all%s.</figcaption></figure>\n",
				report_is_kernel(r, i) ? " (the trace has no page-cache observations: what "
				"the kernel decided is not known)" : "");
			continue;
		}
		fputs("</figcaption>\n", out);
		heat_svg(out, r, r->src[i]->heat, max);
		fputs("</figure>\n", out);
	}
}

static int flames(FILE *out, const struct rf_report *r)
{
	size_t i;
	int rc = 0;

	if (!report_by_stack(r->by))
		return 0;
	fprintf(out, "<h2>Flame graphs</h2>\n<p class=\"note\">Each source's %s by call stack: "
		"the outermost frame at the bottom, each frame as wide as the %s of the stacks through it (the "
		"whole width: the source's total, all), its callees above it, by name; refault "
		"report --folded gives the same stacks to other tools.</p>\n",
		rf_report_metric_name(r->sort), rf_report_metric_name(r->sort));
	for (i = 0; !rc && i < r->nr_src; i++) {
		fputs("<figure><figcaption>", out);
		rf_html_escape_str(out, r->src[i]->name);
		fputs("</figcaption>\n", out);
		rc = report_flame_svg(out, r, i);
		fputs("</figure>\n", out);
	}
	return rc;
}

int rf_report_write_html(const struct rf_report *r, FILE *out, size_t lines)
{
	uint64_t counted;
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>refault report: ", out);
	rf_html_escape_str(out, r->trace);
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>refault report: ", style);
	rf_html_escape_str(out, r->trace);
	fprintf(out, "</h1>\n<p class=\"note\">By %s%s, sorted by %s. Sources: ",
		rf_report_by_name(r->by), r->children ? " with children (a row per function on "
		"the stack, its callees' decisions too; self: where it is the innermost frame)" : "",
		rf_report_metric_name(r->sort));
	for (i = 0; i < r->nr_src; i++) {
		fputs(i ? ", " : "", out);
		rf_html_escape_str(out, r->src[i]->name);
	}
	fputs(" (kernel: its decisions from the trace's observations; a profile: the model's, "
	      "replaying the trace).</p>\n", out);
	if (r->kernel && !report_kernel_has_observations(r->kernel))
		fputs("<p class=\"note\">The trace has no page-cache observations (a generated "
		      "trace?): what the kernel decided is not known, and its column is empty.</p>\n",
		      out);
	if (rf_report_kernel_counted(r, &counted))
		fprintf(out, "<p class=\"note\">The kernel counted %" PRIu64 " workingset_refault_file "
			"(/proc/vmstat, last snapshot minus first); attributed to files here: %" PRIu64
			".</p>\n", counted,
			report_kernel_source(r->kernel)->total[RF_REPORT_REFAULTS]);
	table(out, r, lines);
	heatmaps(out, r);
	if (flames(out, r))
		return RF_ERR_NOMEM;
	fputs("</body></html>\n", out);
	return ferror(out) ? RF_ERR_IO : 0;
}
