/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to librefault-tracetools: its messages, output files, the
 * filter's matching, the event printers and the names dump adds.  Names
 * here have no rf_ prefix: nothing outside formats/tools/ calls them.
 */
#ifndef REFAULT_FORMATS_TOOLS_LOCAL_H
#define REFAULT_FORMATS_TOOLS_LOCAL_H

#include <json-c/json.h>

#include "formats/tools/filter.h"
#include "lib/compiler.h"
#include "lib/outfile.h"
#include "lib/units.h"

/* ------------------------------------------------------------- messages */

/* An error through @log (may be NULL), formatted as printf() would. */
void tools_err(const struct rf_tools_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A note through @log. */
void tools_note(const struct rf_tools_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ out files */

/*
 * Outputs are lib/outfile.h's (a temporary renamed on commit; "-" is
 * standard output); these say what failed through @log.  Each returns 0,
 * or -1 after a message.
 */
int tools_out_open(struct rf_outfile *o, const char *path, const struct rf_tools_log *log);
/* The stream on @o; NULL after a message. */
FILE *tools_out_stdio(struct rf_outfile *o, const struct rf_tools_log *log);
int tools_out_commit(struct rf_outfile *o, const struct rf_tools_log *log);
/* Close and remove the temporary: an existing file of the name is left as it was. */
void tools_out_discard(struct rf_outfile *o);

/* ------------------------------------------------------- filter matching */

/* Learn pid/cgroup relations from @ev; call for every event, selected or not. */
int tools_filter_learn(struct rf_tools_filter *f, const struct rf_event *ev);
bool tools_filter_in_time(const struct rf_tools_filter *f, const struct rf_event *ev);
/* Everything but the time range: type, class, pid, cgroup. */
bool tools_filter_match_who(const struct rf_tools_filter *f, const struct rf_event *ev);
/* Only --pid and --cgroup. */
bool tools_filter_match_task(const struct rf_tools_filter *f, const struct rf_event *ev);
bool tools_filter_match(const struct rf_tools_filter *f, const struct rf_event *ev);
/* True when some filter looks inside events (type, class, pid or cgroup). */
bool tools_filter_per_event(const struct rf_tools_filter *f);

/* ------------------------------------------------------------- printing */

/*
 * One line, perf-script-like: "  12.000001000 [003]  1234 file_read dev=8:1 ino=12 ...",
 * and, with @names, what they know of its task, file and memory cgroup (names.c).
 */
struct tools_names;
int tools_print_event(FILE *out, const struct rf_event *ev, const struct tools_names *names);
/* " NAME=\"VALUE\"", the value quoted and escaped as the event's own strings are. */
void tools_print_field(FILE *out, const char *name, const char *value);
/* json-c flags for one-line JSON */
#define TOOLS_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/*
 * One JSON object on one line.  @strict: the bytes of its strings that are
 * not UTF-8 written as U+FFFD, so that the line is JSON any parser reads and
 * no stray byte reaches a terminal (dump); otherwise as they are, so that
 * convert's JSON lines give the same strings back.
 */
int tools_print_event_json(FILE *out, const struct rf_event *ev, bool strict);

/* ---------------------------------------------------------------- names */

/* What `trace dump` learns of names from the events it reads (names.c). */
struct tools_names {
	struct u64_map comm;		/* pid -> index in strings */
	struct u64_map file;		/* rf_hash2(dev, ino) -> index */
	struct u64_map cgroup;		/* memcg id -> index */
	char **strings;
	size_t nr, cap;
};

/* Learn from @ev (name_pid, exec, fork, name_file, cgroup_mkdir); call for every event read. */
int tools_names_learn(struct tools_names *n, const struct rf_event *ev);
/* " comm=... file=... memcg=..." for @ev, what is known and @ev does not say itself. */
void tools_names_print(FILE *out, const struct tools_names *n, const struct rf_event *ev);
void tools_names_free(struct tools_names *n);

#endif /* REFAULT_FORMATS_TOOLS_LOCAL_H */
