/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One entry point per refault verb: cmd_<verb>(argc, argv), argv[0] is the verb. Returns the exit status. */
#ifndef REFAULT_CLI_BUILTIN_H
#define REFAULT_CLI_BUILTIN_H

int cmd_trace(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

#endif /* REFAULT_CLI_BUILTIN_H */
