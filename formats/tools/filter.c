/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event selection for dump and slice (filter.h).  --cgroup matches
 * observations that carry a cgroup id, and events of tasks whose cgroup is
 * known from cgroup_attach, name_pid or an ancestor's fork.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tools/tools-local.h"

#define MAX_CGROUP_DEPTH 64

void rf_tools_filter_init(struct rf_tools_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->to = UINT64_MAX;
}

void rf_tools_filter_free(struct rf_tools_filter *f)
{
	u64_map_destroy(&f->tgid_of);
	u64_map_destroy(&f->cgroup_of);
	u64_map_destroy(&f->parent_of);
}

static int parse_time(const char *s, uint64_t *ns, bool *relative)
{
	*relative = s[0] == '+';
	return rf_parse_duration(s + *relative, ns);
}

static int type_index(const char *name)
{
	unsigned int t = rf_event_type_from_name(name);

	return t == RF_EV_NONE ? -1 : (int)t;
}

static int class_index(const char *name)
{
	int c;

	for (c = RF_CLASS_REFERENCE; c <= RF_CLASS_META; c++)
		if (!strcmp(name, rf_event_class_name((enum rf_event_class)c)))
			return c;
	return -1;
}

/*
 * The comma-separated names of @arg into @set, at the index lookup() gives
 * (-1: unknown).  Returns 1, or -1 after "OPT: unknown WHAT 'name' (HINT)".
 */
static int parse_names(const struct rf_tools_log *log, const char *opt, const char *what,
		       const char *hint, const char *arg, int (*lookup)(const char *name), bool *set)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int i, rc = 1;

	if (!copy) {
		tools_err(log, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		i = lookup(tok);
		if (i < 0) {
			tools_err(log, "%s: unknown %s '%s' (%s)", opt, what, tok, hint);
			rc = -1;
			break;
		}
		set[i] = true;
	}
	free(copy);
	return rc;
}

int rf_tools_filter_option(struct rf_tools_filter *f, const struct rf_tools_log *log,
			   const char *opt, const char *arg)
{
	uint64_t v;
	bool rel;

	if (!strcmp(opt, "type")) {
		f->by_type = true;
		return parse_names(log, "--type", "event type", "names as in 'dump' output, "
				   "e.g. file_read,anon_fault", arg, type_index, f->types);
	}
	if (!strcmp(opt, "class")) {
		f->by_class = true;
		return parse_names(log, "--class", "class", "reference, state, observation, meta",
				   arg, class_index, f->classes);
	}
	if (!strcmp(opt, "pid")) {
		if (rf_parse_u64(arg, &v) || v > INT32_MAX) {
			tools_err(log, "--pid: '%s' is not a pid", arg);
			return -1;
		}
		f->by_pid = true;
		f->pid = (int32_t)v;
		return 1;
	}
	if (!strcmp(opt, "cgroup")) {
		if (rf_parse_u64(arg, &v)) {
			tools_err(log, "--cgroup: '%s' is not a cgroup id (a number, as in "
			       "cgroup_mkdir events)", arg);
			return -1;
		}
		f->by_cgroup = true;
		f->cgroup = v;
		return 1;
	}
	if (!strcmp(opt, "from") || !strcmp(opt, "to")) {
		if (parse_time(arg, &v, &rel)) {
			tools_err(log, "--%s: '%s' is not a time (seconds on the trace clock as "
			       "dump prints them, \"12.5\", \"12500ms\", or \"+2s\" from the first "
			       "event)", opt, arg);
			return -1;
		}
		if (opt[0] == 'f')
			f->from_arg = arg;
		else
			f->to_arg = arg;
		return 1;
	}
	return 0;
}

static int resolve_one(const char *arg, uint64_t start, uint64_t *out)
{
	uint64_t v;
	bool rel;

	parse_time(arg, &v, &rel);
	if (rel)
		v = v > UINT64_MAX - start ? UINT64_MAX : start + v;
	*out = v;
	return 0;
}

int rf_tools_filter_resolve(struct rf_tools_filter *f, const struct rf_tools_log *log,
			    struct rf_trace_reader *r)
{
	const struct rf_chunk_info *chunks;
	uint64_t start = UINT64_MAX;
	long n, i;

	if ((f->from_arg && f->from_arg[0] == '+') || (f->to_arg && f->to_arg[0] == '+')) {
		n = rf_trace_reader_chunks(r, &chunks);
		if (n < 0) {
			tools_err(log, "cannot list chunks: %s", rf_trace_reader_errmsg(r));
			return -1;
		}
		for (i = 0; i < n; i++)
			start = chunks[i].t_first < start ? chunks[i].t_first : start;
		if (start == UINT64_MAX)
			start = 0;
	}
	if (f->from_arg)
		resolve_one(f->from_arg, start, &f->from);
	if (f->to_arg)
		resolve_one(f->to_arg, start, &f->to);
	if (f->from > f->to) {
		tools_err(log, "--from is after --to: nothing to select");
		return -1;
	}
	return 0;
}

int tools_filter_learn(struct rf_tools_filter *f, const struct rf_event *ev)
{
	const uint64_t *cg;
	int err = 0;

	if (!f->by_pid && !f->by_cgroup)
		return 0;
	switch (ev->type) {
	case RF_EV_FORK:
		err = u64_map_put(&f->tgid_of, (uint32_t)ev->u.task.pid,
				  (uint32_t)(ev->u.task.tgid ? ev->u.task.tgid : ev->u.task.pid));
		cg = err ? NULL : u64_map_get(&f->cgroup_of, (uint32_t)ev->pid);
		if (cg)
			err = u64_map_put(&f->cgroup_of, (uint32_t)ev->u.task.pid, *cg);
		break;
	case RF_EV_NAME_PID:
		if (ev->u.task.tgid)
			err = u64_map_put(&f->tgid_of, (uint32_t)ev->u.task.pid,
					  (uint32_t)ev->u.task.tgid);
		if (!err && ev->u.task.cgroup)
			err = u64_map_put(&f->cgroup_of, (uint32_t)ev->u.task.pid,
					  ev->u.task.cgroup);
		break;
	case RF_EV_CGROUP_ATTACH:
		err = u64_map_put(&f->cgroup_of, (uint32_t)ev->u.cgroup.pid, ev->u.cgroup.id);
		break;
	case RF_EV_CGROUP_MKDIR:
		err = u64_map_put(&f->parent_of, ev->u.cgroup.id, ev->u.cgroup.parent);
		break;
	}
	return err;
}

bool tools_filter_in_time(const struct rf_tools_filter *f, const struct rf_event *ev)
{
	return ev->time >= f->from && ev->time <= f->to;
}

/* The pid an event names besides the thread that caused it, or -1. */
static int64_t named_pid(const struct rf_event *ev)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	int32_t pid;

	if (!ti || !ti->pid_off)
		return -1;
	memcpy(&pid, (const char *)ev + ti->pid_off, sizeof(pid));
	return pid;
}

static bool pid_matches(const struct rf_tools_filter *f, int64_t pid)
{
	const uint64_t *tgid;

	if (pid < 0)
		return false;
	if (pid == f->pid)
		return true;
	tgid = u64_map_get(&f->tgid_of, (uint32_t)pid);
	return tgid && *tgid == (uint64_t)f->pid;
}

/* The memory cgroup an event belongs to; false when unknown. */
static bool event_cgroup(const struct rf_tools_filter *f, const struct rf_event *ev, uint64_t *cg)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	const uint64_t *tgid, *known;

	if (ti && ti->cgroup_off) {
		memcpy(cg, (const char *)ev + ti->cgroup_off, sizeof(*cg));
		/* /proc/vmstat is the whole host's, the recorder's counts the recording's */
		return ev->type != RF_EV_COUNTERS || (ev->u.counters.source != RF_COUNTERS_VMSTAT &&
						      ev->u.counters.source != RF_COUNTERS_RECORDER);
	}
	if (ev->pid <= 0)
		return false;
	known = u64_map_get(&f->cgroup_of, (uint32_t)ev->pid);
	if (!known) {
		tgid = u64_map_get(&f->tgid_of, (uint32_t)ev->pid);
		known = tgid ? u64_map_get(&f->cgroup_of, *tgid) : NULL;
	}
	if (known)
		*cg = *known;
	return known != NULL;
}

static bool cgroup_matches(const struct rf_tools_filter *f, uint64_t cg)
{
	const uint64_t *parent;
	int depth;

	for (depth = 0; depth < MAX_CGROUP_DEPTH; depth++) {
		if (cg == f->cgroup)
			return true;
		parent = u64_map_get(&f->parent_of, cg);
		if (!parent || !*parent)
			return false;
		cg = *parent;
	}
	return false;
}

bool tools_filter_match_who(const struct rf_tools_filter *f, const struct rf_event *ev)
{
	if (f->by_type && !f->types[ev->type < RF_EV_TYPE_MAX ? ev->type : 0])
		return false;
	if (f->by_class && !f->classes[rf_event_class(ev->type)])
		return false;
	return tools_filter_match_task(f, ev);
}

bool tools_filter_match_task(const struct rf_tools_filter *f, const struct rf_event *ev)
{
	uint64_t cg;

	if (f->by_pid && !pid_matches(f, ev->pid) && !pid_matches(f, named_pid(ev)))
		return false;
	if (f->by_cgroup && !(event_cgroup(f, ev, &cg) && cgroup_matches(f, cg)))
		return false;
	return true;
}

bool tools_filter_match(const struct rf_tools_filter *f, const struct rf_event *ev)
{
	return tools_filter_in_time(f, ev) && tools_filter_match_who(f, ev);
}

bool tools_filter_per_event(const struct rf_tools_filter *f)
{
	return f->by_type || f->by_class || f->by_pid || f->by_cgroup;
}
