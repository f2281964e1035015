/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OPT (Belady's MIN, 1966) under demand paging: every miss loads the page,
 * and when room is needed the resident unit whose next reference is
 * farthest in the future goes first (never referenced again = farthest).
 * At one page size this is the fewest misses any demand-paging policy can
 * have at that capacity.  (A cache allowed to bypass a missed page can do
 * better still, e.g. capacity 1 and a,b,a; that is not the bound wanted.)
 *
 * Pass 1 (rf_refpolicy_ref) turns keys into dense ids and records one u32
 * per reference (and one u8 order per reference once a non-zero order
 * appears).  Pass 2 (finish) drops the key map, computes each reference's
 * next use in one backward sweep, then replays forwards with a max-heap of
 * the resident units keyed by (next use, id): O(log n) per reference.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replayer/refpolicy/refpolicy-local.h"

#define NEVER		UINT32_MAX	/* next use of a page not referenced again */
#define MAX_REFS	(UINT32_MAX - 1u)

struct opt_state {
	struct rp_keymap ids;		/* key -> id (ids start at 1) */
	uint32_t nr_ids;
	uint32_t *stream;		/* id of each reference */
	uint8_t *orders;		/* order of each reference; NULL while all are 0 */
	uint32_t nr_refs;
	size_t cap_refs, cap_orders;
};

/* The replay's working set, alive only inside finish. */
struct opt_run {
	uint64_t *heap;			/* (next use << 32) | id, max at heap[0] */
	uint32_t *pos;			/* per id: heap index + 1, 0 = not resident */
	uint8_t *unit_order;		/* per id: order it was loaded with (NULL: all 0) */
	uint32_t nr;
};

/* The order of reference nr_refs; the orders are kept from the first non-zero one on. */
static int record_order(struct opt_state *s, unsigned int order)
{
	if (!s->orders && !order)
		return 0;
	/* zeroed: the references before the first non-zero order are order 0 */
	if (RF_GROW_ZERO(s->orders, s->cap_orders, (size_t)s->nr_refs + 1))
		return RF_ERR_NOMEM;
	s->orders[s->nr_refs] = (uint8_t)order;
	return 0;
}

static int opt_ref(struct rf_refpolicy *p, uint64_t key, unsigned int order)
{
	struct opt_state *s = p->state;
	uint32_t id;
	int r;

	if (s->nr_refs >= MAX_REFS)
		return RF_ERR_RANGE;
	if (RF_GROW(s->stream, s->cap_refs, (size_t)s->nr_refs + 1))
		return RF_ERR_NOMEM;
	id = rp_keymap_find(&s->ids, key);
	if (id == RP_NIL) {
		id = s->nr_ids + 1;
		if (id == UINT32_MAX)
			return RF_ERR_RANGE;
		r = rp_keymap_put(&s->ids, key, id);
		if (r)
			return r;
		s->nr_ids = id;
	}
	r = record_order(s, order);
	if (r)
		return r;
	s->stream[s->nr_refs++] = id;
	return 0;
}

/* ---------------------------------------------------------- the heap */

static void heap_set(struct opt_run *h, uint32_t i, uint64_t e)
{
	h->heap[i] = e;
	h->pos[(uint32_t)e] = i + 1;
}

static void sift_up(struct opt_run *h, uint32_t i)
{
	uint64_t e = h->heap[i];

	while (i) {
		uint32_t parent = (i - 1) / 2;

		if (h->heap[parent] >= e)
			break;
		heap_set(h, i, h->heap[parent]);
		i = parent;
	}
	heap_set(h, i, e);
}

static void sift_down(struct opt_run *h, uint32_t i)
{
	uint64_t e = h->heap[i];

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= h->nr)
			break;
		if (c + 1 < h->nr && h->heap[c + 1] > h->heap[c])
			c++;
		if (h->heap[c] <= e)
			break;
		heap_set(h, i, h->heap[c]);
		i = c;
	}
	heap_set(h, i, e);
}

static uint32_t heap_pop(struct opt_run *h)
{
	uint32_t id = (uint32_t)h->heap[0];

	h->pos[id] = 0;
	if (--h->nr) {
		h->heap[0] = h->heap[h->nr];
		sift_down(h, 0);
	}
	return id;
}

static void heap_push(struct opt_run *h, uint64_t e)
{
	h->heap[h->nr++] = e;
	sift_up(h, h->nr - 1);
}

/* ---------------------------------------------------------- the replay */

/* next[i]: the index of the next reference to stream[i]'s page, or NEVER. */
static uint32_t *next_uses(const struct opt_state *s, uint32_t *scratch)
{
	uint32_t *next = malloc((size_t)(s->nr_refs ? s->nr_refs : 1) * sizeof(*next));
	uint32_t i;

	if (!next)
		return NULL;
	for (i = 0; i <= s->nr_ids; i++)
		scratch[i] = NEVER;
	for (i = s->nr_refs; i-- > 0;) {
		next[i] = scratch[s->stream[i]];
		scratch[s->stream[i]] = i;
	}
	return next;
}

static uint64_t unit_pages(const struct opt_run *h, uint32_t id)
{
	return 1ull << (h->unit_order ? h->unit_order[id] : 0);
}

static void replay(struct rf_refpolicy *p, const struct opt_state *s, const uint32_t *next,
		   struct opt_run *h)
{
	uint32_t i;

	for (i = 0; i < s->nr_refs; i++) {
		uint32_t id = s->stream[i];
		unsigned int order = s->orders ? s->orders[i] : 0;
		uint64_t e = (uint64_t)next[i] << 32 | id, pages = 1ull << order;

		if (h->pos[id]) {
			rp_count_hit(p, unit_pages(h, id));
			h->heap[h->pos[id] - 1] = e;	/* later than before: rises */
			sift_up(h, h->pos[id] - 1);
			continue;
		}
		rp_count_miss(p, pages);
		if (pages > p->capacity)
			continue;
		while (p->used + pages > p->capacity)
			rp_count_evict(p, unit_pages(h, heap_pop(h)));
		if (h->unit_order)
			h->unit_order[id] = (uint8_t)order;
		heap_push(h, e);
		rp_count_load(p, pages);
	}
}

static int opt_finish(struct rf_refpolicy *p)
{
	struct opt_state *s = p->state;
	struct opt_run h = { 0 };
	uint64_t max_units = p->capacity < s->nr_ids ? p->capacity : s->nr_ids;
	uint32_t *next;
	int r = RF_ERR_NOMEM;

	p->st.distinct = s->nr_ids;
	rp_keymap_destroy(&s->ids);	/* keys are not needed any more: keep the peak down */
	h.pos = malloc(((size_t)s->nr_ids + 1) * sizeof(*h.pos));
	if (!h.pos)
		return RF_ERR_NOMEM;
	next = next_uses(s, h.pos);
	h.heap = malloc((size_t)(max_units + 1) * sizeof(*h.heap));
	if (s->orders)
		h.unit_order = calloc((size_t)s->nr_ids + 1, 1);
	if (next && h.heap && (h.unit_order || !s->orders)) {
		memset(h.pos, 0, ((size_t)s->nr_ids + 1) * sizeof(*h.pos));
		replay(p, s, next, &h);
		r = 0;
	}
	free(next);
	free(h.heap);
	free(h.pos);
	free(h.unit_order);
	free(s->stream);
	free(s->orders);
	s->stream = NULL;
	s->orders = NULL;
	return r;
}

static void opt_destroy(struct rf_refpolicy *p)
{
	struct opt_state *s = p->state;

	if (!s)
		return;
	rp_keymap_destroy(&s->ids);
	free(s->stream);
	free(s->orders);
	free(s);
}

static int opt_init(struct rf_refpolicy *p)
{
	struct opt_state *s = calloc(1, sizeof(*s));

	if (!s)
		return RF_ERR_NOMEM;
	p->state = s;
	p->index = &s->ids;
	return rp_keymap_init(&s->ids, 1024);
}

const struct rp_ops rp_opt_ops = {
	.init = opt_init,
	.ref = opt_ref,
	.finish = opt_finish,
	.destroy = opt_destroy,
};
