/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Output files that a failed run never destroys, and that a privileged run
 * creates only where the invoking user could.
 *
 *	struct rf_outfile o;
 *	if (rf_outfile_open(&o, "run.rft", RF_OUTFILE_KEEP_OLD, err, sizeof(err)))
 *		...;
 *	write(o.fd, ...) ...
 *	rc = ok ? rf_outfile_commit(&o, err, sizeof(err)) : (rf_outfile_abandon(&o), rc);
 *
 * The data go to a new temporary file beside @path (".NAME.tmp-XXXXXX",
 * created O_EXCL, so no link is followed and no existing file is opened).
 * Commit makes it @path by rename(2), atomically: a reader sees the old file
 * or the whole new one, never a part.  With RF_OUTFILE_KEEP_OLD the file it
 * replaces is kept as "@path.old" (as perf keeps perf.data.old).  Abandon
 * removes the temporary: an existing @path is left as it was.
 *
 * Under sudo (real and effective uid 0, SUDO_UID and SUDO_GID set, not
 * RF_OUTFILE_AS_ROOT) the temporary is created and both renames are done
 * with the invoking user's uid, gid and supplementary groups as the
 * effective ones, so the kernel's permission checks are the user's: no file
 * the user could not write is created, replaced or given away, whatever
 * @path names or links to; the file belongs to the user.  The descriptor is
 * opened before root's effective ids come back, and stays writable.
 *
 * "-" is standard output, and a character device or a FIFO (/dev/null, a
 * pipe, also through a link such as /dev/stdout) is written in place:
 * nothing renamed, nothing kept.  A directory, or a link to a regular file
 * (a link planted where the output goes), is refused.  A stream
 * (rf_outfile_stdio()) may be used instead of the descriptor.
 *
 * The calls change the process's effective ids for their duration: call
 * them while the process has one thread.  Return: 0 or a negative errno,
 * with a message naming the path and what to do in @err.
 */
#ifndef REFAULT_LIB_OUTFILE_H
#define REFAULT_LIB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum {
	RF_OUTFILE_KEEP_OLD = 1 << 0,	/* keep the file replaced as PATH.old */
	RF_OUTFILE_AS_ROOT = 1 << 1,	/* under sudo, create as root all the same */
};

struct rf_outfile {
	int fd;				/* open for writing; -1 after commit or abandon */
	FILE *fp;			/* rf_outfile_stdio(), or NULL */
	char *path;
	char *tmp;
	unsigned int flags;
	uid_t uid;			/* the credentials the file is made with */
	gid_t gid;
	int drop;			/* 1: seteuid to uid/gid around file operations */
};

int rf_outfile_open(struct rf_outfile *o, const char *path, unsigned int flags, char *err,
		    size_t errlen);
/* A stream on the file (made once; NULL and errno on failure). */
FILE *rf_outfile_stdio(struct rf_outfile *o);
/* Flush the file to disk and give it its name (closes the descriptor). */
int rf_outfile_commit(struct rf_outfile *o, char *err, size_t errlen);
/* Remove the temporary (closes the descriptor); @path stays as it was. */
void rf_outfile_abandon(struct rf_outfile *o);
/* Close and keep the temporary under its name (o->tmp, to tell the user before the call). */
void rf_outfile_leave(struct rf_outfile *o);

/*
 * rf_sudo_user() - the user behind sudo
 * Return: true, with @uid/@gid, when the process runs as root by sudo
 * (SUDO_UID/SUDO_GID are numbers and the real uid is 0).
 */
int rf_sudo_user(uid_t *uid, gid_t *gid);

#endif /* REFAULT_LIB_OUTFILE_H */
