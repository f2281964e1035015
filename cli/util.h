/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the refault verbs: messages, number parsing, exit handling. */
#ifndef REFAULT_CLI_UTIL_H
#define REFAULT_CLI_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/compiler.h"
#include "lib/units.h"

/* Exit statuses shared by all verbs (documented in refault --help of each verb). */
#define RF_EXIT_OK		0
#define RF_EXIT_FAILURE		1	/* the work failed: bad input data, I/O error */
#define RF_EXIT_USAGE		2	/* bad command line */

/*
 * The messages of every verb and trace subcommand go through these two, so
 * they all start alike.  @verb is what the user typed after "refault":
 * "gen", "trace info".
 */

/* "refault <verb>: <message>" on stderr. */
void rf_err(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * "refault <verb>: <message>; see 'refault <verb> --help'" on stderr, for a
 * bad command line.  Returns RF_EXIT_USAGE.
 */
int rf_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * rf_getopt() - getopt_long() with the messages every verb shares
 * @shortopts: as for getopt_long(), starting with ':' (after the '+' that
 *             stops at the first operand, if any)
 * @first: true for the first call of a parse (it starts getopt over); set false
 *
 * Returns the option, -1 at the end, or '?' after printing (rf_usage_error())
 *	refault <verb>: unknown option '--bogus'; see 'refault <verb> --help'
 *	refault <verb>: option '--seed' needs an argument; see 'refault <verb> --help'
 * upon which the caller exits with RF_EXIT_USAGE.
 */
struct option;
int rf_getopt(const char *verb, int argc, char **argv, const char *shortopts,
	      const struct option *longopts, int *longindex, bool *first);

/* --threads by default: the online CPUs, 1..64. */
unsigned int rf_default_threads(void);
/* --threads N: 1 to 256 into *@threads; else the message, and RF_EXIT_USAGE. */
int rf_parse_threads(const char *verb, const char *arg, unsigned int *threads);

/*
 * --compression-level N of a verb that writes a trace: zstd's levels 1 to 19
 * (20 and up need zstd's "ultra" windows, of no use for chunks of at most
 * RF_MAX_CHUNK_BYTES) into *@level; else the message, and RF_EXIT_USAGE.
 */
#define RF_MAX_COMPRESSION_LEVEL 19
int rf_parse_compression_level(const char *verb, const char *arg, int *level);

/* --set KEY=VALUE options a verb keeps (replay, validate, report) */
#define RF_CLI_MAX_SETS 256
/* @arg as the next of @sets (*@nr of RF_CLI_MAX_SETS); else the message, and RF_EXIT_USAGE. */
int rf_add_set(const char *verb, char **sets, size_t *nr, char *arg);

/* Install a handler that prints a libunwind backtrace on SIGSEGV/SIGBUS/SIGABRT/SIGFPE. */
void rf_cli_install_crash_handler(void);

struct rf_replay_progress;
/* The replay's progress line on stderr ("replay: chunk N/M, R M events/s, ETA S s"), for a tty. */
void rf_cli_replay_progress(const struct rf_replay_progress *p, void *ctx);

/* Flush stdout; report a write error (e.g. ENOSPC) and turn it into a failure. */
int rf_cli_finish(int status);

#endif /* REFAULT_CLI_UTIL_H */
