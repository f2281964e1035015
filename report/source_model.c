/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model configurations as sources: one replay of the trace through all of
 * them (librefault-replay), each model telling its decisions to a probe of
 * its own (rf_model_set_decision_cb()).  The event being fed is the
 * reference a miss or refault belongs to (its stack too: a file_readahead
 * is inserted with the read or fault written after it, docs/model.md);
 * evictions and activations go to the owner recorded at the folio's
 * insertion.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/model.h>

#include "replayer/replay/replay.h"
#include "report/report-local.h"

struct model_src {
	struct rp_source s;
	const struct rf_event *cur;	/* the event being fed; NULL at the end */
};

static void decided(enum rf_model_decision d, const struct rf_model_folio *mf, void *ctx)
{
	struct model_src *ms = ctx;
	struct rp_source *s = &ms->s;
	struct rp_folio f = { .anon = mf->anon, .dev = mf->dev, .ino = mf->anon ? mf->mm : mf->ino,
			      .index = mf->index, .nr = mf->nr };
	struct rp_ref ref = { .pid = ms->cur ? ms->cur->pid : 0, .stack = ms->cur ? ms->cur->stack : 0,
			      .cgroup = mf->cgroup, .cgpath = mf->memcg };
	const uint64_t *o;

	switch (d) {
	case RF_MODEL_INSERT:
		/* a folio is decided on as a whole: its head names it (a split's tails go unowned) */
		if (!s->error && rp_map_put(&s->owner, rp_page_id(&f, 0),
					    rp_who(s->by, ref.pid, ref.stack)))
			s->error = RF_ERR_NOMEM;
		rp_count(s, RF_REPORT_MISSES, &f, &ref, f.nr);
		return;
	case RF_MODEL_REFAULT:
		rp_count(s, RF_REPORT_REFAULTS, &f, &ref, f.nr);
		return;
	case RF_MODEL_ACTIVATE:
	case RF_MODEL_EVICT:
		o = rp_map_get(&s->owner, rp_page_id(&f, 0));
		ref = rp_who_ref(s->by, o ? RP_OWNER_WHO(*o) : 0, mf->cgroup, mf->memcg);
		if (o || s->by == RF_REPORT_BY_FILE || s->by == RF_REPORT_BY_CGROUP)
			rp_count(s, d == RF_MODEL_EVICT ? RF_REPORT_EVICTIONS : RF_REPORT_ACTIVATIONS,
				 &f, &ref, f.nr);
		else
			rp_unattributed(s, d == RF_MODEL_EVICT ? RF_REPORT_EVICTIONS :
					RF_REPORT_ACTIVATIONS, f.nr);
		if (o && d == RF_MODEL_EVICT)	/* the map holds what is resident */
			rp_map_del(&s->owner, rp_page_id(&f, 0), NULL);
		return;
	default:
		return;
	}
}

static int start(void *ctx, struct rf_model *m)
{
	rf_model_set_decision_cb(m, decided, ctx);
	return 0;
}

static int before(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		  const struct rf_event *ev)
{
	struct model_src *ms = ctx;

	(void)m;
	(void)obs;
	ms->cur = ev;
	ms->s.now = ev->time;
	return rp_names_feed(&ms->s.names, ms->s.by, ev);
}

static int after(void *ctx, const struct rf_model *m, const struct rf_event *ev)
{
	struct model_src *ms = ctx;

	(void)m;
	(void)ev;
	ms->cur = NULL;
	return ms->s.error;
}

static const struct rf_replay_probe probe = { .start = start, .before = before, .after = after };

/* "PROFILE[,KEY=VALUE...]": the profile, its own settings, then those of every configuration. */
static int add_config(struct rf_config_list *l, const char *entry, const struct rf_report_opts *o,
		      char *err, size_t errlen)
{
	char *copy = strdup(entry), *save = NULL, *profile, *kv;
	char **sets = calloc(strlen(entry) / 2 + 1 + o->nr_sets, sizeof(*sets));
	size_t n = 0, i;
	int r = RF_ERR_NOMEM;

	if (copy && sets) {
		profile = strtok_r(copy, ",", &save);
		while ((kv = strtok_r(NULL, ",", &save)))
			sets[n++] = kv;
		for (i = 0; i < o->nr_sets; i++)
			sets[n++] = o->sets[i];
		r = rf_config_list_add_profiles(l, profile ? profile : "", sets, n, err, errlen);
	}
	free(sets);
	free(copy);
	return r;
}

int rp_models_run(const struct rf_report_opts *o, const char *const *profiles, size_t nr,
		  const struct rp_heat *heat, struct rp_source **out, char *err, size_t errlen)
{
	struct rf_replay_opts ro = { .trace_path = o->trace_path, .threads = o->threads,
				     .skip_damaged = o->skip_damaged, .progress = o->progress,
				     .warm_cache = o->warm_cache, .allow_mglru = true };
	struct rf_config_list l = { 0 };
	struct rf_replay_result *res = NULL;
	size_t i;
	int r = 0;

	for (i = 0; i < nr && !r; i++)
		r = add_config(&l, profiles[i], o, err, errlen);
	for (i = 0; i < l.nr && !r; i++) {
		struct model_src *ms = calloc(1, sizeof(*ms));

		if (!ms || !(ms->s.name = strdup(l.items[i].name))) {
			free(ms);
			r = RF_ERR_NOMEM;
			break;
		}
		rp_source_init(&ms->s, o);
		out[i] = &ms->s;
		if (heat && !(ms->s.heat = rp_heat_new(heat))) {
			r = RF_ERR_NOMEM;
			break;
		}
		l.items[i].probe = &probe;
		l.items[i].probe_ctx = ms;
	}
	if (!r)
		r = rf_replay_run(&ro, &l, &res, err, errlen);
	if (!r && o->check_fingerprint && rf_replay_result_fingerprint(res) != o->fingerprint) {
		snprintf(err, errlen, "%s is not the trace the results replayed (its fingerprint is "
			 "%016" PRIx64 ", the results say %016" PRIx64 "): give the results with the "
			 "trace they were made from", o->trace_path, rf_replay_result_fingerprint(res),
			 o->fingerprint);
		r = RF_ERR_CORRUPT;
	}
	rf_replay_result_free(res);
	rf_config_list_free(&l);
	return r;
}
