# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/gen/: the generators through a sink and through the reader, and `refault gen`.
check_PROGRAMS += tests/gen/test-gen-patterns
tests_gen_test_gen_patterns_SOURCES = tests/gen/test-gen-patterns.c
tests_gen_test_gen_patterns_LDADD = librefault-gen.la librefault-trace.la $(RF_UTIL) -lm
# cgroup-thrash through the reclaim model: v4.5 and v4.6 must disagree on /hot.
check_PROGRAMS += tests/gen/test-gen-thrash-model
tests_gen_test_gen_thrash_model_SOURCES = tests/gen/test-gen-thrash-model.c
tests_gen_test_gen_thrash_model_LDADD = $(MODEL_LIBS) -lm
TESTS += tests/gen/test-gen-patterns tests/gen/test-gen-thrash-model tests/gen/test-gen-cli.sh \
	tests/gen/test-gen-bundled.sh
EXTRA_DIST += tests/gen/test-gen-cli.sh tests/gen/test-gen-bundled.sh
