#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make check-changes: docs/fidelity.md's "Changes" table, regenerated and gated.  Runs `refault
# lab run tests/changes/changes.spec` (four upstream commits reverted from Debian's 6.12 and five
# runtime settings, each against the base kernel, on six workloads, three runs a side, the base
# booted twice more for the noise) in a folder with the spec's files, then changes-table.py: a
# TAP line per model change where the kernel moved a counter beyond its noise; a disagreement
# not in tests/changes/known.txt fails.
#
#   make check-changes [REFAULT_LAB_CACHE=DIR] [CHANGES_OUT=DIR] [CHANGES_SIDES="base mglru"]
#       [CHANGES_WORKLOADS="read mrand"] [CHANGES_REUSE=1: boot only for the sides whose
#       traces the last run did not leave, replay them all again, remake the table]
#
# CHANGES_SIDES and CHANGES_WORKLOADS keep the spec's sides and workloads named (the first side
# must be the base); the table is in CHANGES_OUT/changes.md (default tests/changes/out/ of the
# build tree), and with CHANGES_DOC=FILE also between FILE's changes markers
# (docs/fidelity.md, "Changes").  Skipped without qemu,
# busybox-static or the kernel build's tools, pahole among them (install-deps.sh --lab).
set -u
: "${top_srcdir:?}" "${top_builddir:?}" "${REFAULT:?}" "${VWORKLOAD:?}"
PYTHON3=${PYTHON3:-python3}
here=$top_srcdir/tests/changes
out=${CHANGES_OUT:-$top_builddir/tests/changes/out}
export REFAULT_LAB_CACHE=${REFAULT_LAB_CACHE:-$HOME/.cache/refault-lab}

echo "TAP version 13"
for t in qemu-system-x86_64 cpio mke2fs debugfs make gcc bc bison flex patch pahole; do
	command -v $t > /dev/null 2>&1 ||
		{ echo "1..0 # SKIP no $t: install-deps.sh --lab installs it"; exit 0; }
done
[ -x /bin/busybox ] || { echo "1..0 # SKIP no /bin/busybox: install-deps.sh --lab"; exit 0; }

mkdir -p "$out" || { echo "Bail out! cannot create $out"; exit 1; }
out=$(cd "$out" && pwd)
# the spec's folder: its patches, profiles and the lab's BTF fragment, a 64 MiB file of random
# bytes (made once into the cache), and the spec with the sides asked for
work=$out/work
mkdir -p "$work" || exit 1
cp "$here"/*.patch "$here"/*.profile "$top_srcdir/lab/btf.config" "$work/" || exit 1
f64=$REFAULT_LAB_CACHE/changes-files/f64
if [ ! -s "$f64" ]; then
	mkdir -p "${f64%/*}" && head -c 64M /dev/urandom > "$f64.tmp" && mv "$f64.tmp" "$f64" ||
		{ echo "Bail out! cannot make $f64"; exit 1; }
fi
ln -sf "$f64" "$work/f64"
awk -v keep=" ${CHANGES_SIDES:-} " -v wkeep=" ${CHANGES_WORKLOADS:-} " '
	($1 == "side" || $1 == "profile") && keep != "  " && index(keep, " " $2 " ") == 0 { next }
	$1 == "workload" && wkeep != "  " && index(wkeep, " " $2 " ") == 0 { next }
	{ print }' "$here/changes.spec" > "$work/changes.spec"

start=$(date +%s)
(cd "$work" && PATH=$(dirname "$VWORKLOAD"):$PATH \
	"$REFAULT" lab run changes.spec -o "$out" ${CHANGES_REUSE:+--reuse}) > "$out/run.log" 2>&1
st=$?
echo "# refault lab run${CHANGES_REUSE:+ --reuse}: exit $st in $(( $(date +%s) - start )) s" \
	"(its output: $out/run.log)"
if [ $st -ne 0 ]; then
	tail -20 "$out/run.log" | sed 's/^/# /'
	echo "Bail out! refault lab run failed"
	exit 1
fi
"$PYTHON3" "$here/changes-table.py" "$work/changes.spec" "$out" "$here/known.txt" \
	--markdown "$out/changes.md" > "$out/changes.tap"
st=$?
n=$(grep -c '^\(not \)\{0,1\}ok ' "$out/changes.tap")
echo "1..$n"
cat "$out/changes.tap"
echo "# the table: $out/changes.md"
# CHANGES_DOC=docs/fidelity.md: the table put between its markers, with how it was made
if [ -n "${CHANGES_DOC:-}" ]; then
	rev=$(git -C "$top_srcdir" rev-parse --short HEAD 2> /dev/null) || rev='?'
	how='make check-changes'
	[ -z "${CHANGES_SIDES:-}" ] || how="$how CHANGES_SIDES=\"$CHANGES_SIDES\""
	[ -z "${CHANGES_WORKLOADS:-}" ] || how="$how CHANGES_WORKLOADS=\"$CHANGES_WORKLOADS\""
	{
		echo "$(date -u +%Y-%m-%d); refault at $rev; \`$how\`."
		echo
		cat "$out/changes.md"
	} > "$out/changes.doc"
	awk -v table="$out/changes.doc" '
		/<!-- changes:begin/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
		/<!-- changes:end/ { skip = 0 }
		!skip { print }' "$CHANGES_DOC" > "$CHANGES_DOC.tmp" && mv "$CHANGES_DOC.tmp" "$CHANGES_DOC" &&
		echo "# the table written into $CHANGES_DOC"
fi
exit $st
