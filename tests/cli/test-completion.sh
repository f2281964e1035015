#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# cli/refault.bash-completion, driven as bash drives it (COMP_WORDS, COMP_CWORD, _refault):
# verbs, trace subcommands, options read from each --help, profiles, cases, event groups and
# the configurations of a results file.  Without bash-completion installed it works alone.
: "${REFAULT:?}" "${top_srcdir:?}"
command -v bash > /dev/null || { echo "1..0 # SKIP no bash"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/refault-compl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$REFAULT" replay -q "$top_srcdir/traces/noswap-pageout.rft" -p v4.5,v6.18 -o "$tmp/r.json" || exit 1
n=0
fail=0
# complete "WORDS..." EXPECTED-WORD DESCRIPTION: the last word is the one being completed
complete_has() {
	n=$((n + 1))
	got=$(bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_refault
		printf "%s\n" "${COMPREPLY[@]}"' sh "$top_srcdir/cli/refault.bash-completion" \
		"$REFAULT" $1 2> /dev/null)
	if printf '%s\n' "$got" | grep -qx -- "$2"; then
		echo "ok $n - $3"
	else
		echo "not ok $n - $3 (got: $(echo $got | cut -c1-200))"
		fail=1
	fi
}
echo "1..16"
complete_has "rep" replay "a verb"
complete_has "trace d" dump "a trace subcommand"
complete_has "replay --pro" --profile "a verb's option, from its --help"
complete_has "trace dump --ty" --type "a trace subcommand's option"
complete_has "replay -p v4.5,v6" v4.5,v6.18 "the second of a list of profiles"
complete_has "gen lru-file-r" lru-file-readtwice "a generator case"
complete_has "record --events vm" vmscan "an event group"
complete_has "record --dur" --duration "record's newest option"
complete_has "compare $tmp/r.json:v6" "$tmp/r.json:v6.18" "a configuration of a results file"
complete_has "report t.rft -p kernel,v6.1" kernel,v6.18 "report's sources: the kernel, then a profile"
complete_has "report t.rft --by cg" cgroup "report's views"
complete_has "sweep me" merge "a sweep subcommand"
complete_has "sweep run p.json --eng" --engine "a sweep option"
complete_has "sweep run p.json --engine par" parallel "sweep's engines"
complete_has "workload --seed 7 --limit 32M pre" prepare "workload's actions"
complete_has "workload --no-cg" --no-cgroups "workload's options"
exit $fail
