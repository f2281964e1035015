/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seeds' own benchmarks.
 *
 * noswap-pageout (seed 001, Kairui Song's benchmark for "mm: memcontrol: make
 * cgroup_memory_noswap a static key"): in a non-root cgroup, mmap 8000 MB
 * anonymous, memset it, MADV_PAGEOUT it, memset it again.  Here: mem/2 x
 * --scale split over the tasks, swap sized to hold it, phases in lock step.
 *
 * pvec-thp-mix (seed 004, Lukasz Odzioba's bench_mixed for "mm: pages are not
 * freed from lru_add_pvecs after process termination"): OpenMP threads, one
 * per CPU, each ten times mmap, touch every page, munmap; thread t uses 2 MiB
 * pages in round k when (k + t) is odd, 4 KiB pages otherwise.  Here each
 * round maps mem/2 x --scale in all (the seed: 60 GB over 288 CPUs).  The
 * seed's program never resets its flag, so after its first 2 MiB round a
 * thread stays on 2 MiB; the generator keeps the alternation the benchmark
 * meant, which gives every CPU both sizes (docs/generators.md).
 */
#include "recorder/gen/cases.h"

#define GEN_THP_ORDER		9u
#define GEN_THP_PAGES		(1u << GEN_THP_ORDER)
#define GEN_THP_ROUNDS		10u

static int pageout_task(struct gen_plan *plan, uint32_t cgroup, uint64_t pages)
{
	uint64_t bytes = pages * RF_GEN_PAGE_SIZE, addr = gen_region_addr(0, bytes);
	struct gen_task *t = gen_add_process(plan, "bench", cgroup);
	int ret;

	if (!t)
		return RF_ERR_NOMEM;
	ret = gen_step_mmap_anon(plan, t, addr, bytes, 0);
	if (!ret)
		ret = gen_step_barrier(plan, t, "phase=fill");
	if (!ret)
		ret = gen_step_anon(plan, t, addr, pages, 0, false, pages);
	if (!ret)
		ret = gen_step_barrier(plan, t, "phase=pageout");
	if (!ret)
		ret = gen_step_madvise(plan, t, addr, bytes, GEN_MADV_PAGEOUT);
	if (!ret)
		ret = gen_step_barrier(plan, t, "phase=refill");
	if (!ret)
		ret = gen_step_anon(plan, t, addr, pages, 0, false, pages);
	/* The program returns without munmap: exit tears the mapping down. */
	if (!ret)
		ret = gen_step_exit(plan, t);
	return ret;
}

int gen_case_noswap_pageout(struct gen_plan *plan)
{
	uint64_t total = gen_scaled(plan, plan->host.mem_pages / 2), per;
	uint32_t i;
	int cg, ret;

	cg = gen_add_cgroup(plan, "/bench", RF_UNLIMITED);
	if (cg < 0)
		return cg;
	ret = gen_per_task(plan, total, plan->tasks_wanted, "the anonymous region", &per);
	/* The seed pages out to an 8 GB zram for its 8000 MB: swap holds the whole region. */
	plan->host.swap_pages = total > plan->host.mem_pages / 2 ? total : plan->host.mem_pages / 2;
	for (i = 0; !ret && i < plan->tasks_wanted; i++)
		ret = pageout_task(plan, (uint32_t)cg, per);
	return ret;
}

static int thp_round(struct gen_plan *plan, struct gen_task *t, uint64_t addr, uint64_t pages,
		     bool huge)
{
	uint64_t bytes = pages * RF_GEN_PAGE_SIZE;
	int ret;

	ret = gen_step_mmap_anon(plan, t, addr, bytes, huge ? GEN_MAP_HUGE_2MB : 0);
	if (!ret && huge)
		ret = gen_step_anon(plan, t, addr, pages / GEN_THP_PAGES, GEN_THP_ORDER, false,
				    pages / GEN_THP_PAGES);
	else if (!ret)
		ret = gen_step_anon(plan, t, addr, pages, 0, false, pages);
	return ret ? ret : gen_step_munmap(plan, t, addr, bytes);
}

int gen_case_pvec_thp_mix(struct gen_plan *plan)
{
	uint32_t n = plan->tasks_wanted, leader = plan->nr_tasks, i, k;
	uint64_t per, addr;
	struct gen_task *t;
	int ret = 0;

	plan->thp_mode = "always";
	/* Whole 2 MiB pages per thread, at least one. */
	per = gen_scaled(plan, plan->host.mem_pages / 2) / n / GEN_THP_PAGES * GEN_THP_PAGES;
	if (!per)
		per = GEN_THP_PAGES;
	for (i = 0; !ret && i < n; i++) {
		t = i ? gen_add_thread(plan, leader) : gen_add_process(plan, "bench_mixed", 0);
		if (!t)
			return RF_ERR_NOMEM;
		/* Threads share one mm: each round of a thread maps at its own address. */
		addr = gen_region_addr(i, per * RF_GEN_PAGE_SIZE);
		for (k = 0; !ret && k < GEN_THP_ROUNDS; k++)
			ret = thp_round(plan, t, addr, per, (k + i) % 2 == 1);
		if (!ret)
			ret = gen_step_barrier(plan, t, "phase=exit");
		if (!ret)
			ret = gen_step_exit(plan, t);
	}
	return ret;
}
