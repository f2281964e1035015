/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names of event types, classes and enum values, as used in dumps, JSON and docs. */
#include <string.h>

#include "formats/format-local.h"

struct type_desc {
	const char *name;
	enum rf_event_class cls;
};

static const struct type_desc types[RF_EV_TYPE_MAX] = {
	[RF_EV_FILE_READ] = { "file_read", RF_CLASS_REFERENCE },
	[RF_EV_FILE_WRITE] = { "file_write", RF_CLASS_REFERENCE },
	[RF_EV_FILE_FAULT] = { "file_fault", RF_CLASS_REFERENCE },
	[RF_EV_ANON_FAULT] = { "anon_fault", RF_CLASS_REFERENCE },
	[RF_EV_ACCESS] = { "access", RF_CLASS_REFERENCE },
	[RF_EV_FILE_READAHEAD] = { "file_readahead", RF_CLASS_REFERENCE },
	[RF_EV_MMAP] = { "mmap", RF_CLASS_STATE },
	[RF_EV_MUNMAP] = { "munmap", RF_CLASS_STATE },
	[RF_EV_MADVISE] = { "madvise", RF_CLASS_STATE },
	[RF_EV_FADVISE] = { "fadvise", RF_CLASS_STATE },
	[RF_EV_TRUNCATE] = { "truncate", RF_CLASS_STATE },
	[RF_EV_FORK] = { "fork", RF_CLASS_STATE },
	[RF_EV_EXEC] = { "exec", RF_CLASS_STATE },
	[RF_EV_EXIT] = { "exit", RF_CLASS_STATE },
	[RF_EV_CGROUP_MKDIR] = { "cgroup_mkdir", RF_CLASS_STATE },
	[RF_EV_CGROUP_RMDIR] = { "cgroup_rmdir", RF_CLASS_STATE },
	[RF_EV_CGROUP_ATTACH] = { "cgroup_attach", RF_CLASS_STATE },
	[RF_EV_CGROUP_LIMIT] = { "cgroup_limit", RF_CLASS_STATE },
	[RF_EV_NAME_FILE] = { "name_file", RF_CLASS_STATE },
	[RF_EV_NAME_PID] = { "name_pid", RF_CLASS_STATE },
	[RF_EV_NAME_STACK] = { "name_stack", RF_CLASS_STATE },
	[RF_EV_PAGECACHE_ADD] = { "pagecache_add", RF_CLASS_OBSERVATION },
	[RF_EV_PAGECACHE_DEL] = { "pagecache_del", RF_CLASS_OBSERVATION },
	[RF_EV_LRU_ADD] = { "lru_add", RF_CLASS_OBSERVATION },
	[RF_EV_LRU_ACTIVATE] = { "lru_activate", RF_CLASS_OBSERVATION },
	[RF_EV_RECLAIM] = { "reclaim", RF_CLASS_OBSERVATION },
	[RF_EV_COUNTERS] = { "counters", RF_CLASS_OBSERVATION },
	[RF_EV_LOST] = { "lost", RF_CLASS_META },
	[RF_EV_MARKER] = { "marker", RF_CLASS_META },
	[RF_EV_END] = { "end", RF_CLASS_META },
};

const char *rf_event_type_name(unsigned int type)
{
	return type < RF_EV_TYPE_MAX ? types[type].name : NULL;
}

unsigned int rf_event_type_from_name(const char *name)
{
	unsigned int t;

	for (t = 1; name && t < RF_EV_TYPE_MAX; t++)
		if (types[t].name && !strcmp(types[t].name, name))
			return t;
	return RF_EV_NONE;
}

enum rf_event_class rf_event_class(unsigned int type)
{
	return type < RF_EV_TYPE_MAX ? types[type].cls : RF_CLASS_UNKNOWN;
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
