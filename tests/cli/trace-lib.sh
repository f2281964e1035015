# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the tests/cli/test-trace-*.sh TAP scripts: TAP output, a scratch
# directory, and the traces the tests start from.
: "${REFAULT:=${top_builddir:-.}/refault}"
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${PYTHON3:=python3}"
DATA="$top_srcdir/tests/cli/data"
T_NR=0
T_FAILED=0

plan() { echo "1..$1"; }
ok() {	# ok COND-EXIT-STATUS DESCRIPTION
	T_NR=$((T_NR + 1))
	if [ "$1" -eq 0 ]; then echo "ok $T_NR - $2"; else echo "not ok $T_NR - $2"; T_FAILED=1; fi
}
is() {	# is GOT WANT DESCRIPTION
	T_NR=$((T_NR + 1))
	if [ "$1" = "$2" ]; then echo "ok $T_NR - $3"
	else echo "not ok $T_NR - $3"; echo "#   got: '$1'"; echo "#  want: '$2'"; T_FAILED=1; fi
}
skip() { T_NR=$((T_NR + 1)); echo "ok $T_NR # SKIP $1"; }
diag() { echo "# $*"; }
have_python() { "$PYTHON3" -c 'import json, struct' 2>/dev/null; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/refault-trace-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# In a build tree $REFAULT is libtool's wrapper script, which costs more than the command
# itself; these tests run it a few hundred times, so run the real binary beside it.
RT_BIN=$REFAULT
rt_dir=$(dirname "$REFAULT")
if [ -x "$rt_dir/.libs/refault" ] && [ "$(head -c 2 "$REFAULT")" = "#!" ] &&
   LD_LIBRARY_PATH="$rt_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
   "$rt_dir/.libs/refault" --version > /dev/null 2>&1; then
	RT_BIN=$rt_dir/.libs/refault
	LD_LIBRARY_PATH="$rt_dir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
fi
rt() { "$RT_BIN" trace "$@"; }

# big.trace: 1010 events in chunks of 100 (11 chunks): a file_read every 1 ms from t=1.001 s,
# alternately by pids 300 and 200, and an mmap by pid 300 every 100 events.
# (awk: %.0f, because mawk clamps %d to 32 bits)
make_big() {
	head -n 1 "$DATA/small.jsonl" > "$TMP/big.jsonl"
	awk 'BEGIN {
		t = 1000000000
		for (i = 0; i < 1000; i++) {
			t += 1000000; pid = i % 2 ? 200 : 300
			if (i % 100 == 0)
				printf "{\"t\":%.0f,\"cpu\":0,\"pid\":%d,\"type\":\"mmap\",\"mm\":8192,\"addr\":%.0f,\"len\":4096,\"prot\":3,\"flags\":34,\"dev\":0,\"ino\":0,\"pgoff\":0}\n", t, pid, 139637976727552 + i * 4096
			printf "{\"t\":%.0f,\"cpu\":%d,\"pid\":%d,\"type\":\"file_read\",\"dev\":8388609,\"ino\":12,\"index\":%d,\"nr\":1}\n", t, i % 2, pid, i % 50
		}
	}' >> "$TMP/big.jsonl"
	rt convert "$TMP/big.jsonl" "$TMP/big.trace" --chunk-events 100 2>/dev/null
}

make_small() {
	rt convert "$DATA/small.jsonl" "$TMP/small.trace" 2>/dev/null
}

# Field N of `info --json` as text, via python (callers check have_python).
info_field() {
	rt info --json "$1" | "$PYTHON3" -c 'import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[k]
print(v)' "$2"
}

# chunk_field TRACE N COLUMN: offset, size, events of chunk N, from `info --chunks`.
chunk_field() {
	rt info --chunks "$1" | awk -v n="$2" -v col="$3" '
		/^chunk list:/ { on = 1; next }
		on && $1 == n { print col == "offset" ? $2 : col == "size" ? $3 : $7; exit }'
}

finish() { exit $T_FAILED; }
