/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_event_type_info(): an entry for every type the library names, agreeing
 * with rf_event_type_name() and rf_event_class(), whose offsets land on the
 * members trace.h documents; and rf_event_batch_summary() on a small batch.
 */
#include <stddef.h>
#include <string.h>

#include <refault/trace.h>

#include "tests/lib/tap.h"

#define OFF(m) offsetof(struct rf_event, u.m)

static const struct rf_event_type_info *info(unsigned int t)
{
	return rf_event_type_info(t);
}

int main(void)
{
	struct rf_event evs[3] = { { .time = 30, .type = RF_EV_FILE_READ },
				   { .time = 10, .type = RF_EV_MMAP },
				   { .time = 20, .type = RF_EV_ANON_FAULT } };
	struct rf_event_batch b = { .events = evs, .nr = 3, .seq = 7 };
	struct rf_chunk_info ci = { .offset = 1, .size = 2 };
	unsigned int t, known = 0, agree = 0;

	plan(14);
	for (t = 0; t < RF_EV_TYPE_MAX + 2; t++) {
		const struct rf_event_type_info *ti = info(t);

		if (!rf_event_type_name(t)) {
			agree += !ti;
			continue;
		}
		known++;
		agree += ti && !strcmp(ti->name, rf_event_type_name(t)) &&
			 ti->cls == rf_event_class(t) && ti->pid_off < sizeof(struct rf_event) &&
			 ti->cgroup_off < sizeof(struct rf_event) &&
			 (!ti->touches || ti->cls == RF_CLASS_REFERENCE);
	}
	ok(known == 35, "35 types are known (%u)", known);
	ok(agree == RF_EV_TYPE_MAX + 2,
	   "every entry agrees with the names and classes; none past them");
	ok(info(RF_EV_FORK)->pid_off == OFF(task.pid) &&
	   info(RF_EV_NAME_PID)->pid_off == OFF(task.pid) &&
	   info(RF_EV_CGROUP_ATTACH)->pid_off == OFF(cgroup.pid) && !info(RF_EV_EXEC)->pid_off,
	   "subject pids: fork, name_pid, cgroup_attach");
	ok(info(RF_EV_PAGECACHE_ADD)->cgroup_off == OFF(file.cgroup) &&
	   info(RF_EV_LRU_ADD)->cgroup_off == OFF(lru.cgroup) &&
	   info(RF_EV_RECLAIM)->cgroup_off == OFF(reclaim.cgroup) &&
	   info(RF_EV_COUNTERS)->cgroup_off == OFF(counters.cgroup) &&
	   info(RF_EV_CGROUP_LIMIT)->cgroup_off == OFF(cgroup.id) &&
	   info(RF_EV_NAME_PID)->cgroup_off == OFF(task.cgroup) &&
	   !info(RF_EV_PAGECACHE_DEL)->cgroup_off && !info(RF_EV_FILE_READ)->cgroup_off,
	   "cgroup members");
	ok(info(RF_EV_FILE_WRITE)->pages == RF_PAGES_FILE_RANGE &&
	   info(RF_EV_FILE_FAULT)->pages == RF_PAGES_FILE_FOLIO &&
	   info(RF_EV_ANON_FAULT)->pages == RF_PAGES_ANON &&
	   info(RF_EV_ACCESS)->pages == RF_PAGES_ACCESS && info(RF_EV_MMAP)->pages == RF_PAGES_NONE,
	   "page keys");
	ok(info(RF_EV_FILE_READ)->touches && !info(RF_EV_FILE_READAHEAD)->touches &&
	   !info(RF_EV_PAGECACHE_ADD)->touches, "readahead and observations name pages, untouched");
	ok(info(RF_EV_DAMON_REGION)->cls == RF_CLASS_REFERENCE &&
	   !info(RF_EV_DAMON_REGION)->touches && info(RF_EV_DAMON_REGION)->pages == RF_PAGES_NONE,
	   "a DAMON region: a reference that names no page");
	ok(info(RF_EV_PTE_YOUNG)->cls == RF_CLASS_REFERENCE && !info(RF_EV_PTE_YOUNG)->touches &&
	   info(RF_EV_PTE_YOUNG)->pages == RF_PAGES_NONE, "a scan's young PTEs: the same");
	ok(info(RF_EV_FILE_SYNC)->cls == RF_CLASS_STATE && info(RF_EV_FILE_SYNC)->pages == RF_PAGES_NONE &&
	   info(RF_EV_FILE_SYNC)->slice == RF_SLICE_STATE,
	   "a sync call: state that names no page (sync() names none), kept in every slice");
	ok(info(RF_EV_FILE_WRITTEN)->cls == RF_CLASS_STATE &&
	   info(RF_EV_FILE_WRITTEN)->pages == RF_PAGES_FILE_RANGE && !info(RF_EV_FILE_WRITTEN)->touches,
	   "a write that ended: state naming its pages, not touching them");
	ok(info(RF_EV_NAME_FILE)->slice == RF_SLICE_STATE &&
	   info(RF_EV_CGROUP_ATTACH)->slice == RF_SLICE_STATE &&
	   info(RF_EV_FORK)->slice == RF_SLICE_TASK_STATE &&
	   info(RF_EV_MADVISE)->slice == RF_SLICE_TASK_STATE &&
	   info(RF_EV_FADVISE)->slice == RF_SLICE_WINDOW &&
	   info(RF_EV_FILE_READ)->slice == RF_SLICE_WINDOW, "what slice keeps before its range");
	rf_event_batch_summary(&b, &ci);
	ok(ci.seq == 7 && ci.nr_events == 3 && ci.nr_refs == 2, "batch summary: seq, events, refs");
	ok(ci.t_first == 10 && ci.t_last == 30 && ci.offset == 1 && ci.size == 2,
	   "batch summary: time range; offset and size left alone");
	b.nr = 0;
	rf_event_batch_summary(&b, &ci);
	ok(ci.nr_events == 0 && ci.t_first == UINT64_MAX && ci.t_last == 0, "an empty batch");
	return done_testing();
}
