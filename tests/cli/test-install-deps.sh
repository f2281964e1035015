#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# install-deps.sh when another apt holds apt's locks: it waits (apt-get -o DPkg::Lock::Timeout for
# dpkg's lock, and tries again while apt-get update cannot lock its lists, which apt 2.6 does not
# wait for), up to APT_LOCK_TIMEOUT, then says what to do; any other failure is not retried.
# apt-get and id are stand-ins on PATH that play another apt's lock, so nothing is installed.
. "$(dirname "$0")/trace-lib.sh"
plan 6
mkdir "$TMP/bin"
cat > "$TMP/bin/apt-get" <<'EOS'
#!/bin/sh
# A stand-in for apt-get: logs its arguments; the first $LOCKED calls fail as apt does on a lock.
n=$(($(cat "$STATE" 2> /dev/null || echo 0) + 1))
echo $n > "$STATE"
echo "$*" >> "$LOG"
if [ "$n" -le "${LOCKED:-0}" ]; then
	echo "Reading package lists..."
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
	echo "E: Unable to lock directory /var/lib/apt/lists/" >&2
	exit 100
fi
if [ -n "${BROKEN:-}" ]; then
	echo "E: Unable to locate package nosuch" >&2
	exit 100
fi
exit 0
EOS
printf '#!/bin/sh\necho 0\n' > "$TMP/bin/id"
chmod +x "$TMP/bin/apt-get" "$TMP/bin/id"
deps() {	# deps ENV...: install-deps.sh with the stand-ins, bounded
	env PATH="$TMP/bin:$PATH" STATE="$TMP/state" LOG="$TMP/log" "$@" \
		timeout 120 sh "$top_srcdir/install-deps.sh" > "$TMP/out" 2>&1
}

rm -f "$TMP/state" "$TMP/log"
deps LOCKED=1 APT_LOCK_TIMEOUT=60
st=$?
sed 's/^/# /' "$TMP/out"
[ $st -eq 0 ] && [ "$(cat "$TMP/state")" -eq 3 ]
ok $? "apt-get update's lists locked once: it waits and tries again, then installs (exit $st, $(cat "$TMP/state") apt-get runs; it exited 100)"
grep -q "another apt holds its lock (Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)); waiting for it, up to 60 s" "$TMP/out"
ok $? "... and says whose lock it waits for, and how long it will"
[ "$(grep -c '^-o DPkg::Lock::Timeout=60 update -q$' "$TMP/log")" -eq 2 ] &&
	grep -q '^-o DPkg::Lock::Timeout=60 install -y -q --no-install-recommends build-essential' "$TMP/log"
ok $? "apt-get is asked to wait for dpkg's lock too (-o DPkg::Lock::Timeout), in update and install"

rm -f "$TMP/state" "$TMP/log"
deps LOCKED=1000 APT_LOCK_TIMEOUT=3
st=$?
sed 's/^/# /' "$TMP/out"
[ $st -eq 100 ] && grep -q "apt's lock was still held after [0-9]* s (APT_LOCK_TIMEOUT=3): let the other apt finish" "$TMP/out" &&
	[ "$(cat "$TMP/state")" -eq 2 ]
ok $? "a lock never let go: past APT_LOCK_TIMEOUT it gives up with apt's status and says what to do (exit $st)"

rm -f "$TMP/state" "$TMP/log"
deps BROKEN=1 APT_LOCK_TIMEOUT=60
st=$?
[ $st -eq 100 ] && [ "$(cat "$TMP/state")" -eq 1 ] && grep -q "Unable to locate package" "$TMP/out"
ok $? "another failure is apt's own error, at once, not retried (exit $st)"

deps APT_LOCK_TIMEOUT=soon
st=$?
[ $st -eq 2 ] && grep -q "APT_LOCK_TIMEOUT must be a number of seconds" "$TMP/out"
ok $? "APT_LOCK_TIMEOUT that is not a number: a usage error"
finish
