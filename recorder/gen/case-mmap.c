/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mapped page cache: vm-scalability's case-lru-file-mmap-read and -rand.
 *
 * N usemem processes each mmap(PROT_READ, MAP_PRIVATE) their own sparse file
 * and load from it: in order (one fault per page), or at random pages
 * (GEN_RAND_REFS_PER_PAGE references per page, so pages come back after they
 * were reclaimed: refaults of mapped file pages).  Sized like the page-cache
 * cases (case-lru-file.c): GEN_ROTATE_MEMS x RAM in all, times --scale.
 */
#include "recorder/gen/cases.h"

static int mmap_read(struct gen_plan *plan, const char *stem, bool random)
{
	uint32_t n = plan->tasks_wanted, i;
	uint64_t per, addr;
	int ret, file;

	ret = gen_per_task(plan, gen_scaled(plan, GEN_ROTATE_MEMS * plan->host.mem_pages), n,
			   "the file set", &per);
	/* Each task is its own process: every one maps at the same address in its own mm. */
	addr = gen_region_addr(0, per * RF_GEN_PAGE_SIZE);
	for (i = 0; !ret && i < n; i++) {
		file = gen_add_file(plan, GEN_LOOP_DEV, per, "%s/sparse-%s-%u", GEN_SPARSE_ROOT,
				    stem, i);
		ret = file < 0 ? file
			       : gen_add_mapper(plan, (uint32_t)file, addr, random,
						random ? per * GEN_RAND_REFS_PER_PAGE : per);
	}
	return ret;
}

int gen_case_lru_file_mmap_read(struct gen_plan *plan)
{
	return mmap_read(plan, "lru-file-mmap-read", false);
}

int gen_case_lru_file_mmap_read_rand(struct gen_plan *plan)
{
	return mmap_read(plan, "lru-file-mmap-read-rand", true);
}
