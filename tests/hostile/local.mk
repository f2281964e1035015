# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/hostile/: implausible traces (valid in format) through every verb, each run bounded in time
# and memory: a clean error or a clean result, never a crash, a hang or a runaway allocation.
check_PROGRAMS += tests/hostile/gen-hostile
tests_hostile_gen_hostile_LDADD = librefault-trace.la $(RF_UTIL)
TESTS += tests/hostile/test-hostile.sh
EXTRA_DIST += tests/hostile/test-hostile.sh
# refault compare on crafted results, LKP and sweep files (gen-compare.py): every output mode bounded
# in time and memory, or a clear limit error.
TESTS += tests/hostile/test-hostile-compare.sh
EXTRA_DIST += tests/hostile/test-hostile-compare.sh tests/hostile/gen-compare.py
