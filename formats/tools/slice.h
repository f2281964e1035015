/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `refault trace slice`: the selected events of a trace as a new trace that
 * replays on its own.  Before the time range, the events that name things or
 * set up state are kept (the type table's .slice), so that the slice knows
 * its files, cgroups, processes and mappings.  Chunks wholly inside the
 * range are copied verbatim when no per-event filter applies; others are
 * decoded and their selected events re-encoded.
 */
#ifndef REFAULT_FORMATS_TOOLS_SLICE_H
#define REFAULT_FORMATS_TOOLS_SLICE_H

#include "formats/tools/filter.h"

struct rf_tools_slice_result {
	bool written;		/* OUT was committed: the counts say what it holds */
	uint64_t kept;		/* events */
	uint64_t state_kept;	/* ... of them state before the range */
	uint64_t copied_chunks;	/* chunks copied verbatim */
};

/*
 * rf_tools_slice() - write what @f selects of @r (the trace @in) to a new
 * trace @out (lib/outfile.h: an existing @out is replaced only by a whole
 * new one)
 * @f: resolved (rf_tools_filter_resolve())
 *
 * After damage in the input, @out gets the events before it (the file it
 * replaces kept as OUT.old) and @res->written is set, but the run fails.
 * When the output fails or memory runs out, nothing is written.
 * Return: 0, or a negative rf_err after a message.
 */
RF_API int rf_tools_slice(struct rf_trace_reader *r, const char *in, const char *out,
			  struct rf_tools_filter *f, struct rf_tools_slice_result *res,
			  const struct rf_tools_log *log);

#endif /* REFAULT_FORMATS_TOOLS_SLICE_H */
