#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `refault trace slice`: time and pid ranges, with the state that precedes them.
. "$(dirname "$0")/trace-lib.sh"
plan 9
make_small && make_big
ok $? "test traces made"

rt slice "$TMP/big.trace" -o "$TMP/t.trace" --from 1.3 --to 1.5 2> "$TMP/err"; ok $? "slice by time exits 0"
# 201 file_reads at 1.300..1.500 s, mmaps at 1.301 and 1.401 s inside, 3 earlier mmaps kept as state
is "$(rt dump "$TMP/t.trace" | wc -l)" 206 "the range's 203 events and the 3 mmaps before it"
is "$(rt dump "$TMP/t.trace" --type file_read | awk 'NR == 1 { print $1 } END { print $1 }' | tr '\n' ' ')" \
	"1.300000000 1.500000000 " "references start and end at the range's limits"
grep -q "chunks copied verbatim" "$TMP/err" && ! grep -q " 0 chunks copied verbatim" "$TMP/err"
ok $? "whole chunks inside the range are copied verbatim"
rt verify "$TMP/t.trace" > /dev/null; ok $? "the slice is a whole trace"

rt slice "$TMP/small.trace" -o "$TMP/p.trace" --pid 200 --from 1.5 2>/dev/null
is "$(rt dump "$TMP/p.trace" | awk '{ print $4 }' | tr '\n' ' ')" \
	"cgroup_mkdir name_file fork cgroup_attach exec anon_fault file_read " \
	"slice by pid keeps the cgroup, file name, fork, attach and exec before the range"
is "$(rt dump "$TMP/p.trace" --from 1.5 | wc -l)" 2 "and only pid 200's events inside it"

rt slice "$TMP/big.trace" -o "$TMP/big.trace" 2>/dev/null; is $? 2 "slicing onto the input is refused"
finish
