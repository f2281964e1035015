/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The event filter of `refault trace dump` and `slice`: --type, --class,
 * --pid, --cgroup, --from and --to (docs/refault-trace.md, "Filters").
 *
 * --pid matches the thread that caused an event, the threads of that
 * process (tgid learnt from fork and name_pid events), and events that name
 * the pid (fork child, name_pid, cgroup_attach).  --cgroup matches events
 * charged to the cgroup or to one of its descendants (parents learnt from
 * cgroup_mkdir).  Times are seconds on the trace clock as dump prints them
 * ("12.5", "12500ms"), or from the first event with a leading '+' ("+2s").
 *
 *	struct rf_tools_filter f;
 *	rf_tools_filter_init(&f);
 *	rf_tools_filter_option(&f, log, "pid", "1234")...	// per option
 *	rf_tools_filter_resolve(&f, log, reader);		// once the trace is open
 *	... rf_tools_dump() / rf_tools_slice() ...
 *	rf_tools_filter_free(&f);
 */
#ifndef REFAULT_FORMATS_TOOLS_FILTER_H
#define REFAULT_FORMATS_TOOLS_FILTER_H

#include "formats/tools/tools.h"
#include "lib/hash.h"
#include "lib/hashmap.h"

/*
 * uint64_t -> uint64_t (any key, 0 included): u64_map_get/put/destroy...,
 * lib/hashmap.h.  A zeroed map is empty.  The trace tools' one map.
 */
RF_HASHMAP_DEFINE(u64_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* Set by rf_tools_filter_option() and _resolve(); read them, do not set them. */
struct rf_tools_filter {
	bool by_type;
	bool types[RF_EV_TYPE_MAX];
	bool by_class;
	bool classes[RF_CLASS_META + 1];
	bool by_pid;
	int32_t pid;
	bool by_cgroup;
	uint64_t cgroup;
	const char *from_arg;	/* as given: they must outlive the filter */
	const char *to_arg;
	uint64_t from;		/* resolved, ns on the trace clock */
	uint64_t to;		/* inclusive; UINT64_MAX = no end */
	/* learnt from the events as they go by */
	struct u64_map tgid_of;	/* tid -> tgid */
	struct u64_map cgroup_of;	/* pid -> memory cgroup id */
	struct u64_map parent_of;	/* cgroup id -> parent id */
};

/* An empty filter: every event, every time. */
RF_API void rf_tools_filter_init(struct rf_tools_filter *f);
RF_API void rf_tools_filter_free(struct rf_tools_filter *f);

/*
 * rf_tools_filter_option() - one filter option's argument
 * @opt: the option's long name without dashes: "type", "class", "pid",
 *       "cgroup", "from", "to"
 * @arg: its argument; kept (not copied) for "from" and "to"
 *
 * Return: 1 when @opt is a filter option and @arg was parsed, 0 when @opt
 * is not a filter option, -1 after a message saying why @arg is bad (a
 * bad command line).
 */
RF_API int rf_tools_filter_option(struct rf_tools_filter *f, const struct rf_tools_log *log,
				  const char *opt, const char *arg);

/*
 * rf_tools_filter_resolve() - the times relative to the first event (by
 * @r's chunk list) made absolute; call once, before the filter selects
 * Return: 0, or -1 after a message (--from after --to: a bad command line;
 * the chunk list unreadable).
 */
RF_API int rf_tools_filter_resolve(struct rf_tools_filter *f, const struct rf_tools_log *log,
				   struct rf_trace_reader *r);

#endif /* REFAULT_FORMATS_TOOLS_FILTER_H */
