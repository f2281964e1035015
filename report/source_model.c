/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model configurations as sources: one replay of the trace through all of
 * them (librefault-replay), each model telling its decisions to a probe of
 * its own (rf_model_set_decision_cb()).  The event being fed is the
 * reference a miss or refault belongs to (in the views of stacks, a
 * readahead's are its task's next reference's: ra_defer()); evictions and
 * activations go to the owner recorded at the folio's insertion.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/model.h>

#include "lib/grow.h"
#include "replayer/replay/replay.h"
#include "report/report-local.h"

/* A decision of a readahead, waiting for the reference it was for (the views of stacks). */
struct ra_decision {
	struct report_folio f;
	struct report_ref ref;
	int32_t pid;
	uint8_t metric;
};

struct model_src {
	struct report_source s;
	const struct rf_event *cur;	/* the event being fed; NULL at the end */
	struct ra_decision *ra;		/* in the views of stacks: unclaimed readahead decisions */
	size_t nr_ra, cap_ra;
};

/*
 * A readahead's folios are inserted when the model releases it, at the next
 * event it acts on: the read or fault the recorder wrote after it, or another
 * readahead of the same read (docs/model.md).  In the views of stacks its
 * misses and refaults wait for the task's next reference, whose stack they
 * are, as the kernel source's adds do (kernel.c).
 */
static bool ra_defer(struct model_src *ms, const struct report_folio *f,
		     const struct report_ref *ref, enum rf_report_metric metric)
{
	if (!report_by_stack(ms->s.by) || !ms->cur || ms->cur->type != RF_EV_FILE_READAHEAD)
		return false;
	if (RF_GROW(ms->ra, ms->cap_ra, ms->nr_ra + 1)) {
		ms->s.error = RF_ERR_NOMEM;
		return true;
	}
	ms->ra[ms->nr_ra++] = (struct ra_decision){ .f = *f, .ref = *ref, .pid = ms->cur->pid,
						    .metric = (uint8_t)metric };
	return true;
}

/* @pid's waiting decisions are the reference's of @stack (all of them, @pid 0: the end). */
static void ra_claim(struct model_src *ms, int32_t pid, uint32_t stack)
{
	size_t i, k = 0;

	for (i = 0; i < ms->nr_ra; i++) {
		struct ra_decision *d = &ms->ra[i];
		uint64_t *o;

		if (pid && d->pid != pid) {
			ms->ra[k++] = *d;
			continue;
		}
		d->ref.stack = stack;
		report_count(&ms->s, d->metric, &d->f, &d->ref, d->f.nr);
		/* the owner entry its insertion wrote, still there and still nobody's */
		o = d->metric == RF_REPORT_MISSES ?
		    report_map_get(&ms->s.owner, report_page_id(&d->f, 0)) : NULL;
		if (o && !REPORT_OWNER_WHO(*o))
			*o |= stack;
	}
	ms->nr_ra = k;
}

static void decided(enum rf_model_decision d, const struct rf_model_folio *mf, void *ctx)
{
	struct model_src *ms = ctx;
	struct report_source *s = &ms->s;
	struct report_folio f = {
		.anon = mf->anon, .dev = mf->dev, .ino = mf->anon ? mf->mm : mf->ino,
		.gen = mf->anon ? 0 : report_names_file_gen(&s->names, mf->dev, mf->ino),
		.index = mf->index, .nr = mf->nr,
	};
	struct report_ref ref = {
		.pid = ms->cur ? ms->cur->pid : 0, .stack = ms->cur ? ms->cur->stack : 0,
		.cgroup = mf->cgroup, .cgpath = mf->memcg,
	};
	const uint64_t *o;

	switch (d) {
	case RF_MODEL_INSERT:
		/* a folio is decided on as a whole: its head names it (a split's tails go unowned) */
		if (!s->error && report_map_put(&s->owner, report_page_id(&f, 0),
						report_who(s->by, ref.pid, ref.stack)))
			s->error = RF_ERR_NOMEM;
		if (!ra_defer(ms, &f, &ref, RF_REPORT_MISSES))
			report_count(s, RF_REPORT_MISSES, &f, &ref, f.nr);
		return;
	case RF_MODEL_REFAULT:
		if (!ra_defer(ms, &f, &ref, RF_REPORT_REFAULTS))
			report_count(s, RF_REPORT_REFAULTS, &f, &ref, f.nr);
		return;
	case RF_MODEL_ACTIVATE:
	case RF_MODEL_EVICT:
		o = report_map_get(&s->owner, report_page_id(&f, 0));
		ref = report_who_ref(s->by, o ? REPORT_OWNER_WHO(*o) : 0, mf->cgroup, mf->memcg);
		if (o || s->by == RF_REPORT_BY_FILE || s->by == RF_REPORT_BY_CGROUP)
			report_count(s, d == RF_MODEL_EVICT ? RF_REPORT_EVICTIONS : RF_REPORT_ACTIVATIONS,
				     &f, &ref, f.nr);
		else
			report_unattributed(s, d == RF_MODEL_EVICT ? RF_REPORT_EVICTIONS :
					    RF_REPORT_ACTIVATIONS, f.nr);
		if (o && d == RF_MODEL_EVICT)	/* the map holds what is resident */
			report_map_del(&s->owner, report_page_id(&f, 0), NULL);
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

/* A reference a stack can name (the type table's .stack), not the readahead written before it. */
static bool names_stack(uint16_t type)
{
	const struct rf_event_type_info *ti = rf_event_type_info(type);

	return ti && ti->stack;
}

static int before(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		  const struct rf_event *ev)
{
	struct model_src *ms = ctx;

	(void)m;
	(void)obs;
	ms->cur = ev;
	report_source_at(&ms->s, ev->time);
	if (ms->nr_ra && ev->pid > 0 && names_stack(ev->type))
		ra_claim(ms, ev->pid, ev->stack);
	return report_names_feed(&ms->s.names, ms->s.by, ev);
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

int report_models_run(const struct rf_report_opts *o, const char *const *profiles, size_t nr,
		      const struct report_heat *heat, struct report_source **out, char *err,
		      size_t errlen)
{
	struct rf_replay_opts ro = { .trace_path = o->trace_path, .threads = o->threads,
				     .skip_damaged = o->skip_damaged, .progress = o->progress,
				     .progress_ctx = o->progress_ctx,
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
		report_source_init(&ms->s, o);
		out[i] = &ms->s;
		if (heat && !(ms->s.heat = report_heat_new(heat))) {
			r = RF_ERR_NOMEM;
			break;
		}
		l.items[i].probe = &probe;
		l.items[i].probe_ctx = ms;
	}
	if (!r)
		r = rf_replay_run(&ro, &l, &res, err, errlen);
	/* readahead decisions no later reference claimed: no stack */
	for (i = 0; i < l.nr; i++) {
		struct model_src *ms = (struct model_src *)out[i];

		if (!ms)
			continue;
		if (!r)
			ra_claim(ms, 0, 0);
		if (!r)
			report_source_finish(&ms->s);
		free(ms->ra);
		ms->ra = NULL;
		ms->nr_ra = 0;
	}
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
