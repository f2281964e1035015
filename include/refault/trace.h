/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-trace: read and write refault traces.
 *
 * A trace is a sequence of zstd frames (docs/trace-format.md):
 *
 *   [header frame][chunk frame]...[chunk frame][index: skippable][footer: skippable]
 *
 * Each chunk is a zstd frame that decodes on its own (no state crosses chunk
 * boundaries) and carries zstd's content checksum, so chunks decode in
 * parallel and a damaged chunk loses only itself.  The index and footer are
 * skippable frames that `zstd -dc` ignores; a trace whose writer was killed
 * before writing them is still readable front to back.
 *
 * Conventions: functions return 0 or a positive count on success and a
 * negative rf_err (refault/errors.h) on failure.  Objects are opaque and
 * independent: there is no global state, and one object may be used by one
 * thread at a time.  Strings inside an event point into storage owned by the
 * reader (or batch) that produced the event and stay valid until that object
 * loads its next chunk.
 */
#ifndef REFAULT_TRACE_H
#define REFAULT_TRACE_H

#include <refault/api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <refault/errors.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RF_TRACE_FORMAT_NAME	"refault-trace"
#define RF_TRACE_VERSION_MAJOR	3
#define RF_TRACE_VERSION_MINOR	4
/* Oldest major version this library still reads (1.x traces read as before). */
#define RF_TRACE_VERSION_OLDEST_MAJOR	1

/* A cgroup limit or a size that is not set ("max"). */
#define RF_UNLIMITED		UINT64_MAX

/*
 * Event types.  Numbers are part of the file format: append only.  Readers
 * skip types they do not know (from a newer minor version).
 */
enum rf_event_type {
	RF_EV_NONE = 0,
	/* references: what the model replays */
	RF_EV_FILE_READ = 1,	/* .file: dev, ino, index, nr; stack */
	RF_EV_FILE_WRITE = 2,	/* .file: dev, ino, index, nr; order (since 3.4); stack */
	RF_EV_FILE_FAULT = 3,	/* .file: dev, ino, index, order, flags, mm; stack */
	RF_EV_ANON_FAULT = 4,	/* .anon: mm, addr, order, flags; stack */
	RF_EV_ACCESS = 5,	/* .access: key, order, flags (synthetic streams) */
	RF_EV_FILE_READAHEAD = 6,	/* .file: dev, ino, index, nr, order (since 1.1) */
	RF_EV_DAMON_REGION = 7,	/* .damon: mm, start, end, nr_accesses, max_nr_accesses, age (since 2.5) */
	RF_EV_PTE_YOUNG = 8,	/* .young: mm, start, end, dev, ino, index (since 3.2) */
	/* state */
	RF_EV_MMAP = 16,	/* .vma: mm, addr, len, prot, flags, dev, ino, pgoff */
	RF_EV_MUNMAP = 17,	/* .vma: mm, addr, len */
	RF_EV_MADVISE = 18,	/* .vma: mm, addr, len, advice */
	RF_EV_FADVISE = 19,	/* .file: dev, ino, index, nr, advice */
	RF_EV_TRUNCATE = 20,	/* .file: dev, ino, index (first page dropped), flags */
	RF_EV_FORK = 21,	/* .task: pid (child), tgid, mm (child's), flags */
	RF_EV_EXEC = 22,	/* .task: mm (new), comm */
	RF_EV_EXIT = 23,	/* .task: mm (of the exiting task) */
	RF_EV_CGROUP_MKDIR = 24,	/* .cgroup: id, parent, path */
	RF_EV_CGROUP_RMDIR = 25,	/* .cgroup: id */
	RF_EV_CGROUP_ATTACH = 26,	/* .cgroup: id, pid */
	RF_EV_CGROUP_LIMIT = 27,	/* .cgroup: id, kind, value */
	RF_EV_NAME_FILE = 28,	/* .name_file: dev, ino, size, path */
	RF_EV_NAME_PID = 29,	/* .task: pid, tgid, mm, cgroup, comm */
	RF_EV_NAME_STACK = 30,	/* .stack: id, frames (name_frame ids since 2.6), nr_frames */
	RF_EV_NAME_FRAME = 31,	/* .frame: id, dso, build_id, addr, symbol, file, line (since 2.6) */
	RF_EV_FILE_SYNC = 32,	/* .file: dev, ino, index, nr, flags (since 3.3) */
	RF_EV_FILE_WRITTEN = 33,	/* .file: dev, ino, index, nr (since 3.3) */
	/* observations: the kernel's own decisions, for validation */
	RF_EV_PAGECACHE_ADD = 48,	/* .file: dev, ino, index, order, pfn, cgroup */
	RF_EV_PAGECACHE_DEL = 49,	/* .file: dev, ino, index, order, pfn */
	RF_EV_LRU_ADD = 50,	/* .lru: pfn, order, lru, cgroup */
	RF_EV_LRU_ACTIVATE = 51,	/* .lru: pfn, order */
	RF_EV_RECLAIM = 52,	/* .reclaim */
	RF_EV_COUNTERS = 53,	/* .counters */
	/* meta */
	RF_EV_LOST = 96,	/* .lost: cpu, count, t_begin, t_end */
	RF_EV_MARKER = 97,	/* .marker: text */
	RF_EV_END = 98,		/* .end: nr_events, nr_lost */
	RF_EV_TYPE_MAX = 128
};

enum rf_event_class {
	RF_CLASS_UNKNOWN = 0,
	RF_CLASS_REFERENCE,
	RF_CLASS_STATE,
	RF_CLASS_OBSERVATION,
	RF_CLASS_META,
};

/* .flags bits of references */
#define RF_REF_WRITE		0x01u	/* the access wrote */
#define RF_REF_ANON		0x02u	/* RF_EV_ACCESS: the key names an anonymous page */
#define RF_REF_SEQ		0x04u	/* VM_SEQ_READ mapping (fault) */
#define RF_REF_RAND		0x08u	/* VM_RAND_READ mapping (fault) */
#define RF_REF_PMD		0x10u	/* mapped by a PMD (huge page) */
#define RF_REF_AROUND		0x20u	/* file_fault: mapped by fault-around, not the faulting folio */

/* .flags of RF_EV_TRUNCATE */
#define RF_TRUNC_UNLINK		0x01u	/* the last link went: drop shadows too */

/*
 * .flags of RF_EV_FILE_SYNC: which call started the writeback of the dirty
 * pages named.  0 is fsync(); a range of nr 0 runs to the end of the file.
 */
#define RF_SYNC_DATA		0x01u	/* fdatasync() */
#define RF_SYNC_RANGE		0x02u	/* sync_file_range(SYNC_FILE_RANGE_WRITE): the range only */
#define RF_SYNC_MSYNC		0x04u	/* msync(MS_SYNC) of a shared file mapping: the range only */
#define RF_SYNC_FS		0x08u	/* syncfs(): every file of device dev (ino 0) */
#define RF_SYNC_ALL		0x10u	/* sync(): every file (dev and ino 0) */

/* .flags of RF_EV_FORK */
#define RF_FORK_THREAD		0x01u	/* CLONE_VM: child shares the parent's mm */

/* .kind of RF_EV_CGROUP_LIMIT: which knob */
enum rf_limit_kind {
	RF_LIMIT_MEMORY = 0,	/* v1 memory.limit_in_bytes, v2 memory.max */
	RF_LIMIT_MEMSW = 1,	/* v1 memory.memsw.limit_in_bytes */
	RF_LIMIT_SWAP = 2,	/* v2 memory.swap.max */
	RF_LIMIT_HIGH = 3,	/* v2 memory.high */
	RF_LIMIT_LOW = 4,	/* v2 memory.low */
	RF_LIMIT_MIN = 5,	/* v2 memory.min */
	RF_LIMIT_SOFT = 6,	/* v1 memory.soft_limit_in_bytes */
	RF_LIMIT_SWAPPINESS = 7,	/* v1 memory.swappiness (value 0..200) */
	RF_LIMIT_KIND_MAX
};

/* .lru of RF_EV_LRU_ADD: the kernel's enum lru_list */
enum rf_lru_list {
	RF_LRU_INACTIVE_ANON = 0,
	RF_LRU_ACTIVE_ANON = 1,
	RF_LRU_INACTIVE_FILE = 2,
	RF_LRU_ACTIVE_FILE = 3,
	RF_LRU_UNEVICTABLE = 4,
};

/* .kind of RF_EV_RECLAIM */
enum rf_reclaim_kind {
	RF_RECLAIM_KSWAPD = 0,
	RF_RECLAIM_DIRECT = 1,
	RF_RECLAIM_MEMCG = 2,	/* limit reclaim */
	RF_RECLAIM_PAGEOUT = 3,	/* reclaim_pages(): MADV_PAGEOUT, proactive */
};

/* .list of RF_EV_RECLAIM (since 2.1): the LRU list the scan took its folios from */
enum rf_reclaim_list {
	RF_RECLAIM_LIST_UNKNOWN = 0,	/* a trace older than 2.1: not said */
	RF_RECLAIM_LIST_INACTIVE = 1,	/* mm_vmscan_lru_shrink_inactive */
	RF_RECLAIM_LIST_ACTIVE = 2,	/* mm_vmscan_lru_shrink_active */
	RF_RECLAIM_LIST_ANY = 3,	/* mm_vmscan_reclaim_pages: the folios given, either list */
};

/* .source of RF_EV_COUNTERS */
enum rf_counter_source {
	RF_COUNTERS_VMSTAT = 0,		/* /proc/vmstat */
	RF_COUNTERS_MEMCG_STAT = 1,	/* memory.stat of .cgroup */
	RF_COUNTERS_MEMCG_EVENTS = 2,	/* per-memcg counters summed from memcg tracepoints */
	RF_COUNTERS_LRU_GEN = 3,	/* the multi-gen LRU of .cgroup from debugfs (since 2.4) */
	RF_COUNTERS_RECORDER = 4,	/* the recorder's own: stacks sampled, lost, unwound (since 2.6) */
};

struct rf_counter {
	const char *name;
	uint64_t value;
};

/*
 * One event.  @time is nanoseconds on the trace clock (header .clock), @cpu
 * the CPU it happened on, @pid the thread that caused it (0 if none).
 * Which union member is valid follows from @type (see enum rf_event_type).
 */
struct rf_event {
	uint64_t time;
	uint32_t cpu;
	int32_t pid;
	uint16_t type;
	/*
	 * Since 2.6: the name_stack id of the user call stack that made the
	 * reference (file_read/write/fault, anon_fault); 0 = none recorded.
	 */
	uint32_t stack;
	union {
		struct {
			uint64_t ino;
			uint64_t index;		/* first page index */
			uint64_t nr;		/* pages in the range (read, write, readahead, fadvise) */
			uint64_t mm;		/* file fault: address space */
			uint64_t pfn;		/* page-cache observations */
			uint64_t cgroup;	/* page-cache add: charged cgroup id */
			uint32_t dev;		/* kernel s_dev encoding: major << 20 | minor */
			uint8_t order;		/* folio order (0 = one page) */
			uint8_t flags;		/* RF_REF_* or RF_TRUNC_* */
			uint8_t advice;		/* fadvise advice (POSIX_FADV_*) */
		} file;
		struct {
			uint64_t mm;
			uint64_t addr;		/* byte address */
			uint8_t order;
			uint8_t flags;		/* RF_REF_* */
		} anon;
		struct {
			uint64_t mm;
			uint64_t start;		/* byte addresses: [start, end) */
			uint64_t end;
			uint32_t nr_accesses;	/* samples that found the region's page accessed */
			uint32_t max_nr_accesses; /* samples per aggregation (aggr_us / sample_us) */
			uint32_t age;		/* aggregations the region kept its access pattern */
		} damon;
		/*
		 * Mapped pages of address space @mm, [start, end) in bytes, that a
		 * scan found accessed through their page table since the scan before
		 * (idle page tracking); the scan moved each accessed bit to the folio.
		 * Page-cache pages of file (@dev, @ino) from page @index on, or
		 * anonymous ones (@ino 0) at their addresses.
		 */
		struct {
			uint64_t mm;
			uint64_t start;
			uint64_t end;
			uint64_t ino;
			uint64_t index;
			uint32_t dev;
		} young;
		struct {
			uint64_t key;		/* page identity in a flat space */
			uint8_t order;
			uint8_t flags;		/* RF_REF_* */
		} access;
		struct {
			uint64_t mm;
			uint64_t addr;
			uint64_t len;
			uint64_t ino;		/* mmap of a file; 0 for anonymous */
			uint64_t pgoff;		/* mmap: file offset in pages */
			uint32_t prot;		/* mmap: PROT_* */
			uint32_t flags;		/* mmap: MAP_* */
			uint32_t dev;
			uint32_t advice;	/* madvise: MADV_* */
		} vma;
		struct {
			int32_t pid;		/* fork: child; name_pid: the named pid */
			int32_t tgid;
			uint64_t mm;
			uint64_t cgroup;	/* name_pid: its memory cgroup id */
			uint32_t flags;		/* RF_FORK_* */
			const char *comm;	/* exec, name_pid; may be NULL */
		} task;
		struct {
			uint64_t id;
			uint64_t parent;	/* mkdir */
			uint64_t value;		/* limit: bytes, RF_UNLIMITED for none */
			int32_t pid;		/* attach */
			uint32_t kind;		/* limit: enum rf_limit_kind */
			const char *path;	/* mkdir: path below the hierarchy root */
		} cgroup;
		struct {
			uint64_t ino;
			uint64_t size;		/* bytes */
			uint32_t dev;
			const char *path;
		} name_file;
		struct {
			uint64_t id;
			/*
			 * innermost first: name_frame ids since 2.6; before,
			 * instruction pointers (no writer produced any)
			 */
			const uint64_t *frames;
			uint32_t nr_frames;
		} stack;
		struct {
			uint64_t id;		/* > 0, unique in the trace */
			uint64_t addr;		/* in the ELF file's address space (its symbols') */
			uint32_t line;		/* 0 = unknown */
			const char *dso;	/* the mapped file's path; NULL: not file-backed */
			const char *build_id;	/* lowercase hex NT_GNU_BUILD_ID; NULL: none */
			const char *symbol;	/* NULL: not found */
			const char *file;	/* source file; NULL: no line information */
		} frame;
		struct {
			uint64_t pfn;
			uint64_t cgroup;
			uint8_t order;
			uint8_t lru;		/* enum rf_lru_list */
		} lru;
		struct {
			uint64_t cgroup;	/* 0 = global */
			uint64_t nr_scanned;
			uint64_t nr_reclaimed;
			uint64_t nr_activated;
			uint64_t nr_deactivated;
			uint32_t kind;		/* enum rf_reclaim_kind */
			uint32_t nid;
			int32_t priority;
			uint8_t file;		/* 1 = file LRU, 0 = anon LRU */
			uint8_t list;		/* enum rf_reclaim_list (since 2.1) */
		} reclaim;
		struct {
			uint64_t cgroup;	/* memcg sources */
			const struct rf_counter *entries;
			uint32_t nr;
			uint32_t source;	/* enum rf_counter_source */
		} counters;
		struct {
			uint64_t count;
			uint64_t t_begin;
			uint64_t t_end;
			uint32_t cpu;		/* the CPU whose events were lost */
		} lost;
		struct {
			const char *text;
		} marker;
		struct {
			uint64_t nr_events;	/* events in the trace, this one excluded */
			uint64_t nr_lost;
		} end;
	} u;
};

/* Limits a reader enforces on what it reads off disk. */
#define RF_MAX_STRING		4096u		/* bytes in one string */
#define RF_MAX_COUNTERS		4096u		/* entries in one counters event */
#define RF_MAX_FRAMES		512u		/* frames in one stack */
#define RF_MAX_CHUNK_BYTES	(4u << 20)	/* decompressed chunk */
#define RF_MAX_CHUNK_EVENTS	(1u << 18)	/* events in one chunk (format 3: 4x the default) */
#define RF_MAX_HEADER_BYTES	(1u << 20)	/* decompressed header */
#define RF_MAX_TIME_RESOLUTION	1000000000ull	/* ns: event times to the second at the coarsest */
#define RF_MAX_CPUS		16384u		/* header host.cpus (Linux's NR_CPUS is at most 8192) */
#define RF_MAX_NUMA_NODES	1024u		/* header host.numa_nodes (MAX_NUMNODES, NODES_SHIFT 10) */
#define RF_MAX_PAGE_SIZE	(1u << 30)	/* header host.page_size: 0 (unknown) or a power of two */

struct rf_trace_host {
	char hostname[256];
	char kernel_release[256];
	char arch[32];
	char thp_mode[32];	/* "always", "madvise", "never", "" unknown */
	/*
	 * Since 2.3: /sys/kernel/mm/lru_gen/enabled as the kernel printed it
	 * ("0x0007": the multi-gen LRU on; "0x0000": off, the classic LRU), ""
	 * when the kernel has no multi-gen LRU (or the trace is older).
	 */
	char lru_gen[32];
	/*
	 * Since 2.3: the memory cgroup hierarchy recorded in: 1 (v1 "memory"
	 * controller), 2 (cgroup2 with the memory controller), 0 none/unknown;
	 * and where it was mounted.
	 */
	uint32_t cgroup_version;
	char cgroup_mount[256];
	uint64_t mem_bytes;
	uint64_t swap_bytes;
	uint32_t page_size;
	uint32_t cpus;
	uint32_t numa_nodes;
	/*
	 * Since 2026-12-07 (3.4): what a read fault of anonymous memory never
	 * written did on the recording kernel, as refault record probed it
	 * (RF_ZERO_PAGE_*); 0 where the trace does not say.
	 */
	uint32_t zero_page;
};

#define RF_ZERO_PAGE_UNKNOWN	0u
#define RF_ZERO_PAGE_MAPS	1u	/* do_anonymous_page() maps the shared zero page */
#define RF_ZERO_PAGE_NONE	2u	/* it allocates a page: a kernel that forbids the zero page */

struct rf_trace_header {
	uint32_t version_major;
	uint32_t version_minor;
	char producer[64];		/* "refault record", "refault gen", ... */
	char producer_version[32];
	uint64_t created;		/* seconds since the epoch */
	char clock[16];			/* "mono" (recorder), "synthetic" (gen) */
	/*
	 * Event times are multiples of this many ns (since 2.0): the writer rounds
	 * each time down to it.  1 (the default of rf_trace_header_init()) keeps
	 * times exact; 1.x traces read as 1.
	 */
	uint64_t time_resolution;
	struct rf_trace_host host;
	bool synthetic;
	char sources[RF_MAX_STRING];	/* comma-separated event sources */
	char scope[256];		/* "-a", "-G /grp", "-p 123", "-- cmd" */
	/*
	 * The memory cgroup recorded (since 2.2), as a path below the
	 * hierarchy's root ("/grp", "/user.slice/refault-record-123" of
	 * --memcg-limit); empty when the scope is not one cgroup (-a, -p).
	 */
	char cgroup[RF_MAX_STRING];
	char command[1024];		/* the producer's command line */
	char params[RF_MAX_STRING];	/* generator parameters, "key=value ..." */
	/*
	 * What the pfn of pagecache_add/del and lru_add/activate is (since
	 * 3.1): "kernel", the kernel's page frame number; "ids", folio ids
	 * numbered by the producer (docs/trace-format.md, "Folio ids"); ""
	 * not said (traces before 3.1: the kernel's).  Readers only join on it.
	 */
	char pfns[16];
};

/**
 * rf_trace_header_init() - fill @h with this format's version and empty fields
 * @h: header to initialise
 * @producer: producer name, e.g. "refault gen"
 */
RF_API void rf_trace_header_init(struct rf_trace_header *h, const char *producer);

/**
 * rf_trace_header_fill_host() - describe the running host in @h->host
 * (uname, page size, CPUs, memory, swap, NUMA nodes, THP mode).
 */
RF_API void rf_trace_header_fill_host(struct rf_trace_header *h);

/**
 * rf_trace_host_lru_gen_on() - was the multi-gen LRU on when @host recorded?
 *
 * True when @host->lru_gen reads as a number with the core bit (0x0001,
 * LRU_GEN_CORE) set; false for "0x0000", for "" (no multi-gen LRU, or a
 * trace older than 2.3) and for anything unreadable.
 */
RF_API bool rf_trace_host_lru_gen_on(const struct rf_trace_host *host);

/* Names: "file_read", "anon_fault", ...; NULL / RF_EV_NONE when unknown. */
RF_API const char *rf_event_type_name(unsigned int type);
RF_API unsigned int rf_event_type_from_name(const char *name);
RF_API enum rf_event_class rf_event_class(unsigned int type);
RF_API const char *rf_event_class_name(enum rf_event_class c);
RF_API const char *rf_limit_kind_name(unsigned int kind);
RF_API unsigned int rf_limit_kind_from_name(const char *name);	/* RF_LIMIT_KIND_MAX if unknown */

/*
 * How the pages an event names are given (struct rf_event_type_info.pages);
 * rf_event_pages() reads them so.
 */
enum rf_page_keys {
	RF_PAGES_NONE = 0,	/* no page, or only a pfn (lru_*) */
	/*
	 * .file: dev, ino; pages index .. index + nr - 1, in folios of 2^order
	 * (readahead's; read and write carry no order: 0).  nr 0 is the one
	 * page at index, as the model reads it, or, for a type whose
	 * .nr0_to_end is set (fadvise: POSIX's len 0), every page from index on.
	 */
	RF_PAGES_FILE_RANGE,
	RF_PAGES_FILE_FOLIO,	/* .file: dev, ino; the folio of 2^order pages holding index */
	RF_PAGES_ANON,		/* .anon: mm; the folio of 2^order pages holding byte addr */
	RF_PAGES_ACCESS,	/* .access: the folio of 2^order keys holding key (flat space) */
	RF_PAGES_FILE_TAIL,	/* .file: dev, ino; every page from index on (truncate) */
};

/* What `refault trace slice` keeps of an event before its time range (.slice). */
enum rf_slice_role {
	RF_SLICE_WINDOW = 0,	/* nothing: the event counts only inside the range */
	RF_SLICE_STATE,		/* it names or sets up something: kept, whatever is selected */
	RF_SLICE_TASK_STATE,	/* a task's state: kept when the task is selected (--pid, --cgroup) */
};

/*
 * What a consumer needs to know of an event type, beyond its fields, so that
 * it reads this table instead of a switch of its own.  An *_off member is the
 * offset in struct rf_event of a member of the union (offsetof(struct
 * rf_event, u.task.pid)), or 0 when the type has none (no member is at 0).
 */
struct rf_event_type_info {
	const char *name;		/* as rf_event_type_name() */
	enum rf_event_class cls;	/* as rf_event_class() */
	/*
	 * int32_t: the pid the event is about besides @pid, the thread that
	 * caused it: fork's child, name_pid's and cgroup_attach's target.
	 */
	size_t pid_off;
	/*
	 * uint64_t: the memory cgroup the event is charged to or names
	 * (pagecache_add, lru_add, reclaim, counters, cgroup_*, name_pid).
	 * counters: only for the memcg sources (.source 1 to 3, not RF_COUNTERS_VMSTAT
	 * or RF_COUNTERS_RECORDER).
	 */
	size_t cgroup_off;
	enum rf_page_keys pages;
	/*
	 * The task read or wrote those pages: a request, as a cache simulator
	 * sees it (file_read/write/fault, anon_fault, access; file_readahead
	 * and the observations only name pages).
	 */
	bool touches;
	enum rf_slice_role slice;
	/*
	 * The task wrote the pages with write(): it may fill pages it never
	 * found in the page cache (file_write).  A fault or an access that
	 * wrote says so in its flags (RF_REF_WRITE) and still found its page.
	 */
	bool writes;
	/* A range of nr 0 runs to the end of the file (fadvise); see RF_PAGES_FILE_RANGE. */
	bool nr0_to_end;
	/*
	 * The event carries the user call stack of the reference (.stack,
	 * since 2.6): file_read, file_write, file_fault, anon_fault.
	 */
	bool stack;
};

/* The table entry of @type; NULL for a type this library does not know. */
RF_API const struct rf_event_type_info *rf_event_type_info(unsigned int type);

/*
 * Page identity.  A page is an index in a space: a file's page cache (its
 * page indices), an address space's anonymous memory (its virtual page
 * numbers, addr >> page shift) or one of the two flat key spaces of access
 * events (anonymous when RF_REF_ANON, else file pages, kept apart as the
 * model keeps them).  Every reader that needs one 64-bit name per page
 * (the reference policies, the warm stage, the kernel's account, report)
 * names it rf_page_key(rf_page_space_key(space), index).
 */
enum rf_page_space_kind {
	RF_SPACE_NONE = 0,
	RF_SPACE_FILE,		/* .dev, .id = ino */
	RF_SPACE_ANON,		/* .id = mm */
	RF_SPACE_ACCESS_FILE,	/* access keys without RF_REF_ANON; .id 0 */
	RF_SPACE_ACCESS_ANON,	/* access keys with RF_REF_ANON; .id 0 */
};

struct rf_page_space {
	enum rf_page_space_kind kind;
	uint32_t dev;		/* RF_SPACE_FILE: the kernel's s_dev encoding */
	/*
	 * RF_SPACE_FILE: the file's generation: 0 as a trace names it; a
	 * reader that follows an inode number's reuse (its last link gone,
	 * the number given to a new file) counts it up so that the new file's
	 * pages are not the old one's.
	 */
	uint32_t gen;
	uint64_t id;		/* the ino, the mm; 0 for the access spaces */
};

/*
 * rf_page_space_key() - the space's part of its pages' keys
 *
 * A hash of (kind, dev, id, gen) with the splitmix64 finaliser; the access
 * spaces' are constants.  Distinct spaces collide with probability about
 * n^2 / 2^65 (n spaces).
 */
RF_API uint64_t rf_page_space_key(const struct rf_page_space *s);

/*
 * rf_page_key() - the key of page @index of the space of @space_key
 *
 * splitmix64's finaliser of (@space_key ^ @index): a bijection on the
 * indices of one space, so two pages of one space never share a key.  The
 * keys are results (which pages a reference policy counts as one) and do
 * not change: tests/refpolicy/test-refpolicy-pagekey pins some.
 */
RF_API uint64_t rf_page_key(uint64_t space_key, uint64_t index);

/* The pages one event names, as rf_event_pages() gives them. */
struct rf_pages {
	struct rf_page_space space;
	uint64_t space_key;	/* rf_page_space_key(&space) */
	/*
	 * first .. last (inclusive, never wrapping: a range that would run past
	 * 2^64 - 1 stops there), nr = last - first + 1 (UINT64_MAX for the
	 * whole index space).  A folio: first aligned down to 2^order, nr =
	 * 2^order (UINT64_MAX from order 64).
	 */
	uint64_t first, last, nr;
	uint8_t order;		/* the folio order the pages come in, as the event gives it */
	bool folio;		/* the pages are one folio (first, order), not a range */
	bool touches;		/* the task used them (struct rf_event_type_info.touches) */
	/*
	 * The task found them in the page cache (or had them read in): a
	 * touch that is not a write() (.writes).  Readahead, the observations
	 * and file_write only name pages.
	 */
	bool reads;
	bool write;		/* the task wrote them: .writes, or RF_REF_WRITE in .flags */
};

/* The key of @p's page @i (of first + @i): rf_page_key(@p->space_key, @p->first + @i). */
RF_API uint64_t rf_pages_key(const struct rf_pages *p, uint64_t i);

/**
 * rf_event_pages() - which pages @ev names, from its type's table entry
 * @page_shift: log2 of the page size (12 for 4 KiB), for an anonymous
 *              fault's byte address; file and access pages do not use it
 * @out: filled (zeroed, RF_SPACE_NONE, when the event names no page)
 *
 * Return: true when @ev names pages: a file range, folio or tail
 * (read, write, readahead, fadvise, truncate, fault, pagecache_add/del),
 * an anonymous folio (anon_fault), access keys.  No switch on the type:
 * a new type that names pages says how in its table entry.
 */
RF_API bool rf_event_pages(const struct rf_event *ev, unsigned int page_shift,
			   struct rf_pages *out);

typedef int (*rf_page_folio_cb)(uint64_t key, unsigned int order, void *ctx);

/*
 * Bounds a reader puts on a file's pages (the replay's reference policies
 * put the model's: no page at or past MAX_LFS_FILESIZE, a read or write of
 * at most MAX_RW_COUNT bytes).
 */
struct rf_page_bounds {
	uint64_t end;		/* no file page at or past this index (0: no bound) */
	uint64_t max_range;	/* a file range names at most this many pages (0: no bound) */
};

/**
 * rf_event_folios() - each folio of the pages @ev touches, with its key
 * @bounds: NULL, or bounds on a file's pages: a page at or past .end names
 *          nothing, a range stops at .max_range pages and before .end (a
 *          folio is whole)
 *
 * Calls @cb for each folio of 2^order pages that meets the pages
 * rf_event_pages() gives when they are touched (.touches), in index order,
 * with its key (rf_page_key() of its first, aligned, index) and the order:
 * a range of order 0 is one call per page, a folio one call.  A non-zero
 * return from @cb stops the walk and is returned; otherwise 0 (also when
 * @ev touches no page).  One call does what rf_event_pages() and a walk
 * would: the reference policies ask it of every reference.
 */
RF_API int rf_event_folios(const struct rf_event *ev, unsigned int page_shift,
			   const struct rf_page_bounds *bounds, rf_page_folio_cb cb, void *ctx);

/* ---------------------------------------------------------------- writer */

struct rf_trace_writer;
struct rf_event_batch;

struct rf_writer_options {
	int level;			/* zstd level; 0 = default (3) */
	uint32_t chunk_events;		/* events per chunk; 0 = default (65536); at most RF_MAX_CHUNK_EVENTS */
	uint32_t chunk_bytes;		/* encoded bytes per chunk; 0 = default (1 MiB) */
	bool no_index;			/* leave the index out (tests) */
	/*
	 * The format to write: 0 = this library's (RF_TRACE_VERSION_MAJOR),
	 * 2 = format 2.6, which refault 2.x reads (events one msgpack array
	 * each: larger and slower to decode than 3.0's columns).
	 */
	uint32_t version_major;
	/*
	 * Folio ids in place of the kernel's pfns (rf_trace_folio_ids_apply()
	 * on every event appended, in order), and the header's pfns "ids".
	 * rf_trace_writer_copy_chunk() is then refused (its events are copied
	 * as they are).
	 */
	bool folio_ids;
};

/**
 * rf_trace_writer_open() - create @path and write the header frame
 * @out: the new writer
 * @path: file to create (truncated if it exists)
 * @h: the header; copied
 * @opts: NULL for defaults
 *
 * Every chunk reaches the file in one write() as soon as it is full, so a
 * writer that is killed leaves every completed chunk readable.
 */
RF_API int rf_trace_writer_open(struct rf_trace_writer **out, const char *path,
			 const struct rf_trace_header *h,
			 const struct rf_writer_options *opts);

/* As rf_trace_writer_open() on an open file descriptor (not closed by close). */
RF_API int rf_trace_writer_fdopen(struct rf_trace_writer **out, int fd,
			   const struct rf_trace_header *h,
			   const struct rf_writer_options *opts);

/**
 * rf_trace_writer_append() - add one event
 *
 * The event's time is written rounded down to a multiple of the header's
 * time_resolution.  Returns RF_ERR_INVAL for a malformed event (unknown type,
 * string over RF_MAX_STRING, ...) and leaves the trace as it was.
 */
RF_API int rf_trace_writer_append(struct rf_trace_writer *w, const struct rf_event *ev);

/* End the current chunk now and write it out (no-op when it is empty). */
RF_API int rf_trace_writer_flush(struct rf_trace_writer *w);

/**
 * rf_trace_writer_close() - flush, write the index and footer, free @w
 *
 * @w is freed whatever the result.  NULL is accepted.
 */
RF_API int rf_trace_writer_close(struct rf_trace_writer *w);

/*
 * Folio ids in place of the kernel's pfns (docs/trace-format.md, "Folio ids").
 *
 * pagecache_add, pagecache_del, lru_add and lru_activate carry the pfn of
 * their folio; a trace's readers only join the events of one folio on it.
 * Which pfn the page allocator handed out is the machine's history, not the
 * workload's, and costs a recorded trace half its bytes.  An id numbers the
 * folios instead, 1, 2, 3 ... in the order they are first seen, so that the
 * columns code as small steps.  Applied to events in trace order:
 *
 *  - pagecache_add: a new folio in the page cache, always a new id;
 *  - pagecache_del, lru_add, lru_activate: the id of the folio at that pfn,
 *    a new one if none is known (a folio from before the recording, an
 *    anonymous one); pagecache_del then forgets the pfn;
 *  - a pfn of 0 (none known) stays 0; other events are left alone.
 *
 * Two events name the same id exactly when they named the same pfn, except
 * across a page-cache delete: a folio that takes a deleted folio's pfn gets
 * an id of its own, which no reader's join mistakes for the old one.
 * Memory: one entry a folio cached or a pfn seen outside the page cache
 * (32 to 96 bytes an entry).  The writer does this itself with
 * rf_writer_options.folio_ids; these are for other outputs (JSON lines).
 */
struct rf_trace_folio_ids;

/* A new numbering, from id 1; NULL out of memory. */
RF_API struct rf_trace_folio_ids *rf_trace_folio_ids_new(void);
/* @ev's pfn replaced by its folio id; 0, or RF_ERR_NOMEM with @ev as it was. */
RF_API int rf_trace_folio_ids_apply(struct rf_trace_folio_ids *ids, struct rf_event *ev);
/* NULL is accepted. */
RF_API void rf_trace_folio_ids_free(struct rf_trace_folio_ids *ids);

/**
 * rf_trace_writer_copy_chunk() - append a chunk frame verbatim (recover, slice)
 * @frame: a whole chunk frame as read by rf_trace_reader_next_frame()
 * @decoded: the same frame decoded (rf_chunk_decode()), for the index
 *
 * Ends the chunk being filled first, so event order is kept.
 */
RF_API int rf_trace_writer_copy_chunk(struct rf_trace_writer *w, const void *frame, size_t size,
			       const struct rf_event_batch *decoded);

/* Free @w without writing the index (as if killed). */
RF_API void rf_trace_writer_abandon(struct rf_trace_writer *w);

struct rf_writer_stats {
	uint64_t events;
	uint64_t chunks;
	uint64_t bytes;			/* bytes written to the file so far */
	uint64_t encoded_bytes;		/* msgpack bytes before compression */
};
RF_API void rf_trace_writer_stats(const struct rf_trace_writer *w, struct rf_writer_stats *st);

/* Last error in words, with what and where; "" if none. */
RF_API const char *rf_trace_writer_errmsg(const struct rf_trace_writer *w);

/* ---------------------------------------------------------------- reader */

struct rf_trace_reader;

/* What the index says of one chunk (or what a scan found). */
struct rf_chunk_info {
	uint64_t offset;		/* of the chunk's zstd frame in the file */
	uint64_t size;			/* compressed bytes of the frame */
	uint64_t seq;			/* chunk number, from 0 */
	uint64_t t_first;
	uint64_t t_last;
	uint64_t nr_events;
	uint64_t nr_refs;		/* of which references */
};

#define RF_READ_SKIP_DAMAGED	0x01u	/* report damage, then go on with the next chunk */
#define RF_READ_NO_INDEX	0x02u	/* ignore the index, walk the frames */

/**
 * rf_trace_reader_open() - open a trace and read its header (and index)
 * @out: the new reader; on a header error it is still returned (non-NULL)
 *       when the file could be opened, so that rf_trace_reader_errmsg()
 *       can say what was wrong; free it with rf_trace_reader_close()
 * @flags: RF_READ_*
 */
RF_API int rf_trace_reader_open(struct rf_trace_reader **out, const char *path, unsigned int flags);
RF_API void rf_trace_reader_close(struct rf_trace_reader *r);

RF_API const struct rf_trace_header *rf_trace_reader_header(const struct rf_trace_reader *r);

/* Detail of the last error: "chunk 12 at offset 123456: checksum mismatch". */
RF_API const char *rf_trace_reader_errmsg(const struct rf_trace_reader *r);

/**
 * rf_trace_reader_next() - the next event in file order
 *
 * Return: 1 with *@ev filled, 0 at the end, negative on error.  After an
 * error, and with RF_READ_SKIP_DAMAGED, the next call goes on with the
 * chunk after the damaged one; without it the reader stays failed.
 */
RF_API int rf_trace_reader_next(struct rf_trace_reader *r, struct rf_event *ev);

/**
 * rf_trace_reader_chunks() - the chunk list
 *
 * From the index when the trace has one; otherwise (or with
 * RF_READ_NO_INDEX) built by walking the frames, which stops at the first
 * damage: rf_trace_reader_damage() then says where.
 * Return: number of chunks, *@chunks owned by @r.
 */
RF_API long rf_trace_reader_chunks(struct rf_trace_reader *r, const struct rf_chunk_info **chunks);

/* True when the trace ended with a valid index and footer. */
RF_API bool rf_trace_reader_has_index(const struct rf_trace_reader *r);

/*
 * Why the index was not used ("" when it was, or when there is none to
 * find), e.g. "index checksum mismatch: walking the frames instead".
 */
RF_API const char *rf_trace_reader_index_problem(const struct rf_trace_reader *r);

/*
 * After a walk of the frames (rf_trace_reader_chunks() without an index):
 * where it stopped on damage (NULL if it reached the end cleanly), and the
 * offset just past the last good chunk, which is where recovery cuts.
 */
RF_API const char *rf_trace_reader_damage(const struct rf_trace_reader *r);
RF_API uint64_t rf_trace_reader_good_end(const struct rf_trace_reader *r);
RF_API uint64_t rf_trace_reader_file_size(const struct rf_trace_reader *r);

/**
 * rf_trace_reader_seek_time() - position before the first event at or after @t
 * (by the chunk list, then by skipping within the chunk).
 */
RF_API int rf_trace_reader_seek_time(struct rf_trace_reader *r, uint64_t t);

/* Position at chunk @seq (an index into rf_trace_reader_chunks()). */
RF_API int rf_trace_reader_seek_chunk(struct rf_trace_reader *r, uint64_t seq);

struct rf_reader_stats {
	uint64_t chunks_read;
	uint64_t chunks_damaged;	/* skipped with RF_READ_SKIP_DAMAGED */
	uint64_t events;		/* returned */
	uint64_t events_skipped;	/* in damaged chunks, as far as the index knows */
	uint64_t unknown_skipped;	/* events of unknown types skipped */
	uint64_t bytes_read;
};
RF_API void rf_trace_reader_stats(const struct rf_trace_reader *r, struct rf_reader_stats *st);

/* ------------------------------------------------- raw frames and batches */

/*
 * For parallel decoding: one thread pulls raw chunk frames off the file in
 * order (cheap), others decode them into batches.
 */
struct rf_frame {
	const void *data;		/* the whole zstd frame; valid until the next call */
	size_t size;
	uint64_t offset;
	uint64_t ordinal;		/* chunk frames seen before this one */
};

/**
 * rf_trace_reader_next_frame() - the next chunk frame, not decoded
 * Return: 1, 0 at the end, negative on error (damage found while framing).
 */
RF_API int rf_trace_reader_next_frame(struct rf_trace_reader *r, struct rf_frame *f);

/* A decoded chunk: its events and the storage their strings point into. */
struct rf_event_batch {
	struct rf_event *events;
	size_t nr;
	uint64_t seq;			/* chunk number written in the chunk */
	uint64_t offset;		/* of the frame it came from */
	uint64_t unknown_skipped;
	void *priv_;			/* storage; do not touch */
};

RF_API void rf_event_batch_init(struct rf_event_batch *b);
RF_API void rf_event_batch_release(struct rf_event_batch *b);

/**
 * rf_event_batch_summary() - what the index says of a chunk, from its events
 * @ci: filled: seq (the batch's), nr_events, nr_refs, t_first and t_last
 *      (UINT64_MAX and 0 for an empty batch); offset and size, which the
 *      frame gives, are left as they were
 *
 * The writer's index entries are computed so, which makes this the check of
 * an index entry against its chunk, and the time range of a decoded chunk.
 */
RF_API void rf_event_batch_summary(const struct rf_event_batch *b, struct rf_chunk_info *ci);

struct rf_chunk_decoder;
RF_API int rf_chunk_decoder_new(struct rf_chunk_decoder **out);
RF_API void rf_chunk_decoder_free(struct rf_chunk_decoder *d);

/**
 * rf_chunk_decode() - decompress, verify and decode one chunk frame into @b
 * @offset: file offset of the frame, for error messages
 *
 * Reuses @b's storage.  On error, rf_chunk_decoder_errmsg() says what.
 */
RF_API int rf_chunk_decode(struct rf_chunk_decoder *d, const void *frame, size_t size,
		    uint64_t offset, struct rf_event_batch *b);
RF_API const char *rf_chunk_decoder_errmsg(const struct rf_chunk_decoder *d);

#ifdef __cplusplus
}
#endif

#endif /* REFAULT_TRACE_H */
