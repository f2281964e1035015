# SPDX-License-Identifier: LGPL-2.1-or-later
# formats/gen/local.mk: refault gen, the synthetic trace generators (docs/generators.md).
noinst_LTLIBRARIES += librefault-gen.la
librefault_gen_la_SOURCES = \
	formats/gen/gen.h formats/gen/plan.h formats/gen/cases.h formats/gen/prng.h \
	formats/gen/prng.c formats/gen/plan.c formats/gen/run.c formats/gen/cases.c \
	formats/gen/case-lru-file.c formats/gen/case-mmap.c formats/gen/case-anon.c \
	formats/gen/case-seeds.c formats/gen/write.c
librefault_gen_la_LIBADD = librefault-trace.la -lm

refault_SOURCES += formats/gen/builtin-gen.c
REFAULT_VERB_LIBS += librefault-gen.la

# Tests: the library through a sink and through the reader, and the CLI.
check_PROGRAMS += tests/gen/test-gen-patterns
tests_gen_test_gen_patterns_SOURCES = tests/gen/test-gen-patterns.c
tests_gen_test_gen_patterns_LDADD = librefault-gen.la librefault-trace.la
# cgroup-thrash through the reclaim model: v4.5 and v4.6 must disagree on /hot.
check_PROGRAMS += tests/gen/test-gen-thrash-model
tests_gen_test_gen_thrash_model_SOURCES = tests/gen/test-gen-thrash-model.c
tests_gen_test_gen_thrash_model_LDADD = librefault-model.la librefault-trace.la -lm
TESTS += tests/gen/test-gen-patterns tests/gen/test-gen-thrash-model tests/gen/test-gen-cli.sh \
	tests/gen/test-gen-bundled.sh
EXTRA_DIST += tests/gen/test-gen-cli.sh tests/gen/test-gen-bundled.sh
