/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* posix_fadvise(): mm/fadvise.c. */
#include "model-local.h"
#include "filemap.h"
#include "lru.h"

#define POSIX_FADV_DONTNEED	4

/*
 * generic_fadvise(), v4.6.2: POSIX_FADV_DONTNEED drains this CPU and
 * invalidates [@index, @index + @nr) (to the end for @nr 0), again after
 * lru_add_drain_all() if a batch held some of its pages; other advice
 * changes nothing the model keeps.
 */
void generic_fadvise(struct rf_model *m, uint32_t mapping, uint32_t advice, uint64_t index,
		     uint64_t nr)
{
	const uint64_t end = UINT64_MAX >> 1;	/* past any file's last page */
	uint64_t last;

	if (advice != POSIX_FADV_DONTNEED || index > end)
		return;
	last = nr && nr - 1 <= end - index ? index + nr - 1 : end;
	lru_add_drain(m);
	if (invalidate_mapping_pages(m, mapping, index, last)) {
		lru_add_drain_all(m);
		invalidate_mapping_pages(m, mapping, index, last);
	}
}
