#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/space/space-table.py (make check-fidelity-space's TAP and summary) on a canned run:
# a seed validated, a row out with its cause from causes.txt's first matching line, one with
# none, a seed whose recording failed, the floor, the groups of the markdown.
. "$top_srcdir/tests/lib/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spacetable.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
PYTHON3=${PYTHON3:-python3}
table=$top_srcdir/tests/space/space-table.py
mkdir host

# desc SEED KINDS RATIO HOT: a description as refault workload --describe=json gives it
desc() {
	printf '{"seed":%s,"limit":33554432,"swap":false,"summary":{"kinds":[%s],' "$1" "$2"
	printf '"max_file_ratio":%s,"tasks_max":1,"cgroups":"one","hot":%s,"hints":[],' "$3" "$4"
	printf '"writes":false,"anon":false}}\n'
}
# row QUANTITY KERNEL MODEL WITHIN
row() {
	printf '{"scope":"/x/refault-record-1","quantity":"%s","kernel":%s,"model":%s,' "$1" "$2" "$3"
	printf '"error_pct":%s,"within_tolerance":%s,"gated":true}' \
		"$(awk -v k="$2" -v m="$3" 'BEGIN { print 100 * (m - k) / k }')" "$4"
}
desc 1 '"read-seq"' 0.5 false > host/seed-1.describe.json
desc 2 '"mmap-rand","read-seq"' 1.5 true > host/seed-2.describe.json
desc 3 '"mmap-rand"' 2.5 false > host/seed-3.describe.json
printf 'seed-1 0 1.0\nseed-2 0 2.0\nseed-3 1 0.5\n' > host/jobs.txt
: > host/seed-1.rft
: > host/seed-2.rft
echo "refault record: no memory cgroup here" > host/seed-3.err
echo 0 > host/seed-1.vst
echo 3 > host/seed-2.vst
{ echo '{"lost_events":0,"rows":['; row pagecache_add 1000 1010 true; echo ,
  row pgactivate 500 510 true; echo ']}'; } > host/seed-1.validate.json
{ echo '{"lost_events":0,"rows":['; row pagecache_add 1000 1010 true; echo ,
  row pgactivate 500 50 false; echo ,
  row pgrefill 300 100 false; echo ,
  row active_file 200 210 true; echo ']}'; } > host/seed-2.validate.json
cat > causes << 'EOF'
# comments
host kind:mmap-rand pgactivate   # the first line a row matches
* * pgactivate                   # a later one it does not get
EOF
echo 'host 50 # half' > floors

"$PYTHON3" "$table" --causes causes --floors floors --limit 32M --seeds "1 2 3" \
	--markdown space.md host=host > out.tap 2> err
st=$?
sed 's/^/# /' err
check "a seed not recorded: exit 1 (status $st)" '[ $st -eq 1 ]'
check "a seed validated: ok, its rows counted" \
	'grep -q "^ok 1 - host seed 1: recorded in 1.0 s, validated: 2 of 2 gated rows within tolerance$" out.tap'
check "a row out: TODO with the first matching cause" \
	'grep -q "^not ok [0-9]* - host seed 2 refault-record-1 pgactivate: kernel 500 model 50 (-90.0%) # TODO the first line a row matches$" out.tap'
check "a row out no cause matches: TODO, cause not found" \
	'grep -q "^not ok [0-9]* - host seed 2 refault-record-1 pgrefill: .* # TODO cause not found$" out.tap'
check "a seed not recorded: not ok, its exit and its messages said" \
	'grep -q "^not ok [0-9]* - host seed 3: recorded (exit 1; host/seed-3.err: refault record: no memory cgroup here)$" out.tap'
check "the configuration's share against its floor: 4 of 6 within, 1 of 3 seeds clean" \
	'grep -q "^ok [0-9]* - host: 66.7% of gated rows within tolerance (4 of 6, 2 of 3 seeds recorded, 1 with every row within), at least 50.0% (half)$" out.tap'
check "the markdown: the summary, a row per seed, the groups" \
	'grep -q "^| host | 3 | 2 | 4 of 6 (66.7 %) | 1 |$" space.md &&
	 grep -q "^| 2 | mmap-rand, read-seq | 1.50 | 1 | one | hot | 2 of 4 | pgactivate, pgrefill | 2.0 |$" space.md &&
	 grep -q "^| 3 | mmap-rand | 2.50 | 1 | one | - | - | not recorded (exit 1) | 0.5 |$" space.md &&
	 grep -q "^| pgactivate | 1 of 2 | file>limit | 1 of 1 | 0 of 1 | the first line a row matches |$" space.md'
echo 'host 70 # most' > floors
"$PYTHON3" "$table" --causes causes --floors floors --limit 32M --seeds "1 2" host=host > out.tap
st=$?
check "below the floor: not ok, exit 1 (status $st)" \
	'[ $st -eq 1 ] && grep -q "^not ok [0-9]* - host: 66.7% .* at least 70.0% (most)$" out.tap'
echo 'host 60 # most' > floors
"$PYTHON3" "$table" --causes causes --floors floors --limit 32M --seeds "1 2" host=host > out.tap
st=$?
check "every seed recorded and above the floor: exit 0 (status $st)" '[ $st -eq 0 ]'
printf 'host pgactivate\n' > bad
"$PYTHON3" "$table" --causes bad --floors floors --limit 32M --seeds 1 host=host > out.tap 2> err
st=$?
check "a cause line without its why: refused, named" '[ $st -ne 0 ] && grep -q "^bad:1: 3 words" err'
done_testing
