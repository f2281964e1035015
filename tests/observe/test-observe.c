/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-observe: the one account of what the kernel did.  The rule of
 * where a cumulative counter counts from gives the same number to the
 * results' "observed" section (compare NAME@kernel) and to validate's
 * quantities; attribution of page-cache deletions; orders from a hostile
 * file are clamped before any shift; an event's pages are the type table's.
 */
#include <string.h>

#include "replayer/observe/observe.h"
#include "tests/lib/tap.h"

static uint64_t t;

static void feed(struct rf_observe *o, struct rf_event *ev)
{
	ev->time = ++t;
	if (rf_observe_feed(o, ev))
		diag("feed of a %s failed", rf_event_type_name(ev->type));
}

static void mkdir_cg(struct rf_observe *o, uint64_t id, const char *path)
{
	struct rf_event ev = { .type = RF_EV_CGROUP_MKDIR };

	ev.u.cgroup.id = id;
	ev.u.cgroup.parent = 1;
	ev.u.cgroup.path = path;
	feed(o, &ev);
}

static void snapshot(struct rf_observe *o, unsigned int source, uint64_t cg, uint64_t refaults,
		     uint64_t active_bytes)
{
	struct rf_counter c[2] = { { "workingset_refault_file", refaults },
				   { "active_file", active_bytes } };
	struct rf_event ev = { .type = RF_EV_COUNTERS };

	ev.u.counters.source = source;
	ev.u.counters.cgroup = cg;
	ev.u.counters.entries = c;
	ev.u.counters.nr = 2;
	feed(o, &ev);
}

static void page(struct rf_observe *o, unsigned int type, uint64_t cg, uint64_t index,
		 unsigned int order)
{
	struct rf_event ev = { .type = type };

	ev.u.file.dev = 8;
	ev.u.file.ino = 12;
	ev.u.file.index = index;
	ev.u.file.order = (uint8_t)order;
	ev.u.file.cgroup = cg;
	feed(o, &ev);
}

static uint64_t json_value(const struct rf_observe *o, const char *key)
{
	json_object *obj = json_object_new_object(), *v;
	uint64_t r = UINT64_MAX;

	if (!rf_observe_to_json(o, obj) && json_object_object_get_ex(obj, key, &v))
		r = json_object_get_uint64(v);
	json_object_put(obj);
	return r;
}

static void count_from(void)
{
	struct rf_observe *o;
	uint64_t q[RF_OBS_NR];
	long a, b;

	rf_observe_new(&o, 4096, RF_OBSERVE_PAGES);
	mkdir_cg(o, 10, "/old");		/* before any snapshot: counts from its first */
	snapshot(o, RF_COUNTERS_VMSTAT, 0, 1000, 0);
	mkdir_cg(o, 11, "/new");		/* born in the trace: counts from zero */
	snapshot(o, RF_COUNTERS_MEMCG_STAT, 10, 100, 4096 * 7);
	snapshot(o, RF_COUNTERS_MEMCG_STAT, 11, 100, 4096 * 7);
	snapshot(o, RF_COUNTERS_MEMCG_STAT, 10, 150, 4096 * 9);
	snapshot(o, RF_COUNTERS_MEMCG_STAT, 11, 150, 4096 * 9);
	snapshot(o, RF_COUNTERS_VMSTAT, 0, 1300, 0);
	a = rf_observe_cgroup_by_path(o, "/old");
	b = rf_observe_cgroup_by_path(o, "/new");
	ok(a > 0 && b > 0, "both cgroups are known by path");
	is_int(json_value(o, "memcg./old.workingset_refault_file"), 50,
	       "observed: a cgroup older than the trace counts from its first snapshot");
	is_int(json_value(o, "memcg./new.workingset_refault_file"), 150,
	       "observed: a cgroup made during the trace counts from its creation");
	is_int(json_value(o, "memcg./new.active_file"), 9, "observed: a size is its last value, in pages");
	is_int(json_value(o, "vmstat.workingset_refault_file"), 300,
	       "observed: /proc/vmstat counts from its first snapshot");
	ok(rf_observe_memstat(o, (size_t)a, q) != 0, "validate's view of /old has memory.stat");
	is_int(q[RF_OBS_REFAULT_FILE], 50, "validate's /old refaults = observed's");
	rf_observe_memstat(o, (size_t)b, q);
	is_int(q[RF_OBS_REFAULT_FILE], 150, "validate's /new refaults = observed's");
	is_int(q[RF_OBS_ACTIVE_FILE], 9, "validate's /new active_file = observed's");
	ok(rf_observe_host(o, q) && q[RF_OBS_REFAULT_FILE] == 300, "validate's host = observed's");
	is_int(rf_observe_initial_pages(o, (size_t)b), 0, "a born cgroup had nothing charged");
	rf_observe_free(o);
}

static void attribution(void)
{
	struct rf_observe *o;
	long a;

	rf_observe_new(&o, 4096, RF_OBSERVE_PAGES);
	mkdir_cg(o, 10, "a");			/* named as the model names memcgs: "/a" */
	a = rf_observe_cgroup_by_path(o, "/a");
	ok(a > 0, "a relative path is named from the root");
	page(o, RF_EV_PAGECACHE_ADD, 10, 0, 2);
	page(o, RF_EV_PAGECACHE_DEL, 0, 0, 2);	/* the delete says no cgroup: found by page */
	page(o, RF_EV_PAGECACHE_DEL, 0, 64, 0);	/* never added */
	is_int(rf_observe_local(o, (size_t)a)[RF_OBS_ADD], 4, "the add is charged to /a, in pages");
	is_int(rf_observe_local(o, (size_t)a)[RF_OBS_DEL], 4, "its delete goes to /a");
	is_int(rf_observe_unknown_deletes(o), 1, "a delete the trace never saw added is apart");
	is_int(json_value(o, "obs.pagecache_del"), 5, "observed counts every delete");
	rf_observe_free(o);
}

static void hostile_orders(void)
{
	struct rf_observe *o;

	rf_observe_new(&o, 0, RF_OBSERVE_PAGES);
	page(o, RF_EV_PAGECACHE_ADD, 0, 0, 255);
	page(o, RF_EV_FILE_FAULT, 0, 1 << 20, 200);
	is_int(json_value(o, "obs.pagecache_add"), 1ull << RF_OBS_MAX_ORDER,
	       "an order of 255 from a file counts as the largest folio, no shift past 63");
	is_int(rf_observe_max_folio_order(o), RF_OBS_MAX_ORDER, "... and is the largest order");
	rf_observe_free(o);
}

static void read_nr(struct rf_observe *o, uint64_t index, uint64_t nr)
{
	struct rf_event ev = { .type = RF_EV_FILE_READ };

	ev.u.file.dev = 8;
	ev.u.file.ino = 12;
	ev.u.file.index = index;
	ev.u.file.nr = nr;
	feed(o, &ev);
}

/*
 * The pages an event names are the type table's (rf_event_pages()), as the
 * model and the reference policies read them: a folio is the aligned one
 * holding its index, a read of no pages reads the page at its index.
 */
static void table_pages(void)
{
	struct rf_observe *o;
	long a;

	rf_observe_new(&o, 4096, RF_OBSERVE_PAGES);
	page(o, RF_EV_PAGECACHE_ADD, 0, 4, 2);
	page(o, RF_EV_FILE_FAULT, 0, 5, 2);
	is_int(rf_observe_precached(o), 0, "a fault at 5 of order 2 reads the folio at 4, cached");
	rf_observe_free(o);

	rf_observe_new(&o, 4096, RF_OBSERVE_PAGES);
	mkdir_cg(o, 10, "/a");
	a = rf_observe_cgroup_by_path(o, "/a");
	page(o, RF_EV_PAGECACHE_ADD, 10, 4, 2);
	page(o, RF_EV_PAGECACHE_DEL, 0, 6, 2);
	ok(rf_observe_local(o, (size_t)a)[RF_OBS_DEL] == 4 && !rf_observe_unknown_deletes(o),
	   "a delete at 6 of order 2 is of the folio at 4, added by /a");
	rf_observe_free(o);

	rf_observe_new(&o, 4096, RF_OBSERVE_PAGES);
	read_nr(o, 100, 0);
	is_int(rf_observe_precached(o), 1, "a read of nr 0 reads the page at its index");
	rf_observe_free(o);
}

int main(void)
{
	plan(18 + 3);
	count_from();
	attribution();
	hostile_orders();
	table_pages();
	return done_testing();
}
