#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The lab's work directories (lab/lib.sh's lab_work, through refault lab record's driver): a run
# removes those that killed runs left behind, never one a live run or its guest holds, nor one
# --keep kept; its own goes at its end unless --keep.  No guest is booted: the driver is asked
# for a kernel that does not exist, which it says after taking its work directory (refault lab
# itself would refuse the missing file before).
. "$top_srcdir/tests/lib/tap.sh"
for t in qemu-system-x86_64 cpio mke2fs debugfs flock; do
	command -v $t > /dev/null 2>&1 || { skip_all "no $t: the lab's tools are installed by install-deps.sh --lab"; exit 0; }
done
[ -x /bin/busybox ] || { skip_all "no /bin/busybox: install-deps.sh --lab installs busybox-static"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/labdirs.XXXXXX") || exit 1
holder=
trap '[ -z "$holder" ] || kill $holder 2> /dev/null; rm -rf "$tmp"' EXIT
cache=$tmp/cache
mkdir -p "$cache/run.killed" "$cache/run.kept" "$cache/run.live" "$cache/run.killedlocked"
touch "$cache/run.kept/kept" "$cache/run.killedlocked/lock"
# a live run: its lock held by a process that outlives this test's lab runs
(exec 7> "$cache/run.live/lock" && flock 7 && exec sleep 300) &
holder=$!
i=0
while [ $i -lt 50 ] && flock -n "$cache/run.live/lock" true; do sleep 0.1; i=$((i + 1)); done

lab() {
	mkdir -p "$tmp/out"
	bash "$top_srcdir/lab/refault-lab" record --cache "$cache" --kernel "$tmp/no-such-vmlinuz" \
		--refault "$REFAULT" -o "$tmp/out/x.rft" "$@" -- /bin/true > "$tmp/log" 2>&1
}
lab
st=$?
check "the driver fails on a kernel that does not exist (status $st)" '[ $st = 1 ] && grep -q "no kernel" "$tmp/log"'
check "a killed run's directory is removed" '[ ! -e "$cache/run.killed" ] && [ ! -e "$cache/run.killedlocked" ]'
check "and said" 'grep -q "removed .*run.killed, left by a run that was killed" "$tmp/log"'
check "a live run's directory stays" '[ -d "$cache/run.live" ]'
check "a kept directory stays" '[ -d "$cache/run.kept" ]'
check "the run's own directory is removed at its end" \
	'[ "$(cd "$cache" && echo run.*)" = "run.kept run.live" ]'
lab --keep
kept=$(cd "$cache" && ls -d run.* | grep -v -x -e run.kept -e run.live)
check "with --keep it stays, marked kept ($kept)" '[ -n "$kept" ] && [ -e "$cache/$kept/kept" ]'
lab
check "and the next run leaves it" '[ -d "$cache/$kept" ]'
done_testing
