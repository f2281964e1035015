/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sibling memory cgroups of a phase: one child of the driver's own
 * memory cgroup per task, so that the tasks share the driver's limit and
 * reclaim one another's pages across cgroups (docs/workload.md, "Cgroups").
 *
 * The driver's cgroup is found as the recorder finds it: the v1 "memory"
 * hierarchy where one is mounted, else cgroup2, and the path
 * /proc/self/cgroup gives below the mount's root.  cgroup2 forbids a process
 * in a cgroup whose children have a controller (the no-internal-process
 * rule), so there the driver moves into a leaf of its own first, then
 * enables +memory for the children, and undoes both afterwards.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "workload/workload-local.h"

#define LEAF	"refault-workload-driver"

/* The first line of @path into @buf (no newline); 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	buf[0] = 0;
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ret;
}

/* @text into the cgroup file @path, in one write(); 0 or -errno */
static int write_knob(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int ret = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(text))
		ret = -EIO;
	close(fd);
	return ret;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == ',') && (!p[n] || p[n] == ' ' || p[n] == ','))
			return true;
	return false;
}

/*
 * The mount of the v1 memory hierarchy (@v2 false) or of cgroup2 (true) and
 * its root (the 4th field: not "/" inside a cgroup namespace's view of
 * another's mount); 0 or -ENOENT.
 */
static int find_mount(bool v2, char *mnt, size_t mlen, char *root, size_t rlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192];
	int ret = -ENOENT;

	while (f && ret && fgets(line, sizeof(line), f)) {
		char r[4096], point[4096], type[64], opts[4096];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, point) != 2 ||
		    sscanf(dash + 3, "%63s %*s %4095s", type, opts) != 2)
			continue;
		if (v2 ? strcmp(type, "cgroup2") : strcmp(type, "cgroup") || !has_word(opts, "memory"))
			continue;
		if (snprintf(mnt, mlen, "%s", point) < (int)mlen &&
		    snprintf(root, rlen, "%s", r) < (int)rlen)
			ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

/* Our path in the v1 memory hierarchy (@v2 false) or cgroup2's ("0::PATH"); 0 or -ENOENT. */
static int find_path(bool v2, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[8192];
	int ret = -ENOENT;

	while (f && ret && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = 0;
		line[strcspn(line, ":")] = 0;
		c2[1 + strcspn(c2 + 1, "\n")] = 0;
		if (v2 ? !strcmp(line, "0") && !c1[1] : has_word(c1 + 1, "memory"))
			ret = snprintf(path, len, "%s", c2 + 1) < (int)len ? 0 : -ENAMETOOLONG;
	}
	if (f)
		fclose(f);
	return ret;
}

/* The mount plus @path below the mount's @root. */
static int join(char *out, size_t len, const char *mnt, const char *root, const char *path)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") && !strncmp(path, root, n) && (!path[n] || path[n] == '/'))
		path += n;
	if (!strcmp(path, "/"))
		path = "";
	return snprintf(out, len, "%s%s", mnt, path) < (int)len ? 0 : -ENAMETOOLONG;
}

/* @fmt's sentence into @err, then ": strerror(@e)" unless @e is 0; returns RF_ERR_UNSUPPORTED */
static int __attribute__((format(printf, 4, 5))) say(char *err, size_t errlen, int e,
						     const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (e && n >= 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ": %s", strerror(e));
	return RF_ERR_UNSUPPORTED;
}

/* @dir/@name into @buf (PATH_MAX + 32 bytes: a cgroup file's name is short) */
static void file_in(char *buf, size_t len, const char *dir, const char *name)
{
	if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len)
		buf[0] = 0;	/* fails to open, naming nothing rather than another file */
}

static int check_v1(struct wl_cgroups *cg, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], v[32];

	file_in(path, sizeof(path), cg->own, "memory.use_hierarchy");
	/* 0: a child's pages would not count against our limit (v1 before 5.x allowed it) */
	if (!read_line(path, v, sizeof(v)) && !strcmp(v, "0"))
		return say(err, errlen, 0, "%s is 0: child cgroups would not share the limit",
				   path);
	return 0;
}

/* Whether the controller list @knob of @dir (its path into @path) names memory: 1, 0, or -1 said. */
static int lists_memory(const char *dir, const char *knob, char *path, size_t len, char *err,
			size_t errlen)
{
	char v[1024];
	int e;

	file_in(path, len, dir, knob);
	e = read_line(path, v, sizeof(v));
	if (e) {
		say(err, errlen, -e, "reading %s", path);
		return -1;
	}
	return has_word(v, "memory");
}

static int check_v2(struct wl_cgroups *cg, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	int has = lists_memory(cg->own, "cgroup.controllers", path, sizeof(path), err, errlen);

	if (has < 0)
		return RF_ERR_UNSUPPORTED;
	if (!has)
		return say(err, errlen, 0, "%s has no memory controller for children to have",
				   path);
	return 0;
}

int wl_cgroups_find(struct wl_cgroups *cg, char *err, size_t errlen)
{
	char mnt[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
	bool v2 = false;

	memset(cg, 0, sizeof(*cg));
	if (find_mount(false, mnt, sizeof(mnt), root, sizeof(root))) {
		v2 = true;
		if (find_mount(true, mnt, sizeof(mnt), root, sizeof(root)))
			return say(err, errlen, 0, "no memory cgroup hierarchy: neither a "
					   "v1 memory mount nor cgroup2 in /proc/self/mountinfo");
	}
	if (find_path(v2, path, sizeof(path)))
		return say(err, errlen, 0, "%s", v2 ?
				   "no cgroup2 line (0::PATH) in /proc/self/cgroup" :
				   "no memory line in /proc/self/cgroup");
	if (join(cg->own, sizeof(cg->own), mnt, root, path))
		return say(err, errlen, 0, "%s: path too long", path);
	cg->version = v2 ? 2 : 1;
	cg->own_is_root = !strcmp(cg->own, mnt);
	if (access(cg->own, W_OK))
		return say(err, errlen, errno, "the driver's memory cgroup %s", cg->own);
	return v2 ? check_v2(cg, err, errlen) : check_v1(cg, err, errlen);
}

int wl_cgroups_enter(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], pid[32];
	int e;

	file_in(path, sizeof(path), dir, "cgroup.procs");
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	e = write_knob(path, pid);
	if (e)
		say(err, errlen, -e, "moving into %s", path);
	return e;
}

static int make_dir(const char *dir, char *err, size_t errlen)
{
	/* EEXIST: left by a driver that was killed; empty, it serves again */
	if (mkdir(dir, 0755) && errno != EEXIST)
		return say(err, errlen, errno, "mkdir %s", dir);
	return 0;
}

/* v2: the driver into its leaf, then +memory for the children (the leaf included) */
static int enable_v2(struct wl_cgroups *cg, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	int e, has = lists_memory(cg->own, "cgroup.subtree_control", path, sizeof(path), err,
				  errlen);

	if (has)
		return has < 0 ? RF_ERR_UNSUPPORTED : 0;
	if (!cg->own_is_root) {
		file_in(cg->leaf, sizeof(cg->leaf), cg->own, LEAF);
		e = make_dir(cg->leaf, err, errlen);
		if (e) {
			cg->leaf[0] = 0;
			return e;
		}
		if (wl_cgroups_enter(cg->leaf, err, errlen))
			return RF_ERR_UNSUPPORTED;
	}
	e = write_knob(path, "+memory");
	if (e == -EBUSY)
		return say(err, errlen, 0, "enabling +memory in %s: other processes than the "
				   "driver are in its cgroup (cgroup2 allows a controller for "
				   "children only in a cgroup without processes)", path);
	if (e)
		return say(err, errlen, -e, "enabling +memory in %s", path);
	cg->enabled = true;
	return 0;
}

int wl_cgroups_make(struct wl_cgroups *cg, unsigned int phase, unsigned int nr, char *err,
		    size_t errlen)
{
	unsigned int t;
	int e;

	if (cg->version == 2) {
		e = enable_v2(cg, err, errlen);
		if (e)
			return e;
	}
	for (t = 0; t < nr && t < RF_WORKLOAD_MAX_TASKS; t++) {
		char name[64];

		snprintf(name, sizeof(name), "refault-workload-p%u.t%u", phase, t + 1);
		file_in(cg->child[t], sizeof(cg->child[t]), cg->own, name);
		e = make_dir(cg->child[t], err, errlen);
		if (e)
			return e;
		cg->nr = t + 1;
	}
	return 0;
}

/*
 * rmdir @dir; EBUSY a while: a task that was reaped has left its cgroup, but
 * a v1 memcg may still be draining its per-CPU charges.
 */
static int remove_dir(const char *dir)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	return -errno;
}

static void first_error(char *err, size_t errlen, int *ret, int e, const char *what,
			const char *path)
{
	if (!e || *ret)
		return;
	*ret = RF_ERR_IO;
	say(err, errlen, -e, "%s %s", what, path);
}

int wl_cgroups_remove(struct wl_cgroups *cg, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], msg[RF_WORKLOAD_ERRLEN];
	unsigned int t;
	int ret = 0;

	for (t = 0; t < cg->nr; t++)
		first_error(err, errlen, &ret, remove_dir(cg->child[t]), "removing", cg->child[t]);
	cg->nr = 0;
	if (cg->enabled) {
		file_in(path, sizeof(path), cg->own, "cgroup.subtree_control");
		first_error(err, errlen, &ret, write_knob(path, "-memory"), "disabling -memory in",
			    path);
		cg->enabled = false;
	}
	if (cg->leaf[0]) {
		if (wl_cgroups_enter(cg->own, msg, sizeof(msg)) && !ret) {
			ret = RF_ERR_IO;
			say(err, errlen, 0, "%s", msg);
		}
		first_error(err, errlen, &ret, remove_dir(cg->leaf), "removing", cg->leaf);
		cg->leaf[0] = 0;
	}
	return ret;
}
