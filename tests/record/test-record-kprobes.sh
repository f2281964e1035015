#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The kprobe sources (recorder/kprobes.c): their fetch arguments from this kernel's BTF, the
# --kprobes choices, and, where kprobe events exist, a recording from them with the header
# naming each kprobe and no kprobe left behind.  The check that a kprobe recording gives the
# same references as the tracepoints runs in the kernel lab (tests/kernels/), on 6.12, which
# has both; this host's kernel may have no kprobes at all.
. "$top_srcdir/tests/record/lib.sh"
[ -n "$REFAULT" ] && [ -x "$REFAULT" ] || skip_all "no refault binary (\$REFAULT)"
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT

echo "1..5"
rec --kprobes sometimes -- true 2> "$scratch/err"
st=$?
tap "$([ $st -eq 2 ] && echo 0 || echo 1)" "--kprobes sometimes: a usage error (got $st)"

list=$("$REFAULT" record --list-events)
if [ -r /sys/kernel/btf/vmlinux ]; then
	# each source: the tracepoint's fields, member offsets dereferenced from the arguments
	num='\+[0-9]+\('
	echo "$list" | grep -Eq "mm_filemap_get_pages <- kprobe:filemap_get_read_batch i_ino=${num}${num}\\\$arg1\)\):u64 s_dev=${num}${num}${num}\\\$arg1\)\)\):u32 index=\\\$arg2:u64 last_index=\\\$arg3:u64\$"
	tap $? "--list-events: mm_filemap_get_pages from filemap_get_read_batch, offsets from BTF"
	echo "$list" | grep -Eq "mm_filemap_fault <- kprobe:filemap_fault i_ino=(${num}){5}\\\$arg1\){5}:u64 s_dev=(${num}){6}\\\$arg1\){6}:u32 index=${num}\\\$arg1\):u64\$"
	tap $? "--list-events: mm_filemap_fault from filemap_fault, vmf->vma->vm_file->f_mapping->host"
	echo "$list" | grep -Eq "mm_filemap_map_pages <- kprobe:filemap_map_pages i_ino=(${num}){5}\\\$arg1\){5}:u64 .* index=\\\$arg2:u64 last_index=\\\$arg3:u64\$"
	tap $? "--list-events: mm_filemap_map_pages from filemap_map_pages"
else
	for i in 2 3 4; do
		n=$((n + 1)); echo "ok $n # SKIP no readable /sys/kernel/btf/vmlinux"
	done
fi

if [ "$(id -u)" -ne 0 ] || [ ! -d "$TRACEFS/instances" ]; then
	n=$((n + 1)); echo "ok $n # SKIP recording needs root and tracefs"
elif [ ! -e "$TRACEFS/kprobe_events" ]; then
	rec --kprobes always -q -o /dev/null -- true 2> "$scratch/err" > /dev/null
	st=$?
	tap "$([ $st -eq 1 ] && grep -q 'no kprobe events here' "$scratch/err" && echo 0 || echo 1)" \
		"--kprobes always on a kernel without kprobe events: exit 1, said why (got $st)"
else
	d=$(record_tmpdir)
	rec --kprobes always -q -o "$d/k.rft" -- cat /etc/hostname > /dev/null 2> "$scratch/err"
	st=$?
	"$REFAULT" trace info "$d/k.rft" > "$scratch/info" 2>&1
	left=$(grep -c '^p:refault_record_' "$TRACEFS/kprobe_events")
	tap "$([ $st -eq 0 ] && grep -q 'mm_filemap_get_pages=kprobe:filemap_get_read_batch' "$scratch/info" && [ "$left" -eq 0 ] && echo 0 || echo 1)" \
		"--kprobes always records, the header names the kprobes, none is left (exit $st, $left left)"
	rm -rf "$d"
fi
exit $failed
