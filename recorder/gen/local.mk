# SPDX-License-Identifier: LGPL-2.1-or-later
# recorder/gen/: librefault-gen, traces of synthetic workloads (`refault gen`, docs/generators.md).
noinst_LTLIBRARIES += librefault-gen.la
librefault_gen_la_SOURCES = \
	recorder/gen/gen.h recorder/gen/plan.h recorder/gen/cases.h recorder/gen/prng.h \
	recorder/gen/prng.c recorder/gen/plan.c recorder/gen/run.c recorder/gen/cases.c \
	recorder/gen/case-lru-file.c recorder/gen/case-mmap.c recorder/gen/case-anon.c \
	recorder/gen/case-seeds.c recorder/gen/case-policy.c recorder/gen/write.c
