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

/* "refault <verb>: <message>" on stderr. */
void rf_err(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Install a handler that prints a libunwind backtrace on SIGSEGV/SIGBUS/SIGABRT/SIGFPE. */
void rf_cli_install_crash_handler(void);

/* Flush stdout; report a write error (e.g. ENOSPC) and turn it into a failure. */
int rf_cli_finish(int status);

#endif /* REFAULT_CLI_UTIL_H */
