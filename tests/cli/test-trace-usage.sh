#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Bad command lines exit 2 with a message; --help exits 0; bad files exit 1 without a crash.
. "$(dirname "$0")/trace-lib.sh"
plan 16
make_small
usage_error() {	# usage_error DESCRIPTION ARGS...: exit 2 and a message on stderr
	desc=$1; shift
	rt "$@" > /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "refault trace" "$TMP/err"
	ok $? "$desc (exit $rc)"
}
usage_error "unknown subcommand" frobnicate
usage_error "unknown option" dump "$TMP/small.trace" --bogus
usage_error "option without its argument" dump "$TMP/small.trace" --pid
usage_error "unknown event type" dump "$TMP/small.trace" --type file_reed
usage_error "bad time" dump "$TMP/small.trace" --from yesterday
usage_error "no TRACE" info
usage_error "slice without -o" slice "$TMP/small.trace"
usage_error "convert with one file" convert "$TMP/small.trace"
usage_error "convert to an unknown format" convert "$TMP/small.trace" "$TMP/x" --to parquet
usage_error "convert at zstd level 0" convert "$TMP/small.trace" "$TMP/x" -z 0
usage_error "convert at zstd level 20" convert "$TMP/small.trace" "$TMP/x" --compression-level 20
for sub in info dump verify slice recover convert; do
	rt $sub --help | grep -q "^usage: refault trace $sub" || break
done
ok $? "every subcommand has --help (exit 0)"
rt info /nonexistent/file 2> "$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "No such file" "$TMP/err"; ok $? "missing file: exit 1 with the reason"
head -c 5000 /dev/urandom > "$TMP/random.trace" 2>/dev/null || dd if=/dev/zero of="$TMP/random.trace" bs=1k count=5 2>/dev/null
bad=0
for sub in info dump verify recover; do
	rt $sub "$TMP/random.trace" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 1 ] || { bad=1; diag "$sub on random bytes: exit $rc"; }
done
is $bad 0 "random bytes: info, dump, verify, recover exit 1 (no crash)"
# a hostile JSONL: a huge page range must not expand into billions of requests
head -n 1 "$DATA/small.jsonl" > "$TMP/huge.jsonl"
echo '{"t":1,"cpu":0,"pid":1,"type":"file_read","dev":1,"ino":1,"index":0,"nr":18446744073709551615}' >> "$TMP/huge.jsonl"
rt convert "$TMP/huge.jsonl" "$TMP/huge.trace" 2>/dev/null
rt convert "$TMP/huge.trace" "$TMP/huge.csv" 2> "$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "more than" "$TMP/err"; ok $? "a read of 2^64 pages is refused, not expanded"
echo '{"t":1,"type":"file_read"' > "$TMP/cut.jsonl"
rt convert "$TMP/cut.jsonl" "$TMP/cut.trace" 2> "$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "line 1" "$TMP/err"; ok $? "cut-short JSON: exit 1, line named"
finish
