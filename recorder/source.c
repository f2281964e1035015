/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recording source: a private tracefs instance with one ring buffer per
 * CPU, read as whole sub-buffers from per_cpu/cpuN/trace_pipe_raw.  Each
 * CPU's stream is in time order; a binary heap keyed by (time, cpu) merges
 * them.  Records are handed out in place (the kbuffer points into the
 * sub-buffer copy), so nothing is copied per record.
 *
 * Following a pid (set_event_pid), the kernel drops every event of other
 * tasks, and so the LRU events of per-CPU batches that another task drains
 * (a kworker's lru_add_drain_all(), the next task on that CPU), and their
 * page-cache deletes (kswapd's reclaim).  A second instance, "<name>-drain",
 * records those events for exactly the tasks the first one leaves out
 * (set_event_notrace_pid of the same pid, with event-fork); its CPUs join the
 * same merge.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "recorder/record-local.h"

struct cpu_stream {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void **pages;		/* FIFO of sub-buffers read, oldest at head */
	size_t head;
	size_t count;
	size_t cap;
	void **spare;		/* free sub-buffers for reuse */
	size_t nspare;
	void *unread;		/* the sub-buffer of the last read that found nothing */
	bool loaded;		/* kbuf walks pages[head] */
	bool lost_pending;	/* a lost marker comes before the current record */
	void *rec;		/* current record, NULL when the queue is drained */
	uint64_t ts;
	uint64_t last_ts;
	uint64_t lost_count;
	uint64_t lost_begin;
	int cpu;
	bool drain;		/* of the drain instance */
};

enum { MAIN_INST, DRAIN_INST, NR_INST };

struct rf_source {
	struct tracefs_instance *inst;
	struct tracefs_instance *drain;	/* NULL unless a pid is followed */
	struct tep_handle *tep;
	struct cpu_stream *cpus;	/* [instance * ncpus + cpu] */
	int *heap;		/* indices into cpus[], ordered by (ts, cpu, instance) */
	int nheap;
	int ncpus;
	int nstreams;
	int subbuf_size;
	uint64_t pages_read;
	uint64_t bytes_read;
};

/* ---------------------------------------------------------------- heap */

static bool before(const struct rf_source *s, int a, int b)
{
	const struct cpu_stream *x = &s->cpus[a], *y = &s->cpus[b];

	if (x->ts != y->ts)
		return x->ts < y->ts;
	return x->cpu != y->cpu ? x->cpu < y->cpu : a < b;
}

static void heap_swap(struct rf_source *s, int i, int j)
{
	int t = s->heap[i];

	s->heap[i] = s->heap[j];
	s->heap[j] = t;
}

static void sift_up(struct rf_source *s, int i)
{
	while (i > 0 && before(s, s->heap[i], s->heap[(i - 1) / 2])) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct rf_source *s, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < s->nheap && before(s, s->heap[l], s->heap[m]))
			m = l;
		if (r < s->nheap && before(s, s->heap[r], s->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void heap_push(struct rf_source *s, int c)
{
	s->heap[s->nheap++] = c;
	sift_up(s, s->nheap - 1);
}

static void heap_pop(struct rf_source *s)
{
	s->heap[0] = s->heap[--s->nheap];
	sift_down(s, 0);
}

/* ------------------------------------------------------ per-CPU queues */

static void *page_get(struct rf_source *s, struct cpu_stream *c)
{
	void *page = c->unread;

	if (page) {
		c->unread = NULL;
		return page;
	}
	if (c->nspare)
		return c->spare[--c->nspare];
	return malloc(s->subbuf_size);
}

/* pages is a ring of cap slots; spare has room for the pages it does not hold. */
static int queue_push(struct cpu_stream *c, void *page)
{
	if (c->count + c->nspare >= c->cap) {
		size_t old = c->cap, cap = old, spare_cap = old;

		if (RF_GROW(c->pages, cap, old + 1) || RF_GROW(c->spare, spare_cap, cap))
			return RF_ERR_NOMEM;	/* c->cap is unchanged: the ring still holds */
		/* a ring that wrapped: the part from head moves to the end of the new room */
		if (c->head + c->count > old) {
			memmove(c->pages + c->head + cap - old, c->pages + c->head,
				(old - c->head) * sizeof(*c->pages));
			c->head += cap - old;
		}
		c->cap = cap;
	}
	c->pages[(c->head + c->count) % c->cap] = page;
	c->count++;
	return 0;
}

static void queue_drop_head(struct cpu_stream *c)
{
	c->spare[c->nspare++] = c->pages[c->head];
	c->head = (c->head + 1) % c->cap;
	c->count--;
	c->loaded = false;
}

/* Make c->rec the next record (or lost marker) of this CPU; false when drained. */
static bool stream_next(struct cpu_stream *c)
{
	unsigned long long ts;

	for (;;) {
		int missed = 0;

		if (c->loaded) {
			c->rec = kbuffer_next_event(c->kbuf, &ts);
		} else if (c->count) {
			kbuffer_load_subbuffer(c->kbuf, c->pages[c->head]);
			c->loaded = true;
			missed = kbuffer_missed_events(c->kbuf);
			c->rec = kbuffer_read_event(c->kbuf, &ts);
		} else {
			c->rec = NULL;
			return false;
		}
		if (missed) {
			c->lost_pending = true;
			c->lost_count = missed > 0 ? (uint64_t)missed : 0;
			c->lost_begin = c->last_ts;
			c->ts = c->rec ? ts : c->last_ts;
			if (!c->rec)
				queue_drop_head(c);
			return true;
		}
		if (c->rec) {
			c->ts = ts;
			return true;
		}
		queue_drop_head(c);	/* this sub-buffer is done */
	}
}

static int read_cpu(struct rf_source *s, struct cpu_stream *c, unsigned int max_pages)
{
	bool was_idle = !c->rec && !c->lost_pending;
	unsigned int n;
	int err;

	for (n = 0; !max_pages || n < max_pages; n++) {
		void *page = page_get(s, c);
		int ret;

		if (!page)
			return RF_ERR_NOMEM;
		ret = tracefs_cpu_read(c->tcpu, page, true);
		if (ret <= 0) {
			/* kept for the next poll: every poll ends on an empty read, so no malloc/free churn */
			c->unread = page;
			if (ret < 0 && errno != EAGAIN && errno != EINTR)
				return -errno;
			break;
		}
		err = queue_push(c, page);
		if (err) {
			free(page);
			return err;
		}
		s->pages_read++;
		s->bytes_read += ret;
	}
	if (was_idle && stream_next(c))
		heap_push(s, c - s->cpus);
	return 0;
}

int rec_source_read(struct rf_source *s, unsigned int max_pages)
{
	int i, err;

	for (i = 0; i < s->nstreams; i++) {
		if (!s->cpus[i].tcpu)
			continue;
		err = read_cpu(s, &s->cpus[i], max_pages);
		if (err)
			return err;
	}
	return 0;
}

/* ---------------------------------------------------------------- merge */

static int emit_top(struct rf_source *s, struct cpu_stream *c,
		    int (*fn)(void *ctx, const struct rf_raw *raw), void *ctx)
{
	struct rf_raw raw = { .ts = c->ts, .cpu = c->cpu, .drain = c->drain };

	if (c->lost_pending) {
		raw.lost = c->lost_count;
		raw.lost_begin = c->lost_begin;
		c->lost_pending = false;
		if (!c->rec)	/* the page that carried the flag was empty */
			return fn(ctx, &raw) ?: (stream_next(c) ? 1 : 0);
		return fn(ctx, &raw) ?: 1;
	}
	raw.data = c->rec;
	raw.size = kbuffer_event_size(c->kbuf);
	c->last_ts = c->ts;
	return fn(ctx, &raw) ?: (stream_next(c) ? 1 : 0);
}

int rec_source_emit(struct rf_source *s, uint64_t horizon,
		    int (*fn)(void *ctx, const struct rf_raw *raw), void *ctx)
{
	while (s->nheap) {
		struct cpu_stream *c = &s->cpus[s->heap[0]];
		int ret;

		if (c->ts >= horizon)
			break;
		ret = emit_top(s, c, fn, ctx);
		if (ret < 0)
			return ret;
		if (ret)
			sift_down(s, 0);
		else
			heap_pop(s);
	}
	return 0;
}

/* ------------------------------------------------------------- instance */

static int write_file(struct tracefs_instance *inst, const char *file, const char *val,
		      char *msg, size_t len)
{
	if (tracefs_instance_file_write(inst, file, val) < 0) {
		snprintf(msg, len, "cannot write '%s' to %s of tracefs instance %s: %s", val,
			 file, tracefs_instance_get_name(inst), strerror(errno));
		return -errno ?: RF_ERR_IO;
	}
	return 0;
}

static int check_tracefs(const struct rf_source_cfg *cfg, char *msg, size_t len)
{
	const char *dir = cfg->tracefs_dir;
	char path[4096];

	if (dir && tracefs_set_tracing_dir((char *)dir) < 0) {
		snprintf(msg, len, "cannot use tracefs directory %s", dir);
		return RF_ERR_CONFIG;
	}
	if (!dir)
		dir = tracefs_tracing_dir();
	if (!dir) {
		snprintf(msg, len, "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, F_OK)) {
		snprintf(msg, len, "no tracefs at %s (no %s); mount it with 'mount -t tracefs nodev %s'",
			 dir, path, dir);
		return -ENOENT;
	}
	if (access(path, W_OK | X_OK)) {
		snprintf(msg, len, "cannot create tracefs instances in %s: %s; run as root, or with CAP_PERFMON and write access to tracefs",
			 path, strerror(errno));
		return -EACCES;
	}
	return 0;
}

static int configure(struct tracefs_instance *inst, const struct rf_source_cfg *cfg, bool drain,
		     char *msg, size_t len)
{
	char val[64];
	int err;

	err = write_file(inst, "tracing_on", "0", msg, len);
	if (!err)
		err = write_file(inst, "trace_clock", "mono", msg, len);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)(cfg->buffer_bytes >> 10));
	if (!err)
		err = write_file(inst, "buffer_size_kb", val, msg, len);
	/*
	 * The drain instance leaves out the followed tasks (the main one has
	 * them), not the recorder: a batch the recorder drains is the kernel's
	 * decision all the same.
	 */
	snprintf(val, sizeof(val), "%d", (int)(drain ? cfg->follow_pid : cfg->notrace_pid));
	if (!err)
		err = write_file(inst, "set_event_notrace_pid", val, msg, len);
	if (!err && cfg->follow_pid && !drain) {
		snprintf(val, sizeof(val), "%d", (int)cfg->follow_pid);
		err = write_file(inst, "set_event_pid", val, msg, len);
	}
	/* the followed task's children join it (and leave the drain instance); not the recorder's */
	if (!err && cfg->follow_pid)
		err = write_file(inst, "options/event-fork", "1", msg, len);
	return err;
}

static struct tracefs_instance *make_instance(const char *name, char *msg, size_t len)
{
	struct tracefs_instance *inst = tracefs_instance_create(name);

	if (!inst)
		snprintf(msg, len, "cannot create tracefs instance %s: %s", name, strerror(errno));
	return inst;
}

static int open_drain(struct rf_source *s, const struct rf_source_cfg *cfg, char *msg, size_t len)
{
	char name[256];

	snprintf(name, sizeof(name), "%s-drain", cfg->name);
	s->drain = make_instance(name, msg, len);
	if (!s->drain)
		return -EACCES;
	return configure(s->drain, cfg, true, msg, len);
}

/*
 * The formats of the events to be enabled, and the ring buffer's page header
 * (which kbuffer needs), and nothing else: libtracefs's
 * tracefs_local_events_system() would parse every event of each system
 * (some 700 of "syscalls") and read all of /proc/kallsyms and printk_formats,
 * for printing that the recorder never does: half the cost of a short
 * recording's start.  An event this kernel lacks has no format; rec_tp_resolve()
 * finds it missing.
 */
static int load_formats(struct rf_source *s, const struct rf_source_cfg *cfg, char *msg, size_t len)
{
	char *buf;
	int size, i;

	s->tep = tep_alloc();
	if (!s->tep)
		return RF_ERR_NOMEM;
	tep_set_file_bigendian(s->tep, tep_is_local_bigendian(s->tep));
	tep_set_long_size(s->tep, sizeof(long));
	tep_set_page_size(s->tep, getpagesize());
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || tep_parse_header_page(s->tep, buf, size, sizeof(long))) {
		free(buf);
		snprintf(msg, len, "cannot parse the ring buffer's page header "
			 "(events/header_page in tracefs)");
		return RF_ERR_UNSUPPORTED;
	}
	free(buf);
	for (i = 0; cfg->events[i]; i++) {
		buf = tracefs_event_file_read(NULL, cfg->systems[i], cfg->events[i], "format", &size);
		if (!buf)
			continue;	/* not on this kernel */
		if (tep_parse_event(s->tep, buf, size, cfg->systems[i])) {
			snprintf(msg, len, "cannot parse the format of %s:%s in tracefs",
				 cfg->systems[i], cfg->events[i]);
			free(buf);
			return RF_ERR_UNSUPPORTED;
		}
		free(buf);
	}
	return 0;
}

int rec_source_open(struct rf_source **out, const struct rf_source_cfg *cfg, char *msg, size_t len)
{
	struct rf_source *s;
	int err;

	err = check_tracefs(cfg, msg, len);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return RF_ERR_NOMEM;
	s->inst = make_instance(cfg->name, msg, len);
	if (!s->inst) {
		free(s);
		return -EACCES;
	}
	*out = s;
	err = configure(s->inst, cfg, false, msg, len);
	if (!err && cfg->follow_pid)
		err = open_drain(s, cfg, msg, len);
	if (err)
		return err;
	return load_formats(s, cfg, msg, len);
}

struct tep_handle *rec_source_tep(struct rf_source *s)
{
	return s->tep;
}

/*
 * One event's enable file, written: tracefs_event_enable() takes regular
 * expressions and walks every system and event of the instance for each call
 * (some 15,000 stat()s for the default set).
 */
static int enable(struct tracefs_instance *inst, const char *system, const char *event)
{
	return tracefs_event_file_write(inst, system, event, "enable", "1") < 0 ?
		-errno ?: RF_ERR_IO : 0;
}

/* @event's filter in @inst, then its enable file */
static int enable_filtered(struct tracefs_instance *inst, const char *system, const char *event,
			   const char *filter)
{
	if (filter && tracefs_event_file_write(inst, system, event, "filter", filter) < 0)
		return -errno ?: RF_ERR_IO;
	return enable(inst, system, event);
}

int rec_source_enable(struct rf_source *s, const char *system, const char *event,
		      const char *filter)
{
	return enable_filtered(s->inst, system, event, filter);
}

bool rec_source_has_drain(const struct rf_source *s)
{
	return s->drain;
}

int rec_source_enable_drain(struct rf_source *s, const char *system, const char *event,
			    const char *filter)
{
	return s->drain ? enable_filtered(s->drain, system, event, filter) : 0;
}

static int open_cpus(struct rf_source *s, char *msg, size_t len)
{
	int i;

	s->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	s->nstreams = s->ncpus * (s->drain ? NR_INST : 1);
	s->cpus = calloc(s->nstreams, sizeof(*s->cpus));
	s->heap = calloc(s->nstreams, sizeof(*s->heap));
	if (!s->cpus || !s->heap)
		return RF_ERR_NOMEM;
	for (i = 0; i < s->nstreams; i++) {
		struct cpu_stream *c = &s->cpus[i];

		c->cpu = i % s->ncpus;
		c->drain = i / s->ncpus == DRAIN_INST;
		c->tcpu = tracefs_cpu_open(c->drain ? s->drain : s->inst, c->cpu, true);
		if (!c->tcpu)
			continue;	/* offline CPU */
		c->kbuf = tep_kbuffer(s->tep);
		if (!c->kbuf)
			return RF_ERR_NOMEM;
		if (tracefs_cpu_read_size(c->tcpu) > s->subbuf_size)
			s->subbuf_size = tracefs_cpu_read_size(c->tcpu);
	}
	if (!s->subbuf_size) {
		snprintf(msg, len, "cannot open any per_cpu/cpuN/trace_pipe_raw of the instance");
		return RF_ERR_IO;
	}
	return 0;
}

int rec_source_start(struct rf_source *s, char *msg, size_t len)
{
	int err = open_cpus(s, msg, len);

	if (!err && s->drain)
		err = write_file(s->drain, "tracing_on", "1", msg, len);
	if (err)
		return err;
	return write_file(s->inst, "tracing_on", "1", msg, len);
}

int rec_source_trace_off(struct rf_source *s)
{
	if (s->drain && tracefs_trace_off(s->drain) < 0)
		return RF_ERR_IO;
	return tracefs_trace_off(s->inst) < 0 ? RF_ERR_IO : 0;
}

static uint64_t stat_value(const char *stats, const char *key)
{
	const char *p = strstr(stats, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static uint64_t instance_lost(struct tracefs_instance *inst, int cpu)
{
	char file[64];
	char *stats;
	uint64_t n;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(inst, file, NULL);
	if (!stats)
		return 0;
	n = stat_value(stats, "overrun:") + stat_value(stats, "dropped events:");
	free(stats);
	return n;
}

uint64_t rec_source_kernel_lost(struct rf_source *s, int cpu)
{
	return instance_lost(s->inst, cpu) + (s->drain ? instance_lost(s->drain, cpu) : 0);
}

int rec_source_nr_cpus(const struct rf_source *s)
{
	return s->ncpus;
}

void rec_source_counts(const struct rf_source *s, uint64_t *pages, uint64_t *bytes)
{
	*pages = s->pages_read;
	*bytes = s->bytes_read;
}

static void free_stream(struct cpu_stream *c)
{
	size_t i;

	if (c->tcpu)
		tracefs_cpu_close(c->tcpu);
	if (c->kbuf)
		kbuffer_free(c->kbuf);
	for (i = 0; i < c->count; i++)
		free(c->pages[(c->head + i) % c->cap]);
	for (i = 0; i < c->nspare; i++)
		free(c->spare[i]);
	free(c->unread);
	free(c->pages);
	free(c->spare);
}

static void close_instance(struct tracefs_instance *inst)
{
	if (!inst)
		return;
	tracefs_trace_off(inst);
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
}

void rec_source_close(struct rf_source *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; s->cpus && i < s->nstreams; i++)
		free_stream(&s->cpus[i]);
	free(s->cpus);
	free(s->heap);
	close_instance(s->drain);
	close_instance(s->inst);
	if (s->tep)
		tep_free(s->tep);
	free(s);
}

void rec_source_remove_stale(const char *tracefs_dir)
{
	char **names = tracefs_instances(NULL);
	int i;

	for (i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;

		if (!rec_name_stale(names[i]))
			continue;
		inst = tracefs_instance_alloc(tracefs_dir, names[i]);
		if (inst) {
			tracefs_instance_destroy(inst);
			tracefs_instance_free(inst);
		}
	}
	tracefs_list_free(names);
}
