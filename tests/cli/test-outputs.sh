#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every verb that writes a file writes it under a temporary name and renames it when it is
# complete: a failed run leaves an existing output as it was (or, where it keeps the part of a
# damaged input it could read, keeps the old file as .old), and no temporary behind; a device
# (/dev/null) is written in place, never replaced by a file.  (refault record: test-record-safety.)
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/outputs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
t=$top_srcdir/traces/cgroup-thrash.rft
head -c 4000 "$t" > "$tmp/cut.rft"	# a trace cut in its first chunk
echo precious > "$tmp/keep"

unchanged() { [ "$(cat "$tmp/keep")" = precious ] && ! ls -a "$tmp" | grep -q 'tmp-'; }
# fails VERB...: the command fails, writing into $tmp/keep; the file is as it was
fails() { ! "$REFAULT" "$@" > /dev/null 2>&1 && unchanged; }

check "gen: a failed write leaves the output (an unknown case)" \
	"fails gen nosuch-case -o '$tmp/keep'"
check "replay -o: a trace that is not there leaves the output" \
	"fails replay '$tmp/nosuch.rft' -o '$tmp/keep'"
check "replay -o: a damaged trace leaves the output" "fails replay '$tmp/cut.rft' -o '$tmp/keep'"
# A damaged input: the events before the damage are kept, and so is the file they replace.
kept_old() { ! "$REFAULT" "$@" > /dev/null 2>&1 && [ "$(cat "$tmp/keep.old")" = precious ] &&
	mv "$tmp/keep.old" "$tmp/keep" && unchanged; }
check "trace convert: a damaged input keeps the output it replaces, as keep.old" \
	"kept_old trace convert '$tmp/cut.rft' '$tmp/keep' --to trace"
check "trace slice: a damaged input keeps the output it replaces, as keep.old" \
	"kept_old trace slice '$tmp/cut.rft' -o '$tmp/keep' --from 0"
check "trace recover: an input that is not a trace leaves the output" \
	"fails trace recover '$tmp/keep' -o '$tmp/keep2' && [ ! -e '$tmp/keep2' ]"
check "compare --export-matrix: results that are not there leave the output" \
	"fails compare --export-matrix '$tmp/keep' '$tmp/nosuch.json'"
check "replay -o /nonexistent/dir/x.json fails before it replays, naming the path" \
	"'$REFAULT' replay '$t' -o /nonexistent/dir/x.json 2>&1 | grep -q '^refault replay: /nonexistent/dir/x.json'"
"$REFAULT" replay "$t" -p v4.6 -q -o "$tmp/r.json"
check "replay -o writes the results when it succeeds" "[ -s '$tmp/r.json' ] && ! ls -a '$tmp' | grep -q tmp-"
check "replay -o /dev/null: written in place, the device stays a device" \
	"'$REFAULT' replay '$t' -p v4.6 -q -o /dev/null && [ -c /dev/null ]"
"$REFAULT" gen cgroup-thrash --mem 16M -o "$tmp/g.rft" > /dev/null 2>&1
check "gen writes a whole trace when it succeeds" "'$REFAULT' trace verify -q '$tmp/g.rft'"
# A full disk is named as one (the writer said "input/output error"), and a device stays a device.
nospace() { "$REFAULT" "$@" 2>&1 >/dev/null | grep -q "No space left on device" && [ -c /dev/full ]; }
check "gen -o /dev/full: 'No space left on device'" "nospace gen cgroup-thrash --mem 16M -o /dev/full"
check "trace recover -o /dev/full: 'No space left on device'" "nospace trace recover '$t' -o /dev/full"
check "trace convert to /dev/full: 'No space left on device'" "nospace trace convert '$t' /dev/full --to trace"
check "trace slice -o /dev/full: 'No space left on device'" "nospace trace slice '$t' -o /dev/full"
ln -s "$tmp/keep" "$tmp/link"
check "an output that is a link to a file is refused, the file untouched" \
	"fails gen cgroup-thrash --mem 16M -o '$tmp/link'"
done_testing
