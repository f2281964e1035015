/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each event type is (name, class, where its pid, cgroup and pages are, whether
 * the task touched or wrote them, whether it carries a call stack, what slice keeps of
 * it), and the names of classes and enum values, as used in dumps, JSON and docs.
 * rf_event_pages() (event_pages.c) reads the pages from here.
 */
#include <stddef.h>
#include <string.h>

#include "formats/format-local.h"

/* The offset of union member @m in struct rf_event, for the *_off members. */
#define OFF(m) offsetof(struct rf_event, u.m)

/* An entry: name, class (REFERENCE, STATE, ...), then what the type has, by member name. */
#define T(n, c, ...) { .name = n, .cls = RF_CLASS_##c, __VA_ARGS__ }

/*
 * One entry per type: everything consumers (the replay's policies and warm
 * stage, the kernel's account, report, trace dump/slice/convert, the filters)
 * need to know of it beyond its fields (schema.c).  A new type is described
 * here once.
 */
const struct rf_event_type_info fmt_event_types[RF_EV_TYPE_MAX] = {
	[RF_EV_FILE_READ] = T("file_read", REFERENCE, .pages = RF_PAGES_FILE_RANGE,
			      .touches = true, .stack = true),
	/* write() may fill a page it never found cached: the pages are touched, not read */
	[RF_EV_FILE_WRITE] = T("file_write", REFERENCE, .pages = RF_PAGES_FILE_RANGE,
			       .touches = true, .writes = true, .stack = true),
	[RF_EV_FILE_FAULT] = T("file_fault", REFERENCE, .pages = RF_PAGES_FILE_FOLIO,
			       .touches = true, .stack = true),
	[RF_EV_ANON_FAULT] = T("anon_fault", REFERENCE, .pages = RF_PAGES_ANON, .touches = true,
			       .stack = true),
	[RF_EV_ACCESS] = T("access", REFERENCE, .pages = RF_PAGES_ACCESS, .touches = true),
	/* the kernel read the pages in ahead of the task: named, not touched */
	[RF_EV_FILE_READAHEAD] = T("file_readahead", REFERENCE, .pages = RF_PAGES_FILE_RANGE),
	/* a DAMON region's accessed bits over one aggregation: no page named, none touched */
	[RF_EV_DAMON_REGION] = T("damon_region", REFERENCE),
	/* a scan's accessed bits of mapped pages (addresses): no page named, touched before */
	[RF_EV_PTE_YOUNG] = T("pte_young", REFERENCE),
	[RF_EV_MMAP] = T("mmap", STATE, .slice = RF_SLICE_TASK_STATE),
	[RF_EV_MUNMAP] = T("munmap", STATE, .slice = RF_SLICE_TASK_STATE),
	[RF_EV_MADVISE] = T("madvise", STATE, .slice = RF_SLICE_TASK_STATE),
	/* POSIX_FADV_*'s len 0 (recorded as nr 0) is to the end of the file */
	[RF_EV_FADVISE] = T("fadvise", STATE, .pages = RF_PAGES_FILE_RANGE, .nr0_to_end = true),
	[RF_EV_TRUNCATE] = T("truncate", STATE, .pages = RF_PAGES_FILE_TAIL),
	[RF_EV_FORK] = T("fork", STATE, .pid_off = OFF(task.pid), .slice = RF_SLICE_TASK_STATE),
	[RF_EV_EXEC] = T("exec", STATE, .slice = RF_SLICE_TASK_STATE),
	[RF_EV_EXIT] = T("exit", STATE, .slice = RF_SLICE_TASK_STATE),
	[RF_EV_CGROUP_MKDIR] = T("cgroup_mkdir", STATE, .cgroup_off = OFF(cgroup.id),
				 .slice = RF_SLICE_STATE),
	[RF_EV_CGROUP_RMDIR] = T("cgroup_rmdir", STATE, .cgroup_off = OFF(cgroup.id),
				 .slice = RF_SLICE_STATE),
	[RF_EV_CGROUP_ATTACH] = T("cgroup_attach", STATE, .pid_off = OFF(cgroup.pid),
				  .cgroup_off = OFF(cgroup.id), .slice = RF_SLICE_STATE),
	[RF_EV_CGROUP_LIMIT] = T("cgroup_limit", STATE, .cgroup_off = OFF(cgroup.id),
				 .slice = RF_SLICE_STATE),
	[RF_EV_NAME_FILE] = T("name_file", STATE, .slice = RF_SLICE_STATE),
	[RF_EV_NAME_PID] = T("name_pid", STATE, .pid_off = OFF(task.pid),
			     .cgroup_off = OFF(task.cgroup), .slice = RF_SLICE_TASK_STATE),
	[RF_EV_NAME_STACK] = T("name_stack", STATE, .slice = RF_SLICE_STATE),
	[RF_EV_NAME_FRAME] = T("name_frame", STATE, .slice = RF_SLICE_STATE),
	/* writeback started (fsync, sync_file_range, msync, syncfs, sync): kept in slices */
	[RF_EV_FILE_SYNC] = T("file_sync", STATE, .slice = RF_SLICE_STATE),
	/* the kernel finished writing a dirty folio back (__folio_end_writeback()) */
	[RF_EV_FILE_WRITTEN] = T("file_written", STATE, .pages = RF_PAGES_FILE_RANGE),
	[RF_EV_PAGECACHE_ADD] = T("pagecache_add", OBSERVATION, .cgroup_off = OFF(file.cgroup),
				  .pages = RF_PAGES_FILE_FOLIO),
	[RF_EV_PAGECACHE_DEL] = T("pagecache_del", OBSERVATION, .pages = RF_PAGES_FILE_FOLIO),
	[RF_EV_LRU_ADD] = T("lru_add", OBSERVATION, .cgroup_off = OFF(lru.cgroup)),
	[RF_EV_LRU_ACTIVATE] = T("lru_activate", OBSERVATION),
	[RF_EV_RECLAIM] = T("reclaim", OBSERVATION, .cgroup_off = OFF(reclaim.cgroup)),
	[RF_EV_COUNTERS] = T("counters", OBSERVATION, .cgroup_off = OFF(counters.cgroup)),
	[RF_EV_LOST] = T("lost", META),
	[RF_EV_MARKER] = T("marker", META),
	[RF_EV_END] = T("end", META),
};

const struct rf_event_type_info *rf_event_type_info(unsigned int type)
{
	return type < RF_EV_TYPE_MAX && fmt_event_types[type].name ? &fmt_event_types[type] : NULL;
}

const char *rf_event_type_name(unsigned int type)
{
	return type < RF_EV_TYPE_MAX ? fmt_event_types[type].name : NULL;
}

unsigned int rf_event_type_from_name(const char *name)
{
	unsigned int t;

	for (t = 1; name && t < RF_EV_TYPE_MAX; t++)
		if (fmt_event_types[t].name && !strcmp(fmt_event_types[t].name, name))
			return t;
	return RF_EV_NONE;
}

enum rf_event_class rf_event_class(unsigned int type)
{
	return type < RF_EV_TYPE_MAX ? fmt_event_types[type].cls : RF_CLASS_UNKNOWN;
}

const char *rf_event_class_name(enum rf_event_class c)
{
	static const char *const names[] = { "unknown", "reference", "state", "observation", "meta" };

	return (unsigned int)c < ARRAY_SIZE(names) ? names[c] : "unknown";
}

static const char *const limit_names[RF_LIMIT_KIND_MAX] = {
	[RF_LIMIT_MEMORY] = "memory",
	[RF_LIMIT_MEMSW] = "memsw",
	[RF_LIMIT_SWAP] = "swap",
	[RF_LIMIT_HIGH] = "high",
	[RF_LIMIT_LOW] = "low",
	[RF_LIMIT_MIN] = "min",
	[RF_LIMIT_SOFT] = "soft",
	[RF_LIMIT_SWAPPINESS] = "swappiness",
};

const char *rf_limit_kind_name(unsigned int kind)
{
	return kind < RF_LIMIT_KIND_MAX ? limit_names[kind] : NULL;
}

unsigned int rf_limit_kind_from_name(const char *name)
{
	unsigned int k;

	for (k = 0; name && k < RF_LIMIT_KIND_MAX; k++)
		if (!strcmp(limit_names[k], name))
			return k;
	return RF_LIMIT_KIND_MAX;
}
