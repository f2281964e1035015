/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recorder/workload.c: the command of `refault record -- COMMAND`, held
 * before exec, released, killed as a process group; a command gone before
 * exec is an error, not a SIGPIPE; under sudo it runs as the user who ran
 * sudo (as root with RF_WORKLOAD_AS_ROOT).  No tracefs needed; the sudo
 * cases need root and the user nobody (65534).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "recorder/record-local.h"
#include "tests/lib/tap.h"

static int run(char *const *argv, unsigned int flags, int *status, char *err, size_t len)
{
	struct rf_workload_opts o = { .flags = flags };
	struct rf_workload *w;
	int rc = rec_workload_spawn(&w, argv, &o, err, len);

	if (rc)
		return rc;
	rc = rec_workload_release(w, err, len, argv[0]);
	while (!rc && !rec_workload_exited(w))
		usleep(1000);
	*status = rec_workload_status(w);
	rec_workload_free(w);
	return rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void basics(void)
{
	char *t[] = { "true", NULL }, *f[] = { "false", NULL }, *none[] = { "/nonexistent-cmd", NULL };
	char err[512] = "";
	int st = -1;

	is_int(run(t, 0, &st, err, sizeof(err)), 0, "true runs");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "... and exits 0");
	run(f, 0, &st, err, sizeof(err));
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "false's status comes back");
	ok(run(none, 0, &st, err, sizeof(err)) == -ENOENT && strstr(err, "/nonexistent-cmd"),
	   "a command that is not there: ENOENT, named: %s", err);
}

/* A command gone before it could exec: an error to report, not a signal that kills. */
static void gone_before_exec(void)
{
	char *argv[] = { "true", NULL }, err[512] = "";
	struct rf_workload_opts o = { 0 };
	struct rf_workload *w;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	rec_workload_spawn(&w, argv, &o, err, sizeof(err));
	kill(rec_workload_pid(w), SIGKILL);
	usleep(100000);
	rc = rec_workload_release(w, err, sizeof(err), "true");
	ok(rc == -EPIPE && strstr(err, "exited before it could start"),
	   "killed before exec: -EPIPE and a message: %s", err);
	rec_workload_free(w);
}

/* A signal to the workload reaches its children: the whole group. */
static void group_kill(void)
{
	char *argv[] = { "sh", "-c", "sleep 30 & sleep 30; wait", NULL }, err[512] = "";
	struct rf_workload_opts o = { 0 };
	struct rf_workload *w;
	char cmd[128];
	double t0;

	rec_workload_spawn(&w, argv, &o, err, sizeof(err));
	rec_workload_release(w, err, sizeof(err), "sh");
	usleep(200000);
	ok(getpgid(rec_workload_pid(w)) == rec_workload_pid(w), "the command leads its own group");
	t0 = now();
	rec_workload_kill(w, SIGTERM);
	while (!rec_workload_exited(w) && now() - t0 < 10)
		usleep(1000);
	ok(rec_workload_exited(w) && now() - t0 < 5, "SIGTERM to the group ends it at once");
	/* the children, killed too: left for init to reap, zombies for a while */
	snprintf(cmd, sizeof(cmd), "for i in $(seq 50); do pgrep -r R,S,D,T -g %d > /dev/null || "
		 "exit 0; sleep 0.1; done; exit 1", (int)rec_workload_pid(w));
	ok(system(cmd) == 0, "... its children too: nothing left running in group %d",
	   (int)rec_workload_pid(w));
	rec_workload_free(w);
}

static void as_sudo_user(void)
{
	char *user[] = { "sh", "-c", "test \"$(id -u):$(id -g):$USER\" = 65534:65534:nobody && "
			 "grep -q '^CapEff:\t0*$' /proc/self/status", NULL };
	char *root[] = { "sh", "-c", "test \"$(id -u)\" = 0", NULL };
	char err[512] = "";
	int st = -1;

	if (geteuid() != 0) {
		skip(2, "needs root (runs the sudo case as root with SUDO_UID=65534)");
		return;
	}
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65534", 1);
	run(user, 0, &st, err, sizeof(err));
	ok(WIFEXITED(st) && !WEXITSTATUS(st),
	   "under sudo the command runs as the invoking user, no capabilities");
	run(root, RF_WORKLOAD_AS_ROOT, &st, err, sizeof(err));
	ok(WIFEXITED(st) && !WEXITSTATUS(st), "RF_WORKLOAD_AS_ROOT keeps root");
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
}

int main(void)
{
	plan(10);
	basics();
	gone_before_exec();
	group_kill();
	as_sudo_user();
	return done_testing();
}
