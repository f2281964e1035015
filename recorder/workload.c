/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The command `refault record -- COMMAND` runs: forked early, held on a pipe
 * until the tracepoints are on, then let go to exec, so its first page
 * fault is in the trace.
 *
 * Who it runs as.  The recorder needs root (tracefs, cgroups); the command
 * does not.  Under sudo it runs as the user who typed the command: the
 * user's uid and gid, supplementary groups (initgroups), HOME, USER and
 * LOGNAME, and no capabilities (setuid() from 0 to a user clears them, and
 * the ambient set is emptied first), so the files it makes are the user's
 * and it can do nothing the user could not.  RF_WORKLOAD_AS_ROOT keeps root,
 * for a workload that needs it.
 *
 * Process group.  The command leads a process group of its own, so a
 * signal meant for it reaches its children too (a shell script's
 * commands): rec_workload_kill() signals the group.  When the recorder
 * owns the terminal's foreground, the command's group gets it, as a shell
 * gives a job; the recorder takes it back when the command is gone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "recorder/record-local.h"

struct rf_workload {
	pid_t pid;
	int go_fd;		/* write end: a byte lets the child exec; EOF makes it exit */
	int err_fd;		/* read end: the errno of what failed in the child */
	bool started;		/* exec succeeded */
	bool exited;
	int status;
	bool tty;		/* we gave the terminal's foreground to its group */
};

/* In the child: become the invoking user for good. */
static int drop_to_user(uid_t uid, gid_t gid)
{
	struct passwd *pw = getpwuid(uid);

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -1;
	if (pw ? initgroups(pw->pw_name, gid) : setgroups(1, &gid))
		return -1;
	if (setgid(gid) || setuid(uid))
		return -1;
	/* paranoia: the way back must be closed */
	if (uid && setuid(0) == 0) {
		errno = EPERM;
		return -1;
	}
	if (pw) {
		setenv("HOME", pw->pw_dir, 1);
		setenv("USER", pw->pw_name, 1);
		setenv("LOGNAME", pw->pw_name, 1);
	}
	return 0;
}

static void child_run(char *const *argv, const struct rf_workload_opts *o, int go, int errw)
{
	uid_t uid;
	gid_t gid;
	char b;
	int e;

	setpgid(0, 0);
	if (o->sigmask)
		sigprocmask(SIG_SETMASK, o->sigmask, NULL);
	/* dispositions the recorder set are not the command's */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	if (read(go, &b, 1) != 1)
		_exit(127);	/* the recorder gave up */
	/* attach ourselves, so the cgroup_attach_task event is traced (the recorder is not) */
	if (o->memcg_dir && rec_memcg_attach(o->memcg_dir, getpid()))
		goto fail;
	if (!(o->flags & RF_WORKLOAD_AS_ROOT) && geteuid() == 0 && rf_sudo_user(&uid, &gid) &&
	    drop_to_user(uid, gid))
		goto fail;
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(errw, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int rec_workload_spawn(struct rf_workload **out, char *const *argv,
		       const struct rf_workload_opts *o, char *err, size_t errlen)
{
	struct rf_workload *w = calloc(1, sizeof(*w));
	int go[2], errp[2];

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		free(w);
		return -errno;
	}
	w->pid = fork();
	if (w->pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		free(w);
		return -errno;
	}
	if (!w->pid) {
		close(go[1]);
		close(errp[0]);
		child_run(argv, o, go[0], errp[1]);
	}
	/* both sides set the group: whichever runs first, it exists before the exec */
	setpgid(w->pid, w->pid);
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	*out = w;
	return 0;
}

int rec_workload_release(struct rf_workload *w, char *err, size_t errlen, const char *name)
{
	int e = 0;
	ssize_t n;

	/* the terminal's foreground to the command, if it is ours to give (SIGTTOU blocked) */
	if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
		w->tty = !tcsetpgrp(STDIN_FILENO, w->pid);
	/* the recorder ignores SIGPIPE: a child already gone gives EPIPE here */
	n = write(w->go_fd, "g", 1);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1) {
		snprintf(err, errlen, "'%s' exited before it could start", name);
		return -EPIPE;
	}
	n = read(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	w->err_fd = -1;
	if (n == sizeof(e)) {
		snprintf(err, errlen, "cannot run '%s': %s%s", name, strerror(e),
			 e == EACCES || e == EPERM ? " (it runs as the user who ran sudo; "
			 "--as-root keeps root)" : "");
		return -e;
	}
	w->started = true;
	return 0;
}

pid_t rec_workload_pid(const struct rf_workload *w)
{
	return w->pid;
}

static void take_terminal_back(struct rf_workload *w)
{
	if (w->tty && tcsetpgrp(STDIN_FILENO, getpgrp()) == 0)
		w->tty = false;
}

bool rec_workload_exited(struct rf_workload *w)
{
	int status;

	if (!w->exited && waitpid(w->pid, &status, WNOHANG) == w->pid) {
		w->exited = true;
		w->status = status;
		take_terminal_back(w);
	}
	return w->exited;
}

int rec_workload_status(const struct rf_workload *w)
{
	return w->status;
}

void rec_workload_kill(struct rf_workload *w, int sig)
{
	if (!w->exited)
		kill(-w->pid, sig);
}

void rec_workload_free(struct rf_workload *w)
{
	int status;

	if (!w)
		return;
	if (w->go_fd >= 0)
		close(w->go_fd);	/* a child still waiting exits on EOF */
	if (w->err_fd >= 0)
		close(w->err_fd);
	if (!w->exited && waitpid(w->pid, &status, 0) == w->pid)
		w->exited = true;
	take_terminal_back(w);
	free(w);
}
