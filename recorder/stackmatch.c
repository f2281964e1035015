/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which of a thread's stack samples a reference takes (stackmatch.h says how). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/grow.h"
#include "recorder/stackmatch.h"

int rec_sample_q_insert(struct rf_sample_q *q, const struct rf_sample *sm)
{
	size_t i;

	if (RF_GROW(q->items, q->cap, q->nr + 1))
		return -ENOMEM;
	for (i = q->nr++; i > q->head && q->items[i - 1].time > sm->time; i--)
		q->items[i] = q->items[i - 1];
	q->items[i] = *sm;
	return 0;
}

/* The read sample before @e with no syscall exit between, or SIZE_MAX. */
static size_t read_before(const struct rf_sample_q *q, size_t e)
{
	size_t i;

	for (i = e; i > q->head; i--) {
		if (q->items[i - 1].kind == RF_SAMPLE_READ)
			return i - 1;
		if (q->items[i - 1].kind == RF_SAMPLE_EXIT)
			break;
	}
	return SIZE_MAX;
}

/*
 * A read is referenced at its syscall's exit (read_end()), @time; its sample
 * is its syscall's entry, before.  perf's and ftrace's probes on that exit
 * run one after the other and stamp it a microsecond or two apart, either
 * way round: the exit mark within RF_SAMPLE_SLACK_NS of @time is the read's
 * own, and its sample the read sample before that mark, with no other exit
 * between.  But the syscall tracepoints may fault and be preempted between
 * their probes (since 6.13: include/linux/tracepoint.h
 * __DECLARE_TRACE_SYSCALL, "tracing: Allow system call tracepoints to
 * handle page faults"): perf's mark can then be any time before or after.
 * The thread does nothing else until both probes have run, so a read sample
 * after the mark nearest @time and up to @time is the read's (the mark is an
 * earlier syscall's), and with no mark near @time, the read's sample is the
 * last one up to @time with at most one exit after it, its own: with two,
 * the read's sample was lost and this one is an earlier syscall's.  A read
 * sample after @time is the next syscall's.
 */
static size_t find_read(const struct rf_sample_q *q, const struct rf_losses *l, uint64_t time,
			size_t *drop)
{
	const uint64_t slack = RF_SAMPLE_SLACK_NS;
	size_t i, end, e = SIZE_MAX, last = SIZE_MAX, best = SIZE_MAX;
	uint64_t d, best_d = slack + 1;
	unsigned int exits = 0;

	for (end = q->head; end < q->nr && q->items[end].time <= time + slack; end++) {
		const struct rf_sample *sm = &q->items[end];

		if (sm->kind == RF_SAMPLE_READ && sm->time <= time)
			last = end;
		if (sm->kind != RF_SAMPLE_EXIT || sm->time + slack < time)
			continue;
		d = sm->time > time ? sm->time - time : time - sm->time;
		if (d < best_d) {
			e = end;
			best_d = d;
		}
	}
	/* a mark after @time with a read sample after @time before it: the next syscall's */
	if (e != SIZE_MAX && q->items[e].time > time) {
		size_t r = read_before(q, e);

		if (r != SIZE_MAX && q->items[r].time > time)
			e = SIZE_MAX;
	}
	if (e != SIZE_MAX) {
		best = last != SIZE_MAX && last > e ? last : read_before(q, e);
	} else if (last != SIZE_MAX) {
		for (i = last + 1; i < end; i++)
			exits += q->items[i].kind == RF_SAMPLE_EXIT && q->items[i].time <= time;
		if (exits <= 1)
			best = last;
	}
	/* what is before is no later read's: each has its own sample after this read's exit */
	if (best != SIZE_MAX) {
		*drop = best;
	} else {
		for (*drop = end, exits = 0; *drop > q->head; (*drop)--)
			if (q->items[*drop - 1].kind == RF_SAMPLE_EXIT &&
			    q->items[*drop - 1].time <= time && ++exits > 1)
				break;
	}
	if (best != SIZE_MAX && rec_losses_between(l, q->items[best].time, time))
		return SIZE_MAX;
	return best;
}

/*
 * A fault is referenced at page_fault_user, which perf and ftrace stamp a
 * microsecond or two apart, either way round: its sample is the fault
 * sample nearest to @time within RF_SAMPLE_SLACK_NS.
 */
static size_t find_fault(const struct rf_sample_q *q, const struct rf_losses *l, uint64_t time,
			 size_t *drop)
{
	const uint64_t slack = RF_SAMPLE_SLACK_NS;
	uint64_t d, best_d = slack + 1;
	size_t i, best = SIZE_MAX;

	*drop = q->head;
	for (i = q->head; i < q->nr && q->items[i].time <= time + slack; i++) {
		if (q->items[i].time + slack < time) {
			/* too old for this reference, and so for every later one */
			*drop = i + 1;
			continue;
		}
		if (q->items[i].kind != RF_SAMPLE_FAULT)
			continue;
		d = q->items[i].time > time ? q->items[i].time - time : time - q->items[i].time;
		if (d < best_d) {
			best = i;
			best_d = d;
		}
	}
	/*
	 * Keep what follows the last syscall exit before the window: a later
	 * read's own sample may be long before its exit, but not before that.
	 */
	for (i = *drop; i > q->head; i--)
		if (q->items[i - 1].kind == RF_SAMPLE_EXIT)
			break;
	*drop = i;
	if (best != SIZE_MAX &&
	    rec_losses_between(l, time > slack ? time - slack : 0, time + slack))
		return SIZE_MAX;
	return best;
}

size_t rec_sample_q_find(const struct rf_sample_q *q, const struct rf_losses *l, uint64_t time,
			 bool fault, size_t *drop)
{
	return fault ? find_fault(q, l, time, drop) : find_read(q, l, time, drop);
}

int rec_losses_add(struct rf_losses *l, uint64_t from, uint64_t to)
{
	if (RF_GROW(l->v, l->cap, l->nr + 1))
		return -ENOMEM;
	l->v[l->nr++] = (struct rf_loss){ from, to };
	return 0;
}

bool rec_losses_between(const struct rf_losses *l, uint64_t from, uint64_t to)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->v[i].from <= to && l->v[i].to >= from)
			return true;
	return false;
}

void rec_losses_expire(struct rf_losses *l, uint64_t before)
{
	size_t i, k;

	for (i = k = 0; i < l->nr; i++)
		if (l->v[i].to >= before)
			l->v[k++] = l->v[i];
	l->nr = k;
}

void rec_losses_free(struct rf_losses *l)
{
	free(l->v);
	l->v = NULL;
	l->nr = l->cap = 0;
}
