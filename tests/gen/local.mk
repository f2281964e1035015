# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/gen/: the generators through a sink and through the reader, and `refault gen`.
check_PROGRAMS += tests/gen/test-gen-patterns
tests_gen_test_gen_patterns_SOURCES = tests/gen/test-gen-patterns.c
tests_gen_test_gen_patterns_LDADD = librefault-gen.la librefault-trace.la $(RF_UTIL) -lm
# the policy cases through the reclaim model: cgroup-thrash (v4.5 and v4.6 must disagree on
# /hot) and mmap-stream-read-hot (classic and multi-gen must)
check_PROGRAMS += tests/gen/test-gen-model
tests_gen_test_gen_model_SOURCES = tests/gen/test-gen-model.c
tests_gen_test_gen_model_LDADD = librefault-gen.la $(MODEL_LIBS) -lm
TESTS += tests/gen/test-gen-patterns tests/gen/test-gen-model tests/gen/test-gen-cli.sh \
	tests/gen/test-gen-bundled.sh
EXTRA_DIST += tests/gen/test-gen-cli.sh tests/gen/test-gen-bundled.sh
