/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Running a plan: the driver's setup, then every task's steps interleaved in
 * time order, then the driver's teardown.
 *
 * Each task keeps its own clock.  A reference costs its nominal time (plan.h)
 * times the number of tasks sharing the CPU, +-1/8 jitter from the task's own
 * PRNG.  A min-heap on (time, task number) picks the next event, so the
 * output is in time order and ties break the same way on every run.
 */
#include <stdlib.h>
#include <string.h>

#include "recorder/gen/plan.h"

#define GEN_DRIVER_CPU		0u
#define GEN_SETUP_STEP_NS	1000u
#define GEN_RUN_START_NS	1000000u
#define GEN_RELEASE_STEP_NS	1000u

struct gen_run {
	struct gen_plan *plan;
	rf_gen_sink_fn sink;
	void *ctx;
	uint32_t *heap;		/* task numbers, a min-heap on (time, number) */
	uint32_t heap_nr;
	uint32_t *parked;	/* tasks waiting at a barrier, in arrival order */
	uint32_t parked_nr;
	uint64_t clock;		/* the driver's clock, and the latest event time */
};

static int emit(struct gen_run *run, struct rf_event *ev)
{
	if (ev->time > run->clock)
		run->clock = ev->time;
	return run->sink(run->ctx, ev);
}

/* ------------------------------------------------------------- the heap */

static bool before(const struct gen_run *run, uint32_t a, uint32_t b)
{
	const struct gen_task *ta = &run->plan->tasks[a], *tb = &run->plan->tasks[b];

	return ta->time < tb->time || (ta->time == tb->time && a < b);
}

static void heap_swap(struct gen_run *run, uint32_t i, uint32_t j)
{
	uint32_t x = run->heap[i];

	run->heap[i] = run->heap[j];
	run->heap[j] = x;
}

static void heap_push(struct gen_run *run, uint32_t task)
{
	uint32_t i = run->heap_nr++;

	run->heap[i] = task;
	while (i && before(run, run->heap[i], run->heap[(i - 1) / 2])) {
		heap_swap(run, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static uint32_t heap_pop(struct gen_run *run)
{
	uint32_t top = run->heap[0], i = 0, l, m;

	run->heap[0] = run->heap[--run->heap_nr];
	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < run->heap_nr && before(run, run->heap[l], run->heap[m]))
			m = l;
		if (l + 1 < run->heap_nr && before(run, run->heap[l + 1], run->heap[m]))
			m = l + 1;
		if (m == i)
			return top;
		heap_swap(run, i, m);
		i = m;
	}
}

/* ------------------------------------------------------- driver events */

static void driver_event(struct gen_run *run, struct rf_event *ev, uint16_t type)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->time = run->clock;
	ev->cpu = GEN_DRIVER_CPU;
	ev->pid = GEN_DRIVER_PID;
}

static int driver_marker(struct gen_run *run, const char *text)
{
	struct rf_event ev;

	driver_event(run, &ev, RF_EV_MARKER);
	ev.u.marker.text = text;
	run->clock += GEN_SETUP_STEP_NS;
	return emit(run, &ev);
}

static int setup_cgroup(struct gen_run *run, const struct gen_cgroup *cg)
{
	struct rf_event ev;
	int ret;

	driver_event(run, &ev, RF_EV_CGROUP_MKDIR);
	ev.u.cgroup.id = cg->id;
	ev.u.cgroup.parent = cg->parent;
	ev.u.cgroup.path = cg->path;
	run->clock += GEN_SETUP_STEP_NS;
	ret = emit(run, &ev);
	if (ret || cg->limit == RF_UNLIMITED)
		return ret;
	driver_event(run, &ev, RF_EV_CGROUP_LIMIT);
	ev.u.cgroup.id = cg->id;
	ev.u.cgroup.kind = RF_LIMIT_MEMORY;
	ev.u.cgroup.value = cg->limit;
	run->clock += GEN_SETUP_STEP_NS;
	return emit(run, &ev);
}

static int setup_file(struct gen_run *run, const struct gen_file *f)
{
	struct rf_event ev;

	driver_event(run, &ev, RF_EV_NAME_FILE);
	ev.u.name_file.dev = f->dev;
	ev.u.name_file.ino = f->ino;
	ev.u.name_file.size = f->pages * RF_GEN_PAGE_SIZE;
	ev.u.name_file.path = f->path;
	run->clock += GEN_SETUP_STEP_NS;
	return emit(run, &ev);
}

static int setup_driver(struct gen_run *run, uint16_t type)
{
	struct rf_event ev;

	driver_event(run, &ev, type);
	ev.u.task.pid = GEN_DRIVER_PID;
	ev.u.task.tgid = GEN_DRIVER_PID;
	ev.u.task.mm = gen_mm_of(GEN_DRIVER_PID);
	ev.u.task.cgroup = GEN_ROOT_CGROUP;
	ev.u.task.comm = "sh";
	run->clock += GEN_SETUP_STEP_NS;
	return emit(run, &ev);
}

static int run_setup(struct gen_run *run)
{
	struct gen_plan *plan = run->plan;
	uint32_t i;
	int ret;

	ret = driver_marker(run, "phase=setup");
	for (i = 0; !ret && i < plan->nr_cgroups; i++)
		ret = setup_cgroup(run, &plan->cgroups[i]);
	for (i = 0; !ret && i < plan->nr_files; i++)
		ret = setup_file(run, &plan->files[i]);
	if (!ret)
		ret = setup_driver(run, RF_EV_NAME_PID);
	if (!ret)
		ret = driver_marker(run, "phase=run");
	return ret;
}

/* ---------------------------------------------------------- task events */

static uint64_t step_cost(const struct gen_step *s)
{
	switch (s->kind) {
	case GEN_STEP_FORK:
		return GEN_COST_EXEC;
	case GEN_STEP_READ:
		return GEN_COST_READ_PAGE;
	case GEN_STEP_FILE_FAULT:
		return GEN_COST_FILE_FAULT;
	case GEN_STEP_ANON:
		return s->order ? GEN_COST_THP_FAULT : GEN_COST_ANON_FAULT;
	case GEN_STEP_MMAP:
		return GEN_COST_SYSCALL;
	case GEN_STEP_MUNMAP:
		return GEN_COST_SYSCALL + GEN_COST_UNMAP_PAGE * s->units;
	case GEN_STEP_MADVISE:
		return GEN_COST_SYSCALL + GEN_COST_PAGEOUT_PAGE * s->units;
	default:
		return GEN_SETUP_STEP_NS;
	}
}

static void task_advance(struct gen_task *t, const struct gen_step *s)
{
	/* fork + exec is the same for everyone; after it the task competes for its CPU. */
	uint64_t cost = step_cost(s) * (s->kind == GEN_STEP_FORK ? 1 : t->share);

	if (s->kind == GEN_STEP_READ || s->kind == GEN_STEP_FILE_FAULT || s->kind == GEN_STEP_ANON)
		cost = cost - cost / 8 + gen_prng_below(&t->prng, cost / 4 + 1);
	t->time += cost;
	if (++t->done == s->refs) {
		t->cur++;
		t->done = 0;
	}
}

static void fill_task(const struct gen_plan *plan, const struct gen_task *t,
		      const struct gen_step *s, struct rf_event *ev)
{
	static const uint16_t types[] = {
		[GEN_STEP_FORK] = RF_EV_FORK, [GEN_STEP_NAME] = RF_EV_NAME_PID,
		[GEN_STEP_EXIT] = RF_EV_EXIT,
	};

	ev->type = types[s->kind];
	ev->u.task.pid = t->pid;
	ev->u.task.tgid = t->tgid;
	ev->u.task.mm = t->mm;
	if (s->kind == GEN_STEP_FORK) {
		/* The parent forks, on its own CPU. */
		ev->pid = t->parent;
		ev->cpu = t->thread ? plan->tasks[t->parent - GEN_FIRST_PID].cpu : GEN_DRIVER_CPU;
		ev->u.task.flags = t->thread ? RF_FORK_THREAD : 0;
		return;
	}
	ev->u.task.cgroup = plan->cgroups[t->cgroup].id;
	ev->u.task.comm = t->comm;
}

static void fill_vma(const struct gen_plan *plan, const struct gen_task *t,
		     const struct gen_step *s, struct rf_event *ev)
{
	static const uint16_t types[] = {
		[GEN_STEP_MMAP] = RF_EV_MMAP, [GEN_STEP_MUNMAP] = RF_EV_MUNMAP,
		[GEN_STEP_MADVISE] = RF_EV_MADVISE,
	};
	const struct gen_file *f = s->file < plan->nr_files ? &plan->files[s->file] : NULL;

	ev->type = types[s->kind];
	ev->u.vma.mm = t->mm;
	ev->u.vma.addr = s->addr;
	ev->u.vma.len = s->units * RF_GEN_PAGE_SIZE;
	ev->u.vma.advice = s->advice;
	if (s->kind != GEN_STEP_MMAP)
		return;
	ev->u.vma.prot = s->prot;
	ev->u.vma.flags = s->map_flags;
	ev->u.vma.dev = f ? f->dev : 0;
	ev->u.vma.ino = f ? f->ino : 0;
}

/* Which unit (page or folio) of the step the current reference touches. */
static uint64_t ref_unit(struct gen_task *t, const struct gen_step *s)
{
	return s->random ? gen_prng_below(&t->prng, s->units) : t->done % s->units;
}

static void fill_ref(const struct gen_plan *plan, struct gen_task *t, const struct gen_step *s,
		     struct rf_event *ev)
{
	const struct gen_file *f;

	if (s->kind == GEN_STEP_ANON) {
		ev->type = RF_EV_ANON_FAULT;
		ev->u.anon.mm = t->mm;
		ev->u.anon.addr = s->addr + (ref_unit(t, s) << s->order) * RF_GEN_PAGE_SIZE;
		ev->u.anon.order = s->order;
		ev->u.anon.flags = RF_REF_WRITE | (s->order ? RF_REF_PMD : 0);
		return;
	}
	f = &plan->files[s->file];
	ev->u.file.dev = f->dev;
	ev->u.file.ino = f->ino;
	ev->u.file.index = ref_unit(t, s);
	if (s->kind == GEN_STEP_READ) {
		ev->type = RF_EV_FILE_READ;
		ev->u.file.nr = 1;
	} else {
		ev->type = RF_EV_FILE_FAULT;
		ev->u.file.mm = t->mm;
	}
}

static void fill_task_event(const struct gen_plan *plan, struct gen_task *t,
			    const struct gen_step *s, struct rf_event *ev)
{
	switch (s->kind) {
	case GEN_STEP_FORK:
	case GEN_STEP_NAME:
	case GEN_STEP_EXIT:
		fill_task(plan, t, s, ev);
		break;
	case GEN_STEP_ATTACH:
		/* The driver writes the pid into the cgroup. */
		ev->type = RF_EV_CGROUP_ATTACH;
		ev->pid = GEN_DRIVER_PID;
		ev->cpu = GEN_DRIVER_CPU;
		ev->u.cgroup.id = plan->cgroups[t->cgroup].id;
		ev->u.cgroup.pid = t->pid;
		break;
	case GEN_STEP_MMAP:
	case GEN_STEP_MUNMAP:
	case GEN_STEP_MADVISE:
		fill_vma(plan, t, s, ev);
		break;
	case GEN_STEP_READ:
	case GEN_STEP_FILE_FAULT:
	case GEN_STEP_ANON:
		fill_ref(plan, t, s, ev);
		break;
	case GEN_STEP_BARRIER:
		break;
	}
}

/* Emit @t's next event; the caller puts it back in the heap unless it is parked or done. */
static int task_step(struct gen_run *run, uint32_t nr)
{
	struct gen_task *t = &run->plan->tasks[nr];
	const struct gen_step *s = &t->steps[t->cur];
	struct rf_event ev;
	int ret;

	if (s->kind == GEN_STEP_BARRIER) {
		run->parked[run->parked_nr++] = nr;
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.time = t->time;
	ev.cpu = t->cpu;
	ev.pid = t->pid;
	fill_task_event(run->plan, t, s, &ev);
	ret = emit(run, &ev);
	if (ret)
		return ret;
	task_advance(t, s);
	if (t->cur < t->nr_steps)
		heap_push(run, nr);
	return 0;
}

/*
 * Everyone has reached the barrier: the driver marks the phase, then the
 * tasks go on one after another, a thread-group leader last so that it
 * exits after its threads.
 */
static int release_barrier(struct gen_run *run)
{
	struct gen_plan *plan = run->plan;
	const struct gen_step *s;
	struct gen_task *t;
	uint64_t at;
	uint32_t i;
	int ret;

	t = &plan->tasks[run->parked[0]];
	s = &t->steps[t->cur];
	for (i = 0; i < run->parked_nr; i++)
		if (plan->tasks[run->parked[i]].time > run->clock)
			run->clock = plan->tasks[run->parked[i]].time;
	ret = driver_marker(run, s->marker ? s->marker : "phase=barrier");
	if (ret)
		return ret;
	at = run->clock;
	for (i = 0; i < run->parked_nr; i++) {
		t = &plan->tasks[run->parked[i]];
		t->time = at + GEN_RELEASE_STEP_NS * (t->leader ? run->parked_nr : i);
		t->cur++;
		t->done = 0;
		if (t->cur < t->nr_steps)
			heap_push(run, run->parked[i]);
	}
	run->parked_nr = 0;
	return 0;
}

static void start_tasks(struct gen_run *run)
{
	struct gen_plan *plan = run->plan;
	uint32_t *per_cpu, i;

	/* Unused until the first barrier; cpu = task number % cpus, so cpu < nr_tasks. */
	per_cpu = run->parked;
	memset(per_cpu, 0, sizeof(*per_cpu) * plan->nr_tasks);
	for (i = 0; i < plan->nr_tasks; i++)
		per_cpu[plan->tasks[i].cpu]++;
	for (i = 0; i < plan->nr_tasks; i++) {
		struct gen_task *t = &plan->tasks[i];

		t->share = per_cpu[t->cpu];
		t->time = run->clock + GEN_RUN_START_NS + (uint64_t)i * GEN_FORK_STAGGER + t->delay;
		t->cur = 0;
		t->done = 0;
		gen_prng_seed(&t->prng, plan->params->seed, i + 1);
		heap_push(run, i);
	}
}

static int run_tasks(struct gen_run *run)
{
	int ret = 0;

	start_tasks(run);
	while (!ret && (run->heap_nr || run->parked_nr)) {
		if (run->heap_nr)
			ret = task_step(run, heap_pop(run));
		else
			ret = release_barrier(run);
	}
	return ret;
}

int gen_plan_run(struct gen_plan *plan, rf_gen_sink_fn sink, void *ctx)
{
	struct gen_run run = { .plan = plan, .sink = sink, .ctx = ctx };
	int ret;

	if (!plan->nr_tasks)
		return gen_plan_error(plan, RF_ERR_INVAL, "the workload has no tasks");
	run.heap = calloc(plan->nr_tasks, sizeof(*run.heap));
	run.parked = calloc(plan->nr_tasks, sizeof(*run.parked));
	if (!run.heap || !run.parked) {
		ret = gen_plan_error(plan, RF_ERR_NOMEM, "out of memory running the workload");
		goto out;
	}
	ret = run_setup(&run);
	if (!ret)
		ret = run_tasks(&run);
	if (!ret) {
		run.clock += GEN_SETUP_STEP_NS;
		ret = driver_marker(&run, "phase=end");
	}
	if (!ret)
		ret = setup_driver(&run, RF_EV_EXIT);
out:
	free(run.heap);
	free(run.parked);
	return ret;
}
