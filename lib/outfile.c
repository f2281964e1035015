/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"

static int parse_id(const char *s, unsigned long *out)
{
	char *end;

	if (!s || !*s)
		return 0;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !errno && !*end && *out < (unsigned long)INT_MAX;
}

int rf_sudo_user(uid_t *uid, gid_t *gid)
{
	unsigned long u, g;

	if (getuid() != 0 || !parse_id(getenv("SUDO_UID"), &u) || !parse_id(getenv("SUDO_GID"), &g))
		return 0;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 1;
}

/* The saved identity of the process while file operations run as the user. */
struct ids {
	gid_t groups[NGROUPS_MAX];
	int nr_groups;
};

static int become_user(const struct rf_outfile *o, struct ids *saved)
{
	struct passwd *pw;
	int rc = 0;

	if (!o->drop)
		return 0;
	saved->nr_groups = getgroups(NGROUPS_MAX, saved->groups);
	if (saved->nr_groups < 0)
		return -errno;
	/* the user's supplementary groups decide directory access too */
	pw = getpwuid(o->uid);
	if (pw ? initgroups(pw->pw_name, o->gid) : setgroups(1, &o->gid))
		return -errno;
	if (setegid(o->gid) || seteuid(o->uid))
		rc = -errno;
	return rc;
}

static void become_root(const struct rf_outfile *o, const struct ids *saved)
{
	if (!o->drop)
		return;
	/* back to the ids the process had: failing here would leave it half dropped */
	if (seteuid(0) || setegid(0) || setgroups((size_t)saved->nr_groups, saved->groups))
		abort();
}

static char *tmp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	char *t = malloc(strlen(path) + 16);

	if (t)
		sprintf(t, "%.*s.%s.tmp-XXXXXX", (int)dirlen, path, base);
	return t;
}

static void say(char *err, size_t errlen, const char *path, const char *what, int e)
{
	const char *hint = e == EACCES || e == EPERM ?
		"; choose a place you (not root) can write" :
		e == ENOSPC || e == EDQUOT ? "; free some space or choose another place" : "";

	snprintf(err, errlen, "%s: %s: %s%s", path, what, strerror(e), hint);
}

enum path_kind { KIND_FILE, KIND_STREAM, KIND_REFUSED };

/*
 * A missing path or a regular file is written beside and renamed over; a
 * device or FIFO (also through a link: /dev/stdout) is written in place; a
 * directory, a socket, or a link to a regular file (what a planted link
 * looks like) is refused.
 */
static enum path_kind path_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return KIND_FILE;
	if (S_ISREG(st.st_mode))
		return KIND_FILE;
	if (S_ISLNK(st.st_mode) && stat(path, &st))
		return KIND_REFUSED;
	return S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) ? KIND_STREAM : KIND_REFUSED;
}

/*
 * Open the output as the user sees @path (the caller has taken the user's
 * identity): a new temporary beside it, or a device in place.  -EEXIST for
 * a path refused by path_kind(); -errno otherwise.
 */
static int open_as_user(struct rf_outfile *o, const char *path)
{
	enum path_kind kind = path_kind(path);
	mode_t um;

	if (kind == KIND_REFUSED)
		return -EEXIST;
	if (kind == KIND_STREAM) {
		/* a device or a FIFO (/dev/null, a pipe): written in place, nothing to rename */
		free(o->tmp);
		o->tmp = NULL;
		o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		return o->fd < 0 ? -errno : 0;
	}
	/* mkostemp opens with O_CREAT | O_EXCL: never an existing file, never through a link */
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	um = umask(0);
	umask(um);
	if (fchmod(o->fd, 0644 & ~um)) {
		close(o->fd);
		o->fd = -1;
		unlink(o->tmp);
		return -errno;
	}
	return 0;
}

int rf_outfile_open(struct rf_outfile *o, const char *path, unsigned int flags, char *err,
		    size_t errlen)
{
	struct ids saved;
	int rc;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->flags = flags;
	if (!strcmp(path, "-")) {
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->uid = geteuid();
	o->gid = getegid();
	if (!(flags & RF_OUTFILE_AS_ROOT) && geteuid() == 0 && rf_sudo_user(&o->uid, &o->gid))
		o->drop = o->uid != 0;
	o->path = strdup(path);
	o->tmp = tmp_name(path);
	if (!o->path || !o->tmp || !*path || path[strlen(path) - 1] == '/') {
		rc = o->path && o->tmp ? -EISDIR : -ENOMEM;
		say(err, errlen, path, "cannot write there", -rc);
		goto fail;
	}
	rc = become_user(o, &saved);
	if (rc) {
		say(err, errlen, path, "taking the invoking user's identity", -rc);
		goto fail;
	}
	rc = open_as_user(o, path);
	become_root(o, &saved);
	if (rc == -EEXIST)
		snprintf(err, errlen, "%s: is a directory, or a link to a file: name the file itself",
			 path);
	else if (rc)
		say(err, errlen, path, "cannot create the output", -rc);
	if (!rc)
		return 0;
fail:
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fd = -1;
	return rc;
}

FILE *rf_outfile_stdio(struct rf_outfile *o)
{
	if (!o->fp && o->fd >= 0)
		o->fp = o->fd == STDOUT_FILENO ? stdout : fdopen(o->fd, "w");
	return o->fp;
}

/* Close the stream and the descriptor (standard output is only flushed); 0 or -errno. */
static int close_out(struct rf_outfile *o, bool sync)
{
	int rc = 0;

	if (o->fp && fflush(o->fp))
		rc = -errno;
	if (o->fd == STDOUT_FILENO) {
		o->fp = NULL;
		o->fd = -1;
		return rc;
	}
	if (sync && !rc && o->fd >= 0 && fsync(o->fd) && errno != EINVAL && errno != EROFS)
		rc = -errno;
	if (o->fp ? fclose(o->fp) : o->fd >= 0 ? close(o->fd) : 0)
		rc = rc ? rc : -errno;
	o->fp = NULL;
	o->fd = -1;
	return rc;
}

int rf_outfile_commit(struct rf_outfile *o, char *err, size_t errlen)
{
	struct ids saved;
	char *old = NULL;
	bool gone;
	int rc;

	if (!o->tmp) {
		rc = close_out(o, false);
		if (rc)
			say(err, errlen, o->path ? o->path : "standard output", "writing", -rc);
		free(o->path);
		o->path = NULL;
		return rc;
	}
	rc = close_out(o, true);
	if (rc) {
		say(err, errlen, o->path, "writing the output", -rc);
		rf_outfile_abandon(o);
		return rc;
	}
	rc = become_user(o, &saved);
	if (!rc && (o->flags & RF_OUTFILE_KEEP_OLD)) {
		old = malloc(strlen(o->path) + 5);
		if (!old)
			rc = -ENOMEM;
		else
			sprintf(old, "%s.old", o->path);
		/* only a regular file is kept: a link or a directory at @path stays an error below */
		if (!rc && rename(o->path, old) && errno != ENOENT)
			rc = -errno;
	}
	if (!rc && rename(o->tmp, o->path))
		rc = -errno;
	gone = rc == -ENOENT && access(o->tmp, F_OK);
	if (rc)
		unlink(o->tmp);
	become_root(o, &saved);
	if (gone)
		say(err, errlen, o->path, "its directory was removed while it was written, and what "
		    "was written with it", -rc);
	else if (rc)
		say(err, errlen, o->path, old ? "replacing the output" : "naming the output", -rc);
	free(old);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return rc;
}

void rf_outfile_abandon(struct rf_outfile *o)
{
	struct ids saved;

	close_out(o, false);
	if (o->tmp && !become_user(o, &saved)) {
		unlink(o->tmp);
		become_root(o, &saved);
	}
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}

void rf_outfile_leave(struct rf_outfile *o)
{
	close_out(o, false);
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}
