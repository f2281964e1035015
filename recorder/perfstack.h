/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * perfstack.c: the user stacks of `refault record --call-graph dwarf`.
 *
 * perf_event_open() samples, into one ring per CPU, the user registers and
 * the top of the user stack at the syscalls the recorder turns into file
 * reads (syscalls:sys_enter_read, sys_enter_pread64) and at every page fault
 * of a task's page (exceptions:page_fault_user; page_fault_kernel, where the
 * kernel touched it, as a read()'s copy: the stack is the syscall's), as
 * `perf record --call-graph dwarf -e TRACEPOINT` does; every syscall's exit
 * (raw_syscalls:sys_exit) leaves a mark without a stack, so that a reference whose own sample was lost takes
 * none rather than an older one of another call path.  A thread drains the
 * rings as they fill into per-thread queues; the normalizer asks for the
 * sample of each reference (rec_stacks_take(), stackmatch.c), which is unwound
 * (unwind.c) and named (symbols.c) on the recording host, once per distinct
 * stack, and written as name_frame and name_stack events before it.
 */
#ifndef REFAULT_RECORDER_PERFSTACK_H
#define REFAULT_RECORDER_PERFSTACK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <refault/trace.h>

#include "recorder/record.h"

struct rf_stacks_cfg {
	enum rf_record_scope scope;	/* PID: @pid's threads and children; else every task */
	pid_t pid;
	bool on_exec;			/* @pid is a command held before exec: enable at exec */
	uint32_t stack_bytes;		/* user stack copied per sample */
	uint32_t ring_pages;		/* per CPU, a power of two; 0 = default */
	const char *tracefs_dir;	/* where events/SYSTEM/NAME/id are; NULL: libtracefs's */
};

/* What the stacks cost and how many made it (also the trace's counters, source 4). */
struct rf_stacks_stats {
	uint64_t samples;	/* samples with a stack read from the rings */
	uint64_t lost;		/* samples the kernel dropped (PERF_RECORD_LOST) or we did (memory) */
	uint64_t unwound;	/* samples unwound to their outermost frame */
	uint64_t truncated;	/* stopped by the copied stack's end or the frame limit */
	uint64_t failed;	/* no frame, or a frame without unwind information */
	uint64_t unused;	/* samples no reference took */
	uint64_t refs;		/* references given a stack */
	uint64_t refs_without;	/* references that found no sample of their own */
	uint64_t stacks;	/* distinct stacks written (name_stack) */
	uint64_t frames;	/* distinct frames written (name_frame) */
	uint64_t bytes;		/* bytes of samples read from the rings */
	bool realtime;		/* the drain thread runs SCHED_FIFO (needs CAP_SYS_NICE) */
};

struct rf_stacks;

/* The events the normalizer emits go through this (name_frame, name_stack). */
typedef int (*rf_stacks_emit_fn)(void *ctx, const struct rf_event *ev);

/* Open the perf events (disabled); 0 or a negative errno with @msg set. */
int rec_stacks_open(struct rf_stacks **out, const struct rf_stacks_cfg *cfg, char *msg, size_t len);
/* Start the drain thread and enable the events (those of a held command at its exec). */
int rec_stacks_start(struct rf_stacks *s, char *msg, size_t len);
/* Read what the rings hold now (the thread does too): before emitting up to a horizon. */
void rec_stacks_read(struct rf_stacks *s);
/*
 * rec_stacks_take() - the stack id of a reference of thread @pid at @time
 * @fault: a file or anonymous fault (its sample is page_fault_user's); else a read
 * Emits the name_frame and name_stack events of a stack not yet written
 * through @emit first, with @time.  Return: the id, 0 if the reference has no
 * sample of its own; *@err is set by a failed @emit.
 */
uint32_t rec_stacks_take(struct rf_stacks *s, int32_t pid, uint64_t time, bool fault,
			 rf_stacks_emit_fn emit, void *ctx, int *err);
/* No reference older than @before is to come: drop the samples only those could take. */
void rec_stacks_expire(struct rf_stacks *s, uint64_t before);
/* Disable the events, stop the thread, read what is left. */
void rec_stacks_stop(struct rf_stacks *s);
void rec_stacks_stats(const struct rf_stacks *s, struct rf_stacks_stats *st);
/* The stats as a counters event (source RF_COUNTERS_RECORDER) at @time. */
int rec_stacks_counters(const struct rf_stacks *s, uint64_t time, rf_stacks_emit_fn emit,
			void *ctx);
void rec_stacks_free(struct rf_stacks *s);

#endif /* REFAULT_RECORDER_PERFSTACK_H */
