/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recorder/stackmatch.c: which of a thread's samples a reference takes, on
 * queues laid out as the kernel fills them.  A read's reference is stamped
 * by ftrace at its syscall's exit, where perf's exit mark may be any time
 * before or after (the syscall tracepoints can be preempted between their
 * probes); the next read's sample may follow within microseconds; samples
 * get lost.  A lost sample gives no stack, never another syscall's.
 */
#include "config.h"

#include <stdint.h>

#include "recorder/stackmatch.h"
#include "tests/lib/tap.h"

#define US	1000ull
#define MS	(1000ull * US)
#define T0	(1000 * MS)

static struct rf_sample_q q;
static struct rf_losses losses;

static void reset(void)
{
	q.head = q.nr = 0;
	losses.nr = 0;
}

/* A sample of @kind at T0 + @at; its index. */
static size_t add(enum rf_sample_kind kind, int64_t at)
{
	struct rf_sample sm = { .time = (uint64_t)((int64_t)T0 + at), .kind = kind, .seq = q.nr };
	size_t i;

	if (rec_sample_q_insert(&q, &sm))
		return SIZE_MAX;
	for (i = q.head; i < q.nr; i++)
		if (q.items[i].seq == sm.seq)
			return i;
	return SIZE_MAX;
}

static size_t find(int64_t at, bool fault)
{
	size_t drop;

	return rec_sample_q_find(&q, &losses, (uint64_t)((int64_t)T0 + at), fault, &drop);
}

static void test_reads(void)
{
	size_t r1, r2, drop;

	/* read, its exit mark 1 us after ftrace's stamp at 0 */
	reset();
	add(RF_SAMPLE_EXIT, -90 * US);
	r1 = add(RF_SAMPLE_READ, -40 * US);
	add(RF_SAMPLE_EXIT, 1 * US);
	is_int(find(0, false), r1, "a read: its own sample, its exit mark beside the reference");

	/* preempted between the probes: perf's exit 5 ms before ftrace's, or after */
	reset();
	add(RF_SAMPLE_EXIT, -9 * MS);
	r1 = add(RF_SAMPLE_READ, -8 * MS);
	add(RF_SAMPLE_EXIT, -5 * MS);
	is_int(find(0, false), r1, "perf's exit mark 5 ms before the reference: still its own");
	reset();
	add(RF_SAMPLE_EXIT, -9 * MS);
	r1 = add(RF_SAMPLE_READ, -8 * MS);
	is_int(find(0, false), r1, "perf's exit mark not read yet (5 ms after): its own");

	/* a short read, preempted: the mark beside the reference is the syscall's before */
	reset();
	add(RF_SAMPLE_EXIT, -10 * US);
	r1 = add(RF_SAMPLE_READ, -5 * US);
	is_int(find(0, false), r1, "a short read's mark preempted away, the one before 10 us off: its own");
	/* ... and the mark beside it the next syscall's, a read of its own before it */
	reset();
	r1 = add(RF_SAMPLE_READ, -50 * US);
	add(RF_SAMPLE_READ, 5 * US);
	add(RF_SAMPLE_EXIT, 15 * US);
	is_int(find(0, false), r1, "its mark preempted away, the next read's 15 us after: its own");

	/* the next read begins 5 us after this one's exit: not this one's sample */
	reset();
	r1 = add(RF_SAMPLE_READ, -3 * US);
	add(RF_SAMPLE_EXIT, -1 * US);
	r2 = add(RF_SAMPLE_READ, 5 * US);
	add(RF_SAMPLE_EXIT, 8 * US);
	is_int(find(0, false), r1, "a read followed within 5 us by the next: its own sample");
	rec_sample_q_find(&q, &losses, T0 + 8 * US, false, &drop);
	is_int(find(8 * US, false), r2, "... and the next read its own");
	ok(drop <= r2, "... which the first one's drop kept (%zu <= %zu)", drop, r2);

	/* its own sample lost: the one before is an earlier syscall's (two exits after it) */
	reset();
	add(RF_SAMPLE_READ, -100 * US);
	add(RF_SAMPLE_EXIT, -90 * US);
	add(RF_SAMPLE_EXIT, 1 * US);
	rec_losses_add(&losses, T0 - 50 * US, T0 - 40 * US);
	is_int(find(0, false), SIZE_MAX, "its sample lost: none, not the earlier read's");
	losses.nr = 0;
	is_int(find(0, false), SIZE_MAX, "... even with the loss unknown (two exits after it)");

	/* its sample and its exit mark both lost: only the loss tells */
	reset();
	add(RF_SAMPLE_READ, -100 * US);
	add(RF_SAMPLE_EXIT, -90 * US);
	rec_losses_add(&losses, T0 - 50 * US, T0 - 40 * US);
	is_int(find(0, false), SIZE_MAX, "its sample and exit mark lost: none (the loss says so)");

	/* its exit mark lost, its sample there */
	reset();
	add(RF_SAMPLE_EXIT, -90 * US);
	r1 = add(RF_SAMPLE_READ, -40 * US);
	is_int(find(0, false), r1, "its exit mark lost, its sample there: its own");

	/* another syscall between: its exit mark is not this read's */
	reset();
	add(RF_SAMPLE_READ, -100 * US);
	add(RF_SAMPLE_EXIT, -90 * US);
	add(RF_SAMPLE_EXIT, -60 * US);
	r1 = add(RF_SAMPLE_READ, -40 * US);
	add(RF_SAMPLE_EXIT, -1 * US);
	is_int(find(0, false), r1, "after another syscall: its own sample");
	is_int(find(-50 * US, false), SIZE_MAX, "a read reference with no read sample since two exits: none");
}

static void test_faults(void)
{
	size_t f1, f2;

	reset();
	add(RF_SAMPLE_FAULT, -30 * US);
	f1 = add(RF_SAMPLE_FAULT, 2 * US);
	f2 = add(RF_SAMPLE_FAULT, 9 * US);
	is_int(find(0, true), f1, "a fault: the fault sample nearest, 2 us off");
	is_int(find(10 * US, true), f2, "the next fault: its own, 1 us off");
	is_int(find(-100 * US, true), SIZE_MAX, "a fault 70 us from any sample: none");
	rec_losses_add(&losses, T0 + 3 * US, T0 + 4 * US);
	is_int(find(0, true), SIZE_MAX, "a loss beside the fault: none (the nearest may be another's)");
}

static void test_order(void)
{
	reset();
	add(RF_SAMPLE_READ, 10 * US);
	add(RF_SAMPLE_EXIT, 20 * US);
	add(RF_SAMPLE_FAULT, 5 * US);	/* from another CPU's ring, read later */
	ok(q.nr == 3 && q.items[0].time == T0 + 5 * US && q.items[1].kind == RF_SAMPLE_READ &&
	   q.items[2].kind == RF_SAMPLE_EXIT, "samples read out of order are queued in time order");
	ok(rec_losses_between(&losses, 0, UINT64_MAX) == false, "no losses: none between anything");
	rec_losses_add(&losses, 100, 200);
	ok(rec_losses_between(&losses, 200, 300) && rec_losses_between(&losses, 50, 100) &&
	   !rec_losses_between(&losses, 201, 300), "a loss is between the times it overlaps, ends included");
	rec_losses_expire(&losses, 201);
	ok(!rec_losses_between(&losses, 0, UINT64_MAX), "expired before 201: gone");
}

int main(void)
{
	plan(22);
	test_reads();
	test_faults();
	test_order();
	free(q.items);
	rec_losses_free(&losses);
	return done_testing();
}
