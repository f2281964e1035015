/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_event_pages(): which pages an event names, from its type's table
 * entry; rf_page_space_key(), rf_page_key(), rf_pages_key() and
 * rf_event_folios(): the one page identity, its keys pinned (the reference
 * policies' results depend on which pages are one,
 * tests/refpolicy/test-refpolicy-pagekey pins the same values).
 */
#include <string.h>

#include <refault/trace.h>

#include "tests/lib/tap.h"

static struct rf_event file_ev(uint16_t type, uint64_t index, uint64_t nr, uint8_t order)
{
	struct rf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.u.file.dev = 8;
	ev.u.file.ino = 12;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = order;
	return ev;
}

static struct rf_pages pages_of(const struct rf_event *ev)
{
	struct rf_pages p;

	rf_event_pages(ev, 12, &p);
	return p;
}

static bool span(const struct rf_pages *p, uint64_t first, uint64_t last, uint64_t nr)
{
	return p->first == first && p->last == last && p->nr == nr;
}

static void ranges(void)
{
	struct rf_event rd = file_ev(RF_EV_FILE_READ, 10, 5, 0);
	struct rf_event ev;
	struct rf_pages p = pages_of(&rd);

	ok(p.space.kind == RF_SPACE_FILE && p.space.dev == 8 && p.space.id == 12 && !p.folio &&
	   span(&p, 10, 14, 5) && p.touches && p.reads && !p.write,
	   "file_read: pages index .. index + nr - 1 of (dev, ino), touched, read");
	ev = file_ev(RF_EV_FILE_READ, 7, 0, 0);
	p = pages_of(&ev);
	ok(span(&p, 7, 7, 1), "a read of nr 0 is the page at index, as the model reads it");
	ev = file_ev(RF_EV_FILE_WRITE, UINT64_MAX - 1, 5, 0);
	p = pages_of(&ev);
	ok(span(&p, UINT64_MAX - 1, UINT64_MAX, 2) && p.touches && !p.reads && p.write,
	   "file_write: touched, written, not read; a range stops at the top of the index space");
	ev = file_ev(RF_EV_FILE_READAHEAD, 0, 512, 9);
	p = pages_of(&ev);
	ok(span(&p, 0, 511, 512) && p.order == 9 && !p.folio && !p.touches && !p.reads,
	   "file_readahead: its range in folios of its order, named, not touched");
	ev = file_ev(RF_EV_FADVISE, 100, 0, 0);
	p = pages_of(&ev);
	ok(span(&p, 100, UINT64_MAX, UINT64_MAX - 99) && !p.touches,
	   "fadvise of nr 0: every page from index on (POSIX's len 0)");
	ev = file_ev(RF_EV_FADVISE, 0, 0, 0);
	p = pages_of(&ev);
	ok(span(&p, 0, UINT64_MAX, UINT64_MAX), "the whole index space: nr saturates");
	ev = file_ev(RF_EV_FADVISE, 100, 3, 0);
	p = pages_of(&ev);
	ok(span(&p, 100, 102, 3), "fadvise of 3 pages");
	ev = file_ev(RF_EV_TRUNCATE, 40, 0, 0);
	ev.u.file.flags = RF_TRUNC_UNLINK;
	p = pages_of(&ev);
	ok(span(&p, 40, UINT64_MAX, UINT64_MAX - 39) && !p.touches && !p.write,
	   "truncate: every page from index on; its flags are not a write");
}

static void folios(void)
{
	struct rf_event ev = file_ev(RF_EV_FILE_FAULT, 700, 0, 9);
	struct rf_pages p = pages_of(&ev);

	ok(p.folio && span(&p, 512, 1023, 512) && p.order == 9 && p.reads && !p.write,
	   "file_fault at 700 of order 9: the folio at 512");
	ev.u.file.flags = RF_REF_WRITE;
	p = pages_of(&ev);
	ok(p.reads && p.write, "a write fault found its page and wrote it");
	ev = file_ev(RF_EV_PAGECACHE_ADD, 5, 0, 2);
	p = pages_of(&ev);
	ok(p.folio && span(&p, 4, 7, 4) && !p.touches && !p.write,
	   "pagecache_add: the folio holding index, named, not touched");
	ev = file_ev(RF_EV_PAGECACHE_DEL, 5, 0, 200);
	p = pages_of(&ev);
	ok(span(&p, 0, UINT64_MAX, UINT64_MAX), "an order past 63: the whole index space");

	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_ANON_FAULT;
	ev.u.anon.mm = 0xffff888000001000ull;
	ev.u.anon.addr = 0x7f00003ff000ull;
	ev.u.anon.order = 9;
	ev.u.anon.flags = RF_REF_WRITE;
	p = pages_of(&ev);
	ok(p.space.kind == RF_SPACE_ANON && p.space.id == ev.u.anon.mm &&
	   span(&p, 0x7f0000200ull, 0x7f00003ffull, 512) && p.write && p.reads,
	   "anon_fault: the folio of virtual page numbers holding addr >> page_shift");

	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_ACCESS;
	ev.u.access.key = 77;
	ev.u.access.order = 2;
	p = pages_of(&ev);
	ok(p.space.kind == RF_SPACE_ACCESS_FILE && span(&p, 76, 79, 4) && !p.write,
	   "access: the folio of keys holding key, in the file key space");
	ev.u.access.flags = RF_REF_ANON | RF_REF_WRITE;
	p = pages_of(&ev);
	ok(p.space.kind == RF_SPACE_ACCESS_ANON && p.write, "RF_REF_ANON: the anonymous key space");
}

/* Every type: pages exactly when its entry says, touched exactly when it says. */
static void every_type(void)
{
	unsigned int t, agree = 0, total = 0;
	struct rf_event ev;
	struct rf_pages p;

	for (t = 0; t < RF_EV_TYPE_MAX + 2; t++) {
		const struct rf_event_type_info *ti = rf_event_type_info(t);
		bool named;

		memset(&ev, 0, sizeof(ev));
		ev.type = (uint16_t)t;
		named = rf_event_pages(&ev, 12, &p);
		total++;
		if (!ti || ti->pages == RF_PAGES_NONE)
			agree += !named && p.space.kind == RF_SPACE_NONE && !p.nr && !p.touches;
		else
			agree += named && p.space.kind != RF_SPACE_NONE && p.nr >= 1 &&
				 p.touches == ti->touches && (!p.reads || p.touches) &&
				 p.space_key == rf_page_space_key(&p.space);
	}
	ok(agree == total, "every type: pages as its entry says (%u of %u)", agree, total);
	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_DAMON_REGION;
	ok(!rf_event_pages(&ev, 12, &p), "a DAMON region names no page");
	ev.type = RF_EV_PTE_YOUNG;
	ok(!rf_event_pages(&ev, 12, &p), "nor do a scan's young PTEs (addresses in an mm)");
	ok(rf_event_type_info(RF_EV_FILE_READ)->stack &&
	   rf_event_type_info(RF_EV_ANON_FAULT)->stack &&
	   !rf_event_type_info(RF_EV_ACCESS)->stack &&
	   !rf_event_type_info(RF_EV_FILE_READAHEAD)->stack,
	   "the references a call stack can name: read, write, faults");
}

static void keys(void)
{
	struct rf_event rd = file_ev(RF_EV_FILE_READ, 5, 1, 0);
	struct rf_pages p = pages_of(&rd);
	struct rf_page_space sp = p.space, anon = { .kind = RF_SPACE_ANON,
						    .id = 0xffff888000001000ull };
	struct rf_page_space af = { .kind = RF_SPACE_ACCESS_FILE };
	struct rf_page_space aa = { .kind = RF_SPACE_ACCESS_ANON };
	uint64_t k = rf_page_key(p.space_key, 5);

	ok(k == 0x68f31c5bc97133b9ull, "file (8, 12) page 5: its key, as it always was");
	ok(rf_page_key(rf_page_space_key(&anon), 0x7f0000001ull) == 0xfe1ef86b66601c79ull,
	   "an anon page: its key");
	ok(rf_page_key(rf_page_space_key(&af), 42) == 0xac63742b90e7cd69ull &&
	   rf_page_key(rf_page_space_key(&aa), 42) == 0xbc78108db768ed91ull,
	   "access key 42: its file-space and anon-space keys");
	ok(rf_page_key(p.space_key, 6) != k && rf_page_key(p.space_key, 4) != k,
	   "other pages of the file: other keys");
	rd.u.file.index = 3;
	rd.u.file.nr = 4;
	p = pages_of(&rd);
	ok(rf_pages_key(&p, 2) == k && rf_pages_key(&p, 0) == rf_page_key(p.space_key, 3),
	   "rf_pages_key(): the key of the run's i-th page");
	sp.gen = 1;
	ok(rf_page_space_key(&sp) != p.space_key, "a file's next generation: another space");
	sp.gen = 0;
	sp.id = 13;
	ok(rf_page_key(rf_page_space_key(&sp), 5) != k, "another inode: another page");
}

struct walk {
	uint64_t key[8];
	unsigned int order[8];
	int n, stop_at;
};

static int walk_one(uint64_t key, unsigned int order, void *ctx)
{
	struct walk *w = ctx;

	w->key[w->n] = key;
	w->order[w->n++] = order;
	return w->n == w->stop_at ? 9 : w->n == 8;
}

/* rf_event_folios(): each folio of the pages an event touches, with its key, bounded. */
static void folio_walk(void)
{
	struct rf_event ev = file_ev(RF_EV_FILE_READ, 1, 6, 2);
	struct rf_pages p = pages_of(&ev);
	struct rf_page_bounds b = { .end = 100, .max_range = 3 };
	struct walk w = { .n = 0 };

	ok(rf_event_folios(&ev, 12, NULL, walk_one, &w) == 0 && w.n == 2 && w.order[0] == 2 &&
	   w.key[0] == rf_page_key(p.space_key, 0) && w.key[1] == rf_page_key(p.space_key, 4),
	   "pages 1..6 in folios of order 2: the folios at 0 and 4, keyed by their first page");
	ev = file_ev(RF_EV_FILE_FAULT, 700, 0, 9);
	w = (struct walk){ .n = 0 };
	ok(rf_event_folios(&ev, 12, NULL, walk_one, &w) == 0 && w.n == 1 &&
	   w.key[0] == 0x0d1ae634ad59adfdull && w.order[0] == 9,
	   "a fault at 700 in a PMD folio: one folio, the one at 512, its key as it always was");
	ev = file_ev(RF_EV_FILE_READ, 0, 100, 0);
	w = (struct walk){ .n = 0, .stop_at = 3 };
	ok(rf_event_folios(&ev, 12, NULL, walk_one, &w) == 9 && w.n == 3,
	   "a callback's non-zero return stops the walk and is returned");
	ev = file_ev(RF_EV_FILE_READAHEAD, 0, 100, 0);
	w = (struct walk){ .n = 0 };
	ok(rf_event_folios(&ev, 12, NULL, walk_one, &w) == 0 && w.n == 0,
	   "readahead: named, not touched, no folio");
	ev = file_ev(RF_EV_FILE_READ, 98, 50, 0);
	w = (struct walk){ .n = 0 };
	ok(rf_event_folios(&ev, 12, &b, walk_one, &w) == 0 && w.n == 2,
	   "bounds: a range stops before the end");
	ev = file_ev(RF_EV_FILE_READ, 10, 50, 0);
	w = (struct walk){ .n = 0 };
	ok(rf_event_folios(&ev, 12, &b, walk_one, &w) == 0 && w.n == 3,
	   "bounds: at most max_range pages");
	ev = file_ev(RF_EV_FILE_FAULT, 100, 0, 0);
	w = (struct walk){ .n = 0 };
	ok(rf_event_folios(&ev, 12, &b, walk_one, &w) == 0 && w.n == 0,
	   "bounds: a page at the end names nothing");
}

int main(void)
{
	plan(8 + 7 + 3 + 7 + 8);
	ranges();
	folios();
	every_type();
	keys();
	folio_walk();
	return done_testing();
}
