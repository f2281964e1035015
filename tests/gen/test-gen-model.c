/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cases made to tell reclaim models apart do so, through the model
 * library directly (the replay engine's own test of a comparison belongs
 * with it):
 *   - the bundled cgroup-thrash trace: v4.5 (one workingset clock per node)
 *     and v4.6 (per-memcg, 23047a96) decide differently for /hot's refaults,
 *     and /stream, read once, never activates anything;
 *   - mmap-stream-read-hot, generated straight into the models: the classic
 *     LRU keeps the hot set read with dd on its active list and refaults
 *     little, the multi-gen LRU keeps the mapped stream in its young
 *     generations and refaults the hot set several times as much
 *     (recorder/gen/case-policy.c says why).
 */
#include <stdio.h>
#include <stdlib.h>

#include <refault/model.h>
#include <refault/trace.h>

#include "recorder/gen/gen.h"

#include "tests/lib/tap.h"

struct outcome {
	uint64_t hot_refault, hot_activate, stream_activate;
	int ret;
};

static uint64_t counter(const struct rf_model *m, const char *key)
{
	uint64_t v = 0;

	/* Counters that never moved may be left out. */
	return rf_model_counter(m, key, &v) ? v : 0;
}

static int feed(struct rf_model *m, const char *path)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	int ret = rf_trace_reader_open(&r, path, 0);

	if (ret) {
		diag("%s: %s", path, r ? rf_trace_reader_errmsg(r) : rf_strerror(ret));
		rf_trace_reader_close(r);
		return ret;
	}
	while ((ret = rf_trace_reader_next(r, &ev)) > 0 && !(ret = rf_model_feed(m, &ev)))
		;
	rf_trace_reader_close(r);
	return ret < 0 ? ret : rf_model_finish(m);
}

static struct outcome replay(const char *path, const char *profile)
{
	struct outcome o = { 0 };
	struct rf_trace_reader *r = NULL;
	struct rf_model_config *c = NULL;
	struct rf_model *m = NULL;
	char err[256] = "";

	o.ret = rf_model_config_new(&c, profile);
	if (!o.ret)
		o.ret = rf_trace_reader_open(&r, path, 0);
	if (!o.ret)
		rf_model_config_from_header(c, rf_trace_reader_header(r));
	rf_trace_reader_close(r);
	if (!o.ret)
		o.ret = rf_model_new(&m, c, err, sizeof(err));
	if (!o.ret)
		o.ret = feed(m, path);
	if (!o.ret) {
		o.hot_refault = counter(m, "memcg./hot.workingset_refault_file");
		o.hot_activate = counter(m, "memcg./hot.workingset_activate_file");
		o.stream_activate = counter(m, "memcg./stream.workingset_activate_file");
	} else {
		diag("%s on %s: %d %s", profile, path, o.ret, err);
	}
	rf_model_free(m);
	rf_model_config_free(c);
	return o;
}

/* ------------------------------------------------- mmap-stream-read-hot */

#define POLICY_MEM	(64ull << 20)
#define POLICY_HOT	(POLICY_MEM / 4096 / 4)	/* the hot set: mem/4 */

struct pair {
	struct rf_model *m[2];
};

static int feed_both(void *ctx, const struct rf_event *ev)
{
	struct pair *p = ctx;
	int ret = rf_model_feed(p->m[0], ev);

	return ret ? ret : rf_model_feed(p->m[1], ev);
}

static void test_mmap_stream_read_hot(void)
{
	static const char *const profiles[2] = { "v6.12", "v6.12-mglru" };
	struct rf_model_config *c[2] = { NULL, NULL };
	struct pair p = { { NULL, NULL } };
	uint64_t refault[2] = { 0, 0 }, active[2] = { 0, 0 };
	struct rf_trace_header h;
	struct rf_gen_params gp;
	char err[256] = "";
	int ret, i;

	rf_gen_params_init(&gp);
	gp.mem_bytes = POLICY_MEM;
	gp.tasks = 4;
	ret = rf_gen_header("mmap-stream-read-hot", &gp, &h, err, sizeof(err));
	for (i = 0; !ret && i < 2; i++) {
		ret = rf_model_config_new(&c[i], profiles[i]);
		if (!ret)
			rf_model_config_from_header(c[i], &h);
		if (!ret)
			ret = rf_model_new(&p.m[i], c[i], err, sizeof(err));
	}
	if (!ret)
		ret = rf_gen_run("mmap-stream-read-hot", &gp, feed_both, &p, err, sizeof(err));
	for (i = 0; !ret && i < 2; i++)
		ret = rf_model_finish(p.m[i]);
	ok(!ret, "mmap-stream-read-hot generated into v6.12 and v6.12-mglru");
	if (ret)
		diag("%d %s", ret, err);
	for (i = 0; !ret && i < 2; i++) {
		/* The stream is faulted once and never comes back: every refault is the hot set's. */
		refault[i] = counter(p.m[i], "vmstat.workingset_refault_file");
		active[i] = counter(p.m[i], "vmstat.nr_active_file");
	}
	diag("refaults: classic %llu, multi-gen %llu; active file pages at the end: %llu, %llu",
	     (unsigned long long)refault[0], (unsigned long long)refault[1],
	     (unsigned long long)active[0], (unsigned long long)active[1]);
	ok(active[0] >= POLICY_HOT * 95 / 100 && active[0] <= POLICY_HOT * 105 / 100,
	   "classic: the active list is the hot set (%llu pages)", (unsigned long long)POLICY_HOT);
	ok(refault[0] < 2 * POLICY_HOT, "classic: the hot set refaults less than twice over");
	ok(refault[1] >= 3 * refault[0], "multi-gen: the hot set refaults 3 times as much or more");
	ok(active[1] >= 2 * POLICY_HOT,
	   "multi-gen: the two youngest generations hold twice the hot set and more: the stream");
	for (i = 0; i < 2; i++) {
		rf_model_free(p.m[i]);
		rf_model_config_free(c[i]);
	}
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct outcome v45, v46;
	char path[4096];

	snprintf(path, sizeof(path), "%s/traces/cgroup-thrash.rft", top ? top : ".");
	plan(10);
	v45 = replay(path, "v4.5");
	v46 = replay(path, "v4.6");
	ok(!v45.ret && !v46.ret, "traces/cgroup-thrash.rft replays on v4.5 and v4.6");
	diag("/hot refaults: v4.5 %llu, v4.6 %llu; activated: v4.5 %llu, v4.6 %llu",
	     (unsigned long long)v45.hot_refault, (unsigned long long)v46.hot_refault,
	     (unsigned long long)v45.hot_activate, (unsigned long long)v46.hot_activate);
	ok(v45.hot_refault > 0, "/hot refaults: global reclaim evicts the hot set");
	ok(v46.hot_activate * 100 > v45.hot_activate * 110,
	   "v4.6 activates more of /hot's refaults than v4.5 (per-memcg refault distance)");
	ok(v46.hot_refault < v45.hot_refault, "and so /hot refaults less on v4.6");
	ok(v45.stream_activate == 0 && v46.stream_activate == 0,
	   "/stream, read once, never activates a refault");
	test_mmap_stream_read_hot();
	return done_testing();
}
