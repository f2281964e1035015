#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Recorded traces' size (issue 18; docs/performance.md, "Recorded traces"): records the nine
# workloads of the validation suite (tests/validate/cases.sh) as the suite does, then prints per
# workload its events and bytes per event in format 3.0 as recorded (zstd level 3, record's
# default), what the same events take as format 2.6 (`trace convert --format-version 2`) and at
# zstd levels 1 and 19 (`trace convert -z`), and the target, at most 1 byte an event.
#
# usage: REFAULT=BUILD/refault top_builddir=BUILD sh tests/bench/bench-trace-size.sh
#        env: VCASES_ONLY="case ..." for a subset; KEEP=DIR keeps the traces there
set -u
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=${top_builddir:-.}
. "$top_srcdir/tests/validate/cases.sh"
wl=$top_builddir/tests/validate/vworkload
dir=${KEEP:-$(mktemp -d "${TMPDIR:-/var/tmp}/bench-trace-size.XXXXXX")}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'vswap_off; rm -rf "$dir"' EXIT
why=$(vcannot_run "$dir")
[ -z "$why" ] || { echo "bench-trace-size: skipped: $why"; exit 0; }
[ -x "$wl" ] || { echo "bench-trace-size: skipped: no $wl (make check builds it)"; exit 0; }
vmake_files "$dir" || exit 1
printf '%-12s %10s %12s %10s %12s %10s %8s %8s\n' workload events "3.0 bytes" "bytes/ev" "2.6 bytes" \
	"bytes/ev" "-z 1" "-z 19"
tot_ev=0 tot_b=0 tot_b26=0 tot_z1=0 tot_z19=0
for c in $VCASES; do
	if ! vrecord "$c" "$dir" "$wl"; then
		echo "$c: the recording failed: $(tail -1 "$dir/$c.err")"
		continue
	fi
	"$REFAULT" trace convert "$dir/$c.rft" "$dir/$c-2.6.rft" --format-version 2 2>/dev/null || exit 1
	"$REFAULT" trace convert -z 1 "$dir/$c.rft" "$dir/$c-z1.rft" 2>/dev/null || exit 1
	"$REFAULT" trace convert -z 19 "$dir/$c.rft" "$dir/$c-z19.rft" 2>/dev/null || exit 1
	ev=$("$REFAULT" trace info "$dir/$c.rft" | awk '$1 == "events:" { print $2; exit }')
	b=$(stat -c %s "$dir/$c.rft")
	b26=$(stat -c %s "$dir/$c-2.6.rft")
	z1=$(stat -c %s "$dir/$c-z1.rft")
	z19=$(stat -c %s "$dir/$c-z19.rft")
	awk -v c="$c" -v e="$ev" -v b="$b" -v b26="$b26" -v z1="$z1" -v z19="$z19" 'BEGIN {
		printf "%-12s %10d %12d %10.3f %12d %10.3f %8.3f %8.3f\n", c, e, b, b / e, b26, b26 / e,
			z1 / e, z19 / e }'
	tot_ev=$((tot_ev + ev)) tot_b=$((tot_b + b)) tot_b26=$((tot_b26 + b26))
	tot_z1=$((tot_z1 + z1)) tot_z19=$((tot_z19 + z19))
done
[ "$tot_ev" -gt 0 ] || exit 1
awk -v e="$tot_ev" -v b="$tot_b" -v b26="$tot_b26" -v z1="$tot_z1" -v z19="$tot_z19" 'BEGIN {
	printf "%-12s %10d %12d %10.3f %12d %10.3f %8.3f %8.3f\n", "all", e, b, b / e, b26, b26 / e,
		z1 / e, z19 / e
	printf "target (issue 18): recorded traces <= 1 byte/event: %.3f over all; 3.0 is %.2f of 2.6\n",
		b / e, b / b26 }'
