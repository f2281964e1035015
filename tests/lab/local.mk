# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/lab/: refault lab.  In make check, its command line (no guest), its sources and patches
# on a stand-in tree (no kernel built), a run's spec.  make check-lab: the verb for real: Debian's
# linux-source-6.12 built (once per machine; the cache keeps it) and with a patch, a command
# recorded on both, and the failures (tests/lab/check-lab.sh).
TESTS += tests/lab/test-lab-cli.sh tests/lab/test-lab-patches.sh tests/lab/test-lab-spec.sh \
	tests/lab/test-lab-workdirs.sh
EXTRA_DIST += tests/lab/test-lab-cli.sh tests/lab/test-lab-patches.sh tests/lab/test-lab-spec.sh \
	tests/lab/test-lab-workdirs.sh \
	tests/lab/check-lab.sh \
	tests/lab/swappiness-100.patch
check-lab: refault$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' REFAULT='$(abs_top_builddir)/refault' \
	REFAULT_LAB_CACHE='$(REFAULT_LAB_CACHE)' LAB_SOURCE='$(LAB_SOURCE)' \
	bash '$(abs_top_srcdir)/tests/lab/check-lab.sh'
.PHONY: check-lab
