#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What `refault record` never does: destroy an existing output when it fails, write where the
# user who ran sudo could not, run the command as root under sudo, ignore a stop signal meant
# for the command, or leave its memory cgroup behind after being killed.
# The sudo cases run twice: with sudo's environment set by hand (SUDO_UID/SUDO_GID, as root),
# and for real, as the user nobody through sudo, when REFAULT_TEST_SUDO=1 lets the test add a
# sudoers rule for nobody for the length of the test (.ci/run does).
. "$top_srcdir/tests/record/lib.sh"
record_begin
secret=
rule=
trap 'rm -rf "$dir"; rm -f "$secret" "$rule"' EXIT
echo "1..21"

same() { cmp -s "$1" "$2"; }
no_temp() { ! ls -a "$dir" | grep -q 'tmp-'; }

rec -q -o "$dir/good.rft" -- true
cp "$dir/good.rft" "$dir/p.rft"
rec -q -G /nosuch-cgroup -o "$dir/p.rft" 2> "$dir/err"
[ $? -ne 0 ] && same "$dir/good.rft" "$dir/p.rft" && no_temp
tap $? "a failed record (-G /nosuch-cgroup) leaves the existing output as it was"
rec -q --tracefs /tmp -o "$dir/p.rft" -- true 2> "$dir/err"
[ $? -ne 0 ] && same "$dir/good.rft" "$dir/p.rft" && no_temp
tap $? "... and --tracefs /tmp"
rec -q -o "$dir/p.rft" -- /nonexistent-cmd 2> "$dir/err"
[ $? -ne 0 ] && same "$dir/good.rft" "$dir/p.rft" && no_temp
tap $? "... and a command that is not there"
grep -q "cannot run '/nonexistent-cmd'" "$dir/err"
tap $? "... which it names"
rec -q -o "$dir/p.rft" -- true && same "$dir/good.rft" "$dir/p.rft.old" &&
	"$REFAULT" trace verify -q "$dir/p.rft"
tap $? "a successful record replaces the output and keeps the old one as p.rft.old"

# SIGTERM: the command gets it (its whole group), the trace is finished and indexed.
# (The signal goes once the command runs: the recorder's setup is seconds under a sanitizer.)
"$REFAULT" record -q -o "$dir/term.rft" -- sh -c "touch '$dir/started'; sleep 30 & sleep 30; wait" \
	2> "$dir/err" &
pid=$!
wait_until 60 "[ -e '$dir/started' ] || ! running $pid"
sleep 0.5
start=$(date +%s)
kill -TERM $pid
wait_bounded $pid 60 "refault record -- sh after one SIGTERM"
st=$?
took=$(($(date +%s) - start))
[ $st -eq 0 ] && [ $took -le 5 ]
tap $? "SIGTERM during record -- COMMAND: forwarded, the recorder exits 0 (after ${took} s)"
"$top_builddir/tests/record/check-trace" readable "$dir/term.rft" | grep -q indexed
tap $? "... with a complete, indexed trace"
grep -q "exited with status 143" "$dir/err"
tap $? "... and says the command died of it"

# The memory cgroup of a recorder killed by SIGKILL: the next recording removes it.
# The recorder dies once the command runs in that cgroup: killed earlier, between the command's
# attach and its exec, the command would go on as a process no name can find. Then the command,
# which outlives its recorder, is killed by the pid the cgroup lists.
if [ -n "$(memcg_own_dir)" ]; then
	"$REFAULT" record -q --memcg-limit 64M -o "$dir/k.rft" -- \
		sh -c "touch '$dir/kstarted'; exec sleep 30" &
	pid=$!
	wait_until 60 "[ -e '$dir/kstarted' ] || ! running $pid"	# a loaded machine
	kill -KILL $pid
	wait_bounded $pid 30 "refault record after SIGKILL" 2> /dev/null
	kill -KILL $(cat "$(memcg_own_dir)/refault-record-$pid/cgroup.procs") 2> /dev/null
	sleep 0.3
	leftover_cgroup $pid
	tap $? "SIGKILL leaves the recorder's memory cgroup refault-record-$pid"
	rec -q -o "$dir/after.rft" -- true && ! leftover_cgroup $pid
	tap $? "... and the next recording (without --memcg-limit) removes it"
else
	n=$((n + 2)); echo "ok $((n - 1)) # SKIP no v1 memory cgroup hierarchy"
	echo "ok $n # SKIP no v1 memory cgroup hierarchy"
fi

# sudo's environment, set by hand: the user is nobody.
chmod 755 "$dir"
mkdir -m 700 "$dir/root-only"
echo "root's" > "$dir/root-only/secret"
chmod 600 "$dir/root-only/secret"
mkdir "$dir/theirs"
chown 65534:65534 "$dir/theirs"
as_sudo() { SUDO_UID=65534 SUDO_GID=65534 timeout -k 10 "$record_timeout" "$REFAULT" "$@"; }
as_sudo record -q -o "$dir/root-only/secret" -- true 2> "$dir/err"
[ $? -ne 0 ] && [ "$(cat "$dir/root-only/secret")" = "root's" ] &&
	[ "$(stat -c %u "$dir/root-only/secret")" = 0 ] && grep -q "Permission denied" "$dir/err"
tap $? "under sudo, a root-only file named with -o is refused and left as it was, root's"
ln -s "$dir/root-only/secret" "$dir/theirs/link"
as_sudo record -q -o "$dir/theirs/link" -- true 2> "$dir/err"
[ $? -ne 0 ] && [ "$(cat "$dir/root-only/secret")" = "root's" ]
tap $? "... and so is a link to it planted where the user writes"
as_sudo record -q -o "$dir/theirs/t.rft" -- sh -c "id -u > '$dir/theirs/id'"
[ "$(stat -c %u:%g "$dir/theirs/t.rft")" = 65534:65534 ]
tap $? "under sudo the trace belongs to the user"
[ "$(cat "$dir/theirs/id")" = 65534 ] && [ "$(stat -c %u "$dir/theirs/id")" = 65534 ]
tap $? "... the command runs as the user, and its files are the user's"
as_sudo record -q --as-root -o "$dir/theirs/r.rft" -- sh -c "id -u > '$dir/theirs/rid'"
[ "$(cat "$dir/theirs/rid")" = 0 ]
tap $? "... unless --as-root"

# For real: nobody runs sudo refault record.
why=
if [ "$REFAULT_TEST_SUDO" != 1 ]; then
	why="set REFAULT_TEST_SUDO=1 to let the test add a sudoers rule for nobody"
elif ! command -v sudo > /dev/null; then
	why="no sudo"
elif ! runuser -u nobody -- test -x "$REFAULT"; then
	why="nobody cannot reach $REFAULT"
fi
if [ -n "$why" ]; then
	for i in 1 2 3 4 5 6; do n=$((n + 1)); echo "ok $n # SKIP $why"; done
	exit $failed
fi
rule=/etc/sudoers.d/refault-test-$$
printf 'nobody ALL=(root) NOPASSWD: %s\n' "$REFAULT" > "$rule"
chmod 440 "$rule"
secret=/etc/refault-test-secret-$$
echo "root's" > "$secret"
chmod 600 "$secret"
nobody() { timeout -k 10 "$record_timeout" runuser -u nobody -- "$@"; }
nobody sudo -n "$REFAULT" record -q -o "$dir/theirs/s.rft" -- sh -c "id -u > '$dir/theirs/sid'" \
	2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err"
[ $st -eq 0 ] && [ "$(stat -c %u "$dir/theirs/s.rft")" = 65534 ]
tap $? "sudo from nobody: the trace is nobody's"
[ "$(cat "$dir/theirs/sid")" = 65534 ]
tap $? "sudo from nobody: the command runs as nobody"
nobody sudo -n "$REFAULT" record -q -o "$secret" -- true 2> "$dir/err"
[ $? -ne 0 ] && [ "$(cat "$secret")" = "root's" ] && [ "$(stat -c %u:%a "$secret")" = 0:600 ]
tap $? "sudo from nobody: -o a root-only file is refused, the file untouched"
ln -s "$secret" "$dir/theirs/evil"
nobody sudo -n "$REFAULT" record -q -o "$dir/theirs/evil" -- true 2> "$dir/err"
[ $? -ne 0 ] && [ "$(cat "$secret")" = "root's" ] && [ "$(stat -c %u:%a "$secret")" = 0:600 ]
tap $? "sudo from nobody: a planted link to it is refused, the file untouched"
nobody sudo -n "$REFAULT" record -q -o /etc/refault-test-new-$$ -- true 2> "$dir/err"
[ $? -ne 0 ] && [ ! -e /etc/refault-test-new-$$ ]
tap $? "sudo from nobody: no file is created where nobody cannot write"
nobody sudo -n "$REFAULT" record -q -o "$dir/theirs/s.rft" -- true 2> "$dir/err" &&
	[ "$(stat -c %u "$dir/theirs/s.rft.old")" = 65534 ]
tap $? "sudo from nobody: the .old it keeps is still nobody's"
exit $failed
