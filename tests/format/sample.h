/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Deterministic sample events for the format tests, the corpus writer and
 * the fuzz seeds.  Event @i carries @i in its time (i * 1000 + 1) and in a
 * type-specific field, so a reader's output can be checked event by event
 * without keeping the written events around.
 */
#ifndef REFAULT_TESTS_SAMPLE_H
#define REFAULT_TESTS_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <refault/trace.h>

static const struct rf_counter sample_counters_[] = {
	{ "pgscan_file", 12 }, { "workingset_refault_file", 1ull << 40 },
};
static const uint64_t sample_frames_[] = { 0xffffffff81000000ull, 0x401000, 7 };

static inline uint64_t sample_time(uint64_t i)
{
	return i * 1000 + 1;
}

/* A mix close to what the recorder writes, with a few rarer types now and then. */
static inline void sample_event(uint64_t i, struct rf_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->time = sample_time(i);
	ev->cpu = (uint32_t)(i % 4);
	ev->pid = (int32_t)(100 + i % 3);
	switch (i % 16) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6:
		ev->type = RF_EV_FILE_READ;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 12;
		ev->u.file.index = i;
		ev->u.file.nr = 1 + i % 4;
		ev->stack = i % 5 ? 0 : (uint32_t)(1 + i % 100);	/* since 2.6 */
		break;
	case 7: case 8: case 9: case 10:
		ev->type = RF_EV_ANON_FAULT;
		ev->u.anon.mm = 0xffff888000001000ull;
		ev->u.anon.addr = 0x7f0000000000ull + (i * 2654435761ull % (1ull << 30)) * 4096;
		ev->u.anon.flags = i % 2 ? RF_REF_WRITE : 0;
		break;
	case 11: case 12:
		ev->type = RF_EV_FILE_FAULT;
		ev->u.file.dev = 0x800001;
		ev->u.file.ino = 13;
		ev->u.file.index = i / 3;
		ev->u.file.mm = 0xffff888000002000ull;
		break;
	case 13:
		ev->type = RF_EV_MARKER;
		ev->u.marker.text = i % 32 == 13 ? "phase" : NULL;
		break;
	case 14:
		ev->type = RF_EV_COUNTERS;
		ev->u.counters.source = RF_COUNTERS_VMSTAT;
		ev->u.counters.entries = sample_counters_;
		ev->u.counters.nr = 2;
		break;
	default:
		if (i % 32 == 31) {
			ev->type = RF_EV_NAME_FRAME;
			ev->u.frame.id = i;
			ev->u.frame.addr = 0x1136;
			ev->u.frame.line = 7;
			ev->u.frame.dso = "/usr/bin/sample";
			ev->u.frame.build_id = "0123abcd";
			ev->u.frame.symbol = "main";
			ev->u.frame.file = NULL;
			break;
		}
		ev->type = RF_EV_NAME_STACK;
		ev->u.stack.id = i;
		ev->u.stack.frames = sample_frames_;
		ev->u.stack.nr_frames = 3;
		break;
	}
}

/* Does @ev read back as sample event @i?  (Checks the fields that carry @i.) */
static inline bool sample_check(uint64_t i, const struct rf_event *ev)
{
	struct rf_event want;

	sample_event(i, &want);
	if (ev->time != want.time || ev->type != want.type || ev->cpu != want.cpu || ev->pid != want.pid)
		return false;
	switch (want.type) {
	case RF_EV_FILE_READ:
	case RF_EV_FILE_FAULT:
		return ev->u.file.index == want.u.file.index && ev->u.file.ino == want.u.file.ino &&
		       ev->u.file.nr == want.u.file.nr && ev->u.file.mm == want.u.file.mm &&
		       ev->stack == want.stack;
	case RF_EV_NAME_FRAME:
		return ev->u.frame.id == i && ev->u.frame.line == 7 && ev->u.frame.symbol &&
		       !strcmp(ev->u.frame.symbol, "main") && !ev->u.frame.file;
	case RF_EV_ANON_FAULT:
		return ev->u.anon.addr == want.u.anon.addr && ev->u.anon.flags == want.u.anon.flags;
	case RF_EV_MARKER:
		return want.u.marker.text ? ev->u.marker.text && !strcmp(ev->u.marker.text, "phase") :
					    !ev->u.marker.text;
	case RF_EV_COUNTERS:
		return ev->u.counters.nr == 2 && !strcmp(ev->u.counters.entries[1].name,
							 "workingset_refault_file") &&
		       ev->u.counters.entries[1].value == 1ull << 40;
	case RF_EV_NAME_STACK:
		return ev->u.stack.id == i && ev->u.stack.nr_frames == 3 &&
		       ev->u.stack.frames[2] == 7;
	}
	return false;
}

/* Event number of @ev, from its time; UINT64_MAX when the time is not a sample's. */
static inline uint64_t sample_number(const struct rf_event *ev)
{
	return ev->time % 1000 == 1 ? ev->time / 1000 : UINT64_MAX;
}

#endif /* REFAULT_TESTS_SAMPLE_H */
