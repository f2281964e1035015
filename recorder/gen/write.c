/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Generating straight into a trace file through the trace writer. */
#include <stdio.h>

#include "recorder/gen/cases.h"

struct write_ctx {
	struct rf_trace_writer *w;
	int failed;		/* what the writer returned, to tell its errors from the plan's */
};

static int write_event(void *ctx, const struct rf_event *ev)
{
	struct write_ctx *wc = ctx;

	wc->failed = rf_trace_writer_append(wc->w, ev);
	return wc->failed;
}

int rf_gen_write(const char *name, const struct rf_gen_params *p, int fd, const char *path,
		 uint64_t *nr_events, char *err, size_t errlen)
{
	struct rf_writer_stats st;
	struct write_ctx wc = { NULL, 0 };
	struct rf_trace_header h;
	struct gen_plan plan;
	int ret;

	ret = gen_plan_build(&plan, name, p, err, errlen);
	if (ret)
		return ret;
	gen_plan_header(&plan, name, &h);
	ret = rf_trace_writer_fdopen(&wc.w, fd, &h, NULL);
	if (ret) {
		gen_plan_error(&plan, ret, "cannot create %s: %s", path, rf_strerror(ret));
		goto out;
	}
	ret = gen_plan_run(&plan, write_event, &wc);
	if (ret) {
		if (wc.failed)
			gen_plan_error(&plan, ret, "writing %s: %s", path,
				       rf_trace_writer_errmsg(wc.w)[0] ?
				       rf_trace_writer_errmsg(wc.w) : rf_strerror(ret));
		rf_trace_writer_abandon(wc.w);
		goto out;
	}
	rf_trace_writer_stats(wc.w, &st);
	if (nr_events)
		*nr_events = st.events;
	ret = rf_trace_writer_close(wc.w);
	if (ret)
		gen_plan_error(&plan, ret, "finishing %s: %s", path, rf_strerror(ret));
out:
	gen_plan_release(&plan);
	return ret;
}
