/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace info`'s counts (info.h).  Every chunk is decoded: the
 * lost-event total is a sum over LOST events and the per-class counts need
 * the event types, and the library exposes the index's chunk list but not
 * its per-type table.  Damaged chunks are skipped (and said); the counts
 * cover the rest.
 */
#include <string.h>

#include "formats/tools/info.h"
#include "formats/tools/tools-local.h"

/* The recorder's counters of --call-graph (source RF_COUNTERS_RECORDER), the last ones seen. */
static void count_stacks(struct rf_tools_info *in, const struct rf_event *ev)
{
	static const char *const names[] = { "stacks.samples", "stacks.lost", "stacks.unwound",
					     "stacks.failed", "stacks.refs", "stacks.refs_without" };
	uint32_t i, k;

	in->has_stacks = true;
	for (i = 0; i < ev->u.counters.nr; i++)
		for (k = 0; k < ARRAY_SIZE(names); k++)
			if (ev->u.counters.entries[i].name &&
			    !strcmp(ev->u.counters.entries[i].name, names[k]))
				in->stacks[k] = ev->u.counters.entries[i].value;
}

static void count(struct rf_tools_info *in, const struct rf_event *ev)
{
	in->per_type[ev->type < RF_EV_TYPE_MAX ? ev->type : 0]++;
	in->per_class[rf_event_class(ev->type)]++;
	in->events += ev->type != RF_EV_END;
	in->t_first = ev->time < in->t_first ? ev->time : in->t_first;
	in->t_last = ev->time > in->t_last ? ev->time : in->t_last;
	if (ev->type == RF_EV_LOST)
		in->lost += ev->u.lost.count;
	if (ev->type == RF_EV_COUNTERS && ev->u.counters.source == RF_COUNTERS_RECORDER)
		count_stacks(in, ev);
	if (ev->type == RF_EV_END) {
		in->has_end = true;
		in->end_events = ev->u.end.nr_events;
		in->end_lost = ev->u.end.nr_lost;
	}
}

int rf_tools_info_scan(struct rf_trace_reader *r, const char *path, struct rf_tools_info *in,
		       const struct rf_tools_log *log)
{
	const struct rf_chunk_info *chunks;
	struct rf_event ev;
	int rc;

	in->t_first = UINT64_MAX;
	while ((rc = rf_trace_reader_next(r, &ev)) != 0) {
		if (rc == 1) {
			count(in, &ev);
			continue;
		}
		if (rc == RF_ERR_NOMEM || rc == RF_ERR_STATE)
			break;
		/* with RF_READ_SKIP_DAMAGED the reader goes on after the damaged chunk */
		if (in->damaged < RF_TOOLS_INFO_DAMAGE)
			snprintf(in->damage[in->damaged], sizeof(in->damage[0]), "%s",
				 rf_trace_reader_errmsg(r));
		in->damaged++;
		tools_err(log, "%s: %s", path, rf_trace_reader_errmsg(r));
	}
	if (rc < 0) {
		tools_err(log, "%s: %s", path, rf_strerror(rc));
		return rc;
	}
	in->chunks = rf_trace_reader_chunks(r, &chunks);
	in->chunk_list = in->chunks > 0 ? chunks : NULL;
	if (in->t_first == UINT64_MAX)
		in->t_first = in->t_last = 0;
	return 0;
}
