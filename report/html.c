/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The report as one self-contained HTML page (--html): the table, with
 * --heatmap one SVG grid per source on one colour scale, and in a view of
 * stacks one flame graph per source (flame.c).  A small script counts what
 * was drawn, so that a headless browser can tell a page that rendered from
 * one that did not (tests/report/test-report-html.sh).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/html.h"
#include "report/report-local.h"

#define CELL_W	9	/* px per heatmap cell */
#define CELL_H	14
#define MARGIN_L 80
#define MARGIN_T 8
#define MARGIN_B 30

static const char style[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}p.note{font-size:13px;color:#444}"
	"table.rep{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}"
	"table.rep th,table.rep td{padding:2px 8px;border-bottom:1px solid #eee;white-space:nowrap}"
	"table.rep th{background:#f6f6f4;text-align:right}table.rep td{text-align:right}"
	"table.rep td.key,table.rep th.key{text-align:left}tr.total td{font-weight:600}"
	"svg.heat{border:1px solid #ddd;background:#fff}.tick{font-size:11px;fill:#444}"
	"figure{margin:0 0 1em 0}figcaption{font-size:13px}"
	"svg.flame{background:#fcfcf6}svg.flame text{font-size:11px;font-family:monospace;"
	"fill:#000;pointer-events:none}";

static const char script[] =
	"(function(){var h=document.querySelectorAll('svg.heat'),c=0,"
	"g=document.querySelectorAll('svg.flame');"
	"h.forEach(function(s){c+=s.querySelectorAll('rect.cell').length;});"
	"document.getElementById('status').textContent='loaded: '+"
	"document.querySelectorAll('table.rep tr.row').length+' rows, '+h.length+' heatmaps, '+"
	"c+' cells drawn, '+g.length+' flame graphs of '+"
	"document.querySelectorAll('rect.flame').length+' frames';})();";

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

static void table(FILE *out, const struct rf_report *r, size_t n)
{
	int m, sort = r->sort;
	size_t i, s;

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
	for (i = 0; i <= n; i++) {
		bool total = i == n;

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
	if (n < r->nr_rows)
		fprintf(out, "<p class=\"note\">%zu more rows (--lines 0 shows all)</p>\n",
			r->nr_rows - n);
}

static void heat_svg(FILE *out, const struct rf_report *r, const struct rp_heat *h, uint64_t max)
{
	unsigned int w = h->cols * CELL_W, ht = h->rows * CELL_H, row, col;
	double secs = (double)(h->t1 - h->t0) / 1e9;

	fprintf(out, "<svg class=\"heat\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\">\n", w + MARGIN_L + 8, ht + MARGIN_T + MARGIN_B);
	for (row = 0; row < h->rows; row++) {
		fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%u\" text-anchor=\"end\">%" PRIu64
			"</text>\n", MARGIN_L - 4, MARGIN_T + row * CELL_H + CELL_H - 3,
			(uint64_t)((double)h->index_end * row / h->rows));
		for (col = 0; col < h->cols; col++) {
			uint64_t v = h->cell[(size_t)row * h->cols + col][r->sort];

			if (!v)
				continue;
			/* white to deep red: the share of the busiest cell, never invisible */
			fprintf(out, "<rect class=\"cell\" x=\"%u\" y=\"%u\" width=\"%d\" height=\"%d\" "
				"fill=\"#b2182b\" fill-opacity=\"%.3f\"><title>%" PRIu64 " %s</title>"
				"</rect>\n", MARGIN_L + col * CELL_W, MARGIN_T + row * CELL_H, CELL_W,
				CELL_H, 0.08 + 0.92 * (double)v / (double)max, v,
				rf_report_metric_name(r->sort));
		}
	}
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%u\" height=\"%u\" fill=\"none\" "
		"stroke=\"#999\"/>\n", MARGIN_L, MARGIN_T, w, ht);
	fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%u\">0 s</text>\n", MARGIN_L,
		MARGIN_T + ht + 14);
	fprintf(out, "<text class=\"tick\" x=\"%u\" y=\"%u\" text-anchor=\"end\">%.3f s</text>\n",
		MARGIN_L + w, MARGIN_T + ht + 14, secs);
	fprintf(out, "<text class=\"tick\" x=\"%u\" y=\"%u\" text-anchor=\"middle\">time "
		"across, page index down</text>\n</svg>\n", MARGIN_L + w / 2, MARGIN_T + ht + 26);
}

static void heatmaps(FILE *out, const struct rf_report *r)
{
	uint64_t max = rp_heat_busiest(r);
	size_t i;

	if (r->heat_none)
		fputs("<p class=\"note\">No heatmap: no decision of the trace is about a file.</p>\n",
		      out);
	if (!r->heat_key)
		return;
	fputs("<h2>Heatmap of ", out);
	rf_html_escape_str(out, r->heat_key);
	fprintf(out, "</h2>\n<p class=\"note\">%s per cell: time across, page index down; one "
		"colour scale for every source (the busiest cell: %" PRIu64 ").</p>\n",
		rf_report_metric_name(r->sort), max);
	for (i = 0; i < r->nr_src; i++) {
		fputs("<figure><figcaption>", out);
		rf_html_escape_str(out, r->src[i]->name);
		fputs("</figcaption>\n", out);
		heat_svg(out, r, r->src[i]->heat, max);
		fputs("</figure>\n", out);
	}
}

static int flames(FILE *out, const struct rf_report *r)
{
	size_t i;
	int rc = 0;

	if (!rp_by_stack(r->by))
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
		rc = rp_flame_svg(out, r, i);
		fputs("</figure>\n", out);
	}
	return rc;
}

int rf_report_write_html(const struct rf_report *r, FILE *out, size_t lines)
{
	size_t n = lines && lines < r->nr_rows ? lines : r->nr_rows, i;
	uint64_t counted;

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
	if (rf_report_kernel_counted(r, &counted))
		fprintf(out, "<p class=\"note\">The kernel counted %" PRIu64 " workingset_refault_file "
			"(/proc/vmstat, last snapshot minus first); attributed to files here: %" PRIu64
			".</p>\n", counted, rp_kernel_source(r->kernel)->total[RF_REPORT_REFAULTS]);
	table(out, r, n);
	heatmaps(out, r);
	if (flames(out, r))
		return RF_ERR_NOMEM;
	fprintf(out, "<p id=\"status\">script did not run</p>\n<script>%s</script>\n"
		"</body></html>\n", script);
	return ferror(out) ? RF_ERR_IO : 0;
}
