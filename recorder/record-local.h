/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pieces shared by the files of recorder/ (see record.h for the pipeline). */
#ifndef REFAULT_RECORDER_RECORD_LOCAL_H
#define REFAULT_RECORDER_RECORD_LOCAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <refault/trace.h>

#include "recorder/record.h"
#include "recorder/tp.h"

/* What a recording leaves while it runs, a tracefs instance and a memory cgroup: PREFIX + pid. */
#define RF_RECORD_PREFIX "refault-record-"

/* True if @name (PREFIX + pid + anything) is a recording's whose process is gone. */
bool rec_name_stale(const char *name);

/* --------------------------------------------------------- recorder */

/* The recorder (recorder.c): tracefs -> normalizer -> @sink; the session drives it. */
struct rf_recorder;

/* Allocate and check @opts; touches nothing in the system yet. */
int rec_recorder_new(struct rf_recorder **out, const struct rf_record_opts *opts,
		     const struct rf_record_sink *sink);

/*
 * Create the tracefs instance, enable the events, start tracing and emit the
 * initial state (cgroup tree, tasks, limits, counters).
 */
int rec_recorder_start(struct rf_recorder *rec);

/* Read what the kernel has, emit everything older than the merge horizon. */
int rec_recorder_poll(struct rf_recorder *rec);

/* Periodic work: counter snapshots and limit changes, at most every snapshot interval. */
int rec_recorder_tick(struct rf_recorder *rec);

/* Stop tracing, drain every CPU, emit all that is left and the final counters. */
int rec_recorder_stop(struct rf_recorder *rec);

/* Remove the instance (if any) and free everything.  NULL is accepted. */
void rec_recorder_free(struct rf_recorder *rec);

/* The instance's name, "" before start. */
const char *rec_recorder_instance_name(const struct rf_recorder *rec);
void rec_recorder_stats(const struct rf_recorder *rec, struct rf_record_stats *st);
const char *rec_recorder_errmsg(const struct rf_recorder *rec);
/* The event sources actually enabled, "filemap:mm_filemap_get_pages,..." */
const char *rec_recorder_sources(const struct rf_recorder *rec);
/* The reference events of the default set the kernel lacks, with no kprobe in their stead: "" or "a:b, c:d". */
const char *rec_recorder_missing(const struct rf_recorder *rec);

/* ----------------------------------------------------------- header */

struct rf_record_session_opts;

/*
 * The header of a recording's trace (header.c): the host, the scope and
 * command line of @o, the cgroup recorded (@memcg_rel, the --memcg-limit
 * group's path below the root, or "" for -G's), the recorder's @sources.
 */
void rec_header_fill(struct rf_trace_header *h, const struct rf_record_session_opts *o,
		     const char *memcg_rel, const char *sources);

/* ----------------------------------------------------------- source */

struct rf_raw {
	uint64_t ts;
	uint32_t cpu;
	const void *data;	/* NULL: a lost-events marker */
	int size;
	uint64_t lost;		/* for a marker: count (0 = unknown how many) */
	uint64_t lost_begin;	/* for a marker: last time seen before the gap */
	bool drain;		/* from the drain instance: a task the scope does not follow */
};

struct rf_source_cfg {
	const char *tracefs_dir;
	const char *name;		/* instance name */
	uint64_t buffer_bytes;		/* per CPU */
	pid_t notrace_pid;		/* the recorder */
	pid_t follow_pid;		/* 0 = every task */
	const char *const *systems;	/* the events to load the formats of: */
	const char *const *events;	/* systems[i]:events[i] until events[i] is NULL */
};

struct rf_source;

int rec_source_open(struct rf_source **out, const struct rf_source_cfg *cfg, char *msg, size_t len);
struct tep_handle *rec_source_tep(struct rf_source *src);
/* Enable @system:@event in the main instance with @filter (NULL: none). */
int rec_source_enable(struct rf_source *src, const char *system, const char *event,
		      const char *filter);
/*
 * Following a pid, a second instance records, for the tasks not followed, the
 * events of per-CPU batches any task may drain (LRU insertions and activations)
 * and the page-cache deletes that end a folio's pfn (kswapd's reclaim).
 */
bool rec_source_has_drain(const struct rf_source *src);
/* Enable @system:@event in the drain instance with @filter (NULL: none); 0 if there is none. */
int rec_source_enable_drain(struct rf_source *src, const char *system, const char *event,
			    const char *filter);
/* Open the per-CPU readers and turn tracing on. */
int rec_source_start(struct rf_source *src, char *msg, size_t len);
int rec_source_trace_off(struct rf_source *src);
/* Read every available sub-buffer of every CPU (up to @max_pages per CPU, 0 = all). */
int rec_source_read(struct rf_source *src, unsigned int max_pages);
/* Emit merged records with ts < @horizon (UINT64_MAX: all) in (ts, cpu) order. */
int rec_source_emit(struct rf_source *src, uint64_t horizon,
		    int (*fn)(void *ctx, const struct rf_raw *raw), void *ctx);
/* Overruns plus dropped events the kernel counted for @cpu. */
uint64_t rec_source_kernel_lost(struct rf_source *src, int cpu);
int rec_source_nr_cpus(const struct rf_source *src);
void rec_source_counts(const struct rf_source *src, uint64_t *pages, uint64_t *bytes);
/* Disable tracing and remove the instance; NULL accepted. */
void rec_source_close(struct rf_source *src);
/* Remove refault-record-PID instances whose PID is gone (left by a SIGKILL). */
void rec_source_remove_stale(const char *tracefs_dir);

/* ------------------------------------------------------- kprobe sources */

struct rf_kprobes;

/*
 * Make kprobe events, in the group named after the recorder's @name
 * ("refault-record-PID" -> "refault_record_PID"), for the wanted
 * tracepoints that have a kprobe source and, with RF_KPROBES_AUTO, that the
 * kernel lacks.  0 with *@out NULL when none is needed, or none can be made
 * and @mode is AUTO (the events are left out, as any the kernel lacks);
 * else an error in @msg.  *@out is set even on error, for
 * rec_kprobes_destroy().
 */
int rec_kprobes_create(struct rf_kprobes **out, const char *name, enum rf_kprobe_mode mode,
		       const bool want[TP_MAX], const char *tracefs_dir, char *msg, size_t len);
/* The group event @id is in if a kprobe stands in for it, else NULL. */
const char *rec_kprobes_group(const struct rf_kprobes *k, enum rf_tp_id id);
/* The kernel function a kprobe for @id is on, else NULL. */
const char *rec_kprobes_symbol(const struct rf_kprobes *k, enum rf_tp_id id);
/* Remove the events (after every instance that enabled them is gone) and free @k. */
void rec_kprobes_destroy(struct rf_kprobes *k);
/*
 * One line per kprobe source into @buf: the tracepoint, the function, and the
 * fetch arguments this kernel's BTF gives (or why it gives none).  The bytes
 * written.
 */
size_t rec_kprobes_describe(char *buf, size_t len);
/* Remove the kprobe groups of recorders that died without removing them. */
void rec_kprobes_remove_stale(void);

/* ------------------------------------------------------------ vmas */

struct rec_vma {
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;		/* in pages */
	uint64_t ino;		/* 0: anonymous */
	uint32_t dev;		/* kernel encoding */
	uint32_t flags;		/* RF_VMA_* */
	uint32_t prot;		/* PROT_* */
};

#define RF_VMA_SHARED	0x1u

/* Mapping table of one process (one mm). */
struct rec_vmas {
	struct rec_vma *v;	/* sorted by start, not overlapping */
	size_t nr;
	size_t cap;
	uint64_t loaded_at;	/* trace time /proc/PID/maps was last read, 0 never */
	bool gone;		/* /proc/PID/maps could not be read: the process is gone */
};

int rec_vmas_load(struct rec_vmas *t, pid_t tgid);
/* As rec_vmas_load(), but stop after the vma holding @addr (or the first above it). */
int rec_vmas_load_upto(struct rec_vmas *t, pid_t tgid, uint64_t addr);
int rec_vmas_insert(struct rec_vmas *t, const struct rec_vma *vma);
void rec_vmas_remove(struct rec_vmas *t, uint64_t start, uint64_t end);
const struct rec_vma *rec_vmas_find(const struct rec_vmas *t, uint64_t addr);
void rec_vmas_free(struct rec_vmas *t);
/* Kernel s_dev encoding (major << 20 | minor) from a userspace dev_t. */
uint32_t rec_kdev(dev_t dev);

/* -------------------------------------------------------- counters */

/* Parse "name value" lines of @path into a COUNTERS event's entries (owned by @c). */
struct rf_counter_snap {
	struct rf_counter *entries;
	char *names;
	uint32_t nr;
};

int rec_counters_read(struct rf_counter_snap *c, const char *path);
void rec_counters_free(struct rf_counter_snap *c);

/*
 * The multi-gen LRU's state from debugfs (lru_gen.c): @fn gets each memcg's
 * path as the kernel prints it ("/", "/a/b") and its counters (lru_gen.*,
 * valid during the call); a nonzero return stops the walk with it.
 */
typedef int (*rec_lru_gen_fn)(void *ctx, const char *path, const struct rf_counter *c,
			      uint32_t nr);
int rec_lru_gen_parse(FILE *f, rec_lru_gen_fn fn, void *ctx);


/* --------------------------------------------------------- cgroups */

/* Mount point of the memory cgroup hierarchy (v1 "memory" or v2 with memory); 0 or -ENOENT. */
int rec_memcg_mount(char *buf, size_t len, bool *v2);
/* The memory cgroup path (below the mount) of @pid. */
int rec_memcg_path_of(pid_t pid, char *buf, size_t len);

/*
 * rec_memcg_create() - make a fresh memory cgroup under the caller's own, with a limit
 * @dir: out, its absolute directory
 * @limit: bytes
 */
int rec_memcg_create(char *dir, size_t len, uint64_t limit, char *msg, size_t msglen);
/* Move @pid into the group at @dir (write to cgroup.procs). */
int rec_memcg_attach(const char *dir, pid_t pid);
/* Remove the group and the groups in it; their tasks must have exited. */
int rec_memcg_remove(const char *dir);
/* Remove leftovers of killed recorders: refault-record-PID groups whose PID is gone. */
void rec_memcg_remove_stale(void);

/* The memory hierarchy: where it is mounted and how tracepoints name it. */
struct rec_memcg_root {
	char mount[256];
	bool v2;
	int hierarchy_id;	/* cgroup tracepoints' root field (0 for v2) */
};

int rec_memcg_root_find(struct rec_memcg_root *r);
/* Call @fn for every cgroup below (and including) @rel, parents first. */
int rec_memcg_walk(const struct rec_memcg_root *r, const char *rel,
		   int (*fn)(void *ctx, const char *rel, uint64_t id, uint64_t parent), void *ctx);
/* The memory cgroup path of @pid in @root (rec_memcg_path_of without the mount lookup). */
int rec_memcg_path_in(const struct rec_memcg_root *root, pid_t pid, char *buf, size_t len);
/* The cgroup's id (its kernfs inode, the id cgroup and memcg tracepoints carry); 0 if gone. */
uint64_t rec_memcg_id(const struct rec_memcg_root *r, const char *rel);
/* Read one limit of the group; false if the knob does not exist. */
bool rec_memcg_limit(const struct rec_memcg_root *r, const char *rel, enum rf_limit_kind kind,
		     uint64_t *value);

/* ------------------------------------------------------- normalizer */

/* ------------------------------------------------------------------ knobs */

/* One read of a small control file into @buf (NUL-terminated, as read); 0 or -errno. */
int rec_knob_read(const char *path, char *buf, size_t len);
/* One write of @val to a control file; 0 or -errno. */
int rec_knob_write(const char *path, const char *val);

/* --------------------------------------------------------------- workload */

/* The command of `refault record -- COMMAND` (recorder/workload.c). */
enum {
	RF_WORKLOAD_AS_ROOT = 1 << 0,	/* under sudo, keep root (default: the invoking user) */
};

struct rf_workload_opts {
	const char *memcg_dir;		/* attach the command here before it execs (NULL: no) */
	const sigset_t *sigmask;	/* the command's signal mask (NULL: the caller's) */
	unsigned int flags;
};

struct rf_workload;

/*
 * rec_workload_spawn() - fork the command, held before exec
 * The child leads its own process group and waits for rec_workload_release().
 * Return: 0 or a negative errno with a message in @err.
 */
int rec_workload_spawn(struct rf_workload **out, char *const *argv,
		       const struct rf_workload_opts *o, char *err, size_t errlen);
/*
 * rec_workload_release() - let it attach to its memcg, drop privileges and exec
 * The caller must ignore SIGPIPE and block SIGTTOU.  Return: 0 once the exec
 * succeeded; a negative errno (with what failed, naming @name) otherwise.
 */
int rec_workload_release(struct rf_workload *w, char *err, size_t errlen, const char *name);
pid_t rec_workload_pid(const struct rf_workload *w);
/* Reaped yet?  Never blocks. */
bool rec_workload_exited(struct rf_workload *w);
/* Its wait status, once exited. */
int rec_workload_status(const struct rf_workload *w);
/* @sig to its whole process group (nothing once it has exited). */
void rec_workload_kill(struct rf_workload *w, int sig);
/* Close the hold (a child not yet released exits), wait for it, free.  NULL is accepted. */
void rec_workload_free(struct rf_workload *w);

/* ------------------------------------------------------------------ damon */

/* --damon (damon.c): a kdamond sampling @pid's accessed bits, for damon:damon_aggregated. */
struct rf_damon_cfg {
	pid_t pid;
	uint64_t sample_us;	/* DAMON's sampling interval */
	uint64_t aggr_us;	/* its aggregation interval: one damon_region per region */
};

struct rf_damon;

/* Take DAMON's sysfs interface (only when no kdamond is set up) and start; 0 or with @msg. */
int rec_damon_start(struct rf_damon **out, const struct rf_damon_cfg *cfg, char *msg, size_t len);
/* Stop the kdamond and give the interface back; NULL is accepted. */
void rec_damon_stop(struct rf_damon *d);

struct rf_record_sink;
struct rf_record_stats;
struct rf_norm;

struct rf_norm_cfg {
	const struct rf_tp_set *tps;
	const struct rec_memcg_root *root;	/* NULL: no memory cgroups */
	const struct rf_record_sink *sink;
	uint64_t scope_cgroup;			/* -G: keep references of this subtree only; 0 all */
	uint32_t out_dev;			/* kernel encoding; the output file is skipped */
	uint64_t out_ino;
	pid_t damon_pid;			/* --damon: the process of target 0, else 0 */
	uint32_t damon_max_nr_accesses;		/* aggr_us / sample_us */
	struct rf_stacks *stacks;		/* --call-graph: the references' stacks, else NULL */
};

int rec_norm_new(struct rf_norm **out, const struct rf_norm_cfg *cfg);
void rec_norm_free(struct rf_norm *n);
/* One merged record (rec_source_emit callback). */
int rec_norm_record(void *n, const struct rf_raw *raw);
/* Emit @ev through the sink, counting it. */
int rec_norm_emit(struct rf_norm *n, const struct rf_event *ev);
/* A cgroup seen at start: remember its id and path, emit MKDIR and its limits. */
int rec_norm_cgroup(struct rf_norm *n, uint64_t time, const char *rel, uint64_t id,
		    uint64_t parent);
/*
 * Call @fn for every live cgroup below the one of id @id (not itself), parents
 * before children, with its path below the hierarchy root; none for an unknown @id.
 */
int rec_norm_cgroups_below(const struct rf_norm *n, uint64_t id,
			   int (*fn)(void *ctx, const char *rel, uint64_t id), void *ctx);
/* Call @fn for every process of the scope the normalizer knows (its tgid, its address space). */
int rec_norm_each_process(struct rf_norm *n, int (*fn)(void *ctx, int32_t tgid, uint64_t mm),
			  void *ctx);
/* Emit LIMIT events for the limits of every known cgroup that changed since last time. */
int rec_norm_poll_limits(struct rf_norm *n, uint64_t time);
/* Emit faults still waiting for a filemap event (at the end). */
int rec_norm_flush(struct rf_norm *n);
/* Name a process seen at start (NAME_PID). */
int rec_norm_task(struct rf_norm *n, uint64_t time, pid_t pid);
/* Lost records the normalizer saw per CPU (from missed-event flags). */
uint64_t rec_norm_lost_on(const struct rf_norm *n, uint32_t cpu);
void rec_norm_stats(const struct rf_norm *n, struct rf_record_stats *st);

#endif /* REFAULT_RECORDER_RECORD_LOCAL_H */
