#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault sweep against hostile names and files (issue 38, items 1, 5a, 5b): paths that hold shell
# text ($(...), backquotes, ;, &, quotes, spaces, a leading -, {} and {#} for GNU parallel, % for
# Slurm, glob characters) go through every engine -- the Slurm script's elements, the emitted command
# list under GNU parallel and under sh, the "run it:" hint as printed, `sweep run` by GNU parallel and
# by processes -- and nothing runs but the intended command, with exactly the intended arguments
# (a fake refault logs them, then runs the real one). Paths no script can hold (a newline) and a plan
# written by hand are refused with the path named; each task's log header, #SBATCH directive and
# comment reads back as written; a results file cut short is not done; a NUL in a matrix line is an
# error naming the file and line; what status prints of a name goes through lib/term.h.
: "${REFAULT:?}" "${top_srcdir:?}" "${PYTHON3:=python3}"
. "$top_srcdir/tests/lib/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/refault-sweep-hostile.XXXXXX") || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$T"' EXIT	# KEEP=1: keep it to look at
T=$(cd "$T" && pwd -P) || exit 1
mkdir "$T/work" && cd "$T/work" || exit 1
R() { timeout 120 "$REFAULT" "$@"; }
pwned() { [ -z "$(find "$T" -name 'pwned*' -print)" ]; }
have_parallel=false
parallel --version 2> /dev/null | grep -q '^GNU parallel' && have_parallel=true

# A directory whose name is shell text, GNU parallel's replacement strings and Slurm's patterns; the
# spec, the plan, the trace, the store and the program (a fake refault) all in it.
D="$T/"'-d $(touch pwned1) `touch pwned2`; touch pwned3 & '"'q'"' "dq" {} {#} {= system("touch pwned0") =} %A %% * ? ~ | < >'
mkdir -- "$D" || exit 1
TRACE="$D/-t \$(touch pwned4) $(printf '\233') 'y'.rft"	# a leading -, and 0x9b: an 8-bit CSI
cp "$top_srcdir/traces/validate-hot.rft" "$TRACE"
printf 'traces w -t*.rft\nmatrix v6.18 memory=64M|1G\ngroup 1\n' > "$D/s.spec"
PLAN="$D/-p \$(touch pwned5) 'x'.json"
FAKE="$D/fake refault \$(touch pwned6)"
cat > "$FAKE" <<EOF
#!/bin/sh
f=\$(mktemp '$T/args/call.XXXXXX')	# a file a call: the engines run tasks at once
{ echo "CALL \$#"; for a in "\$@"; do printf 'ARG %s\n' "\$a"; done; } > "\$f"
exec '$REFAULT' "\$@"
EOF
chmod +x "$FAKE"
mkdir "$T/args"
STORE="$D/sweep-store"

rc=0
R sweep plan "$D/s.spec" -o "$PLAN" > plan.out 2> plan.err || rc=$?
check "plan: a spec in a directory of shell and glob text, its trace by a glob" \
	"[ $rc -eq 0 ] && grep -q ': 2 tasks: 1 workload, 1 trace' plan.out && pwned"
# the plan's program: the fake, which logs its arguments and runs the real refault
$PYTHON3 - "$PLAN" "$FAKE" <<'EOF'
import json, sys
kw = dict(encoding="utf-8", errors="surrogateescape")
p = json.load(open(sys.argv[1], **kw))
p["refault"] = sys.argv[2]
json.dump(p, open(sys.argv[1], "w", **kw), ensure_ascii=False, indent=1)
EOF

# every call of the fake: "sweep task PLAN I" (the engines) or the task's replay, exactly
# (argument for argument); $1: the engines' calls expected, or - when the engines run the real one
args_ok() {
	$PYTHON3 - "$T/args" "$PLAN" "$TRACE" "$STORE" "$1" <<'EOF'
import os, sys
log, plan, trace, store, want = [a.encode("utf-8", "surrogateescape") for a in sys.argv[1:]]
calls = []
for name in os.listdir(log):
    for line in open(os.path.join(log, name), "rb").read().split(b"\n")[:-1]:
        if line.startswith(b"CALL "):
            calls.append((int(line[5:]), []))
        else:
            assert line.startswith(b"ARG "), line
            calls[-1][1].append(line[4:])
tasks, replays = [], []
for n, a in calls:
    assert n == len(a), (n, a)
    (tasks if a[:2] == [b"sweep", b"task"] else replays).append(a)
if want != b"-":
    assert sorted(tasks) == [[b"sweep", b"task", plan, i] for i in want.split(b",")], tasks
assert len(replays) == 2, replays
for a in replays:
    id = a[3][len(store) + 1:-len(b".matrix")]
    assert a == [b"replay", trace, b"--matrix", store + b"/" + id + b".matrix",
                 b"-o", store + b"/" + id + b".json", b"--quiet", b"--threads", b"1"], a
EOF
}
clean() { rm -f "$T"/args/* "$STORE"/*.json "$STORE"/*.status "$STORE"/*.log "$STORE"/*.joblog; }
done_ok() { R sweep status "$PLAN" > /dev/null 2>&1; }

# 1. Slurm: the script, its directives as sbatch reads them, its elements run as Slurm would
R sweep emit "$PLAN" --slurm -o "$D/job \$(touch pwned7).sh" > /dev/null 2> emit.err
JOB="$D/job \$(touch pwned7).sh"
check "emit --slurm: one command (exec) after comments and directives only; sh -n" \
	"[ \$(grep -vc '^#' \"\$JOB\") -eq 1 ] && [ \"\$(tail -n 1 \"\$JOB\" | cut -c1-5)\" = 'exec ' ] && sh -n \"\$JOB\""
$PYTHON3 - "$JOB" "$STORE" <<'EOF' > sbatch.out 2>&1
# sbatch's own reading of an #SBATCH line (src/sbatch/opt.c, _get_argument()): a backslash takes
# the next byte as it is, quotes group, blanks split, '#' ends; then Slurm's file name patterns
import re, sys
job = open(sys.argv[1], "rb").read().split(b"\n")
store = sys.argv[2].encode("utf-8", "surrogateescape")
def words(s):
    out, i = [], 0
    while True:
        while i < len(s) and s[i:i+1].isspace():
            i += 1
        if i >= len(s):
            return out
        w, q, esc = b"", None, False
        while i < len(s) and (q or not s[i:i+1].isspace()):
            c = s[i:i+1]
            i += 1
            if esc:
                esc = False
            elif c == b"\\":
                esc = True
                continue
            elif q:
                if c == q:
                    q = None
                    continue
            elif c in (b'"', b"'"):
                q = c
                continue
            elif c == b"#":
                return out + ([w] if w else [])
            w += c
        assert not q, "an unmatched quote"
        out.append(w)
directives = []
for line in job:
    if not line.startswith(b"#"):
        break
    if line.startswith(b"#SBATCH"):
        assert b"hetjob" not in line.lower() and b"packjob" not in line.lower()
        directives += words(line[7:])
outs = [d[len(b"--output="):] for d in directives if d.startswith(b"--output=")]
assert len(outs) == 1, directives
name = re.sub(rb"%(.)", lambda m: {b"A": b"JOB", b"a": b"7", b"%": b"%"}[m.group(1)], outs[0])
assert name == store + b"/slurm-JOB_7.out", (name, store)
print("ok")
EOF
check "emit --slurm: --output, as sbatch reads it, is the store's slurm-%A_%a.out ('%' as %%)" \
	"grep -qx ok sbatch.out"
clean
( SLURM_ARRAY_TASK_ID=0 sh "$JOB"; SLURM_ARRAY_TASK_ID=1 sh "$JOB" ) > slurm.out 2>&1
check "the Slurm script's elements: nothing runs but 'sweep task PLAN I', exactly, then the replays" \
	"pwned && done_ok && args_ok 0,1"

# 2. GNU parallel's command list, under parallel and under sh; the hint as printed, run
CMDS="$D/cmds \$(touch pwned8)"
clean
R sweep emit "$PLAN" --parallel -o "$CMDS" > /dev/null 2> hint.err
check "emit --parallel: one line a task" "[ \$(wc -l < \"\$CMDS\") -eq 2 ] && pwned"
sh "$CMDS" > sh.out 2>&1
check "the command list under sh: the intended commands and arguments only" \
	"pwned && done_ok && args_ok 0,1"
hint=$(sed -n 's/^run it:  //p' hint.err)
# as a shell reads it (its "< LIST" then stdin of `set`)
check "the 'run it:' hint's words are the joblog in the store and the list, quoted" \
	"(eval \"set -- \$hint\" && [ \"\$1 \$2 \$3 \$4 \$5\" = \"parallel --joblog \$STORE/parallel.joblog -j N\" ] && [ \$# -eq 5 ]) && pwned"
if $have_parallel; then
	clean
	R sweep emit "$PLAN" --parallel -o "$CMDS" > /dev/null 2>&1
	timeout 120 parallel --will-cite < "$CMDS" > par.out 2>&1
	check "the command list under GNU parallel: the intended commands and arguments only" \
		"pwned && done_ok && args_ok 0,1"
	clean
	R sweep emit "$PLAN" --parallel -o "$CMDS" > /dev/null 2>&1
	timeout 120 sh -c "$(printf '%s' "$hint" | sed 's/-j N/-j 1/')" > hint.out 2>&1
	check "the 'run it:' hint, run as printed: parallel, its joblog in the store, nothing else" \
		"pwned && done_ok && args_ok 0,1 && [ \$(grep -c . \"\$STORE/parallel.joblog\") -eq 3 ]"
	clean
	rc=0
	R sweep run "$PLAN" --engine parallel -j 2 > run.out 2>&1 || rc=$?
	check "sweep run by GNU parallel: every task done, nothing else run" \
		"[ $rc -eq 0 ] && grep -q '2 ran, 0 failed.* by GNU parallel' run.out && pwned && args_ok -"
else
	skip_test "GNU parallel is not installed (Debian: parallel)"
	skip_test "GNU parallel is not installed"
	skip_test "GNU parallel is not installed"
fi
clean
rc=0
R sweep run "$PLAN" --engine processes -j 2 > run.out 2>&1 || rc=$?
check "sweep run by processes: every task done, nothing else run" \
	"[ $rc -eq 0 ] && grep -q '2 ran, 0 failed' run.out && pwned && args_ok -"

# a task's log header: its command, word for word as a shell reads it
LOG=$(ls "$STORE"/*.log | head -n 1)
hdr=$(sed -n '1s/^# task [0-9a-f]* ([0-9]* of 2): //p' "$LOG")
check "a task's log header is its replay command, each word quoted: copied, it runs what ran" \
	"(eval \"set -- \$hdr\" && [ \"\$1\" = \"\$FAKE\" ] && [ \"\$2\" = replay ] && [ \"\$3\" = \"\$TRACE\" ] && [ \$# -eq 10 ]) && pwned"

# 5b. a results file cut short is not done, says why, and runs again
ID0=$($PYTHON3 -c 'import json,sys; print(json.load(open(sys.argv[1], encoding="utf-8", errors="surrogateescape"))["tasks"][0]["id"])' "$PLAN")
size=$(wc -c < "$STORE/$ID0.json")
head -c $((size / 2)) "$STORE/$ID0.json" > cut.json && cat cut.json > "$STORE/$ID0.json"
rc=0
LC_ALL=C R sweep status "$PLAN" > status.out 2>&1 || rc=$?
check "status: a results file cut short is failed, not done (exit 1), and says why" \
	"[ $rc -eq 1 ] && grep -q '^2 tasks: 1 done, 1 failed, 0 missing\$' status.out && grep -q '^task 0 .*: failed: its results are not whole or not its own: .*$ID0.json: not JSON: it ends inside a value' status.out"
check "status: the trace's name as lib/term.h shows it (0x9b escaped, never raw)" \
	"grep -q 'x9b' status.out && ! LC_ALL=C grep -q \"\$(printf '\\233')\" status.out"
echo '{"format": "refault-results", "trace": {"fingerprint": "0"}, "configs": []}' > "$STORE/$ID0.json"
rc=0
R sweep status "$PLAN" > status2.out 2>&1 || rc=$?
check "status: results that parse but are another trace's are failed" \
	"[ $rc -eq 1 ] && grep -q 'failed: .*results of another trace' status2.out"
rc=0
R sweep run "$PLAN" --engine processes > rerun.out 2>&1 || rc=$?
rc2=0
R sweep merge "$PLAN" -o "$D/m.json" > merge.out 2>&1 || rc2=$?
check "run again: only that task runs; the merge is complete" \
	"[ $rc -eq 0 ] && grep -q '^2 tasks: 1 ran, 0 failed, 1 done before' rerun.out && [ $rc2 -eq 0 ] && pwned"

# 1. paths no script can hold: refused at plan time (the issue's reproducer: were the plan written,
# its Slurm script and command list run here would run what its name holds), and in a plan written
# by hand
NL="$T/work/$(printf 'p6\ntouch pwned9\n.json')"
rc=0
R sweep plan "$D/s.spec" -o "$NL" > /dev/null 2> nl.err || rc=$?
if [ -e "$NL" ]; then
	R sweep emit "$NL" --slurm -o nl.sh > /dev/null 2>&1 && SLURM_ARRAY_TASK_ID=0 sh nl.sh > /dev/null 2>&1
	R sweep emit "$NL" --parallel -o nl.cmds > /dev/null 2>&1 && sh nl.cmds > /dev/null 2>&1
fi
check "plan -o PATH with a newline: exit 1, the path named (escaped), no plan, nothing runs" \
	"[ $rc -eq 1 ] && grep -q 'p6.x0atouch pwned9.x0a.json. holds a control character' nl.err && [ ! -e \"\$NL\" ] && pwned"
hand() {	# $1: python statement on the plan p; then emit --slurm of it
	$PYTHON3 - "$PLAN" "$T/work/hand.json" "$1" <<'EOF'
import json, sys
kw = dict(encoding="utf-8", errors="surrogateescape")
p = json.load(open(sys.argv[1], **kw))
exec(sys.argv[3])
json.dump(p, open(sys.argv[2], "w", **kw), ensure_ascii=False)
EOF
	rm -f hand.sh
	rc=0
	R sweep emit hand.json --slurm -o hand.sh > /dev/null 2> hand.err || rc=$?
	[ $rc -eq 1 ] && [ ! -e hand.sh ] && pwned
}
check "a hand-made plan whose store holds a newline: emit refuses (exit 1), names it, writes nothing" \
	"hand 'p[\"store\"] += \"\\ntouch pwned10\\n\"' && grep -q \"its store .*.x0atouch pwned10.x0a' holds a control character\" hand.err"
check "... whose trace holds a newline: refused" \
	"hand 'p[\"tasks\"][0][\"trace\"] = \"/x\\ntouch pwned11\"' && grep -q \"task 0's trace\" hand.err"
check "... whose program is not an absolute path (-x): refused" \
	"hand 'p[\"refault\"] = \"-x\"' && grep -q 'its program (refault) .-x. is not an absolute path' hand.err"
check "... whose program's path holds ESC: refused, and the message shows it escaped" \
	"hand 'p[\"refault\"] = \"/bin/\\x1b]0;pwned\\x07\"' && grep -q 'x1b' hand.err && ! grep -q \"\$(printf '\\033')\" hand.err"
check "... whose replay options are not a spec's (-o FILE): refused" \
	"hand 'p[\"replay_options\"] = [\"-o\", \"/tmp/x\"]' && grep -q 'replay_options.0. .-o. is not one a sweep passes' hand.err"
check "... whose store holds 'HetJob' (sbatch's separator of job components): refused" \
	"hand 'p[\"store\"] += \"/HetJob\"' && grep -q \"holds 'hetjob' or 'packjob'\" hand.err"

# a spec in a directory whose name is glob text: its patterns are the spec's, not its directory's
mkdir 'g[x]*?' && cp "$top_srcdir/traces/validate-hot.rft" 'g[x]*?/t.rft'
printf 'traces w t*.rft\nmatrix v6.18\n' > 'g[x]*?/s.spec'
check "a spec in a directory named 'g[x]*?': its glob finds its trace" \
	"R sweep plan 'g[x]*?/s.spec' -o 'g[x]*?/p.json' > /dev/null 2>&1"

# 5a. a NUL in a matrix line: an error naming the file and line, not a line cut short
cp "$top_srcdir/traces/validate-hot.rft" hot.rft
printf 'traces w hot.rft\nmatrix v6.18|v6.1\000|lru memory=64M\n' > nul.spec
rc=0
R sweep plan nul.spec -o nul.json > /dev/null 2> nul.err || rc=$?
check "a spec's matrix line with a NUL: exit 1, SPEC:LINE: and the byte, no plan" \
	"[ $rc -eq 1 ] && grep -q '^refault sweep: nul.spec:2: a NUL byte at byte 17 of the line' nul.err && [ ! -e nul.json ]"
printf 'traces w hot.rft\nmatrix v6.18 memory=64M\rmemory=1G\n' > cr.spec
rc=0
R sweep plan cr.spec -o cr.json > /dev/null 2> cr.err || rc=$?
check "a spec's matrix line with a carriage return inside: exit 1, SPEC:LINE:, not cut there" \
	"[ $rc -eq 1 ] && grep -q '^refault sweep: cr.spec:2: a control character (0x0d)' cr.err"
printf 'traces w hot.rft\r\nmatrix v6.18 memory=64M\r\n' > crlf.spec
check "a spec with CRLF line ends still plans" "R sweep plan crlf.spec -o crlf.json > /dev/null 2>&1"
printf 'v6.18|v6.1\000|lru memory=64M\n' > nul.matrix
rc=0
R replay hot.rft --matrix nul.matrix -o nul-r.json -q > /dev/null 2> nulm.err || rc=$?
check "replay --matrix FILE with a NUL in a line: exit 1, FILE:LINE: and the byte" \
	"[ $rc -ne 0 ] && grep -q 'nul.matrix:1: a NUL byte at byte 10 of the line' nulm.err && [ ! -e nul-r.json ]"
done_testing
