#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The manual pages and --help never drift: for each verb, the long options its --help prints and
# the option entries of the verb's page in docs/man/ (".B"/".BR" lines naming \-\-OPTION) are the same
# set; refault-trace.1 has the union of `refault trace` and its six subcommands, refault-lab.1 of
# `refault lab build`, `record` and `run`.  Each page
# renders without a warning where groff or mandoc is installed.
: "${REFAULT:?}" "${top_srcdir:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/refault-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
man=$top_srcdir/docs/man
n=0
fail=0
tap() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
help_opts() { "$REFAULT" "$@" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help'; }
man_opts() { grep -E '^\.BR? ' "$1" | grep -oE -- '\\-\\-[a-z]([a-z0-9]|\\-)*' | sed 's/\\-/-/g' | grep -vx -- '--help'; }
renderer=
command -v groff > /dev/null && renderer=groff
command -v mandoc > /dev/null && renderer=mandoc
echo "1..$((2 * 11 + 1))"
for verb in "" record replay compare validate report gen sweep trace lab workload; do
	page=$man/refault${verb:+-$verb}.1
	if [ "$verb" = trace ]; then
		for s in "" info dump verify slice recover convert; do help_opts trace $s; done
	elif [ "$verb" = lab ]; then
		for s in build record run; do help_opts lab $s; done
	elif [ -n "$verb" ]; then
		help_opts "$verb"
	else
		help_opts
	fi | sort -u > "$tmp/help"
	man_opts "$page" 2> /dev/null | sort -u > "$tmp/man"
	if [ -s "$page" ] && cmp -s "$tmp/help" "$tmp/man"; then
		tap 0 "refault${verb:+-$verb}.1 has the options --help prints ($(wc -l < "$tmp/help"))"
	else
		diff "$tmp/help" "$tmp/man" | sed 's/^/# /'
		tap 1 "refault${verb:+-$verb}.1 has the options --help prints (< only in --help, > only in the page)"
	fi
	case $renderer in
	groff) groff -man -ww -Tutf8 "$page" > /dev/null 2> "$tmp/warn" && [ ! -s "$tmp/warn" ]; st=$? ;;
	mandoc) mandoc -T lint -W warning "$page" > "$tmp/warn" 2>&1; st=$? ;;
	*) echo "ok $((n + 1)) # SKIP no groff or mandoc to render refault${verb:+-$verb}.1"; n=$((n + 1)); continue ;;
	esac
	sed 's/^/# /' "$tmp/warn"
	tap $st "refault${verb:+-$verb}.1 renders without a warning ($renderer)"
done
grep -q "refault-trace.1" "$top_srcdir/cli/local.mk" && grep -q "dist_man_MANS" "$top_srcdir/cli/local.mk"
tap $? "make install installs them (dist_man_MANS)"
exit $fail
