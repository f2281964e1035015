# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/replay/: `refault replay` end to end.
TESTS += tests/replay/test-replay.sh
EXTRA_DIST += tests/replay/test-replay.sh
