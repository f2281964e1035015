/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recording session (session.h): the output file's life, the memcg of
 * --memcg-limit, the command, the loop and when it stops; the recorder's
 * events into the trace writer.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/clock.h"
#include "lib/outfile.h"
#include "recorder/record-local.h"
#include "recorder/session.h"

struct rf_record_session {
	struct rf_record_session_opts o;	/* o.rec: the command's pid, the memcg's path */
	struct rf_recorder *rec;
	struct rf_trace_writer *w;
	struct rf_trace_header hdr;
	struct rf_outfile out_file;	/* written under a temporary name, renamed when done */
	int out_fd;
	int close_err;			/* closing the writer failed (e.g. ENOSPC on its last chunk) */
	off_t out_size;			/* the trace's size, once it is complete */
	bool started;			/* the recording began: what it wrote is kept */
	bool closed;			/* rf_record_session_close() was called */
	uint64_t flushed;		/* when a chunk was last written (flush_due()) */
	unsigned int since_check;	/* events since flush_due() last looked */
	int sig_fd;
	struct rf_workload *wl;		/* -- COMMAND */
	bool cmd_exited;		/* when the recording ended */
	int cmd_status;
	int signals;			/* stop signals received */
	char memcg_dir[4096];
	char memcg_rel[4096];
	char werr[512];			/* the writer's error, naming the output */
};

/* One message for the user while the session goes on, through the caller's callback. */
static void note(const struct rf_record_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const struct rf_record_session *s, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (!s->o.note)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s->o.note(s->o.note_ctx, msg);
	free(msg);
}

/* @ret with @msg (a copy of @src) for the caller: the errors of every step end here. */
static int fail(char *msg, size_t len, int ret, const char *src)
{
	if (len)
		snprintf(msg, len, "%s", src);
	return ret;
}

/* ---------------------------------------------------------------- output */

/*
 * An interrupted recording (the recorder killed) leaves its trace under the
 * temporary name: say so, it is the user's to keep (refault trace recover).
 */
static void note_leftovers(const struct rf_record_session *s)
{
	const char *out = s->o.out, *slash = strrchr(out, '/');
	char dir[4096], prefix[512];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) : 1, slash ? out : ".");
	snprintf(prefix, sizeof(prefix), ".%s.tmp-", slash ? slash + 1 : out);
	d = opendir(dir[0] ? dir : "/");
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    !st.st_size)
			note(s, "note: %s/%s is what an interrupted recording left before its "
			     "first event: nothing; remove it", dir, de->d_name);
		else
			note(s, "note: %s/%s is the trace of an interrupted recording: "
			     "'refault trace recover %s/%s FILE' makes what it holds whole; or "
			     "remove it", dir, de->d_name, dir, de->d_name);
	}
	closedir(d);
}

static int open_output(struct rf_record_session *s, char *err, size_t len)
{
	char msg[1024];
	struct stat st;
	int ret;

	note_leftovers(s);
	ret = rf_outfile_open(&s->out_file, s->o.out, RF_OUTFILE_KEEP_OLD, msg, sizeof(msg));
	if (ret)
		return fail(err, len, ret, msg);
	s->out_fd = s->out_file.fd;
	if (fstat(s->out_fd, &st)) {
		ret = -errno;
		snprintf(err, len, "%s: %s", s->o.out, strerror(errno));
		return ret;
	}
	s->o.rec.out_dev = st.st_dev;
	s->o.rec.out_ino = st.st_ino;
	return 0;
}

/*
 * The end of the output: a recording that began is kept, even a failed one
 * (the writer indexed what it had); one that never began leaves the old
 * file as it was.  A trace that could not be closed stays under its
 * temporary name, for `refault trace recover`.
 */
static int close_output(struct rf_record_session *s, char *err, size_t len)
{
	char msg[1024];
	int closed = s->close_err, ret;

	if (s->w) {
		closed = rf_trace_writer_close(s->w);	/* index what we have */
		s->w = NULL;
	}
	if (s->out_fd < 0)
		return 0;
	s->out_fd = -1;
	if (!s->started) {
		rf_outfile_abandon(&s->out_file);
		return 0;
	}
	if (closed) {
		snprintf(err, len, "%s: not written (an existing one is kept); the trace so far is in "
			 "%s: %s (refault trace recover reads it)", s->o.out, s->out_file.tmp,
			 rf_strerror(closed));
		rf_outfile_leave(&s->out_file);
		return closed;
	}
	ret = rf_outfile_commit(&s->out_file, msg, sizeof(msg));
	return ret ? fail(err, len, ret, msg) : 0;
}

/* ---------------------------------------------------------------- writer */

/* The header needs the sources, known once the recorder is started: open on first event. */
static int open_writer(struct rf_record_session *s)
{
	struct rf_trace_header *h = &s->hdr;
	int err;

	rec_header_fill(h, &s->o, s->memcg_rel, rec_recorder_sources(s->rec));
	/* an anonymous fault's folio order comes from kmem:mm_page_alloc (normalize.c) */
	if (h->host.thp_mode[0] && strcmp(h->host.thp_mode, "never") &&
	    !strstr(rec_recorder_sources(s->rec), "kmem:mm_page_alloc"))
		note(s, "warning: transparent huge pages are '%s' and kmem:mm_page_alloc is "
		     "not recorded: an anonymous fault the kernel serves with a large folio "
		     "is recorded as one page, so a replay undercounts anonymous memory "
		     "(add the refs group to --events)", h->host.thp_mode);
	s->o.writer.folio_ids = !s->o.kernel_pfns;	/* the writer numbers the folios */
	err = rf_trace_writer_fdopen(&s->w, s->out_fd, h, &s->o.writer);
	if (err)
		snprintf(s->werr, sizeof(s->werr), "%s: %s", s->o.out, rf_strerror(err));
	return err;
}

/*
 * The events written so far go to disk as a chunk at least once a second,
 * so a recorder killed (SIGKILL, a crash, the machine's OOM killer) loses
 * at most the last second: the chunks before read back (refault trace
 * recover), as perf's periodic writes do for perf.data.  Checked between
 * polls and every FLUSH_CHECK_EVENTS events within one (a busy machine keeps
 * a poll reading for longer than that).
 */
#define FLUSH_INTERVAL_NS	1000000000ull
#define FLUSH_CHECK_EVENTS	4096

static int flush_due(struct rf_record_session *s)
{
	uint64_t now = rf_mono_ns();
	int err;

	if (!s->w || now - s->flushed < FLUSH_INTERVAL_NS)
		return 0;
	s->flushed = now;
	err = rf_trace_writer_flush(s->w);
	if (err)
		snprintf(s->werr, sizeof(s->werr), "%s: %s", s->o.out, rf_trace_writer_errmsg(s->w));
	return err;
}

/* The recorder's sink: every event into the writer. */
static int sink_event(void *ctx, const struct rf_event *ev)
{
	struct rf_record_session *s = ctx;
	int err;

	if (!s->w) {
		err = open_writer(s);
		if (err)
			return err;
	}
	err = rf_trace_writer_append(s->w, ev);
	if (err)
		snprintf(s->werr, sizeof(s->werr), "%s: %s", s->o.out, rf_trace_writer_errmsg(s->w));
	else if (++s->since_check >= FLUSH_CHECK_EVENTS) {
		s->since_check = 0;
		err = flush_due(s);
	}
	return err;
}

/* The end record, then the writer closed: the trace is whole. */
static int finish_trace(struct rf_record_session *s)
{
	struct rf_event ev = { .type = RF_EV_END };
	struct rf_record_stats st;
	int err;

	rec_recorder_stats(s->rec, &st);
	ev.time = rf_mono_ns();
	ev.u.end.nr_events = st.events;
	ev.u.end.nr_lost = st.lost;
	err = sink_event(s, &ev);
	if (!err) {
		err = rf_trace_writer_close(s->w);
		s->w = NULL;
		s->close_err = err;
		if (err)
			snprintf(s->werr, sizeof(s->werr), "%s: %s", s->o.out, rf_strerror(err));
	}
	return err;
}

/* --------------------------------------------------------- memcg, command */

static int make_memcg(struct rf_record_session *s, char *err, size_t len)
{
	char msg[512], mount[4096];
	bool v2;
	int ret;

	ret = rec_memcg_create(s->memcg_dir, sizeof(s->memcg_dir), s->o.memcg_limit, msg, sizeof(msg));
	if (ret) {
		s->memcg_dir[0] = '\0';
		return fail(err, len, ret, msg);
	}
	if (!rec_memcg_mount(mount, sizeof(mount), &v2))
		snprintf(s->memcg_rel, sizeof(s->memcg_rel), "%s", s->memcg_dir + strlen(mount));
	s->o.rec.cgroup = s->memcg_rel;
	return 0;
}

static int spawn(struct rf_record_session *s, char *err, size_t len)
{
	struct rf_workload_opts o = {
		.memcg_dir = s->memcg_dir[0] ? s->memcg_dir : NULL, .sigmask = s->o.cmd_sigmask,
		.flags = s->o.as_root ? RF_WORKLOAD_AS_ROOT : 0,
	};
	char msg[512];
	int ret;

	ret = rec_workload_spawn(&s->wl, s->o.argv, &o, msg, sizeof(msg));
	if (ret)
		return fail(err, len, ret, msg);
	if (!s->o.bounded) {
		s->o.rec.pid = rec_workload_pid(s->wl);
		s->o.rec.stacks_on_exec = true;	/* held before its exec */
	}
	return 0;
}

/* Let the command go; 0 once it has exec'd. */
static int release(struct rf_record_session *s, char *err, size_t len)
{
	char msg[512];
	int ret;

	ret = rec_workload_release(s->wl, msg, sizeof(msg), s->o.argv[0]);
	return ret ? fail(err, len, ret, msg) : 0;
}

/* ------------------------------------------------------------------ loop */

static bool target_gone(struct rf_record_session *s)
{
	if (s->wl)
		return rec_workload_exited(s->wl);
	return s->o.rec.scope == RF_SCOPE_PID && kill(s->o.rec.pid, 0) && errno == ESRCH;
}

/*
 * A stop signal: without a command, the recording stops.  With one, the
 * command's process group gets the signal, as a user at a terminal expects,
 * and the recording goes on until it exits (its last events are in the
 * trace); a second signal kills it.
 */
static bool stop_requested(struct rf_record_session *s, int timeout_ms)
{
	struct pollfd p = { .fd = s->sig_fd, .events = POLLIN };
	struct signalfd_siginfo si;

	if (poll(&p, 1, timeout_ms) > 0 && read(s->sig_fd, &si, sizeof(si)) == sizeof(si) &&
	    si.ssi_signo != SIGCHLD) {
		if (!s->wl)
			return true;
		rec_workload_kill(s->wl, s->signals++ ? SIGKILL : (int)si.ssi_signo);
	}
	return target_gone(s);
}

/*
 * The duration: at the end of it the recording stops; a command still running
 * is sent SIGTERM, as a stop signal would be, and SIGKILL 5 s later.
 */
static bool duration_over(struct rf_record_session *s, uint64_t start)
{
	uint64_t now = rf_mono_ns();

	if (!s->o.duration_ns || now - start < s->o.duration_ns)
		return false;
	if (!s->wl)
		return true;
	if (s->signals == 0 || (s->signals == 1 && now - start >= s->o.duration_ns + 5000000000ull))
		rec_workload_kill(s->wl, s->signals++ ? SIGKILL : SIGTERM);
	return false;
}

static int record_loop(struct rf_record_session *s)
{
	uint64_t start = rf_mono_ns();
	int err = 0;

	s->flushed = start;
	while (!err && !stop_requested(s, 20) && !duration_over(s, start)) {
		err = rec_recorder_poll(s->rec);
		if (!err)
			err = rec_recorder_tick(s->rec);
		if (!err)
			err = flush_due(s);
	}
	return err;
}

/* ------------------------------------------------------------------- API */

int rf_record_session_open(struct rf_record_session **out,
			   const struct rf_record_session_opts *opts, char *err, size_t errlen)
{
	struct rf_record_session *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!opts->out || !opts->stop_signals) {
		free(s);
		return fail(err, errlen, RF_ERR_INVAL, "a recording session needs an output and "
			    "its stop signals");
	}
	if (!s)
		return fail(err, errlen, RF_ERR_NOMEM, rf_strerror(RF_ERR_NOMEM));
	s->o = *opts;
	s->out_fd = -1;
	s->sig_fd = -1;
	/* what a recorder killed earlier left: its instances go at start, its memcg here */
	rec_memcg_remove_stale();
	ret = open_output(s, err, errlen);
	if (ret) {
		if (s->out_fd >= 0)
			rf_outfile_abandon(&s->out_file);
		free(s);
		return ret;
	}
	s->sig_fd = signalfd(-1, opts->stop_signals, SFD_CLOEXEC);
	if (s->sig_fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "signalfd: %s", strerror(errno));
		rf_outfile_abandon(&s->out_file);
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* Make the recorder and start it (the trace's first events): the command still held. */
static int start_recorder(struct rf_record_session *s, char *err, size_t len)
{
	struct rf_record_sink sink = { .event = sink_event, .ctx = s };
	int ret;

	ret = rec_recorder_new(&s->rec, &s->o.rec, &sink);
	if (!ret)
		ret = rec_recorder_start(s->rec);
	if (ret)
		return fail(err, len, ret, s->werr[0] ? s->werr :
			    s->rec ? rec_recorder_errmsg(s->rec) : rf_strerror(ret));
	if (*rec_recorder_missing(s->rec))
		note(s, "warning: this kernel has no %s, and no kprobe event stands in (kprobe "
		     "events and BTF needed, see --kprobes): the references they give are not "
		     "in the trace", rec_recorder_missing(s->rec));
	return 0;
}

/*
 * --cold: the dirty pages written (sync), then the page cache dropped with
 * the unused inodes, and their shadow entries with them (drop_caches 3:
 * drop_pagecache_sb() invalidates each inode's pages, drop_slab() frees the
 * inodes; an inode still open keeps its shadows).  A second recording of a
 * command then starts where the first did, not with its pages and shadows.
 */
static int drop_caches(char *err, size_t len)
{
	int ret;

	sync();
	ret = rec_knob_write("/proc/sys/vm/drop_caches", "3");
	if (ret)
		snprintf(err, len, "--cold: cannot write 3 to /proc/sys/vm/drop_caches: %s (it "
			 "needs root)", strerror(-ret));
	return ret;
}

int rf_record_session_run(struct rf_record_session *s, char *err, size_t errlen)
{
	struct stat sb;
	int ret;

	if (s->o.cold) {
		ret = drop_caches(err, errlen);
		if (ret)
			return ret;
	}

	if (s->o.memcg_limit) {
		ret = make_memcg(s, err, errlen);
		if (ret)
			return ret;
	}
	if (s->o.argv) {
		ret = spawn(s, err, errlen);
		if (ret)
			return ret;
	}
	ret = start_recorder(s, err, errlen);
	if (ret)
		return ret;
	if (s->o.argv) {
		ret = release(s, err, errlen);
		if (ret)
			return ret;
	}
	s->started = true;
	ret = record_loop(s);
	if (!ret)
		ret = rec_recorder_stop(s->rec);
	if (!ret)
		ret = finish_trace(s);
	if (ret)
		return fail(err, errlen, ret, s->werr[0] ? s->werr : rec_recorder_errmsg(s->rec));
	if (!fstat(s->out_fd, &sb))
		s->out_size = sb.st_size;
	return 0;
}

int rf_record_session_close(struct rf_record_session *s, char *err, size_t errlen)
{
	if (s->closed)
		return 0;
	s->closed = true;
	s->cmd_exited = s->wl && rec_workload_exited(s->wl);
	s->cmd_status = s->cmd_exited ? rec_workload_status(s->wl) : 0;
	rec_workload_free(s->wl);	/* a command not yet released exits; wait for it */
	s->wl = NULL;
	return close_output(s, err, errlen);
}

void rf_record_session_stats(const struct rf_record_session *s, struct rf_record_session_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (s->rec)
		rec_recorder_stats(s->rec, &st->rec);
	st->out_bytes = (uint64_t)s->out_size;
	st->cmd_exited = s->cmd_exited;
	st->cmd_status = s->cmd_status;
}

/* Whatever happened: no child, no instance, no cgroup left behind. */
void rf_record_session_free(struct rf_record_session *s)
{
	char msg[256];

	if (!s)
		return;
	rf_record_session_close(s, msg, sizeof(msg));
	rec_recorder_free(s->rec);
	if (s->memcg_dir[0] && rec_memcg_remove(s->memcg_dir))
		note(s, "warning: cannot remove memory cgroup %s", s->memcg_dir);
	if (s->sig_fd >= 0)
		close(s->sig_fd);
	free(s);
}
