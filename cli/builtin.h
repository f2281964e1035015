/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One entry point per refault verb: cmd_<verb>(argc, argv), argv[0] is the verb. Returns the exit status. */
#ifndef REFAULT_CLI_BUILTIN_H
#define REFAULT_CLI_BUILTIN_H

#include <getopt.h>

int cmd_trace(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_workload(int argc, char **argv);

/* refault record's options (getopt_long()'s table), which refault lab passes to the guest's. */
extern const struct option rf_cli_record_longopts[];
/*
 * Parse @argv as refault record's command line (argv[0] "record") and run
 * nothing: 0 when it is good, else the exit status after the message.
 */
int rf_cli_record_check(int argc, char **argv);

#endif /* REFAULT_CLI_BUILTIN_H */
