/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rf_replay_run(): open the trace, build one model per configuration, run the pipeline. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "lib/hash.h"
#include "replayer/replay/replay-local.h"

void replay_fingerprint_frame(struct rf_replay_result *res, const void *frame, size_t size)
{
	/* A chunk frame ends with its 4-byte content checksum: hash those, not the megabytes. */
	const uint8_t *p = (const uint8_t *)frame + (size >= 4 ? size - 4 : 0);

	res->fingerprint = rf_fnv1a(res->fingerprint, p, size < 4 ? size : 4);
}

int rf_replay_trace_fingerprint(const char *path, uint64_t *fingerprint, uint64_t *events,
				struct rf_trace_reader **reader, char *err, size_t errlen)
{
	struct rf_replay_result res = { .fingerprint = RF_FNV1A_INIT };
	const struct rf_chunk_info *ci;
	struct rf_trace_reader *r = NULL;
	uint8_t sum[4];
	long n, i;
	int fd, rc = rf_trace_reader_open(&r, path, 0);

	*fingerprint = res.fingerprint;
	*events = 0;
	if (rc) {
		/* a reader is returned on a header error, to say what it was */
		if (r && rf_trace_reader_errmsg(r)[0])
			snprintf(err, errlen, "%s: %s", path, rf_trace_reader_errmsg(r));
		else
			snprintf(err, errlen, "%s: %s", path, rf_strerror(rc));
		rf_trace_reader_close(r);
		return rc;
	}
	n = rf_trace_reader_chunks(r, &ci);
	fd = n >= 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (n < 0 || fd < 0) {
		rc = n < 0 ? (int)n : -errno;
		snprintf(err, errlen, "%s: %s", path, n < 0 ? rf_trace_reader_errmsg(r) : strerror(errno));
		rf_trace_reader_close(r);
		return rc;
	}
	for (i = 0; i < n && !rc; i++) {
		/* the frame's last 4 bytes, which replay_fingerprint_frame() hashes */
		size_t len = ci[i].size < 4 ? ci[i].size : 4;

		if (pread(fd, sum, len, (off_t)(ci[i].offset + ci[i].size - len)) != (ssize_t)len) {
			rc = RF_ERR_CORRUPT;
			snprintf(err, errlen, "%s: chunk %ld at offset %llu: cannot be read", path, i,
				 (unsigned long long)ci[i].offset);
		}
		replay_fingerprint_frame(&res, sum, len);
		*events += ci[i].nr_events;
	}
	if (!rc && rf_trace_reader_damage(r)) {
		rc = RF_ERR_CORRUPT;
		snprintf(err, errlen, "%s", rf_trace_reader_damage(r));
	}
	close(fd);
	*fingerprint = res.fingerprint;
	if (!rc && reader)
		*reader = r;
	else
		rf_trace_reader_close(r);
	return rc;
}

uint64_t replay_index_events_at(const struct rf_replay_result *res, uint64_t offset)
{
	size_t i;

	for (i = 0; i < res->nr_index; i++)
		if (res->index[i].offset == offset)
			return res->index[i].nr_events;
	return 0;
}

/* Automatic sampling interval: about 100 samples over the trace, 1 s without an index. */
static uint64_t auto_interval(const struct rf_replay_result *res)
{
	uint64_t lo = UINT64_MAX, hi = 0, iv;
	size_t i;

	for (i = 0; i < res->nr_index; i++) {
		if (!res->index[i].nr_events)
			continue;
		lo = res->index[i].t_first < lo ? res->index[i].t_first : lo;
		hi = res->index[i].t_last > hi ? res->index[i].t_last : hi;
	}
	if (lo >= hi)
		return 1000000000ull;
	iv = (hi - lo) / 100;
	return iv ? iv : 1;
}

static int build_models(struct rf_replay_result *res, const struct rf_replay_opts *opts,
			struct rf_config_list *configs, char *err, size_t errlen)
{
	uint64_t interval;
	size_t i;
	int rc;

	res->runs = aligned_alloc(_Alignof(struct replay_model_run),
				  configs->nr * sizeof(*res->runs));
	if (!res->runs)
		return RF_ERR_NOMEM;
	memset(res->runs, 0, configs->nr * sizeof(*res->runs));
	res->nr = configs->nr;
	interval = opts->interval_ns ? opts->interval_ns : auto_interval(res);
	for (i = 0; i < configs->nr; i++) {
		struct replay_model_run *mr = &res->runs[i];
		char why[256] = "";

		mr->conf = &configs->items[i];
		if (mr->conf->policy)
			rc = replay_policy_run_new(&mr->policy, mr->conf->policy, &res->header);
		else
			rc = rf_model_new(&mr->model, mr->conf->cfg, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "configuration %s: %s", mr->conf->name, why[0] ? why : rf_strerror(rc));
			return rc;
		}
		if (mr->policy && !replay_policy_run_series(mr->policy))
			continue;
		mr->series = replay_series_new(interval);
		if (!mr->series)
			return RF_ERR_NOMEM;
	}
	res->kernel_series = replay_series_new(interval);
	if (!res->kernel_series)
		return RF_ERR_NOMEM;
	return rf_observe_new(&res->observe, res->header.host.page_size,
			      opts->observe_pages ? RF_OBSERVE_PAGES : 0);
}

/* The warm stage: every model starts with the pages cached before the trace. */
static int preload(struct rf_replay_result *res, const struct rf_replay_opts *opts, char *err,
		   size_t errlen)
{
	struct replay_warm *w;
	size_t i;
	int rc = replay_warm_scan(&w, opts->trace_path, opts->skip_damaged, err, errlen);

	for (i = 0; !rc && i < res->nr; i++)
		if (res->runs[i].model)	/* a reference policy starts empty */
			rc = replay_warm_load(w, res->runs[i].model, replay_warm_start(w));
	if (rc && !err[0])
		snprintf(err, errlen, "loading the pages cached before the trace: %s",
			 rf_strerror(rc));
	res->warm_cache = true;
	res->preloaded = replay_warm_pages(w);
	res->preloaded_shadows = replay_warm_shadow_pages(w, &res->preloaded_recent);
	res->kernel_reads = replay_warm_kernel_pages(w);
	if (res->preloaded_shadows || res->kernel_reads)
		res->warm = w;		/* the pipeline plants their shadows, reads the kernel's folios */
	else
		replay_warm_free(w);
	return rc;
}

static int start_probes(struct rf_replay_result *res, char *err, size_t errlen)
{
	size_t i;
	int rc;

	for (i = 0; i < res->nr; i++) {
		const struct rf_replay_config *c = res->runs[i].conf;

		if (c->probe && !res->runs[i].model) {
			snprintf(err, errlen, "configuration %s: a reference policy has no kernel "
				 "model to watch; use a kernel profile", c->name);
			return RF_ERR_CONFIG;
		}
		if (!c->probe || !c->probe->start)
			continue;
		rc = c->probe->start(c->probe_ctx, res->runs[i].model);
		if (rc) {
			snprintf(err, errlen, "configuration %s: %s", c->name, rf_strerror(rc));
			return rc;
		}
	}
	return 0;
}

static int finish_models(struct rf_replay_result *res)
{
	size_t i;
	int rc = replay_kernel_sample(res);	/* a snapshot the trace ends on */

	for (i = 0; !rc && i < res->nr; i++) {
		struct replay_model_run *mr = &res->runs[i];
		const struct rf_replay_probe *p = mr->conf->probe;

		if (mr->policy) {
			rc = replay_policy_run_finish(mr->policy);
			if (!rc && mr->series)
				rc = replay_series_finish(mr->series, replay_run_walk(mr),
							  replay_run_src(mr), mr->last_time);
			continue;
		}
		rc = replay_series_finish(mr->series, replay_run_walk(mr), replay_run_src(mr),
					  mr->last_time);
		if (!rc)
			rc = rf_model_finish(mr->model);
		if (!rc && p && p->finish)
			rc = p->finish(mr->conf->probe_ctx, mr->model, i ? NULL : res->observe,
				       mr->last_time);
	}
	return rc;
}

/* whether @l has a classic-LRU kernel profile and no multi-gen LRU one (policies aside) */
static bool only_classic(const struct rf_config_list *l)
{
	bool classic = false;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (!l->items[i].cfg)
			continue;
		if (rf_model_config_lru_gen(l->items[i].cfg))
			return false;
		classic = true;
	}
	return classic;
}

int rf_replay_run(const struct rf_replay_opts *opts, struct rf_config_list *configs,
		  struct rf_replay_result **out, char *err, size_t errlen)
{
	struct rf_replay_result *res;
	struct rf_trace_reader *r = NULL;
	const struct rf_chunk_info *chunks = NULL;
	struct rusage ru;
	double t0 = rf_mono_seconds();
	long n;
	int rc;

	*out = NULL;
	res = calloc(1, sizeof(*res));
	if (!res)
		return RF_ERR_NOMEM;
	res->fingerprint = RF_FNV1A_INIT;
	res->threads = opts->threads;
	res->all_cgroups = opts->all_cgroups;
	res->trace_path = strdup(opts->trace_path);
	rc = rf_trace_reader_open(&r, opts->trace_path, opts->skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (rc) {
		snprintf(err, errlen, "%s: %s", opts->trace_path,
			 r && rf_trace_reader_errmsg(r)[0] ? rf_trace_reader_errmsg(r) : rf_strerror(rc));
		goto out;
	}
	res->header = *rf_trace_reader_header(r);
	/*
	 * A trace of a multi-gen LRU kernel through classic profiles only: their
	 * numbers beside the kernel's would be another algorithm's.  With an
	 * -mglru configuration among them, the classic ones are comparisons.
	 */
	if (rf_trace_host_lru_gen_on(&res->header.host) && !opts->allow_mglru &&
	    only_classic(configs)) {
		snprintf(err, errlen, "%s was recorded with the multi-gen LRU on (lru_gen/enabled "
			 "%s) and every configuration is classic LRU: add an -mglru profile (e.g. "
			 "--profile v6.12-mglru,v6.12), or pass --allow-mglru to replay it anyway",
			 opts->trace_path, res->header.host.lru_gen);
		rc = RF_ERR_CONFIG;
		goto out;
	}
	res->trace_bytes = rf_trace_reader_file_size(r);
	if (rf_trace_reader_has_index(r)) {
		n = rf_trace_reader_chunks(r, &chunks);
		if (n > 0) {
			res->index = chunks;
			res->nr_index = (size_t)n;
		}
	}
	rf_config_list_apply_header(configs, &res->header);
	rc = replay_cgroup_names_resolve_configs(configs, opts, &res->header, err, errlen);
	if (!rc)
		rc = build_models(res, opts, configs, err, errlen);
	if (!rc && opts->warm_cache)
		rc = preload(res, opts, err, errlen);
	if (!rc)
		rc = start_probes(res, err, errlen);
	if (!rc) {
		char msg[512] = "";

		rc = replay_pipeline(opts, r, res, res->nr_index, msg, sizeof(msg));
		/* the trace's damage names its chunk and offset; the file is ours to name */
		if (rc)
			snprintf(err, errlen, "%s: %s", opts->trace_path, msg);
	}
	if (!rc) {
		rc = finish_models(res);
		if (rc)
			snprintf(err, errlen, "model: %s", rf_strerror(rc));
	}
	res->wall_seconds = rf_mono_seconds() - t0;
	if (!getrusage(RUSAGE_SELF, &ru))
		res->peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024;
out:
	/* The index belongs to the reader. */
	res->index = NULL;
	res->nr_index = 0;
	rf_trace_reader_close(r);
	if (rc) {
		rf_replay_result_free(res);
		return rc;
	}
	*out = res;
	return 0;
}

void rf_replay_result_free(struct rf_replay_result *res)
{
	size_t i;

	if (!res)
		return;
	for (i = 0; i < res->nr; i++) {
		rf_model_free(res->runs[i].model);
		replay_policy_run_free(res->runs[i].policy);
		replay_series_free(res->runs[i].series);
	}
	free(res->runs);
	replay_series_free(res->kernel_series);
	rf_observe_free(res->observe);
	replay_warm_free(res->warm);
	free(res->trace_path);
	free(res);
}

const struct rf_trace_header *rf_replay_result_header(const struct rf_replay_result *res)
{
	return &res->header;
}

uint64_t rf_replay_result_events(const struct rf_replay_result *res)
{
	return res->nr ? res->runs[0].events : 0;
}

uint64_t rf_replay_result_fingerprint(const struct rf_replay_result *res)
{
	return res->fingerprint;
}

uint64_t rf_replay_result_preloaded(const struct rf_replay_result *res)
{
	return res->preloaded;
}

uint64_t rf_replay_result_preloaded_shadows(const struct rf_replay_result *res, uint64_t *recent)
{
	if (recent)
		*recent = res->preloaded_recent;
	return res->preloaded_shadows;
}

uint64_t rf_replay_result_kernel_reads(const struct rf_replay_result *res)
{
	return res->kernel_reads;
}

struct rf_observe *rf_replay_result_take_observe(struct rf_replay_result *res)
{
	struct rf_observe *o = res->observe;

	res->lost = o ? rf_observe_lost_events(o) : 0;
	res->observe = NULL;
	return o;
}

uint64_t rf_replay_result_lost(const struct rf_replay_result *res)
{
	return res->observe ? rf_observe_lost_events(res->observe) : res->lost;
}
