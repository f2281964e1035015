/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every event type survives write -> read unchanged, in format 3 (columns)
 * and 2.6 (an array an event), across chunk boundaries (deltas restart per
 * chunk), through the sequential reader,
 * the raw-frame + batch path, and JSON.  With a time resolution, times come
 * back rounded down to it and everything else unchanged.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <refault/trace.h>
#include <refault/trace-json.h>

#include "lib/compiler.h"
#include "tests/lib/tap.h"

#define NR_EVENTS 5000

static const struct rf_counter counters[] = { { "pgscan_file", 12 }, { "workingset_refault_file", 1ull << 40 } };
static const uint64_t frames[] = { 0xffffffff81000000ull, 0x401000, 7 };

/* A deterministic event of every known type, in turn. */
static void make_event(unsigned int i, struct rf_event *ev)
{
	static const uint16_t types[] = {
		RF_EV_FILE_READ, RF_EV_FILE_WRITE, RF_EV_FILE_FAULT, RF_EV_ANON_FAULT, RF_EV_ACCESS,
		RF_EV_FILE_READAHEAD, RF_EV_DAMON_REGION, RF_EV_PTE_YOUNG, RF_EV_MMAP, RF_EV_MUNMAP, RF_EV_MADVISE, RF_EV_FADVISE, RF_EV_FILE_SYNC, RF_EV_FILE_WRITTEN, RF_EV_TRUNCATE, RF_EV_FORK,
		RF_EV_EXEC, RF_EV_EXIT, RF_EV_CGROUP_MKDIR, RF_EV_CGROUP_RMDIR, RF_EV_CGROUP_ATTACH,
		RF_EV_CGROUP_LIMIT, RF_EV_NAME_FILE, RF_EV_NAME_PID, RF_EV_NAME_STACK, RF_EV_NAME_FRAME,
		RF_EV_PAGECACHE_ADD, RF_EV_PAGECACHE_DEL, RF_EV_LRU_ADD, RF_EV_LRU_ACTIVATE,
		RF_EV_RECLAIM, RF_EV_COUNTERS, RF_EV_LOST, RF_EV_MARKER, RF_EV_END,
	};

	memset(ev, 0, sizeof(*ev));
	ev->type = types[i % ARRAY_SIZE(types)];
	/* times go backwards now and then: deltas must be signed */
	ev->time = 1000000000ull + i * 1000ull - (i % 7 == 3 ? 5000 : 0);
	ev->cpu = i % 5;
	ev->pid = (int32_t)(1000 + i % 13) * (i % 11 == 0 ? -1 : 1);
	switch (ev->type) {
	case RF_EV_FILE_READ: case RF_EV_FILE_WRITE: case RF_EV_FILE_FAULT: case RF_EV_FADVISE:
	case RF_EV_FILE_SYNC: case RF_EV_FILE_WRITTEN:
	case RF_EV_FILE_READAHEAD: case RF_EV_TRUNCATE: case RF_EV_PAGECACHE_ADD: case RF_EV_PAGECACHE_DEL:
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 1234567 + i % 3;
		ev->u.file.index = i % 2 ? i * 3ull : UINT64_MAX - i;
		ev->u.file.order = (uint8_t)(i % 10);
		ev->u.file.flags = (uint8_t)(i & 0x1f);
		ev->u.file.advice = 4;
		ev->u.file.nr = 1 + i % 64;
		ev->u.file.mm = 0xffff888000000000ull + i;
		ev->u.file.pfn = 0x123456 + i;
		ev->u.file.cgroup = 42;
		if (ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_WRITE) {
			ev->u.file.order = ev->u.file.flags = ev->u.file.advice = 0;
			ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0;
		}
		break;
	default:
		break;
	}
	/* the references' stack (2.6): left out when 0, and up to 32 bits */
	if (ev->type == RF_EV_FILE_READ || ev->type == RF_EV_FILE_WRITE || ev->type == RF_EV_FILE_FAULT ||
	    ev->type == RF_EV_ANON_FAULT)
		ev->stack = i % 3 == 0 ? 0 : i % 3 == 1 ? 9 : UINT32_MAX;
	switch (ev->type) {
	case RF_EV_FILE_READAHEAD: ev->u.file.flags = ev->u.file.advice = 0; ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_FILE_FAULT: ev->u.file.nr = ev->u.file.advice = 0; ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_FADVISE: ev->u.file.order = ev->u.file.flags = 0; ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_FILE_SYNC: ev->u.file.order = ev->u.file.advice = 0; ev->u.file.flags &= 0x1f; ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_FILE_WRITTEN: ev->u.file.order = ev->u.file.flags = ev->u.file.advice = 0; ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_TRUNCATE: ev->u.file.nr = ev->u.file.order = ev->u.file.advice = 0; ev->u.file.mm = ev->u.file.pfn = ev->u.file.cgroup = 0; break;
	case RF_EV_PAGECACHE_ADD: ev->u.file.nr = ev->u.file.flags = ev->u.file.advice = 0; ev->u.file.mm = 0; break;
	case RF_EV_PAGECACHE_DEL: ev->u.file.nr = ev->u.file.flags = ev->u.file.advice = 0; ev->u.file.mm = ev->u.file.cgroup = 0; break;
	case RF_EV_ANON_FAULT:
		/* mm 77 and 93 share an address register slot (mod 16), 85 and 101 another */
		ev->u.anon.mm = 77 + (i % 4) * 8; ev->u.anon.addr = 0x7f0000000000ull + i * 4096ull;
		ev->u.anon.order = i % 2 ? 9 : 0; ev->u.anon.flags = RF_REF_WRITE; break;
	case RF_EV_ACCESS:
		ev->u.access.key = i % 3 ? i : 1ull << 63; ev->u.access.order = 0; ev->u.access.flags = RF_REF_ANON; break;
	case RF_EV_DAMON_REGION:
		ev->u.damon.mm = 77; ev->u.damon.start = 0x7f0000000000ull + i * 4096ull;
		ev->u.damon.end = ev->u.damon.start + (1ull << 30); ev->u.damon.nr_accesses = i % 21;
		ev->u.damon.max_nr_accesses = 20; ev->u.damon.age = i; break;
	case RF_EV_PTE_YOUNG:
		ev->u.young.mm = 77; ev->u.young.start = 0x7f0000000000ull + i * 4096ull;
		ev->u.young.end = ev->u.young.start + (i % 9 + 1) * 4096ull;
		ev->u.young.dev = i % 2 ? 8 : 0; ev->u.young.ino = i % 2 ? 99 : 0;
		ev->u.young.index = i % 2 ? i * 7ull : 0; break;
	case RF_EV_MMAP:
		ev->u.vma.mm = 77; ev->u.vma.addr = 0x7f0000000000ull; ev->u.vma.len = 1 << 20; ev->u.vma.prot = 3;
		ev->u.vma.flags = 0x22; ev->u.vma.dev = 8; ev->u.vma.ino = 99; ev->u.vma.pgoff = 5; break;
	case RF_EV_MUNMAP:
		ev->u.vma.mm = 77; ev->u.vma.addr = 0x7f0000000000ull; ev->u.vma.len = 1 << 20; break;
	case RF_EV_MADVISE:
		ev->u.vma.mm = 77; ev->u.vma.addr = 0x7f0000000000ull; ev->u.vma.len = 8192; ev->u.vma.advice = 21; break;
	case RF_EV_FORK:
		ev->u.task.pid = 4321; ev->u.task.tgid = 4321; ev->u.task.mm = 88; ev->u.task.flags = RF_FORK_THREAD; break;
	case RF_EV_EXEC: ev->u.task.mm = 89; ev->u.task.comm = i % 2 ? "vm-scalability" : NULL; break;
	case RF_EV_EXIT: ev->u.task.mm = 89; break;
	case RF_EV_CGROUP_MKDIR: ev->u.cgroup.id = 42; ev->u.cgroup.parent = 1; ev->u.cgroup.path = "/lkp/a b"; break;
	case RF_EV_CGROUP_RMDIR: ev->u.cgroup.id = 42; break;
	case RF_EV_CGROUP_ATTACH: ev->u.cgroup.id = 42; ev->u.cgroup.pid = 4321; break;
	case RF_EV_CGROUP_LIMIT: ev->u.cgroup.id = 42; ev->u.cgroup.kind = RF_LIMIT_MEMSW; ev->u.cgroup.value = RF_UNLIMITED; break;
	case RF_EV_NAME_FILE: ev->u.name_file.dev = 8; ev->u.name_file.ino = 99; ev->u.name_file.size = 1ull << 33;
		ev->u.name_file.path = "/tmp/\xc3\xa9t\xc3\xa9.dat"; break;
	case RF_EV_NAME_PID: ev->u.task.pid = -1; ev->u.task.tgid = 5; ev->u.task.mm = 3; ev->u.task.cgroup = 42; ev->u.task.comm = "usemem"; break;
	case RF_EV_NAME_STACK: ev->u.stack.id = 9; ev->u.stack.frames = frames; ev->u.stack.nr_frames = 3; break;
	case RF_EV_NAME_FRAME: ev->u.frame.id = 7; ev->u.frame.addr = 0x401136 + i; ev->u.frame.line = i % 2 ? 42 : 0;
		ev->u.frame.dso = "/usr/bin/two paths"; ev->u.frame.build_id = i % 2 ? "8f1e0c2d" : NULL;
		ev->u.frame.symbol = "reread_big"; ev->u.frame.file = i % 2 ? "two-paths.c" : NULL; break;
	case RF_EV_LRU_ADD: ev->u.lru.pfn = 0xabcdef; ev->u.lru.order = 9; ev->u.lru.lru = RF_LRU_ACTIVE_FILE; ev->u.lru.cgroup = 42; break;
	case RF_EV_LRU_ACTIVATE: ev->u.lru.pfn = 0xabcdef; ev->u.lru.order = 0; break;
	case RF_EV_RECLAIM: ev->u.reclaim.cgroup = 42; ev->u.reclaim.kind = RF_RECLAIM_MEMCG; ev->u.reclaim.nid = 0;
		ev->u.reclaim.priority = 12; ev->u.reclaim.file = 1; ev->u.reclaim.nr_scanned = 32;
		ev->u.reclaim.nr_reclaimed = 31; ev->u.reclaim.nr_activated = 1; ev->u.reclaim.nr_deactivated = 2;
		ev->u.reclaim.list = RF_RECLAIM_LIST_INACTIVE; break;
	case RF_EV_COUNTERS: ev->u.counters.source = RF_COUNTERS_MEMCG_STAT; ev->u.counters.cgroup = 42;
		ev->u.counters.entries = counters; ev->u.counters.nr = 2; break;
	case RF_EV_LOST: ev->u.lost.cpu = 1; ev->u.lost.count = 17; ev->u.lost.t_begin = 5; ev->u.lost.t_end = 9; break;
	case RF_EV_MARKER: ev->u.marker.text = "phase 2"; break;
	case RF_EV_END: ev->u.end.nr_events = i; ev->u.end.nr_lost = 17; break;
	}
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Compare everything, following pointers. */
static bool event_eq(const struct rf_event *a, const struct rf_event *b)
{
	struct rf_event x = *a, y = *b;
	uint32_t k;

	if (a->type != b->type)
		return false;
	switch (a->type) {
	case RF_EV_EXEC: case RF_EV_NAME_PID:
		if (!str_eq(a->u.task.comm, b->u.task.comm)) return false;
		x.u.task.comm = y.u.task.comm = NULL; break;
	case RF_EV_CGROUP_MKDIR:
		if (!str_eq(a->u.cgroup.path, b->u.cgroup.path)) return false;
		x.u.cgroup.path = y.u.cgroup.path = NULL; break;
	case RF_EV_NAME_FILE:
		if (!str_eq(a->u.name_file.path, b->u.name_file.path)) return false;
		x.u.name_file.path = y.u.name_file.path = NULL; break;
	case RF_EV_MARKER:
		return a->time == b->time && str_eq(a->u.marker.text, b->u.marker.text);
	case RF_EV_NAME_FRAME:
		if (!str_eq(a->u.frame.dso, b->u.frame.dso) || !str_eq(a->u.frame.build_id, b->u.frame.build_id) ||
		    !str_eq(a->u.frame.symbol, b->u.frame.symbol) || !str_eq(a->u.frame.file, b->u.frame.file))
			return false;
		x.u.frame.dso = y.u.frame.dso = x.u.frame.build_id = y.u.frame.build_id = NULL;
		x.u.frame.symbol = y.u.frame.symbol = x.u.frame.file = y.u.frame.file = NULL; break;
	case RF_EV_NAME_STACK:
		if (a->u.stack.nr_frames != b->u.stack.nr_frames ||
		    memcmp(a->u.stack.frames, b->u.stack.frames, a->u.stack.nr_frames * 8)) return false;
		x.u.stack.frames = y.u.stack.frames = NULL; break;
	case RF_EV_COUNTERS:
		if (a->u.counters.nr != b->u.counters.nr) return false;
		for (k = 0; k < a->u.counters.nr; k++)
			if (strcmp(a->u.counters.entries[k].name, b->u.counters.entries[k].name) ||
			    a->u.counters.entries[k].value != b->u.counters.entries[k].value) return false;
		x.u.counters.entries = y.u.counters.entries = NULL; break;
	}
	return x.time == y.time && x.cpu == y.cpu && x.pid == y.pid && x.stack == y.stack &&
	       !memcmp(&x.u, &y.u, sizeof(x.u));
}

/* Written with a 1000 ns resolution: times rounded down, all else exact; the header says so. */
static void test_time_resolution(const char *path)
{
	struct rf_writer_options opts = { .chunk_events = 333 };
	const struct rf_chunk_info *chunks;
	unsigned int i, mismatches = 0, bad_index = 0;
	struct rf_trace_header h;
	struct rf_trace_writer *w;
	struct rf_trace_reader *r;
	struct rf_event ev, want;
	long n;
	int rc;

	rf_trace_header_init(&h, "test-roundtrip");
	h.time_resolution = RF_MAX_TIME_RESOLUTION + 1;
	is_int(rf_trace_writer_open(&w, path, &h, &opts), RF_ERR_INVAL,
	       "a time resolution over a second is refused");
	h.time_resolution = 1000;
	if (!ok(!rf_trace_writer_open(&w, path, &h, &opts), "writer opens with a 1000 ns resolution"))
		return;
	for (i = 0; i < NR_EVENTS; i++) {
		make_event(i, &ev);
		ev.time += i % 1000;	/* every remainder */
		rf_trace_writer_append(w, &ev);
	}
	rf_trace_writer_close(w);
	if (!ok(!rf_trace_reader_open(&r, path, 0), "it reads back"))
		return;
	is_int(rf_trace_reader_header(r)->time_resolution, 1000, "the header says 1000 ns");
	for (i = 0; (rc = rf_trace_reader_next(r, &ev)) == 1; i++) {
		make_event(i, &want);
		want.time += i % 1000;
		want.time -= want.time % 1000;
		if (!event_eq(&ev, &want) && mismatches++ < 3)
			diag("event %u (type %u): time %llu, want %llu", i, want.type,
			     (unsigned long long)ev.time, (unsigned long long)want.time);
	}
	ok(rc == 0 && i == NR_EVENTS && !mismatches,
	   "every event reads back with its time rounded down to 1000 ns, the rest exact");
	n = rf_trace_reader_chunks(r, &chunks);
	for (i = 0; n > 0 && i < (unsigned int)n; i++)
		bad_index += chunks[i].t_first % 1000 || chunks[i].t_last % 1000;
	ok(n > 0 && !bad_index, "the index's chunk times are the rounded ones");
	rf_trace_reader_close(r);
}

/* Every type written in format @major (0: the library's) and read back every way. */
static void roundtrip(const char *path, uint32_t major)
{
	struct rf_writer_options opts = { .chunk_events = 333, .version_major = major };
	uint32_t want_major = major ? major : RF_TRACE_VERSION_MAJOR;
	struct rf_trace_header h, *hp = &h;
	struct rf_trace_writer *w;
	struct rf_trace_reader *r;
	struct rf_event ev, want;
	struct rf_writer_stats st;
	struct rf_chunk_decoder *d;
	struct rf_event_batch b;
	struct rf_json_scratch *scratch = NULL;
	struct rf_frame f;
	const struct rf_chunk_info *chunks;
	unsigned int i, mismatches = 0, json_bad = 0;
	int rc;
	long nchunks;

	diag("format %u", want_major);
	rf_trace_header_init(hp, "test-roundtrip");
	rf_trace_header_fill_host(hp);
	strcpy(h.params, "case=all-types");
	strcpy(h.host.lru_gen, "0x0007");
	h.host.cgroup_version = 2;
	strcpy(h.host.cgroup_mount, "/sys/fs/cgroup");
	ok(!rf_trace_writer_open(&w, path, hp, &opts), "writer opens");
	for (i = 0; i < NR_EVENTS; i++) {
		make_event(i, &ev);
		if (rf_trace_writer_append(w, &ev))
			break;
	}
	is_int(i, NR_EVENTS, "all events appended");
	ev.type = 200;
	ok(rf_trace_writer_append(w, &ev) == RF_ERR_INVAL, "an unknown type is refused");
	rf_trace_writer_stats(w, &st);
	is_int(st.chunks, NR_EVENTS / 333, "chunks flushed at the event limit");
	ok(!rf_trace_writer_close(w), "writer closes");

	if (!ok(!rf_trace_reader_open(&r, path, 0), "reader opens")) {
		diag("%s", r ? rf_trace_reader_errmsg(r) : "");
		exit(1);
	}
	ok(rf_trace_reader_has_index(r), "index found");
	is_str(rf_trace_reader_header(r)->params, "case=all-types", "header round-trips");
	ok(!strcmp(rf_trace_reader_header(r)->host.lru_gen, "0x0007") &&
	   rf_trace_reader_header(r)->host.cgroup_version == 2 &&
	   !strcmp(rf_trace_reader_header(r)->host.cgroup_mount, "/sys/fs/cgroup") &&
	   rf_trace_host_lru_gen_on(&rf_trace_reader_header(r)->host),
	   "2.3 header: lru_gen, cgroup_version and cgroup_mount round-trip");
	ok(rf_trace_reader_header(r)->version_major == want_major &&
	   rf_trace_reader_header(r)->time_resolution == 1,
	   "written as format %u.x with exact times by default", want_major);
	for (i = 0; (rc = rf_trace_reader_next(r, &ev)) == 1; i++) {
		make_event(i, &want);
		if (!event_eq(&ev, &want) && mismatches++ < 3)
			diag("event %u (type %u) differs", i, want.type);
		{
			json_object *jo = rf_event_to_json(&ev);
			struct rf_event back;
			char err[128];

			if (!jo || rf_event_from_json(jo, &back, &scratch, err, sizeof(err)) ||
			    !event_eq(&back, &ev)) {
				if (json_bad++ < 3)
					diag("json round trip of event %u (%s): %s", i,
					     rf_event_type_name(ev.type), jo ? json_object_to_json_string(jo) : "");
			}
			json_object_put(jo);
		}
	}
	is_int(rc, 0, "reader ends cleanly");
	is_int(i, NR_EVENTS, "reader returns every event");
	is_int(mismatches, 0, "events read back equal events written");
	is_int(json_bad, 0, "every event survives JSON and back");

	/* batch path: frames decoded on their own, in any order */
	nchunks = rf_trace_reader_chunks(r, &chunks);
	rf_chunk_decoder_new(&d);
	rf_event_batch_init(&b);
	rf_trace_reader_seek_chunk(r, (uint64_t)nchunks - 1);
	mismatches = 0;
	if (rf_trace_reader_next_frame(r, &f) == 1 && !rf_chunk_decode(d, f.data, f.size, f.offset, &b)) {
		for (i = 0; i < b.nr; i++) {
			make_event((unsigned int)(chunks[nchunks - 1].seq * 333 + i), &want);
			mismatches += !event_eq(&b.events[i], &want);
		}
	} else {
		mismatches = 1;
	}
	ok(!mismatches && b.nr == chunks[nchunks - 1].nr_events, "last chunk decodes alone (%zu events)", b.nr);
	rf_trace_reader_seek_time(r, chunks[3].t_first + 1);
	rc = rf_trace_reader_next(r, &ev);
	ok(rc == 1 && ev.time >= chunks[3].t_first + 1, "seek by time lands at or after the time");
	rf_event_batch_release(&b);
	rf_chunk_decoder_free(d);
	rf_json_scratch_free(scratch);
	rf_trace_reader_close(r);
}

int main(void)
{
	char path[] = "/tmp/refault-roundtrip-XXXXXX";
	int fd;

	plan(38);
	fd = mkstemp(path);
	close(fd);
	roundtrip(path, 0);
	roundtrip(path, 2);	/* format 2.6, as convert --format-version 2 writes it */
	test_time_resolution(path);
	if (!getenv("KEEP")) unlink(path);
	return done_testing();
}
