/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Results as JSON (docs/results-format.md) and as a short summary for a person. */
#include <stdio.h>
#include <string.h>

#include <refault/trace-json.h>

#include "lib/compiler.h"
#include "lib/term.h"
#include "replayer/replay/replay-local.h"

struct named {
	const struct replay_cgroup_names *cn;
	json_object *o;
};

static int add_counter(const char *key, uint64_t value, void *ctx)
{
	struct named *n = ctx;
	char buf[RF_MAX_STRING + 64];

	key = replay_cgroup_names_key(n->cn, key, buf, sizeof(buf));
	if (key)
		json_object_object_add(n->o, key, json_object_new_uint64(value));
	return 0;
}

/* @o's keys under the results' cgroup names (a new object; @o is put). */
static json_object *renamed(json_object *o, const struct replay_cgroup_names *cn)
{
	json_object *r;
	char buf[RF_MAX_STRING + 64];

	if (!cn->recorded[0])
		return o;
	r = json_object_new_object();
	json_object_object_foreach(o, key, val) {
		const char *k = replay_cgroup_names_key(cn, key, buf, sizeof(buf));

		if (k)
			json_object_object_add(r, k, json_object_get(val));
	}
	json_object_put(o);
	return r;
}

static json_object *series_json(const struct replay_series *s, const struct replay_cgroup_names *cn)
{
	json_object *ts = replay_series_to_json(s), *series;

	if (json_object_object_get_ex(ts, "series", &series))
		json_object_object_add(ts, "series", renamed(json_object_get(series), cn));
	return ts;
}

/* The kernel's account under the same cgroup names as the model's counters. */
static json_object *observed_json(const struct rf_replay_result *res,
				  const struct replay_cgroup_names *cn)
{
	json_object *all = json_object_new_object();

	if (res->observe)
		rf_observe_to_json(res->observe, all);
	return renamed(all, cn);
}

static int add_alias(const char *kernel_name, const char *name, void *ctx)
{
	json_object_object_add(ctx, kernel_name, json_object_new_string(name));
	return 0;
}

struct describe_ctx {
	json_object *settings;
	json_object *overridden;
};

static int add_setting(const char *key, const char *value, bool overridden, void *ctx)
{
	struct describe_ctx *d = ctx;

	json_object_object_add(d->settings, key, json_object_new_string(value));
	if (overridden)
		json_object_object_add(d->overridden, key, json_object_new_string(value));
	return 0;
}

/* The first configuration's model, NULL if every one is a reference policy. */
static const struct rf_model *first_model(const struct rf_replay_result *res)
{
	size_t i;

	for (i = 0; i < res->nr; i++)
		if (res->runs[i].model)
			return res->runs[i].model;
	return NULL;
}

static json_object *run_stats(const struct replay_model_run *mr,
			      const struct replay_cgroup_names *cn)
{
	json_object *stats = json_object_new_object();
	struct named n = { cn, stats };
	char key[96];
	unsigned int t;

	if (mr->model)
		rf_model_counters(mr->model, add_counter, &n);
	else
		replay_policy_run_counters(mr->policy, add_counter, &n);
	json_object_object_add(stats, "replay.events", json_object_new_uint64(mr->events));
	json_object_object_add(stats, "replay.out_of_order_events", json_object_new_uint64(mr->out_of_order));
	for (t = 0; t < RF_EV_TYPE_MAX; t++) {
		if (!mr->by_type[t] || !rf_event_type_name(t))
			continue;
		snprintf(key, sizeof(key), "replay.events.%s", rf_event_type_name(t));
		json_object_object_add(stats, key, json_object_new_uint64(mr->by_type[t]));
	}
	return stats;
}

static json_object *config_json(const struct rf_replay_result *res,
				const struct replay_model_run *mr,
				const struct replay_cgroup_names *cn)
{
	struct describe_ctx d = { json_object_new_object(), json_object_new_object() };
	json_object *c = json_object_new_object(), *aliases;

	json_object_object_add(c, "name", json_object_new_string(mr->conf->name));
	json_object_object_add(c, "profile", json_object_new_string(mr->conf->profile));
	if (mr->policy) {
		rf_policy_config_describe(mr->conf->policy, add_setting, &d);
		json_object_object_add(d.settings, "cache_from",
				       json_object_new_string(replay_policy_run_capacity_from(mr->policy)));
	} else {
		rf_model_config_describe(mr->conf->cfg, add_setting, &d);
	}
	json_object_object_add(c, "settings", d.settings);
	json_object_object_add(c, "overridden", d.overridden);
	json_object_object_add(c, "stats", run_stats(mr, cn));
	aliases = json_object_new_object();
	if (mr->model)
		rf_model_aliases(mr->model, add_alias, aliases);
	json_object_object_add(c, "aliases", aliases);
	json_object_object_add(c, "observed", observed_json(res, cn));
	if (mr->series)
		json_object_object_add(c, "timeseries", series_json(mr->series, cn));
	if (replay_series_samples(res->kernel_series))
		json_object_object_add(c, "observed_timeseries", series_json(res->kernel_series, cn));
	return c;
}

json_object *rf_replay_result_json(const struct rf_replay_result *res, bool with_run)
{
	json_object *o = json_object_new_object(), *trace = json_object_new_object(), *configs, *ver, *run;
	struct replay_cgroup_names cn;
	char fp[17];
	size_t i;

	if (replay_cgroup_names_init(&cn, &res->header, first_model(res), res->observe,
				     res->all_cgroups)) {
		replay_cgroup_names_release(&cn);
		json_object_put(o);
		json_object_put(trace);
		return NULL;
	}
	json_object_object_add(o, "format", json_object_new_string("refault-results"));
	ver = json_object_new_array();
	json_object_array_add(ver, json_object_new_int(1));
	json_object_array_add(ver, json_object_new_int(0));
	json_object_object_add(o, "version", ver);
	json_object_object_add(trace, "path", json_object_new_string(res->trace_path));
	json_object_object_add(trace, "bytes", json_object_new_uint64(res->trace_bytes));
	snprintf(fp, sizeof(fp), "%016llx", (unsigned long long)res->fingerprint);
	json_object_object_add(trace, "fingerprint", json_object_new_string(fp));
	json_object_object_add(trace, "header", rf_header_to_json(&res->header));
	json_object_object_add(trace, "events", json_object_new_uint64(res->nr ? res->runs[0].events : 0));
	json_object_object_add(trace, "events_skipped", json_object_new_uint64(res->events_skipped));
	json_object_object_add(trace, "chunks_damaged", json_object_new_uint64(res->chunks_damaged));
	json_object_object_add(trace, "lost_events", json_object_new_uint64(rf_replay_result_lost(res)));
	if (res->chunks_damaged)
		json_object_object_add(trace, "first_damage", json_object_new_string(res->first_damage));
	if (cn.recorded[0])
		json_object_object_add(trace, "recorded_cgroup", json_object_new_string(cn.recorded));
	if (res->warm_cache) {
		json_object_object_add(trace, "warm_cache_pages", json_object_new_uint64(res->preloaded));
		json_object_object_add(trace, "warm_shadow_pages",
				       json_object_new_uint64(res->preloaded_shadows));
		json_object_object_add(trace, "warm_shadow_recent_pages",
				       json_object_new_uint64(res->preloaded_recent));
		json_object_object_add(trace, "warm_kernel_read_pages",
				       json_object_new_uint64(res->kernel_reads));
	}
	json_object_object_add(o, "trace", trace);
	configs = json_object_new_array();
	for (i = 0; i < res->nr; i++)
		json_object_array_add(configs, config_json(res, &res->runs[i], &cn));
	json_object_object_add(o, "configs", configs);
	if (with_run) {
		double eps = res->wall_seconds > 0 && res->nr ?
			(double)res->runs[0].events / res->wall_seconds : 0;

		run = json_object_new_object();
		json_object_object_add(run, "threads", json_object_new_int((int)res->threads));
		json_object_object_add(run, "wall_seconds", json_object_new_double(res->wall_seconds));
		json_object_object_add(run, "events_per_second", json_object_new_double(eps));
		json_object_object_add(run, "peak_rss_bytes", json_object_new_uint64(res->peak_rss_bytes));
		json_object_object_add(o, "run", run);
	}
	replay_cgroup_names_release(&cn);
	return o;
}


/*
 * Pages cached before the trace began are misses to a model that starts
 * empty: the reads a cached file gives look like reads from disk, charged to
 * the reader.  Where the kernel's page-cache adds were recorded and the
 * models added many more, say so, and what to do.
 */
static void precached_note(const struct rf_replay_result *res, FILE *out)
{
	json_object *obs, *v;
	uint64_t added = 0, kernel = 0;

	if (res->warm_cache || !first_model(res) || !res->observe ||
	    !strstr(res->header.sources, "mm_filemap_add_to_page_cache") ||
	    !rf_model_counter(first_model(res), "model.file_pages_added", &added))
		return;
	obs = json_object_new_object();
	if (obs && !rf_observe_to_json(res->observe, obs) &&
	    json_object_object_get_ex(obs, "obs.pagecache_add", &v))
		kernel = json_object_get_uint64(v);
	json_object_put(obs);
	if (added > kernel + (kernel / 10 > 1024 ? kernel / 10 : 1024))
		fprintf(out, "note: the models read %llu pages into the page cache where the kernel "
			"added %llu: the others were cached before the trace began, and a model "
			"starts empty; --warm-cache gives them to every model first, as refault "
			"validate does\n", (unsigned long long)added, (unsigned long long)kernel);
}

/*
 * A summary column: @name of the recorded cgroup ("memcg.<path>.<name>")
 * when the trace has one, else the global "vmstat.<name>"; "pgsteal" is
 * kswapd's and direct reclaim's together.
 */
static bool summary_value(const struct rf_model *m, const char *rec, const char *name, uint64_t *v)
{
	char key[RF_MAX_STRING + 64];
	uint64_t d;

	if (!strcmp(name, "est_kernel_ms"))
		return rf_model_counter(m, "cost.estimated_ns", v);
	if (!strcmp(name, "pgsteal"))
		return summary_value(m, rec, "pgsteal_kswapd", v) &&
		       summary_value(m, rec, "pgsteal_direct", &d) && (*v += d, true);
	if (*rec)
		snprintf(key, sizeof(key), "memcg.%s.%s", rec, name);
	else
		snprintf(key, sizeof(key), "vmstat.%s", name);
	return rf_model_counter(m, key, v);
}

/* The reference policies: references, misses and their ratio, in pages of the capacity. */
static void policy_summary(const struct rf_replay_result *res, size_t width, FILE *out)
{
	static const char *const cols[] = {
		"policy.capacity_pages", "policy.refs", "policy.hits", "policy.misses",
		"policy.miss_pages", "policy.evictions",
	};
	static const char *const titles[] = {
		"cache_pages", "refs", "hits", "misses", "miss_pages", "evictions",
	};
	uint64_t v, refs, misses;
	bool head = false;
	size_t i, c;

	for (i = 0; i < res->nr; i++) {
		const struct replay_policy_run *p = res->runs[i].policy;

		if (!p)
			continue;
		if (!head) {
			fprintf(out, "%-*s", (int)width, "policy");
			for (c = 0; c < ARRAY_SIZE(cols); c++)
				fprintf(out, " %13s", titles[c]);
			fprintf(out, " %10s\n", "miss_ratio");
			head = true;
		}
		fprintf(out, "%-*s", (int)width, res->runs[i].conf->name);
		for (c = 0; c < ARRAY_SIZE(cols); c++) {
			v = 0;
			replay_policy_run_counter(p, cols[c], &v);
			fprintf(out, " %13llu", (unsigned long long)v);
		}
		refs = misses = 0;
		replay_policy_run_counter(p, "policy.refs", &refs);
		replay_policy_run_counter(p, "policy.misses", &misses);
		fprintf(out, " %10.4f\n", refs ? (double)misses / (double)refs : 0.0);
	}
}

void rf_replay_result_summary(const struct rf_replay_result *res, FILE *out)
{
	static const char *const cols[] = {
		"workingset_refault_file", "workingset_activate_file", "pgactivate", "pgscan_kswapd",
		"pgscan_direct", "pgsteal", "est_kernel_ms",
	};
	static const char *const titles[] = {
		"refault", "ws_activate", "pgactivate", "pgscan_kswapd", "pgscan_direct", "pgsteal",
		"est_kernel_ms",
	};
	struct replay_cgroup_names cn;
	size_t i, c, width = 6;
	uint64_t v;

	if (rf_replay_result_lost(res))
		fprintf(out, "WARNING: the kernel lost %llu records while this trace was recorded: "
			"every count below is short (record again with a larger --buffer-size)\n",
			(unsigned long long)rf_replay_result_lost(res));
	fputs("refault replay: ", out);
	rf_term_escape_str(out, res->trace_path);
	fprintf(out, ", %llu events, %zu configuration%s, %.2f s\n",
		(unsigned long long)(res->nr ? res->runs[0].events : 0), res->nr, res->nr == 1 ? "" : "s",
		res->wall_seconds);
	if (res->warm_cache)
		fprintf(out, "warm cache: %llu pages cached before the trace given to every model, "
			"in the root memcg; %llu pages it adds were refaults of shadows left "
			"before it (%llu recent); %llu pages the kernel read for itself (no "
			"reference names their files) read into every model at their adds\n",
			(unsigned long long)res->preloaded,
			(unsigned long long)res->preloaded_shadows,
			(unsigned long long)res->preloaded_recent,
			(unsigned long long)res->kernel_reads);
	if (res->chunks_damaged)
		fprintf(out, "WARNING: %llu damaged chunk(s) skipped (%llu events known lost): %s\n",
			(unsigned long long)res->chunks_damaged, (unsigned long long)res->events_skipped,
			res->first_damage);
	precached_note(res, out);
	if (replay_cgroup_names_init(&cn, &res->header, first_model(res), res->observe, false))
		cn.recorded[0] = 0;
	if (cn.recorded[0]) {
		fputs("counts of the recorded cgroup ", out);
		rf_term_escape_str(out, cn.recorded);	/* the trace's text */
		fputs(" (memcg.recorded.*; global: vmstat.*)\n", out);
	}
	for (i = 0; i < res->nr; i++)
		width = strlen(res->runs[i].conf->name) > width ? strlen(res->runs[i].conf->name) : width;
	if (first_model(res)) {
		fprintf(out, "%-*s", (int)width, "config");
		for (c = 0; c < ARRAY_SIZE(cols); c++)
			fprintf(out, " %13s", titles[c]);
		fputc('\n', out);
	}
	for (i = 0; i < res->nr; i++) {
		if (!res->runs[i].model)
			continue;
		fprintf(out, "%-*s", (int)width, res->runs[i].conf->name);
		for (c = 0; c < ARRAY_SIZE(cols); c++) {
			if (!summary_value(res->runs[i].model, cn.recorded, cols[c], &v))
				fprintf(out, " %13s", "-");
			else if (!strcmp(cols[c], "est_kernel_ms"))
				fprintf(out, " %13.1f", (double)v / 1e6);
			else
				fprintf(out, " %13llu", (unsigned long long)v);
		}
		fputc('\n', out);
	}
	policy_summary(res, width, out);
	if (res->nr > 1 && first_model(res))
		fprintf(out, "est_kernel_ms prices each profile's own operations (docs/model.md, "
			"\"Cost model\"): v6.x moves a large folio in one where v4.x moves each page, "
			"so across eras it compares the kernels' work, not a cost per page\n");
	replay_cgroup_names_release(&cn);
}
