#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The front command: --help lists every verb, --version, and unknown commands fail with exit 2.
# Every verb and trace subcommand: an unknown option, or one without its argument, gets the same
# one-line message and exit 2.
: "${REFAULT:?}"
n=0
failed=0
check() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi; }
verbs="trace replay record gen compare validate report"
subs="info dump verify slice recover convert"
echo "1..20"
out=$("$REFAULT" --help); rc=$?
check "--help exits 0" "test $rc -eq 0"
check "--help lists every verb" \
	"for v in $verbs; do echo \"\$out\" | grep -q \"^   \$v \" || exit 1; done"
check "--version names the version" "\"$REFAULT\" --version | grep -q '^refault [0-9]'"
err=$("$REFAULT" bogus 2>&1); rc=$?
check "an unknown command exits 2 and says so" "test $rc -eq 2 && echo \"\$err\" | grep -q \"'bogus' is not a refault command\""
"$REFAULT" > /dev/null 2>&1; rc=$?
check "no command at all exits 2" "test $rc -eq 2"

# says WHAT VERB... -- ARGS...: `refault VERB... ARGS...` exits 2 with exactly
# "refault VERB...: WHAT; see 'refault VERB... --help'" on stderr
says() {
	what=$1; shift
	verb=
	while [ "$1" != -- ]; do verb="$verb${verb:+ }$1"; shift; done
	shift
	err=$("$REFAULT" $verb "$@" 2>&1 >/dev/null); rc=$?
	test $rc -eq 2 && test "$err" = "refault $verb: $what; see 'refault $verb --help'"
}
for v in $verbs; do
	check "refault $v --bogus: exit 2, the uniform message" \
		"says \"unknown option '--bogus'\" $v -- --bogus"
done
for s in $subs; do
	check "refault trace $s --bogus: exit 2, the uniform message" \
		"says \"unknown option '--bogus'\" trace $s -- --bogus"
done
check "an unknown short option in a cluster is named by itself" \
	"says \"unknown option '-z'\" trace dump -- --json -zq x"
bad=0
for a in "gen -o" "replay -p" "validate -p" "report -b" "compare --plot" "record -o" "trace slice -o"; do
	says "option '${a##* }' needs an argument" ${a% *} -- ${a##* } || bad=1
done
check "an option without its argument: the same message for every verb" "test $bad -eq 0"
exit $failed
