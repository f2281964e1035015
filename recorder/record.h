/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-record: turn the kernel's tracepoints into a refault trace.
 *
 * What a program calls: the recorder's options and statistics, which a
 * recording session takes and gives (session.h: what `refault record` runs),
 * and the --events list.  The pipeline is the library's own (record-local.h
 * and the headers it names), one object per file:
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
 *   idle.c       --idle-pages: scans of the recorded processes' accessed bits
 *   recorder.c   start, poll, stop, drain
 *   header.c     the header of a recording's trace
 *   session.c    a recording: the output file, the writer, the --memcg-limit
 *                group, the command, the loop and its stop (session.h)
 *
 * Library code returns 0 or a negative rf_err / -errno and never prints:
 * messages for the user go to rec_recorder_errmsg() (the session's to its
 * callers' buffers and its note callback).
 */
#ifndef REFAULT_RECORDER_RECORD_H
#define REFAULT_RECORDER_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <refault/api.h>
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
	uint64_t idle_ns;		/* --idle-pages: the interval of its scans; 0 = none */
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

#define RF_STACK_BYTES_DEFAULT	8192u	/* as perf record --call-graph dwarf */
#define RF_STACK_BYTES_MAX	65528u	/* the kernel's limit (a u16 size, 8-byte aligned) */

struct rf_record_stats {
	uint64_t records;		/* tracepoint records decoded */
	uint64_t events;		/* rf_events emitted */
	uint64_t lost;			/* records the kernel dropped (overruns, missed flags) */
	uint64_t pages;			/* sub-buffers read */
	uint64_t raw_bytes;		/* bytes of sub-buffers read */
	uint64_t unresolved_faults;	/* page faults whose address matched no mapping */
	/* large folios (THP, mTHP) allocated after their fault went out as order 0 */
	uint64_t large_late;
	/* --call-graph (struct rf_stacks_stats) */
	uint64_t stack_samples, stack_lost, stack_unwound, stack_truncated, stack_failed;
	uint64_t stack_refs, stack_refs_without, stack_bytes;
	bool stack_realtime;		/* the ring thread ran SCHED_FIFO */
	/* --idle-pages (struct rf_idle_stats) */
	uint64_t idle_scans, idle_pages, idle_young, idle_ns;
	uint64_t by_type[RF_EV_TYPE_MAX];
};

/* Check an --events list without touching tracefs: 0 or RF_ERR_INVAL with @msg set. */
RF_API int rf_record_check_events(const char *list, char *msg, size_t len);
/* Events and groups --events accepts, one per line with what they give. */
RF_API void rf_record_list_events(char *buf, size_t len);

#endif /* REFAULT_RECORDER_RECORD_H */
