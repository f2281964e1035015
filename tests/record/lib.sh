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
