/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace dump`: the events of a trace in file order, one per line,
 * as text (perf-script-like, print.c) or JSON lines (docs/refault-trace.md).
 */
#ifndef REFAULT_FORMATS_TOOLS_DUMP_H
#define REFAULT_FORMATS_TOOLS_DUMP_H

#include "formats/tools/filter.h"

struct rf_tools_dump_opts {
	const char *path;	/* the trace's, for messages */
	bool json;		/* JSON lines (strict JSON: bytes not UTF-8 as U+FFFD) */
	/*
	 * Text: what the events read so far name of the thread's command,
	 * the file and the memory cgroup, as comm=, file=, memcg=.  Then
	 * --from does not seek: the names come from the events before it.
	 */
	bool names;
	/* the reader was opened with RF_READ_SKIP_DAMAGED: say each damaged chunk and go on */
	bool skip_damaged;
	uint64_t limit;		/* events printed at most; UINT64_MAX: all */
	struct rf_tools_filter *filter;	/* resolved (rf_tools_filter_resolve()) */
};

/*
 * rf_tools_dump() - print the events of @r that @o's filter selects on @out
 * @damaged: set when damaged chunks were skipped (then the run failed, but
 *           went on)
 *
 * On damage (without skip_damaged) the events before it are printed, then
 * the error names the chunk and offset.
 * Return: 0, or a negative rf_err after a message.
 */
RF_API int rf_tools_dump(struct rf_trace_reader *r, const struct rf_tools_dump_opts *o, FILE *out,
			 const struct rf_tools_log *log, bool *damaged);

#endif /* REFAULT_FORMATS_TOOLS_DUMP_H */
