# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/lib/: the shared helpers of lib/.
check_PROGRAMS += tests/lib/test-hashmap
TESTS += tests/lib/test-hashmap
