# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/observe/: librefault-observe, what the recording kernel did, from a trace's
# observations: one account for the results' "observed" section and for `refault validate`.
noinst_LTLIBRARIES += librefault-observe.la
librefault_observe_la_SOURCES = \
	replayer/observe/observe.h replayer/observe/observe-local.h replayer/observe/cgroups.c \
	replayer/observe/snapshots.c replayer/observe/pages.c replayer/observe/observe.c
librefault_observe_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
OBSERVE_LIBS = librefault-observe.la librefault-trace.la $(RF_UTIL) $(JSONC_LIBS)
