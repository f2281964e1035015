/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The change table (refault compare --change PA,PB A B, docs/compare.md
 * "A change, kernel against model"): what a change did to the kernel
 * against what the models say it does.  A and B are the recordings of the
 * two kernels (groups of results files, a run each), every file a replay of
 * its trace through both profiles, PA the model of A's kernel and PB of B's.
 * Per counter of the recorded cgroup: the kernel's A -> B change (A's runs'
 * @kernel numbers against B's, judged by LKP's noise rules), and the models'
 * PA -> PB change replaying A's recordings and replaying B's.  Where the
 * kernel moved beyond its noise, the models agree when they move the same
 * way by 0.75x to 1.33x of it, or within 2 points where it moved under 5 %.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compare/compare-local.h"
#include "lib/html.h"
#include "lib/outfile.h"
#include "lib/term.h"

#define SCOPE "memcg.recorded."

/* The sides of the table: the kernels, then each side's recordings through both profiles. */
enum { K_A, K_B, FROM_A_PA, FROM_A_PB, FROM_B_PA, FROM_B_PB, NR_SIDES };

/*
 * The recorded cgroup's counters the table has even when the kernel kept
 * them still, if the models count them: refaults, scans, steals,
 * activations, refill, list sizes, the multi-gen LRU's generations.
 */
static const char *const listed[] = {
	"workingset_refault_file", "workingset_refault_anon", "workingset_activate_file",
	"workingset_activate_anon", "workingset_restore_file", "pgscan", "pgscan_kswapd",
	"pgscan_direct", "pgsteal", "pgsteal_kswapd", "pgsteal_direct", "pgactivate",
	"pgdeactivate", "pgrefill", "active_file", "inactive_file", "active_anon", "inactive_anon",
};

struct change {
	const struct rf_compare_ctx *c;
	struct rf_compare_files *files;
	struct rf_compare_side sides[NR_SIDES];
	struct rf_compare_report rep[3];	/* the kernel, from A's, from B's */
	bool built[3];
	const struct rf_compare_row **by_name[3];	/* [1], [2]: index_rows() */
	const char *profile[2];
	char err[RF_COMPARE_ERRLEN];
};

/* "f1.json,f2.json" with @config: "f1.json:CONFIG[@kernel],f2.json:CONFIG[@kernel]". */
static char *group_spec(const char *group, const char *config, bool kernel)
{
	size_t n = 1, len;
	const char *p;
	char *out, *o;

	for (p = group; (p = strchr(p, ',')); p++)
		n++;
	len = strlen(group) + n * (strlen(config) + 9) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	o = out;
	for (p = group; *p; ) {
		size_t k = strcspn(p, ",");

		o += snprintf(o, len - (size_t)(o - out), "%s%.*s:%s%s", o == out ? "" : ",",
			      (int)k, p, config, kernel ? "@kernel" : "");
		p += k + (p[k] == ',');
	}
	return out;
}

static int load(struct change *ch, int side, const char *group, int profile, bool kernel)
{
	char *spec = group_spec(group, ch->profile[profile], kernel);
	int ret;

	if (!spec)
		return RF_ERR_NOMEM;
	ret = compare_side_load(&ch->sides[side], ch->files, spec, ch->err, sizeof(ch->err));
	free(spec);
	return ret;
}

static bool is_listed(const char *name)
{
	size_t i;

	if (strncmp(name, SCOPE, strlen(SCOPE)))
		return false;
	name += strlen(SCOPE);
	if (!strncmp(name, "lru_gen.", 8))
		return true;
	for (i = 0; i < ARRAY_SIZE(listed); i++)
		if (!strcmp(name, listed[i]))
			return true;
	return false;
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct rf_compare_row *const *)a)->name,
		      (*(const struct rf_compare_row *const *)b)->name);
}

/* The rows of model report @i by name, for model_row() (n log n, not a scan per row). */
static int index_rows(struct change *ch, int i)
{
	const struct rf_compare_report *rep = &ch->rep[i];
	size_t k;

	ch->by_name[i] = calloc(rep->nrows + 1, sizeof(*ch->by_name[i]));
	if (!ch->by_name[i])
		return RF_ERR_NOMEM;
	for (k = 0; k < rep->nrows; k++)
		ch->by_name[i][k] = &rep->rows[k];
	qsort(ch->by_name[i], rep->nrows, sizeof(*ch->by_name[i]), row_cmp);
	return 0;
}

/* Metric @name in model report @i (1: from A's runs, 2: from B's), both profiles having it. */
static const struct rf_compare_row *model_row(const struct change *ch, int i, const char *name)
{
	struct rf_compare_row key = { .name = name };
	const struct rf_compare_row *kp = &key, *const *r;

	r = bsearch(&kp, ch->by_name[i], ch->rep[i].nrows, sizeof(*r), row_cmp);
	return r && (*r)->cell[0].present && (*r)->cell[1].present ? *r : NULL;
}

/* The kernel moved beyond its noise (LKP's rules, or apparent with fewer runs). */
static bool kernel_moved(const struct rf_compare_row *k)
{
	return k->cell[1].verdict.changed || k->cell[1].verdict.apparent;
}

static int sign(double v)
{
	return (v > 0) - (v < 0);
}

/*
 * Does model row @m's change agree with kernel row @k's?  "yes", "no", or ""
 * when the kernel did not move beyond its noise (nothing to agree with).
 * From 0, a change has no size: both from 0 the same way.
 */
static const char *agree(const struct rf_compare_row *k, const struct rf_compare_row *m)
{
	double kb = k->cell[0].mean, kn = k->cell[1].mean, kc, mc;

	if (!kernel_moved(k))
		return "";
	if (!m)
		return "no";
	if (kb == 0 || m->cell[0].mean == 0)
		return kb == 0 && m->cell[0].mean == 0 && sign(kn) == sign(m->cell[1].mean) ?
		       "yes" : "no";
	kc = k->cell[1].change;
	mc = m->cell[1].change;
	if (k->absolute || fabs(kc) < 5)
		return sign(kc) == sign(mc) && fabs(mc - kc) <= 2 ? "yes" : "no";
	return mc / kc >= 0.75 && mc / kc <= 1.33 ? "yes" : "no";
}

/*
 * Should the row of kernel counter @k be in the table?  With @all, every
 * counter of the kernel's; else the recorded cgroup's that the kernel moved
 * beyond its noise, and those listed that a model counts too.
 */
static bool wanted(const struct change *ch, const struct rf_compare_row *k, bool all)
{
	if (!k->cell[0].present && !k->cell[1].present)
		return false;
	if (all)
		return true;
	/* cgroup v1's total_X is X's hierarchical twin: the same count for the recorded leaf */
	if (!strncmp(k->name, SCOPE "total_", strlen(SCOPE "total_")))
		return false;
	if (!strncmp(k->name, SCOPE, strlen(SCOPE)) && kernel_moved(k))
		return true;
	return is_listed(k->name) && (model_row(ch, 1, k->name) || model_row(ch, 2, k->name));
}

/* A side's population %stddev over its runs in @pct; false for one run or a zero mean. */
static bool stddev_percent(const struct rf_compare_cell *c, double *pct)
{
	if (c->stddev < 0 || c->mean == 0)
		return false;
	*pct = 100 * c->stddev / fabs(c->mean);
	return true;
}

static json_object *json_stddev_pct(const struct rf_compare_cell *c)
{
	double pct;

	return stddev_percent(c, &pct) ? json_object_new_double(pct) : NULL;
}

static void stddev_pct(char *buf, size_t len, const struct rf_compare_cell *c)
{
	double pct;

	if (stddev_percent(c, &pct))
		snprintf(buf, len, "%7.0f%%", pct);
	else
		snprintf(buf, len, "%8s", "");
}

static void change_text(char *buf, size_t len, const struct rf_compare_row *r)
{
	if (r)
		compare_format_change(buf, len, r->cell[0].mean, r->cell[1].mean, r->absolute);
	else
		snprintf(buf, len, "%11s ", "-");
}

static void print_row(FILE *out, const struct change *ch, const struct rf_compare_row *k,
		      size_t *judged, size_t *agreed)
{
	const struct rf_compare_row *ma = model_row(ch, 1, k->name);
	const struct rf_compare_row *mb = model_row(ch, 2, k->name);
	const char *ya = agree(k, ma), *yb = agree(k, mb);
	char sa[16], sb[16], chg[32], cma[32], cmb[32];

	stddev_pct(sa, sizeof(sa), &k->cell[0]);
	stddev_pct(sb, sizeof(sb), &k->cell[1]);
	change_text(chg, sizeof(chg), k);
	change_text(cma, sizeof(cma), ma);
	change_text(cmb, sizeof(cmb), mb);
	fprintf(out, "%12.6g %s %s%s%12.6g %s  %s%-3s  %s%-3s  ", k->cell[0].mean, sa, chg,
		k->cell[1].verdict.apparent ? "?" : " ", k->cell[1].mean, sb, cma, ya, cmb, yb);
	compare_term_field(out, k->name, 0, 0);
	fputc('\n', out);
	if (*ya) {
		*judged += 2;
		*agreed += !strcmp(ya, "yes") + !strcmp(yb, "yes");
	}
}

static void print_head(FILE *out, const struct change *ch)
{
	fprintf(out, "the kernel: ");
	compare_term_field(out, ch->sides[K_A].spec, 0, 0);
	fprintf(out, " (%zu runs) -> ", ch->sides[K_A].runs);
	compare_term_field(out, ch->sides[K_B].spec, 0, 0);
	fprintf(out, " (%zu runs)\nthe models: ", ch->sides[K_B].runs);
	compare_term_field(out, ch->profile[0], 0, 0);
	fprintf(out, " -> ");
	compare_term_field(out, ch->profile[1], 0, 0);
	fprintf(out, ", replaying A's recordings and B's\n\n");
	fprintf(out, "%-56s  %-15s  %-15s\n", "the kernel, A -> B", "model, A's runs",
		"model, B's runs");
	fprintf(out, "%12s %8s %11s  %12s %8s  %11s %-3s  %11s %-3s\n", "A", "%stddev",
		"%change", "B", "%stddev", "%change", "ok?", "%change", "ok?");
}

static int print_table(const struct change *ch)
{
	FILE *out = ch->c->out;
	const struct rf_compare_report *k = &ch->rep[0];
	size_t i, judged = 0, agreed = 0;

	print_head(out, ch);
	for (i = 0; i < k->nrows; i++)
		if (wanted(ch, &k->rows[i], ch->c->o->all))
			print_row(out, ch, &k->rows[i], &judged, &agreed);
	fprintf(out, "\n%zu of %zu model changes agree with the kernel's where it moved beyond its "
		"noise ('?': fewer than 3 runs, not judged against noise)\n", agreed, judged);
	return ferror(out) ? RF_COMPARE_EXIT_FAILURE : RF_COMPARE_EXIT_OK;
}

static json_object *json_cell(const struct rf_compare_cell *base, const struct rf_compare_cell *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "a", json_object_new_double(base->mean));
	json_object_object_add(o, "b", json_object_new_double(c->mean));
	json_object_object_add(o, "change_percent",
			       base->mean ? json_object_new_double(c->change) : NULL);
	return o;
}

/* An agree() verdict in JSON: true, false, or null where there was nothing to agree with. */
static json_object *json_agree(const char *verdict)
{
	return *verdict ? json_object_new_boolean(!strcmp(verdict, "yes")) : NULL;
}

static int write_json(const struct change *ch)
{
	const struct rf_compare_report *k = &ch->rep[0];
	json_object *root = json_object_new_object(), *rows = json_object_new_array();
	size_t i;
	int ret;

	json_object_object_add(root, "kernel_a", json_object_new_string(ch->sides[K_A].spec));
	json_object_object_add(root, "kernel_b", json_object_new_string(ch->sides[K_B].spec));
	json_object_object_add(root, "profile_a", json_object_new_string(ch->profile[0]));
	json_object_object_add(root, "profile_b", json_object_new_string(ch->profile[1]));
	for (i = 0; i < k->nrows; i++) {
		const struct rf_compare_row *r = &k->rows[i];
		const struct rf_compare_row *ma = model_row(ch, 1, r->name);
		const struct rf_compare_row *mb = model_row(ch, 2, r->name);
		json_object *row, *kc;

		if (!wanted(ch, r, ch->c->o->all))
			continue;
		row = json_object_new_object();
		kc = json_cell(&r->cell[0], &r->cell[1]);
		json_object_object_add(kc, "runs_a", json_object_new_int64((int64_t)r->cell[0].n));
		json_object_object_add(kc, "runs_b", json_object_new_int64((int64_t)r->cell[1].n));
		json_object_object_add(kc, "stddev_percent_a", json_stddev_pct(&r->cell[0]));
		json_object_object_add(kc, "stddev_percent_b", json_stddev_pct(&r->cell[1]));
		json_object_object_add(kc, "moved", json_object_new_boolean(kernel_moved(r)));
		json_object_object_add(kc, "few_runs", json_object_new_boolean(r->cell[1].verdict.few_runs));
		json_object_object_add(row, "metric", json_object_new_string(r->name));
		json_object_object_add(row, "kernel", kc);
		json_object_object_add(row, "model_from_a", ma ? json_cell(&ma->cell[0], &ma->cell[1]) :
				       NULL);
		json_object_object_add(row, "model_from_b", mb ? json_cell(&mb->cell[0], &mb->cell[1]) :
				       NULL);
		json_object_object_add(row, "agree_from_a", json_agree(agree(r, ma)));
		json_object_object_add(row, "agree_from_b", json_agree(agree(r, mb)));
		json_object_array_add(rows, row);
	}
	json_object_object_add(root, "rows", rows);
	ret = fprintf(ch->c->out, "%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0;
	json_object_put(root);
	return ret || ferror(ch->c->out) ? RF_COMPARE_EXIT_FAILURE : RF_COMPARE_EXIT_OK;
}

static const char page_style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
	"th,td{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
	"th{background:#f3f3f3}th:first-child,td.m{text-align:left}td.m{font-family:monospace}"
	"td.yes{background:#d9f2d9}td.no{background:#f7d6d6}p.sum{font-weight:bold}";

/* A cell of @text without the padding the terminal's columns have. */
static void html_cell(FILE *out, const char *text, const char *cls)
{
	size_t n;

	text += strspn(text, " ");
	for (n = strlen(text); n && text[n - 1] == ' '; n--)
		;
	fprintf(out, "<td%s%s%s>", *cls ? " class=\"" : "", cls, *cls ? "\"" : "");
	rf_html_escape(out, text, n);
	fprintf(out, "</td>");
}

static void html_row(FILE *out, const struct change *ch, const struct rf_compare_row *k,
		     size_t *judged, size_t *agreed)
{
	const struct rf_compare_row *m[2] = { model_row(ch, 1, k->name), model_row(ch, 2, k->name) };
	char buf[64];
	int i;

	fprintf(out, "<tr><td class=\"m\">");
	rf_html_escape_str(out, k->name);
	fprintf(out, "</td><td>%.6g</td>", k->cell[0].mean);
	stddev_pct(buf, sizeof(buf), &k->cell[0]);
	html_cell(out, buf, "");
	change_text(buf, sizeof(buf), k);
	strcat(buf, k->cell[1].verdict.apparent ? "?" : "");
	html_cell(out, buf, "");
	fprintf(out, "<td>%.6g</td>", k->cell[1].mean);
	stddev_pct(buf, sizeof(buf), &k->cell[1]);
	html_cell(out, buf, "");
	for (i = 0; i < 2; i++) {
		const char *y = agree(k, m[i]);

		change_text(buf, sizeof(buf), m[i]);
		html_cell(out, buf, y);
		html_cell(out, y, y);
		*judged += !!*y;
		*agreed += !strcmp(y, "yes");
	}
	fprintf(out, "</tr>\n");
}

/* The table as a page, for --html: its rows coloured by agreement. */
static int html_page(FILE *out, const struct change *ch)
{
	const struct rf_compare_report *k = &ch->rep[0];
	size_t i, judged = 0, agreed = 0;
	int s;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>refault compare --change: ");
	rf_html_escape_str(out, ch->profile[0]);
	fprintf(out, " -&gt; ");
	rf_html_escape_str(out, ch->profile[1]);
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>The kernel's change against "
		"the models'</h1>\n<p>", page_style);
	for (s = K_A; s <= K_B; s++) {
		fprintf(out, "%s: ", s == K_A ? "Kernel A" : "<br>Kernel B");
		rf_html_escape_str(out, ch->sides[s].spec);
		fprintf(out, " (%zu runs)", ch->sides[s].runs);
	}
	fprintf(out, "<br>The models: ");
	rf_html_escape_str(out, ch->profile[0]);
	fprintf(out, " -&gt; ");
	rf_html_escape_str(out, ch->profile[1]);
	fprintf(out, ", replaying A's recordings and B's.</p>\n<table>\n<tr><th>counter</th>"
		"<th>A</th><th>%%stddev</th><th>%%change</th><th>B</th><th>%%stddev</th>"
		"<th>model, A's runs</th><th>agrees</th><th>model, B's runs</th><th>agrees</th></tr>\n");
	for (i = 0; i < k->nrows; i++)
		if (wanted(ch, &k->rows[i], ch->c->o->all))
			html_row(out, ch, &k->rows[i], &judged, &agreed);
	fprintf(out, "</table>\n<p class=\"sum\">%zu of %zu model changes agree with the kernel's "
		"where it moved beyond its noise.</p>\n<p>A model agrees when it moves the same way "
		"by 0.75 to 1.33 times the kernel's change, or within 2 points where the kernel's is "
		"under 5 %%; '?': fewer than 3 runs a side, not judged against noise; '-': no model "
		"counts it (docs/compare.md, \"A change, kernel against model\").</p>\n"
		"</body></html>\n", agreed, judged);
	return ferror(out) ? RF_ERR_IO : 0;
}

static int write_page(const struct change *ch, const char *path)
{
	struct rf_outfile o;
	char msg[1024];
	FILE *f;

	if (rf_outfile_open(&o, path, 0, msg, sizeof(msg))) {
		compare_say(ch->c->log, ch->c->out, RF_COMPARE_MESSAGE, "%s", msg);
		return RF_COMPARE_EXIT_FAILURE;
	}
	f = rf_outfile_stdio(&o);
	if (!f || html_page(f, ch)) {
		compare_say(ch->c->log, ch->c->out, RF_COMPARE_MESSAGE, "%s: write failed", path);
		rf_outfile_abandon(&o);
		return RF_COMPARE_EXIT_FAILURE;
	}
	if (rf_outfile_commit(&o, msg, sizeof(msg))) {
		compare_say(ch->c->log, ch->c->out, RF_COMPARE_MESSAGE, "%s", msg);
		return RF_COMPARE_EXIT_FAILURE;
	}
	return RF_COMPARE_EXIT_OK;
}

/* The two profiles of @pair ("PA,PB") into @ch->profile, in @buf. */
static int profiles(struct change *ch, const char *pair, char *buf, size_t len)
{
	char *comma;

	snprintf(buf, len, "%s", pair);
	comma = strchr(buf, ',');
	if (!comma || comma == buf || !comma[1] || strchr(comma + 1, ',') ||
	    strlen(pair) >= len)
		return -1;
	*comma = '\0';
	ch->profile[0] = buf;
	ch->profile[1] = comma + 1;
	return 0;
}

static int build(struct change *ch, const char *a, const char *b)
{
	static const struct { int side, profile; bool kernel, of_b; } what[NR_SIDES] = {
		[K_A] = { K_A, 0, true, false }, [K_B] = { K_B, 1, true, true },
		[FROM_A_PA] = { FROM_A_PA, 0, false, false }, [FROM_A_PB] = { FROM_A_PB, 1, false, false },
		[FROM_B_PA] = { FROM_B_PA, 0, false, true }, [FROM_B_PB] = { FROM_B_PB, 1, false, true },
	};
	int i, ret = 0;

	for (i = 0; i < NR_SIDES && !ret; i++)
		ret = load(ch, what[i].side, what[i].of_b ? b : a, what[i].profile, what[i].kernel);
	for (i = 0; i < 3 && !ret; i++) {
		ret = compare_report_build(&ch->rep[i], &ch->sides[2 * i], 2, true, ch->err,
					   sizeof(ch->err));
		ch->built[i] = !ret;
		if (!ret && i)
			ret = index_rows(ch, i);
	}
	return ret;
}

int compare_change(const struct rf_compare_ctx *c, const char *a, const char *b)
{
	struct change ch = { .c = c };
	char pair[256];
	int i, ret;

	if (profiles(&ch, c->o->change, pair, sizeof(pair))) {
		compare_say(c->log, c->out, RF_COMPARE_USAGE_ERROR, "--change takes two profiles, "
			    "A's kernel's then B's: --change v6.12,v6.12-mglru");
		return RF_COMPARE_EXIT_USAGE;
	}
	ch.files = compare_files_new();
	if (!ch.files) {
		compare_say(c->log, c->out, RF_COMPARE_MESSAGE, "out of memory");
		return RF_COMPARE_EXIT_FAILURE;
	}
	ret = build(&ch, a, b);
	if (ret)
		compare_say(c->log, c->out, RF_COMPARE_MESSAGE, "%s", ch.err[0] ? ch.err :
			    rf_strerror(ret));
	else
		ret = c->o->json ? write_json(&ch) : print_table(&ch);
	if (!ret && c->o->html)
		ret = write_page(&ch, c->o->html);
	for (i = 0; i < 3; i++) {
		free(ch.by_name[i]);
		if (ch.built[i])
			compare_report_release(&ch.rep[i]);
	}
	for (i = 0; i < NR_SIDES; i++)
		compare_side_release(&ch.sides[i]);
	compare_files_free(ch.files);
	return ret < 0 ? RF_COMPARE_EXIT_FAILURE : ret;
}
