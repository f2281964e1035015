# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/compare/: the statistics on constructed samples (C), the verb as a library called by a
# program (C), and the verb end to end (shell).
check_PROGRAMS += tests/compare/test-compare-rules tests/compare/test-compare-verb
tests_compare_test_compare_rules_SOURCES = tests/compare/test-compare-rules.c
tests_compare_test_compare_rules_LDADD = $(COMPARE_LIBS)
tests_compare_test_compare_verb_SOURCES = tests/compare/test-compare-verb.c
tests_compare_test_compare_verb_LDADD = $(COMPARE_LIBS)
compare_sh_tests = tests/compare/test-compare-table.sh tests/compare/test-compare-gates.sh \
	tests/compare/test-compare-names.sh \
	tests/compare/test-compare-export.sh tests/compare/test-compare-errors.sh \
	tests/compare/test-compare-html.sh tests/compare/test-compare-kernel.sh \
	tests/compare/test-compare-escapes.sh tests/compare/test-compare-sweep.sh \
	tests/compare/test-compare-change.sh
TESTS += tests/compare/test-compare-rules tests/compare/test-compare-verb $(compare_sh_tests)
EXTRA_DIST += tests/compare/lib.sh tests/compare/mkresults.py tests/compare/expected $(compare_sh_tests)
CLEANFILES += tests/compare/report-cgroups.png tests/compare/report-sweep.png
