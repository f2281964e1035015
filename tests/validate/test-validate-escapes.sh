#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# validate (and replay's summary) print the trace's names (a cgroup's path, a marker's text, the
# kernel's release) by
# lib/term.h's one rule: a crafted trace whose cgroup path and marker hold ESC ] 0 ; ... BEL (which
# retitles an xterm), the C1 CSI (U+009B), ill-formed UTF-8 and a backslash reaches the terminal
# escaped (\x1b, \x07, \u009b, \xff, \\), never raw; its --json stays JSON a strict parser reads.
. "$top_srcdir/tests/lib/tap.sh"
command -v python3 > /dev/null || { skip_all "no python3"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/validate-escapes.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

python3 - "$top_srcdir/tests/cli/data/small.jsonl" "$tmp/evil.jsonl" <<'PY'
import sys
evil = b'A\x1b]0;pwned\x07B\xc2\x9b31mC\xff\xfeD\\E'
def js(b):
    return b'"' + b.replace(b'\\', b'\\\\').replace(b'"', b'\\"') + b'"'
hdr = open(sys.argv[1], 'rb').readline().rstrip(b'\n')
hdr = hdr.replace(b'"kernel_release":"6.1"', b'"kernel_release":' + js(b'6.1' + evil))
hdr = hdr.replace(b'"params":""', b'"params":"","cgroup":' + js(b'/job' + evil))
lines = [hdr,
    b'{"t":1000000000,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":7,"parent":1,"path":' + js(b'/job' + evil) + b'}',
    b'{"t":1000000400,"cpu":1,"pid":200,"type":"exec","mm":8192,"comm":"r"}',
    b'{"t":1000001000,"cpu":1,"pid":200,"type":"file_read","dev":8388609,"ino":12,"index":0,"nr":4}',
    b'{"t":1000001100,"cpu":1,"pid":200,"type":"pagecache_add","dev":8388609,"ino":12,"index":0,"order":0,"pfn":1,"cgroup":7}',
    b'{"t":1000001300,"cpu":0,"pid":0,"type":"counters","source":1,"cgroup":7,"entries":{"workingset_refault_file":5}}',
    b'{"t":2000000000,"cpu":0,"pid":0,"type":"marker","text":' + js(b'm' + evil) + b'}',
    b'{"t":3000000000,"cpu":0,"pid":0,"type":"counters","source":1,"cgroup":7,"entries":{"workingset_refault_file":999}}',
]
open(sys.argv[2], 'wb').write(b'\n'.join(lines) + b'\n')
PY
"$REFAULT" trace convert "$tmp/evil.jsonl" "$tmp/evil.rft" > /dev/null 2>&1
check "a crafted trace with hostile names converts" '[ -s "$tmp/evil.rft" ]'

# clean FILE: well-formed UTF-8 with no control character but the newline and no C1 control
clean() {
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
try:
    s = b.decode('utf-8')
except UnicodeDecodeError as e:
    print('# ill-formed UTF-8 at byte %d: %r' % (e.start, b[max(0, e.start - 8):e.start + 8]))
    sys.exit(1)
for i, c in enumerate(s):
    if (ord(c) < 0x20 and c != '\n') or 0x7f <= ord(c) <= 0x9f:
        print('# control U+%04X at character %d: %r' % (ord(c), i, s[max(0, i - 8):i + 8]))
        sys.exit(1)
PY
}
want='A\x1b]0;pwned\x07B\u009b31mC\xff\xfeD\\E'

"$REFAULT" validate "$tmp/evil.rft" > "$tmp/out" 2>&1
st=$?
check "validate ends with its verdict (exit $st: 0 or 3)" '[ $st -eq 0 ] || [ $st -eq 3 ]'
check "nothing raw reaches the terminal: no control, no C1, no ill-formed byte" 'clean "$tmp/out"'
check "the cgroup's path is shown escaped by lib/term.h's rule" \
	'grep -qF "/job$want" "$tmp/out"'
check "the marker's text too (the quantity out of tolerance diverges after it)" \
	'grep -qF "after marker \"m$want\"" "$tmp/out"'
check "the kernel's release too" 'grep -qF "kernel:    6.1$want," "$tmp/out"'
"$REFAULT" replay "$tmp/evil.rft" -p v6.18 -o "$tmp/r.json" > "$tmp/out" 2>&1
check "replay's summary names the recorded cgroup escaped, nothing raw" \
	'clean "$tmp/out" && grep -qF "recorded cgroup /job$want " "$tmp/out"'
"$REFAULT" validate "$tmp/evil.rft" --json > "$tmp/json" 2> /dev/null
check "--json is JSON a strict parser reads" \
	'python3 -c "import json,sys; json.loads(open(sys.argv[1],\"rb\").read().decode(\"utf-8\"))" "$tmp/json"'
done_testing
