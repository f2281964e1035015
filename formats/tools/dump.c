/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `refault trace dump`: print events as text (perf-script-like) or JSON lines, with filters. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/dump.h"
#include "formats/tools/tools-local.h"

/*
 * Where to start and which chunk is the last that may hold events up to
 * --to.  Seeking skips the events before --from, so it is only done when
 * no pid or cgroup filter, and no names, need to learn from them.
 */
static int position(const struct rf_tools_dump_opts *o, struct rf_trace_reader *r,
		    uint64_t *first_chunk, uint64_t *last_chunk)
{
	const struct rf_tools_filter *f = o->filter;
	const struct rf_chunk_info *chunks;
	bool seek = f->from_arg && !f->by_pid && !f->by_cgroup && (o->json || !o->names);
	long n = 0, i;

	*first_chunk = 0;
	*last_chunk = UINT64_MAX;
	if (!seek && !f->to_arg)
		return 0;
	n = rf_trace_reader_chunks(r, &chunks);
	if (n < 0)
		return (int)n;
	if (f->to_arg) {
		*last_chunk = 0;
		for (i = 0; i < n; i++)
			if (chunks[i].t_first <= f->to)
				*last_chunk = (uint64_t)i;
	}
	if (!seek)
		return 0;
	for (i = 0; i < n && chunks[i].t_last < f->from; i++)
		;
	*first_chunk = (uint64_t)i;
	return rf_trace_reader_seek_time(r, f->from);
}

struct dump {
	const struct rf_tools_dump_opts *o;
	struct rf_trace_reader *r;
	FILE *out;
	struct tools_names *names;	/* NULL: none */
	uint64_t first_chunk;
	uint64_t last_chunk;
	uint64_t base;			/* chunks read before the first event */
};

/* True when the event just read came from a chunk after the last that may hold --to. */
static bool past_last_chunk(const struct dump *d)
{
	struct rf_reader_stats st;

	if (d->last_chunk == UINT64_MAX)
		return false;
	rf_trace_reader_stats(d->r, &st);
	/* the event came from the chunk opened last */
	return d->first_chunk + (st.chunks_read - d->base) - 1 > d->last_chunk;
}

/* Learn from @ev, and print it if it is selected: 1 printed, 0 not, negative error. */
static int one(struct dump *d, const struct rf_event *ev)
{
	int err = tools_filter_learn(d->o->filter, ev);

	if (!err && d->names)
		err = tools_names_learn(d->names, ev);
	if (err)
		return err;
	if (!tools_filter_match(d->o->filter, ev))
		return 0;
	if (d->o->json)
		err = tools_print_event_json(d->out, ev, true);
	else
		err = tools_print_event(d->out, ev, d->names);
	return err ? err : 1;
}

static int run(struct dump *d, const struct rf_tools_log *log, bool *damaged)
{
	const struct rf_tools_dump_opts *o = d->o;
	uint64_t printed = 0;
	struct rf_event ev;
	int rc = 0, err = 0;

	while (printed < o->limit && (rc = rf_trace_reader_next(d->r, &ev)) != 0) {
		if (rc < 0 && o->skip_damaged && rc != RF_ERR_NOMEM && rc != RF_ERR_STATE) {
			/* the reader goes on with the next chunk */
			tools_err(log, "%s: skipped: %s", o->path, rf_trace_reader_errmsg(d->r));
			*damaged = true;
			continue;
		}
		if (rc < 0 || past_last_chunk(d))
			break;
		err = one(d, &ev);
		if (err < 0)
			break;
		printed += (uint64_t)err;
		err = 0;
	}
	if (err) {
		tools_err(log, "%s", rf_strerror(err));
		return err;
	}
	if (rc < 0) {
		tools_err(log, "%s: %s", o->path, *rf_trace_reader_errmsg(d->r) ?
			  rf_trace_reader_errmsg(d->r) : rf_strerror(rc));
		return rc;
	}
	return 0;
}

int rf_tools_dump(struct rf_trace_reader *r, const struct rf_tools_dump_opts *o, FILE *out,
		  const struct rf_tools_log *log, bool *damaged)
{
	struct tools_names names = { 0 };
	struct rf_reader_stats st;
	struct dump d = { .o = o, .r = r, .out = out };
	int rc;

	*damaged = false;
	rc = position(o, r, &d.first_chunk, &d.last_chunk);
	if (rc < 0) {
		tools_err(log, "%s: %s", o->path, rf_trace_reader_errmsg(r));
		return rc;
	}
	rf_trace_reader_stats(r, &st);
	d.base = st.chunks_read;
	d.names = o->names && !o->json ? &names : NULL;
	rc = run(&d, log, damaged);
	tools_names_free(&names);
	return rc;
}
