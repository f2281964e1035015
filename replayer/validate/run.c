/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The run: the trace through the replay engine, one configuration (the
 * recording kernel's profile), and a probe on its model.  At every counter
 * snapshot in the trace both sides are captured, so each quantity can be
 * compared per phase.  The recorder writes a snapshot as soon as it reads
 * the counters, while events from just before it are still in its merge
 * window: a capture is taken when the first event later than the snapshot
 * arrives, not at the snapshot.
 *
 * Captures are kept within CAPTURE_VALUES values in all (each holds every
 * cgroup's quantities, both sides): past it every other capture is dropped
 * and from then on every 2nd snapshot is captured, then every 4th..., so
 * that a trace of many snapshots and many cgroups costs bounded time and
 * memory (a note says so; phases then span several snapshots).
 *
 * The kernel side is the engine's own account (librefault-observe), which
 * the probe sees as it stands before each event.  Before the first event
 * the engine's warm stage gives the model the pages the trace finds cached;
 * what the model counted for them is taken off every capture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "replayer/replay/replay.h"
#include "replayer/validate/validate-local.h"

#define MADV_PAGEOUT_ADVICE	21	/* linux/mman.h */

/*
 * Captured values kept at most (cgroups x quantities, over every capture):
 * 2 Mi of them, 8 bytes each in the 5 arrays of a capture, are 80 MiB; a
 * recording of 3 cgroups (5 with the root and the unattributed) keeps
 * 24,672 snapshots, 41 minutes of them at 100 ms, before any is dropped.
 */
#define CAPTURE_VALUES		(1ull << 21)

struct vrun {
	struct rf_validation *v;
	const struct rf_observe *k;	/* the engine's account of the kernel */
	uint64_t *freed;		/* per cgroup: file pages freed by fadvise/truncate */
	size_t nr_freed, cap_freed;
	uint64_t freed_global;
	uint64_t *before;		/* model usage per cgroup before such an event */
	size_t cap_before;
	uint64_t file_before;
	bool pending;			/* a snapshot waits for its capture */
	uint64_t pending_t;
	uint64_t last_time;
	const char *marker;
	size_t cap_caps, cap_markers;
	uint64_t snapshots;		/* snapshots seen (captured or not) */
	uint64_t stride;		/* every stride-th snapshot is captured (1, 2, 4...) */
	uint64_t values;		/* cgroups x quantities over the captures kept */
	bool baseline;			/* take the model's counters at the start off every capture */
	struct counter_map base;	/* model counters before the first event */
};

/* ------------------------------------------------------------ captures */

/* The freed counts cover every cgroup the kernel side knows of. */
static int grow_freed(struct vrun *r, size_t n)
{
	if (r->nr_freed >= n)
		return 0;
	if (RF_GROW(r->freed, r->cap_freed, n))
		return RF_ERR_NOMEM;
	memset(r->freed + r->nr_freed, 0, (n - r->nr_freed) * sizeof(*r->freed));
	r->nr_freed = n;
	return 0;
}

/* Drop every other capture but the first: caps[i] was snapshot i * stride, now 2 * stride. */
static void thin_captures(struct vrun *r)
{
	struct rf_validation *v = r->v;
	size_t i, n = 0;

	r->values = 0;
	for (i = 0; i < v->nr_caps; i++) {
		if (i % 2) {
			validate_capture_release(&v->caps[i]);
			continue;
		}
		v->caps[n++] = v->caps[i];
		r->values += v->caps[i].nr_cg * RF_OBS_NR;
	}
	v->nr_caps = n;
	r->stride *= 2;
}

static int capture(struct vrun *r, const struct rf_model *m, uint64_t t)
{
	struct rf_validation *v = r->v;
	struct validate_capture *c;
	int e;

	if (RF_GROW(v->caps, r->cap_caps, v->nr_caps + 1))
		return RF_ERR_NOMEM;
	c = &v->caps[v->nr_caps];
	memset(c, 0, sizeof(*c));
	v->nr_caps++;
	c->time = t;
	c->marker = r->marker;
	e = validate_kernel_capture(r->k, c);
	if (!e)
		e = grow_freed(r, c->nr_cg);
	if (!e)
		e = validate_model_capture(m, r->k, c, r->freed, r->freed_global,
					   r->baseline ? &r->base : NULL);
	r->pending = false;
	r->values += c->nr_cg * RF_OBS_NR;
	return e;
}

/* The capture of a snapshot: every stride-th is taken, within CAPTURE_VALUES. */
static int capture_snapshot(struct vrun *r, const struct rf_model *m, uint64_t t)
{
	int e = 0;

	if (r->snapshots++ % r->stride == 0)
		e = capture(r, m, t);
	r->pending = false;
	while (!e && r->values > CAPTURE_VALUES && r->v->nr_caps > 2)
		thin_captures(r);
	return e;
}

/* ------------------------------------------------ fadvise and truncate */

/*
 * The model counts no page-cache deletions: measure what an invalidation
 * frees as the drop of charged pages across it, made local to each cgroup
 * (the model's usage is hierarchical, like page_counter) by taking the
 * children's drops off.
 */
static int frees_before(struct vrun *r, const struct rf_model *m)
{
	size_t n = rf_observe_nr_cgroups(r->k);

	if (RF_GROW(r->before, r->cap_before, n))
		return RF_ERR_NOMEM;
	return validate_model_usage(m, r->k, r->before, n, &r->file_before);
}

static int frees_after(struct vrun *r, const struct rf_model *m)
{
	size_t n = rf_observe_nr_cgroups(r->k), i;
	uint64_t *a = calloc(n, sizeof(*a)), file;
	int64_t *drop = calloc(n, sizeof(*drop));
	int e = a && drop ? validate_model_usage(m, r->k, a, n, &file) : RF_ERR_NOMEM;

	if (!e)
		e = grow_freed(r, n);
	for (i = 0; !e && i < n; i++)
		drop[i] = (int64_t)r->before[i] - (int64_t)a[i];
	for (i = 0; !e && i < n; i++) {
		int p = rf_observe_cgroup(r->k, i)->parent_idx;

		/* an unnamed root (index 0) holds no children: its count is local already */
		if (p > 0 && rf_observe_cgroup(r->k, p)->id)
			drop[p] -= (int64_t)r->before[i] - (int64_t)a[i];
	}
	for (i = 0; !e && i < n; i++)
		if (drop[i] > 0)
			r->freed[i] += (uint64_t)drop[i];
	if (!e && r->file_before > file)
		r->freed_global += r->file_before - file;
	free(a);
	free(drop);
	return e;
}

/* -------------------------------------------------------------- probe */

static int note_marker(struct vrun *r, const char *text)
{
	struct rf_validation *v = r->v;

	if (RF_GROW(v->markers, r->cap_markers, v->nr_markers + 1))
		return RF_ERR_NOMEM;
	v->markers[v->nr_markers] = strdup(text ? text : "");
	if (!v->markers[v->nr_markers])
		return RF_ERR_NOMEM;
	r->marker = v->markers[v->nr_markers++];
	return 0;
}

static bool invalidates(const struct rf_event *ev)
{
	return ev->type == RF_EV_FADVISE || ev->type == RF_EV_TRUNCATE;
}

static int on_start(void *ctx, struct rf_model *m)
{
	struct vrun *r = ctx;

	return r->baseline ? validate_model_baseline(m, &r->base) : 0;
}

static int on_before(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		     const struct rf_event *ev)
{
	struct vrun *r = ctx;
	int e = 0;

	r->k = obs;
	if (!r->v->events++)
		r->v->t0 = ev->time;
	if (r->pending && ev->type != RF_EV_COUNTERS && ev->time > r->pending_t)
		e = capture_snapshot(r, m, r->pending_t);
	if (!e && invalidates(ev))
		e = frees_before(r, m);
	return e;
}

static int on_after(void *ctx, const struct rf_model *m, const struct rf_event *ev)
{
	struct vrun *r = ctx;
	int e = 0;

	if (invalidates(ev))
		e = frees_after(r, m);
	if (ev->type == RF_EV_MADVISE && ev->u.vma.advice == MADV_PAGEOUT_ADVICE)
		r->v->madv_pageout++;
	if (!e && ev->type == RF_EV_MARKER)
		e = note_marker(r, ev->u.marker.text);
	if (ev->type == RF_EV_COUNTERS) {
		r->pending_t = r->pending && r->pending_t > ev->time ? r->pending_t : ev->time;
		r->pending = true;
	}
	if (ev->time > r->last_time && ev->type != RF_EV_END)
		r->last_time = ev->time;
	return e;
}

static int on_finish(void *ctx, const struct rf_model *m, const struct rf_observe *obs,
		     uint64_t t_end)
{
	struct vrun *r = ctx;
	struct rf_validation *v = r->v;

	(void)t_end;	/* the last event's time but END's, kept by on_after() */
	r->k = obs;
	if (r->pending || !v->nr_caps || v->caps[v->nr_caps - 1].time < r->last_time)
		return capture(r, m, r->pending ? r->pending_t : r->last_time);
	return 0;
}

static const struct rf_replay_probe validate_probe = {
	.start = on_start, .before = on_before, .after = on_after, .finish = on_finish,
};

/* ---------------------------------------------------------------- run */

/* The trace's header, to choose the profile before the engine opens it. */
static int read_header(struct rf_validation *v, const char *path, char *err, size_t errlen)
{
	struct rf_trace_reader *rd = NULL;
	int e = rf_trace_reader_open(&rd, path, 0);

	if (e)
		snprintf(err, errlen, "%s: %s", path,
			 rd && *rf_trace_reader_errmsg(rd) ? rf_trace_reader_errmsg(rd) :
			 rf_strerror(e));
	else
		v->header = *rf_trace_reader_header(rd);
	rf_trace_reader_close(rd);
	return e;
}

static int configure(struct vrun *r, const struct rf_validate_opts *o, struct rf_config_list *l,
		     char *err, size_t errlen)
{
	struct rf_validation *v = r->v;
	int e;

	if (o->profile) {
		snprintf(v->profile, sizeof(v->profile), "%s", o->profile);
		snprintf(v->profile_why, sizeof(v->profile_why), "given with --profile");
	} else {
		snprintf(v->profile, sizeof(v->profile), "%s",
			 rf_model_profile_for_release(v->header.host.kernel_release, v->profile_why,
						  sizeof(v->profile_why)));
		/* the multi-gen LRU on: that release's -mglru row, where it has one */
		if (rf_trace_host_lru_gen_on(&v->header.host)) {
			char mglru[sizeof(v->profile)];

			snprintf(mglru, sizeof(mglru), "%.*s-mglru", (int)sizeof(v->profile) - 7,
				 v->profile);
			if (rf_model_profile_summary(mglru)) {
				snprintf(v->profile, sizeof(v->profile), "%s", mglru);
				snprintf(v->profile_why + strlen(v->profile_why),
					 sizeof(v->profile_why) - strlen(v->profile_why),
					 ", its multi-gen LRU row (lru_gen/enabled %s)",
					 v->header.host.lru_gen);
			}
		}
	}
	/* a profile file's path goes whole; the configuration is named by the file's name */
	e = rf_config_list_add_profiles(l, o->profile ? o->profile : v->profile, o->sets, o->nr_sets,
					err, errlen);
	if (!e) {
		l->items[0].probe = &validate_probe;
		l->items[0].probe_ctx = r;
		if (o->profile && strcmp(l->items[0].profile, o->profile)) {
			snprintf(v->profile, sizeof(v->profile), "%s", l->items[0].profile);
			snprintf(v->profile_why, sizeof(v->profile_why), "the profile file %.200s",
				 o->profile);
		}
	}
	return e;
}

static int replay(struct vrun *r, const char *path, const struct rf_validate_opts *o,
		  char *err, size_t errlen)
{
	struct rf_replay_opts ro = {
		.trace_path = path, .threads = o->threads ? o->threads : 1,
		.progress = o->progress, .progress_ctx = o->progress_ctx, .warm_cache = !o->cold_cache, .observe_pages = true,
		.allow_mglru = o->allow_mglru,
	};
	struct rf_config_list l = { 0 };
	struct rf_replay_result *res = NULL;
	int e = configure(r, o, &l, err, errlen);

	if (!e)
		e = rf_replay_run(&ro, &l, &res, err, errlen);
	if (!e) {
		r->v->kernel = rf_replay_result_take_observe(res);
		r->v->preloaded = rf_replay_result_preloaded(res);
		r->v->preloaded_shadows = rf_replay_result_preloaded_shadows(res,
									     &r->v->preloaded_recent);
		r->v->kernel_reads = rf_replay_result_kernel_reads(res);
	}
	rf_replay_result_free(res);
	rf_config_list_free(&l);
	return e;
}

int rf_validate_run(struct rf_validation **out, const char *path,
		    const struct rf_validate_opts *o, char *err, size_t errlen)
{
	struct vrun r = { 0 };
	int e;

	*out = NULL;
	err[0] = '\0';
	r.v = calloc(1, sizeof(*r.v));
	if (!r.v)
		return RF_ERR_NOMEM;
	r.v->tolerance = o->tolerance;
	r.v->slack = o->slack;
	r.v->cold_cache = o->cold_cache;
	r.v->main_cg = -1;
	r.baseline = !o->cold_cache;
	r.stride = 1;
	e = read_header(r.v, path, err, errlen);
	if (!e)
		e = replay(&r, path, o, err, errlen);
	r.v->snapshots = r.snapshots;
	r.v->capture_stride = r.stride;
	r.v->capture_values = CAPTURE_VALUES;
	if (!e && !rf_observe_any(r.v->kernel)) {
		snprintf(err, errlen, "%s has no kernel observations (%s): nothing to validate "
			 "against; record it with refault record", path,
			 r.v->header.synthetic ? "a synthetic trace" : "no page-cache, LRU, "
			 "reclaim or counter events");
		e = RF_ERR_INVAL;
	}
	if (!e)
		e = validate_rows_build(r.v);
	free(r.freed);
	free(r.before);
	counter_map_destroy(&r.base);
	if (e) {
		rf_validation_free(r.v);
		if (!err[0])
			snprintf(err, errlen, "%s", rf_strerror(e));
		return e;
	}
	*out = r.v;
	return 0;
}

size_t rf_validation_nr_bad(const struct rf_validation *v)
{
	return v->nr_bad;
}

void rf_validation_free(struct rf_validation *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->nr_caps; i++)
		validate_capture_release(&v->caps[i]);
	free(v->caps);
	free(v->rows);
	for (i = 0; i < v->nr_markers; i++)
		free(v->markers[i]);
	free(v->markers);
	rf_observe_free(v->kernel);
	free(v);
}
