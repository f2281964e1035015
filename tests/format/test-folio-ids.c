/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Folio ids in place of pfns (rf_trace_folio_ids_apply(), and the writer's
 * folio_ids option, which record uses).  A page-cache add always takes a
 * new id; the other three types take the id of their pfn's folio, a new one
 * for a pfn not seen; a delete forgets its pfn; a pfn of 0 and other types
 * are left alone; two events name one id exactly when they named one pfn
 * with no delete between them (checked against the rule on a random stream).
 * The writer with folio_ids writes the same ids and says "ids" in the header.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include <unistd.h>

#include <refault/trace.h>

#include "lib/compiler.h"
#include "tests/lib/tap.h"

static uint64_t apply(struct rf_trace_folio_ids *s, unsigned int type, uint64_t pfn)
{
	struct rf_event ev = { .type = type };

	if (type == RF_EV_LRU_ADD || type == RF_EV_LRU_ACTIVATE)
		ev.u.lru.pfn = pfn;
	else
		ev.u.file.pfn = pfn;
	if (rf_trace_folio_ids_apply(s, &ev))
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
	struct rf_trace_folio_ids *s = rf_trace_folio_ids_new();
	unsigned int i, type, pfn;
	int bad = 0;

	srand(1);
	for (i = 0; i < EVENTS && !bad; i++) {
		type = types[rand() % 4];
		pfn = 1 + rand() % PFNS;
		id = apply(s, type, pfn);
		if (type == RF_EV_PAGECACHE_ADD || !live[pfn])
			live[pfn] = ++last;
		bad = id != live[pfn];
		if (type == RF_EV_PAGECACHE_DEL)
			live[pfn] = 0;
	}
	rf_trace_folio_ids_free(s);
	return !bad;
}

/* The writer with folio_ids: the events read back carry the ids, the header says so. */
static void writer_option(void)
{
	static const struct {
		unsigned int type;
		uint64_t pfn, want;
	} evs[] = {
		{ RF_EV_PAGECACHE_ADD, 0x5000, 1 }, { RF_EV_LRU_ADD, 0x5000, 1 },
		{ RF_EV_PAGECACHE_ADD, 0x9000, 2 }, { RF_EV_PAGECACHE_DEL, 0x5000, 1 },
		{ RF_EV_LRU_ACTIVATE, 0x5000, 3 }, { RF_EV_LRU_ADD, 0, 0 },
	};
	struct rf_writer_options wo = { .folio_ids = true };
	char path[] = "/tmp/test-folio-ids.XXXXXX";
	struct rf_trace_header h;
	struct rf_trace_writer *w;
	struct rf_trace_reader *r;
	struct rf_event ev;
	size_t i, n = 0, good = 0;
	int fd = mkstemp(path), err;

	rf_trace_header_init(&h, "test-folio-ids");
	snprintf(h.pfns, sizeof(h.pfns), "kernel");
	err = fd < 0 ? -1 : rf_trace_writer_fdopen(&w, fd, &h, &wo);
	for (i = 0; !err && i < ARRAY_SIZE(evs); i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = evs[i].type;
		ev.time = i;
		if (ev.type == RF_EV_LRU_ADD || ev.type == RF_EV_LRU_ACTIVATE)
			ev.u.lru.pfn = evs[i].pfn;
		else
			ev.u.file.pfn = evs[i].pfn;
		err = rf_trace_writer_append(w, &ev);
	}
	if (!err)
		err = rf_trace_writer_close(w);
	if (fd >= 0)
		close(fd);
	ok(!err, "a trace written with folio_ids");
	err = rf_trace_reader_open(&r, path, 0);
	is_str(err ? "" : rf_trace_reader_header(r)->pfns, "ids",
	       "its header says ids, whatever the caller's header said");
	while (!err && rf_trace_reader_next(r, &ev) == 1 && n < ARRAY_SIZE(evs)) {
		uint64_t pfn = ev.type == RF_EV_LRU_ADD || ev.type == RF_EV_LRU_ACTIVATE ?
			       ev.u.lru.pfn : ev.u.file.pfn;

		good += pfn == evs[n++].want;
	}
	ok(n == ARRAY_SIZE(evs) && good == n, "the events read back carry the ids (%zu of %zu)",
	   good, n);
	if (!err)
		rf_trace_reader_close(r);
	unlink(path);
}

int main(void)
{
	struct rf_trace_folio_ids *s = rf_trace_folio_ids_new();
	struct rf_event ev = { .type = RF_EV_FILE_READ };
	uint64_t a;

	plan(14);
	ok(apply(s, RF_EV_PAGECACHE_ADD, 0x123456) == 1, "the first folio added is 1");
	ok(apply(s, RF_EV_LRU_ADD, 0x123456) == 1, "its lru_add names it");
	ok(apply(s, RF_EV_LRU_ACTIVATE, 0x999) == 2, "a pfn never seen gets the next id");
	ok(apply(s, RF_EV_LRU_ACTIVATE, 0x999) == 2, "... and keeps it");
	ok(apply(s, RF_EV_PAGECACHE_ADD, 0x999) == 3,
	   "a page-cache add at a known pfn is a new folio: a new id");
	a = apply(s, RF_EV_PAGECACHE_DEL, 0x123456);
	ok(a == 1, "a delete names the folio it deletes (%" PRIu64 ")", a);
	ok(apply(s, RF_EV_LRU_ADD, 0x123456) == 4,
	   "after the delete, its pfn is another folio's: a new id");
	ok(apply(s, RF_EV_LRU_ADD, 0) == 0, "a pfn of 0 (none known) stays 0");
	ev.u.file.index = 7;
	ev.u.file.nr = 1;
	ok(!rf_trace_folio_ids_apply(s, &ev) && ev.u.file.index == 7 && ev.u.file.pfn == 0,
	   "another type is left alone");
	rf_trace_folio_ids_free(s);
	s = rf_trace_folio_ids_new();
	ok(apply(s, RF_EV_LRU_ADD, 0x123456) == 1, "a new numbering starts from 1");
	rf_trace_folio_ids_free(s);
	ok(random_stream(), "200,000 random events over 64 pfns: the ids the rule gives");
	writer_option();
	return done_testing();
}
