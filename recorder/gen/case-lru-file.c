/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page-cache streaming through read(): vm-scalability's case-lru-file-readtwice,
 * case-lru-file-readonce and case-lru-memcg, and cgroup-thrash.
 *
 * The real cases read sparse files of ROTATE_BYTES (up to 256 x RAM) and stop
 * after 300 s, so what they touch depends on the machine's speed.  The
 * generator reads a file set of GEN_ROTATE_MEMS x RAM instead (times
 * --scale): enough for the LRU to turn over several times, small enough to
 * keep.  Files are holes: reads allocate clean zero pages, nothing is written.
 */
#include "recorder/gen/cases.h"
/* readtwice: the second dd trails the first by up to 3 readahead windows of 32 pages. */
#define GEN_MAX_LAG_PAGES	(3u * 32u)

static int read_files(struct gen_plan *plan, const char *stem, uint32_t readers_per_file,
		      uint32_t cgroup)
{
	uint32_t n = plan->tasks_wanted, first = plan->nr_files, i, r;
	struct gen_prng lag;
	uint64_t delay;
	int ret;

	ret = gen_add_files(plan, stem, n, gen_scaled(plan, GEN_ROTATE_MEMS * plan->host.mem_pages));
	/* Stream 0 is the case's own; tasks draw from streams 1.. in run.c. */
	gen_prng_seed(&lag, plan->params->seed, 0);
	for (i = 0; !ret && i < n; i++) {
		for (r = 0; !ret && r < readers_per_file; r++) {
			delay = r ? gen_prng_below(&lag, GEN_MAX_LAG_PAGES + 1) * GEN_COST_READ_PAGE : 0;
			ret = gen_add_reader(plan, first + i, 1, cgroup, delay);
		}
	}
	return ret;
}

int gen_case_lru_file_readtwice(struct gen_plan *plan)
{
	return read_files(plan, "lru-file-readtwice", 2, 0);
}

int gen_case_lru_file_readonce(struct gen_plan *plan)
{
	return read_files(plan, "lru-file-readonce", 1, 0);
}

int gen_case_lru_memcg(struct gen_plan *plan)
{
	/* case-lru-memcg: memory.limit_in_bytes = mem/3, then readonce inside. */
	uint64_t limit = plan->host.mem_pages / 3 * RF_GEN_PAGE_SIZE;
	int cg = gen_add_cgroup(plan, "/vmscale", limit);

	return cg < 0 ? cg : read_files(plan, "lru-memcg", 1, (uint32_t)cg);
}

/*
 * cgroup-thrash: two cgroups without limits share one node.  Three quarters
 * of the tasks stream through GEN_ROTATE_MEMS x RAM (times --scale) of files
 * in /stream, once; the other quarter (at least one task) re-read a quarter
 * of RAM in /hot for as many passes as the stream takes, at the same pace per
 * task.  /hot's lruvec is mostly active, so global reclaim deactivates and
 * evicts its pages; when they come back, their refault distance counts only
 * /hot's evictions with per-memcg workingset (v4.6, 23047a96) but every
 * eviction on the node, three quarters of them the stream's, with the global
 * counter of v4.5.
 */
int gen_case_cgroup_thrash(struct gen_plan *plan)
{
	struct gen_stream_hot sh;
	uint64_t passes;
	uint32_t i;
	int cg_stream, cg_hot, ret;

	cg_stream = gen_add_cgroup(plan, "/stream", RF_UNLIMITED);
	cg_hot = cg_stream < 0 ? cg_stream : gen_add_cgroup(plan, "/hot", RF_UNLIMITED);
	if (cg_hot < 0)
		return cg_hot;
	ret = gen_add_stream_hot_files(plan, "stream", &sh);
	if (ret)
		return ret;
	passes = (sh.stream_per + sh.hot_per - 1) / sh.hot_per;
	/* Interleave the two kinds so both start together whatever the fork order. */
	for (i = 0; !ret && (i < sh.n_stream || i < sh.n_hot); i++) {
		if (i < sh.n_stream)
			ret = gen_add_reader(plan, sh.first_stream + i, 1, (uint32_t)cg_stream, 0);
		if (!ret && i < sh.n_hot)
			ret = gen_add_reader(plan, sh.first_hot + i, passes, (uint32_t)cg_hot, 0);
	}
	return ret;
}
