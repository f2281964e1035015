/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The replay pipeline (see replay.h for the picture).
 *
 * Threads: the calling thread reads frames; `threads` workers each own the
 * models i with i % workers == w and help decode whatever is queued.
 * Hand-off: decode jobs travel on a liburcu wait-free queue (cds_wfcq);
 * a mutex and condition variable serve only to sleep when there is nothing
 * to do and to publish slot states.  Slot k holds batch k % nr_slots; it is
 * refilled only after every model thread has consumed it (back-pressure).
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/wfcqueue.h>

#include "replayer/replay/replay.h"
#include "replayer/replay/replay-local.h"

enum slot_state { SLOT_FREE, SLOT_READ, SLOT_DECODED };

struct slot {
	struct cds_wfcq_node node;
	uint64_t seq;
	enum slot_state state;
	unsigned int pending;		/* model threads still to consume it */
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
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t produced;		/* slots handed out so far */
	bool eof;
	bool abort;
	int error;
	char errmsg[512];
	unsigned int nr_workers;
	unsigned int nr_model_threads;	/* workers that own at least one model */
	struct worker *workers;
};

struct worker {
	struct pipeline *pl;
	pthread_t thread;
	unsigned int id;
	struct rf_chunk_decoder *dec;
};

static void fail(struct pipeline *pl, int rc, const char *fmt, const char *detail)
{
	pthread_mutex_lock(&pl->lock);
	if (!pl->error) {
		pl->error = rc;
		snprintf(pl->errmsg, sizeof(pl->errmsg), fmt, detail);
	}
	pl->abort = true;
	pthread_cond_broadcast(&pl->cond);
	pthread_mutex_unlock(&pl->lock);
}

/* ------------------------------------------------------------- decoding */

static void decode_slot(struct worker *w, struct slot *s)
{
	int rc = rf_chunk_decode(w->dec, s->frame, s->frame_len, s->offset, &s->batch);

	if (rc)
		snprintf(s->errmsg, sizeof(s->errmsg), "chunk %llu at offset %llu: %s",
			 (unsigned long long)s->ordinal, (unsigned long long)s->offset,
			 rf_chunk_decoder_errmsg(w->dec));
	pthread_mutex_lock(&w->pl->lock);
	s->rc = rc;
	s->state = SLOT_DECODED;
	pthread_cond_broadcast(&w->pl->cond);
	pthread_mutex_unlock(&w->pl->lock);
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
static int feed_event(struct rf_replay_result *res, size_t k, const struct rf_event *ev)
{
	struct rf_model_run *mr = &res->runs[k];
	const struct rf_replay_probe *p = mr->conf->probe;
	void *pctx = mr->conf->probe_ctx;
	int rc;

	rc = rf_series_advance(mr->series, mr->model, ev->time);
	if (!rc && p && p->before)
		rc = p->before(pctx, mr->model, k ? NULL : res->observe, ev);
	if (!rc && k == 0)
		rc = rf_observe_feed(res->observe, ev);
	if (!rc)
		rc = rf_model_feed(mr->model, ev);
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

static int feed_batch(struct worker *w, const struct slot *s)
{
	struct pipeline *pl = w->pl;
	struct rf_replay_result *res = pl->res;
	size_t i, k;
	int rc;

	for (k = w->id; k < res->nr; k += pl->nr_workers) {
		for (i = 0; i < s->batch.nr; i++) {
			rc = feed_event(res, k, &s->batch.events[i]);
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

	for (;;) {
		if (help_decode(w))
			continue;
		pthread_mutex_lock(&pl->lock);
		while (!pl->abort && !(s->seq == seq && s->state == SLOT_DECODED) &&
		       !(pl->eof && seq >= pl->produced) && cds_wfcq_empty(&pl->qhead, &pl->qtail))
			pthread_cond_wait(&pl->cond, &pl->lock);
		if (pl->abort || (pl->eof && seq >= pl->produced)) {
			pthread_mutex_unlock(&pl->lock);
			return false;
		}
		if (s->seq == seq && s->state == SLOT_DECODED) {
			pthread_mutex_unlock(&pl->lock);
			*out = s;
			return true;
		}
		pthread_mutex_unlock(&pl->lock);
	}
}

static void release_slot(struct pipeline *pl, struct slot *s)
{
	pthread_mutex_lock(&pl->lock);
	if (--s->pending == 0) {
		s->state = SLOT_FREE;
		pthread_cond_broadcast(&pl->cond);
	}
	pthread_mutex_unlock(&pl->lock);
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
		pl->res->events_skipped += rf_replay_index_events_at(pl->res, s->offset);
		snprintf(pl->res->first_damage, sizeof(pl->res->first_damage), "%s", s->errmsg);
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
		/* Decode-only worker: more threads than models. */
		for (;;) {
			if (help_decode(w))
				continue;
			pthread_mutex_lock(&pl->lock);
			while (!pl->abort && !pl->eof && cds_wfcq_empty(&pl->qhead, &pl->qtail))
				pthread_cond_wait(&pl->cond, &pl->lock);
			if ((pl->abort || pl->eof) && cds_wfcq_empty(&pl->qhead, &pl->qtail)) {
				pthread_mutex_unlock(&pl->lock);
				return NULL;
			}
			pthread_mutex_unlock(&pl->lock);
		}
	}
	for (seq = 0; wait_batch(w, seq, &s); seq++) {
		if (s->rc)
			damaged_batch(pl, w, s);
		else if ((rc = feed_batch(w, s)))
			fail(pl, rc, "model: %s", rf_strerror(rc));
		release_slot(pl, s);
	}
	return NULL;
}

/* ------------------------------------------------------------- reading */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void progress(struct pipeline *pl, double t_start, double *t_last, uint64_t total_chunks,
		     bool final)
{
	double t = now(), rate;
	uint64_t done = pl->produced, events = pl->res->runs[0].events;

	if (!pl->opts->progress || (!final && t - *t_last < 0.5))
		return;
	*t_last = t;
	rate = t > t_start ? (double)events / (t - t_start) : 0;
	if (total_chunks && done <= total_chunks)
		fprintf(stderr, "\rreplay: chunk %llu/%llu, %.1f M events/s, ETA %.0f s   ",
			(unsigned long long)done, (unsigned long long)total_chunks, rate / 1e6,
			done ? (t - t_start) * (double)(total_chunks - done) / (double)done : 0.0);
	else
		fprintf(stderr, "\rreplay: chunk %llu, %.1f M events/s   ", (unsigned long long)done,
			rate / 1e6);
	if (final)
		fputc('\n', stderr);
}

static bool wait_free_slot(struct pipeline *pl, struct slot *s)
{
	pthread_mutex_lock(&pl->lock);
	while (!pl->abort && s->state != SLOT_FREE)
		pthread_cond_wait(&pl->cond, &pl->lock);
	pthread_mutex_unlock(&pl->lock);
	return !pl->abort;
}

static int copy_frame(struct slot *s, const struct rf_frame *f)
{
	if (f->size > s->frame_cap) {
		void *n = realloc(s->frame, f->size);

		if (!n)
			return RF_ERR_NOMEM;
		s->frame = n;
		s->frame_cap = f->size;
	}
	memcpy(s->frame, f->data, f->size);
	s->frame_len = f->size;
	s->offset = f->offset;
	s->ordinal = f->ordinal;
	return 0;
}

static void publish(struct pipeline *pl, struct slot *s)
{
	pthread_mutex_lock(&pl->lock);
	s->seq = pl->produced++;
	s->state = SLOT_READ;
	s->pending = pl->nr_model_threads;
	s->rc = 0;
	cds_wfcq_node_init(&s->node);
	cds_wfcq_enqueue(&pl->qhead, &pl->qtail, &s->node);
	pthread_cond_broadcast(&pl->cond);
	pthread_mutex_unlock(&pl->lock);
}

static void read_frames(struct pipeline *pl, struct rf_trace_reader *r, uint64_t total_chunks)
{
	double t_start = now(), t_last = t_start;
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
		rf_replay_fingerprint_frame(pl->res, f.data, f.size);
		rc = copy_frame(s, &f);
		if (rc) {
			fail(pl, rc, "%s", "out of memory for a frame");
			break;
		}
		publish(pl, s);
		progress(pl, t_start, &t_last, total_chunks, false);
	}
	pthread_mutex_lock(&pl->lock);
	pl->eof = true;
	pthread_cond_broadcast(&pl->cond);
	pthread_mutex_unlock(&pl->lock);
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
	for (i = 0; i < pl->nr_workers; i++)
		if (pthread_create(&pl->workers[i].thread, NULL, worker_main, &pl->workers[i]))
			return RF_ERR_NOMEM;
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
	pthread_mutex_destroy(&pl->lock);
	pthread_cond_destroy(&pl->cond);
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
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->cond, NULL);
	cds_wfcq_init(&pl->qhead, &pl->qtail);
	pl->slots = calloc(pl->nr_slots, sizeof(*pl->slots));
	pl->workers = calloc(pl->nr_workers, sizeof(*pl->workers));
	if (!pl->slots || !pl->workers)
		return RF_ERR_NOMEM;
	for (i = 0; i < pl->nr_slots; i++) {
		pl->slots[i].seq = UINT64_MAX;
		rf_event_batch_init(&pl->slots[i].batch);
	}
	return 0;
}

int rf_replay_pipeline(const struct rf_replay_opts *opts, struct rf_trace_reader *r,
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
	for (i = 0; i < pl.nr_workers; i++)
		if (pl.workers && pl.workers[i].thread)
			pthread_join(pl.workers[i].thread, NULL);
	rc = pl.error;
	if (rc)
		snprintf(err, errlen, "%s", pl.errmsg);
	pipeline_free(&pl);
	return rc;
}
