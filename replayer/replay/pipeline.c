/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The replay pipeline (see replay.h for the picture).
 *
 * Threads: the calling thread reads frames; `threads` workers each own the
 * models i with i % workers == w and help decode whatever is queued.  Slot k
 * holds batch k % nr_slots; it is refilled only after every model thread
 * has consumed it (back-pressure).
 *
 * No lock on the per-chunk path; liburcu gives the pieces:
 * - decode jobs travel on a wait-free concurrent queue (cds_wfcq): the reader
 *   enqueues without waiting for anyone, any worker dequeues;
 * - a slot's batch number and state are one word (its tag), read and written
 *   with uatomic and ordered by cmm_smp_mb(), so a thread never sees a state
 *   of one batch with the number of another;
 * - a thread with nothing to do sleeps on a futex (futex_noasync) behind an
 *   event count: every change that may let someone go on bumps the count,
 *   and the FUTEX_WAKE system call is made only when someone sleeps.  A
 *   waiter reads the count, checks its condition, and sleeps only if the
 *   count is unchanged, so no wake-up is lost (Dekker: both sides put a full
 *   barrier between their write and their read).
 */
#define _LGPL_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/arch.h>
#include <urcu/futex.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>

#include "lib/clock.h"
#include "lib/grow.h"
#include "replayer/replay/replay.h"
#include "replayer/replay/replay-local.h"

enum slot_state { SLOT_FREE, SLOT_READ, SLOT_DECODED };

/*
 * How many events ahead the lookups of a reference policy
 * (rf_refpolicy_prefetch()) and of a kernel model (rf_model_prefetch()'s
 * first stage) are started: about the memory latency over the time an
 * event takes once its data is in cache (docs/performance.md, "Against
 * libCacheSim").  A model's later stages, each reading what the one before
 * loaded, follow at PREFETCH_NODE and PREFETCH_PAGE.
 */
#define PREFETCH_DISTANCE	16u
#define PREFETCH_NODE		12u
#define PREFETCH_PAGE		4u
#define PREFETCH_RING		32u	/* a power of two past PREFETCH_DISTANCE: the states in flight */

/* A slot's tag: (batch + 1) << 2 | state; 0 is a slot never used, free. */
static uint64_t tag_of(uint64_t seq, enum slot_state st)
{
	return (seq + 1) << 2 | st;
}

struct slot {
	struct cds_wfcq_node node;
	uint64_t tag;			/* uatomic */
	unsigned int pending;		/* uatomic: model threads still to consume it */
	void *frame;
	size_t frame_len, frame_cap;
	uint64_t offset;
	uint64_t ordinal;
	struct rf_event_batch batch;
	int rc;
	char errmsg[256];
};

struct worker;

struct pipeline {
	const struct rf_replay_opts *opts;
	struct rf_replay_result *res;
	struct slot *slots;
	size_t nr_slots;
	struct cds_wfcq_head qhead;
	struct cds_wfcq_tail qtail;
	int32_t events;			/* uatomic: the event count sleepers wait on */
	int32_t sleepers;		/* uatomic */
	uint64_t produced;		/* uatomic, written by the reader: slots handed out */
	int eof;			/* uatomic */
	int abort;			/* uatomic */
	int error;			/* the first error; set once (cmpxchg) */
	char errmsg[512];		/* written by the thread that set error, read after join */
	unsigned int nr_workers;
	unsigned int nr_model_threads;	/* workers that own at least one model */
	struct worker *workers;
};

struct worker {
	struct pipeline *pl;
	pthread_t thread;
	bool started;
	unsigned int id;
	struct rf_chunk_decoder *dec;
};

/* ----------------------------------------------------------- waiting */

/* Something changed that may let a waiting thread go on. */
static void wake_all(struct pipeline *pl)
{
	cmm_smp_mb();
	uatomic_inc(&pl->events);
	cmm_smp_mb();
	if (uatomic_read(&pl->sleepers))
		futex_noasync(&pl->events, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* The event count before a waiter checks its condition. */
static int32_t wait_begin(struct pipeline *pl)
{
	int32_t e = uatomic_read(&pl->events);

	cmm_smp_mb();
	return e;
}

/* The condition did not hold at count @e: sleep until the count moves. */
static void wait_sleep(struct pipeline *pl, int32_t e)
{
	uatomic_inc(&pl->sleepers);
	cmm_smp_mb();
	if (uatomic_read(&pl->events) == e)
		futex_noasync(&pl->events, FUTEX_WAIT, e, NULL, NULL, 0);
	uatomic_dec(&pl->sleepers);
}

static bool aborted(struct pipeline *pl)
{
	return uatomic_read(&pl->abort);
}

static void fail(struct pipeline *pl, int rc, const char *fmt, const char *detail)
{
	if (uatomic_cmpxchg(&pl->error, 0, rc) == 0)
		snprintf(pl->errmsg, sizeof(pl->errmsg), fmt, detail);
	uatomic_set(&pl->abort, 1);
	wake_all(pl);
}

/* ------------------------------------------------------------- decoding */

static void decode_slot(struct worker *w, struct slot *s)
{
	uint64_t seq = (uatomic_read(&s->tag) >> 2) - 1;
	int rc = rf_chunk_decode(w->dec, s->frame, s->frame_len, s->offset, &s->batch);

	if (rc)
		snprintf(s->errmsg, sizeof(s->errmsg), "chunk %llu at offset %llu: %s",
			 (unsigned long long)s->ordinal, (unsigned long long)s->offset,
			 rf_chunk_decoder_errmsg(w->dec));
	s->rc = rc;
	/* the batch and rc before the state that publishes them */
	cmm_smp_mb();
	uatomic_set(&s->tag, tag_of(seq, SLOT_DECODED));
	wake_all(w->pl);
}

static bool help_decode(struct worker *w)
{
	struct cds_wfcq_node *n = cds_wfcq_dequeue_blocking(&w->pl->qhead, &w->pl->qtail);

	if (!n)
		return false;
	decode_slot(w, caa_container_of(n, struct slot, node));
	return true;
}

/* ------------------------------------------------------------- models */

/*
 * One event into configuration @k's model, with its probe around it.  The
 * kernel's observations are the same for every model: the first
 * configuration's thread gathers them, once.
 */
static int feed_event(struct rf_replay_result *res, size_t k, const struct rf_event *ev,
		      const struct rf_model_prefetch *hint)
{
	struct replay_model_run *mr = &res->runs[k];
	const struct rf_replay_probe *p = mr->conf->probe;
	void *pctx = mr->conf->probe_ctx;
	int rc;

	rc = mr->series ? replay_series_advance(mr->series, replay_run_walk(mr), replay_run_src(mr), ev->time) : 0;
	if (!rc && p && p->before)
		rc = p->before(pctx, mr->model, k ? NULL : res->observe, ev);
	if (!rc && k == 0 && !res->fed) {
		res->fed = true;
		res->t_first = ev->time;
	}
	if (!rc && k == 0 && ev->type != RF_EV_COUNTERS)
		rc = replay_kernel_sample(res);
	if (!rc && k == 0)
		rc = rf_observe_feed(res->observe, ev);
	if (!rc && k == 0 && ev->type == RF_EV_COUNTERS) {
		res->kernel_pending = true;	/* sampled after the snapshot's last counters */
		res->kernel_t = ev->time;
	}
	if (!rc && mr->model && res->warm)
		rc = replay_warm_plant(res->warm, mr->model, ev);
	if (!rc)
		rc = mr->model ? rf_model_feed_hinted(mr->model, ev, hint) :
				 replay_policy_run_feed(mr->policy, ev);
	if (!rc && p && p->after)
		rc = p->after(pctx, mr->model, ev);
	if (rc)
		return rc;
	if (ev->time < mr->last_time)
		mr->out_of_order++;
	mr->last_time = ev->time;
	mr->by_type[ev->type]++;
	mr->events++;
	return 0;
}

/* The stage of a model's hint for event @at of the batch: its state in @pf, a ring. */
static inline void model_hint(const struct rf_model *m, const struct rf_event_batch *b, size_t at,
			      unsigned int stage, struct rf_model_prefetch *pf)
{
	if (at < b->nr)
		rf_model_prefetch(m, &b->events[at], stage, &pf[at % PREFETCH_RING]);
}

static int feed_batch(struct worker *w, const struct slot *s)
{
	struct pipeline *pl = w->pl;
	struct rf_replay_result *res = pl->res;
	struct rf_model_prefetch pf[PREFETCH_RING];
	size_t i, k;
	int rc;

	for (k = w->id; k < res->nr; k += pl->nr_workers) {
		const struct replay_policy_run *ahead = res->runs[k].policy;
		const struct rf_model *m = res->runs[k].model;

		/* the first events' first stage, so that every later stage has its state */
		for (i = 0; m && i < PREFETCH_DISTANCE; i++)
			model_hint(m, &s->batch, i, RF_PREFETCH_INDEX, pf);
		for (i = 0; i < s->batch.nr; i++) {
			/* the batch is known ahead: start the lookups of later events */
			if (ahead && i + PREFETCH_DISTANCE < s->batch.nr)
				replay_policy_run_prefetch(ahead, &s->batch.events[i + PREFETCH_DISTANCE]);
			if (m) {
				model_hint(m, &s->batch, i + PREFETCH_DISTANCE, RF_PREFETCH_INDEX, pf);
				model_hint(m, &s->batch, i + PREFETCH_NODE, RF_PREFETCH_NODE, pf);
				model_hint(m, &s->batch, i + PREFETCH_PAGE, RF_PREFETCH_PAGE, pf);
			}
			rc = feed_event(res, k, &s->batch.events[i], m ? &pf[i % PREFETCH_RING] : NULL);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Wait for batch @seq; false when the trace has ended or the run aborted. */
static bool wait_batch(struct worker *w, uint64_t seq, struct slot **out)
{
	struct pipeline *pl = w->pl;
	struct slot *s = &pl->slots[seq % pl->nr_slots];
	int32_t e;

	for (;;) {
		if (help_decode(w))
			continue;
		e = wait_begin(pl);
		if (aborted(pl))
			return false;
		if (uatomic_read(&s->tag) == tag_of(seq, SLOT_DECODED)) {
			/* the batch after the state that published it */
			cmm_smp_mb();
			*out = s;
			return true;
		}
		if (uatomic_read(&pl->eof) && seq >= uatomic_read(&pl->produced))
			return false;
		if (cds_wfcq_empty(&pl->qhead, &pl->qtail))
			wait_sleep(pl, e);
	}
}

static void release_slot(struct pipeline *pl, struct slot *s, uint64_t seq)
{
	/* everything this thread read of the batch before the slot can be reused */
	cmm_smp_mb();
	if (uatomic_sub_return(&s->pending, 1) == 0) {
		uatomic_set(&s->tag, tag_of(seq, SLOT_FREE));
		wake_all(pl);
	}
}

static void damaged_batch(struct pipeline *pl, struct worker *w, const struct slot *s)
{
	if (!pl->opts->skip_damaged) {
		fail(pl, s->rc, "%s", s->errmsg);
		return;
	}
	/* Every model thread sees it; count it once. */
	if (w->id == 0) {
		pl->res->chunks_damaged++;
		pl->res->events_skipped += replay_index_events_at(pl->res, s->offset);
		snprintf(pl->res->first_damage, sizeof(pl->res->first_damage), "%s", s->errmsg);
	}
}

/* A worker with no model of its own (more threads than models) only decodes. */
static void decode_only(struct worker *w)
{
	struct pipeline *pl = w->pl;
	int32_t e;

	for (;;) {
		if (help_decode(w))
			continue;
		e = wait_begin(pl);
		if (!cds_wfcq_empty(&pl->qhead, &pl->qtail))
			continue;
		if (aborted(pl) || uatomic_read(&pl->eof))
			return;
		wait_sleep(pl, e);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pipeline *pl = w->pl;
	struct slot *s;
	uint64_t seq;
	int rc;

	if (w->id >= pl->nr_model_threads) {
		decode_only(w);
		return NULL;
	}
	for (seq = 0; wait_batch(w, seq, &s); seq++) {
		if (s->rc)
			damaged_batch(pl, w, s);
		else if ((rc = feed_batch(w, s)))
			fail(pl, rc, "model: %s", rf_strerror(rc));
		release_slot(pl, s, seq);
	}
	return NULL;
}

/* ------------------------------------------------------------- reading */

static void progress(struct pipeline *pl, double t_start, double *t_last, uint64_t total_chunks,
		     bool final)
{
	double t = rf_mono_seconds();
	uint64_t done = pl->produced, events = uatomic_read(&pl->res->runs[0].events);
	struct rf_replay_progress p = { .chunks = done, .final = final };

	if (!pl->opts->progress || (!final && t - *t_last < 0.5))
		return;
	*t_last = t;
	p.events_per_s = t > t_start ? (double)events / (t - t_start) : 0;
	if (total_chunks && done <= total_chunks) {
		p.total_chunks = total_chunks;
		p.eta_s = done ? (t - t_start) * (double)(total_chunks - done) / (double)done : 0.0;
	}
	pl->opts->progress(&p, pl->opts->progress_ctx);
}

/* Wait until the slot of the next batch is free; false if the run aborted. */
static bool wait_free_slot(struct pipeline *pl, struct slot *s)
{
	int32_t e;

	for (;;) {
		e = wait_begin(pl);
		if (aborted(pl))
			return false;
		if ((uatomic_read(&s->tag) & 3) == SLOT_FREE) {
			cmm_smp_mb();
			return true;
		}
		wait_sleep(pl, e);
	}
}

static int copy_frame(struct slot *s, const struct rf_frame *f)
{
	if (RF_GROW(s->frame, s->frame_cap, f->size))
		return RF_ERR_NOMEM;
	memcpy(s->frame, f->data, f->size);
	s->frame_len = f->size;
	s->offset = f->offset;
	s->ordinal = f->ordinal;
	return 0;
}

static void publish(struct pipeline *pl, struct slot *s)
{
	uint64_t seq = pl->produced;

	s->rc = 0;
	uatomic_set(&s->pending, pl->nr_model_threads);
	cds_wfcq_node_init(&s->node);
	cmm_smp_mb();
	uatomic_set(&s->tag, tag_of(seq, SLOT_READ));
	uatomic_set(&pl->produced, seq + 1);
	cds_wfcq_enqueue(&pl->qhead, &pl->qtail, &s->node);
	wake_all(pl);
}

static void read_frames(struct pipeline *pl, struct rf_trace_reader *r, uint64_t total_chunks)
{
	double t_start = rf_mono_seconds(), t_last = t_start;
	struct rf_frame f;
	struct slot *s;
	int rc;

	for (;;) {
		s = &pl->slots[pl->produced % pl->nr_slots];
		if (!wait_free_slot(pl, s))
			break;
		rc = rf_trace_reader_next_frame(r, &f);
		if (rc == 0)
			break;
		if (rc < 0) {
			if (pl->opts->skip_damaged) {
				pl->res->chunks_damaged++;
				snprintf(pl->res->first_damage, sizeof(pl->res->first_damage), "%s",
					 rf_trace_reader_errmsg(r));
				continue;
			}
			fail(pl, rc, "%s", rf_trace_reader_errmsg(r));
			break;
		}
		replay_fingerprint_frame(pl->res, f.data, f.size);
		rc = copy_frame(s, &f);
		if (rc) {
			fail(pl, rc, "%s", "out of memory for a frame");
			break;
		}
		publish(pl, s);
		progress(pl, t_start, &t_last, total_chunks, false);
	}
	uatomic_set(&pl->eof, 1);
	wake_all(pl);
	progress(pl, t_start, &t_last, total_chunks, true);
}

/* ------------------------------------------------------------- setup */

static int start_workers(struct pipeline *pl)
{
	unsigned int i;
	int rc;

	for (i = 0; i < pl->nr_workers; i++) {
		struct worker *w = &pl->workers[i];

		w->pl = pl;
		w->id = i;
		rc = rf_chunk_decoder_new(&w->dec);
		if (rc)
			return rc;
	}
	for (i = 0; i < pl->nr_workers; i++) {
		if (pthread_create(&pl->workers[i].thread, NULL, worker_main, &pl->workers[i]))
			return RF_ERR_NOMEM;
		pl->workers[i].started = true;
	}
	return 0;
}

static void pipeline_free(struct pipeline *pl)
{
	size_t i;

	for (i = 0; pl->workers && i < pl->nr_workers; i++)
		rf_chunk_decoder_free(pl->workers[i].dec);
	for (i = 0; pl->slots && i < pl->nr_slots; i++) {
		free(pl->slots[i].frame);
		rf_event_batch_release(&pl->slots[i].batch);
	}
	free(pl->workers);
	free(pl->slots);
	cds_wfcq_destroy(&pl->qhead, &pl->qtail);
}

static int pipeline_init(struct pipeline *pl, const struct rf_replay_opts *opts,
			 struct rf_replay_result *res)
{
	size_t i;

	memset(pl, 0, sizeof(*pl));
	pl->opts = opts;
	pl->res = res;
	pl->nr_workers = opts->threads ? opts->threads : 1;
	pl->nr_model_threads = pl->nr_workers < res->nr ? pl->nr_workers : (unsigned int)res->nr;
	pl->nr_slots = 2 * (size_t)pl->nr_workers + 2;
	cds_wfcq_init(&pl->qhead, &pl->qtail);
	pl->slots = calloc(pl->nr_slots, sizeof(*pl->slots));
	pl->workers = calloc(pl->nr_workers, sizeof(*pl->workers));
	if (!pl->slots || !pl->workers)
		return RF_ERR_NOMEM;
	for (i = 0; i < pl->nr_slots; i++)
		rf_event_batch_init(&pl->slots[i].batch);
	return 0;
}

int replay_pipeline(const struct rf_replay_opts *opts, struct rf_trace_reader *r,
		    struct rf_replay_result *res, uint64_t total_chunks, char *err, size_t errlen)
{
	struct pipeline pl;
	unsigned int i;
	int rc;

	rc = pipeline_init(&pl, opts, res);
	if (!rc)
		rc = start_workers(&pl);
	if (rc) {
		/* Threads that did start: let them see the end. */
		fail(&pl, rc, "%s", rf_strerror(rc));
	} else {
		read_frames(&pl, r, total_chunks);
	}
	for (i = 0; pl.workers && i < pl.nr_workers; i++)
		if (pl.workers[i].started)
			pthread_join(pl.workers[i].thread, NULL);
	rc = pl.error;
	if (rc)
		snprintf(err, errlen, "%s", pl.errmsg);
	pipeline_free(&pl);
	return rc;
}
