# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/workload/: `refault workload`: the draw (determinism, every value within docs/workload.md's
# bounds: check-draws.py), prepare/run/clean, the errors, and sibling cgroups where root may.
TESTS += tests/workload/test-workload.sh
EXTRA_DIST += tests/workload/test-workload.sh tests/workload/check-draws.py
