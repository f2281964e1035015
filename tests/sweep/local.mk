# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/sweep/: refault sweep end to end (make check; GNU parallel where installed), and on a
# real single-node Slurm that the test starts itself (make check-sweeps: root and Debian's
# slurm-wlm and munge, install-deps.sh --slurm; about 25 s).
sweep_sh_tests = tests/sweep/test-sweep.sh tests/sweep/test-sweep-hostile.sh
TESTS += $(sweep_sh_tests)
EXTRA_DIST += $(sweep_sh_tests) tests/sweep/test-sweep-slurm.sh
check-sweeps: refault$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' REFAULT='$(abs_top_builddir)/refault' PYTHON3='$(PYTHON3)' \
	$(SHELL) '$(abs_top_srcdir)/tests/sweep/test-sweep-slurm.sh'
.PHONY: check-sweeps
