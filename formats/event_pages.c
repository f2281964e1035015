/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which pages an event names, read from its type's entry in the type table
 * (event_types.c: .pages, .touches, .writes, .nr0_to_end), and the one page
 * identity every reader uses: rf_event_pages(), rf_page_space_key(),
 * rf_page_key(), rf_pages_key(), and the folios a reference touches with
 * their keys, rf_event_folios(); refault/trace.h gives the rules.
 *
 * The keys are the ones the reference policies always used
 * (replayer/refpolicy/pagekey.c before they moved here): rf_hash64()
 * (lib/hash.h) is the splitmix64 finaliser, a bijection on u64, and folding
 * one field at a time as rf_hash64(h ^ field) keeps the last field
 * bijective, so two pages of one space never share a key; only different
 * spaces can collide.  Which pages are one is a result (of OPT, LRU and
 * CLOCK); the keys' values are not (no reader walks a map of them: LRU and
 * CLOCK queue in load order, OPT numbers pages by first use and breaks its
 * ties by that number), but tests/refpolicy/test-refpolicy-pagekey pins
 * some all the same: they do not change.
 */
#include "formats/format-local.h"
#include "lib/hash.h"

/*
 * What a reference policy asks of every reference (rf_event_folios()) is
 * one call with no other inside: each step below is inlined in it.
 */
#define always_inline inline __attribute__((always_inline))

/* Arbitrary odd constants, one per kind of space, so the spaces do not overlap by design. */
#define SPACE_FILE		0x66696c6500000001ull	/* "file" */
#define SPACE_ANON		0x616e6f6e00000003ull	/* "anon" */
#define SPACE_ACCESS_FILE	0x6163636600000005ull	/* "accf" */
#define SPACE_ACCESS_ANON	0x6163636100000007ull	/* "acca" */
#define SPACE_GEN		0x67656e0000000009ull	/* "gen" */

static always_inline uint64_t space_key(const struct rf_page_space *s)
{
	uint64_t k;

	switch (s->kind) {
	case RF_SPACE_FILE:
		k = rf_hash64(rf_hash64(SPACE_FILE ^ s->dev) ^ s->id);
		return s->gen ? rf_hash64(k ^ rf_hash64(SPACE_GEN ^ s->gen)) : k;
	case RF_SPACE_ANON:
		return rf_hash64(SPACE_ANON ^ s->id);
	case RF_SPACE_ACCESS_FILE:
		return SPACE_ACCESS_FILE;
	case RF_SPACE_ACCESS_ANON:
		return SPACE_ACCESS_ANON;
	default:
		return 0;
	}
}

static always_inline uint64_t page_key(uint64_t space_key, uint64_t index)
{
	return rf_hash64(space_key ^ index);
}

uint64_t rf_page_space_key(const struct rf_page_space *s)
{
	return space_key(s);
}

uint64_t rf_page_key(uint64_t space_key, uint64_t index)
{
	return page_key(space_key, index);
}

uint64_t rf_pages_key(const struct rf_pages *p, uint64_t i)
{
	return page_key(p->space_key, p->first + i);
}

/* The folio of 2^@order pages holding @index (from order 64: the whole index space). */
static always_inline void set_folio(struct rf_pages *p, uint64_t index, unsigned int order)
{
	p->folio = true;
	p->order = (uint8_t)order;
	if (order >= 64) {
		p->first = 0;
		p->last = p->nr = UINT64_MAX;
	} else {
		p->nr = 1ull << order;
		p->first = index & ~(p->nr - 1);
		p->last = p->first + (p->nr - 1);
	}
}

/* Pages @index .. @index + @nr - 1 in folios of 2^@order, up to 2^64 - 1; @nr 0: to the top. */
static always_inline void set_range(struct rf_pages *p, uint64_t index, uint64_t nr, uint8_t order)
{
	p->folio = false;
	p->order = order;
	p->first = index;
	p->last = nr && nr - 1 <= UINT64_MAX - index ? index + (nr - 1) : UINT64_MAX;
	p->nr = p->last - p->first + 1;
	if (!p->nr)	/* 0 .. 2^64 - 1 */
		p->nr = UINT64_MAX;
}

/* A file's pages; the flags that say whether the task wrote (a range has none: its type says). */
static always_inline uint8_t file_pages(struct rf_pages *p, const struct rf_event *ev,
			  const struct rf_event_type_info *ti)
{
	uint64_t nr = ev->u.file.nr;

	p->space.kind = RF_SPACE_FILE;
	p->space.dev = ev->u.file.dev;
	p->space.gen = 0;
	p->space.id = ev->u.file.ino;
	switch (ti->pages) {
	case RF_PAGES_FILE_RANGE:
		set_range(p, ev->u.file.index, nr || ti->nr0_to_end ? nr : 1, ev->u.file.order);
		return 0;
	case RF_PAGES_FILE_TAIL:
		set_range(p, ev->u.file.index, 0, 0);
		return 0;
	default:
		set_folio(p, ev->u.file.index, ev->u.file.order);
		return ev->u.file.flags;
	}
}

/* An address space's (RF_SPACE_ANON, @id the mm) or an access key space's (@id 0). */
static always_inline void set_space(struct rf_pages *p, enum rf_page_space_kind kind, uint64_t id)
{
	p->space.kind = kind;
	p->space.dev = 0;
	p->space.gen = 0;
	p->space.id = id;
}

/*
 * Every member is set on every path, without zeroing the whole first, and
 * it is inlined in both its callers: the replay asks it of every reference
 * for every policy (and again for its prefetch).  A type this library does
 * not know has a zeroed table entry: RF_PAGES_NONE.
 */
static always_inline bool fill(const struct rf_event *ev, unsigned int page_shift,
			       struct rf_pages *out)
{
	const struct rf_event_type_info *ti;
	uint8_t flags;

	if (ev->type >= RF_EV_TYPE_MAX || fmt_event_types[ev->type].pages == RF_PAGES_NONE) {
		*out = (struct rf_pages){ .space.kind = RF_SPACE_NONE };
		return false;
	}
	ti = &fmt_event_types[ev->type];
	switch (ti->pages) {
	case RF_PAGES_ANON:
		set_space(out, RF_SPACE_ANON, ev->u.anon.mm);
		set_folio(out, page_shift < 64 ? ev->u.anon.addr >> page_shift : 0,
			  ev->u.anon.order);
		flags = ev->u.anon.flags;
		break;
	case RF_PAGES_ACCESS:
		flags = ev->u.access.flags;
		set_space(out, flags & RF_REF_ANON ? RF_SPACE_ACCESS_ANON : RF_SPACE_ACCESS_FILE,
			  0);
		set_folio(out, ev->u.access.key, ev->u.access.order);
		break;
	default:
		flags = file_pages(out, ev, ti);
		break;
	}
	/* as bits: these are asked of every reference */
	out->touches = ti->touches;
	out->reads = ti->touches & !ti->writes;
	out->write = ti->touches & (ti->writes | !!(flags & RF_REF_WRITE));
	out->space_key = space_key(&out->space);
	return true;
}

bool rf_event_pages(const struct rf_event *ev, unsigned int page_shift, struct rf_pages *out)
{
	return fill(ev, page_shift, out);
}

/* @p within @b (a file's pages only); false: none is left. */
static always_inline bool bound(struct rf_pages *p, const struct rf_page_bounds *b)
{
	if (p->space.kind != RF_SPACE_FILE)
		return true;
	if (b->end && p->first >= b->end)
		return false;
	if (p->folio)
		return true;
	if (b->max_range && p->nr > b->max_range)
		p->nr = b->max_range;
	if (b->end && p->nr > b->end - p->first)
		p->nr = b->end - p->first;
	p->last = p->first + (p->nr - 1);
	return true;
}

/* Each folio of 2^@p->order pages that meets first .. last, in index order, with its key. */
static always_inline int walk(const struct rf_pages *p, rf_page_folio_cb cb, void *ctx)
{
	unsigned int order = p->order;
	uint64_t step = order >= 64 ? 0 : 1ull << order;
	uint64_t f = step ? p->first & ~(step - 1) : 0;
	int r;

	for (;; f += step) {
		r = cb(page_key(p->space_key, f), order, ctx);
		if (r)
			return r;
		/* the next folio starts past the last page */
		if (!step || p->last - f < step)
			return 0;
	}
}

/* One call, all of it inline: the replay asks it of every reference for every policy. */
int rf_event_folios(const struct rf_event *ev, unsigned int page_shift,
		    const struct rf_page_bounds *bounds, rf_page_folio_cb cb, void *ctx)
{
	struct rf_pages p;

	if (!fill(ev, page_shift, &p) || !p.touches || (bounds && !bound(&p, bounds)))
		return 0;
	return walk(&p, cb, ctx);
}
