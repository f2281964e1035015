/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names `trace dump` adds to a line, as perf script shows a task's comm:
 * the thread's command (name_pid, exec; a forked child inherits its
 * parent's), the file's path (name_file) and the memory cgroup's path
 * (cgroup_mkdir), each learnt from the events read so far.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/tools/tools-local.h"
#include "lib/grow.h"

/* @key's string: a new one replaces the old; NULL @s forgets nothing. */
static int put(struct tools_names *n, struct u64_map *map, uint64_t key, const char *s)
{
	uint64_t *slot;
	char *copy;
	bool fresh;

	if (!s || !*s)
		return 0;
	slot = u64_map_slot(map, key, &fresh);
	if (!slot)
		return RF_ERR_NOMEM;
	if (!fresh && !strcmp(n->strings[*slot], s))
		return 0;
	copy = strdup(s);
	if (!copy || RF_GROW(n->strings, n->cap, n->nr + 1)) {
		free(copy);
		return RF_ERR_NOMEM;
	}
	n->strings[n->nr] = copy;
	*slot = n->nr++;
	return 0;
}

static const char *get(const struct tools_names *n, const struct u64_map *map, uint64_t key)
{
	const uint64_t *i = u64_map_get(map, key);

	return i ? n->strings[*i] : NULL;
}

static uint64_t file_key(uint32_t dev, uint64_t ino)
{
	return rf_hash2(dev, ino);
}

int tools_names_learn(struct tools_names *n, const struct rf_event *ev)
{
	const char *parent;

	switch (ev->type) {
	case RF_EV_NAME_PID:
		return put(n, &n->comm, (uint32_t)ev->u.task.pid, ev->u.task.comm);
	case RF_EV_EXEC:
		return put(n, &n->comm, (uint32_t)ev->pid, ev->u.task.comm);
	case RF_EV_FORK:
		parent = get(n, &n->comm, (uint32_t)ev->pid);
		return parent ? put(n, &n->comm, (uint32_t)ev->u.task.pid, parent) : 0;
	case RF_EV_NAME_FILE:
		return put(n, &n->file, file_key(ev->u.name_file.dev, ev->u.name_file.ino),
			   ev->u.name_file.path);
	case RF_EV_CGROUP_MKDIR:
		return put(n, &n->cgroup, ev->u.cgroup.id, ev->u.cgroup.path);
	default:
		return 0;
	}
}

/* " comm=... file=... memcg=...": what is known, for what @ev does not say itself. */
void tools_names_print(FILE *out, const struct tools_names *n, const struct rf_event *ev)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	const char *s;

	if (ev->pid && ev->type != RF_EV_EXEC && ev->type != RF_EV_NAME_PID &&
	    (s = get(n, &n->comm, (uint32_t)ev->pid)))
		tools_print_field(out, "comm", s);
	if (ti && ti->pages == RF_PAGES_FILE_RANGE &&
	    (s = get(n, &n->file, file_key(ev->u.file.dev, ev->u.file.ino))))
		tools_print_field(out, "file", s);
	else if ((ev->type == RF_EV_MMAP) && ev->u.vma.ino &&
		 (s = get(n, &n->file, file_key(ev->u.vma.dev, ev->u.vma.ino))))
		tools_print_field(out, "file", s);
	if (ti && ti->cgroup_off && ev->type != RF_EV_CGROUP_MKDIR) {
		uint64_t id;

		memcpy(&id, (const char *)ev + ti->cgroup_off, sizeof(id));
		if (id && (s = get(n, &n->cgroup, id)))
			tools_print_field(out, "memcg", s);
	}
}

void tools_names_free(struct tools_names *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		free(n->strings[i]);
	free(n->strings);
	u64_map_destroy(&n->comm);
	u64_map_destroy(&n->file);
	u64_map_destroy(&n->cgroup);
	memset(n, 0, sizeof(*n));
}
