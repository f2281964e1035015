/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names a trace gives its pids, address spaces, files, cgroups and
 * stacks (name_pid, exec, fork, name_file, cgroup_mkdir; name_stack and
 * name_frame in stacks.c), as of the last event fed:
 * a command renamed by exec is named anew from then on.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report-local.h"

static int intern(struct rp_names *n, const char *s, uint64_t *idx)
{
	char *c;

	if (RF_GROW(n->strs, n->cap_strs, n->nr_strs + 1))
		return RF_ERR_NOMEM;
	c = strdup(s);
	if (!c)
		return RF_ERR_NOMEM;
	*idx = n->nr_strs;
	n->strs[n->nr_strs++] = c;
	return 0;
}

/* @map's entry for @key names @s: the string it had if the same, else a new one. */
static int name(struct rp_names *n, struct rp_map *map, uint64_t key, const char *s)
{
	const uint64_t *old = rp_map_get(map, key);
	uint64_t idx;

	if (!s)
		return 0;
	if (old && !strcmp(n->strs[*old], s))
		return 0;
	if (intern(n, s, &idx))
		return RF_ERR_NOMEM;
	return rp_map_put(map, key, idx);
}

static uint64_t file_key(uint32_t dev, uint64_t ino)
{
	return rf_hash2(dev, ino);
}

static int mm_of(struct rp_names *n, uint64_t mm, int32_t pid)
{
	if (!mm || pid <= 0 || rp_map_get(&n->mm_pid, mm))
		return 0;
	return rp_map_put(&n->mm_pid, mm, (uint32_t)pid);
}

int rp_names_feed(struct rp_names *n, enum rf_report_by by, const struct rf_event *ev)
{
	const char *comm;

	switch (ev->type) {
	case RF_EV_NAME_FRAME:
	case RF_EV_NAME_STACK:
		return rp_by_stack(by) ? rp_stacks_feed(&n->stacks, ev) : 0;
	case RF_EV_NAME_PID:
		if (name(n, &n->pid_comm, (uint32_t)ev->u.task.pid, ev->u.task.comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->u.task.pid);
	case RF_EV_EXEC:
		if (name(n, &n->pid_comm, (uint32_t)ev->pid, ev->u.task.comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->pid);
	case RF_EV_FORK:
		/* the child runs its parent's command until it execs */
		comm = rp_names_comm(n, ev->pid);
		if (name(n, &n->pid_comm, (uint32_t)ev->u.task.pid, comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->u.task.pid);
	case RF_EV_NAME_FILE:
		if (by != RF_REPORT_BY_FILE)
			return 0;
		return name(n, &n->file, file_key(ev->u.name_file.dev, ev->u.name_file.ino),
			    ev->u.name_file.path);
	case RF_EV_CGROUP_MKDIR:
		if (by != RF_REPORT_BY_CGROUP)
			return 0;
		return name(n, &n->cgroup, ev->u.cgroup.id, ev->u.cgroup.path);
	default:
		return 0;
	}
}

const char *rp_names_comm(const struct rp_names *n, int32_t pid)
{
	const uint64_t *i = rp_map_get(&n->pid_comm, (uint32_t)pid);

	return i ? n->strs[*i] : NULL;
}

const char *rp_names_file(const struct rp_names *n, uint32_t dev, uint64_t ino)
{
	const uint64_t *i = rp_map_get(&n->file, file_key(dev, ino));

	return i ? n->strs[*i] : NULL;
}

const char *rp_names_cgroup(const struct rp_names *n, uint64_t id)
{
	const uint64_t *i = rp_map_get(&n->cgroup, id);

	return i ? n->strs[*i] : NULL;
}

int32_t rp_names_mm_pid(const struct rp_names *n, uint64_t mm)
{
	const uint64_t *p = rp_map_get(&n->mm_pid, mm);

	return p ? (int32_t)*p : 0;
}

void rp_names_free(struct rp_names *n)
{
	size_t i;

	for (i = 0; i < n->nr_strs; i++)
		free(n->strs[i]);
	free(n->strs);
	rp_map_destroy(&n->pid_comm);
	rp_map_destroy(&n->mm_pid);
	rp_map_destroy(&n->file);
	rp_map_destroy(&n->cgroup);
	rp_stacks_free(&n->stacks);
	memset(n, 0, sizeof(*n));
}
