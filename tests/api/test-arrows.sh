#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The arrows of the house point down (docs/architecture.md, "Who owns which step"): a folder's
# sources include only its own headers and those of the folders below it, as the table below
# says; no library and no fuzz target includes or links a cli/ file.  An include of the installed
# headers counts as an arrow to the folder that implements them (refault/model.h is the model's).
# Fails, naming the file, the line and the arrow, when one points up or sideways.
. "$top_srcdir/tests/lib/tap.sh"
cd "$top_srcdir" || exit 1

# FOLDER: the folders it may include from (besides itself and lib/, which all may use).
uses() {
	case $1 in
	lib) echo "";;
	formats) echo "formats";;
	formats/tools) echo "formats";;
	recorder) echo "formats";;
	recorder/gen) echo "formats";;
	replayer/model) echo "formats";;
	replayer/refpolicy) echo "formats";;
	replayer/observe) echo "formats";;
	replayer/replay) echo "formats replayer/model replayer/refpolicy replayer/observe";;
	replayer/validate) echo "formats replayer/model replayer/refpolicy replayer/observe replayer/replay";;
	compare) echo "formats";;
	report) echo "formats replayer/model replayer/refpolicy replayer/observe replayer/replay compare";;
	sweep) echo "formats replayer/model replayer/refpolicy replayer/observe replayer/replay compare";;
	workload) echo "";;
	cli|cli/trace) echo "any";;
	*) echo "?";;
	esac
}
# the folder an include names: refault/X.h is its implementer's
owner() {
	case $1 in
	refault/model.h) echo replayer/model;;
	refault/refpolicy.h) echo replayer/refpolicy;;
	refault/api.h|refault/errors.h|refault/errors.def) echo lib;;
	refault/*) echo formats;;
	*/*) dirname "$1" | sed 's|^\(replayer/[a-z]*\|formats/tools\|recorder/gen\|cli/trace\).*|\1|';;
	*) echo .;;
	esac
}

bad=$(mktemp "${TMPDIR:-/tmp}/arrows.XXXXXX") || exit 1
trap 'rm -f "$bad"' EXIT
for f in $(find lib formats recorder replayer compare report sweep workload cli -name '*.[ch]' | sort); do
	dir=$(dirname "$f")
	case $dir in
	replayer/*) dir=$(echo "$dir" | cut -d/ -f1-2);;
	esac
	allowed=$(uses "$dir")
	grep -n '^#include ["<]' "$f" | sed 's/^\([0-9]*\):#include [<"]\([^">]*\)[">].*/\1 \2/' |
	while read -r line inc; do
		case $inc in
		*/*) ;;
		*) continue;;	# a system header, or a file beside it
		esac
		case $inc in
		refault/*|lib/*|formats/*|recorder/*|replayer/*|compare/*|report/*|sweep/*|workload/*|cli/*) ;;
		*) continue;;	# json-c/json.h, tracefs/..., zstd...
		esac
		to=$(owner "$inc")
		[ "$to" = "$dir" ] || [ "$to" = lib ] || [ "$to" = . ] && continue
		ok=0
		for a in $allowed; do
			[ "$a" = any ] || [ "$a" = "$to" ] && ok=1
		done
		[ $ok -eq 1 ] || echo "$f:$line: $dir -> $to ($inc)" >> "$bad"
	done
done
check "every include points down the table (docs/architecture.md)" '[ ! -s "$bad" ]'
[ -s "$bad" ] && sed 's/^/# /' "$bad"

# no library's sources and no fuzz target list a cli/ file
: > "$bad"
for mk in lib/local.mk formats/local.mk formats/tools/local.mk recorder/local.mk recorder/gen/local.mk \
	replayer/*/local.mk compare/local.mk report/local.mk sweep/local.mk workload/local.mk \
	tests/fuzz/local.mk; do
	[ -f "$mk" ] || continue
	grep -n 'cli/[a-z_/-]*\.c' "$mk" | sed "s|^|$mk:|" >> "$bad"
done
check "no library and no fuzz target links a cli/ file" '[ ! -s "$bad" ]'
[ -s "$bad" ] && sed 's/^/# /' "$bad"
done_testing
