/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A workload plan: what a case builds and run.c turns into events.
 *
 * A plan is a list of cgroups, files and tasks.  Each task is a short program
 * of steps (fork, attach, name, mmap, a run of page references, madvise,
 * munmap, barrier, exit); a reference step expands into one event per page
 * reference.  Cases only build plans; they never emit events themselves, so
 * timing, CPU placement and interleaving are decided in one place.
 */
#ifndef REFAULT_GEN_PLAN_H
#define REFAULT_GEN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "recorder/gen/gen.h"
#include "recorder/gen/prng.h"

#define GEN_MAX_STEPS		48
#define GEN_COMM_LEN		16
#define GEN_PATH_LEN		160

/* Identities the plan hands out; fixed so traces do not depend on the machine. */
#define GEN_ROOT_CGROUP		1u		/* kernfs ino of the hierarchy root */
#define GEN_DRIVER_PID		1000		/* the shell that runs the case */
#define GEN_FIRST_PID		1001
#define GEN_FIRST_INO		131u
#define GEN_MMAP_TOP		0x7f0000000000ull	/* mmap_base: regions go down from here */
#define GEN_MM_BASE		0xffff888100000000ull	/* struct mm_struct: one slot per tgid */
#define GEN_LOOP_DEV		((7u << 20) | 0u)	/* loop0: vm-scalability's sparse xfs image */

/* From the kernel's uapi; spelled out so the generator needs no Linux headers. */
#define GEN_PROT_READ		0x1u
#define GEN_PROT_WRITE		0x2u
#define GEN_MAP_PRIVATE		0x02u
#define GEN_MAP_ANONYMOUS	0x20u
#define GEN_MAP_HUGE_2MB	(21u << 26)
#define GEN_MADV_PAGEOUT	21u

/*
 * Nominal CPU time of each kind of work, in ns, on an idle CPU.  They only
 * need to be plausible and fixed: they set how tasks interleave.  Each
 * reference gets +-1/8 jitter from its task's PRNG.
 */
#define GEN_COST_READ_PAGE	1500u	/* dd bs=4k: one read() of a page-cache page */
#define GEN_COST_FILE_FAULT	2500u	/* usemem: a read fault on a file page + 512 loads */
#define GEN_COST_ANON_FAULT	1200u	/* a write fault: allocate, zero, map + 512 stores */
#define GEN_COST_THP_FAULT	180000u	/* a PMD fault: allocate and zero 2 MiB */
#define GEN_COST_SYSCALL	4000u	/* mmap, munmap, madvise: the call itself */
#define GEN_COST_UNMAP_PAGE	80u	/* munmap: per page unmapped and freed */
#define GEN_COST_PAGEOUT_PAGE	2000u	/* MADV_PAGEOUT: per page written to swap */
#define GEN_COST_EXEC		200000u	/* fork + exec of dd/usemem before its first access */
#define GEN_FORK_STAGGER	50000u	/* the driver forks its tasks one after another */

/*
 * usemem --random makes 512 word accesses per page.  Between two LRU scans
 * any number of them sets the same accessed bit, so a random case emits this
 * many page references per page instead (docs/generators.md).
 */
#define GEN_RAND_REFS_PER_PAGE	4u

enum gen_step_kind {
	GEN_STEP_FORK,		/* the task appears: FORK from its parent */
	GEN_STEP_ATTACH,	/* the driver moves it into its cgroup */
	GEN_STEP_NAME,		/* NAME_PID: pid, tgid, mm, cgroup, comm */
	GEN_STEP_MMAP,
	GEN_STEP_READ,		/* FILE_READ of one page per reference (dd bs=4k) */
	GEN_STEP_FILE_FAULT,	/* FILE_FAULT through the mapping made by the last MMAP */
	GEN_STEP_ANON,		/* ANON_FAULT (writes) through the last MMAP */
	GEN_STEP_MADVISE,
	GEN_STEP_MUNMAP,
	GEN_STEP_BARRIER,	/* wait for every task; then the driver emits .marker */
	GEN_STEP_EXIT,
};

struct gen_step {
	enum gen_step_kind kind;
	bool random;		/* references pick pages uniformly instead of in order */
	uint8_t order;		/* folio order of each reference */
	uint32_t file;		/* READ, file MMAP: index into plan->files */
	uint32_t prot;		/* MMAP */
	uint32_t map_flags;	/* MMAP */
	uint32_t advice;	/* MADVISE */
	uint64_t addr;		/* MMAP, MUNMAP, MADVISE, ANON: start of the region */
	uint64_t units;		/* pages, in units of (1 << order) pages, the references cover */
	uint64_t refs;		/* events the step emits: units * passes, or a random count */
	const char *marker;	/* BARRIER: marker text */
};

struct gen_task {
	int32_t pid;
	int32_t tgid;
	int32_t parent;
	uint32_t cpu;
	uint32_t cgroup;	/* index into plan->cgroups */
	bool thread;		/* shares its parent's mm */
	uint64_t mm;
	char comm[GEN_COMM_LEN];
	struct gen_step steps[GEN_MAX_STEPS];
	uint32_t nr_steps;

	/* progress, owned by run.c */
	uint64_t time;
	uint32_t share;		/* tasks sharing this task's CPU */
	uint32_t cur;		/* current step */
	uint64_t done;		/* references emitted in the current step */
	bool leader;		/* has threads: released last from a barrier, so it exits last */
	uint64_t delay;		/* ns between its fork slot and its first event */
	struct gen_prng prng;
};

struct gen_cgroup {
	uint64_t id;
	uint64_t parent;
	uint64_t limit;		/* bytes; RF_UNLIMITED: no CGROUP_LIMIT event */
	char path[GEN_PATH_LEN];
};

struct gen_file {
	uint32_t dev;
	uint64_t ino;
	uint64_t pages;
	char path[GEN_PATH_LEN];
};

/* Sizes of the synthetic host, in pages, as vm-scalability computes them. */
struct gen_host {
	uint64_t mem_pages;
	uint64_t avail_pages;	/* MemAvailable: MemTotal less 1/16 for the kernel */
	uint64_t swap_pages;
};

struct gen_plan {
	const struct rf_gen_params *params;
	struct gen_host host;
	uint32_t tasks_wanted;	/* --tasks, or the case's default */
	const char *thp_mode;

	struct gen_cgroup *cgroups;
	uint32_t nr_cgroups;
	struct gen_file *files;
	uint32_t nr_files;
	struct gen_task *tasks;
	uint32_t nr_tasks;
	size_t cap_cgroups, cap_files, cap_tasks;

	char *err;
	size_t errlen;
};

/* Plan building, for the cases (plan.c).  Errors: RF_ERR_NOMEM, RF_ERR_RANGE with plan->err set. */
void gen_plan_init(struct gen_plan *plan, const struct rf_gen_params *p, char *err, size_t errlen);
void gen_plan_release(struct gen_plan *plan);
int gen_plan_error(struct gen_plan *plan, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Returns the new cgroup's index, or a negative rf_err. */
int gen_add_cgroup(struct gen_plan *plan, const char *path, uint64_t limit_bytes);
/* Returns the new file's index, or a negative rf_err. */
int gen_add_file(struct gen_plan *plan, uint32_t dev, uint64_t pages, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * A process forked by the driver, or a thread of the process whose task is
 * plan->tasks[@leader].  Returns the task, valid until the next gen_add_*(),
 * or NULL when out of memory (plan->err set).
 */
struct gen_task *gen_add_process(struct gen_plan *plan, const char *comm, uint32_t cgroup);
struct gen_task *gen_add_thread(struct gen_plan *plan, uint32_t leader);

/* Steps (the prologue FORK/ATTACH/NAME is added by gen_add_process/thread). */
int gen_step_mmap_file(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint32_t file);
int gen_step_mmap_anon(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes,
		       uint32_t extra_flags);
int gen_step_read(struct gen_plan *plan, struct gen_task *t, uint32_t file, uint64_t passes);
/* @refs references to the @units pages of @file (through the last MMAP), in order or at random. */
int gen_step_file_faults(struct gen_plan *plan, struct gen_task *t, uint32_t file, bool random,
			 uint64_t refs);
/* @refs write references to @units folios of order @order from @addr, in order or at random. */
int gen_step_anon(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t units,
		  uint8_t order, bool random, uint64_t refs);
int gen_step_madvise(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes,
		     uint32_t advice);
int gen_step_munmap(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes);
int gen_step_barrier(struct gen_plan *plan, struct gen_task *t, const char *marker);
int gen_step_exit(struct gen_plan *plan, struct gen_task *t);

/* The mm id of thread group @tgid. */
static inline uint64_t gen_mm_of(int32_t tgid)
{
	return GEN_MM_BASE + ((uint64_t)tgid << 12);
}

/* Address of @task_nr's region of @bytes, for tasks that share an mm (2 MiB aligned). */
uint64_t gen_region_addr(uint32_t task_nr, uint64_t bytes);

/* Turn @plan into events (run.c). */
int gen_plan_run(struct gen_plan *plan, rf_gen_sink_fn sink, void *ctx);

#endif /* REFAULT_GEN_PLAN_H */
