# SPDX-License-Identifier: LGPL-2.1-or-later
# The replay engine and `refault replay`.
noinst_LTLIBRARIES += librefault-engine.la
librefault_engine_la_SOURCES = \
	replayer/engine/engine.h replayer/engine/result-local.h \
	replayer/engine/config_list.c replayer/engine/observed.c replayer/engine/series.c \
	replayer/engine/pipeline.c replayer/engine/replay.c replayer/engine/results.c
librefault_engine_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) $(JSONC_CFLAGS)
librefault_engine_la_LIBADD = $(URCU_LIBS) $(JSONC_LIBS)

refault_SOURCES += replayer/engine/builtin-replay.c
REFAULT_VERB_LIBS += librefault-engine.la librefault-model.la

TESTS += tests/replay/test-replay.sh
EXTRA_DIST += tests/replay/test-replay.sh
BENCH_SH += tests/bench/bench-replay.sh
EXTRA_DIST += tests/bench/bench-replay.sh
