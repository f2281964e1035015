# SPDX-License-Identifier: LGPL-2.1-or-later
# sweep/: librefault-sweep (`refault sweep`), traces x configurations planned into tasks that local
# processes, GNU parallel or a Slurm job array run, merged into one file compare reads
# (docs/sweeps.md).  It runs `refault replay` as a program and reads results, never a trace's events.
noinst_LTLIBRARIES += librefault-sweep.la
librefault_sweep_la_SOURCES = \
	sweep/sweep.h sweep/sweep-local.h sweep/util.c sweep/spec.c sweep/plan.c sweep/load.c \
	sweep/results.c sweep/task.c sweep/run.c sweep/emit.c sweep/merge.c
librefault_sweep_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
SWEEP_LIBS = librefault-sweep.la librefault-compare.la $(REPLAY_LIBS) $(RF_UTIL) $(JSONC_LIBS)
