#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault report: names that come after the first decision they name (the recorder names a file
# read with read() when it next finds it among the reader's fds, after its first pages were
# added; a task by name_pid after its first reads), in every view, for the kernel and a model,
# in the table, the heatmap's title, the JSON and the HTML; a (dev, ino) used again after the
# trace shows its file deleted is another file; and every text a file supplies reaches the
# terminal through lib/term.h's one escaping rule.
. "$top_srcdir/tests/report/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report-names.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$top_srcdir/tests/report/data
"$REFAULT" trace convert "$d/late-names.jsonl" "$tmp/late.rft" 2> /dev/null

# --- tests/report/data/late-names.jsonl: pid 100 adds and reads pages 0-3 of inode 7; only then
# come its name_pid (reader), the file's name_file (/data/late), its cgroup's cgroup_mkdir
# (jobs/late), a second name of the file (/data/link: a hard link); exec renames the task
# (renamed); a truncate drops the file's last link, and inode 7 is used again by another file
# (pages 0-1) named after its reads (/data/new).  Inode 9, never named: a page added, evicted,
# its file deleted (the kernel drops the shadow), its inode used again: no refault.
for by in file pid comm cgroup; do
	"$REFAULT" report "$tmp/late.rft" -p kernel,v6.18 --by $by --sort misses --json > "$tmp/$by.json"
done
check "by file: the file named after its first decisions has its name, for the kernel and the model" \
	'[ "$(row "$tmp/file.json" /data/late kernel) / $(row "$tmp/file.json" /data/late v6.18)" = "0 4 0 0 / 0 4 0 0" ] && ! grep -q "ino 7" "$tmp/file.json"'
check "by file: a second name of the same file (a link) does not rename it: the first name given wins" \
	'[ "$(row "$tmp/file.json" /data/link kernel)" = none ]'
check "by file: the inode used again after its file was deleted is another file, named by its own name" \
	'[ "$(row "$tmp/file.json" /data/new kernel) / $(row "$tmp/file.json" /data/new v6.18)" = "0 2 0 0 / 0 2 0 0" ]'
check "by file: an unnamed inode used again is a row of its own (#2), and the deleted file's shadow is no refault" \
	'[ "$(row "$tmp/file.json" "[dev 8:1 ino 9]" kernel) / $(row "$tmp/file.json" "[dev 8:1 ino 9 #2]" kernel)" = "0 1 1 0 / 0 1 0 0" ]'
check "by pid: the task named after its first reads has its name, kernel and model" \
	'[ "$(row "$tmp/pid.json" 100:reader kernel) / $(row "$tmp/pid.json" 100:reader v6.18)" = "0 8 1 0 / 0 8 0 0" ]'
check "by comm: the reads before the task's name_pid are its command's, those after its exec the new one's" \
	'[ "$(row "$tmp/comm.json" reader kernel) / $(row "$tmp/comm.json" renamed kernel) / $(row "$tmp/comm.json" "[unnamed]" kernel)" = "0 4 0 0 / 0 4 1 0 / none" ]'
check "by cgroup: the cgroup made known after its first charges has its path" \
	'[ "$(row "$tmp/cgroup.json" /jobs/late kernel)" = "0 8 1 0" ] && ! grep -q "\[cgroup 5\]" "$tmp/cgroup.json"'
"$REFAULT" report "$tmp/late.rft" -p kernel,v6.18 --sort misses --heatmap --heatmap-size 8x4 \
	--html "$tmp/late.html" > "$tmp/late.txt"
"$REFAULT" report "$tmp/late.rft" -p kernel,v6.18 --sort misses --heatmap --json > "$tmp/hm.json"
check "the heatmap's title, in the table, the JSON and the HTML: the late name" \
	'grep -qx "# heatmap of /data/late" "$tmp/late.txt" && [ "$(jget "$tmp/hm.json" "j[\"heatmap\"][\"key\"]")" = /data/late ] && grep -q "<h2>Heatmap of /data/late</h2>" "$tmp/late.html"'
check "the heatmap of the late-named file has its 4 misses in each source, the new file's 2 not among them" \
	'[ "$(jget "$tmp/hm.json" "[sum(map(sum, j[\"heatmap\"][\"cells\"][s])) for s in j[\"sources\"]]")" = "[4, 4]" ]'
check "the HTML table names the rows as the terminal's does" \
	'grep -q "<td class=\"key\">/data/late</td>" "$tmp/late.html" && grep -q "<td class=\"key\">/data/new</td>" "$tmp/late.html" && grep -q "  /data/late$" "$tmp/late.txt"'

# --- a file's text on a terminal: lib/term.h's rule (\xNN, \u00NN, \\) for the keys (a file's
# path, a command, a cgroup's path), the heatmap's title and the trace's own path
{
	head -1 "$d/decisions.jsonl"
	printf '%s\n' '{"t":1,"cpu":0,"pid":0,"type":"cgroup_mkdir","id":5,"parent":1,"path":"jobs/\u001b]0;cg\u0007"}' \
		'{"t":2,"cpu":0,"pid":100,"type":"name_pid","target":100,"tgid":100,"mm":4096,"cgroup":5,"comm":"r\u001b[2J\u009b\\"}' \
		'{"t":3,"cpu":0,"pid":100,"type":"name_file","dev":8388609,"ino":7,"size":4096,"path":"/data/\u001b]0;pwned\u0007\u009b\\x\tz"}' \
		'{"t":4,"cpu":0,"pid":100,"type":"pagecache_add","dev":8388609,"ino":7,"index":0,"order":0,"pfn":1,"cgroup":5}' \
		'{"t":5,"cpu":0,"pid":100,"type":"file_read","dev":8388609,"ino":7,"index":0,"nr":1}'
} > "$tmp/esc.jsonl"
esc=$(printf '\033')
"$REFAULT" trace convert "$tmp/esc.jsonl" "$tmp/e${esc}]0;t.rft" 2> /dev/null
for by in file comm cgroup pid; do
	"$REFAULT" report "$tmp/e${esc}]0;t.rft" --by $by --sort misses > "$tmp/esc-$by.txt" 2>&1
done
"$REFAULT" report "$tmp/e${esc}]0;t.rft" --sort misses --heatmap >> "$tmp/esc-file.txt" 2>&1
"$REFAULT" report "$tmp/no${esc}such.rft" > /dev/null 2>> "$tmp/esc-file.txt"
check "a file's path: ESC, BEL, a C1 control, a tab and a backslash escaped, in the tables and the heatmap's title" \
	'[ $(grep -cF "/data/\\x1b]0;pwned\\x07\\u009b\\\\x\\x09z" "$tmp/esc-file.txt") -eq 3 ] && grep -qF "# heatmap of /data/\\x1b]0;pwned" "$tmp/esc-file.txt"'
check "a command, in the comm and pid views; a cgroup's path" \
	'grep -qF "  r\\x1b[2J\\u009b\\\\" "$tmp/esc-comm.txt" && grep -qF "  100:r\\x1b[2J\\u009b\\\\" "$tmp/esc-pid.txt" && grep -qF "  /jobs/\\x1b]0;cg\\x07" "$tmp/esc-cgroup.txt"'
check "the trace's path in the header and in an error" \
	'grep -qF "# refault report of $tmp/e\\x1b]0;t.rft: by file" "$tmp/esc-file.txt" && grep -qF "$tmp/no\\x1bsuch.rft" "$tmp/esc-file.txt"'
check "not one raw ESC, BEL or C1 byte on the terminal from any view" \
	'! cat "$tmp"/esc-*.txt | LC_ALL=C grep -q "$(printf "[\033\007]")" && ! cat "$tmp"/esc-*.txt | LC_ALL=C grep -q "$(printf "\302\233")"'
done_testing
