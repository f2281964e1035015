/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file_readahead: the folios the kernel brought into the page cache for a
 * task's read() or file page fault -- readahead, sync and async, the missing
 * folio included -- before the task touched them.  The model inserts what
 * these name and then lets the read or fault touch what it uses, so each one
 * must be in the trace before the reference that touches its pages.
 *
 * Reads: the adds fall between a read syscall's entry and exit (read(), pread64(),
 * readv(), preadv(), preadv2(), sendfile(), splice(), copy_file_range()); the run goes
 * out right before the file_read the exit emits.  Faults: the adds follow the
 * filemap event that names the fault (filemap_fault: sync read-around, or
 * async readahead on the marked folio), and a fault that read ahead returns
 * VM_FAULT_RETRY and maps its page by fault-around on the retry, with no new
 * page_fault_user.  So the file_fault is held from the event that names it
 * until the task does something a fault does not (another fault, a syscall,
 * exit), or has been silent for HOLD_NS; the run goes out first.  A run
 * also goes out as soon as another task's record comes between its adds, so
 * that concurrent readers' insertions stay in the order the kernel made them
 * (a read's exit may come milliseconds of I/O after its adds).  The adds
 * inside fadvise(WILLNEED), madvise(WILLNEED) and readahead(2) are readahead
 * too, out at the syscall's exit (normalize.c, ra_call_end()).  Adds anywhere
 * else are held apart (t->loose): those a get_pages of the same task and file
 * follows are that read's, a read the recorder saw no syscall of (exec's
 * kernel_read() of the program's first pages, prepare_binprm()), and go out
 * before it; the others (write(), the output of a splice) are not readahead
 * of a reference and are left out.  The event's CPU is the one its adds ran
 * on: a run is cut where the task migrated.
 */
#include "config.h"

#include <stdlib.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "recorder/norm.h"

/* @r as @pid's file_readahead, at its first add's time and CPU. */
static int emit_run(struct rf_norm *n, int32_t pid, const struct rf_ra_run *r)
{
	struct rf_event ev = { .time = r->time, .cpu = r->cpu, .pid = pid,
			       .type = RF_EV_FILE_READAHEAD };

	ev.u.file.dev = r->dev;
	ev.u.file.ino = r->ino;
	ev.u.file.index = r->index;
	ev.u.file.nr = r->nr;
	ev.u.file.order = r->order;
	return rec_norm_emit(n, &ev);
}

int rec_ra_flush(struct rf_norm *n, struct rec_task *t)
{
	struct rf_ra_run run = t->ra;

	if (n->ra_open && n->ra_pid == t->pid)
		n->ra_open = false;
	if (!run.nr)
		return 0;
	t->ra.nr = 0;
	return emit_run(n, t->pid, &run);
}

int rec_ra_interleaved(struct rf_norm *n, int32_t pid)
{
	struct rec_task *t;

	if (pid == n->ra_pid)
		return 0;
	n->ra_open = false;
	t = rec_task_find(n, n->ra_pid);
	return t ? rec_ra_flush(n, t) : 0;
}

/* One more folio added by @t's read or fault: it extends the run or starts one. */
int rec_ra_add(struct rf_norm *n, struct rec_task *t, const struct rf_raw *raw, uint32_t dev,
	       uint64_t ino, uint64_t index, uint8_t order)
{
	struct rf_ra_run *r = &t->ra;
	int err;

	if (t->fault.on)
		t->fault.last = raw->ts;
	/*
	 * A task that migrated between two adds put them in two CPUs' per-CPU LRU
	 * batches (folio_add_lru() runs on the adding CPU): the event carries one
	 * CPU, so a run does not cross a CPU change.
	 */
	if (r->nr && r->dev == dev && r->ino == ino && r->order == order &&
	    r->index + r->nr == index && r->cpu == raw->cpu) {
		r->nr += 1ull << order;
		return 0;
	}
	err = rec_ra_flush(n, t);
	r->dev = dev;
	r->ino = ino;
	r->index = index;
	r->nr = 1ull << order;
	r->order = order;
	r->time = raw->ts;
	r->cpu = raw->cpu;
	n->ra_pid = t->pid;
	n->ra_open = true;
	return err;
}

void rec_ra_loose_add(struct rec_task *t, const struct rf_raw *raw, uint32_t dev, uint64_t ino,
		      uint64_t index, uint8_t order)
{
	struct rf_ra_run *r = t->nr_loose ? &t->loose[t->nr_loose - 1] : NULL;

	if (r && r->dev == dev && r->ino == ino && r->order == order &&
	    r->index + r->nr == index && r->cpu == raw->cpu) {
		r->nr += 1ull << order;
		return;
	}
	/* one file's, and a bounded number of runs: past that, they start again */
	if (r && (r->dev != dev || r->ino != ino || t->nr_loose == RF_LOOSE_RUNS))
		t->nr_loose = 0;
	t->loose[t->nr_loose++] = (struct rf_ra_run){ .dev = dev, .ino = ino, .index = index,
						      .nr = 1ull << order, .order = order,
						      .time = raw->ts, .cpu = raw->cpu };
}

int rec_ra_loose_take(struct rf_norm *n, struct rec_task *t, uint32_t dev, uint64_t ino,
		      uint64_t index)
{
	uint8_t i, nr = t->nr_loose;
	int err = 0;

	t->nr_loose = 0;
	if (!nr || t->loose[0].dev != dev || t->loose[0].ino != ino)
		return 0;
	/* readahead starts at the read's first missing page or after it, never before */
	for (i = 0; i < nr && !err; i++)
		if (t->loose[i].index >= index)
			err = emit_run(n, t->pid, &t->loose[i]);
	return err;
}

static int held_add(struct rf_norm *n, int32_t pid, uint64_t now)
{
	if (RF_GROW(n->held, n->cap_held, n->nr_held + 1))
		return RF_ERR_NOMEM;
	if (!n->nr_held || now < n->held_oldest)
		n->held_oldest = now;
	n->held[n->nr_held++] = pid;
	return 0;
}

static void held_remove(struct rf_norm *n, int32_t pid)
{
	size_t i;

	for (i = 0; i < n->nr_held; i++)
		if (n->held[i] == pid) {
			n->held[i] = n->held[--n->nr_held];
			return;
		}
}

int rec_fault_hold(struct rf_norm *n, struct rec_task *t, const struct rf_event *ev, uint64_t addr)
{
	/* a fault the task took before this one ended, though we did not see it end */
	int err = t->fault.on ? rec_fault_release(n, t, true) : 0;

	if (err)
		return err;
	t->fault.ev = *ev;
	t->fault.addr = addr;
	t->fault.last = ev->time;
	t->fault.on = true;
	t->fault.held = true;
	return held_add(n, t->pid, ev->time);
}

int rec_fault_release(struct rf_norm *n, struct rec_task *t, bool end)
{
	struct rf_fault_ctx *f = &t->fault;
	int err = rec_ra_flush(n, t);

	if (f->held) {
		f->held = false;
		held_remove(n, t->pid);
		rec_fault_refolio(n, t, &f->ev, f->addr);
		err = err ?: rec_norm_emit(n, &f->ev);
	}
	if (end)
		f->on = false;
	return err;
}

int rec_fault_release_stale(struct rf_norm *n, uint64_t before)
{
	uint64_t oldest = UINT64_MAX;
	size_t i = 0;
	int err = 0;

	while (i < n->nr_held && !err) {
		struct rec_task *t = rec_task_find(n, n->held[i]);

		if (!t || !t->fault.held) {
			n->held[i] = n->held[--n->nr_held];	/* the task went away */
		} else if (t->fault.last < before) {
			err = rec_fault_release(n, t, false);	/* moves the last entry to i */
		} else {
			oldest = t->fault.last < oldest ? t->fault.last : oldest;
			i++;
		}
	}
	n->held_oldest = oldest;
	return err;
}

static int by_pid(const void *a, const void *b)
{
	int32_t x = (*(struct rec_task *const *)a)->pid, y = (*(struct rec_task *const *)b)->pid;

	return (x > y) - (x < y);
}

/* In pid order: what goes out must not depend on the task table's hash order. */
int rec_ra_flush_all(struct rf_norm *n)
{
	size_t nr = 0, i;
	struct rec_task **all = malloc((rec_task_map_count(&n->tasks) + 1) * sizeof(*all));
	struct rec_task_map_slot *s = NULL;
	int err = 0;

	if (!all)
		return RF_ERR_NOMEM;
	while ((s = rec_task_map_next(&n->tasks, s)))
		all[nr++] = s->val;
	qsort(all, nr, sizeof(*all), by_pid);
	for (i = 0; i < nr; i++) {
		int e = rec_fault_release(n, all[i], true);

		err = err ?: e;	/* the first error; every task's fault goes out all the same */
	}
	free(all);
	return err;
}

void rec_ra_free(struct rf_norm *n)
{
	free(n->held);
	n->held = NULL;
	n->nr_held = n->cap_held = 0;
}
