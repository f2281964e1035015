/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for what `refault sweep` reads (sweep/): byte 0 picks
 *   0  a SPEC, planned (relative paths only: the harness keeps it in its own
 *      directory, where one small trace is) and the plan then read back,
 *      emitted and merged;
 *   1  a PLAN file, read, each task's state taken, emitted and merged;
 *   2  a task's status and results files (split at the first NUL), under a
 *      plan the harness made, merged.
 * Nothing is run (no task's replay).  Beyond "no crash, no undefined
 * behaviour, no leak": a plan read back has its tasks' paths in its store,
 * and a merge counts every task once (done + failed + missing = tasks).
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <refault/trace.h>

#include "sweep/sweep.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void check(bool cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz-sweep: broken promise: %s\n", what);
		abort();
	}
}

static void write_file(const char *name, const void *data, size_t size)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	check(fd >= 0 && write(fd, data, size) == (ssize_t)size, "a file written");
	close(fd);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* at exit: the harness's directory, whole */
static void remove_dir(void)
{
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The harness's directory, once: one small trace (t.rft) and a plan over it (base.plan). */
static void setup(void)
{
	static const char spec[] = "traces w t.rft\nmatrix v6.18|lru memory=16M|32M\ngroup 1\n";
	struct rf_trace_writer *w = NULL;
	struct rf_trace_header h;
	struct rf_event ev = { .type = RF_EV_FILE_READ, .pid = 1 };
	char path[128], err[RF_SWEEP_ERRLEN];
	uint64_t i;

	snprintf(dir, sizeof(dir), "%s/fuzz-sweep.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	check(mkdtemp(dir) != NULL, "a directory");
	atexit(remove_dir);
	snprintf(path, sizeof(path), "%s/t.rft", dir);
	rf_trace_header_init(&h, "fuzz-sweep");
	check(!rf_trace_writer_open(&w, path, &h, NULL), "a trace writer");
	for (i = 0; i < 64; i++) {
		ev.time = i;
		ev.u.file.ino = 1 + i % 3;
		ev.u.file.index = i;
		ev.u.file.nr = 1;
		check(!rf_trace_writer_append(w, &ev), "an event");
	}
	check(!rf_trace_writer_close(w), "the trace closed");
	write_file("base.spec", spec, strlen(spec));
	snprintf(path, sizeof(path), "%s/s", dir);
	check(!mkdir(path, 0700), "a directory for the fuzzed plans");
	snprintf(path, sizeof(path), "%s/base.spec", dir);
	{
		char plan[128];

		snprintf(plan, sizeof(plan), "%s/base.plan", dir);
		check(!rf_sweep_plan_make(path, plan, "/bin/false", NULL, err, sizeof(err)),
		      "the base plan");
	}
}

/* What planning a fuzzed spec wrote (its plan and store are under s/), so each input starts alike. */
static void clean_spec_store(void)
{
	char path[512];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/s/sweep-store", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/s/sweep-store/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/* The base task's status and results, which the third kind of input writes. */
static void clean_base_task(const char *id)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/sweep-store/%s.status", dir, id);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sweep-store/%s.json", dir, id);
	unlink(path);
}

static void use_plan(const char *path)
{
	struct rf_sweep_merge_stats st;
	struct rf_sweep_plan *p = NULL;
	char err[RF_SWEEP_ERRLEN], why[1024];
	FILE *null = fopen("/dev/null", "we");
	size_t i, n;

	check(null != NULL, "/dev/null");
	if (rf_sweep_plan_load(&p, path, err, sizeof(err))) {
		check(err[0] != '\0', "a plan refused says why");
		fclose(null);
		return;
	}
	n = rf_sweep_plan_nr_tasks(p);
	for (i = 0; i < n; i++) {
		const struct rf_sweep_task *t = rf_sweep_plan_task(p, i);
		char **argv = rf_sweep_task_argv(p, i);
		size_t sl = strlen(rf_sweep_plan_store(p));

		check(!strncmp(t->results, rf_sweep_plan_store(p), sl) && t->results[sl] == '/',
		      "a task's results are in its store");
		check(argv && argv[0], "a task's replay command line");
		rf_sweep_argv_free(argv);
		rf_sweep_task_state(p, i, why, sizeof(why));
	}
	check(!rf_sweep_emit_parallel(p, null), "the command list written");
	check(!rf_sweep_emit_slurm(p, null, 3), "the Slurm script written");
	if (!rf_sweep_merge(p, fileno(null), NULL, &st, err, sizeof(err)))
		check(st.done + st.failed + st.missing == n && st.tasks == n,
		      "a merge counts every task once");
	rf_sweep_plan_free(p);
	fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128], err[RF_SWEEP_ERRLEN], *summary = NULL;
	const uint8_t *nul;

	if (!dir[0])
		setup();
	if (!size || size > 16384)
		return 0;
	switch (data[0] % 3) {
	case 0:
		/* the harness's directory only: no absolute path, no parent, no other store */
		if (memchr(data, '/', size) || memmem(data, size, "store", 5))
			return 0;
		write_file("in.spec", data + 1, size - 1);
		snprintf(path, sizeof(path), "%s/in.spec", dir);
		{
			char plan[128];

			snprintf(plan, sizeof(plan), "%s/s/in.plan", dir);
			if (!rf_sweep_plan_make(path, plan, "/bin/false", &summary, err, sizeof(err)))
				use_plan(plan);
			else
				check(err[0] != '\0', "a spec refused says why");
		}
		free(summary);
		clean_spec_store();
		break;
	case 1:
		write_file("in.plan", data + 1, size - 1);
		snprintf(path, sizeof(path), "%s/in.plan", dir);
		use_plan(path);
		break;
	default:
		nul = memchr(data + 1, 0, size - 1);
		{
			/* the base plan's first task, by its id */
			struct rf_sweep_plan *p = NULL;
			const char *id;
			char name[64];
			size_t slen = nul ? (size_t)(nul - data - 1) : size - 1;

			snprintf(path, sizeof(path), "%s/base.plan", dir);
			check(!rf_sweep_plan_load(&p, path, err, sizeof(err)), "the base plan read");
			id = rf_sweep_plan_task(p, 0)->id;
			snprintf(name, sizeof(name), "sweep-store/%s.status", id);
			write_file(name, data + 1, slen);
			if (nul) {
				snprintf(name, sizeof(name), "sweep-store/%s.json", id);
				write_file(name, nul + 1, size - (size_t)(nul + 1 - data));
			}
			use_plan(path);
			clean_base_task(id);
			rf_sweep_plan_free(p);
		}
		break;
	}
	return 0;
}
