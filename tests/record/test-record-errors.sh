#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Bad options, unknown events, a missing tracefs, a command that cannot run, a buffer the
# kernel refuses: each gives a clear message and leaves no tracefs instance or cgroup behind.
. "$top_srcdir/tests/record/lib.sh"
record_begin
has_memcg=$([ -n "$(memcg_own_dir)" ] && echo 1)
echo "1..31"
run=

expect() {	# expect STATUS PATTERN DESCRIPTION -- ARGS
	want=$1 pat=$2 what=$3
	shift 4
	$run "$REFAULT" record -q -o "$dir/e.trace" "$@" > "$dir/out" 2>&1 &
	pid=$!
	wait_bounded $pid 120 "refault record $*"
	got=$?
	[ $got -eq "$want" ] && grep -q -- "$pat" "$dir/out"
	ok=$?
	[ $ok -eq 0 ] || sed 's/^/# /' "$dir/out"
	tap $ok "$what (exit $got)"
	leftover_instance $pid && { tap 1 "no instance left: $what"; return; }
	leftover_cgroup $pid && { tap 1 "no cgroup left: $what"; return; }
	tap 0 "nothing left behind: $what"
}

expect 2 "unknown option '--bogus'" "an unknown option" -- --bogus
expect 2 "unknown event 'nosuch'" "an unknown event" -- --events refs,nosuch
expect 2 "unknown event 'nosuch'" "... named with -e, as perf record -e" -- -e refs,nosuch
expect 1 "no process 999999" "-p of a process gone, with a command to bound it" -- -p 999999 -- true
expect 2 "needs a command" "--memcg-limit without a command" -- --memcg-limit 64M -a
expect 2 "it needs -p PID or -- COMMAND" "--damon of every task" -- -a --damon -- true
expect 2 "compression-level wants a zstd level from 1 (fastest) to 19 (smallest), not '20'" \
	"a compression level zstd's ordinary levels do not have" -- -z 20 -- true
expect 2 "invalid --damon '1ms,0'" "--damon with no aggregation interval" -- --damon=1ms,0 -- true
expect 1 "the damon events need --damon" "the damon events without their monitor" -- \
	-e refs,damon -- true
expect 1 "no tracefs at /nonexistent" "a missing tracefs" -- --tracefs /nonexistent -- true
# A process or a cgroup that is not there is the system's state: exit 1 both (-p said 2).
expect 1 "no process 2147483646" "a process that is not there" -- -p 2147483646
expect 1 "no memory cgroup 'nosuch-cg' (looked for /.*/nosuch-cg)" \
	"a cgroup that is not there, and the path it looked for" -- -G nosuch-cg
if [ -n "$has_memcg" ]; then
	expect 1 "cannot run '/nonexistent/cmd'" "a command that cannot run, in a memcg" -- \
		--memcg-limit 64M -- /nonexistent/cmd
	expect 1 "buffer_size_kb" "a ring buffer the kernel refuses, in a memcg" -- \
		--buffer-size 64T --memcg-limit 64M -- true
else
	for i in 1 2 3 4; do n=$((n + 1)); echo "ok $n # SKIP no memory cgroup"; done
fi
# -G NAME without its slash names the same cgroup as -G /NAME (it joined mount and name without one)
own=$(memcg_own_dir)
mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
if [ -n "$own" ] && mkdir "$mnt/refault-test-g-$$" 2> /dev/null; then
	"$REFAULT" record -q -G "refault-test-g-$$" -o "$dir/g.trace" 2> "$dir/out" &
	pid=$!
	# one SIGINT once it records (a background job of sh starts with SIGINT ignored: sent
	# before the recorder took its signals, it would be lost), and never an unbounded wait
	wait_until 60 "recording $pid || ! running $pid"
	kill -INT $pid
	wait_bounded $pid 60 "refault record -G after one SIGINT"
	st=$?
	rmdir "$mnt/refault-test-g-$$"
	sed 's/^/# /' "$dir/out"
	tap $([ $st -eq 0 ] && "$REFAULT" trace verify -q "$dir/g.trace"; echo $?) \
		"-G refault-test-g-$$ (no leading slash) records that cgroup (exit $st)"
else
	n=$((n + 1)); echo "ok $n # SKIP no v1 memory hierarchy to make a cgroup in"
fi
unpriv="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
if ! command -v setpriv > /dev/null; then
	for i in 1 2; do n=$((n + 1)); echo "ok $n # SKIP no setpriv"; done
elif ! $unpriv "$REFAULT" --version > /dev/null 2>&1; then
	# e.g. a build under a mode-0700 temporary directory: nobody cannot even reach the binary
	for i in 1 2; do n=$((n + 1)); echo "ok $n # SKIP user 65534 cannot run $REFAULT (not reachable from its directories)"; done
else
	run=$unpriv
	expect 1 "needs root, or CAP_PERFMON" "an unprivileged user" -- true
	run=
fi
exit $failed
