/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bundled cgroup-thrash trace does what it is for: fed through the
 * reclaim model, v4.5 (one workingset clock per node) and v4.6 (per-memcg,
 * 23047a96) decide differently for /hot's refaults, and /stream, read once,
 * never activates anything.  This drives the model library directly; the
 * replay engine's own test of the same comparison belongs with it.
 */
#include <stdio.h>
#include <stdlib.h>

#include <refault/model.h>
#include <refault/trace.h>

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

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct outcome v45, v46;
	char path[4096];

	snprintf(path, sizeof(path), "%s/traces/cgroup-thrash.rft", top ? top : ".");
	plan(5);
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
	return done_testing();
}
