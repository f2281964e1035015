/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/outfile.c: a failed run never destroys an output, a committed one
 * keeps the file it replaces as .old, and under sudo the file is made with
 * the invoking user's rights (a root-only place refused, a link followed
 * nowhere, the file the user's).  The privilege checks run as root with a
 * user that exists (nobody, 65534) and skip elsewhere.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "tests/lib/tap.h"

static char dir[256];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int same(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return !strcmp(buf, text);
}

static int write_out(const char *path, const char *text, unsigned int flags, int commit,
		     char *err, size_t errlen)
{
	struct rf_outfile o;
	int rc = rf_outfile_open(&o, path, flags, err, errlen);

	if (rc)
		return rc;
	if (write(o.fd, text, strlen(text)) < 0) {
		rc = -errno;
		rf_outfile_abandon(&o);
		return rc;
	}
	if (!commit) {
		rf_outfile_abandon(&o);
		return 0;
	}
	return rf_outfile_commit(&o, err, errlen);
}

static int leftovers(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q 'tmp-'", dir);
	return system(cmd) == 0;
}

static void basics(void)
{
	char p[300], old[310], err[512];

	snprintf(p, sizeof(p), "%s/out", dir);
	snprintf(old, sizeof(old), "%s/out.old", dir);
	put(p, "before");
	is_int(write_out(p, "half", RF_OUTFILE_KEEP_OLD, 0, err, sizeof(err)), 0, "an abandoned write");
	ok(same(p, "before"), "... leaves the existing output as it was");
	ok(!leftovers(), "... and no temporary behind");
	is_int(write_out(p, "after", RF_OUTFILE_KEEP_OLD, 1, err, sizeof(err)), 0, "a committed write");
	ok(same(p, "after") && same(old, "before"), "... replaces the output and keeps it as .old");
	is_int(write_out(p, "again", 0, 1, err, sizeof(err)), 0, "without KEEP_OLD");
	ok(same(p, "again") && same(old, "before"), "... .old is left alone");
	snprintf(p, sizeof(p), "%s", dir);
	ok(write_out(p, "x", 0, 1, err, sizeof(err)) < 0 && strstr(err, "is a directory"),
	   "a directory as the output is refused: %s", err);
	ok(write_out("/dev/null", "x", RF_OUTFILE_KEEP_OLD, 1, err, sizeof(err)) == 0,
	   "/dev/null is written in place");
	ok(write_out("/dev/full", "x", 0, 1, err, sizeof(err)) == -ENOSPC && !access("/dev/full", W_OK),
	   "/dev/full: ENOSPC, and the device is still there: %s", err);
	snprintf(p, sizeof(p), "%s/nosuchdir/out", dir);
	ok(write_out(p, "x", 0, 1, err, sizeof(err)) == -ENOENT && strstr(err, p),
	   "a missing directory: ENOENT, and the message names the path");
}

static void links(void)
{
	char p[300], target[300], err[512];

	snprintf(p, sizeof(p), "%s/link", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	put(target, "precious");
	if (symlink(target, p)) {
		skip(2, "symlink: %s", strerror(errno));
		return;
	}
	ok(write_out(p, "data", 0, 1, err, sizeof(err)) < 0,
	   "a link to a file at the output is refused");
	ok(same(target, "precious"), "... and what it points to is untouched");
}

/* As root under a pretended sudo from nobody: the user's rights decide. */
static void as_sudo(void)
{
	char root_only[300], theirs[300], p[320], err[512];
	struct stat st;

	if (geteuid() != 0) {
		skip(6, "needs root (runs the sudo case as root with SUDO_UID=65534)");
		return;
	}
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65534", 1);
	snprintf(root_only, sizeof(root_only), "%s/root-only", dir);
	snprintf(theirs, sizeof(theirs), "%s/theirs", dir);
	mkdir(root_only, 0700);
	mkdir(theirs, 0755);
	if (chown(theirs, 65534, 65534) || chmod(dir, 0755)) {
		skip(6, "chown: %s", strerror(errno));
		return;
	}
	snprintf(p, sizeof(p), "%s/secret", root_only);
	put(p, "root's");
	chmod(p, 0600);
	ok(write_out(p, "user's", RF_OUTFILE_KEEP_OLD, 1, err, sizeof(err)) == -EACCES,
	   "a root-only file named by the user is refused: %s", err);
	ok(same(p, "root's") && !stat(p, &st) && st.st_uid == 0, "... left as it was, root's");
	snprintf(p, sizeof(p), "%s/trace", theirs);
	is_int(write_out(p, "data", 0, 1, err, sizeof(err)), 0, "a file where the user may write");
	ok(!stat(p, &st) && st.st_uid == 65534 && st.st_gid == 65534, "... belongs to the user");
	ok(geteuid() == 0 && getegid() == 0, "root's effective ids are back afterwards");
	is_int(write_out(p, "root", RF_OUTFILE_AS_ROOT, 1, err, sizeof(err)), 0,
	       "RF_OUTFILE_AS_ROOT writes as root");
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
}

int main(void)
{
	char cmd[300];

	snprintf(dir, sizeof(dir), "%s/outfile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		skip_all("mkdtemp failed");
		return 0;
	}
	plan(19);
	basics();
	links();
	as_sudo();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
