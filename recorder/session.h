/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A recording session (recorder/session.c): what `refault record` does
 * between its command line and its summary, for any program.
 *
 *	rf_record_session_open()   notes on what interrupted recordings left
 *	                           beside the output; the output opened under a
 *	                           temporary name (lib/outfile.h); the stop
 *	                           signals' signalfd
 *	rf_record_session_run()    the --memcg-limit cgroup; the command forked
 *	                           and held; the recorder started; the command
 *	                           let go; the loop (poll, tick, a chunk to disk
 *	                           at least once a second) until a stop signal,
 *	                           the target's end or the duration; the
 *	                           recorder drained, the end record, the writer
 *	                           closed
 *	rf_record_session_close()  the command waited for; the output renamed to
 *	                           its name (the file it replaces kept as
 *	                           FILE.old), left under its temporary name (a
 *	                           trace that could not be closed), or removed
 *	                           (a recording that never began)
 *	rf_record_session_free()   the tracefs instance and the memcg removed
 *
 * The events go recorder -> sink -> trace writer; the trace's header is
 * made at the first event, once the recorder knows its sources (header.c),
 * and the folios are numbered by the writer (rf_writer_options.folio_ids).
 *
 * Stop signals.  The caller blocks @stop_signals, SIGCHLD among them, and
 * SIGTTOU, and ignores SIGPIPE, before it opens a session (as its first act,
 * so that none is lost: cli/builtin-record.c's take_signals()); the session
 * reads them from a signalfd.  Without a command a stop signal ends the
 * recording; with one, the command's process group gets it and the
 * recording ends when the command exits; a second one kills the group.
 *
 * One session at a time in a process: libtracefs keeps the tracefs
 * directory rec.tracefs_dir names for the rest of the process.
 *
 * Never prints, never exits.  A call that fails returns a negative rf_err or
 * -errno and puts in @err what the user is to read: what failed, naming the
 * file and what to do.  What the user is to be told while the session goes
 * on (a leftover trace, a missing event source, THP, a cgroup not removed)
 * goes to @note, one message a call, "note: ..." or "warning: ...".
 */
#ifndef REFAULT_RECORDER_SESSION_H
#define REFAULT_RECORDER_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/api.h>
#include <refault/trace.h>

#include "recorder/record.h"

struct rf_record_session_opts {
	/*
	 * The recorder's options.  The session sets out_dev and out_ino (its
	 * output), and for a command not bounded by a scope pid and
	 * stacks_on_exec, and with memcg_limit cgroup, as the command requires.
	 */
	struct rf_record_opts rec;
	const char *out;		/* the trace file */
	struct rf_writer_options writer;	/* level; folio_ids is set from kernel_pfns */
	bool kernel_pfns;		/* the kernel's pfns in the trace, not folio ids */
	uint64_t time_resolution;	/* ns, the header's */
	uint64_t memcg_limit;		/* bytes: run the command in a fresh memcg; 0: no */
	uint64_t duration_ns;		/* stop after this long; 0: no limit */
	/* -- COMMAND ARGS (NULL-terminated; NULL: none) */
	char *const *argv;
	int argc;
	bool bounded;			/* a scope (-a/-G/-p) recorded while the command runs */
	bool as_root;			/* under sudo, the command runs as root */
	bool cold;			/* sync and drop_caches 3 before the recording starts */
	/* the header's params (--params: what the command was drawn from); NULL: none */
	const char *params;
	/* the whole command line after "refault", for the header's command */
	char *const *cmdline;
	int cmdline_argc;
	const sigset_t *stop_signals;	/* blocked by the caller, read by the session */
	const sigset_t *cmd_sigmask;	/* the command's signal mask (NULL: the caller's) */
	void (*note)(void *ctx, const char *msg);	/* NULL: notes are dropped */
	void *note_ctx;
};

struct rf_record_session_stats {
	struct rf_record_stats rec;	/* the recorder's (zero before it was made) */
	uint64_t out_bytes;		/* the trace's size, once run succeeded */
	bool cmd_exited;		/* the command had exited when the recording ended */
	int cmd_status;			/* and its wait status */
};

struct rf_record_session;

/*
 * rf_record_session_open() - a session with its output open
 * @opts: copied; the strings and arrays it points to must outlive the session
 *
 * Removes the memcgs of recorders that were killed (rec_memcg_remove_stale()).
 * Return: 0 with *@out set; else an error in @err, *@out NULL, nothing made.
 */
RF_API int rf_record_session_open(struct rf_record_session **out,
				  const struct rf_record_session_opts *opts, char *err,
				  size_t errlen);

/*
 * rf_record_session_run() - record until the session is to stop
 * Return: 0 once the trace is complete and its writer closed; else the
 * error, with @err.  A recording that began keeps what it wrote either way
 * (rf_record_session_close()).
 */
RF_API int rf_record_session_run(struct rf_record_session *s, char *err, size_t errlen);

/*
 * rf_record_session_close() - wait for the command; the output kept or not
 * A recording that began keeps its trace, also after a failed run (the
 * writer indexes what it has); one that never began leaves an existing
 * output as it was.  Return: 0, or the error (a trace that could not be
 * closed or renamed, which @err says where it is) with @err.  Once only.
 */
RF_API int rf_record_session_close(struct rf_record_session *s, char *err, size_t errlen);

/* What was recorded; after rf_record_session_close() for the command's status. */
RF_API void rf_record_session_stats(const struct rf_record_session *s,
				    struct rf_record_session_stats *st);

/*
 * rf_record_session_free() - remove the instance and the memcg, free @s
 * Closes the session first if that was not done.  NULL is accepted.
 */
RF_API void rf_record_session_free(struct rf_record_session *s);

#endif /* REFAULT_RECORDER_SESSION_H */
