# SPDX-License-Identifier: LGPL-2.1-or-later
# workload/: librefault-workload (`refault workload`), a workload drawn from a seed over a
# documented space (docs/workload.md): the draw and its text and JSON (draw.c), the files and
# the phases of forked tasks (run.c), their sibling memory cgroups (cgroup.c).  Uses lib/ only.
noinst_LTLIBRARIES += librefault-workload.la
librefault_workload_la_SOURCES = \
	workload/workload.h workload/workload-local.h workload/draw.c workload/run.c \
	workload/cgroup.c
librefault_workload_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
WORKLOAD_LIBS = librefault-workload.la $(RF_UTIL) $(JSONC_LIBS)
