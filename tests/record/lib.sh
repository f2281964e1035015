# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the refault record tests: skip reasons, scratch space, TAP helpers.

TRACEFS=${REFAULT_TRACEFS:-/sys/kernel/tracing}
n=0
failed=0

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

tap() {	# tap COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}

record_require() {
	[ -n "$REFAULT" ] && [ -x "$REFAULT" ] || skip_all "no refault binary (\$REFAULT)"
	[ "$(id -u)" -eq 0 ] || skip_all "recording needs root"
	[ -d "$TRACEFS/instances" ] || skip_all "no tracefs at $TRACEFS"
}

# A memory cgroup mount and our own group in it, or empty.
memcg_own_dir() {
	mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
	[ -n "$mnt" ] || return 0
	rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; exit }' /proc/self/cgroup)
	echo "$mnt${rel%/}"
}

# Scratch directory on a disk filesystem (the page cache of tmpfs is not traced as filemap reads).
record_tmpdir() {
	d=$(mktemp -d "${top_builddir:-.}/tests/record/tmp.XXXXXX") || exit 1
	case $(stat -f -c %T "$d") in
	tmpfs|ramfs) rm -rf "$d"; skip_all "the build directory is on tmpfs";;
	esac
	echo "$d"
}

# The start of a test that records: skip unless it can (and, given "memcg", unless there is a
# v1 memory cgroup hierarchy); $dir is a scratch directory, removed at exit.
record_begin() {	# record_begin [memcg]
	record_require
	if [ "$1" = memcg ]; then
		[ -n "$(memcg_own_dir)" ] || skip_all "no v1 memory cgroup hierarchy"
	fi
	dir=$(record_tmpdir)
	trap 'rm -rf "$dir"' EXIT
}

leftover_instance() {	# leftover_instance PID: 0 if one of the recorder's instances is still there
	[ -d "$TRACEFS/instances/refault-record-$1" ] ||
		[ -d "$TRACEFS/instances/refault-record-$1-drain" ]
}

leftover_cgroup() {
	own=$(memcg_own_dir)
	[ -n "$own" ] && [ -d "$own/refault-record-$1" ]
}

# running PID: PID, a child of this shell, has not exited (a zombie not yet waited for has).
# Any state but Z and X is running, the lower-case ones too: a sanitizer build's LeakSanitizer
# stops every thread with ptrace at exit (state t, "tracing stop"), and a test that took t for
# "gone" went on, then found the process running again and killed it as hung (the CI failures
# of test-record-errors 27 and test-record-signals 11: 14 in 40 runs of the two under load).
# And PID must still be the process started: the shell reaps an exited background job whenever
# it waits for a command, after which the PID may be another's (pid_max is 32768 on the CI
# host), so its start time (field 22 of /proc/PID/stat), read the first time it is asked
# about, must not change.  Builtins only (no command for the shell to wait on): ask first right
# after starting it.
running() {
	rn_line=''
	{ read -r rn_line < "/proc/$1/stat"; } 2> /dev/null || return 1
	# the fields after the command's name (which may hold blanks and parentheses)
	set -- "$1" ${rn_line##*) }
	case $2 in Z|X|x|'') return 1;; esac
	# $2 is field 3 (the state): the start time, field 22, is $21
	eval "rn_start=\${rn_start_$1:-}"
	if [ -z "$rn_start" ]; then
		eval "rn_start_$1=\${21}"
		return 0
	fi
	[ "$rn_start" = "${21}" ]
}

# hang_report PID: what PID and its children are doing, as TAP comments: each thread's state,
# blocked signals, wait channel and kernel stack (root reads /proc/PID/task/TID/stack).
hang_report() {
	for hr_p in "$1" $(cat /proc/"$1"/task/*/children 2> /dev/null); do
		for hr_t in /proc/"$hr_p"/task/*; do
			echo "# $hr_p/${hr_t##*/} $(tr '\0' ' ' < /proc/"$hr_p"/cmdline 2> /dev/null)"
			grep -E '^(Name|State|SigBlk|SigIgn|SigPnd|ShdPnd|TracerPid):' "$hr_t/status" \
				2> /dev/null | tr '\t' ' ' | sed 's/^/#   /'
			echo "#   wchan $(cat "$hr_t/wchan" 2> /dev/null)"
			# a task on a CPU has no stack to read: three tries, 0.2 s apart
			for hr_i in 1 2 3; do
				[ -z "$(cat "$hr_t/stack" 2> /dev/null)" ] || break
				sleep 0.2
			done
			sed 's/^/#   /' "$hr_t/stack" 2> /dev/null
		done
		command -v gdb > /dev/null && timeout 60 gdb -q -batch -p "$hr_p" \
			-ex 'thread apply all bt' 2>&1 | grep -E '^(#|Thread)' | sed 's/^/#   /'
	done
}

# wait_bounded PID SECONDS WHAT: wait for PID, a process this test started in the background, for
# at most SECONDS, and give its exit status.  Past SECONDS it is a failure the log names: a TAP
# comment says WHAT hung and what it was doing (hang_report), the process gets SIGTERM, SIGKILL
# 5 s later, and the status is 124 (as timeout(1) gives).  A test that waits on a process it
# started never waits without a bound.
wait_bounded() {
	wb_t=0
	while running "$1" && [ $wb_t -lt $(($2 * 10)) ]; do
		sleep 0.1
		wb_t=$((wb_t + 1))
	done
	if running "$1"; then
		echo "# $3: pid $1 still running after $2 s: killed"
		hang_report "$1"
		kill -TERM "$1" 2> /dev/null
		wb_t=0
		while running "$1" && [ $wb_t -lt 50 ]; do
			sleep 0.1
			wb_t=$((wb_t + 1))
		done
		kill -KILL "$1" 2> /dev/null
		wait "$1" 2> /dev/null
		return 124
	fi
	wait "$1"
}

# wait_until SECONDS CONDITION: poll the shell CONDITION every 50 ms for at most SECONDS; 1, with
# a TAP comment that says what never held, past that.
wait_until() {
	wu_t=0
	while ! eval "$2"; do
		if [ $wu_t -ge $(($1 * 20)) ]; then
			echo "# gave up after $1 s waiting for: $2"
			return 1
		fi
		sleep 0.05
		wu_t=$((wu_t + 1))
	done
}

# recording PID: the recorder PID has made its tracefs instance, so it has its stop signals
# (taken before anything else it does) and a SIGINT now is read by its loop.
recording() {
	[ -d "$TRACEFS/instances/refault-record-$1" ]
}

# rec ARGS...: "$REFAULT" record ARGS in the foreground, for at most $record_timeout seconds (300
# unless set): past that it is killed (SIGTERM, SIGKILL 10 s later), stderr says so, and the status
# is 124 or 137, as timeout(1) gives.
record_timeout=${record_timeout:-300}
rec() {
	timeout -k 10 "$record_timeout" "$REFAULT" record "$@"
	rec_st=$?
	case $rec_st in
	124|137) echo "refault record $*: still running after $record_timeout s: killed" >&2;;
	esac
	return $rec_st
}
