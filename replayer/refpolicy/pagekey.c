/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page references of trace events (rf_event_page_refs(), documented in
 * refault/refpolicy.h): the pages the reclaim model would touch, as the
 * type table names them (rf_event_pages()), one reference per folio,
 * keyed by the one page identity (rf_page_key(), refault/trace.h).  The
 * keys are the ones this file always made (they moved to formats/ with
 * the rules): tests/refpolicy/test-refpolicy-pagekey pins some.
 */
#include "replayer/refpolicy/refpolicy-local.h"

int rf_page_refs(const struct rf_pages *p, rf_page_ref_cb cb, void *ctx)
{
	unsigned int order = p->order;
	uint64_t step = order >= 64 ? 0 : 1ull << order;
	uint64_t f = step ? p->first & ~(step - 1) : 0;
	int r;

	for (;; f += step) {
		r = cb(rf_page_key(p->space_key, f), order, ctx);
		if (r)
			return r;
		if (!step || p->last - f < step)	/* the next folio starts past the last page */
			return 0;
	}
}

int rf_event_page_refs(const struct rf_event *ev, unsigned int page_shift, rf_page_ref_cb cb,
		       void *ctx)
{
	struct rf_pages p;

	/*
	 * Only what the task touched: file_readahead is the kernel's prefetch,
	 * not a use (the model inserts those folios unreferenced, and the read
	 * or fault that follows names the pages used), so a demand-paging
	 * policy, and OPT's bound, see only those.
	 */
	if (!rf_event_pages(ev, page_shift, &p) || !p.touches)
		return 0;
	return rf_page_refs(&p, cb, ctx);
}

static int feed_one(uint64_t key, unsigned int order, void *ctx)
{
	return rf_refpolicy_ref(ctx, key, order);
}

int rf_refpolicy_feed_event(struct rf_refpolicy *p, const struct rf_event *ev,
			    unsigned int page_shift)
{
	return rf_event_page_refs(ev, page_shift, feed_one, p);
}
