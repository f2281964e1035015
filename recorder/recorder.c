/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recording session: source -> merge -> normalizer -> sink, plus the
 * state the trace needs before the first record (cgroup tree, tasks,
 * limits, counters) and after the last (final counters, kernel-side losses).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <refault/errors.h>

#include "lib/clock.h"
#include "recorder/idle.h"
#include "recorder/perfstack.h"
#include "recorder/record-local.h"
#include "recorder/record.h"

#define DEFAULT_BUFFER	(8ull << 20)
/* Records newer than this may still be in flight on another CPU: wait a pass. */
#define MERGE_SLACK_NS	(2ull * 1000 * 1000)

struct rf_recorder {
	struct rf_record_opts opts;
	struct rf_record_sink sink;
	struct rf_source *src;
	struct rf_kprobes *kp;
	struct rf_norm *norm;
	struct rf_damon *damon;
	struct rf_stacks *stacks;	/* --call-graph */
	struct rec_idle *idle;		/* --idle-pages */
	uint64_t last_idle;
	struct rf_tp_set tps;
	struct rec_memcg_root root;
	bool have_root;
	bool want[TP_MAX];
	const char *system[TP_MAX];	/* where each event is: its system, or a kprobe group */
	bool explicit_events;
	bool lru_gen;			/* the multi-gen LRU is on and debugfs shows it */
	uint64_t last_snapshot;
	uint64_t kernel_lost;
	char name[64];
	char sources[2048];
	char missing[512];	/* the reference events of the default set this kernel lacks */
	char errmsg[512];
};

int rf_record_check_events(const char *list, char *msg, size_t len)
{
	bool want[TP_MAX];

	return rec_tp_select(list, want, msg, len);
}

void rf_record_list_events(char *buf, size_t len)
{
	size_t off = 0;
	int i;

	off += snprintf(buf + off, len - off, "groups:");
	for (i = 0; i < RF_TPG_MAX && off < len; i++)
		off += snprintf(buf + off, len - off, " %s", rec_tp_group_name(i));
	off += off < len ? snprintf(buf + off, len - off, " (default: all but damon, which "
						 "comes with --damon)\n") : 0;
	for (i = 0; i < TP_MAX && off < len; i++) {
		const struct rf_tp_desc *d = rec_tp_desc(i);

		off += snprintf(buf + off, len - off, "  %-8s %s:%s\n",
				rec_tp_group_name(d->group), d->system, d->name);
	}
	if (off < len)
		off += snprintf(buf + off, len - off, "kprobe sources (--kprobes), from this kernel's BTF:\n");
	if (off < len)
		rec_kprobes_describe(buf + off, len - off);
}

int rec_recorder_new(struct rf_recorder **out, const struct rf_record_opts *opts,
		     const struct rf_record_sink *sink)
{
	struct rf_recorder *rec = calloc(1, sizeof(*rec));
	int err;

	if (!rec)
		return RF_ERR_NOMEM;
	*out = rec;
	rec->opts = *opts;
	rec->sink = *sink;
	if (!rec->opts.buffer_bytes)
		rec->opts.buffer_bytes = DEFAULT_BUFFER;
	if (!rec->opts.poll_ns)
		rec->opts.poll_ns = 20ull * 1000 * 1000;
	rec->explicit_events = opts->events != NULL;
	err = rec_tp_select(opts->events, rec->want, rec->errmsg, sizeof(rec->errmsg));
	if (err)
		return err;
	if (rec->want[TP_damon_aggregated] && !opts->damon_sample_us) {
		snprintf(rec->errmsg, sizeof(rec->errmsg),
			 "the damon events need --damon, which starts the monitor that makes them");
		return RF_ERR_INVAL;
	}
	if (opts->damon_sample_us && opts->scope != RF_SCOPE_PID) {
		snprintf(rec->errmsg, sizeof(rec->errmsg),
			 "--damon samples the accessed bits of one process: it needs -p PID or "
			 "-- COMMAND");
		return RF_ERR_INVAL;
	}
	if (opts->idle_ns && opts->scope == RF_SCOPE_ALL) {
		snprintf(rec->errmsg, sizeof(rec->errmsg),
			 "--idle-pages scans the recorded processes' page tables: it needs -p PID, "
			 "-G CGROUP or -- COMMAND, not every process of the host");
		return RF_ERR_INVAL;
	}
	if (opts->idle_ns) {
		err = rec_idle_open(&rec->idle, rec->errmsg, sizeof(rec->errmsg));
		if (err)
			return err;
	}
	rec->want[TP_damon_aggregated] = opts->damon_sample_us != 0;
	rec->have_root = !rec_memcg_root_find(&rec->root);
	snprintf(rec->name, sizeof(rec->name), RF_RECORD_PREFIX "%d", (int)getpid());
	return 0;
}

/* Formats to parse: the selected events' only, as system:name pairs ending in a NULL name. */
static void wanted_events(const struct rf_recorder *rec, const char **sys, const char **name)
{
	size_t n = 0;
	int i;

	for (i = 0; i < TP_MAX; i++) {
		if (!rec->want[i])
			continue;
		sys[n] = rec->system[i];
		name[n++] = rec_tp_desc(i)->name;
	}
	name[n] = NULL;
}

/*
 * The drain instance keeps, of other tasks' LRU events, what could be a folio
 * the followed tasks added to the page cache (normalize.c keeps those): file
 * and unevictable lists only, as an insertion carries its list and an
 * activation does not.  Other tasks' page-cache deletes (kswapd's above all)
 * tell normalize.c when such a folio's pfn is no longer one of them.
 */
static bool in_drain(int tp)
{
	return tp == TP_mm_lru_insertion || tp == TP_mm_lru_activate ||
	       tp == TP_mm_filemap_delete_from_page_cache || tp == TP_folio_end_writeback;
}

static const char *drain_filter(int tp)
{
	return tp == TP_mm_lru_insertion ? "lru >= 2" : NULL;
}

/*
 * Of the page allocator's records, only those that can be a fault's large
 * folio: order above 0, and __GFP_MOVABLE (bit 3 in every kernel's gfp.h),
 * which a user page's allocation has (GFP_HIGHUSER_MOVABLE, GFP_TRANSHUGE)
 * and a slab's, a page table's or a kernel stack's has not.
 */
static const char *main_filter(int tp)
{
	return tp == TP_mm_page_alloc ? "order > 0 && gfp_flags & 8" : NULL;
}

static int enable_events(struct rf_recorder *rec)
{
	size_t off = 0;
	int i, err;

	for (i = 0; i < TP_MAX; i++) {
		const struct rf_tp_desc *d = rec_tp_desc(i);

		if (!rec->want[i])
			continue;
		if (!rec->tps.tp[i].enabled) {
			if (i == TP_damon_aggregated) {
				snprintf(rec->errmsg, sizeof(rec->errmsg), "--damon: this kernel "
					 "has no damon:damon_aggregated tracepoint (CONFIG_DAMON)");
				return RF_ERR_UNSUPPORTED;
			}
			/*
			 * Said nowhere, unless named on their own: a file system's own
			 * sync event (there where that file system is), and the
			 * writeback's end (kprobe events only; docs/recording.md says
			 * what a trace without it lacks)
			 */
			if ((i == TP_ext4_sync_file_enter || i == TP_xfs_file_fsync ||
			     i == TP_folio_end_writeback) &&
			    !(rec->explicit_events && strstr(rec->opts.events, d->name)))
				continue;
			if (!rec->explicit_events) {	/* default set: use what this kernel has */
				size_t m = strlen(rec->missing);

				if (d->group == RF_TPG_refs)
					snprintf(rec->missing + m, sizeof(rec->missing) - m, "%s%s:%s",
						 m ? ", " : "", d->system, d->name);
				continue;
			}
			snprintf(rec->errmsg, sizeof(rec->errmsg),
				 "event %s:%s does not exist on this kernel", d->system, d->name);
			return RF_ERR_UNSUPPORTED;
		}
		/* the kdamond's records: no task of the scope, so in the drain instance only */
		if (i == TP_damon_aggregated)
			err = rec_source_enable_drain(rec->src, rec->system[i], d->name, NULL);
		else
			err = rec_source_enable(rec->src, rec->system[i], d->name, main_filter(i));
		if (!err && in_drain(i))
			err = rec_source_enable_drain(rec->src, rec->system[i], d->name,
						      drain_filter(i));
		if (err) {
			snprintf(rec->errmsg, sizeof(rec->errmsg), "cannot enable %s:%s: %s",
				 rec->system[i], d->name, rf_strerror(err));
			return err;
		}
		/* "system:event", or "system:event=kprobe:function" for a kprobe's */
		off += snprintf(rec->sources + off, sizeof(rec->sources) - off, "%s%s:%s%s%s",
				off ? "," : "", d->system, d->name,
				rec_kprobes_symbol(rec->kp, i) ? "=kprobe:" : "",
				rec_kprobes_symbol(rec->kp, i) ?: "");
		if (off >= sizeof(rec->sources))
			off = sizeof(rec->sources) - 1;
	}
	return 0;
}

static int open_source(struct rf_recorder *rec)
{
	const char *systems[TP_MAX + 1], *events[TP_MAX + 1];
	struct rf_source_cfg cfg = {
		.tracefs_dir = rec->opts.tracefs_dir,
		.name = rec->name,
		.buffer_bytes = rec->opts.buffer_bytes,
		.notrace_pid = getpid(),
		.follow_pid = rec->opts.scope == RF_SCOPE_PID ? rec->opts.pid : 0,
		.systems = systems,
		.events = events,
	};
	int err, i;

	err = rec_kprobes_create(&rec->kp, rec->name, rec->opts.kprobes, rec->want,
				 rec->opts.tracefs_dir, rec->errmsg, sizeof(rec->errmsg));
	if (err)
		return err;
	for (i = 0; i < TP_MAX; i++)
		rec->system[i] = rec_kprobes_group(rec->kp, i) ?: rec_tp_desc(i)->system;
	wanted_events(rec, systems, events);
	err = rec_source_open(&rec->src, &cfg, rec->errmsg, sizeof(rec->errmsg));
	if (err)
		return err;
	err = rec_tp_resolve(&rec->tps, rec_source_tep(rec->src), rec->want, rec->system,
			     rec->errmsg, sizeof(rec->errmsg));
	return err ?: enable_events(rec);
}

static int walk_cgroup(void *ctx, const char *rel, uint64_t id, uint64_t parent)
{
	struct rf_recorder *rec = ctx;

	return rec_norm_cgroup(rec->norm, rf_mono_ns(), rel, id, parent);
}

/* Every process at start, so each pid maps to a cgroup from the first event on. */
static int name_tasks(struct rf_recorder *rec)
{
	uint64_t t = rf_mono_ns();
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (rec->opts.scope == RF_SCOPE_PID)
		return rec_norm_task(rec->norm, t, rec->opts.pid);
	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		pid_t pid = atoi(de->d_name);

		if (pid > 0 && pid != getpid())
			err = rec_norm_task(rec->norm, t, pid);
	}
	closedir(d);
	return err;
}

/*
 * One counters file, stamped when its read returned: the kernel wrote the
 * values during the read (memory.stat after flushing the memcg's
 * statistics, which may take milliseconds), so every event stamped before
 * is in them, and the workload's events during the read are the only
 * doubt.
 */
static int snapshot_one(struct rf_recorder *rec, const char *path, uint32_t source,
			uint64_t cgroup)
{
	struct rf_event ev = { .type = RF_EV_COUNTERS };
	struct rf_counter_snap c;
	int err = rec_counters_read(&c, path);

	ev.time = rf_mono_ns();
	if (err)
		return err == -ENOENT ? 0 : err;
	ev.u.counters.cgroup = cgroup;
	ev.u.counters.entries = c.entries;
	ev.u.counters.nr = c.nr;
	ev.u.counters.source = source;
	err = rec_norm_emit(rec->norm, &ev);
	rec_counters_free(&c);
	return err;
}

static int snapshot_memcg(void *ctx, const char *rel, uint64_t id)
{
	struct rf_recorder *rec = ctx;
	char path[4096];

	snprintf(path, sizeof(path), "%s%s/memory.stat", rec->root.mount, rel);
	return snapshot_one(rec, path, RF_COUNTERS_MEMCG_STAT, id);
}

/* The debugfs file of the multi-gen LRU's state, the full form: both types' min_seq. */
#define LRU_GEN_DEBUGFS	"/sys/kernel/debug/lru_gen_full"

/*
 * Whether @path as cgroup_path() prints it ("/", "/a/b") is the recorded
 * cgroup @rel ("a", "/a"; "" for the root) or below it; of the root, as of
 * memory.stat, only the root itself.
 */
static bool recorded_or_below(const char *path, const char *rel)
{
	size_t len;

	if (path[0] != '/')
		return false;
	path++;
	rel += rel[0] == '/';
	if (!rel[0])
		return !path[0];
	len = strlen(rel);
	return !strncmp(path, rel, len) && (!path[len] || path[len] == '/');
}

/* One memcg of lru_gen_full: emitted when it is the recorded cgroup or below it. */
static int snapshot_lru_gen_memcg(void *ctx, const char *path, const struct rf_counter *c,
				  uint32_t nr)
{
	struct rf_recorder *rec = ctx;
	struct rf_event ev = { .time = rf_mono_ns(), .type = RF_EV_COUNTERS };
	const char *rel = rec->opts.cgroup && strcmp(rec->opts.cgroup, "/") ? rec->opts.cgroup : "";

	if (!recorded_or_below(path, rel))
		return 0;
	ev.u.counters.cgroup = rec_memcg_id(&rec->root, path);
	if (!ev.u.counters.cgroup)
		return 0;	/* removed since */
	ev.u.counters.entries = c;
	ev.u.counters.nr = nr;
	ev.u.counters.source = RF_COUNTERS_LRU_GEN;
	return rec_norm_emit(rec->norm, &ev);
}

/* Whether to snapshot lru_gen_full: the multi-gen LRU is on and debugfs is readable. */
static bool want_lru_gen(void)
{
	struct rf_trace_header *h = calloc(1, sizeof(*h));
	bool on;

	if (!h)
		return false;
	rf_trace_header_fill_host(h);
	on = rf_trace_host_lru_gen_on(&h->host) && !access(LRU_GEN_DEBUGFS, R_OK);
	free(h);
	return on;
}

/*
 * /proc/vmstat, memory.stat of the recorded cgroup and of every cgroup below
 * it, parents first (a parent's read flushes its subtree's counters), so that
 * refaults and list sizes compare per child too.  Below the hierarchy root
 * only: with -a every cgroup of the host would be below it.
 */
static int snapshot(struct rf_recorder *rec)
{
	const char *rel = rec->opts.cgroup && strcmp(rec->opts.cgroup, "/") ? rec->opts.cgroup : "";
	uint64_t id;
	int err;

	rec->last_snapshot = rf_mono_ns();
	err = snapshot_one(rec, "/proc/vmstat", RF_COUNTERS_VMSTAT, 0);
	if (err || !rec->have_root)
		return err;
	id = rec_memcg_id(&rec->root, rel);
	err = snapshot_memcg(rec, rel, id);
	if (!err && rel[0])
		err = rec_norm_cgroups_below(rec->norm, id, snapshot_memcg, rec);
	/* then the generations of the same cgroups (debugfs unmounted since: no more) */
	if (!err && rec->lru_gen) {
		FILE *f = fopen(LRU_GEN_DEBUGFS, "re");

		rec->lru_gen = f != NULL;
		if (f) {
			err = rec_lru_gen_parse(f, snapshot_lru_gen_memcg, rec);
			fclose(f);
		}
	}
	return err;
}

static int initial_state(struct rf_recorder *rec)
{
	int err = 0;

	rec->lru_gen = rec->have_root && want_lru_gen();
	if (rec->have_root)
		err = rec_memcg_walk(&rec->root, "/", walk_cgroup, rec);
	if (!err)
		err = name_tasks(rec);
	return err ?: snapshot(rec);
}

static int emit_event(void *norm, const struct rf_event *ev)
{
	return rec_norm_emit(norm, ev);
}

static int open_stacks(struct rf_recorder *rec)
{
	struct rf_stacks_cfg cfg = {
		.scope = rec->opts.scope,
		.pid = rec->opts.pid,
		.on_exec = rec->opts.stacks_on_exec,
		.stack_bytes = rec->opts.stack_bytes,
		.tracefs_dir = rec->opts.tracefs_dir,
	};

	if (!rec->opts.stack_bytes)
		return 0;
	return rec_stacks_open(&rec->stacks, &cfg, rec->errmsg, sizeof(rec->errmsg));
}

static int make_norm(struct rf_recorder *rec)
{
	struct rf_norm_cfg cfg = {
		.tps = &rec->tps,
		.root = rec->have_root ? &rec->root : NULL,
		.sink = &rec->sink,
		.out_dev = rec_kdev(rec->opts.out_dev),
		.out_ino = rec->opts.out_ino,
		.damon_pid = rec->opts.damon_sample_us ? rec->opts.pid : 0,
		.damon_max_nr_accesses = rec->opts.damon_sample_us ?
			(uint32_t)(rec->opts.damon_aggr_us / rec->opts.damon_sample_us) : 0,
		.stacks = rec->stacks,
	};

	if (rec->opts.scope == RF_SCOPE_CGROUP) {
		cfg.scope_cgroup = rec->have_root ? rec_memcg_id(&rec->root, rec->opts.cgroup) : 0;
		if (!cfg.scope_cgroup) {
			snprintf(rec->errmsg, sizeof(rec->errmsg), "no memory cgroup '%s' (looked for "
				 "%s%s%s)", rec->opts.cgroup, rec->have_root ? rec->root.mount :
				 "a memory cgroup hierarchy", rec->opts.cgroup[0] == '/' ? "" : "/",
				 rec->opts.cgroup);
			return -ENOENT;
		}
	}
	return rec_norm_new(&rec->norm, &cfg);
}

bool rec_name_stale(const char *name)
{
	size_t len = strlen(RF_RECORD_PREFIX);
	pid_t pid;

	/* a name shorter than the prefix ends before it: compare first */
	if (strncmp(name, RF_RECORD_PREFIX, len))
		return false;
	pid = atoi(name + len);
	return pid > 0 && kill(pid, 0) && errno == ESRCH;
}

/* @err, with a message: rf_strerror()'s unless one was written. */
static int failed(struct rf_recorder *rec, int err)
{
	if (err && !rec->errmsg[0])
		snprintf(rec->errmsg, sizeof(rec->errmsg), "%s", rf_strerror(err));
	return err;
}

int rec_recorder_start(struct rf_recorder *rec)
{
	int err;

	rec_source_remove_stale(rec->opts.tracefs_dir);
	rec_kprobes_remove_stale();
	err = open_stacks(rec);
	if (!err)
		err = make_norm(rec);
	if (!err)
		err = open_source(rec);
	if (!err)
		err = initial_state(rec);
	if (!err)
		err = rec_source_start(rec->src, rec->errmsg, sizeof(rec->errmsg));
	if (!err && rec->opts.damon_sample_us) {
		struct rf_damon_cfg d = { .pid = rec->opts.pid, .sample_us = rec->opts.damon_sample_us,
					  .aggr_us = rec->opts.damon_aggr_us };

		err = rec_damon_start(&rec->damon, &d, rec->errmsg, sizeof(rec->errmsg));
	}
	if (!err && rec->stacks)
		err = rec_stacks_start(rec->stacks, rec->errmsg, sizeof(rec->errmsg));
	if (!err && rec->idle) {
		size_t off = strlen(rec->sources);

		snprintf(rec->sources + off, sizeof(rec->sources) - off, "%spage_idle:bitmap",
			 off ? "," : "");
	}
	return failed(rec, err);
}

int rec_recorder_poll(struct rf_recorder *rec)
{
	uint64_t horizon = rf_mono_ns() - MERGE_SLACK_NS;
	int err;

	/* every sample older than the horizon is in a ring by now: the references find theirs */
	rec_stacks_read(rec->stacks);
	err = rec_source_read(rec->src, 0);
	if (!err)
		err = rec_source_emit(rec->src, horizon, rec_norm_record, rec->norm);
	rec_stacks_expire(rec->stacks, horizon);
	return failed(rec, err);
}

int rec_recorder_tick(struct rf_recorder *rec)
{
	int err = 0;

	if (rec->idle && rf_mono_ns() - rec->last_idle >= rec->opts.idle_ns) {
		err = rec_idle_scan(rec->idle, rec->norm);
		rec->last_idle = rf_mono_ns();
	}
	if (err || !rec->opts.snapshot_ns || rf_mono_ns() - rec->last_snapshot < rec->opts.snapshot_ns)
		return failed(rec, err);
	return rec_norm_poll_limits(rec->norm, rf_mono_ns()) ?: snapshot(rec);
}

/* Losses the ring buffer counted but no sub-buffer flagged (e.g. dropped while reading). */
static int kernel_losses(struct rf_recorder *rec)
{
	int cpu, err = 0;

	for (cpu = 0; cpu < rec_source_nr_cpus(rec->src) && !err; cpu++) {
		uint64_t k = rec_source_kernel_lost(rec->src, cpu);
		uint64_t seen = rec_norm_lost_on(rec->norm, cpu);
		struct rf_event ev = { .time = rf_mono_ns(), .cpu = cpu, .type = RF_EV_LOST };
		struct rf_raw raw = { .ts = ev.time, .cpu = cpu };

		if (k <= seen)
			continue;
		raw.lost = k - seen;
		raw.lost_begin = ev.time;
		rec->kernel_lost += k - seen;
		err = rec_norm_record(rec->norm, &raw);
	}
	return err;
}

int rec_recorder_stop(struct rf_recorder *rec)
{
	int err;

	rec_damon_stop(rec->damon);	/* its last aggregations are in the ring buffer */
	rec->damon = NULL;
	rec_stacks_stop(rec->stacks);	/* the last samples, before the records they go with */
	err = rec_source_trace_off(rec->src);

	if (!err)
		err = rec_source_read(rec->src, 0);
	if (!err)
		err = rec_source_emit(rec->src, UINT64_MAX, rec_norm_record, rec->norm);
	if (!err)
		err = rec_norm_flush(rec->norm);
	if (!err)
		err = kernel_losses(rec);
	if (!err && rec->stacks)
		err = rec_stacks_counters(rec->stacks, rf_mono_ns(), emit_event, rec->norm);
	/* what was accessed since the last scan (the workload has ended, or is detached) */
	if (!err && rec->idle)
		err = rec_idle_scan(rec->idle, rec->norm);
	if (!err)
		err = rec_norm_poll_limits(rec->norm, rf_mono_ns());
	if (!err)
		err = snapshot(rec);
	return failed(rec, err);
}

void rec_recorder_free(struct rf_recorder *rec)
{
	if (!rec)
		return;
	rec_damon_stop(rec->damon);
	rec_stacks_free(rec->stacks);
	rec_idle_free(rec->idle);
	rec_source_close(rec->src);
	rec_kprobes_destroy(rec->kp);	/* after the instances that enabled them */
	rec_tp_set_free(&rec->tps);
	rec_norm_free(rec->norm);
	free(rec);
}

const char *rec_recorder_instance_name(const struct rf_recorder *rec)
{
	return rec->src ? rec->name : "";
}

void rec_recorder_stats(const struct rf_recorder *rec, struct rf_record_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (rec->norm)
		rec_norm_stats(rec->norm, st);
	if (rec->src)
		rec_source_counts(rec->src, &st->pages, &st->raw_bytes);
	if (rec->stacks) {
		struct rf_stacks_stats ss;

		rec_stacks_stats(rec->stacks, &ss);
		st->stack_samples = ss.samples;
		st->stack_lost = ss.lost;
		st->stack_unwound = ss.unwound;
		st->stack_truncated = ss.truncated;
		st->stack_failed = ss.failed;
		st->stack_refs = ss.refs;
		st->stack_refs_without = ss.refs_without;
		st->stack_bytes = ss.bytes;
		st->stack_realtime = ss.realtime;
	}
	if (rec->idle) {
		const struct rf_idle_stats *is = rec_idle_stats(rec->idle);

		st->idle_scans = is->scans;
		st->idle_pages = is->pages;
		st->idle_young = is->young;
		st->idle_ns = is->ns;
	}
}

const char *rec_recorder_errmsg(const struct rf_recorder *rec)
{
	return rec->errmsg;
}

const char *rec_recorder_sources(const struct rf_recorder *rec)
{
	return rec->sources;
}

const char *rec_recorder_missing(const struct rf_recorder *rec)
{
	return rec->missing;
}
