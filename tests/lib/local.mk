# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/lib/: the shared helpers of lib/.
check_PROGRAMS += tests/lib/test-hashmap
TESTS += tests/lib/test-hashmap
# Output files: temporary name and rename, .old kept, the invoking user's rights under sudo.
check_PROGRAMS += tests/lib/test-outfile
tests_lib_test_outfile_LDADD = $(RF_UTIL)
TESTS += tests/lib/test-outfile
# UTF-8 checks and the JSON writer that replaces what is not UTF-8.
check_PROGRAMS += tests/lib/test-utf8
tests_lib_test_utf8_LDADD = $(RF_UTIL)
TESTS += tests/lib/test-utf8
# What a terminal is shown of text a file supplies: controls, C1, ill-formed bytes escaped.
check_PROGRAMS += tests/lib/test-term
tests_lib_test_term_LDADD = $(RF_UTIL)
TESTS += tests/lib/test-term
