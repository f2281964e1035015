/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A validation as a text table (with the divergences and notes under it) or as JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include <refault/errors.h>

#include "lib/utf8.h"
#include "lib/term.h"
#include "replayer/validate/validate-local.h"

static double secs(const struct rf_validation *v, uint64_t t)
{
	return t > v->t0 ? (double)(t - v->t0) / 1e9 : 0.0;
}

/* Phase @p runs from the capture before it (or the first event) to capture @p. */
static void phase_span(const struct rf_validation *v, int p, double *from, double *to)
{
	*from = p > 0 ? secs(v, v->caps[p - 1].time) : 0.0;
	*to = secs(v, v->caps[p].time);
}

static const char *fmt_err(const struct validate_row *r, char *buf, size_t len)
{
	if (isinf(r->err_pct))
		snprintf(buf, len, "%s", "inf");
	else
		snprintf(buf, len, "%+.1f%%", r->err_pct);
	return buf;
}

static void header(const struct rf_validation *v, FILE *out)
{
	const struct rf_trace_host *h = &v->header.host;
	uint64_t lost = rf_observe_lost_events(v->kernel);

	if (lost)
		fprintf(out, "WARNING: the kernel lost %llu records while this trace was recorded: the "
			"model missed what they held (record again with a larger --buffer-size)\n",
			(unsigned long long)lost);
	fputs("kernel:    ", out);
	rf_term_escape_str(out, h->kernel_release);
	fprintf(out, ", %u CPUs, %llu MiB, swap %llu MiB, THP ", h->cpus,
		(unsigned long long)(h->mem_bytes >> 20), (unsigned long long)(h->swap_bytes >> 20));
	rf_term_escape_str(out, h->thp_mode[0] ? h->thp_mode : "?");
	fputc('\n', out);
	fprintf(out, "profile:   %s (%s)\n", v->profile, v->profile_why);
	if (v->cold_cache)
		fprintf(out, "tolerance: %.1f%% + %llu pages (of which %llu cached before the "
			"trace), ", v->tolerance * 100, (unsigned long long)v->slack,
			(unsigned long long)v->precached);
	else if (v->slack == RF_VALIDATE_DEFAULT_SLACK)
		fprintf(out, "tolerance: %.1f%% + %llu pages (the default floor: pages no trace shows, "
			"such as the program's text; --slack 0 for none), ", v->tolerance * 100,
			(unsigned long long)v->slack);
	else
		fprintf(out, "tolerance: %.1f%% + %llu pages, ", v->tolerance * 100,
			(unsigned long long)v->slack);
	fprintf(out, "+ %llu for memory.stat rows (flush threshold), + %llu for file lists "
		"(a folio)\n", (unsigned long long)v->stat_slack,
		(unsigned long long)v->folio_slack);
	if (v->cold_cache)
		fprintf(out, "cache:     cold: the model starts empty (--cold-cache)\n");
	else
		fprintf(out, "cache:     %llu pages cached before the trace pre-loaded into the "
			"model's root memcg; %llu pages it adds were refaults of shadows left "
			"before it (%llu recent); %llu pages the kernel read for itself (file "
			"system metadata: no reference names their files) read in at their adds\n",
			(unsigned long long)v->preloaded,
			(unsigned long long)v->preloaded_shadows,
			(unsigned long long)v->preloaded_recent,
			(unsigned long long)v->kernel_reads);
	fprintf(out, "phases:    %zu capture(s) at counter snapshots, %zu marker(s); %llu events\n",
		v->nr_caps, v->nr_markers, (unsigned long long)v->events);
}

/* Row notes are few distinct strings: number them in order of first use. */
static size_t note_number(const struct rf_validation *v, const char *note)
{
	const char *seen[32];
	size_t i, j, n = 0;

	for (i = 0; i < v->nr_rows && n < 32; i++) {
		const char *x = v->rows[i].note;

		for (j = 0; x && j < n; j++)
			if (seen[j] == x)
				x = NULL;
		if (!x)
			continue;
		seen[n++] = x;
		if (x == note)
			return n;
	}
	return 0;
}

static void table(const struct rf_validation *v, FILE *out)
{
	const char *scope = "";
	size_t i;

	fprintf(out, "\n%-26s %12s %12s %9s  %-4s %-4s %s\n", "quantity (pages)", "kernel",
		"model", "error", "ok", "note", "kernel source");
	for (i = 0; i < v->nr_rows; i++) {
		const struct validate_row *r = &v->rows[i];
		char e[32];

		if (strcmp(scope, r->scope)) {
			scope = r->scope;
			rf_term_escape_str(out, scope);
			fputc('\n', out);
		}
		char nb[16] = "";

		if (r->note)
			snprintf(nb, sizeof(nb), "[%zu]", note_number(v, r->note));
		if (r->not_recorded) {
			fprintf(out, "  %-24s %12s %12llu %9s  %-4s %-4s %s\n", rf_obs_q_name(r->q),
				"not recorded", (unsigned long long)r->model, "", "", nb, r->source);
			continue;
		}
		fprintf(out, "  %-24s %12llu %12llu %9s  %-4s %-4s %s\n", rf_obs_q_name(r->q),
			(unsigned long long)r->kernel, (unsigned long long)r->model,
			fmt_err(r, e, sizeof(e)), !r->gated ? (r->ok ? "(ok)" : "(no)") :
			r->ok ? "yes" : "NO", nb, r->source);
	}
}

static void divergences(const struct rf_validation *v, FILE *out)
{
	size_t i;

	if (!v->nr_bad) {
		fprintf(out, "\nevery gated quantity is within %.1f%%\n", v->tolerance * 100);
		return;
	}
	fprintf(out, "\n%zu quantities out of tolerance:\n", v->nr_bad);
	for (i = 0; i < v->nr_rows; i++) {
		const struct validate_row *r = &v->rows[i];
		double from = 0, to = 0;
		char e[32];

		if (!r->gated || r->ok)
			continue;
		fputs("  ", out);
		rf_term_escape_str(out, r->scope);
		fprintf(out, " %s: kernel %llu, model %llu (%s)", rf_obs_q_name(r->q),
			(unsigned long long)r->kernel, (unsigned long long)r->model,
			fmt_err(r, e, sizeof(e)));
		if (r->phase >= 0) {
			phase_span(v, r->phase, &from, &to);
			fprintf(out, ", diverges in phase %d (+%.3fs..+%.3fs)", r->phase, from, to);
			if (v->caps[r->phase].marker) {
				fputs(" after marker \"", out);
				rf_term_escape_str(out, v->caps[r->phase].marker);
				fputc('"', out);
			}
		}
		fputc('\n', out);
	}
	/* counters at the start and the end only: one phase, which says nothing of when */
	if (v->nr_caps <= 2)
		fprintf(out, "  (the trace has counter snapshots at its start and end only: record with "
			"--snapshot-interval 1s to see in which phase a quantity leaves the kernel)\n");
}

static void notes(const struct rf_validation *v, FILE *out)
{
	size_t i, shown = 0;

	fprintf(out, "\nnotes (\"(ok)\"/\"(no)\": shown, not gated):\n");
	for (i = 0; i < v->nr_notes; i++) {
		fputs("  - ", out);
		rf_term_escape_str(out, v->notes[i]);	/* may quote the trace's names */
		fputc('\n', out);
	}
	for (i = 0; i < v->nr_rows; i++) {
		const char *n = v->rows[i].note;

		if (!n || note_number(v, n) != shown + 1)
			continue;
		fprintf(out, "  [%zu] ", ++shown);
		rf_term_escape_str(out, n);
		fputc('\n', out);
	}
	if (!v->nr_notes && !shown)
		fprintf(out, "  - none\n");
}

/* The main cgroup's gauges and refaults at every capture. */
static void series(const struct rf_validation *v, FILE *out)
{
	static const enum rf_obs_q qs[] = { RF_OBS_REFAULT_FILE, RF_OBS_STEAL_FILE, RF_OBS_ACTIVE_FILE, RF_OBS_INACTIVE_FILE,
				      RF_OBS_ACTIVE_ANON, RF_OBS_INACTIVE_ANON };
	const struct validate_row *rows[6] = { 0 };
	size_t i, c, j;

	if (v->main_cg < 0)
		return;
	for (i = 0; i < v->nr_rows; i++)
		for (j = 0; j < 6; j++)
			if (v->rows[i].q == qs[j] &&
			    !strcmp(v->rows[i].scope, rf_observe_cgroup(v->kernel, v->main_cg)->path))
				rows[j] = &v->rows[i];
	fputs("\ntime series of ", out);
	rf_term_escape_str(out, rf_observe_cgroup(v->kernel, v->main_cg)->path);
	fprintf(out, " (kernel/model):\n%9s", "t");
	for (j = 0; j < 6; j++)
		if (rows[j])
			fprintf(out, " %23s", rf_obs_q_name(qs[j]));
	fputc('\n', out);
	for (c = 0; c < v->nr_caps; c++) {
		fprintf(out, "%8.3fs", secs(v, v->caps[c].time));
		for (j = 0; j < 6; j++) {
			uint64_t k = 0, m = 0;
			char cell[48];

			if (!rows[j])
				continue;
			if (validate_row_at(v, rows[j], c, &k, &m))
				snprintf(cell, sizeof(cell), "%llu/%llu", (unsigned long long)k,
					 (unsigned long long)m);
			else
				snprintf(cell, sizeof(cell), "-");
			fprintf(out, " %23s", cell);
		}
		fputc('\n', out);
	}
}

void rf_validation_print(const struct rf_validation *v, FILE *out, bool with_series)
{
	header(v, out);
	table(v, out);
	divergences(v, out);
	notes(v, out);
	if (with_series)
		series(v, out);
}

/* ---------------------------------------------------------------- JSON */

static json_object *row_json(const struct rf_validation *v, const struct validate_row *r)
{
	json_object *o = json_object_new_object(), *ts = json_object_new_array();
	size_t c;

	json_object_object_add(o, "scope", json_object_new_string(r->scope));
	json_object_object_add(o, "quantity", json_object_new_string(rf_obs_q_name(r->q)));
	json_object_object_add(o, "kernel", r->not_recorded ? NULL : json_object_new_uint64(r->kernel));
	if (r->not_recorded)
		json_object_object_add(o, "not_recorded", json_object_new_boolean(true));
	json_object_object_add(o, "model", json_object_new_uint64(r->model));
	json_object_object_add(o, "error_pct", isinf(r->err_pct) ? NULL :
			       json_object_new_double(r->err_pct));
	json_object_object_add(o, "within_tolerance", json_object_new_boolean(r->ok));
	json_object_object_add(o, "gated", json_object_new_boolean(r->gated));
	json_object_object_add(o, "slack_pages", json_object_new_uint64(r->slack));
	json_object_object_add(o, "phase", r->phase >= 0 ? json_object_new_int(r->phase) : NULL);
	json_object_object_add(o, "kernel_source", json_object_new_string(r->source));
	json_object_object_add(o, "note", r->note ? json_object_new_string(r->note) : NULL);
	for (c = 0; c < v->nr_caps; c++) {
		uint64_t k, m;
		json_object *p;

		if (!validate_row_at(v, r, c, &k, &m))
			continue;
		p = json_object_new_array();
		json_object_array_add(p, json_object_new_double(secs(v, v->caps[c].time)));
		json_object_array_add(p, json_object_new_uint64(k));
		json_object_array_add(p, json_object_new_uint64(m));
		json_object_array_add(ts, p);
	}
	json_object_object_add(o, "series", ts);
	return o;
}

int rf_validation_print_json(const struct rf_validation *v, FILE *out)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array();
	json_object *notes = json_object_new_array(), *phases = json_object_new_array();
	size_t i;
	int rc;

	if (!o || !rows || !notes || !phases)
		return RF_ERR_NOMEM;
	json_object_object_add(o, "kernel_release",
			       json_object_new_string(v->header.host.kernel_release));
	json_object_object_add(o, "profile", json_object_new_string(v->profile));
	json_object_object_add(o, "lost_events", json_object_new_uint64(rf_observe_lost_events(v->kernel)));
	json_object_object_add(o, "profile_reason", json_object_new_string(v->profile_why));
	json_object_object_add(o, "tolerance", json_object_new_double(v->tolerance));
	json_object_object_add(o, "slack_pages", json_object_new_uint64(v->slack));
	json_object_object_add(o, "precached_pages", json_object_new_uint64(v->precached));
	json_object_object_add(o, "preloaded_pages", json_object_new_uint64(v->preloaded));
	json_object_object_add(o, "preloaded_shadow_pages",
			       json_object_new_uint64(v->preloaded_shadows));
	json_object_object_add(o, "preloaded_shadow_recent_pages",
			       json_object_new_uint64(v->preloaded_recent));
	json_object_object_add(o, "kernel_read_pages", json_object_new_uint64(v->kernel_reads));
	json_object_object_add(o, "cold_cache", json_object_new_boolean(v->cold_cache));
	json_object_object_add(o, "stat_slack_pages", json_object_new_uint64(v->stat_slack));
	json_object_object_add(o, "folio_slack_pages", json_object_new_uint64(v->folio_slack));
	json_object_object_add(o, "events", json_object_new_uint64(v->events));
	json_object_object_add(o, "out_of_tolerance", json_object_new_uint64(v->nr_bad));
	for (i = 0; i < v->nr_caps; i++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "t", json_object_new_double(secs(v, v->caps[i].time)));
		json_object_object_add(p, "marker", v->caps[i].marker ?
				       json_object_new_string(v->caps[i].marker) : NULL);
		json_object_array_add(phases, p);
	}
	json_object_object_add(o, "phases", phases);
	for (i = 0; i < v->nr_rows; i++)
		json_object_array_add(rows, row_json(v, &v->rows[i]));
	json_object_object_add(o, "rows", rows);
	for (i = 0; i < v->nr_notes; i++)
		json_object_array_add(notes, json_object_new_string(v->notes[i]));
	json_object_object_add(o, "notes", notes);
	rc = rf_utf8_json_write(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE), out);
	json_object_put(o);
	if (rc)
		return errno == ENOMEM ? RF_ERR_NOMEM : RF_ERR_IO;
	fputc('\n', out);
	return ferror(out) ? RF_ERR_IO : 0;
}
