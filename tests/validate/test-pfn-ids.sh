#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Folio ids in place of the kernel's pfns (rf_trace_folio_ids_apply(), refault/trace.h; record's default, `trace convert --pfns
# ids`): the readers only join on them, so the bundled recordings (the kernel's pfns) and the same
# events with folio ids give byte-identical `validate --json` and `report --profile kernel`
# outputs, in fewer bytes; converting a trace of ids again changes nothing.
t=$top_srcdir/traces
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pfn-ids.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/lib/tap.sh"

for w in validate-hot validate-read2-large; do
	"$REFAULT" trace convert "$t/$w.rft" "$tmp/k.rft" > /dev/null 2>&1 &&
		"$REFAULT" trace convert --pfns ids "$t/$w.rft" "$tmp/i.rft" > /dev/null 2>&1
	check "$w: converted as it is and with --pfns ids" "test $? -eq 0"
	"$REFAULT" trace info "$tmp/i.rft" | grep -q '^pfns: *folio ids'
	check "$w: trace info says the pfns are folio ids" "test $? -eq 0"
	# dump prints pfn=0x...: ids below 2^20 are at most five hex digits, a pfn of this host's RAM six
	"$REFAULT" trace dump --type lru_add "$tmp/i.rft" | awk '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^pfn=0x/) { seen++; if (length($i) > 11 || $i == "pfn=0x0") bad++ } }
		END { exit !(seen > 0 && !bad) }'
	check "$w: the folios' ids are small numbers" "test $? -eq 0"
	k=$(stat -c %s "$tmp/k.rft") i=$(stat -c %s "$tmp/i.rft")
	[ "$i" -lt "$k" ]
	check "$w: $i bytes with folio ids, $k with the kernel's pfns" "test $? -eq 0"
	"$REFAULT" validate "$tmp/k.rft" --json > "$tmp/k.json" 2> /dev/null &&
		"$REFAULT" validate "$tmp/i.rft" --json > "$tmp/i.json" 2> /dev/null &&
		cmp -s "$tmp/k.json" "$tmp/i.json"
	check "$w: validate --json is the same, byte for byte" "test $? -eq 0"
	"$REFAULT" report "$tmp/k.rft" --profile kernel,v6.18 --by cgroup --json 2> /dev/null |
		sed "s|$tmp/k.rft|T|g" > "$tmp/k.rep" &&
		"$REFAULT" report "$tmp/i.rft" --profile kernel,v6.18 --by cgroup --json 2> /dev/null |
		sed "s|$tmp/i.rft|T|g" > "$tmp/i.rep" && [ -s "$tmp/k.rep" ] && cmp -s "$tmp/k.rep" "$tmp/i.rep"
	check "$w: report --profile kernel,v6.18 is the same" "test $? -eq 0"
done
"$REFAULT" trace convert --pfns ids "$tmp/i.rft" "$tmp/ii.rft" > /dev/null 2>&1 && cmp -s "$tmp/i.rft" "$tmp/ii.rft"
check "a trace of folio ids converted with --pfns ids again: the same bytes" "test $? -eq 0"
# The rules applied to ids give the same ids (convert skips a trace whose header says ids; here
# the header says nothing, so they are applied)
"$REFAULT" trace convert "$tmp/i.rft" "$tmp/i.jsonl" > /dev/null 2>&1 &&
	sed '1s/"pfns":"ids"/"pfns":""/; 1s/"pfns": "ids"/"pfns": ""/' "$tmp/i.jsonl" > "$tmp/n.jsonl" &&
	! head -1 "$tmp/n.jsonl" | grep -q '"ids"' &&
	"$REFAULT" trace convert --pfns ids "$tmp/n.jsonl" "$tmp/n.rft" > /dev/null 2>&1 &&
	"$REFAULT" trace dump --json "$tmp/i.rft" > "$tmp/a" && "$REFAULT" trace dump --json "$tmp/n.rft" > "$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b"
check "folio ids numbered again by the rules: the same events" "test $? -eq 0"
"$REFAULT" trace convert --pfns kernel "$tmp/i.rft" "$tmp/x.rft" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "cannot be had back" "$tmp/err"
check "--pfns kernel in trace convert: a usage error that says why" "test $? -eq 0"
done_testing
