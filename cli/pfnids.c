/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Folio ids for record --pfns ids and trace convert --pfns ids: the rules are in pfnids.h. */
#include "cli/pfnids.h"

int rf_pfn_ids_apply(struct rf_pfn_ids *s, struct rf_event *ev)
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
	id = rf_pfnid_map_slot(&s->ids, key, &fresh);
	if (!id)
		return RF_ERR_NOMEM;
	if (fresh || ev->type == RF_EV_PAGECACHE_ADD)
		*id = ++s->last;
	*pfn = *id;
	if (ev->type == RF_EV_PAGECACHE_DEL)
		rf_pfnid_map_del(&s->ids, key, NULL);
	return 0;
}

void rf_pfn_ids_free(struct rf_pfn_ids *s)
{
	rf_pfnid_map_destroy(&s->ids);
	s->last = 0;
}
