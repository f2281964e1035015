/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stackmatch.c: which of a thread's stack samples a reference takes.
 *
 * perfstack.c queues each thread's samples in time order (perf's clock,
 * CLOCK_MONOTONIC as the tracefs records'): a read syscall's entry and a
 * user fault with a stack, every syscall's exit as a mark without one.  A
 * reference, stamped by ftrace, asks for its own; the queue's order and the
 * losses (samples the kernel or the recorder dropped) say which that is, or
 * that it is none: a lost sample gives a reference no stack, never another
 * call path's.
 */
#ifndef REFAULT_RECORDER_STACKMATCH_H
#define REFAULT_RECORDER_STACKMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recorder/stacks.h"

/* perf's and ftrace's probes on one tracepoint that cannot sleep stamp it this close. */
#define RF_SAMPLE_SLACK_NS	(20ull * 1000)

enum rf_sample_kind {
	RF_SAMPLE_READ,		/* sys_enter_read/pread64, with a stack */
	RF_SAMPLE_FAULT,	/* page_fault_user or _kernel, with a stack */
	RF_SAMPLE_EXIT,		/* raw_syscalls:sys_exit: the end of a syscall, no stack */
	RF_SAMPLE_NR
};

struct rf_sample {
	uint64_t time;
	uint64_t seq;		/* read order: which sample it is, wherever it moves */
	uint64_t regs[RF_UREG_NR];
	uint8_t *stack;		/* the queue's owner allocates and frees it */
	uint32_t size;
	uint32_t stack_id;	/* once unwound: 0 = none */
	uint8_t kind;		/* enum rf_sample_kind */
	bool kernel;		/* a fault's, from page_fault_kernel */
	bool unwound;
	bool taken;
};

/* One thread's samples, oldest first: items[head .. nr). */
struct rf_sample_q {
	struct rf_sample *items;
	size_t head, nr, cap;
};

/* Where samples were lost: each between its from and to, both included. */
struct rf_losses {
	struct rf_loss {
		uint64_t from, to;
	} *v;
	size_t nr, cap;
};

/* Insert @sm in time order (a thread that moved between CPUs has its samples in two rings). */
int rec_sample_q_insert(struct rf_sample_q *q, const struct rf_sample *sm);

/*
 * rec_sample_q_find() - the index of the sample of a reference at @time, or SIZE_MAX
 * @fault: a fault's reference (at page_fault_user), else a read's (at its syscall's exit)
 * @drop: set to the first sample a later reference of the thread may still want
 */
size_t rec_sample_q_find(const struct rf_sample_q *q, const struct rf_losses *l, uint64_t time,
			 bool fault, size_t *drop);

/* 0, or -ENOMEM (the loss is then not remembered). */
int rec_losses_add(struct rf_losses *l, uint64_t from, uint64_t to);
bool rec_losses_between(const struct rf_losses *l, uint64_t from, uint64_t to);
/* Forget the losses that ended before @before. */
void rec_losses_expire(struct rf_losses *l, uint64_t before);
void rec_losses_free(struct rf_losses *l);

#endif
