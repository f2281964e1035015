/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which pages an event names, read from its type's entry in the type table
 * (event_types.c: .pages, .touches, .writes, .nr0_to_end), and the one page
 * identity every reader uses: rf_event_pages(), rf_page_space_key(),
 * rf_page_key(), rf_pages_key(); refault/trace.h gives the rules.
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

/* Arbitrary odd constants, one per kind of space, so the spaces do not overlap by design. */
#define SPACE_FILE		0x66696c6500000001ull	/* "file" */
#define SPACE_ANON		0x616e6f6e00000003ull	/* "anon" */
#define SPACE_ACCESS_FILE	0x6163636600000005ull	/* "accf" */
#define SPACE_ACCESS_ANON	0x6163636100000007ull	/* "acca" */
#define SPACE_GEN		0x67656e0000000009ull	/* "gen" */

uint64_t rf_page_space_key(const struct rf_page_space *s)
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

uint64_t rf_page_key(uint64_t space_key, uint64_t index)
{
	return rf_hash64(space_key ^ index);
}

uint64_t rf_pages_key(const struct rf_pages *p, uint64_t i)
{
	return rf_page_key(p->space_key, p->first + i);
}

/* The folio of 2^@order pages holding @index (from order 64: the whole index space). */
static void set_folio(struct rf_pages *p, uint64_t index, unsigned int order)
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

/* Pages @index .. @index + @nr - 1, stopping at 2^64 - 1; @nr 0: every page from @index on. */
static void set_range(struct rf_pages *p, uint64_t index, uint64_t nr)
{
	p->first = index;
	p->last = nr && nr - 1 <= UINT64_MAX - index ? index + (nr - 1) : UINT64_MAX;
	p->nr = p->last - p->first + 1;
	if (!p->nr)	/* 0 .. 2^64 - 1 */
		p->nr = UINT64_MAX;
}

/* A file's pages; the flags that say whether the task wrote (a range has none: its type says). */
static uint8_t file_pages(struct rf_pages *p, const struct rf_event *ev,
			  const struct rf_event_type_info *ti)
{
	uint64_t nr = ev->u.file.nr;

	p->space = (struct rf_page_space){ .kind = RF_SPACE_FILE, .dev = ev->u.file.dev,
					   .id = ev->u.file.ino };
	switch (ti->pages) {
	case RF_PAGES_FILE_RANGE:
		p->order = ev->u.file.order;
		set_range(p, ev->u.file.index, nr || ti->nr0_to_end ? nr : 1);
		return 0;
	case RF_PAGES_FILE_TAIL:
		set_range(p, ev->u.file.index, 0);
		return 0;
	default:
		set_folio(p, ev->u.file.index, ev->u.file.order);
		return ev->u.file.flags;
	}
}

bool rf_event_pages(const struct rf_event *ev, unsigned int page_shift, struct rf_pages *out)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	uint8_t flags;

	*out = (struct rf_pages){ .space.kind = RF_SPACE_NONE };
	if (!ti || ti->pages == RF_PAGES_NONE)
		return false;
	switch (ti->pages) {
	case RF_PAGES_ANON:
		out->space = (struct rf_page_space){ .kind = RF_SPACE_ANON, .id = ev->u.anon.mm };
		set_folio(out, page_shift < 64 ? ev->u.anon.addr >> page_shift : 0,
			  ev->u.anon.order);
		flags = ev->u.anon.flags;
		break;
	case RF_PAGES_ACCESS:
		flags = ev->u.access.flags;
		out->space.kind = flags & RF_REF_ANON ? RF_SPACE_ACCESS_ANON : RF_SPACE_ACCESS_FILE;
		set_folio(out, ev->u.access.key, ev->u.access.order);
		break;
	default:
		flags = file_pages(out, ev, ti);
		break;
	}
	out->touches = ti->touches;
	out->reads = ti->touches && !ti->writes;
	out->write = ti->touches && (ti->writes || (flags & RF_REF_WRITE));
	out->space_key = rf_page_space_key(&out->space);
	return true;
}
