/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The user stacks of the recorded references: perf rings in, stack ids out
 * (perfstack.h says how).  The rings are read as tools/perf/util/mmap.c
 * reads them (data_head with acquire, data_tail with release); the samples
 * are laid out as include/uapi/linux/perf_event.h's PERF_RECORD_SAMPLE
 * says for the sample_type asked.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <refault/errors.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "recorder/perfstack.h"
#include "recorder/stackmatch.h"
#include "recorder/stackpool.h"
#include "recorder/stacks.h"

#define RING_PAGES_DEFAULT	1024u		/* 4 MiB a CPU: ~500 samples of 8 KiB */
#define MAX_QUEUED_BYTES	(512ull << 20)	/* samples waiting for their reference */
#define MAX_FRAMES		128u		/* perf's default max stack is 127 */
/* A reference the normalizer held back (a file fault) may come this late. */
#define EXPIRE_MARGIN_NS	(500ull * 1000 * 1000)
#define POLL_MS			10
/* sys_enter_read, sys_enter_pread64, page_fault_user, page_fault_kernel, sys_exit */
#define NR_SAMPLED		5
/* kinds' value for page_fault_kernel: a fault sample, of a kernel fault */
#define KIND_KERNEL_FAULT	(RF_SAMPLE_NR + 1)

/* A thread's samples. */
struct thread_q {
	int32_t pid;
	int32_t tgid;
	struct rf_sample_q sq;
};

RF_HASHMAP_DEFINE(tq_map, int32_t, struct thread_q *, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(id_map, uint64_t, uint32_t, rf_hash64, RF_HASHMAP_EQ, 50)

struct ring {
	int fd;			/* the event whose ring it is */
	void *base;		/* struct perf_event_mmap_page, then the data pages */
	size_t data_size;
	uint64_t last_time;	/* of the last record read: where a loss begins */
};

struct frame_ent {
	const char *path;	/* interned */
	uint64_t vaddr;		/* or the absolute ip when path is NULL */
	uint8_t levels;		/* the frames of this address: ids id .. id + levels - 1 */
};

/* The most frames one address is named as: the functions inlined into it, then its own. */
#define MAX_INLINED	8

struct stack_ent {
	uint32_t first;		/* in stack_frames */
	uint32_t nr;
};

/* What a process did that the unwinder is yet to hear of. */
enum pend_kind {
	PEND_MMAP,		/* PERF_RECORD_MMAP2: @m */
	PEND_EXEC,		/* what it had mapped is gone */
	PEND_FORK,		/* a new process, @parent's child */
	PEND_EXIT,		/* its main thread exited at @at */
};

struct pend_map {
	uint64_t time;		/* when to give it to the unwinder */
	uint64_t at;		/* when it happened */
	int32_t tgid, parent;
	enum pend_kind kind;
	uint64_t seq;		/* read order, for records of the same time */
	struct rf_umap m;	/* .path is ours */
};

struct rf_stacks {
	struct rf_stacks_cfg cfg;
	int *fds;
	size_t nr_fds, cap_fds;
	struct id_map kinds;		/* event id (PERF_EVENT_IOC_ID) -> its kind + 1 */
	struct ring *rings;
	size_t nr_rings;
	struct pollfd *pfds;
	uint8_t *scratch;		/* a record that wraps around its ring */
	size_t scratch_size;

	pthread_t thread;
	bool thread_on;
	pthread_mutex_t lock;		/* the rings' tails, the queues, the counts */
	int stop;			/* atomic: the thread ends */
	struct tq_map threads;
	uint64_t queued_bytes;
	struct rf_stack_pool pool;	/* the samples' stack copies */
	struct rf_losses losses;
	struct pend_map *maps;		/* in ring order */
	size_t nr_maps, cap_maps;
	uint64_t map_seq;
	uint64_t sample_seq;

	struct rf_unwinder *unw;
	struct rf_symbols *syms;
	struct frame_ent *frames;	/* id - 1 */
	size_t nr_frames, cap_frames;
	struct id_map frame_ids;	/* hash -> id */
	char **paths;			/* interned paths */
	size_t nr_paths, cap_paths;
	uint64_t *stack_frames;		/* frame ids of every stack, one after the other */
	size_t nr_stack_frames, cap_stack_frames;
	struct stack_ent *stacks;	/* id - 1 */
	size_t nr_stacks, cap_stacks;
	struct id_map stack_ids;
	struct rf_stacks_stats st;
};

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int tp_id(const char *dir, const char *system, const char *event, char *msg, size_t len)
{
	char path[4096];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, system, event);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%d", &id) != 1 || id < 0) {
		snprintf(msg, len, "--call-graph: cannot read %s (%s)", path,
			 f ? "not a number" : strerror(errno));
		if (f)
			fclose(f);
		return -ENOENT;
	}
	fclose(f);
	return id;
}

/* The threads @pid has now (perf follows one thread; inherit gives it the later ones). */
static int list_threads(pid_t pid, pid_t **out, size_t *nr)
{
	char path[64];
	struct dirent *d;
	size_t cap = 0;
	DIR *dir;

	*out = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		/* a command held before exec has one thread, itself */
		if (RF_GROW(*out, cap, 1))
			return RF_ERR_NOMEM;
		(*out)[(*nr)++] = pid;
		return 0;
	}
	while ((d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid <= 0)
			continue;
		if (RF_GROW(*out, cap, *nr + 1)) {
			closedir(dir);
			return RF_ERR_NOMEM;
		}
		(*out)[(*nr)++] = tid;
	}
	closedir(dir);
	return 0;
}

static int add_fd(struct rf_stacks *s, int fd, uint8_t kind)
{
	uint64_t id;

	if (RF_GROW(s->fds, s->cap_fds, s->nr_fds + 1)) {
		close(fd);
		return RF_ERR_NOMEM;
	}
	s->fds[s->nr_fds++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	if (id_map_put(&s->kinds, id, kind + 1u))
		return RF_ERR_NOMEM;
	return 0;
}

static int open_ring(struct rf_stacks *s, int fd, char *msg, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = s->cfg.ring_pages ? s->cfg.ring_pages : RING_PAGES_DEFAULT;
	struct ring *r = &s->rings[s->nr_rings];

	r->base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;

		snprintf(msg, len, "--call-graph: cannot map a %zu KiB perf ring (%s; see "
			 "/proc/sys/kernel/perf_event_mlock_kb)", pages * page >> 10, strerror(errno));
		r->base = NULL;
		return err;
	}
	r->fd = fd;
	r->data_size = pages * page;
	s->nr_rings++;
	return 0;
}

/*
 * One CPU's events for one target thread (-1: every task): the stack
 * samples of the read syscalls and of user faults, and the syscall exits,
 * all writing into the CPU's ring (*@ring_fd, made by the first).
 */
static int open_cpu(struct rf_stacks *s, const int tps[NR_SAMPLED], pid_t pid, int cpu,
		    int *ring_fd, char *msg, size_t len)
{
	static const uint8_t kinds[NR_SAMPLED] = { RF_SAMPLE_READ, RF_SAMPLE_READ, RF_SAMPLE_FAULT,
						   KIND_KERNEL_FAULT, RF_SAMPLE_EXIT };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = s->cfg.ring_pages ? s->cfg.ring_pages : RING_PAGES_DEFAULT;
	unsigned int i;
	int err;

	for (i = 0; i < NR_SAMPLED; i++) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)tps[i];
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		if (kinds[i] != RF_SAMPLE_EXIT) {
			a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a.sample_regs_user = RF_UREG_MASK;
			a.sample_stack_user = s->cfg.stack_bytes;
		}
		a.disabled = 1;
		a.inherit = pid > 0;
		a.enable_on_exec = s->cfg.on_exec;
		a.use_clockid = 1;
		a.clockid = CLOCK_MONOTONIC;	/* trace_clock "mono": the tracefs records' clock */
		a.sample_id_all = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(pages * page / 4);
		/*
		 * the mappings, as they are made (a process may be gone by its
		 * unwind); the data ones too: .eh_frame is in a read-only segment
		 */
		a.mmap = a.mmap2 = a.mmap_data = i == 0;
		a.comm = a.comm_exec = i == 0;	/* an exec, before the new image's mappings */
		a.task = i == 0;		/* forks and exits */
		fd = perf_open(&a, pid, cpu);
		if (fd < 0) {
			if (errno == ENODEV && *ring_fd < 0)
				return 0;	/* an offline CPU */
			err = -errno;
			snprintf(msg, len, "--call-graph: perf_event_open on CPU %d%s failed: %s%s",
				 cpu, pid > 0 ? " for the recorded task" : "", strerror(errno),
				 errno == EACCES || errno == EPERM ?
				 " (root or CAP_PERFMON, and /proc/sys/kernel/perf_event_paranoid)" : "");
			return err;
		}
		err = add_fd(s, fd, kinds[i]);
		if (err)
			return err;
		if (*ring_fd < 0) {
			err = open_ring(s, fd, msg, len);
			if (err)
				return err;
			*ring_fd = fd;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *ring_fd) < 0) {
			err = -errno;
			snprintf(msg, len, "--call-graph: PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(errno));
			return err;
		}
	}
	return 0;
}

int rec_stacks_open(struct rf_stacks **out, const struct rf_stacks_cfg *cfg, char *msg, size_t len)
{
	const char *dir = cfg->tracefs_dir ? cfg->tracefs_dir : tracefs_tracing_dir();
	struct rf_stacks *s = calloc(1, sizeof(*s));
	int tps[NR_SAMPLED], ncpu = get_nprocs_conf(), cpu, err = 0;
	pid_t *tids = NULL;
	size_t nr_tids = 0, t;

	*out = s;
	if (!s)
		return RF_ERR_NOMEM;
	s->cfg = *cfg;
	if (!s->cfg.stack_bytes)
		s->cfg.stack_bytes = RF_STACK_BYTES_DEFAULT;
	rec_stack_pool_init(&s->pool, s->cfg.stack_bytes);
	{
		pthread_mutexattr_t ma;

		/* the drain thread is real-time: whoever holds the lock runs at its priority */
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
		pthread_mutex_init(&s->lock, &ma);
		pthread_mutexattr_destroy(&ma);
	}
	if (!dir) {
		snprintf(msg, len, "--call-graph: no tracefs (its event ids name the tracepoints)");
		return -ENOENT;
	}
	tps[0] = tp_id(dir, "syscalls", "sys_enter_read", msg, len);
	tps[1] = tp_id(dir, "syscalls", "sys_enter_pread64", msg, len);
	tps[2] = tp_id(dir, "exceptions", "page_fault_user", msg, len);
	tps[3] = tp_id(dir, "exceptions", "page_fault_kernel", msg, len);
	tps[4] = tp_id(dir, "raw_syscalls", "sys_exit", msg, len);
	for (t = 0; t < NR_SAMPLED; t++)
		if (tps[t] < 0)
			return tps[t];
	s->unw = rec_unwinder_new();
	s->syms = rec_symbols_new();
	if (!s->unw || !s->syms)
		return RF_ERR_NOMEM;
	if (cfg->scope == RF_SCOPE_PID) {
		err = list_threads(cfg->pid, &tids, &nr_tids);
		if (err)
			return err;
	}
	s->rings = calloc((size_t)ncpu, sizeof(*s->rings));
	s->pfds = calloc((size_t)ncpu, sizeof(*s->pfds));
	if (!s->rings || !s->pfds) {
		free(tids);
		return RF_ERR_NOMEM;
	}
	for (cpu = 0; cpu < ncpu && !err; cpu++) {
		int ring_fd = -1;

		if (cfg->scope != RF_SCOPE_PID)
			err = open_cpu(s, tps, -1, cpu, &ring_fd, msg, len);
		for (t = 0; t < nr_tids && !err; t++)
			err = open_cpu(s, tps, tids[t], cpu, &ring_fd, msg, len);
	}
	free(tids);
	return err;
}

/* ---------------------------------------------------------------- rings */

/*
 * PERF_RECORD_MMAP2: pid, tid, addr, len, pgoff, maj, min, ino,
 * ino_generation, prot, flags, filename, then the sample_id (pid, tid, time,
 * identifier: sample_id_all with our sample_type).
 */
static void on_mmap2(struct rf_stacks *s, const uint8_t *p, size_t size)
{
	struct perf_mmap2 {
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
	} r;
	struct pend_map pm;
	size_t name_max;

	if (size < sizeof(r) + 24 + 1)
		return;
	memcpy(&r, p, sizeof(r));
	memcpy(&pm.time, p + size - 16, 8);
	name_max = size - 24 - sizeof(r);
	/* files and the [vdso]: anonymous memory has nothing to unwind with */
	if (!memchr(p + sizeof(r), '\0', name_max) ||
	    !(p[sizeof(r)] == '/' ? r.ino != 0 : !strcmp((const char *)p + sizeof(r), "[vdso]")))
		return;
	memset(&pm.m, 0, sizeof(pm.m));
	pm.kind = PEND_MMAP;
	pm.at = pm.time;
	pm.parent = 0;
	pm.tgid = (int32_t)r.pid;
	pm.m.start = r.addr;
	pm.m.len = r.len;
	pm.m.pgoff = r.pgoff;
	pm.m.dev = (uint64_t)r.maj << 32 | r.min;
	pm.m.ino = r.ino;
	pm.m.writable = r.prot & PROT_WRITE;
	pm.m.path = strdup((const char *)p + sizeof(r));
	if (!pm.m.path || RF_GROW(s->maps, s->cap_maps, s->nr_maps + 1)) {
		free((char *)pm.m.path);
		return;
	}
	pm.seq = s->map_seq++;
	s->maps[s->nr_maps++] = pm;
}

/* PERF_RECORD_COMM of an exec: pid, tid, comm, then the sample_id. */
static void on_exec(struct rf_stacks *s, const uint8_t *p, size_t size)
{
	struct pend_map pm;
	uint32_t pid;

	if (size < 8 + 24)
		return;
	memset(&pm, 0, sizeof(pm));
	memcpy(&pid, p, 4);
	memcpy(&pm.time, p + size - 16, 8);
	pm.at = pm.time;
	pm.tgid = (int32_t)pid;
	pm.kind = PEND_EXEC;
	pm.seq = s->map_seq++;
	if (!RF_GROW(s->maps, s->cap_maps, s->nr_maps + 1))
		s->maps[s->nr_maps++] = pm;
}

/*
 * PERF_RECORD_FORK and PERF_RECORD_EXIT: pid, ppid, tid, ptid, time, then
 * the sample_id (whose time is used, as with the other records).  A fork
 * of a new process (not a thread) and the exit of a main thread.  The exit is given to the unwinder once the samples before
 * it have expired: until then a reference may still want one of them.  (A
 * main thread that exits before the others, pthread_exit() in main, takes
 * the process's mappings with it after that time: its threads' later
 * samples have /proc to go by, which shows none.)
 */
static void on_task(struct rf_stacks *s, const uint8_t *p, size_t size, bool fork)
{
	struct {
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} r;
	struct pend_map pm;

	if (size < sizeof(r) + 24)
		return;
	memcpy(&r, p, sizeof(r));
	if (fork ? r.pid == r.ppid : r.pid != r.tid)
		return;
	memset(&pm, 0, sizeof(pm));
	memcpy(&pm.at, p + size - 16, 8);	/* the sample_id's, as the other records' */
	r.time = pm.at;
	pm.time = fork ? r.time : r.time + EXPIRE_MARGIN_NS;
	pm.tgid = (int32_t)r.pid;
	pm.parent = (int32_t)r.ppid;
	pm.kind = fork ? PEND_FORK : PEND_EXIT;
	pm.seq = s->map_seq++;
	if (!RF_GROW(s->maps, s->cap_maps, s->nr_maps + 1))
		s->maps[s->nr_maps++] = pm;
}

static int pend_cmp(const void *a, const void *b)
{
	const struct pend_map *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? 1 : -1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Give the unwinder the mappings and execs up to @time, in time order (main thread). */
static void apply_maps(struct rf_stacks *s, uint64_t time)
{
	struct pend_map *todo = NULL;
	size_t i, k = 0, n = 0, cap = 0;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nr_maps; i++) {
		if (s->maps[i].time <= time && !RF_GROW(todo, cap, n + 1))
			todo[n++] = s->maps[i];
		else
			s->maps[k++] = s->maps[i];
	}
	s->nr_maps = k;
	pthread_mutex_unlock(&s->lock);
	/* the rings are merged here: each is in order, an mmap and its exec on one CPU */
	if (n > 1)
		qsort(todo, n, sizeof(*todo), pend_cmp);
	for (i = 0; i < n; i++) {
		switch (todo[i].kind) {
		case PEND_MMAP:
			rec_unwinder_map(s->unw, todo[i].tgid, &todo[i].m);
			break;
		case PEND_EXEC:
			rec_unwinder_exec(s->unw, todo[i].tgid, todo[i].at);
			break;
		case PEND_FORK:
			rec_unwinder_fork(s->unw, todo[i].parent, todo[i].tgid, todo[i].at);
			break;
		case PEND_EXIT:
			rec_unwinder_exit(s->unw, todo[i].tgid, todo[i].at);
			break;
		}
		free((char *)todo[i].m.path);
	}
	free(todo);
}

/*
 * The kind of the event of id @id (every sample starts with it): an enum
 * rf_sample_kind, KIND_KERNEL_FAULT, or RF_SAMPLE_NR.
 */
static uint8_t event_kind(const struct rf_stacks *s, uint64_t id)
{
	const uint32_t *k = id_map_get(&s->kinds, id);

	return k ? (uint8_t)(*k - 1) : RF_SAMPLE_NR;
}

static struct thread_q *thread_q(struct rf_stacks *s, int32_t pid, int32_t tgid)
{
	bool fresh;
	struct thread_q **slot = tq_map_slot(&s->threads, pid, &fresh);

	if (!slot)
		return NULL;
	if (fresh) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot) {
			tq_map_del(&s->threads, pid, NULL);
			return NULL;
		}
		(*slot)->pid = pid;
	}
	if (tgid > 0)
		(*slot)->tgid = tgid;
	return *slot;
}

static void sample_release(struct rf_stacks *s, struct rf_sample *sm)
{
	if (!sm->taken && sm->kind != RF_SAMPLE_EXIT)
		s->st.unused++;
	if (sm->stack)
		s->queued_bytes -= s->pool.block;
	rec_stack_pool_put(&s->pool, sm->stack);
	sm->stack = NULL;
}

/* A sample was lost between @from and @to: a reference there may not take another's. */
static void note_loss(struct rf_stacks *s, uint64_t from, uint64_t to)
{
	s->st.lost++;
	rec_losses_add(&s->losses, from, to);
}

/* Parse one PERF_RECORD_SAMPLE (IDENTIFIER first, so its event says the rest). */
static void on_sample(struct rf_stacks *s, const uint8_t *p, size_t size)
{
	const uint8_t *end = p + size;
	uint8_t kind;
	struct thread_q *q;
	struct rf_sample sm;
	uint32_t pid, tid;
	uint64_t v, abi, nr_regs, i, k;

#define TAKE(dst, n) do { if ((size_t)(end - p) < (n)) return; memcpy((dst), p, (n)); p += (n); } while (0)
	TAKE(&v, 8);
	kind = event_kind(s, v);
	if (kind == RF_SAMPLE_NR)
		return;
	TAKE(&pid, 4);
	TAKE(&tid, 4);
	memset(&sm, 0, sizeof(sm));
	TAKE(&sm.time, 8);
	sm.seq = s->sample_seq++;
	sm.kernel = kind == KIND_KERNEL_FAULT;
	sm.kind = kind = sm.kernel ? RF_SAMPLE_FAULT : kind;
	if (kind != RF_SAMPLE_EXIT) {
		TAKE(&abi, 8);
		if (abi) {
			nr_regs = (uint64_t)__builtin_popcountll(RF_UREG_MASK);
			for (i = 0, k = 0; i < RF_UREG_NR && k < nr_regs; i++) {
				if (!(RF_UREG_MASK & 1ull << i))
					continue;
				TAKE(&sm.regs[i], 8);
				k++;
			}
		}
		TAKE(&v, 8);		/* size: what was asked */
		if (v) {
			const uint8_t *data = p;
			uint64_t dyn;

			if ((size_t)(end - p) < v + 8)
				return;
			p += v;
			TAKE(&dyn, 8);	/* what the user stack held */
			if (dyn > v)
				dyn = v;
			if (dyn > s->pool.block)
				dyn = s->pool.block;	/* more than was asked: cut */
			if (!abi)
				dyn = 0;	/* a kernel thread's: no user state */
			if (dyn) {
				if (s->queued_bytes + s->pool.block > MAX_QUEUED_BYTES) {
					note_loss(s, sm.time, sm.time);
					return;
				}
				sm.stack = rec_stack_pool_get(&s->pool);
				if (!sm.stack) {
					note_loss(s, sm.time, sm.time);
					return;
				}
				memcpy(sm.stack, data, dyn);
				sm.size = (uint32_t)dyn;
				s->queued_bytes += s->pool.block;
			}
		}
		s->st.samples++;
	}
#undef TAKE
	q = thread_q(s, (int32_t)tid, (int32_t)pid);
	if (!q || rec_sample_q_insert(&q->sq, &sm)) {
		if (sm.stack)
			s->queued_bytes -= s->pool.block;
		rec_stack_pool_put(&s->pool, sm.stack);
		note_loss(s, sm.time, sm.time);
	}
}

static void read_ring(struct rf_stacks *s, struct ring *r)
{
	struct perf_event_mmap_page *mp = r->base;
	const uint8_t *data = (const uint8_t *)r->base + mp->data_offset;
	size_t mask = r->data_size - 1;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		const uint8_t *rec;
		size_t off = tail & mask;

		if (off + sizeof(h) <= r->data_size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t first = r->data_size - off;

			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (off + h.size <= r->data_size) {
			rec = data + off;
		} else {
			size_t first = r->data_size - off;

			if (RF_GROW(s->scratch, s->scratch_size, h.size))
				break;
			memcpy(s->scratch, data + off, first);
			memcpy(s->scratch + first, data, h.size - first);
			rec = s->scratch;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			s->st.bytes += h.size;
			on_sample(s, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_MMAP2) {
			on_mmap2(s, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_COMM && (h.misc & PERF_RECORD_MISC_COMM_EXEC)) {
			on_exec(s, rec + sizeof(h), h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_FORK || h.type == PERF_RECORD_EXIT) {
			on_task(s, rec + sizeof(h), h.size - sizeof(h), h.type == PERF_RECORD_FORK);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16 + 24) {
			uint64_t lost, to;

			memcpy(&lost, rec + sizeof(h) + 8, 8);
			memcpy(&to, rec + h.size - 16, 8);	/* its sample_id's time */
			if (lost) {
				note_loss(s, r->last_time, to);
				s->st.lost += lost - 1;
			}
		}
		/* every record has a time: a sample's after its id and tid, the others' sample_id */
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 24)
			memcpy(&r->last_time, rec + sizeof(h) + 16, 8);
		else if (h.type != PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 24)
			memcpy(&r->last_time, rec + h.size - 16, 8);
		tail += h.size;
		/*
		 * Each record's space back to the kernel as soon as it is
		 * copied: the kernel sees only data_tail, and a ring read
		 * whole before giving any back counts as full for as long as
		 * the read takes (a 4 MiB ring of stack samples: tens of ms,
		 * every sample in them PERF_RECORD_LOST).
		 */
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
}

static void read_rings(struct rf_stacks *s)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nr_rings; i++)
		read_ring(s, &s->rings[i]);
	pthread_mutex_unlock(&s->lock);
}

void rec_stacks_read(struct rf_stacks *s)
{
	if (s)
		read_rings(s);
}

static void *drain_thread(void *arg)
{
	struct rf_stacks *s = arg;
	size_t i;

	/*
	 * Above every ordinary task, where allowed (perf record -r 1): a
	 * 4 MiB ring of 8 KiB stack copies holds ~500 samples, 20 ms of a
	 * program reading cached pages; at ordinary priority the thread
	 * waits behind the workload, the normalizer and the machine's load
	 * that long (on 2 CPUs: 4,000 to 11,000 of 11,600 samples lost).  It
	 * sleeps in poll() between reads, and a read is bounded by the ring.
	 */
	if (!pthread_setschedparam(pthread_self(), SCHED_FIFO, &(struct sched_param){ .sched_priority = 1 })) {
		pthread_mutex_lock(&s->lock);
		s->st.realtime = true;
		pthread_mutex_unlock(&s->lock);
	}

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < s->nr_rings; i++)
			s->pfds[i] = (struct pollfd){ .fd = s->rings[i].fd, .events = POLLIN };
		if (poll(s->pfds, s->nr_rings, POLL_MS) < 0 && errno != EINTR)
			break;
		read_rings(s);
	}
	return NULL;
}

int rec_stacks_start(struct rf_stacks *s, char *msg, size_t len)
{
	size_t i;
	int err;

	err = pthread_create(&s->thread, NULL, drain_thread, s);
	if (err) {
		snprintf(msg, len, "--call-graph: cannot start the ring thread: %s", strerror(err));
		return -err;
	}
	s->thread_on = true;
	if (s->cfg.on_exec)
		return 0;	/* enable_on_exec */
	for (i = 0; i < s->nr_fds; i++)
		if (ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0) {
			err = -errno;
			snprintf(msg, len, "--call-graph: cannot enable a perf event: %s", strerror(errno));
			return err;
		}
	return 0;
}

void rec_stacks_stop(struct rf_stacks *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_fds; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (s->thread_on) {
		__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
		pthread_join(s->thread, NULL);
		s->thread_on = false;
	}
	read_rings(s);
}

/* --------------------------------------------------------------- stacks */

static const char *intern_path(struct rf_stacks *s, const char *path)
{
	size_t i;

	if (!path)
		return NULL;
	for (i = s->nr_paths; i-- > 0;)
		if (!strcmp(s->paths[i], path))
			return s->paths[i];
	if (RF_GROW(s->paths, s->cap_paths, s->nr_paths + 1))
		return NULL;
	s->paths[s->nr_paths] = strdup(path);
	return s->paths[s->nr_paths] ? s->paths[s->nr_paths++] : NULL;
}

/*
 * The ids of frame (@path, @vaddr), naming them through @emit the first time:
 * the first one's, and in *@levels how many follow from it -- one, or the
 * functions the compiler inlined at that address, innermost first, then the
 * one they were inlined into (rec_symbols_inlined()).
 */
static uint32_t frame_id(struct rf_stacks *s, const struct rf_uframe *f, uint64_t time, int32_t pid,
			 rf_stacks_emit_fn emit, void *ctx, unsigned int *levels, int *err)
{
	const char *path = intern_path(s, f->path);
	uint64_t addr = path ? f->vaddr : f->ip;
	uint64_t key = rf_hash2(path ? rf_hash_str(path) : 0, addr);
	struct rf_symbol sym[MAX_INLINED];
	struct rf_event ev;
	uint32_t *slot, first;
	unsigned int n = 0, i;
	bool fresh;

	*levels = 0;
	if (f->path && !path)
		return 0;
	for (;; key++) {
		slot = id_map_slot(&s->frame_ids, key, &fresh);
		if (!slot)
			return 0;
		if (fresh)
			break;
		if (s->frames[*slot - 1].path == path && s->frames[*slot - 1].vaddr == addr) {
			*levels = s->frames[*slot - 1].levels;
			return *slot;
		}
	}
	if (path)
		n = rec_symbols_inlined(s->syms, path, addr, sym, MAX_INLINED);
	if (!n) {
		memset(&sym[0], 0, sizeof(sym[0]));
		n = 1;
	}
	if (RF_GROW(s->frames, s->cap_frames, s->nr_frames + n)) {
		id_map_del(&s->frame_ids, key, NULL);
		return 0;
	}
	first = (uint32_t)s->nr_frames + 1;
	for (i = 0; i < n; i++)
		s->frames[s->nr_frames++] = (struct frame_ent){ .path = path, .vaddr = addr,
								.levels = (uint8_t)(n - i) };
	*slot = first;
	for (i = 0; i < n && !*err; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.time = time;
		ev.pid = pid;
		ev.type = RF_EV_NAME_FRAME;
		ev.u.frame.id = first + i;
		ev.u.frame.addr = addr;
		ev.u.frame.dso = path;
		ev.u.frame.build_id = sym[i].build_id;
		ev.u.frame.symbol = sym[i].symbol;
		ev.u.frame.file = sym[i].file;
		ev.u.frame.line = sym[i].line;
		s->st.frames++;
		*err = emit(ctx, &ev);
	}
	*levels = n;
	return first;
}

/* The id of the stack of frame ids @ids, naming it through @emit the first time. */
static uint32_t stack_id(struct rf_stacks *s, const uint64_t *ids, uint32_t nr, uint64_t time,
			 int32_t pid, rf_stacks_emit_fn emit, void *ctx, int *err)
{
	uint64_t key = rf_fnv1a(RF_FNV1A_INIT, ids, nr * sizeof(*ids));
	struct rf_event ev;
	uint32_t *slot;
	bool fresh;

	for (;; key++) {
		const struct stack_ent *st;

		slot = id_map_slot(&s->stack_ids, key, &fresh);
		if (!slot)
			return 0;
		if (fresh)
			break;
		st = &s->stacks[*slot - 1];
		if (st->nr == nr && !memcmp(&s->stack_frames[st->first], ids, nr * sizeof(*ids)))
			return *slot;
	}
	if (RF_GROW(s->stacks, s->cap_stacks, s->nr_stacks + 1) ||
	    RF_GROW(s->stack_frames, s->cap_stack_frames, s->nr_stack_frames + nr)) {
		id_map_del(&s->stack_ids, key, NULL);
		return 0;
	}
	s->stacks[s->nr_stacks++] = (struct stack_ent){ .first = (uint32_t)s->nr_stack_frames, .nr = nr };
	memcpy(&s->stack_frames[s->nr_stack_frames], ids, nr * sizeof(*ids));
	s->nr_stack_frames += nr;
	*slot = (uint32_t)s->nr_stacks;
	memset(&ev, 0, sizeof(ev));
	ev.time = time;
	ev.pid = pid;
	ev.type = RF_EV_NAME_STACK;
	ev.u.stack.id = s->nr_stacks;
	ev.u.stack.frames = &s->stack_frames[s->stacks[s->nr_stacks - 1].first];
	ev.u.stack.nr_frames = nr;
	s->st.stacks++;
	*err = emit(ctx, &ev);
	return (uint32_t)s->nr_stacks;
}

static uint32_t unwind_sample(struct rf_stacks *s, int32_t tgid, const struct rf_sample *sm,
			      uint64_t time, int32_t pid, rf_stacks_emit_fn emit, void *ctx, int *err)
{
	struct rf_user_sample us;
	struct rf_uframe frames[MAX_FRAMES];
	uint64_t ids[MAX_FRAMES * 2];
	enum rf_unwind_end end = RF_UNWIND_FAILED;
	unsigned int n, i, k = 0;

	/*
	 * exec's own faults (padzero() in the new program) come with the user
	 * registers of the image exec replaced, and no stack to copy: no stack,
	 * and no unwinding that failed
	 */
	if (sm->kernel && !sm->size)
		return 0;
	memcpy(us.regs, sm->regs, sizeof(us.regs));
	us.stack = sm->stack;
	us.stack_size = sm->size;
	n = rec_unwind(s->unw, tgid, &us, frames, MAX_FRAMES, &end);
	if (!n) {
		s->st.failed++;
		return 0;
	}
	if (end == RF_UNWIND_COMPLETE)
		s->st.unwound++;
	else if (end == RF_UNWIND_TRUNCATED)
		s->st.truncated++;
	else
		s->st.failed++;
	for (i = 0; i < n && !*err; i++) {
		unsigned int levels, l;
		uint32_t id = frame_id(s, &frames[i], time, pid, emit, ctx, &levels, err);

		/* a frame's inlined functions first; a stack past ids' room keeps its inner frames */
		for (l = 0; id && l < levels && k < MAX_FRAMES * 2; l++)
			ids[k++] = id + l;
	}
	if (*err || !k)
		return 0;
	return stack_id(s, ids, k, time, pid, emit, ctx, err);
}

/* Drop q's samples before @keep (an index at or after head), compacting now and then. */
static void drop_before(struct rf_stacks *s, struct thread_q *q, size_t keep)
{
	while (q->sq.head < keep)
		sample_release(s, &q->sq.items[q->sq.head++]);
	if (q->sq.head == q->sq.nr) {
		q->sq.head = q->sq.nr = 0;
	} else if (q->sq.head > 64 && q->sq.head * 2 > q->sq.nr) {
		memmove(q->sq.items, q->sq.items + q->sq.head, (q->sq.nr - q->sq.head) * sizeof(*q->sq.items));
		q->sq.nr -= q->sq.head;
		q->sq.head = 0;
	}
}

uint32_t rec_stacks_take(struct rf_stacks *s, int32_t pid, uint64_t time, bool fault,
			 rf_stacks_emit_fn emit, void *ctx, int *err)
{
	struct thread_q **qp, *q;
	struct rf_sample sm;
	size_t at, exit;
	int32_t tgid;
	uint32_t id;

	*err = 0;
	pthread_mutex_lock(&s->lock);
	qp = tq_map_get(&s->threads, pid);
	q = qp ? *qp : NULL;
	if (!q)
		goto none;
	rec_sample_q_find(&q->sq, &s->losses, time, fault, &exit);
	drop_before(s, q, exit);	/* may move the queue: look again */
	at = rec_sample_q_find(&q->sq, &s->losses, time, fault, &exit);
	if (at == SIZE_MAX)
		goto none;
	sm = q->sq.items[at];
	q->sq.items[at].taken = true;
	tgid = q->tgid;
	pthread_mutex_unlock(&s->lock);

	if (sm.unwound) {
		id = sm.stack_id;
	} else {
		apply_maps(s, sm.time);
		/*
		 * Unlocked: the thread inserts samples, which may move this one
		 * to the right, but frees none (its stack copy stays put).
		 */
		id = unwind_sample(s, tgid, &sm, time, pid, emit, ctx, err);
		pthread_mutex_lock(&s->lock);
		for (; at < q->sq.nr; at++)
			if (q->sq.items[at].seq == sm.seq) {
				q->sq.items[at].unwound = true;
				q->sq.items[at].stack_id = id;
				break;
			}
		pthread_mutex_unlock(&s->lock);
	}
	if (id)
		s->st.refs++;
	else
		s->st.refs_without++;
	return id;
none:
	s->st.refs_without++;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

void rec_stacks_expire(struct rf_stacks *s, uint64_t before)
{
	struct tq_map_slot *it = NULL;

	if (!s || before < EXPIRE_MARGIN_NS)
		return;
	before -= EXPIRE_MARGIN_NS;
	pthread_mutex_lock(&s->lock);
	while ((it = tq_map_next(&s->threads, it))) {
		struct thread_q *q = it->val;
		size_t keep = q->sq.head;

		/* the last sample before @before may still be a late reference's */
		while (keep + 1 < q->sq.nr && q->sq.items[keep + 1].time < before)
			keep++;
		drop_before(s, q, keep);
	}
	rec_losses_expire(&s->losses, before);
	pthread_mutex_unlock(&s->lock);
}

void rec_stacks_stats(const struct rf_stacks *s, struct rf_stacks_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	pthread_mutex_lock((pthread_mutex_t *)&s->lock);
	*st = s->st;
	pthread_mutex_unlock((pthread_mutex_t *)&s->lock);
}

int rec_stacks_counters(const struct rf_stacks *s, uint64_t time, rf_stacks_emit_fn emit, void *ctx)
{
	struct rf_stacks_stats st;
	struct rf_counter c[11];
	struct rf_event ev;

	rec_stacks_stats(s, &st);
	c[0] = (struct rf_counter){ "stacks.samples", st.samples };
	c[1] = (struct rf_counter){ "stacks.lost", st.lost };
	c[2] = (struct rf_counter){ "stacks.unwound", st.unwound };
	c[3] = (struct rf_counter){ "stacks.truncated", st.truncated };
	c[4] = (struct rf_counter){ "stacks.failed", st.failed };
	c[5] = (struct rf_counter){ "stacks.unused", st.unused };
	c[6] = (struct rf_counter){ "stacks.refs", st.refs };
	c[7] = (struct rf_counter){ "stacks.refs_without", st.refs_without };
	c[8] = (struct rf_counter){ "stacks.stacks", st.stacks };
	c[9] = (struct rf_counter){ "stacks.frames", st.frames };
	c[10] = (struct rf_counter){ "stacks.realtime", st.realtime };
	memset(&ev, 0, sizeof(ev));
	ev.time = time;
	ev.type = RF_EV_COUNTERS;
	ev.u.counters.source = RF_COUNTERS_RECORDER;
	ev.u.counters.entries = c;
	ev.u.counters.nr = 11;
	return emit(ctx, &ev);
}

void rec_stacks_free(struct rf_stacks *s)
{
	struct tq_map_slot *it = NULL;
	size_t i, page;

	if (!s)
		return;
	rec_stacks_stop(s);
	page = (size_t)sysconf(_SC_PAGESIZE);
	for (i = 0; i < s->nr_rings; i++)
		munmap(s->rings[i].base, s->rings[i].data_size + page);
	for (i = 0; i < s->nr_fds; i++)
		close(s->fds[i]);
	while ((it = tq_map_next(&s->threads, it))) {
		struct thread_q *q = it->val;

		free(q->sq.items);
		free(q);
	}
	tq_map_destroy(&s->threads);
	rec_stack_pool_destroy(&s->pool);	/* every queued sample's stack */
	for (i = 0; i < s->nr_maps; i++)
		free((char *)s->maps[i].m.path);
	free(s->maps);
	id_map_destroy(&s->frame_ids);
	id_map_destroy(&s->stack_ids);
	for (i = 0; i < s->nr_paths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->frames);
	free(s->stacks);
	free(s->stack_frames);
	rec_unwinder_free(s->unw);
	rec_symbols_free(s->syms);
	free(s->rings);
	free(s->pfds);
	free(s->fds);
	id_map_destroy(&s->kinds);
	free(s->scratch);
	rec_losses_free(&s->losses);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
