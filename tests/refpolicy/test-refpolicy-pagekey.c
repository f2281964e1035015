/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rf_refpolicy_page_refs(): trace events become the page references the model
 * would see (the rules are in refault/refpolicy.h).
 */
#include <string.h>

#include <refault/refpolicy.h>

#include "tests/lib/tap.h"

struct refs {
	uint64_t key[64];
	unsigned int order[64];
	size_t n;
};

static int collect(uint64_t key, unsigned int order, void *ctx)
{
	struct refs *r = ctx;

	if (r->n == 64)
		return 1;
	r->key[r->n] = key;
	r->order[r->n++] = order;
	return 0;
}

static struct refs refs_of(const struct rf_event *ev)
{
	struct refs r = { .n = 0 };

	rf_refpolicy_page_refs(ev, 12, collect, &r);
	return r;
}

static struct rf_event file_ev(uint16_t type, uint32_t dev, uint64_t ino, uint64_t index,
			       uint64_t nr, uint8_t order)
{
	struct rf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.u.file.dev = dev;
	ev.u.file.ino = ino;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	ev.u.file.order = order;
	return ev;
}

static bool all_distinct(const struct refs *r)
{
	size_t i, j;

	for (i = 0; i < r->n; i++)
		for (j = i + 1; j < r->n; j++)
			if (r->key[i] == r->key[j])
				return false;
	return true;
}

static void file_events(void)
{
	struct rf_event rd = file_ev(RF_EV_FILE_READ, 8 << 20 | 1, 42, 10, 5, 0);
	struct rf_event fault = file_ev(RF_EV_FILE_FAULT, 8 << 20 | 1, 42, 12, 0, 0);
	struct rf_event other = file_ev(RF_EV_FILE_READ, 8 << 20 | 1, 43, 10, 5, 0);
	struct rf_event big = file_ev(RF_EV_FILE_READ, 8 << 20 | 1, 42, 1, 6, 2);
	struct rf_event top = file_ev(RF_EV_FILE_WRITE, 1, 1, UINT64_MAX - 1, 5, 0);
	struct rf_event none = file_ev(RF_EV_FILE_READ, 1, 1, 7, 0, 0);
	struct rf_event ra = file_ev(RF_EV_FILE_READAHEAD, 8 << 20 | 1, 42, 0, 512, 9);
	struct refs a = refs_of(&rd), b = refs_of(&rd), f = refs_of(&fault), o = refs_of(&other);
	struct refs g = refs_of(&big);

	ok(a.n == 5 && all_distinct(&a), "a file read of 5 pages is 5 references to 5 pages");
	ok(!memcmp(&a, &b, sizeof(a)), "the same read names the same pages again");
	ok(f.n == 1 && f.key[0] == a.key[2], "a fault on page 12 is the read's third page");
	ok(o.n == 5 && o.key[0] != a.key[0], "another inode: other pages");
	ok(g.n == 2 && g.order[0] == 2 && g.key[0] != g.key[1],
	   "order-2 read of pages 1..6: two folios (0-3, 4-7) of order 2");
	is_int(refs_of(&top).n, 2, "a range running past the top of the index space stops there");
	is_int(refs_of(&none).n, 1, "nr 0 counts as one page");
	is_int(refs_of(&ra).n, 0, "file_readahead is a prefetch: no page references");
}

static void anon_and_access(void)
{
	struct rf_event ev;
	struct refs a, b, c;

	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_ANON_FAULT;
	ev.u.anon.mm = 0xffff888000001000ull;
	ev.u.anon.addr = 0x7f0000001000ull;
	a = refs_of(&ev);
	ev.u.anon.addr = 0x7f0000001fffull;
	b = refs_of(&ev);
	ev.u.anon.addr = 0x7f0000002000ull;
	c = refs_of(&ev);
	ok(a.n == 1 && a.key[0] == b.key[0] && c.key[0] != a.key[0],
	   "anon: one reference per fault, keyed by addr >> 12");
	ev.u.anon.addr = 0x7f0000201000ull;
	ev.u.anon.order = 9;
	a = refs_of(&ev);
	ev.u.anon.addr = 0x7f00003ff000ull;
	b = refs_of(&ev);
	ok(a.order[0] == 9 && a.key[0] == b.key[0],
	   "anon THP: faults in one 2 MiB folio share a key");

	memset(&ev, 0, sizeof(ev));
	ev.type = RF_EV_ACCESS;
	ev.u.access.key = 77;
	a = refs_of(&ev);
	ev.u.access.flags = RF_REF_ANON;
	b = refs_of(&ev);
	ok(a.n == 1 && b.n == 1 && a.key[0] != b.key[0],
	   "access: anon and file keys are different pages, as in the model");
	ev.type = RF_EV_MMAP;
	is_int(refs_of(&ev).n, 0, "state events have no page references");
}

static int stop_at_two(uint64_t key, unsigned int order, void *ctx)
{
	(void)key;
	(void)order;
	return ++*(int *)ctx == 2 ? 7 : 0;
}

static void feeding(void)
{
	struct rf_event rd = file_ev(RF_EV_FILE_READ, 1, 5, 0, 100, 0);
	struct rf_refpolicy *p;
	struct rf_refpolicy_stats st;
	int calls = 0;

	is_int(rf_refpolicy_page_refs(&rd, 12, stop_at_two, &calls), 7,
	       "a callback's non-zero return stops the walk and is returned");
	if (rf_refpolicy_new(&p, RF_REFPOLICY_LRU, 64)) {
		skip(1, "no policy");
		return;
	}
	rf_refpolicy_feed_event(p, &rd, 12);
	rd.u.file.index = 36;	/* pages 36..135: 36..99 were the last 64 read */
	rf_refpolicy_feed_event(p, &rd, 12);
	rf_refpolicy_stats(p, &st);
	ok(st.refs == 200 && st.hits == 64 && st.misses == 136,
	   "lru of 64 pages, reads 0..99 then 36..135: the 64 most recent pages hit");
	rf_refpolicy_free(p);
}

/*
 * The keys themselves, as they have always been: they decide which pages
 * OPT and LRU count as one, so a change of hash would change their results.
 */
static void pinned(void)
{
	struct rf_event rd = file_ev(RF_EV_FILE_READ, 8, 12, 5, 1, 0);
	struct rf_event flt = file_ev(RF_EV_FILE_FAULT, 8, 12, 700, 0, 9);
	struct rf_event anon, acc;
	struct refs r;

	memset(&anon, 0, sizeof(anon));
	anon.type = RF_EV_ANON_FAULT;
	anon.u.anon.mm = 0xffff888000001000ull;
	anon.u.anon.addr = 0x7f0000001000ull;
	memset(&acc, 0, sizeof(acc));
	acc.type = RF_EV_ACCESS;
	acc.u.access.key = 42;
	r = refs_of(&rd);
	ok(r.n == 1 && r.key[0] == 0x68f31c5bc97133b9ull, "file (8, 12) page 5: its key");
	r = refs_of(&flt);
	ok(r.n == 1 && r.key[0] == 0x0d1ae634ad59adfdull && r.order[0] == 9,
	   "a fault at 700 in a PMD folio: the folio at 512's key");
	r = refs_of(&anon);
	ok(r.n == 1 && r.key[0] == 0xfe1ef86b66601c79ull, "an anon page: its key");
	r = refs_of(&acc);
	ok(r.n == 1 && r.key[0] == 0xac63742b90e7cd69ull, "access key 42: its file-space key");
	acc.u.access.flags = RF_REF_ANON;
	r = refs_of(&acc);
	ok(r.n == 1 && r.key[0] == 0xbc78108db768ed91ull, "access key 42: its anon-space key");
}

int main(void)
{
	plan(8 + 4 + 2 + 5);
	file_events();
	anon_and_access();
	feeding();
	pinned();
	return done_testing();
}
