/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librefault-tracetools: what `refault trace` does to traces, as functions
 * a program calls (the refault command, the fuzz targets).  Built on
 * librefault-trace (the reader, writer, JSON codec and event tables) and
 * lib/; a convenience library, not installed.
 *
 *   filter.h   which events --type, --class, --pid, --cgroup, --from, --to select
 *   dump.h     events as text or JSON lines         (dump.c, print.c, names.c)
 *   info.h     what a trace holds: counts, times, damage
 *   verify.h   every frame, checksum and index entry checked
 *   slice.h    selected events into a new trace
 *   recover.h  the good chunks of a damaged trace into a new one
 *   convert.h  trace, JSON lines, oracleGeneral, csv   (convert.c, jsonl.c, pages.c)
 *
 * Conventions: 0 on success, a negative rf_err (or negated errno) on
 * failure, after a message through the caller's struct rf_tools_log.
 * Nothing here exits or writes to standard error; what a tool writes for
 * standard output goes to a FILE the caller gives (convert's "-" is the
 * standard input or output, as a file name); results are returned in
 * structs for the caller to print.
 */
#ifndef REFAULT_FORMATS_TOOLS_H
#define REFAULT_FORMATS_TOOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/api.h>
#include <refault/trace.h>

enum rf_tools_say {
	RF_TOOLS_ERROR,		/* what failed and where */
	RF_TOOLS_NOTE,		/* a line for a person, as it is */
};

/*
 * struct rf_tools_log - where a tool's messages go
 * @say: called with each message, whole, without a newline, when it
 *       happens (so that the caller keeps it in order with what it writes
 *       itself): RF_TOOLS_ERROR names the file and the chunk, offset, line
 *       or record, and says what is wrong (the refault command prefixes
 *       "refault trace SUB: "); RF_TOOLS_NOTE is a line to show as it is (a
 *       problem verify found, what convert read and wrote).  A run may say
 *       several things (damage skipped, then an error).  NULL: nothing is
 *       said.
 * @arg: the caller's, passed to @say
 *
 * A NULL struct rf_tools_log * is a log that says nothing.
 */
struct rf_tools_log {
	void (*say)(void *arg, enum rf_tools_say kind, const char *text);
	void *arg;
};

/*
 * rf_tools_open() - open the trace @path for reading, with
 * rf_trace_reader_open()'s @flags (RF_READ_*)
 *
 * Return: the reader, or NULL after "PATH: what is wrong" (the reader's
 * message, else the error's) through @log.
 */
RF_API struct rf_trace_reader *rf_tools_open(const struct rf_tools_log *log, const char *path,
					     unsigned int flags);

#endif /* REFAULT_FORMATS_TOOLS_H */
