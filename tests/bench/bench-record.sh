#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Overhead of refault record against perf record with the same tracepoints (issue 5).
#
# The same workload (tests/record/workload-readtwice: cold+warm read of a file, read + mmap
# touch of a second one, anonymous memset + MADV_PAGEOUT) runs bare, under `refault record -a`,
# under `perf record -a -k mono -e <the same tracepoints>`, and under the "floor": the same
# tracepoints enabled in a private tracefs instance (same per-CPU buffer size, trace_clock mono)
# that nobody reads, which is the in-kernel cost every tracefs recorder pays.  Interleaved,
# ROUNDS times.
# The workload's own wall time is measured (recorder start-up and drain excluded).
# Prints the median of each, the overhead, events, bytes per event, and lost events.
#
# With REFAULT_BEFORE=OTHER/refault, that build runs too, in the same rounds, and the two
# recorders are compared (wall overhead, CPU and bytes per event, before -> after).
#
# usage: top_builddir=BUILD REFAULT=BUILD/refault sh tests/bench/bench-record.sh
# env:   ROUNDS (5)  READ_MB (256)  MMAP_MB (64)  ANON_MB (256)  BENCH_DIR (a dir on disk)
#        REFAULT_BEFORE (unset)  BUFFER_KB (8192: refault record's default --buffer-size)
#        WORKLOAD (readtwice; write: tests/validate/vworkload write, WRITE_MB (256) written
#        twice, fdatasync() after each MiB: the writeback tracepoint's records)
set -u
ROUNDS=${ROUNDS:-5}
READ_MB=${READ_MB:-256}
MMAP_MB=${MMAP_MB:-64}
ANON_MB=${ANON_MB:-256}
BUFFER_KB=${BUFFER_KB:-8192}
WRITE_MB=${WRITE_MB:-256}
case ${WORKLOAD:=readtwice} in
readtwice) work="${top_builddir:-.}/tests/record/workload-readtwice";;
write) work="${top_builddir:-.}/tests/validate/vworkload";;
*) echo "bench-record: WORKLOAD is readtwice or write"; exit 1;;
esac
[ "$(id -u)" -eq 0 ] || { echo "bench-record: needs root"; exit 0; }
[ -x "$work" ] || { echo "bench-record: build $work first (make check_PROGRAMS)"; exit 1; }
command -v perf > /dev/null || { echo "bench-record: no perf"; exit 0; }
dir=$(mktemp -d "${BENCH_DIR:-${top_builddir:-.}}/bench-record.XXXXXX")
tracefs=/sys/kernel/tracing
[ -d $tracefs/instances ] || tracefs=/sys/kernel/debug/tracing
floor_inst=$tracefs/instances/bench-record-floor-$$
trap 'rmdir "$floor_inst" 2> /dev/null; rm -rf "$dir"' EXIT
if [ "$WORKLOAD" = readtwice ]; then
	head -c ${READ_MB}M /dev/urandom > "$dir/rd.dat"
	head -c ${MMAP_MB}M /dev/urandom > "$dir/mm.dat"
fi
# the workload's command line, one word an argument (the paths are mktemp's: no blanks)
if [ "$WORKLOAD" = write ]; then
	wl_args="write $dir/w.dat $WRITE_MB 2"
else
	wl_args="$dir/rd.dat $dir/mm.dat $ANON_MB 1"
fi

# the tracepoints refault record enables by default, for perf
events=$("$REFAULT" record --list-events | awk '/^  / { printf "%s%s", sep, $2; sep = "," }')
# (kmem:mm_page_alloc with the recorder's own filter, recorder/recorder.c main_filter())
perf_events=$(echo "$events" | tr ',' '\n' | while read -r e; do
	perf list "$e" 2> /dev/null | grep -q "$e" || continue
	printf -- "-e %s " "$e"
	# one word: $perf_events is split at spaces
	[ "$e" = kmem:mm_page_alloc ] && printf -- "--filter order>0&&gfp_flags&8 "
done)

now_ns() { date +%s%N; }
py=
for cand in "${PYTHON3:-}" python3 /usr/bin/python3; do
	[ -n "$cand" ] && command -v "$cand" > /dev/null 2>&1 && { py=$cand; break; }
done
# started PID FILE: wait (at most 60 s) until FILE is written, or PID has its tracefs instance: a
# recorder writes its trace under a temporary name and renames it at the end, so the output's own
# name never shows before that.  Exits the bench, saying so, when neither comes.
started() {
	st_t=0
	while [ ! -s "$2" ] && [ ! -d "$tracefs/instances/refault-record-$1" ]; do
		if ! kill -0 "$1" 2> /dev/null || [ $st_t -ge 1200 ]; then
			echo "bench-record: $2 not started after 60 s (or the recorder exited): stderr:" >&2
			cat "$dir/r.err" "$dir/p.err" 2> /dev/null >&2
			kill -KILL "$1" 2> /dev/null
			exit 1
		fi
		sleep 0.05
		st_t=$((st_t + 1))
	done
}
# stopped PID: SIGINT, then wait for PID at most 120 s (a SIGKILL, and the bench ends, past that).
stopped() {
	kill -INT "$1"
	timeout 120 sh -c "while kill -0 $1 2> /dev/null; do sleep 0.05; done" ||
		{ kill -KILL "$1"; echo "bench-record: $1 still running 120 s after SIGINT" >&2; exit 1; }
	wait "$1"
}
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$1/stat"; }

# The workload's wall time in ms on stdout; its CPU time (user + system, in which the kernel's
# tracing cost shows) appended to $dir/$1.wcpu.  On a shared machine the wall time moves with
# the neighbours; CPU time much less.
timed_workload() {
	if [ -n "$py" ]; then
		"$py" -c 'import os, sys, time
t0 = time.monotonic_ns()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, st, ru = os.wait4(pid, 0)
sys.stdout.write("%d %d\n" % ((time.monotonic_ns() - t0) // 1000000, (ru.ru_utime + ru.ru_stime) * 1000))
sys.exit(0 if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0 else 1)' \
			"$work" $wl_args > "$dir/one" || echo "workload failed" >&2
		cut -d' ' -f2 "$dir/one" >> "$dir/$1.wcpu"
		cut -d' ' -f1 "$dir/one"
		return
	fi
	t0=$(now_ns)
	"$work" $wl_args || echo "workload failed" >&2
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000000))
}

run_bare() { timed_workload bare >> "$dir/bare.ms"; }

run_refault() {	# $1: the refault binary, $2: the label of its results
	rm -f "$dir/r.trace"
	"$1" record -a -o "$dir/r.trace" 2> "$dir/r.err" &
	pid=$!
	started $pid "$dir/r.trace"
	sleep 0.5
	c0=$(cpu_ms $pid)
	timed_workload "$2" >> "$dir/$2.ms"
	echo $(($(cpu_ms $pid) - c0)) >> "$dir/$2.cpu"
	stopped $pid
	# "... -> N events (...), L lost; ... (B bytes/event)"
	sed -n 's/.*tracepoint records -> \([0-9]*\) events.*, \([0-9]*\) lost;.*(\([0-9.]*\) bytes\/event).*/\1 \2 \3/p' \
		"$dir/r.err" >> "$dir/$2.stats"
	rec=$(sed -n 's/.*: \([0-9]*\) tracepoint records.*/\1/p' "$dir/r.err")
	echo "$rec $(stat -c %s "$dir/r.trace")" >> "$dir/$2.raw"
}

run_floor() {	# the tracepoints on, no reader: what the kernel pays to record them
	mkdir "$floor_inst" || { echo "bench-record: cannot create $floor_inst" >&2; exit 1; }
	echo 0 > "$floor_inst/tracing_on"
	echo mono > "$floor_inst/trace_clock"
	echo "$BUFFER_KB" > "$floor_inst/buffer_size_kb"
	echo "$events" | tr ',' '\n' | while read -r e; do
		f="$floor_inst/events/$(echo "$e" | tr ':' '/')"
		[ -e "$f/enable" ] || continue
		[ "$e" = kmem:mm_page_alloc ] && echo 'order > 0 && gfp_flags & 8' > "$f/filter"
		echo 1 > "$f/enable"
	done
	echo 1 > "$floor_inst/tracing_on"
	timed_workload floor >> "$dir/floor.ms"
	echo 0 > "$floor_inst/tracing_on"
	awk '/^overrun:|^entries:/ { s += $2 } END { print s + 0 }' "$floor_inst"/per_cpu/cpu*/stats \
		>> "$dir/floor.recs"
	rmdir "$floor_inst"
}

run_perf() {
	# shellcheck disable=SC2086
	perf record -q -a -k mono $perf_events -o "$dir/p.data" 2> "$dir/p.err" &
	pid=$!
	started $pid "$dir/p.data"
	sleep 0.5
	c0=$(cpu_ms $pid)
	timed_workload perf >> "$dir/perf.ms"
	echo $(($(cpu_ms $pid) - c0)) >> "$dir/perf.cpu"
	stopped $pid
	samples=$(perf report -i "$dir/p.data" --stats 2> /dev/null |
		awk '/SAMPLE events:/ { print $3; exit }')
	lost=$(perf report -i "$dir/p.data" --stats 2> /dev/null |
		awk '/LOST_SAMPLES events:|LOST events:/ { s += $3 } END { print s + 0 }')
	echo "${samples:-0} $lost $(stat -c %s "$dir/p.data")" >> "$dir/perf.stats"
}

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col_median() { awk -v c="$2" '{ print $c }' "$1" > "$dir/col"; median "$dir/col"; }

i=0
while [ $i -lt "$ROUNDS" ]; do
	run_bare
	run_floor
	[ -z "${REFAULT_BEFORE:-}" ] || run_refault "$REFAULT_BEFORE" before
	run_refault "$REFAULT" refault
	run_perf
	i=$((i + 1))
done

bare=$(median "$dir/bare.ms")
ref=$(median "$dir/refault.ms")
prf=$(median "$dir/perf.ms")
flr=$(median "$dir/floor.ms")
if [ "$WORKLOAD" = write ]; then
	what="write ${WRITE_MB}M x2 (fdatasync each MiB), read back"
else
	what="read ${READ_MB}M x2, mmap ${MMAP_MB}M, anon ${ANON_MB}M"
fi
echo "bench-record: workload $what; $ROUNDS interleaved rounds; $(nproc) CPUs"
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  times (ms):  bare $(tr '\n' ' ' < "$dir/bare.ms")| floor $(tr '\n' ' ' < "$dir/floor.ms")| refault $(tr '\n' ' ' < "$dir/refault.ms")| perf $(tr '\n' ' ' < "$dir/perf.ms")"
awk -v b="$bare" -v r="$ref" -v p="$prf" 'BEGIN {
	printf "  median wall: bare %d ms, refault record -a %d ms (%+.1f%%), perf record -a %d ms (%+.1f%%)\n",
		b, r, 100 * (r - b) / b, p, 100 * (p - b) / b
	if (p > b) printf "  refault overhead / perf overhead = %.2f (target <= 0.25)\n", (r - b) / (p - b) }'
awk -v b="$bare" -v f="$flr" -v r="$ref" -v p="$prf" 'BEGIN {
	printf "  floor (tracepoints on, no reader): %d ms (%+.1f%% over bare); above the floor: refault %+d ms, perf %+d ms\n",
		f, 100 * (f - b) / b, r - f, p - f
	if (p > b) printf "  the floor alone is %.2f of perf'\''s overhead: refault can reach at best that ratio\n", (f - b) / (p - b)
	if (p > f) printf "  refault / perf, above the floor = %.2f\n", (r - f) / (p - f) }'
echo "  floor: median $(median "$dir/floor.recs") records in the buffers (entries + overruns)"
if [ -s "$dir/bare.wcpu" ]; then
	# CPU cost of recording = the workload's extra CPU time (tracepoints, wake-ups, cache) + the recorder's
	echo "  workload CPU (ms): bare $(tr '\n' ' ' < "$dir/bare.wcpu")| floor $(tr '\n' ' ' < "$dir/floor.wcpu")| refault $(tr '\n' ' ' < "$dir/refault.wcpu")| perf $(tr '\n' ' ' < "$dir/perf.wcpu")"
	awk -v b="$(median "$dir/bare.wcpu")" -v f="$(median "$dir/floor.wcpu")" \
	    -v r="$(median "$dir/refault.wcpu")" -v p="$(median "$dir/perf.wcpu")" \
	    -v rc="$(median "$dir/refault.cpu")" -v pc="$(median "$dir/perf.cpu")" 'BEGIN {
		printf "  median workload CPU: bare %d ms, floor %+d, refault %+d, perf %+d\n", b, f - b, r - b, p - b
		printf "  CPU cost (workload extra + recorder): floor %d ms, refault %d ms, perf %d ms\n",
			f - b, r - b + rc, p - b + pc
		if (p - b + pc > 0) printf "  CPU cost refault / perf = %.2f; the floor alone is %.2f of perf'\''s\n",
			(r - b + rc) / (p - b + pc), (f - b) / (p - b + pc) }'
fi
echo "  recorder CPU time while the workload ran (ms): refault $(tr '\n' ' ' < "$dir/refault.cpu")| perf $(tr '\n' ' ' < "$dir/perf.cpu")"
echo "  median recorder CPU: refault $(median "$dir/refault.cpu") ms, perf $(median "$dir/perf.cpu") ms"
echo "  refault: median $(col_median "$dir/refault.stats" 1) events, $(col_median "$dir/refault.raw" 1) tracepoint records, $(col_median "$dir/refault.stats" 3) bytes/event, lost per run: $(awk '{ printf "%s ", $2 }' "$dir/refault.stats")"
awk '{ printf "%.2f\n", $2 / $1 }' "$dir/refault.raw" > "$dir/rb"
echo "  refault: $(median "$dir/rb") bytes per tracepoint record"
awk '{ printf "%.2f\n", $3 / ($1 ? $1 : 1) }' "$dir/perf.stats" > "$dir/pb"
echo "  perf:    median $(col_median "$dir/perf.stats" 1) samples, $(median "$dir/pb") bytes/sample, lost per run: $(awk '{ printf "%s ", $2 }' "$dir/perf.stats")"

[ -n "${REFAULT_BEFORE:-}" ] || exit 0
bef=$(median "$dir/before.ms")
awk '{ printf "%.2f\n", $2 / $1 }' "$dir/before.raw" > "$dir/bb"
echo "  before ($REFAULT_BEFORE): times (ms) $(tr '\n' ' ' < "$dir/before.ms")| CPU (ms) $(tr '\n' ' ' < "$dir/before.cpu")"
echo "  before: median $(col_median "$dir/before.stats" 1) events, $(col_median "$dir/before.stats" 3) bytes/event, $(median "$dir/bb") bytes per tracepoint record, lost per run: $(awk '{ printf "%s ", $2 }' "$dir/before.stats")"
awk -v b="$bare" -v o="$bef" -v n="$ref" -v p="$prf" -v oc="$(median "$dir/before.cpu")" \
    -v nc="$(median "$dir/refault.cpu")" -v ob="$(col_median "$dir/before.stats" 3)" \
    -v nb="$(col_median "$dir/refault.stats" 3)" 'BEGIN {
	printf "  before -> after: wall overhead %+.1f%% -> %+.1f%%", 100 * (o - b) / b, 100 * (n - b) / b
	if (p > b) printf " (of perf'\''s: %.2f -> %.2f)", (o - b) / (p - b), (n - b) / (p - b)
	printf "; recorder CPU %d -> %d ms (x%.2f); bytes/event %.2f -> %.2f (x%.2f)\n",
		oc, nc, oc ? nc / oc : 0, ob, nb, ob ? nb / ob : 0 }'
[ -s "$dir/before.wcpu" ] || exit 0
awk -v b="$(median "$dir/bare.wcpu")" -v o="$(median "$dir/before.wcpu")" -v n="$(median "$dir/refault.wcpu")" \
    -v oc="$(median "$dir/before.cpu")" -v nc="$(median "$dir/refault.cpu")" \
    -v p="$(median "$dir/perf.wcpu")" -v pc="$(median "$dir/perf.cpu")" 'BEGIN {
	printf "  before -> after: CPU cost (workload extra + recorder) %d -> %d ms", o - b + oc, n - b + nc
	if (p - b + pc > 0) printf " (of perf'\''s: %.2f -> %.2f)", (o - b + oc) / (p - b + pc), (n - b + nc) / (p - b + pc)
	printf "\n" }'
