/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-workload: `refault workload`, a workload drawn from a seed over
 * a documented space (docs/workload.md), to be recorded with `refault record`
 * and validated.
 *
 *   draw.c    inputs (seed, limit, --swap, --no-cgroups, --scale) -> the
 *             parameters; the parameters -> one line of text, or JSON
 *   run.c     prepare (the files), run (phases of forked tasks, one access
 *             stream each), clean
 *   cgroup.c  the driver's own memory cgroup and the sibling children of a
 *             phase (cgroup v1 and v2)
 *
 * The draw is a function of the inputs alone (no clock, no environment, no
 * rand(3)), and each task's syscalls are a function of the parameters: its
 * generator is seeded from (seed, phase, task).  Sizes are in bytes, page
 * operations in 4 KiB pages (RF_WORKLOAD_PAGE) whatever the host's page size.
 *
 * Conventions: 0 on success, a negative rf_err or negated errno on failure
 * with a sentence in @err naming the file or the value at fault; nothing
 * here prints, exits (but a forked task, with _exit()) or keeps global state.
 */
#ifndef REFAULT_WORKLOAD_H
#define REFAULT_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include <refault/api.h>
#include <refault/errors.h>

#define RF_WORKLOAD_PAGE	4096u		/* the unit of a page operation */
#define RF_WORKLOAD_ALIGN	(64u << 10)	/* files, regions and hot ranges are multiples */
#define RF_WORKLOAD_MIN_LIMIT	(4ull << 20)
#define RF_WORKLOAD_MAX_LIMIT	(1ull << 40)
#define RF_WORKLOAD_MAX_SCALE	100.0
#define RF_WORKLOAD_MAX_FILES	3
#define RF_WORKLOAD_MAX_PHASES	3
#define RF_WORKLOAD_MAX_TASKS	4		/* in one phase */
#define RF_WORKLOAD_BUDGET	8		/* page operations per page of the limit (x scale) */
/* enough for rf_workload_describe() of any draw, and the trace header's params */
#define RF_WORKLOAD_TEXT_MAX	4096
#define RF_WORKLOAD_ERRLEN	1024

enum rf_workload_kind {
	RF_WORKLOAD_READ_SEQ,		/* read() in chunks over the region */
	RF_WORKLOAD_PREAD_RAND,		/* pread() of one page at random pages */
	RF_WORKLOAD_MMAP_SEQ,		/* a load of a byte per page of a shared read mapping */
	RF_WORKLOAD_MMAP_RAND,		/* loads at random pages of it */
	RF_WORKLOAD_MMAP_STORE,		/* stores to a shared file mapping, in order or random */
	RF_WORKLOAD_WRITE,		/* write() in chunks over the region, fdatasync or not */
	RF_WORKLOAD_ANON,		/* stores to a private anonymous region, each page per pass */
	RF_WORKLOAD_NR_KINDS,
};

enum rf_workload_hint {
	RF_WORKLOAD_HINT_NONE,
	RF_WORKLOAD_HINT_SEQUENTIAL,	/* POSIX_FADV_ / MADV_SEQUENTIAL */
	RF_WORKLOAD_HINT_RANDOM,
	RF_WORKLOAD_HINT_WILLNEED,
	RF_WORKLOAD_HINT_HUGEPAGE,	/* MADV_HUGEPAGE, anon only */
};

/* What the draw is a function of. */
struct rf_workload_inputs {
	uint64_t seed;
	uint64_t limit;		/* bytes, RF_WORKLOAD_MIN_LIMIT..MAX_LIMIT */
	bool swap;		/* anonymous memory may exceed the limit (up to 2x) */
	bool no_cgroups;	/* never sibling child cgroups */
	double scale;		/* multiplies the operations, (0, RF_WORKLOAD_MAX_SCALE] */
};

/* One task's access stream. */
struct rf_workload_stream {
	enum rf_workload_kind kind;
	unsigned int file;		/* file kinds: index into file_size[] (f1 is 0) */
	/* the region: file kinds, a range of the file; anon, offset 0 and the region's size */
	uint64_t offset, length;
	bool whole;			/* file kinds: the region is the whole file */
	unsigned int passes;		/* sequential orders: 1..3 drawn; else 0 */
	unsigned int factor100;		/* random orders: operations per region page x 100, 50..300 */
	bool random_order;		/* mmap-store: random pages; anon: each pass in a random order */
	uint64_t nominal_ops;		/* passes or factor x region pages, before budget and scale */
	uint64_t ops;			/* page operations the task does (>= 1) */
	uint64_t chunk;			/* read-seq, write: bytes a call, 64..256 KiB */
	uint64_t sync_every;		/* write: fdatasync() after this many bytes; 0 never */
	bool hot;
	uint64_t hot_offset, hot_length;	/* in the file */
	unsigned int hot_rate100;	/* the share of operations to hot pages x 100, 10..80 */
	enum rf_workload_hint hint;	/* fadvise (read kinds) or madvise (mmap kinds, anon) */
	bool dontneed;			/* read kinds with a hint: POSIX_FADV_DONTNEED at the end */
	uint64_t seed;			/* the task's generator, from (seed, phase, task) */
};

struct rf_workload_phase {
	unsigned int nr_tasks;		/* 1..RF_WORKLOAD_MAX_TASKS, run at once */
	bool siblings;			/* each task in its own child memory cgroup */
	struct rf_workload_stream tasks[RF_WORKLOAD_MAX_TASKS];
};

struct rf_workload_params {
	struct rf_workload_inputs in;
	unsigned int nr_files;
	uint64_t file_size[RF_WORKLOAD_MAX_FILES];
	unsigned int nr_phases;
	struct rf_workload_phase phases[RF_WORKLOAD_MAX_PHASES];
	uint64_t budget;		/* RF_WORKLOAD_BUDGET x limit pages x scale */
	uint64_t nominal_ops;		/* the streams' nominal operations, summed */
	uint64_t total_ops;		/* the streams' ops, summed (<= budget, give or take rounding) */
};

/* "read-seq", "pread-rand", ... "anon"; NULL past the last. */
RF_API const char *rf_workload_kind_name(enum rf_workload_kind k);

/*
 * rf_workload_draw() - the parameters of @in's draw into *@out
 * Return: 0; RF_ERR_RANGE when a value of @in is outside the bounds above,
 * with @err naming it (as its option: "--limit 1M is outside 4M..1T").
 */
RF_API int rf_workload_draw(const struct rf_workload_inputs *in, struct rf_workload_params *out,
			    char *err, size_t errlen);

/*
 * rf_workload_describe() - @p as one line of space-separated key=value
 * (docs/workload.md, "The description"), no newline, into @buf
 * Return: the line's length; RF_ERR_TOO_LARGE if it does not fit @len
 * (RF_WORKLOAD_TEXT_MAX always does).
 */
RF_API int rf_workload_describe(const struct rf_workload_params *p, char *buf, size_t len);

/* rf_workload_json() - @p as a JSON object, the same values; NULL out of memory. */
RF_API json_object *rf_workload_json(const struct rf_workload_params *p);

/* The path of file @i (0-based) of @p in @dir: DIR/refault-workload-SEED-fN. */
RF_API int rf_workload_file_path(const struct rf_workload_params *p, const char *dir,
				 unsigned int i, char *buf, size_t len);

/*
 * rf_workload_prepare() - create @p's files in @dir: each one's contents from
 * the seed's generator, write() then fsync(); a file that exists with the
 * right size is kept, one of another size rewritten.
 * @made: if not NULL, how many files were (re)written
 */
RF_API int rf_workload_prepare(const struct rf_workload_params *p, const char *dir,
			       unsigned int *made, char *err, size_t errlen);

/*
 * rf_workload_check_files() - are @p's files in @dir, at least their size?
 * Return: 0; RF_ERR_STATE naming the first missing or short one in @err.
 */
RF_API int rf_workload_check_files(const struct rf_workload_params *p, const char *dir,
				   char *err, size_t errlen);

/*
 * rf_workload_run() - run @p on the files in @dir: the phases one after the
 * other, each one's tasks fork()ed at once and waited for; where a phase
 * draws sibling cgroups, each task in a child memory cgroup of the caller's
 * own, removed when the phase ends.
 * SIGINT, SIGTERM and SIGHUP are blocked while a phase runs (its tasks have
 * the caller's mask): they end the tasks, and reach the caller once the
 * phase's cgroups are removed.
 *
 * Return: 0 when every task exited 0; RF_ERR_STATE a file missing or short
 * (rf_workload_check_files()); RF_ERR_UNSUPPORTED the sibling cgroups could
 * not be made (no memory cgroup, no permission: @err says which); RF_ERR_IO
 * a task failed (@err: its phase, task, kind and what failed, or the signal
 * that killed it) or a cgroup could not be removed; a negated errno when a
 * pipe or fork failed.  Nothing is left in the cgroup hierarchy either way
 * (but what the kernel refuses to remove, which @err names).
 */
RF_API int rf_workload_run(const struct rf_workload_params *p, const char *dir, char *err,
			   size_t errlen);

/* rf_workload_clean() - remove @p's files from @dir; *@removed: how many there were. */
RF_API int rf_workload_clean(const struct rf_workload_params *p, const char *dir,
			     unsigned int *removed, char *err, size_t errlen);

#endif /* REFAULT_WORKLOAD_H */
