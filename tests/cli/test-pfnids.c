/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli/pfnids.c: folio ids in place of pfns.  A page-cache add always takes a
 * new id; the other three types take the id of their pfn's folio, a new one
 * for a pfn not seen; a delete forgets its pfn; a pfn of 0 and other types
 * are left alone; two events name one id exactly when they named one pfn
 * with no delete between them (checked against the rule on a random stream).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "cli/pfnids.h"
#include "tests/lib/tap.h"

static uint64_t apply(struct rf_pfn_ids *s, unsigned int type, uint64_t pfn)
{
	struct rf_event ev = { .type = type };

	if (type == RF_EV_LRU_ADD || type == RF_EV_LRU_ACTIVATE)
		ev.u.lru.pfn = pfn;
	else
		ev.u.file.pfn = pfn;
	if (rf_pfn_ids_apply(s, &ev))
		return UINT64_MAX;
	return type == RF_EV_LRU_ADD || type == RF_EV_LRU_ACTIVATE ? ev.u.lru.pfn : ev.u.file.pfn;
}

/* A random stream of the four types over few pfns, checked against a plain table. */
static int random_stream(void)
{
	enum { PFNS = 64, EVENTS = 200000 };
	static const unsigned int types[] = { RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_DEL,
					      RF_EV_LRU_ADD, RF_EV_LRU_ACTIVATE };
	uint64_t live[PFNS + 1] = { 0 }, last = 0, id;
	struct rf_pfn_ids s = { 0 };
	unsigned int i, type, pfn;
	int bad = 0;

	srand(1);
	for (i = 0; i < EVENTS && !bad; i++) {
		type = types[rand() % 4];
		pfn = 1 + rand() % PFNS;
		id = apply(&s, type, pfn);
		if (type == RF_EV_PAGECACHE_ADD || !live[pfn])
			live[pfn] = ++last;
		bad = id != live[pfn];
		if (type == RF_EV_PAGECACHE_DEL)
			live[pfn] = 0;
	}
	rf_pfn_ids_free(&s);
	return !bad;
}

int main(void)
{
	struct rf_pfn_ids s = { 0 };
	struct rf_event ev = { .type = RF_EV_FILE_READ };
	uint64_t a;

	plan(11);
	ok(apply(&s, RF_EV_PAGECACHE_ADD, 0x123456) == 1, "the first folio added is 1");
	ok(apply(&s, RF_EV_LRU_ADD, 0x123456) == 1, "its lru_add names it");
	ok(apply(&s, RF_EV_LRU_ACTIVATE, 0x999) == 2, "a pfn never seen gets the next id");
	ok(apply(&s, RF_EV_LRU_ACTIVATE, 0x999) == 2, "... and keeps it");
	ok(apply(&s, RF_EV_PAGECACHE_ADD, 0x999) == 3,
	   "a page-cache add at a known pfn is a new folio: a new id");
	a = apply(&s, RF_EV_PAGECACHE_DEL, 0x123456);
	ok(a == 1, "a delete names the folio it deletes (%" PRIu64 ")", a);
	ok(apply(&s, RF_EV_LRU_ADD, 0x123456) == 4,
	   "after the delete, its pfn is another folio's: a new id");
	ok(apply(&s, RF_EV_LRU_ADD, 0) == 0, "a pfn of 0 (none known) stays 0");
	ev.u.file.index = 7;
	ev.u.file.nr = 1;
	ok(!rf_pfn_ids_apply(&s, &ev) && ev.u.file.index == 7 && ev.u.file.pfn == 0,
	   "another type is left alone");
	rf_pfn_ids_free(&s);
	ok(apply(&s, RF_EV_LRU_ADD, 0x123456) == 1, "after free, a new numbering from 1");
	rf_pfn_ids_free(&s);
	ok(random_stream(), "200,000 random events over 64 pfns: the ids the rule gives");
	return done_testing();
}
