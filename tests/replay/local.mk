# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/replay/: `refault replay` end to end.
TESTS += tests/replay/test-replay.sh tests/replay/test-replay-policies.sh
EXTRA_DIST += tests/replay/test-replay.sh tests/replay/test-replay-policies.sh
check_PROGRAMS += tests/replay/gen-lru-stream
tests_replay_gen_lru_stream_LDADD = librefault-trace.la $(RF_UTIL)
# The cgroup of a per-cgroup setting: "recorded", recorded/CHILD, a path; one the trace lacks is refused.
TESTS += tests/replay/test-replay-cgroup-set.sh
EXTRA_DIST += tests/replay/test-replay-cgroup-set.sh
