/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault sweep run PLAN --local`: every task that is not done, each as
 * `REFAULT sweep task PLAN I`, @jobs at a time, by GNU parallel (its
 * --joblog in the store) or, without it, by a pool of child processes.
 * Either way a task's own results, log and status are its `sweep task`'s.
 * GNU parallel is given no command of its own: its input is the commands,
 * one a line, as `emit --parallel` writes them (each path a quoted word), run
 * by /bin/sh; a command on its command line would be shell text with its
 * replacement strings ({}, {#}, {= perl =}) read inside the paths.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/clock.h"
#include "sweep/sweep-local.h"

/* GNU parallel, not moreutils' program of the same name: it says so in --version. */
static bool have_gnu_parallel(void)
{
	char line[128] = "";
	FILE *f = popen("parallel --version 2>/dev/null", "re");

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	pclose(f);
	return !strncmp(line, "GNU parallel", 12);
}

static pid_t spawn(char *const *argv, int in_fd)
{
	pid_t pid = fork();
	int null;

	if (pid)
		return pid;
	if (in_fd >= 0)		/* GNU parallel: its input's commands are sh's, whatever $SHELL is */
		setenv("PARALLEL_SHELL", "/bin/sh", 1);
	if (in_fd >= 0)
		dup2(in_fd, STDIN_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		if (in_fd < 0)
			dup2(null, STDIN_FILENO);
	}
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "refault sweep run: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int wait_child(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

static int by_parallel(const struct rf_sweep_plan *p, const char *refault, unsigned int jobs,
		       const size_t *todo, size_t n, char *err, size_t errlen)
{
	char j[16], *joblog, *argv[10];
	void (*old_pipe)(int);
	int fds[2], status;
	FILE *in;
	size_t i;
	pid_t pid;

	if (asprintf(&joblog, "%s/parallel.joblog", p->store) < 0)
		return RF_ERR_NOMEM;
	snprintf(j, sizeof(j), "%u", jobs);
	argv[0] = "parallel";
	argv[1] = "--will-cite";
	argv[2] = "--halt";
	argv[3] = "never";
	argv[4] = "-j";
	argv[5] = j;
	argv[6] = "--joblog";
	argv[7] = joblog;
	argv[8] = NULL;
	if (pipe2(fds, O_CLOEXEC)) {
		free(joblog);
		sweep_seterr(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	pid = spawn(argv, fds[0]);
	close(fds[0]);
	free(joblog);
	if (pid < 0) {
		close(fds[1]);
		sweep_seterr(err, errlen, "fork: %s", strerror(errno));
		return -errno;
	}
	/* a parallel that dies early makes the writes fail (EPIPE), not kill this process */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	in = fdopen(fds[1], "w");
	for (i = 0; in && i < n && !ferror(in); i++)
		sweep_task_command(in, p, refault, todo[i]);
	if (in)
		fclose(in);
	else
		close(fds[1]);
	signal(SIGPIPE, old_pipe);
	status = wait_child(pid);
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 101)) {
		sweep_seterr(err, errlen, "GNU parallel %s %d", WIFSIGNALED(status) ?
			     "was killed by signal" : "exited", WIFSIGNALED(status) ?
			     WTERMSIG(status) : WEXITSTATUS(status));
		return RF_ERR_IO;
	}
	return 0;	/* 1..100: that many tasks failed, which their states tell */
}

static int by_processes(const struct rf_sweep_plan *p, const char *refault, unsigned int jobs,
			const size_t *todo, size_t n, char *err, size_t errlen)
{
	char idx[24], *argv[6] = { (char *)refault, "sweep", "task", p->path, idx, NULL };
	size_t next = 0, running = 0;
	int status;
	pid_t pid;

	while (next < n || running) {
		if (next < n && running < jobs) {
			snprintf(idx, sizeof(idx), "%zu", todo[next]);
			pid = spawn(argv, -1);
			if (pid < 0) {
				sweep_seterr(err, errlen, "fork: %s", strerror(errno));
				while (running && wait(&status) > 0)
					running--;
				return -errno;
			}
			next++;
			running++;
			continue;
		}
		pid = wait(&status);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		running--;
	}
	return 0;
}

int rf_sweep_run_local(const struct rf_sweep_plan *p, const char *refault, unsigned int jobs,
		       enum rf_sweep_engine engine, struct rf_sweep_run_stats *st, char *err,
		       size_t errlen)
{
	size_t *todo = calloc(p->nr_tasks + 1, sizeof(*todo)), n = 0, i;
	double start = rf_mono_seconds();
	int rc;

	memset(st, 0, sizeof(*st));
	st->tasks = p->nr_tasks;
	if (!todo)
		return RF_ERR_NOMEM;
	rc = sweep_check_path("this program", refault, false, err, errlen);
	if (rc) {
		free(todo);
		return rc;
	}
	for (i = 0; i < p->nr_tasks; i++) {
		if (rf_sweep_task_state(p, i, NULL, 0) == RF_SWEEP_DONE)
			st->skipped++;
		else
			todo[n++] = i;
	}
	st->parallel = engine != RF_SWEEP_ENGINE_PROCESSES && n && have_gnu_parallel();
	if (engine == RF_SWEEP_ENGINE_PARALLEL && n && !st->parallel) {
		sweep_seterr(err, errlen, "GNU parallel is not on PATH (Debian: apt-get install "
			     "parallel); --engine processes runs the tasks without it");
		free(todo);
		return RF_ERR_INVAL;
	}
	if (!jobs)
		jobs = 1;
	rc = !n ? 0 : st->parallel ? by_parallel(p, refault, jobs, todo, n, err, errlen) :
		by_processes(p, refault, jobs, todo, n, err, errlen);
	for (i = 0; i < n; i++) {
		if (rf_sweep_task_state(p, todo[i], NULL, 0) == RF_SWEEP_DONE)
			st->ran++;
		else
			st->failed++;
		st->task_seconds += sweep_task_seconds(&p->tasks[todo[i]]);
	}
	st->wall_seconds = rf_mono_seconds() - start;
	free(todo);
	if (!rc && st->failed)
		rc = RF_ERR_INVAL;
	return rc;
}
