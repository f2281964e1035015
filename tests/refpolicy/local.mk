# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/refpolicy/: plain LRU, CLOCK and OPT.
refpolicy_tests = \
	tests/refpolicy/test-refpolicy-classic \
	tests/refpolicy/test-refpolicy-props \
	tests/refpolicy/test-refpolicy-pagekey
check_PROGRAMS += $(refpolicy_tests)
TESTS += $(refpolicy_tests)
tests_refpolicy_test_refpolicy_classic_LDADD = $(REFPOLICY_LIBS)
tests_refpolicy_test_refpolicy_props_LDADD = $(REFPOLICY_LIBS)
tests_refpolicy_test_refpolicy_pagekey_LDADD = $(REFPOLICY_LIBS)
