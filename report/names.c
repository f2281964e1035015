/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names a trace gives its pids, address spaces, files, cgroups and
 * stacks (name_pid, exec, fork, name_file, cgroup_mkdir; name_stack and
 * name_frame in stacks.c), as of the last event fed: a command renamed by
 * exec is named anew from then on.  Besides the name of now, the first name
 * each pid, file and cgroup was given, for a key first counted before the
 * trace named it (report_source_finish()): the recorder names a file read with
 * read() when it next finds the file among the reader's fds, after its
 * first pages were added.
 *
 * A file is its (dev, ino) until the trace shows its last link gone (a
 * truncate with RF_TRUNC_UNLINK, truncate_inode_pages_final()): what uses
 * that (dev, ino) after is another file, a generation of its own, unnamed
 * until the trace names it again.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report-local.h"

static int intern(struct report_names *n, const char *s, uint64_t *idx)
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

/*
 * @map's entry for @key names @s: the string it had if the same, else a new
 * one; @first's entry for @first_key too, if it has none yet.
 */
static int name(struct report_names *n, struct report_map *map, uint64_t key,
		struct report_map *first, uint64_t first_key, const char *s)
{
	const uint64_t *old = report_map_get(map, key);
	uint64_t idx;

	if (!s)
		return 0;
	if (old && !strcmp(n->strs[*old], s))
		return 0;
	if (intern(n, s, &idx) || report_map_put(map, key, idx))
		return RF_ERR_NOMEM;
	return report_map_get(first, first_key) ? 0 : report_map_put(first, first_key, idx);
}

static uint64_t file_key(uint32_t dev, uint64_t ino)
{
	return rf_hash2(dev, ino);
}

static uint64_t file_gen_key(uint32_t dev, uint64_t ino, uint32_t gen)
{
	return gen ? rf_hash2(file_key(dev, ino), gen) : file_key(dev, ino);
}

/* The address space's first pid, and the command it had then (its index in strs[] + 1; 0: none). */
static int mm_of(struct report_names *n, uint64_t mm, int32_t pid)
{
	const uint64_t *c = report_map_get(&n->pid_comm, (uint32_t)pid);

	if (!mm || pid <= 0 || report_map_get(&n->mm_pid, mm))
		return 0;
	return report_map_put(&n->mm_pid, mm, (uint32_t)pid | (c ? *c + 1 : 0) << 32);
}

static int name_comm(struct report_names *n, int32_t pid, const char *comm)
{
	return name(n, &n->pid_comm, (uint32_t)pid, &n->pid_first, (uint32_t)pid, comm);
}

/* The file's last link went: its (dev, ino) is a new file's from now on, unnamed. */
static int unlinked(struct report_names *n, uint32_t dev, uint64_t ino)
{
	const uint64_t *g = report_map_get(&n->file_gen, file_key(dev, ino));
	uint64_t gen = g ? *g + 1 : 1;

	if (gen > UINT32_MAX)
		return 0;	/* 4 billion unlinks of one inode: the last generation takes the rest */
	report_map_del(&n->file, file_key(dev, ino), NULL);
	n->any_unlink = true;
	return report_map_put(&n->file_gen, file_key(dev, ino), gen);
}

int report_names_feed(struct report_names *n, enum rf_report_by by, const struct rf_event *ev)
{
	const char *comm;

	switch (ev->type) {
	case RF_EV_NAME_FRAME:
	case RF_EV_NAME_STACK:
		return report_by_stack(by) ? report_stacks_feed(&n->stacks, ev) : 0;
	case RF_EV_NAME_PID:
		if (name_comm(n, ev->u.task.pid, ev->u.task.comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->u.task.pid);
	case RF_EV_EXEC:
		if (name_comm(n, ev->pid, ev->u.task.comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->pid);
	case RF_EV_FORK:
		/* the child runs its parent's command until it execs */
		comm = report_names_comm(n, ev->pid);
		if (name_comm(n, ev->u.task.pid, comm))
			return RF_ERR_NOMEM;
		return mm_of(n, ev->u.task.mm, ev->u.task.pid);
	case RF_EV_NAME_FILE:
		if (by != RF_REPORT_BY_FILE)
			return 0;
		return name(n, &n->file, file_key(ev->u.name_file.dev, ev->u.name_file.ino),
			    &n->file_first, file_gen_key(ev->u.name_file.dev, ev->u.name_file.ino,
			    report_names_file_gen(n, ev->u.name_file.dev, ev->u.name_file.ino)),
			    ev->u.name_file.path);
	case RF_EV_TRUNCATE:
		/* in every view: a file's pages are its generation's (report_page_id()) */
		if (!(ev->u.file.flags & RF_TRUNC_UNLINK))
			return 0;
		return unlinked(n, ev->u.file.dev, ev->u.file.ino);
	case RF_EV_CGROUP_MKDIR:
		if (by != RF_REPORT_BY_CGROUP)
			return 0;
		return name(n, &n->cgroup, ev->u.cgroup.id, &n->cgroup_first, ev->u.cgroup.id,
			    ev->u.cgroup.path);
	default:
		return 0;
	}
}

static const char *str_at(const struct report_names *n, const uint64_t *i)
{
	return i ? n->strs[*i] : NULL;
}

const char *report_names_comm(const struct report_names *n, int32_t pid)
{
	return str_at(n, report_map_get(&n->pid_comm, (uint32_t)pid));
}

const char *report_names_comm_first(const struct report_names *n, int32_t pid)
{
	return str_at(n, report_map_get(&n->pid_first, (uint32_t)pid));
}

uint32_t report_names_file_gen(const struct report_names *n, uint32_t dev, uint64_t ino)
{
	const uint64_t *g;

	if (!n->any_unlink)
		return 0;
	g = report_map_get(&n->file_gen, file_key(dev, ino));
	return g ? (uint32_t)*g : 0;
}

const char *report_names_file(const struct report_names *n, uint32_t dev, uint64_t ino)
{
	return str_at(n, report_map_get(&n->file, file_key(dev, ino)));
}

const char *report_names_file_first(const struct report_names *n, uint32_t dev, uint64_t ino,
				    uint32_t gen)
{
	return str_at(n, report_map_get(&n->file_first, file_gen_key(dev, ino, gen)));
}

const char *report_names_cgroup(const struct report_names *n, uint64_t id)
{
	return str_at(n, report_map_get(&n->cgroup, id));
}

const char *report_names_cgroup_first(const struct report_names *n, uint64_t id)
{
	return str_at(n, report_map_get(&n->cgroup_first, id));
}

int32_t report_names_mm_pid(const struct report_names *n, uint64_t mm)
{
	const uint64_t *p = report_map_get(&n->mm_pid, mm);

	return p ? (int32_t)(uint32_t)*p : 0;
}

const char *report_names_mm_comm(const struct report_names *n, uint64_t mm)
{
	const uint64_t *p = report_map_get(&n->mm_pid, mm);

	if (!p)
		return NULL;
	if (*p >> 32)
		return n->strs[(*p >> 32) - 1];
	return report_names_comm_first(n, (int32_t)(uint32_t)*p);
}

void report_names_free(struct report_names *n)
{
	size_t i;

	for (i = 0; i < n->nr_strs; i++)
		free(n->strs[i]);
	free(n->strs);
	report_map_destroy(&n->pid_comm);
	report_map_destroy(&n->pid_first);
	report_map_destroy(&n->mm_pid);
	report_map_destroy(&n->file);
	report_map_destroy(&n->file_first);
	report_map_destroy(&n->file_gen);
	report_map_destroy(&n->cgroup);
	report_map_destroy(&n->cgroup_first);
	report_stacks_free(&n->stacks);
	memset(n, 0, sizeof(*n));
}
