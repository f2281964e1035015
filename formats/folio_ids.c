/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Folio ids in place of the kernel's pfns: the rules are in refault/trace.h. */
#include <stdlib.h>

#include "formats/format-local.h"
#include "lib/hash.h"
#include "lib/hashmap.h"

RF_HASHMAP_DEFINE(folio_id_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

struct rf_trace_folio_ids {
	struct folio_id_map ids;	/* pfn -> id of the folio there now */
	uint64_t last;			/* the last id given */
};

struct rf_trace_folio_ids *rf_trace_folio_ids_new(void)
{
	return calloc(1, sizeof(struct rf_trace_folio_ids));
}

int rf_trace_folio_ids_apply(struct rf_trace_folio_ids *s, struct rf_event *ev)
{
	uint64_t *pfn, *id, key;
	bool fresh;

	switch (ev->type) {
	case RF_EV_PAGECACHE_ADD:
	case RF_EV_PAGECACHE_DEL:
		pfn = &ev->u.file.pfn;
		break;
	case RF_EV_LRU_ADD:
	case RF_EV_LRU_ACTIVATE:
		pfn = &ev->u.lru.pfn;
		break;
	default:
		return 0;
	}
	key = *pfn;
	if (!key)
		return 0;
	id = folio_id_map_slot(&s->ids, key, &fresh);
	if (!id)
		return RF_ERR_NOMEM;
	if (fresh || ev->type == RF_EV_PAGECACHE_ADD)
		*id = ++s->last;
	*pfn = *id;
	if (ev->type == RF_EV_PAGECACHE_DEL)
		folio_id_map_del(&s->ids, key, NULL);
	return 0;
}

void rf_trace_folio_ids_free(struct rf_trace_folio_ids *s)
{
	if (!s)
		return;
	folio_id_map_destroy(&s->ids);
	free(s);
}
