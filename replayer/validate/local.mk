# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/validate/: librefault-validate (`refault validate`), the model against the kernel it
# claims to model, through the replay engine and librefault-observe.
noinst_LTLIBRARIES += librefault-validate.la
librefault_validate_la_SOURCES = \
	replayer/validate/validate.h replayer/validate/validate-local.h replayer/validate/capture.c \
	replayer/validate/modelside.c replayer/validate/run.c replayer/validate/rows.c \
	replayer/validate/output.c
librefault_validate_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
VALIDATE_LIBS = librefault-validate.la $(REPLAY_LIBS) -lm
