# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/: the containers and helpers every part of refault shares (one hash map, one growth rule,
# the hash mixes, number parsing, output files, UTF-8, HTML and terminal text).  A convenience library linked into each library and program
# that uses it; its symbols are hidden in the installed libraries.
noinst_LTLIBRARIES += librefault-util.la
librefault_util_la_SOURCES = \
	lib/clock.h lib/compiler.h lib/hash.h lib/hashmap.h lib/prng.h lib/grow.h lib/grow.c lib/units.h lib/units.c \
	lib/outfile.h lib/outfile.c lib/utf8.h lib/utf8.c lib/html.h lib/html.c \
	lib/term.h lib/term.c
librefault_util_la_LIBADD = -lm
RF_UTIL = librefault-util.la
