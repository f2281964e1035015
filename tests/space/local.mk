# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/space/: the model on a seeded space of workloads (issue 43; docs/fidelity.md "A seeded
# space of workloads").  make check-fidelity-space draws SPACE_SEEDS with refault workload,
# records each from a cold start (on this host, or in the lab's kernels: SPACE_CONFIGS),
# validates it and prints TAP and the summary (space-table.py; causes.txt names the causes of
# the rows out, floors the share of rows within below which it fails).  Not part of make check
# (which runs test-space-table.sh, the summary on a canned run): it needs root, tracefs and
# minutes per seed; CI runs seeds 1-10 on the host.
TESTS += tests/space/test-space-table.sh
EXTRA_DIST += tests/space/test-space-table.sh tests/space/check-fidelity-space.sh \
	tests/space/space-table.py tests/space/causes.txt tests/space/floors
check-fidelity-space: refault$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	REFAULT='$(abs_top_builddir)/refault' PYTHON3='$(PYTHON3)' \
	SPACE_SEEDS='$(SPACE_SEEDS)' SPACE_CONFIGS='$(SPACE_CONFIGS)' SPACE_LIMIT='$(SPACE_LIMIT)' \
	SPACE_WORKLOAD_ARGS='$(SPACE_WORKLOAD_ARGS)' SPACE_OUT='$(SPACE_OUT)' \
	SPACE_DOC='$(SPACE_DOC)' SPACE_REUSE='$(SPACE_REUSE)' \
	REFAULT_LAB_CACHE='$(REFAULT_LAB_CACHE)' LAB_ACCEL='$(LAB_ACCEL)' LAB_BUDGET='$(LAB_BUDGET)' \
	bash '$(abs_top_srcdir)/tests/space/check-fidelity-space.sh'
.PHONY: check-fidelity-space
