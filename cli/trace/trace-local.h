/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to `refault trace`: the subcommands, and what they share
 * (opening traces with good messages, event filters, output files, a
 * u64 map, the page-request mapping of convert).
 */
#ifndef REFAULT_CLI_TRACE_LOCAL_H
#define REFAULT_CLI_TRACE_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <refault/trace.h>

#include "cli/util.h"
#include "lib/outfile.h"
#include "lib/hash.h"
#include "lib/hashmap.h"

/*
 * Each subcommand: argv[0] is its name; returns an RF_EXIT_* status.  Its
 * messages name it "trace <sub>" (the @verb of rf_err() and of the helpers
 * below).
 */
int trace_info(int argc, char **argv);
int trace_dump(int argc, char **argv);
int trace_verify(int argc, char **argv);
int trace_slice(int argc, char **argv);
int trace_recover(int argc, char **argv);
int trace_convert(int argc, char **argv);

/*
 * The one TRACE operand left after the options, or NULL after "no TRACE
 * given" / "one TRACE only" (rf_usage_error(): exit RF_EXIT_USAGE).
 */
const char *trace_operand(const char *verb, int argc, char **argv);

/*
 * Open @path for reading; on failure print what and where (the reader's
 * message) and return NULL.
 */
struct rf_trace_reader *trace_open(const char *verb, const char *path, unsigned int flags);

/* ------------------------------------------------------------ u64 map */

/*
 * uint64_t -> uint64_t (any key, 0 included): u64_map_get/put/destroy...,
 * lib/hashmap.h.  A zeroed map is empty.
 */
RF_HASHMAP_DEFINE(u64_map, uint64_t, uint64_t, rf_hash64, RF_HASHMAP_EQ, 75)

/* ------------------------------------------------------------- filters */

/*
 * What --type, --class, --pid, --cgroup, --from and --to select.  Times are
 * given as printed by dump (seconds on the trace clock, "12.5", "12500ms")
 * or relative to the first event with a leading '+': "+2s".
 */
struct trace_filter {
	bool by_type;
	bool types[RF_EV_TYPE_MAX];
	bool by_class;
	bool classes[RF_CLASS_META + 1];
	bool by_pid;
	int32_t pid;
	bool by_cgroup;
	uint64_t cgroup;
	const char *from_arg;
	const char *to_arg;
	uint64_t from;		/* resolved, ns on the trace clock */
	uint64_t to;		/* inclusive; UINT64_MAX = no end */
	/* learnt from the events as they go by */
	struct u64_map tgid_of;	/* tid -> tgid */
	struct u64_map cgroup_of;	/* pid -> memory cgroup id */
	struct u64_map parent_of;	/* cgroup id -> parent id */
};

void trace_filter_init(struct trace_filter *f);
void trace_filter_free(struct trace_filter *f);

/*
 * Parse one filter option (long name without dashes, e.g. "type") with its
 * argument.  Returns 1 if @opt is a filter option and was parsed, 0 if it is
 * not a filter option, -1 after printing why @arg is bad.
 */
int trace_filter_option(struct trace_filter *f, const char *verb, const char *opt,
			const char *arg);

/* The filter options in a subcommand's getopt_long() table, each with @val. */
#define TRACE_FILTER_LONGOPTS(val)					\
	{ "type", required_argument, NULL, (val) },			\
	{ "class", required_argument, NULL, (val) },			\
	{ "pid", required_argument, NULL, (val) },			\
	{ "cgroup", required_argument, NULL, (val) },			\
	{ "from", required_argument, NULL, (val) },			\
	{ "to", required_argument, NULL, (val) }

/* Resolve relative times with the trace's first timestamp; -1 after a message. */
int trace_filter_resolve(struct trace_filter *f, const char *verb, struct rf_trace_reader *r);

/* Learn pid/cgroup relations from @ev; call for every event, selected or not. */
int trace_filter_learn(struct trace_filter *f, const struct rf_event *ev);

bool trace_filter_in_time(const struct trace_filter *f, const struct rf_event *ev);
/* Everything but the time range: type, class, pid, cgroup. */
bool trace_filter_match_who(const struct trace_filter *f, const struct rf_event *ev);
/* Only --pid and --cgroup. */
bool trace_filter_match_task(const struct trace_filter *f, const struct rf_event *ev);
bool trace_filter_match(const struct trace_filter *f, const struct rf_event *ev);
/* True when some filter looks inside events (type, class, pid or cgroup). */
bool trace_filter_per_event(const struct trace_filter *f);

/* Parse "T" or "+T" into ns; *relative says which. */
int trace_parse_time(const char *s, uint64_t *ns, bool *relative);

/* ------------------------------------------------------------- printing */

/*
 * One line, perf-script-like: "  12.000001000 [003]  1234 file_read dev=8:1 ino=12 ...",
 * and, with @names, what they know of its task, file and memory cgroup (names.c).
 */
struct trace_names;
int trace_print_event(FILE *out, const struct rf_event *ev, const struct trace_names *names);
/* " NAME=\"VALUE\"", the value quoted and escaped as the event's own strings are. */
void trace_print_field(FILE *out, const char *name, const char *value);
/* json-c flags for one-line JSON (where json-c is included). */
#define TRACE_JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/*
 * One JSON object on one line.  @strict: the bytes of its strings that are
 * not UTF-8 written as U+FFFD, so that the line is JSON any parser reads and
 * no stray byte reaches a terminal (dump); otherwise as they are, so that
 * convert's JSON lines give the same strings back.
 */
int trace_print_event_json(FILE *out, const struct rf_event *ev, bool strict);

/* ---------------------------------------------------------------- names */

/* What `trace dump` learns of names from the events it reads (names.c). */
struct trace_names {
	struct u64_map comm;		/* pid -> index in strings */
	struct u64_map file;		/* rf_hash2(dev, ino) -> index */
	struct u64_map cgroup;		/* memcg id -> index */
	char **strings;
	size_t nr, cap;
};

/* Learn from @ev (name_pid, exec, fork, name_file, cgroup_mkdir); call for every event read. */
int trace_names_learn(struct trace_names *n, const struct rf_event *ev);
/* " comm=... file=... memcg=..." for @ev, what is known and @ev does not say itself. */
void trace_names_print(FILE *out, const struct trace_names *n, const struct rf_event *ev);
void trace_names_free(struct trace_names *n);

/* ----------------------------------------------------------- out files */

/*
 * A file written under a temporary name beside @path and renamed over it
 * on commit, so a failed run never leaves a half-written file under the
 * name asked for.  "-" means stdout (no rename).
 */
/* Outputs are lib/outfile.h's (a temporary renamed on commit; "-" is standard output). */

int out_file_open(struct rf_outfile *o, const char *path, const char *verb);
FILE *out_file_stdio(struct rf_outfile *o, const char *verb);
/* Close and rename; returns 0 or -1 after a message. */
int out_file_commit(struct rf_outfile *o, const char *verb);
/* Close and remove. */
void out_file_discard(struct rf_outfile *o);
/* True when @a and @b name the same existing file. */
bool same_file(const char *a, const char *b);

#endif /* REFAULT_CLI_TRACE_LOCAL_H */
