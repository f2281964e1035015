# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/changes/: the "Changes" table of docs/fidelity.md, a change's kernel %change against the
# model's.  make check-changes runs refault lab run on changes.spec (four upstream commits
# reverted from Debian's linux-source-6.12 and five runtime settings against the base kernel,
# six workloads, three runs a side, the base booted twice more for the noise) and gates the
# table (check-changes.sh; known.txt lists the disagreements explained).  Not part of make
# check (which runs test-changes-table.sh, the table on a canned run): fourteen boots under
# TCG, about 35 minutes.
TESTS += tests/changes/test-changes-table.sh
EXTRA_DIST += tests/changes/test-changes-table.sh \
	tests/changes/check-changes.sh tests/changes/changes-table.py \
	tests/changes/changes.spec tests/changes/idle.spec tests/changes/known.txt \
	tests/changes/revert-9cecde80aae0.patch tests/changes/revert-8788f6781486.patch \
	tests/changes/revert-0538a82c39e9.patch tests/changes/revert-c55e8d035b28.patch \
	tests/changes/v6.12-32M.profile tests/changes/v6.12-9cecde80.profile \
	tests/changes/v6.12-8788f678.profile tests/changes/v6.12-0538a82c.profile \
	tests/changes/v6.12-c55e8d03.profile tests/changes/v6.12-mglru-32M.profile \
	tests/changes/v6.12-swappiness0.profile tests/changes/v6.12-swappiness200.profile \
	tests/changes/v6.12-24M.profile tests/changes/v6.12-48M.profile \
	tests/changes/v6.12-thp-never.profile
check-changes: refault$(EXEEXT) tests/validate/vworkload$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	REFAULT='$(abs_top_builddir)/refault' \
	VWORKLOAD='$(abs_top_builddir)/tests/validate/vworkload' PYTHON3='$(PYTHON3)' \
	REFAULT_LAB_CACHE='$(REFAULT_LAB_CACHE)' CHANGES_OUT='$(CHANGES_OUT)' \
	CHANGES_SIDES='$(CHANGES_SIDES)' CHANGES_WORKLOADS='$(CHANGES_WORKLOADS)' \
	CHANGES_REUSE='$(CHANGES_REUSE)' CHANGES_DOC='$(CHANGES_DOC)' \
	bash '$(abs_top_srcdir)/tests/changes/check-changes.sh'
.PHONY: check-changes
