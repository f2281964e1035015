# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/replay/: librefault-replay (`refault replay`), the engine: one trace, K configurations,
# N threads (docs/replay.md).
noinst_LTLIBRARIES += librefault-replay.la
librefault_replay_la_SOURCES = \
	replayer/replay/replay.h replayer/replay/replay-local.h \
	replayer/replay/config_list.c replayer/replay/series.c replayer/replay/warm.c \
	replayer/replay/kread.c replayer/replay/pipeline.c replayer/replay/replay.c \
	replayer/replay/results.c replayer/replay/cgroup_names.c replayer/replay/kernel_series.c replayer/replay/policy.c
librefault_replay_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) $(JSONC_CFLAGS)
REPLAY_LIBS = librefault-replay.la librefault-observe.la librefault-refpolicy.la $(MODEL_LIBS) $(URCU_LIBS) $(JSONC_LIBS) -lpthread
