#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check-lab: refault lab end to end, for real (TAP).  Debian's linux-source-6.12 built with
# lab/lab.config (once per machine: the cache keeps it), and again with a one-file patch to mm/
# (tests/lab/swappiness-100.patch); a workload given as a command recorded on both, each kernel
# proven by what the guest reads (/proc/sys/vm/swappiness: 60, then 100); --file, --sysctl,
# --repeat; and what must fail, failing with the log named: a patch that does not apply, a
# kernel that panics, a guest past its --budget.  An existing trace is kept as .old.  And lab run:
# MGLRU off against on, three runs a side, the change table.
#   REFAULT_LAB_CACHE  the lab's cache (default ~/.cache/refault-lab)
#   LAB_SOURCE         the kernel source (default linux-source-6.12)
# Skipped without qemu, busybox-static or the kernel build's tools (install-deps.sh --lab).
set -u
. "$top_srcdir/tests/lib/tap.sh"
PYTHON3=${PYTHON3:-python3}
for t in qemu-system-x86_64 cpio mke2fs debugfs make gcc bc bison flex patch; do
	command -v $t > /dev/null 2>&1 || { skip_all "no $t: install-deps.sh --lab installs it"; exit 0; }
done
[ -x /bin/busybox ] || { skip_all "no /bin/busybox: install-deps.sh --lab"; exit 0; }
src=${LAB_SOURCE:-linux-source-6.12}
export REFAULT_LAB_CACHE=${REFAULT_LAB_CACHE:-$HOME/.cache/refault-lab}
patch=$top_srcdir/tests/lab/swappiness-100.patch
tmp=$(mktemp -d "${TMPDIR:-/tmp}/checklab.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
log() { sed 's/^/# /' "$@"; }

# The kernels: the source as it is, and with the patch.
t0=$SECONDS
"$REFAULT" lab build "$src" -o "$tmp/a.bz" > out 2> err
st=$?
log err
check "lab build $src: exit $st, in $((SECONDS - t0)) s" '[ $st -eq 0 ] && [ -s a.bz ]'
t0=$SECONDS
"$REFAULT" lab build "$src" --patch "$patch" -o "$tmp/b.bz" > out 2> err
st=$?
log err
check "lab build $src --patch swappiness-100.patch: exit $st, in $((SECONDS - t0)) s" \
	'[ $st -eq 0 ] && [ -s b.bz ] && ! cmp -s a.bz b.bz'
t0=$SECONDS
"$REFAULT" lab build "$src" -o "$tmp/a2.bz" > out 2> err
log err
check "the same build again is the cached one ($((SECONDS - t0)) s)" \
	'cmp -s a.bz a2.bz && grep -q cached err'
sed 's/int vm_swappiness = 60;/int vm_swappiness = 61;/' "$patch" > bad.patch
"$REFAULT" lab build "$src" --patch bad.patch > out 2> err
st=$?
log err
check "a patch that does not apply: exit 1, its hunk named" \
	'[ $st -eq 1 ] && grep -q "bad.patch does not apply" err && grep -q "FAILED" err'

# A workload given as a command, on each kernel: the guest says which one it booted.
rec() {	# rec OUT ARGS...: refault lab record, its status in $st
	local o=$1
	shift
	"$REFAULT" lab record --memcg-limit 32M -o "$o" "$@" > "$o.log" 2>&1
	st=$?
	log "$o.log"
}
rec a.rft --kernel a.bz -- cat /proc/sys/vm/swappiness
check "lab record on the source's kernel: exit $st, swappiness 60" \
	'[ $st -eq 0 ] && [ "$(cat a.lab/a.out)" = 60 ] && "$REFAULT" trace verify a.rft > /dev/null 2>&1'
rec b.rft --build "$src" --patch "$patch" -- cat /proc/sys/vm/swappiness
check "lab record --build with the patch: exit $st, swappiness 100" \
	'[ $st -eq 0 ] && [ "$(cat b.lab/b.out)" = 100 ] && "$REFAULT" trace verify b.rft > /dev/null 2>&1'
rec b.rft --kernel b.bz -- cat /proc/sys/vm/swappiness
check "the same output again: the new trace, the one before kept as b.rft.old" \
	'[ $st -eq 0 ] && [ -s b.rft.old ] && ! cmp -s b.rft b.rft.old'

# --file, --sysctl, --repeat: a file read twice per recording, each from a cold start.
head -c 24M /dev/urandom > data.bin
rec w.rft --kernel a.bz --file data.bin --sysctl vm.vfs_cache_pressure=200 --repeat 2 \
	-- sh -c 'cat /proc/sys/vm/vfs_cache_pressure; cat data.bin data.bin | md5sum'
want=$(cat data.bin data.bin | md5sum)
check "--file, --sysctl, --repeat 2: two traces, the file as it is here, the sysctl set" \
	'[ $st -eq 0 ] && [ "$(cat w.lab/w-1.out)" = "200
$want" ] && [ "$(cat w.lab/w-2.out)" = "200
$want" ]'
reads() { "$REFAULT" trace info "$1" 2> /dev/null | awk '$1 == "pagecache_add" { n = $2 } END { print n + 0 }'; }
r1=$(reads w-1.rft) r2=$(reads w-2.rft)
check "... each from a cold start: the file's pages added in both ($r1, $r2)" \
	'[ "$r1" -ge 6144 ] && [ "$r2" -ge 6144 ]'

# --idle-pages on the lab's kernel (lab.config has idle page tracking): a hot set of 4 MiB of the
# file mapped and loaded at random while the rest is read through a 12 MiB cgroup; its loads raise
# no fault once mapped, and the scans find them.
wl=$top_builddir/tests/validate/vworkload
"$REFAULT" lab record --kernel a.bz --memcg-limit 12M --file data.bin --idle-pages=100ms \
	-o i.rft -- "$wl" hmap data.bin 4 3 > i.rft.log 2>&1
st=$?
log i.rft.log
young=$("$REFAULT" trace info i.rft 2> /dev/null | awk '$1 == "pte_young" { n = $2 } END { print n + 0 }')
check "lab record --idle-pages: exit $st, the scans found the mapped hot set accessed ($young pte_young events)" \
	'[ $st -eq 0 ] && [ "$young" -gt 0 ] && grep -q "idle pages: [0-9]* scans" i.lab/i.err'
"$REFAULT" replay i.rft -p v6.12 -q -o i.json > /dev/null 2>&1
check "... the model moves their accessed bits (model.idle_young > 0)" \
	'$PYTHON3 -c "import json,sys; s=json.load(open(\"i.json\"))[\"configs\"][0][\"stats\"]; sys.exit(0 if s.get(\"model.idle_young\", 0) > 0 else 1)"'

# Writes without a sync on Debian's 6.12 (kprobe events and BTF; the lab's own kernel has no
# BTF): each folio the program dirtied is a file_written when its writeback ends (a kprobe on
# __folio_end_writeback()), in the interrupt that ended it, and the replay follows the recording
# kernel's writeback (writeback=recorded, from the header's sources).  The read back evicts every
# written page, so each one's write ended.
"$REFAULT" lab record --kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru off \
	--memcg-limit 32M -o n.rft -- "$wl" nwrite n64 64 > n.rft.log 2>&1
st=$?
log n.rft.log
counts=$("$REFAULT" trace dump --no-names n.rft 2> /dev/null | awk '
	$4 == "file_write" || $4 == "file_written" {
		for (f = 5; f <= NF; f++) if ($f ~ /^nr=/) { split($f, x, "="); p[$4] += x[2] } }
	END { print p["file_write"] + 0, p["file_written"] + 0 }')
dirtied=${counts% *}
ended=${counts#* }
check "lab record of 64 MiB written without a sync: exit $st, each page's write ended in the trace ($ended of $dirtied pages)" \
	'[ $st -eq 0 ] && [ "$dirtied" -ge 16384 ] && [ "$ended" -le "$dirtied" ] && [ $((ended * 10)) -ge $((dirtied * 9)) ]'
"$REFAULT" replay n.rft -p v6.12 -q -o n.json > /dev/null 2>&1
check "... replay follows the kernel's writeback (writeback=recorded, from the header)" \
	'$PYTHON3 -c "import json,sys; c=json.load(open(\"n.json\"))[\"configs\"][0]; sys.exit(0 if c[\"settings\"][\"writeback\"] == \"recorded\" else 1)"'

# lab run: the pre/post loop on the multi-gen LRU's switch (the kernel's own change, MGLRU off ->
# on), 3 runs a side: the traces, their replays through both profiles, the change table.
cat > run.spec <<SPEC
side off --kernel $tmp/a.bz --mglru off
side on --kernel $tmp/a.bz --mglru on
profile off v6.12
profile on v6.12-mglru
runs 3
lab --memcg-limit 24M --file data.bin --cold
command cat data.bin data.bin
SPEC
t0=$SECONDS
"$REFAULT" lab run run.spec -o run > run.txt 2> run.err
st=$?
log run.txt
tail -n 3 run.err | log
check "lab run: 2 sides x 3 runs recorded, replayed, the change table (exit $st, $((SECONDS - t0)) s)" \
	'[ $st -eq 0 ] && [ -s run/on-3.rft ] && [ -s run/off-1.json ] && grep -q "model changes agree" run/change-on.txt && $PYTHON3 -c "import json; json.load(open(\"run/change-on.json\"))"'
check "... the kernel's MGLRU is off on one side, on on the other" \
	'grep -aq "lru_gen=0x0000" run/off.lab/console.log && grep -aq "lru_gen=0x0007" run/on.lab/console.log'

# What must fail, failing with its log named.
rec p.rft --kernel a.bz --append rdinit=/nonexistent -- true
check "a kernel that panics: exit 1, the panic and the console log named" \
	'[ $st -eq 1 ] && grep -q "Kernel panic" p.rft.log && grep -q "p.lab/console.log" p.rft.log && [ ! -e p.rft ]'
rec s.rft --kernel a.bz --budget 20s -- sleep 120
check "a guest past its --budget: exit 1, said, the console log named" \
	'[ $st -eq 1 ] && grep -q "did not finish within --budget 20 s" s.rft.log && grep -q "s.lab/console.log" s.rft.log'
rec f.rft --kernel a.bz -- false
check "a command that fails: exit 1, its status said, its trace kept" \
	'[ $st -eq 1 ] && grep -q "the command exited with status 1" f.rft.log && [ -s f.rft ]'
done_testing
