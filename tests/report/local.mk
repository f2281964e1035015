# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/report/: `refault report` (TAP shell scripts; $REFAULT, $top_srcdir, $PYTHON3).
report_sh_tests = tests/report/test-report.sh tests/report/test-report-html.sh \
	tests/report/test-report-stacks.sh tests/report/test-report-recorded-stacks.sh \
	tests/report/test-report-names.sh
TESTS += $(report_sh_tests)
EXTRA_DIST += $(report_sh_tests) tests/report/lib.sh tests/report/data/decisions.jsonl \
	tests/report/data/stacks.jsonl tests/report/data/late-names.jsonl
# test-report-html.sh's screenshots, for a person to look at
CLEANFILES += tests/report/report-html-r.png tests/report/report-html-thrash.png \
	tests/report/report-html-flame.png
