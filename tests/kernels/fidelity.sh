#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The kernel lab's part of docs/fidelity.md: RUNS boots of each kernel configuration
# (check-kernels.sh's three), every case of the validation suite recorded once per boot and
# validated on its own, then one table per configuration (tests/validate/fidelity-table.py:
# the kernel's and the model's mean and %stddev per quantity, worst run, verdict) and the
# kernel x workload table, between the "fidelity:kernel-CONFIG" and "fidelity:kernels"
# markers of docs/fidelity.md.
#
#   cd BUILDDIR && RUNS=3 $SRCDIR/tests/kernels/fidelity.sh
#
# RUNS (default 3); KERNELS as check-kernels.sh; HOST=DIR adds a column for the host's own
# kernel from DIR (the CASE.N.json that `KEEP=1 WORKDIR=DIR tests/validate/fidelity.sh` left);
# WORKDIR (default BUILDDIR/tests/kernels/fidelity) keeps the traces and JSON; DOC=FILE
# writes there instead of the source tree's docs/fidelity.md; REFAULT_LAB_CACHE as the lab.
set -u
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
REFAULT=${REFAULT:-$PWD/refault}
VWORKLOAD=${VWORKLOAD:-$PWD/tests/validate/vworkload}
PYTHON3=${PYTHON3:-python3}
RUNS=${RUNS:-3}
KERNELS=${KERNELS:-"6.1-v1 6.1-v2 6.12-v2"}
work=${WORKDIR:-$PWD/tests/kernels/fidelity}
doc=${DOC:-$top_srcdir/docs/fidelity.md}
# shellcheck source=tests/validate/cases.sh disable=SC1091
. "$top_srcdir/tests/validate/cases.sh"
case $RUNS in
''|*[!0-9]*|0) echo "fidelity.sh: RUNS must be a positive number (got '$RUNS')" >&2; exit 1;;
esac
args_of() {
	case $1 in
	6.1-v1) echo "--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v1";;
	6.1-v2) echo "--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v2";;
	6.12-v2) echo "--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru 0";;
	6.1-v2-mglru) echo "--kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v2 --mglru 1";;
	6.12-v2-mglru) echo "--kernel-pkg linux-image-6.12.117+deb12-amd64 --cgroup v2 --mglru 1";;
	*) echo "fidelity.sh: unknown configuration '$1' (6.1-v1, 6.1-v2, 6.12-v2, 6.1-v2-mglru," \
		"6.12-v2-mglru)" >&2; exit 1;;
	esac
}
start=$SECONDS
for r in $(seq 1 "$RUNS"); do
	for k in $KERNELS; do
		d=$work/$k/run$r
		rm -rf "$d"
		mkdir -p "$d" || exit 1
		echo "fidelity.sh: run $r of $RUNS: $k ($((SECONDS - start)) s)" >&2
		# shellcheck disable=SC2046
		"$top_srcdir/tests/kernels/lab.sh" $(args_of "$k") --refault "$REFAULT" \
			--vworkload "$VWORKLOAD" --out "$d" > "$d/lab.log" 2>&1 ||
			echo "fidelity.sh: $k run $r: lab.sh failed ($d/lab.log)" >&2
		for c in $VCASES; do
			j=$work/$k/$c.$r.json
			if [ -s "$d/$c.rft" ]; then
				"$REFAULT" validate "$d/$c.rft" --slack 0 --json > "$j" 2> "$d/$c.verr"
				st=$?
				[ $st -eq 0 ] || [ $st -eq 3 ] ||
					printf '{"error": "refault validate exit %d"}\n' $st > "$j"
			else
				printf '{"error": "not recorded in the guest (%s)"}\n' "$k" > "$j"
			fi
			vcase_describe "$c" > "$work/$k/$c.desc"
		done
	done
done
echo "fidelity.sh: $RUNS runs of $KERNELS in $((SECONDS - start)) s" >&2
tree=$(git -C "$top_srcdir" rev-parse --short HEAD 2>/dev/null)
git -C "$top_srcdir" diff --quiet HEAD -- cli formats replayer recorder include 2>/dev/null ||
	tree="$tree + changes"
cmd="cd BUILDDIR && RUNS=$RUNS \$SRCDIR/tests/kernels/fidelity.sh"
configs=()
[ -z "${HOST:-}" ] || configs+=(--config "host $(uname -r | cut -d. -f1-2) v1=$HOST")
read -r -a cases <<< "$VCASES"
for k in $KERNELS; do
	"$PYTHON3" "$top_srcdir/tests/validate/fidelity-table.py" --doc "$doc" \
		--section "kernel-$k" --level 4 --tolerances "$top_srcdir/tests/validate/tolerances" \
		--command "$cmd" --date "$(date -u +%Y-%m-%d)" --tree "$tree" "$work/$k" "${cases[@]}" ||
		exit 1
	configs+=(--config "$k=$work/$k")
done
"$PYTHON3" "$top_srcdir/tests/validate/fidelity-table.py" --doc "$doc" --section kernels \
	--matrix --command "$cmd" --date "$(date -u +%Y-%m-%d)" --tree "$tree" "${configs[@]}" \
	"${cases[@]}" || exit 1
echo "fidelity.sh: wrote $doc" >&2
