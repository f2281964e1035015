#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# memory.stat of the cgroups below the recorded one: a command run under --memcg-limit makes a
# child cgroup, moves into it, reads a file and waits two snapshot intervals.  The trace must carry
# memory.stat snapshots of the child (so that validate compares its refaults and list sizes),
# besides those of the recorded cgroup, and nothing may be left behind.  The header names the
# recorded cgroup (format 2.2), and replay calls it memcg.recorded, its child memcg.recorded/child.
# A command that leaves its cgroups behind (a child and a grandchild, empty) leaves none: the
# recorder removes the whole subtree of the group it made.
. "$top_srcdir/tests/record/lib.sh"
record_begin memcg
head -c 4M /dev/urandom > "$dir/f.dat"
cat > "$dir/cmd.sh" <<EOS
. "$top_srcdir/tests/record/lib.sh"
cg=\$(memcg_own_dir)
mkdir "\$cg/child" && echo \$\$ > "\$cg/child/tasks" || exit 1
cat "$dir/f.dat" > /dev/null
sleep 0.3
echo \$\$ > "\$cg/tasks"
rmdir "\$cg/child"
EOS
echo "1..8"
"$REFAULT" record -q -o "$dir/m.trace" --memcg-limit 64M --snapshot-interval 50ms -- \
	sh "$dir/cmd.sh" 2> "$dir/err" &
pid=$!
wait_bounded $pid 120 "refault record --memcg-limit -- sh cmd.sh"
tap $? "refault record --memcg-limit -- a command making a child cgroup exits 0"
sed 's/^/# /' "$dir/err"
! leftover_cgroup $pid
tap $? "the --memcg-limit cgroup is removed"
"$REFAULT" trace dump "$dir/m.trace" --type cgroup_mkdir,counters > "$dir/dump" 2>&1
awk -v rec="refault-record-$pid" '
	$4 == "cgroup_mkdir" && $0 ~ rec "/child\"" { split($5, a, "="); child = a[2] }
	$4 == "cgroup_mkdir" && $0 ~ rec "\"" { split($5, a, "="); top = a[2] }
	$4 == "counters" && $5 == "source=1" { split($6, a, "="); n[a[2]]++ }
	END { printf "%d %d\n", top ? n[top] : -1, child ? n[child] : -1 }' "$dir/dump" > "$dir/counts"
read -r ntop nchild < "$dir/counts"
echo "# memory.stat snapshots: $ntop of the recorded cgroup, $nchild of its child"
[ "$ntop" -ge 2 ]
tap $? "memory.stat of the recorded cgroup, at start and end at least ($ntop)"
[ "$nchild" -ge 1 ]
tap $? "memory.stat of the child cgroup made while recording ($nchild)"
"$REFAULT" trace info "$dir/m.trace" > "$dir/info" 2>&1
grep -q "^cgroup: *.*/refault-record-$pid\$" "$dir/info"
tap $? "the header names the recorded cgroup: $(sed -n 's/^cgroup: *//p' "$dir/info")"
"$REFAULT" replay -q "$dir/m.trace" -o "$dir/r.json" 2> "$dir/err" &&
	grep -q '"memcg.recorded.usage"' "$dir/r.json" &&
	grep -q '"memcg.recorded/child.usage"' "$dir/r.json" &&
	! grep -q "refault-record-$pid\.usage" "$dir/r.json"
tap $? "replay names it memcg.recorded and its child memcg.recorded/child"
cat > "$dir/leave.sh" <<EOS
. "$top_srcdir/tests/record/lib.sh"
cg=\$(memcg_own_dir)
mkdir -p "\$cg/a/b" && echo \$\$ > "\$cg/a/b/tasks" && cat "$dir/f.dat" > /dev/null &&
	echo \$\$ > "\$cg/tasks"
EOS
"$REFAULT" record -q -o "$dir/l.trace" --memcg-limit 64M -- sh "$dir/leave.sh" 2> "$dir/err" &
pid=$!
wait_bounded $pid 120 "refault record --memcg-limit -- sh leave.sh"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && ! grep -q "cannot remove" "$dir/err"
tap $? "a command that leaves a child and a grandchild cgroup: exit $st, no warning"
! leftover_cgroup $pid
tap $? "... and the --memcg-limit cgroup is removed with them"
exit $failed
