/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory cgroups: find the hierarchy (v1 "memory" or cgroup2 with the memory
 * controller), walk it, read limits, and make the throw-away group that
 * --memcg-limit runs a command in.  Ids are kernfs inode numbers, the same
 * ids cgroup and memcg tracepoints carry.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <refault/errors.h>

#include "recorder/record-local.h"
#include "recorder/record.h"

/* The kernel's "no limit" in v1 is PAGE_COUNTER_MAX pages, printed in bytes. */
#define V1_UNLIMITED_FLOOR	(1ULL << 62)

static int v1_hierarchy_id(void)
{
	char line[256], name[64];
	int id = -1, h;
	FILE *f = fopen("/proc/cgroups", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %d", name, &h) == 2 && !strcmp(name, "memory"))
			id = h;
	fclose(f);
	return id;
}

static bool v2_has_memory(const char *mount)
{
	char path[512], buf[512];

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mount);
	return !rec_knob_read(path, buf, sizeof(buf)) && strstr(buf, "memory");
}

/* mountinfo: "... mountpoint ... - fstype source superopts" */
static bool parse_mount(const char *line, char *mnt, size_t len, char *fstype, char *opts)
{
	char m[256];
	const char *dash = strstr(line, " - ");

	if (!dash || sscanf(line, "%*s %*s %*s %*s %255s", m) != 1 ||
	    sscanf(dash + 3, "%31s %*s %255s", fstype, opts) != 2)
		return false;
	snprintf(mnt, len, "%s", m);
	return true;
}

int rec_memcg_root_find(struct rec_memcg_root *r)
{
	char line[1024], mnt[256], fstype[32], opts[256], v2mnt[256] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");

	memset(r, 0, sizeof(*r));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!parse_mount(line, mnt, sizeof(mnt), fstype, opts))
			continue;
		if (!strcmp(fstype, "cgroup") && strstr(opts, "memory") && !r->mount[0])
			snprintf(r->mount, sizeof(r->mount), "%s", mnt);
		else if (!strcmp(fstype, "cgroup2") && !v2mnt[0])
			snprintf(v2mnt, sizeof(v2mnt), "%s", mnt);
	}
	fclose(f);
	if (r->mount[0]) {
		r->hierarchy_id = v1_hierarchy_id();
		return 0;
	}
	if (v2mnt[0] && v2_has_memory(v2mnt)) {
		snprintf(r->mount, sizeof(r->mount), "%s", v2mnt);
		r->v2 = true;
		return 0;
	}
	return -ENOENT;
}

int rec_memcg_mount(char *buf, size_t len, bool *v2)
{
	struct rec_memcg_root r;
	int err = rec_memcg_root_find(&r);

	if (!err) {
		snprintf(buf, len, "%s", r.mount);
		*v2 = r.v2;
	}
	return err;
}

int rec_memcg_path_of(pid_t pid, char *buf, size_t len)
{
	struct rec_memcg_root r;
	int err = rec_memcg_root_find(&r);

	return err ?: rec_memcg_path_in(&r, pid, buf, len);
}

int rec_memcg_path_in(const struct rec_memcg_root *root, pid_t pid, char *buf, size_t len)
{
	const struct rec_memcg_root r = *root;
	char path[64], line[1024];
	int err;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = -ENOENT;
	while (err && fgets(line, sizeof(line), f)) {
		char *rel = strchr(line, ':');
		char *ctrl = rel ? rel + 1 : NULL;

		rel = ctrl ? strchr(ctrl, ':') : NULL;
		if (!rel)
			continue;
		*rel++ = '\0';
		rel[strcspn(rel, "\n")] = '\0';
		if ((r.v2 && !strncmp(line, "0", 1) && !*ctrl) ||
		    (!r.v2 && (!strcmp(ctrl, "memory") || strstr(ctrl, "memory,") ||
			       strstr(ctrl, ",memory")))) {
			snprintf(buf, len, "%s", rel);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

uint64_t rec_memcg_id(const struct rec_memcg_root *r, const char *rel)
{
	char path[4096];
	struct stat st;

	/* "-G ceo-g" and "-G /ceo-g" both name a cgroup below the hierarchy's root */
	snprintf(path, sizeof(path), "%s%s%s", r->mount, rel[0] == '/' ? "" : "/", rel);
	return stat(path, &st) ? 0 : (uint64_t)st.st_ino;
}

static const char *limit_file(bool v2, enum rf_limit_kind kind)
{
	static const char *const v1[RF_LIMIT_KIND_MAX] = {
		[RF_LIMIT_MEMORY] = "memory.limit_in_bytes",
		[RF_LIMIT_MEMSW] = "memory.memsw.limit_in_bytes",
		[RF_LIMIT_SOFT] = "memory.soft_limit_in_bytes",
		[RF_LIMIT_SWAPPINESS] = "memory.swappiness",
	};
	static const char *const v2f[RF_LIMIT_KIND_MAX] = {
		[RF_LIMIT_MEMORY] = "memory.max", [RF_LIMIT_SWAP] = "memory.swap.max",
		[RF_LIMIT_HIGH] = "memory.high", [RF_LIMIT_LOW] = "memory.low",
		[RF_LIMIT_MIN] = "memory.min",
	};

	return v2 ? v2f[kind] : v1[kind];
}

bool rec_memcg_limit(const struct rec_memcg_root *r, const char *rel, enum rf_limit_kind kind,
		     uint64_t *value)
{
	const char *file = limit_file(r->v2, kind);
	char path[4096], buf[64];

	if (!file)
		return false;
	snprintf(path, sizeof(path), "%s%s/%s", r->mount, rel, file);
	if (rec_knob_read(path, buf, sizeof(buf)))
		return false;
	if (!strncmp(buf, "max", 3)) {
		*value = RF_UNLIMITED;
		return true;
	}
	*value = strtoull(buf, NULL, 10);
	if (!r->v2 && kind != RF_LIMIT_SWAPPINESS && *value >= V1_UNLIMITED_FLOOR)
		*value = RF_UNLIMITED;
	return true;
}

static int walk(const struct rec_memcg_root *r, const char *rel, uint64_t parent,
		int (*fn)(void *ctx, const char *rel, uint64_t id, uint64_t parent), void *ctx)
{
	char path[4096], child[4096];
	struct dirent *de;
	uint64_t id = rec_memcg_id(r, rel);
	DIR *d;
	int err;

	if (!id)
		return -ENOENT;
	err = fn(ctx, rel[0] ? rel : "/", id, parent);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s%s", r->mount, rel);
	d = opendir(path);
	if (!d)
		return 0;	/* removed meanwhile */
	while (!err && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", rel, de->d_name);
		err = walk(r, child, id, fn, ctx);
		if (err == -ENOENT)
			err = 0;
	}
	closedir(d);
	return err;
}

int rec_memcg_walk(const struct rec_memcg_root *r, const char *rel,
		   int (*fn)(void *ctx, const char *rel, uint64_t id, uint64_t parent), void *ctx)
{
	/* paths are kept "" for the root internally, "/a/b" below it */
	return walk(r, strcmp(rel, "/") ? rel : "", 0, fn, ctx);
}

/*
 * cgroup v2: a child has memory.max only when its parent delegates the memory
 * controller (kernel/cgroup/cgroup.c cgroup_subtree_control_write()).  Enable
 * it in @parent if it is not; a non-root cgroup with processes of its own
 * cannot (-EBUSY, the "no internal processes" rule), so say what to do.
 */
static int v2_delegate_memory(const char *parent, char *msg, size_t msglen)
{
	char path[4096], buf[512];
	int err;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", parent);
	if (!rec_knob_read(path, buf, sizeof(buf)) && strstr(buf, "memory"))
		return 0;
	err = rec_knob_write(path, "+memory");
	if (err == -EBUSY)
		snprintf(msg, msglen, "cannot enable the memory controller in %s: the cgroup has "
			 "processes of its own, and cgroup v2 delegates controllers only from a cgroup "
			 "without any; run refault record from a cgroup of its own (systemd-run "
			 "--scope -p Delegate=yes refault record ...)", path);
	else if (err)
		snprintf(msg, msglen, "cannot enable the memory controller in %s: %s", path,
			 strerror(-err));
	return err;
}

int rec_memcg_create(char *dir, size_t len, uint64_t limit, char *msg, size_t msglen)
{
	struct rec_memcg_root r;
	char own[2048], val[32], knob[4096];
	int err = rec_memcg_root_find(&r);

	if (!err)
		err = rec_memcg_path_of(getpid(), own, sizeof(own));
	if (err) {
		snprintf(msg, msglen, "no memory cgroup hierarchy found (v1 'memory' or cgroup2 with the memory controller)");
		return err;
	}
	if (!strcmp(own, "/"))
		own[0] = '\0';
	snprintf(dir, len, "%s%s", r.mount, own);
	if (r.v2) {
		err = v2_delegate_memory(dir, msg, msglen);
		if (err)
			return err;
	}
	snprintf(dir, len, "%s%s/" RF_RECORD_PREFIX "%d", r.mount, own, (int)getpid());
	if (mkdir(dir, 0755)) {
		err = -errno;
		snprintf(msg, msglen, "cannot create memory cgroup %s: %s", dir, strerror(errno));
		return err;
	}
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	snprintf(knob, sizeof(knob), "%s/%s", dir, r.v2 ? "memory.max" : "memory.limit_in_bytes");
	err = rec_knob_write(knob, val);
	if (err) {
		snprintf(msg, msglen, "cannot set %s to %s: %s", knob, val, strerror(-err));
		rmdir(dir);
	}
	return err;
}

int rec_memcg_attach(const char *dir, pid_t pid)
{
	char path[4096], val[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(val, sizeof(val), "%d", (int)pid);
	return rec_knob_write(path, val);
}

/* nftw(): a directory after its children (FTW_DEPTH), removed; what cannot go stays */
static int rmdir_post(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	if (flag == FTW_DP && f->level > 0)
		rmdir(path);
	return 0;
}

/*
 * The groups the command made inside ours (a workload that puts its
 * children in groups of their own) go first, deepest first: the kernel
 * removes a cgroup only without children (cgroup_rmdir(): -EBUSY).  Their
 * pages are charged to the parent from then on (mem_cgroup_css_offline(),
 * memcg_reparent_objcgs()); the recording's last snapshot was taken before.
 */
int rec_memcg_remove(const char *dir)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	/* the last task may still be on its way out: retry for about a second */
	for (i = 0; i < 50; i++) {
		nftw(dir, rmdir_post, 8, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

void rec_memcg_remove_stale(void)
{
	struct rec_memcg_root r;
	char own[2048], path[4096], child[4096 + 256];
	struct dirent *de;
	DIR *d;

	if (rec_memcg_root_find(&r) || rec_memcg_path_of(getpid(), own, sizeof(own)))
		return;
	snprintf(path, sizeof(path), "%s%s", r.mount, strcmp(own, "/") ? own : "");
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!rec_name_stale(de->d_name))
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
		rec_memcg_remove(child);	/* its last task may be exiting as we look */
	}
	closedir(d);
}
