#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Text a results file supplies, on a terminal: configuration and metric names, series and workload
# names, the trace's path and fingerprint hold an OSC that retitles the terminal (ESC ] 0 ; ... BEL),
# CSI colours, a C1 CSI, bytes that are not UTF-8, a backslash, a comma, a quote and a newline.
# Every way compare prints them (the table, --all, the decisions, plots, gate messages, warnings,
# errors, a sweep's workload lines) escapes them as lib/term.h does, and the columns keep their
# widths; --csv gives RFC 4180 fields that read back as the names; --json is strict JSON.
. "$top_srcdir/tests/compare/lib.sh"
echo "1..13"
cd "$T" || exit 1
$PYTHON3 - <<'EOF' || exit 1
import json
# JSON escapes give json-c the control bytes; @FF@, @FE@ and @C1@ become raw bytes after dumping
OSC = "\u001b]0;pwned\u0007"
names = ["vmstat.a\u001b[31mred", "g.b@FF@@C1@[2J", 'c.d,"e"\nf', "h.i\\j", "cost.estimated_ns"]
def stats(k):
    return {n: (i + 1) * k for i, n in enumerate(names)}
def ts(k):
    return {"interval_ns": 1000, "t": [0, 1000, 2000],
            "series": {"vmstat.nr_active_file" + OSC: [1 * k, 2 * k, 3 * k]}}
c1 = {"name": "v4.5,memory=64M" + OSC, "profile": "v4.5", "stats": stats(1), "timeseries": ts(1)}
c2 = {"name": 'v4.6,memory=1G "q",@FF@@FE@', "profile": "v4.6", "stats": stats(3),
      "timeseries": ts(2)}
doc = {"format": "refault-results", "version": [1, 0],
       "trace": {"path": "traces/" + OSC + ".rft", "fingerprint": "ab\u001b[2Jcd",
                 "events_skipped": 3, "lost_events": 5},
       "configs": [c1, c2]}
def raw(d):
    s = json.dumps(d).encode()
    return s.replace(b"@FF@", b"\xff").replace(b"@FE@", b"\xfe").replace(b"@C1@", b"\xc2\x9b")
open("esc.json", "wb").write(raw(doc))
run = {"format": "refault-results", "version": [1, 0],
       "trace": {"path": "t.rft", "fingerprint": "00aa"},
       "configs": [{"name": "v4.5", "stats": stats(1)}]}
sweep = {"format": "refault-sweep", "version": [1, 0], "tasks": {"done": 4},
         "configs": [{"name": w + "/" + c, "workload": w, "config": c, "runs": [run]}
                     for w in ("w1" + OSC, "w2@FF@") for c in ("v4.5", "v4.6")]}
open("sweep.json", "wb").write(raw(sweep))
# the names as a reader of the CSV gets them (ill-formed bytes as lone surrogates)
json.dump(sorted(n.replace("@FF@", "\udcff").replace("@C1@", "\u009b") for n in names),
          open("names.json", "w"))
EOF

# no ESC, BEL, other control (but the newline), C1 control or ill-formed byte in the files
clean() {
	$PYTHON3 - "$@" <<'EOF'
import sys
bad = 0
for f in sys.argv[1:]:
    b = open(f, "rb").read()
    try:
        t = b.decode("utf-8")
    except UnicodeDecodeError as e:
        print("# %s: not UTF-8 at byte %d" % (f, e.start)); bad = 1; continue
    for ch in t:
        if (ord(ch) < 0x20 and ch != "\n") or 0x7f <= ord(ch) <= 0x9f:
            print("# %s: control U+%04X" % (f, ord(ch))); bad = 1; break
sys.exit(bad)
EOF
}
# has FILE TEXT...: every TEXT is in FILE, as it is
has() {
	f=$1
	shift
	for s in "$@"; do
		grep -qF -- "$s" "$f" || { echo "# not in $f: $s"; return 1; }
	done
}
osc='\x1b]0;pwned\x07'
v45="v4.5,memory=64M$osc"
v46='v4.6,memory=1G "q",\xff\xfe'

run esc.json
check "the table: exit 0, nothing a terminal acts on, the names escaped ($rc)" \
	eval '[ $rc -eq 0 ] && clean out err && has out "  $v45 (esc.json:$v45, 1 run)" "vmstat.a\\x1b[31mred"'
check "... the column titles keep their widths: 16 and 27 columns of the escaped text" \
	grep -qxF -- "v4.5,memory=64M\\ $v46 " out
check "... the decisions and the cost lines" \
	has out "decisions: $v46 vs $v45: differ" "estimated kernel cost (cost.estimated_ns): $v45 5,"
run esc.json --all
all1='g.b\xff\u009b[2J'
all2='h.i\\j'
all3='c.d,"e"\x0af'
all4="traces/$osc.rft/ab\\x1b[2Jcd"
check "--all: every name escaped, the trace's path and fingerprint too" \
	eval '[ $rc -eq 0 ] && clean out err && has out "$all1" "$all2" "$all3" "$all4"'
check "... the warnings of lost and skipped events name the side escaped" \
	has err "WARNING: esc.json:$v45: the kernel lost 5 records" "esc.json:$v46: 3 events"
run esc.json --fail-if 'cost.estimated_ns > +5%' --plot cost.estimated_ns
check "a gate's message and a plot's legend: escaped" \
	eval '[ $rc -eq 3 ] && clean out err && has err "cost.estimated_ns in $v46 is 15 against 5 in $v45" &&
	      has out "[+] $v45 sample (base)"'
run esc.json --plot estimated_ns --over memory
tick="64M$osc"
line2='[O] v4.6,\xff\xfe'
check "a plot against a setting: its values and lines escaped" \
	eval '[ $rc -eq 0 ] && clean out err && has out "$tick" "1G \"q\"" "[+] v4.5 (base)" "$line2"'
run esc.json --plot "$(printf 'vmstat.nr_active_file\033]0;pwned\007')" --over time
check "a plot over time: the series' name escaped (exit $rc)" \
	eval '[ $rc -eq 0 ] && clean out err && has out "[O] $v46"'
run esc.json:nosuch esc.json:v4.5
check "an unknown configuration: the ones there are, escaped" \
	eval '[ $rc -eq 1 ] && clean out err && has err "(it has: $v45, "'
run esc.json --plot nosuch --over time
check "an unknown series: the ones there are, escaped" \
	eval '[ $rc -eq 1 ] && clean out err && has err "it has: vmstat.nr_active_file$osc"'
run sweep.json
w2='== workload w2\xff =='
check "a sweep's workloads: each table's line escaped" \
	eval '[ $rc -eq 0 ] && clean out err && has out "== workload w1$osc ==" "$w2"'
run esc.json --csv --all
$PYTHON3 - <<'EOF' > csv.check 2>&1
import csv, io, json
text = open("out", "rb").read().decode("utf-8", "surrogateescape")
rows = list(csv.reader(io.StringIO(text, newline="")))
head, names = rows[0], json.load(open("names.json"))
ok = all(len(r) == len(head) == 1 + 3 + 5 for r in rows) and \
     sorted(r[0] for r in rows[1:]) == names and \
     head[1] == "v4.5,memory=64M\u001b]0;pwned\u0007:mean" and \
     head[4] == 'v4.6,memory=1G "q",\udcff\udcfe:change'
print("ok" if ok else "# bad: %r %r" % (head, [r[0] for r in rows[1:]]))
EOF
check "--csv: RFC 4180 fields (the labels' commas and quotes, a name's newline) that read back as given" \
	grep -qx ok csv.check
run esc.json --json --all
$PYTHON3 - <<'EOF' > json.check 2>&1
import json
d = json.loads(open("out", "rb").read().decode("utf-8"))
labels = [c["label"] for c in d["columns"]]
ok = labels == ["v4.5,memory=64M\u001b]0;pwned\u0007", 'v4.6,memory=1G "q",\ufffd\ufffd'] and \
     any(r["metric"] == 'c.d,"e"\nf' for r in d["rows"])
print("ok" if ok else "# bad: %r" % labels)
EOF
check "--json: strict JSON, controls as JSON escapes, ill-formed bytes as U+FFFD" grep -qx ok json.check
cat csv.check json.check | grep '^#'
exit 0
