/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* State of the normalizer (normalize.c), shared with tasks.c. */
#ifndef REFAULT_RECORDER_NORM_H
#define REFAULT_RECORDER_NORM_H

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "recorder/record-local.h"
#include "recorder/record.h"

#define RF_READ_ADDS	16	/* folios a read syscall may add before get_pages sees them */

/* A read()/pread64() in flight: what filemap_get_pages and page-cache adds said of it. */
struct rf_read {
	uint64_t count;		/* bytes asked for; RD_COUNT_UNKNOWN for readv and preadv */
	uint64_t pos;		/* the file offset, if have_pos (preadv) */
	uint64_t ino;
	uint64_t gmin;		/* union of get_pages ranges: [gmin, gend] */
	uint64_t gend;
	uint64_t add_index[RF_READ_ADDS];
	uint64_t add_nr[RF_READ_ADDS];
	uint32_t dev;
	uint32_t nr_adds;
	int fd;
	bool active;
	bool have_g;
	bool have_pos;
	bool sampled;		/* read() or pread64(): --call-graph samples its entry */
	bool splice;		/* sendfile, splice, copy_file_range: it writes another file too */
};

/* readv() and preadv() take iovecs in the task's memory: their length is unknown here. */
#define RD_COUNT_UNKNOWN	UINT64_MAX

/*
 * Folios a task's read or fault brought into the page cache and that no
 * file_readahead has said yet: contiguous folios of one order of one file
 * (readahead.c).  nr == 0: none.
 */
#define RF_LOOSE_RUNS	8

struct rf_ra_run {
	uint64_t ino;
	uint64_t index;
	uint64_t nr;		/* pages */
	uint64_t time;		/* of the first add */
	uint32_t dev;
	uint32_t cpu;
	uint8_t order;
};

/*
 * A file fault of the task from the event that named it until the task does
 * something a fault does not (readahead.c).  Its reference is held back until
 * then, so the file_readahead of the folios the fault brought in goes first.
 */
struct rf_fault_ctx {
	struct rf_event ev;	/* the file_fault, or an anon_fault of a large folio */
	uint64_t addr;		/* the faulting address */
	uint64_t last;		/* time of the task's last event inside the fault */
	bool on;		/* the fault is not over */
	bool held;		/* ev is not emitted yet */
	/* an anonymous fault held for its large folio (normalize.c, on_page_alloc()) */
	uint64_t large_pfn;
	bool large_inserted;	/* the folio went on the LRU: the fault mapped it */
};

/*
 * The last large movable folio a task allocated, until its mm_lru_insertion:
 * per task, not per CPU, as the task may move to another CPU between the two
 * (folio_zero_user() reschedules while it clears a 2 MiB folio).
 */
struct rf_large_alloc {
	uint64_t pfn;
	uint8_t order;		/* 0: none */
	bool in_fault;		/* a fault of the task was pending */
};

struct rec_task {
	int32_t pid;
	int32_t tgid;
	uint64_t mm;		/* id of its address space */
	uint64_t cgroup;
	struct rf_read rd;
	struct rf_ra_run ra;
	/*
	 * Adds of one file outside any read, fault or readahead call the
	 * recorder saw begin, in runs: a read's if its get_pages follows
	 * (exec's kernel_read() of the program), else a write's (readahead.c)
	 */
	struct rf_ra_run loose[RF_LOOSE_RUNS];
	uint8_t nr_loose;
	struct rf_fault_ctx fault;
	/* last get_pages outside a traced read, to drop the kernel's retries */
	uint64_t solo_ino, solo_index, solo_last;
	uint32_t solo_dev;
	/* sys_enter_mmap arguments until sys_exit_mmap */
	uint64_t mmap_len, mmap_prot, mmap_flags, mmap_off;
	int64_t mmap_fd;
	bool mmap_pending;
	uint8_t reclaim;	/* RF_RECLAIM_* + 1 while in direct/memcg reclaim, 0 outside */
	bool kswapd;
	/* inside fadvise(WILLNEED), madvise(WILLNEED) or readahead(2): its adds are readahead */
	bool ra_call;
	/*
	 * an fsync()/fdatasync() whose descriptor /proc no longer showed: the
	 * file system's own event of the call names the file (on_sync())
	 */
	bool sync_pending;
	uint8_t sync_flags;
	/*
	 * an fadvise(DONTNEED) until its first page-cache delete, which names
	 * the file (on_fadvise()); the range in pages, nr 0 to the end
	 */
	bool fadv_pending;
	int fadv_fd;
	uint64_t fadv_index, fadv_nr;
	struct rf_large_alloc large;
};

/* The pages an address space's last fault-around window mapped (normalize.c, fault_around()). */
struct rf_around {
	uint64_t ino;
	uint64_t first;		/* the window's first page; bit i of mapped is page first + i */
	uint64_t mapped;
	uint64_t seq;		/* n->pc_seq then: a folio added later is a new one */
	uint32_t dev;
};

struct rec_mm {
	uint64_t id;
	int32_t tgid;
	struct rec_vmas vmas;
	struct rf_around around;
};

struct rf_cgroup_rec {
	uint64_t id;
	uint64_t limits[RF_LIMIT_KIND_MAX];
	uint32_t have;		/* bit per kind read */
	char *rel;
};

/*
 * A page_fault_user waiting for the filemap event that may follow it on its
 * CPU, or for the large folio the page allocator gives it (an anonymous THP
 * or mTHP fault).
 */
struct rf_pending_fault {
	uint64_t addr;
	uint64_t time;
	int32_t pid;
	uint8_t flags;
	uint8_t order;		/* of the movable folio allocated inside the fault */
	uint64_t pfn;		/* and its pfn */
	bool on;
	bool kernel;		/* page_fault_kernel: the kernel touched a user page */
};


/*
 * The normalizer's tables.  They grow at half load: pfn_info and folios
 * are looked up several times per record.
 */
RF_HASHMAP_DEFINE(rec_u64_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(rec_task_map, int32_t, struct rec_task *, rf_hash64, RF_HASHMAP_EQ, 50)
RF_HASHMAP_DEFINE(rec_mm_map, uint64_t, struct rec_mm *, rf_hash64, RF_HASHMAP_EQ, 50)

struct rf_norm {
	struct rf_norm_cfg cfg;
	struct rec_task_map tasks;	/* pid -> task */
	struct rec_mm_map mms;		/* mm id -> address space */
	struct rec_u64_map tgid_mm;	/* tgid -> current mm id */
	struct rec_u64_map pfn_info;	/* pfn -> charged cgroup << 8 | order, while cached */
	/* rf_hash2(rf_hash2(dev, ino), first index) -> add sequence << 8 | order, while cached */
	struct rec_u64_map folios;
	struct rec_u64_map ino_dev;	/* ino -> dev of the last read, fault or add of that ino */
	/* rf_hash2(dev, ino) -> 0 once NAME_FILE went out, else failed attempts */
	struct rec_u64_map named_files;
	struct rec_u64_map dirtied;	/* rf_hash2(dev, ino) of the files a file_write named */
	struct rec_u64_map cg_by_path;	/* rf_hash_str(path) -> index in cgs */
	struct rec_u64_map scope;	/* -G: cgroup ids inside the scope */
	struct rf_cgroup_rec *cgs;
	size_t nr_cgs;
	size_t cap_cgs;
	uint64_t *lost_per_cpu;
	struct rf_pending_fault *pending;	/* per CPU */
	uint32_t nr_pending;
	uint64_t pending_oldest;		/* no pending fault is older */
	int32_t *held;			/* pids of tasks in a file fault (readahead.c) */
	size_t nr_held;
	size_t cap_held;
	uint64_t held_oldest;		/* no task in a fault was active earlier */
	int32_t ra_pid;			/* the task with a run of adds not yet out, if ra_open */
	bool ra_open;
	bool read_exit;			/* emitting the reference of a read syscall at its exit */
	uint64_t last_time;		/* of the last event emitted */
	uint64_t pc_seq;		/* page-cache adds seen */
	uint32_t nr_cpus;
	uint32_t mm_seq;
	uint32_t page_shift;
	uint64_t records;
	uint64_t events;
	uint64_t lost;
	uint64_t unresolved;
	uint64_t large_late;		/* large folios allocated after their fault went out */
	uint64_t by_type[RF_EV_TYPE_MAX];
};


/* Which task a FORK (its child), EXEC, EXIT or NAME_PID event is about. */
static inline void rec_task_event(struct rf_event *ev, const struct rec_task *t)
{
	ev->u.task.pid = t->pid;
	ev->u.task.tgid = t->tgid;
	ev->u.task.mm = t->mm;
	ev->u.task.cgroup = t->cgroup;
}

struct rec_task *rec_task_get(struct rf_norm *n, uint64_t time, int32_t pid);
/* The task the recorder knows as @pid, or NULL: no discovery from /proc. */
struct rec_task *rec_task_find(const struct rf_norm *n, int32_t pid);
void rec_task_drop(struct rf_norm *n, int32_t pid);
/* A task created while recording (task_newtask): no NAME_PID, FORK says it all. */
struct rec_task *rec_task_forked(struct rf_norm *n, int32_t pid, int32_t tgid);
struct rec_mm *rec_mm_get(struct rf_norm *n, uint64_t id, int32_t tgid);
/* A new address space for @tgid (fork, exec); copies @from's mappings if given. */
uint64_t rec_mm_new(struct rf_norm *n, int32_t tgid, const struct rec_mm *from);
void rec_norm_free_tasks(struct rf_norm *n);
/* NAME_FILE for (dev, ino) from /proc/PID/fd/FD, once per file. */
void rec_name_file_from_fd(struct rf_norm *n, uint64_t time, int32_t pid, int fd,
			   uint32_t dev, uint64_t ino);

/* normalize.c */
/*
 * Re-derive a held file fault's folio (index, order, PMD) now that its adds
 * are known; a held anonymous fault is of order 0 unless its large folio went
 * on the LRU (large_inserted).
 */
void rec_fault_refolio(struct rf_norm *n, const struct rec_task *t, struct rf_event *ev,
		       uint64_t addr);

/* readahead.c: file_readahead, and file faults held until their readahead is out */
int rec_ra_add(struct rf_norm *n, struct rec_task *t, const struct rf_raw *raw, uint32_t dev,
	       uint64_t ino, uint64_t index, uint8_t order);
int rec_ra_flush(struct rf_norm *n, struct rec_task *t);
/*
 * An add of @t outside every context above; rec_ra_loose_take() -- a get_pages
 * of @t outside a read it saw begin -- writes those of (@dev, @ino) from
 * @index on as its readahead, and forgets the rest.  Any other record of @t
 * forgets them (rec_ra_loose_drop()).
 */
void rec_ra_loose_add(struct rec_task *t, const struct rf_raw *raw, uint32_t dev, uint64_t ino,
		      uint64_t index, uint8_t order);
int rec_ra_loose_take(struct rf_norm *n, struct rec_task *t, uint32_t dev, uint64_t ino,
		      uint64_t index);
static inline void rec_ra_loose_drop(struct rec_task *t)
{
	t->nr_loose = 0;
}
/* A record of another task than @pid's: the open run goes out, at about the time of its adds. */
int rec_ra_interleaved(struct rf_norm *n, int32_t pid);
int rec_fault_hold(struct rf_norm *n, struct rec_task *t, const struct rf_event *ev, uint64_t addr);
/* The fault's readahead, then its reference; @end: the fault is over too. */
int rec_fault_release(struct rf_norm *n, struct rec_task *t, bool end);
/* Release faults whose task has been silent since @before. */
int rec_fault_release_stale(struct rf_norm *n, uint64_t before);
/* End of recording: every held fault and every pending run goes out. */
int rec_ra_flush_all(struct rf_norm *n);
void rec_ra_free(struct rf_norm *n);

#endif /* REFAULT_RECORDER_NORM_H */
