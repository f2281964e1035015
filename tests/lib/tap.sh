# SPDX-License-Identifier: LGPL-2.1-or-later
# TAP for the shell tests (sourced): numbered results, the plan at the end.
#   check "what is true" 'shell condition'    one result: ok when the condition holds
#   skip_test "why"                           one result, skipped
#   skip_all "why"                            the whole script skipped (then exit 0)
#   done_testing                              the plan; exits 1 if any result failed
tap_n=0
tap_failed=0

check() {
	tap_n=$((tap_n + 1))
	if eval "$2"; then
		echo "ok $tap_n - $1"
	else
		echo "not ok $tap_n - $1"
		tap_failed=1
	fi
}

skip_test() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

skip_all() {
	echo "1..0 # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	exit $tap_failed
}
