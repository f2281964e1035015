/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recorder/session.h without the command line: a program opens, runs and
 * closes a recording session.  What needs no tracefs: an output that
 * cannot be made is an error naming it; what interrupted recordings left
 * beside the output is said through the note callback; a session that fails
 * before it begins leaves an existing output as it was and never runs its
 * command.  As root with tracefs: a command recorded into a whole trace
 * whose header and end record say what the session did, and a stop signal,
 * pending before the loop, that ends a recording of every task.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <refault/errors.h>
#include <refault/trace.h>

#include "recorder/session.h"
#include "tests/lib/tap.h"

static char dir[256];
static sigset_t stop;

struct notes {
	char text[4][1024];
	int nr;
};

static void take_note(void *ctx, const char *msg)
{
	struct notes *n = ctx;

	if (n->nr < 4)
		snprintf(n->text[n->nr], sizeof(n->text[0]), "%s", msg);
	n->nr++;
}

static void path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void write_file(const char *name, const char *text)
{
	char p[512];
	FILE *f;

	path(p, sizeof(p), name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The files in the scratch directory whose name starts with @prefix. */
static int count(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static bool exists(const char *name)
{
	char p[512];

	path(p, sizeof(p), name);
	return !access(p, F_OK);
}

/* Options every case starts from: the stop signals the caller took, the notes. */
static void base(struct rf_record_session_opts *o, const char *out, struct notes *n)
{
	memset(o, 0, sizeof(*o));
	o->out = out;
	o->time_resolution = 1000;
	o->stop_signals = &stop;
	o->note = take_note;
	o->note_ctx = n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void output_errors(void)
{
	struct rf_record_session_opts o;
	struct rf_record_session *s = (void *)1;
	struct notes n = { .nr = 0 };
	char out[512], err[1024] = "", want[1024];
	int rc;

	base(&o, NULL, &n);
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	ok(rc == RF_ERR_INVAL && !s, "no output: RF_ERR_INVAL (%s)", err);
	path(out, sizeof(out), "nodir/t.rft");
	base(&o, out, &n);
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	snprintf(want, sizeof(want), "%s: cannot create the output: No such file or directory", out);
	ok(rc == -ENOENT && !s, "an output in a directory that is not there: -ENOENT, no session");
	is_str(err, want, "... the message names the file and says why");
	rf_record_session_free(NULL);
}

/* Two leftovers of interrupted recordings: one empty, one with a chunk's worth. */
static void leftovers(void)
{
	struct rf_record_session_opts o;
	struct rf_record_session *s;
	struct notes n = { .nr = 0 };
	char out[512], err[1024] = "", want[2][1024];
	int rc;

	write_file(".t.rft.tmp-AAAAAA", "");
	write_file(".t.rft.tmp-BBBBBB", "not empty");
	path(out, sizeof(out), "t.rft");
	base(&o, out, &n);
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	ok(!rc && s, "the session opens (%s)", err);
	is_int(n.nr, 2, "each leftover beside the output is a note");
	qsort(n.text, n.nr < 4 ? n.nr : 4, sizeof(n.text[0]), cmp_str);
	snprintf(want[0], sizeof(want[0]), "note: %s/.t.rft.tmp-AAAAAA is what an interrupted "
		 "recording left before its first event: nothing; remove it", dir);
	snprintf(want[1], sizeof(want[1]), "note: %s/.t.rft.tmp-BBBBBB is the trace of an "
		 "interrupted recording: 'refault trace recover %s/.t.rft.tmp-BBBBBB FILE' makes "
		 "what it holds whole; or remove it", dir, dir);
	is_str(n.text[0], want[0], "... the empty one: nothing to recover");
	is_str(n.text[1], want[1], "... the other: how to recover it");
	rc = s ? rf_record_session_close(s, err, sizeof(err)) : -1;
	rf_record_session_free(s);
	ok(!rc && !exists("t.rft") && count(".t.rft.tmp-") == 2,
	   "closed before it ran: no output, its temporary removed, the leftovers kept");
}

/* No tracefs: the run fails before the recording begins. */
static void failed_start(void)
{
	char ran[512], script[600], *argv[] = { "sh", "-c", script, NULL };
	struct rf_record_session_opts o;
	struct rf_record_session *s;
	struct notes n = { .nr = 0 };
	char out[512], err[1024] = "", content[16] = "";
	int rc, run_rc, fd;

	write_file("k.rft", "keep\n");
	path(out, sizeof(out), "k.rft");
	path(ran, sizeof(ran), "ran");
	snprintf(script, sizeof(script), "touch '%s'", ran);
	base(&o, out, &n);
	o.rec.tracefs_dir = "/nonexistent";
	o.argv = argv;
	o.argc = 3;
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	ok(!rc, "a session with a tracefs that is not there opens (%s)", err);
	if (rc) {
		skip(4, "no session");
		return;
	}
	run_rc = rf_record_session_run(s, err, sizeof(err));
	ok(run_rc < 0 && strstr(err, "no tracefs at /nonexistent"),
	   "its run fails, saying what is missing: %s", err);
	rc = rf_record_session_close(s, err, sizeof(err));
	rf_record_session_free(s);
	fd = open(out, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, content, sizeof(content) - 1) < 0)
			content[0] = 0;
		close(fd);
	}
	ok(!rc && !strcmp(content, "keep\n") && !exists("k.rft.old") && !count(".k.rft.tmp-"),
	   "the existing output is kept as it was, no .old, no temporary");
	ok(!exists("ran"), "the command, held before its exec, never ran");
	is_int(n.nr, 0, "no note");
}

static bool can_record(void)
{
	return geteuid() == 0 && !access("/sys/kernel/tracing/instances", F_OK);
}

/* The last event of a trace, its header copied; 0 or the reader's error. */
static int read_back(const char *p, struct rf_trace_header *h, struct rf_event *last,
		     uint64_t *nr)
{
	struct rf_trace_reader *r;
	struct rf_event ev;
	int rc = rf_trace_reader_open(&r, p, 0);

	*nr = 0;
	if (rc) {
		rf_trace_reader_close(r);
		return rc;
	}
	*h = *rf_trace_reader_header(r);
	while ((rc = rf_trace_reader_next(r, &ev)) > 0) {
		*last = ev;	/* the end record holds no pointers */
		++*nr;
	}
	rf_trace_reader_close(r);
	return rc;
}

static void recorded_command(void)
{
	char *argv[] = { "true", NULL };
	char *cmdline[] = { "record", "-o", "c.rft", "--", "true" };
	struct rf_record_session_opts o;
	struct rf_record_session_stats st;
	struct rf_record_session *s;
	struct notes n = { .nr = 0 };
	struct rf_trace_header h;
	struct rf_event last = { .type = 0 };
	char out[512], err[1024] = "";
	struct stat sb;
	uint64_t nr;
	int rc;

	path(out, sizeof(out), "c.rft");
	base(&o, out, &n);
	o.rec.scope = RF_SCOPE_PID;
	o.argv = argv;
	o.argc = 1;
	o.cmdline = cmdline;
	o.cmdline_argc = 5;
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	if (!rc)
		rc = rf_record_session_run(s, err, sizeof(err));
	ok(!rc, "a session records the command 'true' (%s)", err);
	rc = s ? rf_record_session_close(s, err, sizeof(err)) : -1;
	ok(!rc && !stat(out, &sb), "... and gives the trace its name (%s)", err);
	memset(&st, 0, sizeof(st));
	if (s)
		rf_record_session_stats(s, &st);
	rf_record_session_free(s);
	ok(st.cmd_exited && WIFEXITED(st.cmd_status) && !WEXITSTATUS(st.cmd_status),
	   "the command's exit status is in the stats");
	ok(st.out_bytes && st.out_bytes == (uint64_t)sb.st_size, "the stats say the trace's size "
	   "(%llu bytes)", (unsigned long long)st.out_bytes);
	rc = read_back(out, &h, &last, &nr);
	ok(!rc && last.type == RF_EV_END && last.u.end.nr_events == st.rec.events &&
	   nr == st.rec.events + 1, "the trace is whole: %llu events, then the end record that "
	   "counts them", (unsigned long long)st.rec.events);
	ok(!strcmp(h.scope, "-- true") && !strcmp(h.command, "refault record -o c.rft -- true") &&
	   !strcmp(h.pfns, "ids") && h.time_resolution == 1000 && h.sources[0],
	   "its header: scope '%s', command '%s', pfns %s, the sources", h.scope, h.command, h.pfns);
}

/* A stop signal that came while the session started ends the loop as soon as it runs. */
static void stopped_by_signal(void)
{
	char *cmdline[] = { "record", "-a" };
	struct rf_record_session_opts o;
	struct rf_record_session *s;
	struct notes n = { .nr = 0 };
	char out[512], err[1024] = "";
	int rc;

	path(out, sizeof(out), "a.rft");
	base(&o, out, &n);
	o.rec.scope = RF_SCOPE_ALL;
	o.cmdline = cmdline;
	o.cmdline_argc = 2;
	rc = rf_record_session_open(&s, &o, err, sizeof(err));
	kill(getpid(), SIGINT);		/* blocked: pending for the session's signalfd */
	if (!rc)
		rc = rf_record_session_run(s, err, sizeof(err));
	if (!rc)
		rc = rf_record_session_close(s, err, sizeof(err));
	rf_record_session_free(s);
	ok(!rc && exists("a.rft"), "SIGINT, pending before the loop, stops a recording of every "
	   "task, and the trace has its name (%s)", err);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/tests/record/tmp-session.XXXXXX",
		 getenv("top_builddir") ? getenv("top_builddir") : ".");
	if (!mkdtemp(dir)) {
		snprintf(dir, sizeof(dir), "/tmp/refault-test-session.XXXXXX");
		if (!mkdtemp(dir))
			skip_all("no scratch directory");
	}
	/* what the session's contract asks of its caller: the stop signals blocked, SIGPIPE ignored */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	alarm(120);	/* a session that never ends fails the test, killed by SIGALRM */
	plan(20);
	output_errors();
	leftovers();
	if (can_record()) {
		recorded_command();
		stopped_by_signal();
	} else {
		skip(7, "recording needs root and tracefs");
	}
	failed_start();		/* last: libtracefs keeps its tracefs for the process */
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	wait(NULL);
	return done_testing();
}
