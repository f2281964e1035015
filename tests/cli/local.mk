# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/cli/: `refault trace` and what every verb shares (usage, outputs).  TAP shell scripts
# (they need $REFAULT, $top_srcdir and, for a few checks, $PYTHON3), and a C test of the
# trace tools' library.
cli_sh_tests = \
	tests/cli/test-trace-info.sh tests/cli/test-trace-dump.sh tests/cli/test-trace-verify.sh \
	tests/cli/test-trace-recover.sh tests/cli/test-trace-slice.sh tests/cli/test-trace-convert.sh \
	tests/cli/test-trace-usage.sh tests/cli/test-refault-usage.sh tests/cli/test-outputs.sh \
	tests/cli/test-trace-nomem.sh tests/cli/test-completion.sh \
	tests/cli/test-man.sh tests/cli/test-trace-escapes.sh \
	tests/cli/test-trace-object-size.sh tests/cli/test-install-deps.sh \
	tests/cli/test-configure-rebuild.sh
TESTS += $(cli_sh_tests)
EXTRA_DIST += $(cli_sh_tests) tests/cli/trace-lib.sh tests/cli/data/small.jsonl

# The trace tools' library (formats/tools/) called as a program calls it: its messages through
# the caller's log, nothing on standard error.
check_PROGRAMS += tests/cli/test-tracetools
tests_cli_test_tracetools_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
tests_cli_test_tracetools_LDADD = $(TRACETOOLS_LIBS)
TESTS += tests/cli/test-tracetools
