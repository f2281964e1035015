/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to `refault trace`: each subcommand's option parsing and usage
 * text (cli/trace/<sub>.c), over the trace tools' library (formats/tools/).
 */
#ifndef REFAULT_CLI_TRACE_LOCAL_H
#define REFAULT_CLI_TRACE_LOCAL_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/util.h"
#include "formats/tools/tools.h"

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

/* True when @a and @b name the same existing file. */
bool trace_same_file(const char *a, const char *b);

/*
 * The library's log for subcommand @verb (a string that outlives it): an
 * error as rf_err(@verb, ...), a note on stderr as it is (none with @quiet).
 */
struct rf_tools_log trace_log(const char *verb, bool quiet);

/* The filter options (formats/tools/filter.h) in a getopt_long() table, each with @val. */
#define TRACE_FILTER_LONGOPTS(val)					\
	{ "type", required_argument, NULL, (val) },			\
	{ "class", required_argument, NULL, (val) },			\
	{ "pid", required_argument, NULL, (val) },			\
	{ "cgroup", required_argument, NULL, (val) },			\
	{ "from", required_argument, NULL, (val) },			\
	{ "to", required_argument, NULL, (val) }

#endif /* REFAULT_CLI_TRACE_LOCAL_H */
