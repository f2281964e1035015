#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The front command: --help lists every verb, --version, and unknown commands fail with exit 2.
: "${REFAULT:?}"
n=0
failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi; }
echo "1..5"
out=$("$REFAULT" --help); rc=$?
check "--help exits 0" "test $rc -eq 0"
check "--help lists every verb" \
	"for v in trace replay record gen compare validate; do echo \"\$out\" | grep -q \"^   \$v \" || exit 1; done"
check "--version names the version" "\"$REFAULT\" --version | grep -q '^refault [0-9]'"
err=$("$REFAULT" bogus 2>&1); rc=$?
check "an unknown command exits 2 and says so" "test $rc -eq 2 && echo \"\$err\" | grep -q \"'bogus' is not a refault command\""
"$REFAULT" > /dev/null 2>&1; rc=$?
check "no command at all exits 2" "test $rc -eq 2"
exit $failed
