/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page references of trace events (rf_refpolicy_page_refs(), documented in
 * refault/refpolicy.h): the pages the reclaim model would touch, as the
 * type table names them (rf_event_pages()), one reference per folio,
 * keyed by the one page identity (rf_event_folios(), refault/trace.h).
 * The keys are the ones this file always made (they moved to formats/
 * with the rules): tests/refpolicy/test-refpolicy-pagekey pins some.
 */
#include "replayer/refpolicy/refpolicy-local.h"

int rf_refpolicy_page_refs(const struct rf_event *ev, unsigned int page_shift, rf_page_ref_cb cb,
			   void *ctx)
{
	/*
	 * Only what the task touched: file_readahead is the kernel's prefetch,
	 * not a use (the model inserts those folios unreferenced, and the read
	 * or fault that follows names the pages used), so a demand-paging
	 * policy, and OPT's bound, see only those.
	 */
	return rf_event_folios(ev, page_shift, NULL, cb, ctx);
}

static int feed_one(uint64_t key, unsigned int order, void *ctx)
{
	return rf_refpolicy_ref(ctx, key, order);
}

int rf_refpolicy_feed_event(struct rf_refpolicy *p, const struct rf_event *ev,
			    unsigned int page_shift)
{
	return rf_refpolicy_page_refs(ev, page_shift, feed_one, p);
}
