#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault gen from the command line: --list, determinism across output names,
# and a clear message with exit status 2 for every kind of bad argument.
REFAULT=${REFAULT:-./refault}
tmp=$(mktemp -d /tmp/test-gen-cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# A bad command line: exit 2 and a 'refault gen:' message that contains $2.
refused() {
	what=$1 needle=$2
	shift 2
	"$REFAULT" gen "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q '^refault gen: ' "$tmp/err" && grep -qF -- "$needle" "$tmp/err" &&
	   ! [ -e "$tmp/bad.rft" ]; then
		ok "refused with exit 2: $what"
	else
		not_ok "refused with exit 2: $what (rc $rc)"
		sed 's/^/# /' "$tmp/err"
	fi
}

echo "1..19"

"$REFAULT" gen --list >"$tmp/list"
check "--list: one line per case, 13 cases" '[ $(wc -l <"$tmp/list") -eq 13 ]'
check "--list names the seeds' benchmarks and cgroup-thrash" \
	'grep -q "^noswap-pageout " "$tmp/list" && grep -q "^pvec-thp-mix " "$tmp/list" && grep -q "^cgroup-thrash " "$tmp/list"'
check "--help: usage on stdout, exit 0" '"$REFAULT" gen --help | grep -q "^usage: refault gen CASE"'

args="lru-file-readtwice --seed 7 --mem 8M --cpus 2 --scale 0.5"
"$REFAULT" gen $args -o "$tmp/a.rft" 2>"$tmp/msg"
check "writes the trace and says so" '[ -s "$tmp/a.rft" ] && grep -q "wrote .*a.rft: lru-file-readtwice, [0-9]* events" "$tmp/msg"'
"$REFAULT" gen --mem 8M --cpus 2 $args --scale 0.5 --output "$tmp/other-name.rft" 2>/dev/null
check "the same arguments give the same bytes, whatever the output's name" \
	'cmp -s "$tmp/a.rft" "$tmp/other-name.rft"'
"$REFAULT" gen $args --seed 8 -o "$tmp/b.rft" 2>/dev/null
check "another seed gives another trace" '! cmp -s "$tmp/a.rft" "$tmp/b.rft"'

refused "unknown case" "unknown case 'lru-file-readthrice'" lru-file-readthrice -o "$tmp/bad.rft"
refused "no case" "which case" -o "$tmp/bad.rft"
refused "no output" "-o TRACE" anon-w-seq
refused "--mem below the minimum" "--mem 1048576 is outside" anon-w-seq --mem 1M -o "$tmp/bad.rft"
refused "--mem not a size" "--mem wants a size" anon-w-seq --mem lots -o "$tmp/bad.rft"
refused "--scale 0" "--scale wants a positive number" anon-w-seq --scale 0 -o "$tmp/bad.rft"
refused "--scale too large" "--scale 5000 is outside" anon-w-seq --scale 5000 -o "$tmp/bad.rft"
refused "--tasks 0" "--tasks wants a positive integer" anon-w-seq --tasks 0 -o "$tmp/bad.rft"
refused "cgroup-thrash with one task" "--tasks 1 is outside 2" cgroup-thrash --tasks 1 -o "$tmp/bad.rft"
refused "unknown option" "unknown option '--colour'" anon-w-seq --colour -o "$tmp/bad.rft"
refused "option without its value" "option '--seed' needs an argument" anon-w-seq -o "$tmp/bad.rft" --seed
refused "two cases" "unexpected argument 'anon-w-rand'" anon-w-seq anon-w-rand -o "$tmp/bad.rft"

"$REFAULT" gen anon-w-seq --mem 8M -o "$tmp/no/such/dir/x.rft" 2>"$tmp/err"
rc=$?
check "an output that cannot be created: exit 1 and the path named (rc $rc)" \
	'[ $rc -eq 1 ] && grep -q "no/such/dir/x.rft" "$tmp/err"'
