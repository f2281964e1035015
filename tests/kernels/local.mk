# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/kernels/: the kernel lab.  The validation suite's workloads (tests/validate/cases.sh)
# recorded in qemu guests running Debian's 6.1 and 6.12 kernels (lab.sh: the guest only
# records), then validated here as test-validate.sh does (check-kernels.sh prints TAP).  Not
# part of make check: it boots five guests (two with the multi-gen LRU on), a few minutes each
# under TCG.
#
#   make check-kernels [KERNELS="6.1-v1 6.1-v2 6.12-v2 6.1-v2-mglru 6.12-v2-mglru"] [CASES=...] \
#       [REFAULT_LAB_CACHE=DIR] [LAB_ACCEL=auto|kvm|tcg] [LAB_BUDGET=SECONDS] [LAB_OUT=DIR]
#       [LAB_REUSE=1: validate the traces of the last run again, booting nothing]
#
# Traces and console logs in tests/kernels/out/CONFIG/ of the build tree (or LAB_OUT/CONFIG);
# the kernel packages and the workload files' disk image in the cache (default
# ~/.cache/refault-lab).
EXTRA_DIST += tests/kernels/lab.sh tests/kernels/kprobes-kill.sh tests/kernels/check-kernels.sh \
	tests/kernels/fidelity.sh tests/kernels/check-policy.py \
	tests/kernels/README.md
check-kernels: refault$(EXEEXT) tests/validate/vworkload$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	REFAULT='$(abs_top_builddir)/refault' \
	VWORKLOAD='$(abs_top_builddir)/tests/validate/vworkload' PYTHON3='$(PYTHON3)' \
	KERNELS='$(KERNELS)' CASES='$(CASES)' REFAULT_LAB_CACHE='$(REFAULT_LAB_CACHE)' \
	LAB_ACCEL='$(LAB_ACCEL)' LAB_BUDGET='$(LAB_BUDGET)' LAB_REUSE='$(LAB_REUSE)' \
	LAB_OUT='$(LAB_OUT)' \
	bash '$(abs_top_srcdir)/tests/kernels/check-kernels.sh'
.PHONY: check-kernels
