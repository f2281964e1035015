/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Building workload plans: cgroups, files, tasks and their steps.
 * Identities (pids, inode numbers, mm ids, addresses) are handed out in
 * order, so the same case builds the same plan on every machine.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "recorder/gen/plan.h"

#define GEN_HUGE_BYTES		(2ull << 20)

void gen_plan_init(struct gen_plan *plan, const struct rf_gen_params *p, char *err, size_t errlen)
{
	memset(plan, 0, sizeof(*plan));
	plan->params = p;
	plan->thp_mode = "never";
	plan->err = err;
	plan->errlen = errlen;
}

void gen_plan_release(struct gen_plan *plan)
{
	free(plan->cgroups);
	free(plan->files);
	free(plan->tasks);
	plan->cgroups = NULL;
	plan->files = NULL;
	plan->tasks = NULL;
}

int gen_plan_error(struct gen_plan *plan, int code, const char *fmt, ...)
{
	va_list ap;

	if (plan->err && plan->errlen) {
		va_start(ap, fmt);
		vsnprintf(plan->err, plan->errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int no_room(struct gen_plan *plan)
{
	return gen_plan_error(plan, RF_ERR_NOMEM, "out of memory building the workload");
}

int gen_add_cgroup(struct gen_plan *plan, const char *path, uint64_t limit_bytes)
{
	struct gen_cgroup *cg;

	if (RF_GROW(plan->cgroups, plan->cap_cgroups, (size_t)plan->nr_cgroups + 1))
		return no_room(plan);
	cg = &plan->cgroups[plan->nr_cgroups];
	/* The root is the first one added; children hang below it with ids counting up. */
	cg->id = GEN_ROOT_CGROUP + plan->nr_cgroups;
	cg->parent = plan->nr_cgroups ? GEN_ROOT_CGROUP : 0;
	cg->limit = limit_bytes;
	snprintf(cg->path, sizeof(cg->path), "%s", path);
	return (int)plan->nr_cgroups++;
}

int gen_add_file(struct gen_plan *plan, uint32_t dev, uint64_t pages, const char *fmt, ...)
{
	struct gen_file *f;
	va_list ap;

	if (RF_GROW(plan->files, plan->cap_files, (size_t)plan->nr_files + 1))
		return no_room(plan);
	f = &plan->files[plan->nr_files];
	f->dev = dev;
	f->ino = GEN_FIRST_INO + plan->nr_files;
	f->pages = pages;
	va_start(ap, fmt);
	vsnprintf(f->path, sizeof(f->path), fmt, ap);
	va_end(ap);
	return (int)plan->nr_files++;
}

static struct gen_task *add_task(struct gen_plan *plan)
{
	struct gen_task *t;

	if (RF_GROW(plan->tasks, plan->cap_tasks, (size_t)plan->nr_tasks + 1)) {
		no_room(plan);
		return NULL;
	}
	t = &plan->tasks[plan->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = GEN_FIRST_PID + (int32_t)plan->nr_tasks;
	/* Spread tasks over the CPUs in order, as the scheduler does on an idle machine. */
	t->cpu = plan->nr_tasks % plan->params->cpus;
	plan->nr_tasks++;
	return t;
}

static int add_step(struct gen_plan *plan, struct gen_task *t, const struct gen_step *s)
{
	if (t->nr_steps == GEN_MAX_STEPS)
		return gen_plan_error(plan, RF_ERR_RANGE, "task %d has more than %d steps",
				      (int)t->pid, GEN_MAX_STEPS);
	t->steps[t->nr_steps++] = *s;
	return 0;
}

static int add_simple(struct gen_plan *plan, struct gen_task *t, enum gen_step_kind kind)
{
	struct gen_step s = { .kind = kind, .refs = 1 };

	return add_step(plan, t, &s);
}

static int add_prologue(struct gen_plan *plan, struct gen_task *t)
{
	int ret = add_simple(plan, t, GEN_STEP_FORK);

	/* Threads share their leader's cgroup; processes are moved by the driver. */
	if (!ret && !t->thread && t->cgroup != 0)
		ret = add_simple(plan, t, GEN_STEP_ATTACH);
	if (!ret)
		ret = add_simple(plan, t, GEN_STEP_NAME);
	return ret;
}

struct gen_task *gen_add_process(struct gen_plan *plan, const char *comm, uint32_t cgroup)
{
	struct gen_task *t = add_task(plan);

	if (!t)
		return NULL;
	t->tgid = t->pid;
	t->parent = GEN_DRIVER_PID;
	t->cgroup = cgroup;
	t->mm = gen_mm_of(t->pid);
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return add_prologue(plan, t) ? NULL : t;
}

struct gen_task *gen_add_thread(struct gen_plan *plan, uint32_t leader)
{
	struct gen_task *t = add_task(plan);
	struct gen_task *l;

	if (!t)
		return NULL;
	l = &plan->tasks[leader];
	l->leader = true;
	t->tgid = l->pid;
	t->parent = l->pid;
	t->cgroup = l->cgroup;
	t->mm = l->mm;
	t->thread = true;
	/* The leader creates its threads once it runs its program. */
	t->delay = GEN_COST_EXEC;
	memcpy(t->comm, l->comm, sizeof(t->comm));
	return add_prologue(plan, t) ? NULL : t;
}

int gen_step_mmap_file(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint32_t file)
{
	struct gen_step s = {
		.kind = GEN_STEP_MMAP, .refs = 1, .file = file, .addr = addr,
		.units = plan->files[file].pages, .prot = GEN_PROT_READ,
		.map_flags = GEN_MAP_PRIVATE,
	};

	return add_step(plan, t, &s);
}

int gen_step_mmap_anon(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes,
		       uint32_t extra_flags)
{
	struct gen_step s = {
		.kind = GEN_STEP_MMAP, .refs = 1, .file = UINT32_MAX, .addr = addr,
		.units = bytes / RF_GEN_PAGE_SIZE, .prot = GEN_PROT_READ | GEN_PROT_WRITE,
		.map_flags = GEN_MAP_PRIVATE | GEN_MAP_ANONYMOUS | extra_flags,
	};

	return add_step(plan, t, &s);
}

int gen_step_read(struct gen_plan *plan, struct gen_task *t, uint32_t file, uint64_t passes)
{
	struct gen_step s = {
		.kind = GEN_STEP_READ, .file = file, .units = plan->files[file].pages,
		.refs = plan->files[file].pages * passes,
	};

	return add_step(plan, t, &s);
}

int gen_step_file_faults(struct gen_plan *plan, struct gen_task *t, uint32_t file, bool random,
			 uint64_t refs)
{
	struct gen_step s = {
		.kind = GEN_STEP_FILE_FAULT, .file = file, .units = plan->files[file].pages,
		.random = random, .refs = refs,
	};

	return add_step(plan, t, &s);
}

int gen_step_anon(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t units,
		  uint8_t order, bool random, uint64_t refs)
{
	struct gen_step s = {
		.kind = GEN_STEP_ANON, .addr = addr, .units = units, .order = order,
		.random = random, .refs = refs,
	};

	return add_step(plan, t, &s);
}

int gen_step_madvise(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes,
		     uint32_t advice)
{
	struct gen_step s = {
		.kind = GEN_STEP_MADVISE, .refs = 1, .addr = addr,
		.units = bytes / RF_GEN_PAGE_SIZE, .advice = advice,
	};

	return add_step(plan, t, &s);
}

int gen_step_munmap(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t bytes)
{
	struct gen_step s = {
		.kind = GEN_STEP_MUNMAP, .refs = 1, .addr = addr, .units = bytes / RF_GEN_PAGE_SIZE,
	};

	return add_step(plan, t, &s);
}

int gen_step_barrier(struct gen_plan *plan, struct gen_task *t, const char *marker)
{
	struct gen_step s = { .kind = GEN_STEP_BARRIER, .refs = 1, .marker = marker };

	return add_step(plan, t, &s);
}

int gen_step_exit(struct gen_plan *plan, struct gen_task *t)
{
	return add_simple(plan, t, GEN_STEP_EXIT);
}

uint64_t gen_region_addr(uint32_t task_nr, uint64_t bytes)
{
	uint64_t span = (bytes + GEN_HUGE_BYTES - 1) & ~(GEN_HUGE_BYTES - 1);

	return GEN_MMAP_TOP - (uint64_t)(task_nr + 1) * span;
}
