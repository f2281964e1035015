/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
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

int rf_outfile_open(struct rf_outfile *o, const char *path, unsigned int flags, char *err,
		    size_t errlen)
{
	struct ids saved;
	struct stat st;
	int rc, fd = -1;
	mode_t um;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->flags = flags;
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
	/* what @path is now, as the user sees it: only a regular file is replaced */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		rc = -EEXIST;
	/* mkostemp opens with O_CREAT | O_EXCL: never an existing file, never through a link */
	fd = rc ? -1 : mkostemp(o->tmp, O_CLOEXEC);
	if (!rc && fd < 0)
		rc = -errno;
	um = umask(0);
	umask(um);
	if (fd >= 0 && fchmod(fd, 0644 & ~um))
		rc = -errno;
	become_root(o, &saved);
	if (rc == -EEXIST) {
		snprintf(err, errlen, "%s: exists and is not a regular file; name a file", path);
		goto fail;
	}
	if (rc) {
		say(err, errlen, path, "cannot create the output", -rc);
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		goto fail;
	}
	o->fd = fd;
	return 0;
fail:
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	return rc;
}

int rf_outfile_commit(struct rf_outfile *o, char *err, size_t errlen)
{
	struct ids saved;
	char *old = NULL;
	int rc = 0;

	if (fsync(o->fd) && errno != EINVAL && errno != EROFS)
		rc = -errno;
	if (close(o->fd) && !rc)
		rc = -errno;
	o->fd = -1;
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
	if (rc)
		unlink(o->tmp);
	become_root(o, &saved);
	if (rc)
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

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
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
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
}
