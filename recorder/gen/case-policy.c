/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cases that tell reclaim policies apart.
 *
 * mmap-stream-read-hot: three quarters of the tasks (N - max(1, N/4)) each map
 * their own file of GEN_ROTATE_MEMS x RAM / that (times --scale) and fault its
 * pages once, in order, as lru-file-mmap-read does; the others re-read their
 * own file of (RAM/4) / that with dd for as long as the stream lasts.  The
 * two reclaim algorithms treat the two kinds of access in opposite ways:
 *   - classic: a faulted page enters the inactive list with a young PTE, is
 *     kept once (folio_check_references(), FOLIOREF_KEEP for a first
 *     referenced mapped page) and evicted on its next scan, while a page read
 *     twice is activated (folio_mark_accessed()) and stays on the active list;
 *   - multi-gen LRU (v6.1+): a page faulted in goes to the youngest generation
 *     (lru_gen_add_folio() with PG_active set by folio_add_lru() in a fault)
 *     and a young PTE moves it there again at aging (the page-table walk and
 *     look-around), while a page read through read() starts in one of the two
 *     oldest and is kept only through its tier (lru_gen_inc_refs(), the PID controller
 *     in get_tier_idx()).
 * So the multi-gen LRU evicts the hot set to keep the stream, the classic LRU
 * the other way round (docs/model.md, "Classic and multi-gen LRU on one workload").
 */
#include "recorder/gen/cases.h"

int gen_case_mmap_stream_read_hot(struct gen_plan *plan)
{
	struct gen_stream_hot sh;
	uint64_t passes, addr;
	uint32_t i;
	int ret;

	ret = gen_add_stream_hot_files(plan, "mmap-stream", &sh);
	if (ret)
		return ret;
	/* The readers go on as long as the stream does: a fault costs more than a read. */
	passes = (sh.stream_per * GEN_COST_FILE_FAULT + sh.hot_per * GEN_COST_READ_PAGE - 1) /
		 (sh.hot_per * GEN_COST_READ_PAGE);
	/* Each streamer is its own process: all map at the same address, each in its own mm. */
	addr = gen_region_addr(0, sh.stream_per * RF_GEN_PAGE_SIZE);
	/* Interleave the two kinds so both start together whatever the fork order. */
	for (i = 0; !ret && (i < sh.n_stream || i < sh.n_hot); i++) {
		if (i < sh.n_stream)
			ret = gen_add_mapper(plan, sh.first_stream + i, addr, false, sh.stream_per);
		if (!ret && i < sh.n_hot)
			ret = gen_add_reader(plan, sh.first_hot + i, passes, 0, 0);
	}
	return ret;
}
