/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The replay: one model, fed the trace in file order, and the kernel side
 * fed the same events.  At every counter snapshot in the trace both sides
 * are captured, so each quantity can be compared per phase.  The recorder
 * writes a snapshot as soon as it reads the counters, while events from
 * just before it are still in its merge window: a capture is taken when
 * the first event later than the snapshot arrives, not at the snapshot.
 *
 * Before the first event the model is given the pages the trace finds
 * cached (warm.c), and what it counted for them is taken off every capture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/errors.h>

#include "replayer/validate/validate.h"

#define MADV_PAGEOUT_ADVICE	21	/* linux/mman.h */

struct vrun {
	struct rf_validation *v;
	struct rf_model *m;
	struct vkernel *k;
	uint32_t page_size;
	uint64_t *freed;		/* per cgroup: file pages freed by fadvise/truncate */
	size_t nr_freed;
	uint64_t freed_global;
	uint64_t *before;		/* model usage per cgroup before such an event */
	uint64_t file_before;
	bool pending;			/* a snapshot waits for its capture */
	uint64_t pending_t;
	uint64_t last_time;
	const char *marker;
	bool observed;			/* the trace has observations at all */
	struct vmap base;		/* model counters before the first event */
};

/* ------------------------------------------------------------ profile */

static const struct {
	unsigned int major, minor;
	const char *profile;
} releases[] = {
	{ 4, 5, "v4.5" }, { 4, 6, "v4.6" }, { 4, 9, "v4.9" }, { 5, 10, "v5.10" },
	{ 6, 18, "v6.18" },
};

const char *rf_validate_pick_profile(const char *release, char *why, size_t whylen)
{
	size_t n = sizeof(releases) / sizeof(releases[0]), i, pick = 0;
	unsigned int major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2) {
		snprintf(why, whylen, "kernel release '%s' unreadable: the newest profile",
			 release ? release : "");
		return releases[n - 1].profile;
	}
	for (i = 0; i < n; i++)
		if (releases[i].major < major ||
		    (releases[i].major == major && releases[i].minor <= minor))
			pick = i;
	if (releases[pick].major == major && releases[pick].minor == minor)
		snprintf(why, whylen, "recorded on %u.%u: the profile of that release", major,
			 minor);
	else if (releases[pick].major > major ||
		 (releases[pick].major == major && releases[pick].minor > minor))
		snprintf(why, whylen, "recorded on %u.%u, older than every profile: the oldest",
			 major, minor);
	else
		snprintf(why, whylen, "recorded on %u.%u, which has no profile of its own: "
			 "the nearest older one (check docs/model.md for what changed since)",
			 major, minor);
	return releases[pick].profile;
}

static int make_model(struct vrun *r, const struct rf_validate_opts *o, char *err,
		      size_t errlen)
{
	struct rf_validation *v = r->v;
	struct rf_model_config *c;
	size_t i;
	int e;

	if (o->profile) {
		snprintf(v->profile, sizeof(v->profile), "%s", o->profile);
		snprintf(v->profile_why, sizeof(v->profile_why), "given with --profile");
	} else {
		snprintf(v->profile, sizeof(v->profile), "%s",
			 rf_validate_pick_profile(v->header.host.kernel_release, v->profile_why,
						  sizeof(v->profile_why)));
	}
	e = rf_model_config_new(&c, v->profile);
	if (e) {
		snprintf(err, errlen, "unknown profile '%s'", v->profile);
		return e;
	}
	for (i = 0; i < o->nr_sets && !e; i++) {
		char key[256];
		const char *eq = strchr(o->sets[i], '=');

		if (!eq || (size_t)(eq - o->sets[i]) >= sizeof(key)) {
			snprintf(err, errlen, "--set '%s': want KEY=VALUE", o->sets[i]);
			e = RF_ERR_CONFIG;
			break;
		}
		memcpy(key, o->sets[i], eq - o->sets[i]);
		key[eq - o->sets[i]] = '\0';
		e = rf_model_config_set(c, key, eq + 1, err, errlen);
	}
	if (!e) {
		rf_model_config_from_header(c, &v->header);
		e = rf_model_new(&r->m, c, err, errlen);
	}
	rf_model_config_free(c);
	return e;
}

/* ------------------------------------------------------------ captures */

static int capture(struct vrun *r, uint64_t t)
{
	struct rf_validation *v = r->v;
	struct vcapture *c, *n;
	int e;

	n = realloc(v->caps, (v->nr_caps + 1) * sizeof(*n));
	if (!n)
		return RF_ERR_NOMEM;
	v->caps = n;
	c = &v->caps[v->nr_caps];
	memset(c, 0, sizeof(*c));
	v->nr_caps++;
	c->time = t;
	c->marker = r->marker;
	e = vkernel_capture(r->k, c);
	if (!e && r->nr_freed < c->nr_cg) {
		uint64_t *f = realloc(r->freed, c->nr_cg * sizeof(*f));

		if (!f)
			return RF_ERR_NOMEM;
		memset(f + r->nr_freed, 0, (c->nr_cg - r->nr_freed) * sizeof(*f));
		r->freed = f;
		r->nr_freed = c->nr_cg;
	}
	if (!e)
		e = vmodel_capture(r->m, r->k, c, r->freed, r->freed_global, &r->base);
	r->pending = false;
	return e;
}

/* ------------------------------------------------ fadvise and truncate */

/*
 * The model counts no page-cache deletions: measure what an invalidation
 * frees as the drop of charged pages across it, made local to each cgroup
 * (the model's usage is hierarchical, like page_counter) by taking the
 * children's drops off.
 */
static int frees_before(struct vrun *r)
{
	size_t n = vkernel_nr_cgroups(r->k);
	uint64_t *b = realloc(r->before, n * sizeof(*b));

	if (!b)
		return RF_ERR_NOMEM;
	r->before = b;
	return vmodel_usage(r->m, r->k, b, n, &r->file_before);
}

static int frees_after(struct vrun *r)
{
	size_t n = vkernel_nr_cgroups(r->k), i;
	uint64_t *a = calloc(n, sizeof(*a)), file;
	int64_t *drop = calloc(n, sizeof(*drop));
	int e = a && drop ? vmodel_usage(r->m, r->k, a, n, &file) : RF_ERR_NOMEM;

	if (!e && r->nr_freed < n) {
		uint64_t *f = realloc(r->freed, n * sizeof(*f));

		if (f) {
			memset(f + r->nr_freed, 0, (n - r->nr_freed) * sizeof(*f));
			r->freed = f;
			r->nr_freed = n;
		} else {
			e = RF_ERR_NOMEM;
		}
	}
	for (i = 0; !e && i < n; i++)
		drop[i] = (int64_t)r->before[i] - (int64_t)a[i];
	for (i = 0; !e && i < n; i++) {
		int p = vkernel_cgroup(r->k, i)->parent_idx;

		/* an unnamed root (index 0) holds no children: its count is local already */
		if (p > 0 && vkernel_cgroup(r->k, p)->id)
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

/* ---------------------------------------------------------------- loop */

static int note_marker(struct vrun *r, const char *text)
{
	struct rf_validation *v = r->v;
	char **n = realloc(v->markers, (v->nr_markers + 1) * sizeof(*n));

	if (!n)
		return RF_ERR_NOMEM;
	v->markers = n;
	n[v->nr_markers] = strdup(text ? text : "");
	if (!n[v->nr_markers])
		return RF_ERR_NOMEM;
	r->marker = n[v->nr_markers++];
	return 0;
}

static int step(struct vrun *r, const struct rf_event *ev)
{
	bool inval = ev->type == RF_EV_FADVISE || ev->type == RF_EV_TRUNCATE;
	int e = 0;

	if (!r->v->events++)
		r->v->t0 = ev->time;
	if (r->pending && ev->type != RF_EV_COUNTERS && ev->time > r->pending_t)
		e = capture(r, r->pending_t);
	if (rf_event_class(ev->type) == RF_CLASS_OBSERVATION)
		r->observed = true;
	if (!e && inval)
		e = frees_before(r);
	if (!e)
		e = vkernel_feed(r->k, ev, r->page_size);
	if (!e)
		e = rf_model_feed(r->m, ev);
	if (!e && inval)
		e = frees_after(r);
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

static int replay(struct vrun *r, struct rf_trace_reader *rd, char *err, size_t errlen)
{
	struct rf_event ev;
	int e = 0, got;

	while ((got = rf_trace_reader_next(rd, &ev)) > 0) {
		e = step(r, &ev);
		if (e) {
			snprintf(err, errlen, "replaying event %llu: %s",
				 (unsigned long long)r->v->events, rf_strerror(e));
			return e;
		}
	}
	if (got < 0) {
		snprintf(err, errlen, "%s", rf_trace_reader_errmsg(rd));
		return got;
	}
	e = rf_model_finish(r->m);
	if (!e && (r->pending || !r->v->nr_caps ||
		   r->v->caps[r->v->nr_caps - 1].time < r->last_time))
		e = capture(r, r->pending ? r->pending_t : r->last_time);
	if (e)
		snprintf(err, errlen, "at the end of the trace: %s", rf_strerror(e));
	return e;
}

/* The pages cached before the trace, resident in the model before its first event. */
static int preload(struct vrun *r, const char *path, char *err, size_t errlen)
{
	struct vwarm *w;
	int e = vwarm_scan(&w, path, err, errlen);

	if (e)
		return e;
	e = vwarm_load(w, r->m, vwarm_start(w));
	if (!e)
		e = vmodel_baseline(r->m, &r->base);
	if (e && !err[0])
		snprintf(err, errlen, "loading the pages cached before the trace: %s",
			 rf_strerror(e));
	r->v->preloaded = vwarm_pages(w);
	vwarm_free(w);
	return e;
}

int rf_validate_run(struct rf_validation **out, const char *path,
		    const struct rf_validate_opts *o, char *err, size_t errlen)
{
	struct rf_trace_reader *rd = NULL;
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
	e = rf_trace_reader_open(&rd, path, 0);
	if (e) {
		snprintf(err, errlen, "%s: %s", path,
			 rd && *rf_trace_reader_errmsg(rd) ? rf_trace_reader_errmsg(rd) :
			 rf_strerror(e));
		goto out;
	}
	r.v->header = *rf_trace_reader_header(rd);
	r.page_size = r.v->header.host.page_size ? r.v->header.host.page_size : 4096;
	e = make_model(&r, o, err, errlen);
	if (!e)
		e = vkernel_new(&r.k);
	if (e)
		goto out;
	r.v->kernel = r.k;
	if (!o->cold_cache)
		e = preload(&r, path, err, errlen);
	if (!e)
		e = replay(&r, rd, err, errlen);
	if (!e && !r.observed) {
		snprintf(err, errlen, "%s has no kernel observations (%s): nothing to validate "
			 "against; record it with refault record", path,
			 r.v->header.synthetic ? "a synthetic trace" : "no page-cache, LRU, "
			 "reclaim or counter events");
		e = RF_ERR_INVAL;
	}
	if (!e)
		e = vrows_build(r.v);
out:
	rf_trace_reader_close(rd);
	rf_model_free(r.m);
	free(r.freed);
	free(r.before);
	vmap_free(&r.base);
	if (e) {
		if (!r.v->kernel)
			vkernel_free(r.k);
		rf_validation_free(r.v);
		if (!err[0])
			snprintf(err, errlen, "%s", rf_strerror(e));
		return e;
	}
	*out = r.v;
	return 0;
}

void rf_validation_free(struct rf_validation *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->nr_caps; i++)
		vcapture_release(&v->caps[i]);
	free(v->caps);
	for (i = 0; i < v->nr_rows; i++)
		free(v->rows[i].scope);
	free(v->rows);
	for (i = 0; i < v->nr_markers; i++)
		free(v->markers[i]);
	free(v->markers);
	vkernel_free(v->kernel);
	free(v);
}
