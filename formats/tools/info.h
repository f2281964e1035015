/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace info`'s counts: every chunk of a trace decoded (the lost
 * events are a sum over 'lost' events, the classes need each event's type),
 * damaged chunks skipped and said.  Decoding runs at tens of millions of
 * events per second: seconds on large traces.
 */
#ifndef REFAULT_FORMATS_TOOLS_INFO_H
#define REFAULT_FORMATS_TOOLS_INFO_H

#include "formats/tools/tools.h"

#define RF_TOOLS_INFO_DAMAGE 16		/* damage messages kept */

struct rf_tools_info {
	uint64_t per_type[RF_EV_TYPE_MAX];
	uint64_t per_class[RF_CLASS_META + 1];
	/*
	 * The events but the end record, which closes a recording and counts
	 * the events before it: the number record's summary says, and the end
	 * record's own count when nothing is missing.  Per type and per class
	 * count it (as "end", a meta record).
	 */
	uint64_t events;
	uint64_t lost;			/* the sum of the 'lost' events' counts */
	uint64_t t_first;		/* 0 .. 0 without events */
	uint64_t t_last;
	bool has_end;
	uint64_t end_events;		/* the end record's counts */
	uint64_t end_lost;
	uint64_t damaged;		/* chunks skipped */
	/* the recorder's counts of --call-graph (counters source 4), the last ones seen */
	bool has_stacks;
	uint64_t stacks[6];	/* samples, lost, unwound, failed, refs, refs_without */
	char damage[RF_TOOLS_INFO_DAMAGE][512];	/* the first damages' messages */
	long chunks;			/* the reader's chunk list: its length, < 0 if none */
	const struct rf_chunk_info *chunk_list;	/* @r's, NULL if none */
};

/*
 * rf_tools_info_scan() - read every event of @r, opened with
 * RF_READ_SKIP_DAMAGED, into @in (zeroed by the caller; it is large: not
 * for the stack)
 * @path: the trace's, for messages
 *
 * Each damaged chunk is said ("PATH: what and where") and counted.
 * Return: 0, or a negative rf_err (out of memory...) after a message.
 */
RF_API int rf_tools_info_scan(struct rf_trace_reader *r, const char *path, struct rf_tools_info *in,
			      const struct rf_tools_log *log);

#endif /* REFAULT_FORMATS_TOOLS_INFO_H */
