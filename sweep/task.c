/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One task, whatever engine started it: `refault replay TRACE --matrix
 * STORE/ID.matrix -o STORE/ID.json`, its output in STORE/ID.log, then how it
 * ended in STORE/ID.status (one JSON object, written atomically after the
 * replay).  The replay writes its results under a temporary name and renames
 * them when complete, so STORE/ID.json is whole or absent: a task killed at
 * any point leaves no partial results, and running it again is safe.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "compare/jsonfile.h"
#include "lib/clock.h"
#include "sweep/sweep-local.h"

char **rf_sweep_task_argv(const struct rf_sweep_plan *p, size_t i)
{
	const struct rf_sweep_task *t = &p->tasks[i];
	char **argv = calloc(12 + p->nr_opts, sizeof(*argv)), threads[16];
	const char *fixed[10];
	size_t n = 0, k;

	if (!argv)
		return NULL;
	snprintf(threads, sizeof(threads), "%u", p->threads);
	fixed[0] = p->refault;
	fixed[1] = "replay";
	fixed[2] = t->trace;
	fixed[3] = "--matrix";
	fixed[4] = t->matrix;
	fixed[5] = "-o";
	fixed[6] = t->results;
	fixed[7] = "--quiet";
	fixed[8] = "--threads";
	fixed[9] = threads;
	for (k = 0; k < 10; k++)
		if (!(argv[n++] = strdup(fixed[k])))
			goto fail;
	for (k = 0; k < p->nr_opts; k++)
		if (!(argv[n++] = strdup(p->replay_opts[k])))
			goto fail;
	return argv;
fail:
	rf_sweep_argv_free(argv);
	return NULL;
}

void rf_sweep_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The status file: 1 read (exit and signal set), 0 absent, -1 unreadable or malformed. */
static int read_status(const char *path, int *exit_code, int *sig)
{
	char err[256];
	json_object *root, *v;
	int rc;

	if (access(path, F_OK))
		return 0;
	rc = rf_json_read_object(path, "a sweep task's status", &root, err, sizeof(err));
	if (rc)
		return -1;
	rc = json_object_object_get_ex(root, "exit", &v) ? 1 : -1;
	*exit_code = rc > 0 ? json_object_get_int(v) : -1;
	*sig = json_object_object_get_ex(root, "signal", &v) ? json_object_get_int(v) : 0;
	json_object_put(root);
	return rc;
}

double sweep_task_seconds(const struct rf_sweep_task *t)
{
	json_object *root, *v;
	double s = 0;
	char err[256];

	if (access(t->status, F_OK) ||
	    rf_json_read_object(t->status, "a sweep task's status", &root, err, sizeof(err)))
		return 0;
	if (json_object_object_get_ex(root, "wall_seconds", &v))
		s = json_object_get_double(v);
	json_object_put(root);
	return s;
}

enum rf_sweep_state sweep_task_state(const struct rf_sweep_plan *p, size_t i, char *why,
				     size_t whylen, json_object **results)
{
	const struct rf_sweep_task *t = &p->tasks[i];
	char last[512], dummy[1], bad[RF_SWEEP_ERRLEN / 2];
	int code = 0, sig = 0, st = read_status(t->status, &code, &sig), rc;
	bool have = !access(t->results, F_OK);
	json_object *r;

	if (results)
		*results = NULL;
	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	why[0] = '\0';
	if (have && (st == 0 || (st > 0 && !code && !sig))) {
		rc = sweep_results_read(p, i, &r, bad, sizeof(bad));
		if (!rc) {
			if (results)
				*results = r;
			else
				json_object_put(r);
			return RF_SWEEP_DONE;
		}
		sweep_seterr(why, whylen, "its results are not whole or not its own: %s; `refault "
			     "sweep run` (or `task`) runs it again",
			     rc == RF_ERR_NOMEM ? "out of memory reading them" : bad);
		return RF_SWEEP_FAILED;
	}
	sweep_last_line(t->log, last, sizeof(last));
	if (st < 0) {
		sweep_seterr(why, whylen, "%s: unreadable status%s%s", t->status,
			     last[0] ? "; its log ends: " : "", last);
		return RF_SWEEP_FAILED;
	}
	if (st > 0) {
		if (sig)
			sweep_seterr(why, whylen, "killed by signal %d (%s)%s%s", sig, strsignal(sig),
				     last[0] ? "; its log ends: " : "", last);
		else if (code)
			sweep_seterr(why, whylen, "replay exited %d%s%s", code,
				     last[0] ? ": " : "", last[0] ? last : "(an empty log)");
		else
			sweep_seterr(why, whylen, "replay exited 0 but %s is not there", t->results);
		return RF_SWEEP_FAILED;
	}
	if (!access(t->log, F_OK))
		sweep_seterr(why, whylen, "started but no status: still running, or its host or "
			     "job was lost%s%s", last[0] ? "; its log ends: " : "", last);
	else
		sweep_seterr(why, whylen, "not run");
	return RF_SWEEP_MISSING;
}

enum rf_sweep_state rf_sweep_task_state(const struct rf_sweep_plan *p, size_t i, char *why,
					size_t whylen)
{
	return sweep_task_state(p, i, why, whylen, NULL);
}

/* The log's first line: the command as a shell reads it, each word quoted (rf_sweep_shell_quote). */
static void log_header(int fd, const struct rf_sweep_plan *p, size_t i, char **argv)
{
	char *text = NULL;
	size_t len = 0, k;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fprintf(f, "# task %s (%zu of %zu):", p->tasks[i].id, i, p->nr_tasks);
	for (k = 0; argv[k]; k++) {
		fputc(' ', f);
		rf_sweep_shell_quote(f, argv[k]);
	}
	fputc('\n', f);
	if (!fclose(f))
		(void)!write(fd, text, len);
	free(text);
}

static volatile sig_atomic_t child_pid, forwarded;

/* SIGINT/SIGTERM (Slurm's time limit, a ^C): passed to the replay, whose end is then recorded. */
static void forward(int sig)
{
	forwarded = sig;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static int write_status(const struct rf_sweep_task *t, int status, double wall,
			const struct rusage *ru, char *err, size_t errlen)
{
	json_object *o = json_object_new_object();
	char host[256] = "";
	int rc;

	gethostname(host, sizeof(host) - 1);
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "exit", json_object_new_int(WIFEXITED(status) ?
							     WEXITSTATUS(status) : -1));
	json_object_object_add(o, "signal", json_object_new_int(WIFSIGNALED(status) ?
							       WTERMSIG(status) : 0));
	json_object_object_add(o, "wall_seconds", json_object_new_double(wall));
	json_object_object_add(o, "max_rss_bytes", json_object_new_int64(ru->ru_maxrss * 1024ll));
	json_object_object_add(o, "host", json_object_new_string(host));
	if (getenv("SLURM_JOB_ID"))
		json_object_object_add(o, "slurm_job", json_object_new_string(getenv("SLURM_JOB_ID")));
	rc = sweep_write_file(t->status, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			      err, errlen);
	json_object_put(o);
	return rc;
}

int rf_sweep_task_run(const struct rf_sweep_plan *p, size_t i, const char *refault, bool *ran,
		      char *err, size_t errlen)
{
	const struct rf_sweep_task *t = &p->tasks[i];
	struct sigaction sa = { .sa_handler = forward }, old_int, old_term;
	char **argv, why[1024];
	struct rusage ru = { 0 };
	int status = 0, fd, rc;
	double start;
	pid_t pid;

	*ran = false;
	if (rf_sweep_task_state(p, i, NULL, 0) == RF_SWEEP_DONE)
		return 0;
	if (unlink(t->status) && errno != ENOENT) {
		sweep_seterr(err, errlen, "%s: %s", t->status, strerror(errno));
		return -errno;
	}
	argv = rf_sweep_task_argv(p, i);
	if (!argv)
		return RF_ERR_NOMEM;
	if (refault) {
		free(argv[0]);
		argv[0] = strdup(refault);
	}
	fd = open(t->log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 || !argv[0]) {
		rc = fd < 0 ? -errno : RF_ERR_NOMEM;
		sweep_seterr(err, errlen, "%s: %s", t->log, fd < 0 ? strerror(errno) : "out of memory");
		rf_sweep_argv_free(argv);
		return rc;
	}
	log_header(fd, p, i, argv);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	forwarded = 0;
	start = rf_mono_seconds();
	pid = fork();
	if (pid == 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execv(argv[0], argv);
		dprintf(STDERR_FILENO, "refault sweep task: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	child_pid = pid;
	while (pid > 0 && wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	child_pid = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	close(fd);
	rf_sweep_argv_free(argv);
	if (pid < 0) {
		sweep_seterr(err, errlen, "fork: %s", strerror(errno));
		return -errno;
	}
	*ran = true;
	rc = write_status(t, status, rf_mono_seconds() - start, &ru, err, errlen);
	if (rc)
		return rc;
	if (forwarded)
		raise(forwarded);	/* the default action again: stop as asked */
	if (rf_sweep_task_state(p, i, why, sizeof(why)) != RF_SWEEP_DONE) {
		sweep_seterr(err, errlen, "task %zu (%s, %s): %s", i, t->id, t->trace, why);
		return RF_ERR_INVAL;
	}
	return 0;
}
