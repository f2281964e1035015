# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of `refault trace` (TAP shell scripts; they need $REFAULT, $top_srcdir and, for a few
# checks, $PYTHON3).  Included from the top Makefile.am.
TESTS += \
	tests/cli/test-trace-info.sh tests/cli/test-trace-dump.sh tests/cli/test-trace-verify.sh \
	tests/cli/test-trace-recover.sh tests/cli/test-trace-slice.sh tests/cli/test-trace-convert.sh \
	tests/cli/test-trace-usage.sh tests/cli/test-refault-usage.sh
EXTRA_DIST += \
	tests/cli/test-trace-info.sh tests/cli/test-trace-dump.sh tests/cli/test-trace-verify.sh \
	tests/cli/test-trace-recover.sh tests/cli/test-trace-slice.sh tests/cli/test-trace-convert.sh \
	tests/cli/test-trace-usage.sh tests/cli/test-refault-usage.sh tests/cli/trace-lib.sh tests/cli/data/small.jsonl
