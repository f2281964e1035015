# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/refpolicy/: librefault-refpolicy, reference policies (plain LRU, CLOCK, OPT) over the
# model's page stream, named by the trace library's type table (rf_event_pages()).
noinst_LTLIBRARIES += librefault-refpolicy.la
librefault_refpolicy_la_SOURCES = \
	replayer/refpolicy/refpolicy-local.h \
	replayer/refpolicy/queue.h \
	replayer/refpolicy/queue.c \
	replayer/refpolicy/lru.c \
	replayer/refpolicy/clock.c \
	replayer/refpolicy/opt.c \
	replayer/refpolicy/pagekey.c \
	replayer/refpolicy/refpolicy.c
noinst_HEADERS += include/refault/refpolicy.h
REFPOLICY_LIBS = librefault-refpolicy.la librefault-trace.la $(RF_UTIL)
