/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-record: turn the kernel's tracepoints into a refault trace.
 *
 * Internal to recorder/ and its builtin.  The pipeline, one object per file:
 *
 *   source.c     private tracefs instance, per-CPU trace_pipe_raw sub-buffers,
 *                k-way merge of the per-CPU streams by (time, cpu)
 *   tp.c         tracepoint table: which events, their field handles (looked
 *                up once from each event's format file)
 *   kprobes.c    kprobe events standing in for the filemap tracepoints an
 *                older kernel lacks (offsets from its BTF, via libbpf)
 *   normalize.c  raw records -> struct rf_event (references, state, observations)
 *   tasks.c      per-thread state (tgid, mm, cgroup, the read syscall in flight)
 *   vmas.c       per-process mapping tables (/proc/PID/maps + mmap/munmap)
 *   cgroups.c    memory cgroup tree, ids, limits; the --memcg-limit group
 *   counters.c   /proc/vmstat and memory.stat snapshots
 *   lru_gen.c    the multi-gen LRU's debugfs state, parsed for snapshots
 *   knobs.c      reads and writes of small control files (cgroupfs, sysfs)
 *   damon.c      --damon: a DAMON monitor of the recorded process
 *   recorder.c   start, poll, stop, drain
 *   header.c     the header of a recording's trace
 *   session.c    a recording: the output file, the writer, the --memcg-limit
 *                group, the command, the loop and its stop (session.h)
 *
 * Library code returns 0 or a negative rf_err / -errno and never prints:
 * messages for the user go to rf_recorder_errmsg() (the session's to its
 * callers' buffers and its note callback).
 */
#ifndef REFAULT_RECORDER_RECORD_H
#define REFAULT_RECORDER_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#include <refault/trace.h>

/* Where normalized events go (the session's trace writer, a list in tests). */
struct rf_record_sink {
	int (*event)(void *ctx, const struct rf_event *ev);
	void *ctx;
};

enum rf_record_scope {
	RF_SCOPE_ALL = 0,	/* -a: every task */
	RF_SCOPE_PID,		/* -p PID and -- COMMAND: that task and its descendants */
	RF_SCOPE_CGROUP,	/* -G CGROUP: tasks in that memory cgroup subtree */
};

/* Where the filemap read/fault events come from (kprobes.c). */
enum rf_kprobe_mode {
	RF_KPROBES_AUTO = 0,	/* kprobe events for the tracepoints this kernel lacks */
	RF_KPROBES_ALWAYS,	/* kprobe events for every one that has a kprobe source */
	RF_KPROBES_NEVER,	/* tracepoints only */
};

struct rf_record_opts {
	enum rf_record_scope scope;
	pid_t pid;			/* RF_SCOPE_PID */
	const char *cgroup;		/* RF_SCOPE_CGROUP: path below the memory hierarchy root */
	const char *events;		/* --events: comma-separated groups/events; NULL = default */
	const char *tracefs_dir;	/* NULL: libtracefs finds it */
	uint64_t buffer_bytes;		/* per CPU; 0 = default */
	uint64_t snapshot_ns;		/* 0 = only at start and end */
	uint64_t poll_ns;		/* 0 = default */
	enum rf_kprobe_mode kprobes;	/* --kprobes */
	uint64_t damon_sample_us;	/* --damon: DAMON's sampling interval; 0 = no DAMON */
	uint64_t damon_aggr_us;		/* and its aggregation interval */
	dev_t out_dev;			/* the output file, whose page cache the recorder skips */
	ino_t out_ino;
	/*
	 * --call-graph dwarf[,SIZE]: bytes of user stack per sample, 0 = no
	 * stacks; with RF_SCOPE_PID, stacks_on_exec says @pid is a command
	 * held before its exec (perfstack.h).
	 */
	uint32_t stack_bytes;
	bool stacks_on_exec;
};

struct rf_record_stats {
	uint64_t records;		/* tracepoint records decoded */
	uint64_t events;		/* rf_events emitted */
	uint64_t lost;			/* records the kernel dropped (overruns, missed flags) */
	uint64_t pages;			/* sub-buffers read */
	uint64_t raw_bytes;		/* bytes of sub-buffers read */
	uint64_t unresolved_faults;	/* page faults whose address matched no mapping */
	/* --call-graph (struct rf_stacks_stats) */
	uint64_t stack_samples, stack_lost, stack_unwound, stack_truncated, stack_failed;
	uint64_t stack_refs, stack_refs_without, stack_bytes;
	uint64_t by_type[RF_EV_TYPE_MAX];
};

struct rf_recorder;

/* Allocate and check @opts; touches nothing in the system yet. */
int rf_recorder_new(struct rf_recorder **out, const struct rf_record_opts *opts,
		    const struct rf_record_sink *sink);

/*
 * Create the tracefs instance, enable the events, start tracing and emit the
 * initial state (cgroup tree, tasks, limits, counters).  @extra_pid, if not
 * 0, is the pid the scope follows (a command that is about to exec).
 */
int rf_recorder_start(struct rf_recorder *rec);

/* Read what the kernel has, emit everything older than the merge horizon. */
int rf_recorder_poll(struct rf_recorder *rec);

/* Periodic work: counter snapshots and limit changes, at most every snapshot interval. */
int rf_recorder_tick(struct rf_recorder *rec);

/* Stop tracing, drain every CPU, emit all that is left and the final counters. */
int rf_recorder_stop(struct rf_recorder *rec);

/* Remove the instance (if any) and free everything.  NULL is accepted. */
void rf_recorder_free(struct rf_recorder *rec);

/* The instance's name, "" before start. */
const char *rf_recorder_instance_name(const struct rf_recorder *rec);
void rf_recorder_stats(const struct rf_recorder *rec, struct rf_record_stats *st);
const char *rf_recorder_errmsg(const struct rf_recorder *rec);
/* The event sources actually enabled, "filemap:mm_filemap_get_pages,..." */
const char *rf_recorder_sources(const struct rf_recorder *rec);
/* The reference events of the default set the kernel lacks, with no kprobe in their stead: "" or "a:b, c:d". */
const char *rf_recorder_missing(const struct rf_recorder *rec);

/* Check an --events list without touching tracefs: 0 or RF_ERR_INVAL with @msg set. */
int rf_record_check_events(const char *list, char *msg, size_t len);
/* Events and groups --events accepts, one per line with what they give. */
void rf_record_list_events(char *buf, size_t len);

/* ---------------------------------------------------------------- cgroups */

/* Mount point of the memory cgroup hierarchy (v1 "memory" or v2 with memory); 0 or -ENOENT. */
int rf_memcg_mount(char *buf, size_t len, bool *v2);
/* The memory cgroup path (below the mount) of @pid. */
int rf_memcg_path_of(pid_t pid, char *buf, size_t len);

/*
 * rf_memcg_create() - make a fresh memory cgroup under the caller's own, with a limit
 * @dir: out, its absolute directory
 * @limit: bytes
 */
int rf_memcg_create(char *dir, size_t len, uint64_t limit, char *msg, size_t msglen);
/* Move @pid into the group at @dir (write to cgroup.procs). */
int rf_memcg_attach(const char *dir, pid_t pid);
/* Remove the group; its tasks must have exited. */
int rf_memcg_remove(const char *dir);
/* Remove leftovers of killed recorders: refault-record-PID groups whose PID is gone. */
void rf_memcg_remove_stale(void);

/* --------------------------------------------------------------- workload */

/* The command of `refault record -- COMMAND` (recorder/workload.c). */
enum {
	RF_WORKLOAD_AS_ROOT = 1 << 0,	/* under sudo, keep root (default: the invoking user) */
};

struct rf_workload_opts {
	const char *memcg_dir;		/* attach the command here before it execs (NULL: no) */
	const sigset_t *sigmask;	/* the command's signal mask (NULL: the caller's) */
	unsigned int flags;
};

struct rf_workload;

/*
 * rf_workload_spawn() - fork the command, held before exec
 * The child leads its own process group and waits for rf_workload_release().
 * Return: 0 or a negative errno with a message in @err.
 */
RF_API int rf_workload_spawn(struct rf_workload **out, char *const *argv,
			     const struct rf_workload_opts *o, char *err, size_t errlen);
/*
 * rf_workload_release() - let it attach to its memcg, drop privileges and exec
 * The caller must ignore SIGPIPE and block SIGTTOU.  Return: 0 once the exec
 * succeeded; a negative errno (with what failed, naming @name) otherwise.
 */
RF_API int rf_workload_release(struct rf_workload *w, char *err, size_t errlen, const char *name);
RF_API pid_t rf_workload_pid(const struct rf_workload *w);
/* Reaped yet?  Never blocks. */
RF_API bool rf_workload_exited(struct rf_workload *w);
/* Its wait status, once exited. */
RF_API int rf_workload_status(const struct rf_workload *w);
/* @sig to its whole process group (nothing once it has exited). */
RF_API void rf_workload_kill(struct rf_workload *w, int sig);
/* Close the hold (a child not yet released exits), wait for it, free.  NULL is accepted. */
RF_API void rf_workload_free(struct rf_workload *w);

#endif /* REFAULT_RECORDER_RECORD_H */
