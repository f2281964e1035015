/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private anonymous writes: vm-scalability's case-anon-w-seq/-rand and
 * case-swap-w-seq/-rand (the process variants, usemem -n N).
 *
 * anon-w-*: unit_size = mem/2 split over N tasks, so it fits: no reclaim by
 * design.  swap-w-*: unit_size = 3/4 x (MemAvailable + SwapTotal), more than
 * RAM, so the oldest pages go to swap.  The generator's host has SwapTotal =
 * MemTotal (lkp's swap jobs use an SSD or pmem partition; the case only
 * needs one).  One invocation; lkp repeats it until 300 s have passed.
 */
#include "recorder/gen/cases.h"

static int write_anon(struct gen_plan *plan, uint64_t total_pages, bool random)
{
	uint32_t n = plan->tasks_wanted, i;
	struct gen_task *t;
	uint64_t per, bytes, addr;
	int ret;

	ret = gen_per_task(plan, gen_scaled(plan, total_pages), n, "the anonymous footprint", &per);
	bytes = per * RF_GEN_PAGE_SIZE;
	addr = gen_region_addr(0, bytes);
	for (i = 0; !ret && i < n; i++) {
		t = gen_add_process(plan, "usemem", 0);
		if (!t)
			return RF_ERR_NOMEM;
		ret = gen_step_mmap_anon(plan, t, addr, bytes, 0);
		if (!ret)
			ret = gen_step_anon(plan, t, addr, per, 0, random,
					    random ? per * GEN_RAND_REFS_PER_PAGE : per);
		if (!ret)
			ret = gen_step_munmap(plan, t, addr, bytes);
		if (!ret)
			ret = gen_step_exit(plan, t);
	}
	return ret;
}

static uint64_t swap_unit_pages(struct gen_plan *plan)
{
	plan->host.swap_pages = plan->host.mem_pages;
	return (plan->host.avail_pages + plan->host.swap_pages) / 4 * 3;
}

int gen_case_anon_w_seq(struct gen_plan *plan)
{
	return write_anon(plan, plan->host.mem_pages / 2, false);
}

int gen_case_anon_w_rand(struct gen_plan *plan)
{
	return write_anon(plan, plan->host.mem_pages / 2, true);
}

int gen_case_swap_w_seq(struct gen_plan *plan)
{
	return write_anon(plan, swap_unit_pages(plan), false);
}

int gen_case_swap_w_rand(struct gen_plan *plan)
{
	return write_anon(plan, swap_unit_pages(plan), true);
}
