#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Text a trace supplies never reaches the terminal raw: a crafted trace whose command, cgroup path,
# file name, comm, marker, stack frame and counter name hold ESC ] 0 ; ... BEL (retitles an xterm),
# the C1 CSI (U+009B), ill-formed UTF-8 and a backslash.  `trace info` and `trace dump` print them
# by lib/term.h's one rule (\x1b, \x07, \u009b, \xff, \\; dump's quotes add \"), their --json
# output is JSON a strict parser reads (the ill-formed bytes as U+FFFD), and convert's messages
# that quote its input escape it too.
. "$(dirname "$0")/trace-lib.sh"
plan 13
if ! have_python; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do skip "no python3"; done
	finish
fi

# The hostile text, and a trace that carries it everywhere a string goes.
"$PYTHON3" - "$DATA/small.jsonl" "$TMP/evil.jsonl" <<'EOF'
import sys
evil = b'A\x1b]0;pwned\x07B\xc2\x9b31mC\xff\xfeD\\E"F'
def js(b):
    return b'"' + b.replace(b'\\', b'\\\\').replace(b'"', b'\\"') + b'"'
hdr = open(sys.argv[1], 'rb').readline().rstrip(b'\n')
hdr = hdr.replace(b'"hand written"', js(b'run ' + evil))
hdr = hdr.replace(b'"hostname":"h"', b'"hostname":' + js(b'h' + evil))
hdr = hdr.replace(b'"params":""', b'"params":' + js(b'p=' + evil))
lines = [hdr,
    b'{"t":1000000000,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":7,"parent":1,"path":' + js(b'/job' + evil) + b'}',
    b'{"t":1000000100,"cpu":0,"pid":0,"type":"name_file","dev":8388609,"ino":12,"size":40960,"path":' + js(b'/data/' + evil) + b'}',
    b'{"t":1000000400,"cpu":1,"pid":200,"type":"exec","mm":8192,"comm":' + js(b'r' + evil) + b'}',
    b'{"t":1000001000,"cpu":1,"pid":200,"type":"file_read","dev":8388609,"ino":12,"index":0,"nr":4}',
    b'{"t":1000001100,"cpu":1,"pid":200,"type":"pagecache_add","dev":8388609,"ino":12,"index":0,"order":0,"pfn":1,"cgroup":7}',
    b'{"t":1000001200,"cpu":1,"pid":200,"type":"name_frame","id":1,"dso":' + js(b'/lib/' + evil) + b',"build_id":"ab","addr":4096,"symbol":' + js(b'f' + evil) + b',"file":' + js(b'x.c' + evil) + b',"line":3}',
    b'{"t":1000001300,"cpu":0,"pid":0,"type":"counters","source":1,"cgroup":7,"entries":{' + js(b'n' + evil) + b':5}}',
    b'{"t":3500000000,"cpu":0,"pid":0,"type":"marker","text":' + js(b'm' + evil) + b'}',
]
open(sys.argv[2], 'wb').write(b'\n'.join(lines) + b'\n')
EOF
rt convert "$TMP/evil.jsonl" "$TMP/evil.trace" 2> "$TMP/err"
ok $? "a JSON-lines file whose strings hold escapes, C1 and ill-formed bytes converts to a trace"

# clean FILE: exit 0 when FILE is well-formed UTF-8 with no control character but the newline and no
# C1 control; else say where the first offending byte is.
clean() {
	"$PYTHON3" - "$1" <<'EOF'
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
EOF
}
want='A\x1b]0;pwned\x07B\u009b31mC\xff\xfeD\\E'

rt info "$TMP/evil.trace" > "$TMP/info" 2>&1
clean "$TMP/info"
ok $? "trace info: nothing the trace supplies reaches the terminal raw"
grep -qF "command:      run $want\"F" "$TMP/info" && grep -qF "params:       p=$want\"F" "$TMP/info" &&
	grep -qF "host:         h$want\"F, Linux" "$TMP/info"
ok $? "... the command, the host and the params, escaped by lib/term.h's rule"
sed 's/^/# /' "$TMP/info" | grep -E '^# (command|host|params):'

rt dump "$TMP/evil.trace" > "$TMP/dump" 2>&1
clean "$TMP/dump"
ok $? "trace dump: nothing the trace supplies reaches the terminal raw"
grep -qF "path=\"/job$want\\\"F\"" "$TMP/dump" && grep -qF "path=\"/data/$want\\\"F\"" "$TMP/dump"
ok $? "... the cgroup path and the file name, the same rule inside dump's quotes (and \\\")"
grep -qF "comm=\"r$want\\\"F\" file=\"/data/$want\\\"F\"" "$TMP/dump" &&
	grep -qF "memcg=\"/job$want\\\"F\"" "$TMP/dump"
ok $? "... the names dump adds: comm=, file=, memcg="
grep -qF "symbol=\"f$want\\\"F\"" "$TMP/dump" && grep -qF "text=\"m$want\\\"F\"" "$TMP/dump"
ok $? "... a stack frame's symbol, a marker's text"
grep -qF "entries={n$want\"F=5}" "$TMP/dump"
ok $? "... a counter's name"
grep -E 'cgroup_mkdir|counters' "$TMP/dump" | sed 's/^/# /'

strict_json() {	# strict_json FILE: each line JSON, from bytes that are UTF-8
	"$PYTHON3" -c 'import json, sys
for line in open(sys.argv[1], "rb"):
    json.loads(line.decode("utf-8"))' "$1"
}
rt dump --json "$TMP/evil.trace" > "$TMP/dump.json" 2>&1
clean "$TMP/dump.json" && strict_json "$TMP/dump.json"
ok $? "trace dump --json: JSON a strict parser reads, nothing raw"
rt info --json "$TMP/evil.trace" > "$TMP/info.json" 2>&1
clean "$TMP/info.json" && "$PYTHON3" -c 'import json, sys
h = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))["header"]
sys.exit(h["recording"]["command"] != "run A\x1b]0;pwned\x07B\x9b31mC\ufffd\ufffdD\\E\"F")' "$TMP/info.json"
ok $? "trace info --json: JSON a strict parser reads; the ill-formed bytes are U+FFFD, the rest the same"

# convert's JSON lines keep the bytes: the trace they make again is the same
rt convert "$TMP/evil.trace" "$TMP/back.jsonl" 2> /dev/null &&
	rt convert "$TMP/back.jsonl" "$TMP/back.trace" 2> /dev/null &&
	rt dump "$TMP/back.trace" > "$TMP/back.dump" 2>&1 && cmp -s "$TMP/dump" "$TMP/back.dump"
ok $? "convert to JSON lines and back keeps every byte of the strings"

# messages that quote the input
printf '%s\n' '{"t":1,"cpu":0,"pid":0,"type":"no\u001b]0;pwned\u0007such"}' > "$TMP/badtype.jsonl"
rt convert "$TMP/badtype.jsonl" "$TMP/x.trace" > "$TMP/err" 2>&1
[ $? -eq 1 ] && clean "$TMP/err" && grep -qF 'unknown event type "no\x1b]0;pwned\x07such"' "$TMP/err"
ok $? "convert: an unknown event type in JSON lines is named escaped"
printf 'time,obj_id,size,op\n1,2,4096,\302\2332J\n' > "$TMP/badop.csv"
rt convert "$TMP/badop.csv" "$TMP/y.trace" > "$TMP/err" 2>&1
[ $? -eq 1 ] && clean "$TMP/err" && grep -qF "op '\\u009b2J' is not read or write" "$TMP/err"
ok $? "convert: a csv op that is neither read nor write is named escaped"
finish
