# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/validate/: the validation suite.  Workloads recorded for real where root, tracefs and the
# v1 memory hierarchy exist (skipped with the reason elsewhere), and the verb on the bundled
# recording.  tests/validate/fidelity.sh regenerates docs/fidelity.md.
check_PROGRAMS += tests/validate/vworkload
tests_validate_vworkload_SOURCES = tests/validate/vworkload.c
TESTS += tests/validate/test-validate-cli.sh tests/validate/test-validate.sh tests/validate/test-pfn-ids.sh \
	tests/validate/test-validate-escapes.sh
EXTRA_DIST += tests/validate/cases.sh tests/validate/check-tolerance.py \
	tests/validate/tolerances tests/validate/fidelity.sh \
	tests/validate/test-validate-cli.sh tests/validate/test-validate.sh tests/validate/test-pfn-ids.sh \
	tests/validate/test-validate-escapes.sh
check_PROGRAMS += tests/validate/test-validate-kernel
tests_validate_test_validate_kernel_SOURCES = tests/validate/test-validate-kernel.c
tests_validate_test_validate_kernel_LDADD = $(VALIDATE_LIBS)
TESTS += tests/validate/test-validate-kernel
# Pages cached before the trace: pre-loaded outside the recorded cgroup (warm.c).
check_PROGRAMS += tests/validate/test-validate-warm
tests_validate_test_validate_warm_SOURCES = tests/validate/test-validate-warm.c
tests_validate_test_validate_warm_LDADD = $(VALIDATE_LIBS)
TESTS += tests/validate/test-validate-warm
# fidelity.sh's table generator (kernel and model mean, %stddev, verdict per quantity over N
# recordings) on two canned `refault validate --json` outputs; needs no root.
TESTS += tests/validate/test-fidelity-table.sh
EXTRA_DIST += tests/validate/test-fidelity-table.sh tests/validate/fidelity-table.py \
	tests/validate/fidelity-data/demo.1.json tests/validate/fidelity-data/demo.2.json
# The cgroup tree (each row its subtree: a chain, two cgroups of one path) and captures kept
# within a bound on many snapshots of many cgroups.
check_PROGRAMS += tests/validate/test-validate-tree
tests_validate_test_validate_tree_SOURCES = tests/validate/test-validate-tree.c
tests_validate_test_validate_tree_LDADD = $(VALIDATE_LIBS)
TESTS += tests/validate/test-validate-tree
