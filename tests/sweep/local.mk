# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/sweep/: refault sweep end to end (GNU parallel where installed).
sweep_sh_tests = tests/sweep/test-sweep.sh
TESTS += $(sweep_sh_tests)
EXTRA_DIST += $(sweep_sh_tests)
