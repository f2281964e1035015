/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page keys of trace events (rf_event_page_refs(), documented in
 * refault/refpolicy.h): the pages the reclaim model would touch, named by
 * a 64-bit hash of (space, identity).
 *
 * rf_hash64() (lib/hash.h) is the splitmix64 finaliser, a bijection on u64.
 * Folding one field at a time as rf_hash64(h ^ field) keeps the last field
 * bijective: two different indices of one file, or two ACCESS keys of one
 * space, never share a key.  Only different (dev, ino) or mm pairs can
 * collide.  The keys are results (which pages OPT and LRU see as one): they
 * must not change, and tests/refpolicy/test-refpolicy-pagekey pins some.
 */
#include "replayer/refpolicy/refpolicy-local.h"

/* Arbitrary odd constants, one per key space, so the spaces do not overlap by design. */
#define SPACE_FILE		0x66696c6500000001ull
#define SPACE_ANON		0x616e6f6e00000003ull
#define SPACE_ACCESS_FILE	0x6163636600000005ull
#define SPACE_ACCESS_ANON	0x6163636100000007ull

static uint64_t folio_start(uint64_t index, unsigned int order)
{
	return order >= 64 ? 0 : index & ~((1ull << order) - 1);
}

/* One reference per folio of 2^@order pages that meets [@index, @index + @nr). */
static int file_range(const struct rf_event *ev, rf_page_ref_cb cb, void *ctx)
{
	unsigned int order = ev->u.file.order;
	uint64_t base = rf_hash64(rf_hash64(SPACE_FILE ^ ev->u.file.dev) ^ ev->u.file.ino);
	uint64_t nr = ev->u.file.nr ? ev->u.file.nr : 1;
	uint64_t first = folio_start(ev->u.file.index, order);
	uint64_t last = ev->u.file.index + (nr - 1);
	uint64_t step = order >= 64 ? 0 : 1ull << order, f;
	int r;

	if (last < ev->u.file.index)	/* the range wraps: stop at the top */
		last = UINT64_MAX;
	for (f = first;; f += step) {
		r = cb(rf_hash64(base ^ f), order, ctx);
		if (r)
			return r;
		if (!step || last - f < step)	/* the next folio starts past @last */
			return 0;
	}
}

int rf_event_page_refs(const struct rf_event *ev, unsigned int page_shift, rf_page_ref_cb cb,
		       void *ctx)
{
	uint64_t space, index;

	switch (ev->type) {
	case RF_EV_FILE_READ:
	case RF_EV_FILE_WRITE:
		return file_range(ev, cb, ctx);
	case RF_EV_FILE_FAULT: {
		struct rf_event one = *ev;

		one.u.file.nr = 1;
		return file_range(&one, cb, ctx);
	}
	case RF_EV_ANON_FAULT:
		space = rf_hash64(SPACE_ANON ^ ev->u.anon.mm);
		index = page_shift < 64 ? ev->u.anon.addr >> page_shift : 0;
		return cb(rf_hash64(space ^ folio_start(index, ev->u.anon.order)), ev->u.anon.order,
			  ctx);
	case RF_EV_ACCESS:
		space = ev->u.access.flags & RF_REF_ANON ? SPACE_ACCESS_ANON : SPACE_ACCESS_FILE;
		return cb(rf_hash64(space ^ folio_start(ev->u.access.key, ev->u.access.order)),
			  ev->u.access.order, ctx);
	case RF_EV_FILE_READAHEAD:
		/*
		 * The kernel's prefetch, not a use: the model inserts these folios
		 * unreferenced, and the read or fault that follows names the pages
		 * used.  A demand-paging policy (and OPT's bound) sees only those.
		 */
		return 0;
	default:
		return 0;
	}
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
