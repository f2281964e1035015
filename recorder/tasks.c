/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tasks and address spaces as the normalizer sees them.  A task it has not
 * met (it existed before recording, or its fork was not traced) is looked up
 * in /proc once and announced with NAME_PID before its first event, so every
 * pid in the trace maps to a tgid, an mm and a cgroup.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/norm.h"

/* Attempts to name a file from a reader's fd before giving up on it. */
#define NAME_FILE_TRIES	4

static void proc_status(int32_t pid, int32_t *tgid, char *comm, size_t len)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:\t", 6)) {
			size_t n = strcspn(line + 6, "\n");

			n = n < len - 1 ? n : len - 1;
			memcpy(comm, line + 6, n);
			comm[n] = '\0';
		} else if (!strncmp(line, "Tgid:\t", 6)) {
			*tgid = atoi(line + 6);
		}
	}
	fclose(f);
}

static uint64_t proc_cgroup(struct rf_norm *n, int32_t pid)
{
	char rel[2048];

	if (!n->cfg.root || rec_memcg_path_in(n->cfg.root, pid, rel, sizeof(rel)))
		return 0;
	return rec_memcg_id(n->cfg.root, strcmp(rel, "/") ? rel : "");
}

static uint64_t mm_of_tgid(struct rf_norm *n, int32_t tgid)
{
	const uint64_t *id = rec_u64_map_get(&n->tgid_mm, tgid);

	if (id)
		return *id;
	/* sequence 0: the mm the process had at start */
	rec_u64_map_put(&n->tgid_mm, tgid, (uint32_t)tgid);
	return (uint32_t)tgid;
}

static struct rec_task *task_alloc(struct rf_norm *n, int32_t pid, int32_t tgid)
{
	struct rec_task *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tgid = tgid;
	if (rec_task_map_put(&n->tasks, pid, t)) {
		free(t);
		return NULL;
	}
	return t;
}

/* Meet a task for the first time: /proc, then NAME_PID. */
static struct rec_task *task_discover(struct rf_norm *n, uint64_t time, int32_t pid)
{
	struct rf_event ev = { .time = time, .pid = pid, .type = RF_EV_NAME_PID };
	char comm[64] = "";
	int32_t tgid = pid;
	struct rec_task *t;

	if (pid > 0)
		proc_status(pid, &tgid, comm, sizeof(comm));
	t = task_alloc(n, pid, tgid);
	if (!t)
		return NULL;
	t->mm = pid > 0 ? mm_of_tgid(n, tgid) : 0;
	t->cgroup = pid > 0 ? proc_cgroup(n, pid) : 0;
	t->kswapd = !strncmp(comm, "kswapd", 6);
	rec_task_event(&ev, t);
	ev.u.task.comm = comm[0] ? comm : NULL;
	rec_norm_emit(n, &ev);
	return t;
}

struct rec_task *rec_task_find(const struct rf_norm *n, int32_t pid)
{
	struct rec_task **t = rec_task_map_get(&n->tasks, pid);

	return t ? *t : NULL;
}

struct rec_task *rec_task_get(struct rf_norm *n, uint64_t time, int32_t pid)
{
	struct rec_task *t = rec_task_find(n, pid);

	return t ? t : task_discover(n, time, pid);
}

struct rec_task *rec_task_forked(struct rf_norm *n, int32_t pid, int32_t tgid)
{
	rec_task_drop(n, pid);	/* pid reuse after a missed exit */
	return task_alloc(n, pid, tgid);
}

void rec_task_drop(struct rf_norm *n, int32_t pid)
{
	struct rec_task *t;

	if (rec_task_map_del(&n->tasks, pid, &t))
		free(t);
}

struct rec_mm *rec_mm_get(struct rf_norm *n, uint64_t id, int32_t tgid)
{
	bool fresh;
	struct rec_mm **mm = rec_mm_map_slot(&n->mms, id, &fresh);

	if (!mm || !fresh)
		return mm ? *mm : NULL;
	*mm = calloc(1, sizeof(**mm));
	if (!*mm) {
		rec_mm_map_del(&n->mms, id, NULL);
		return NULL;
	}
	(*mm)->id = id;
	(*mm)->tgid = tgid;
	return *mm;
}

uint64_t rec_mm_new(struct rf_norm *n, int32_t tgid, const struct rec_mm *from)
{
	uint64_t id = (uint64_t)++n->mm_seq << 32 | (uint32_t)tgid;
	struct rec_mm *mm = rec_mm_get(n, id, tgid);

	rec_u64_map_put(&n->tgid_mm, tgid, id);
	if (mm && from && from->vmas.nr) {
		mm->vmas.v = malloc(from->vmas.nr * sizeof(*mm->vmas.v));
		if (mm->vmas.v) {
			memcpy(mm->vmas.v, from->vmas.v, from->vmas.nr * sizeof(*mm->vmas.v));
			mm->vmas.nr = mm->vmas.cap = from->vmas.nr;
			mm->vmas.loaded_at = from->vmas.loaded_at;
		}
	}
	return id;
}

void rec_norm_free_tasks(struct rf_norm *n)
{
	struct rec_task_map_slot *t = NULL;
	struct rec_mm_map_slot *mm = NULL;

	while ((t = rec_task_map_next(&n->tasks, t)))
		free(t->val);
	while ((mm = rec_mm_map_next(&n->mms, mm))) {
		rec_vmas_free(&mm->val->vmas);
		free(mm->val);
	}
	rec_task_map_destroy(&n->tasks);
	rec_mm_map_destroy(&n->mms);
	rec_u64_map_destroy(&n->tgid_mm);
}

void rec_name_file_from_fd(struct rf_norm *n, uint64_t time, int32_t pid, int fd,
			   uint32_t dev, uint64_t ino)
{
	struct rf_event ev = { .time = time, .pid = pid, .type = RF_EV_NAME_FILE };
	uint64_t key = rf_hash2(dev, ino), *tries = rec_u64_map_get(&n->named_files, key);
	uint64_t failed = tries ? *tries : 0;
	char link[64], path[4096];
	struct stat st;
	ssize_t len;

	/* named already (0), or looked up in vain too often: a short-lived reader's fds are gone */
	if (fd < 0 || (tries && (!failed || failed >= NAME_FILE_TRIES)))
		return;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, fd);
	/* the fd may have been closed or reused since: name it only if it is that file */
	if (stat(link, &st) || st.st_ino != ino || rec_kdev(st.st_dev) != dev ||
	    (len = readlink(link, path, sizeof(path) - 1)) <= 0) {
		rec_u64_map_put(&n->named_files, key, failed + 1);
		return;
	}
	path[len] = '\0';
	rec_u64_map_put(&n->named_files, key, 0);
	ev.u.name_file.dev = dev;
	ev.u.name_file.ino = ino;
	ev.u.name_file.size = st.st_size;
	ev.u.name_file.path = path;
	rec_norm_emit(n, &ev);
}
