#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# refault lab build's source and patches (lab/refault-lab), on a stand-in kernel tree (a
# Makefile, Kconfig and mm/, whose make fails): the user's tree is never written; the lab's copy
# has exactly the patches asked for, in order (those of the build before reverted); a patch that
# does not apply is an error naming it and its hunk, and leaves the copy as it was.  No kernel is
# built: make check-lab builds a real one.
. "$top_srcdir/tests/lib/tap.sh"
for t in patch make sha256sum flock; do
	command -v $t > /dev/null 2>&1 || { skip_all "no $t"; exit 0; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/labpatch.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir -p src/mm
printf 'tinyconfig:\n\t@echo "no kernel here" >&2; exit 1\nmrproper:\n\t@true\n' > src/Makefile
echo 'config MMU' > src/Kconfig
printf 'int a = 1;\nint b = 2;\nint c = 3;\n' > src/mm/vmscan.c
cp -r src orig
mkdir new && cp src/mm/vmscan.c new/ && sed -i 's/b = 2/b = 20/' new/vmscan.c
(cd orig && diff -u mm/vmscan.c ../new/vmscan.c | sed '1s|.*|--- a/mm/vmscan.c|; 2s|.*|+++ b/mm/vmscan.c|') > b20.patch
cp new/vmscan.c new2.c && sed -i 's/c = 3/c = 30/' new2.c
(diff -u new/vmscan.c new2.c | sed '1s|.*|--- a/mm/vmscan.c|; 2s|.*|+++ b/mm/vmscan.c|') > c30.patch
sed 's/int a = 1;/int a = 7;/; s/b = 2;/b = 9;/' b20.patch > bad.patch

build() { "$REFAULT" lab build src --cache "$tmp/cache" "$@" > out 2> err; st=$?; }
copy() { cat "$tmp"/cache/src/tree-*/tree/mm/vmscan.c | tr '\n' ' '; }
build --patch bad.patch
sed 's/^/# /' err
check "a patch that does not apply: exit 1, named, with its hunk" \
	'[ $st -eq 1 ] && grep -q "bad.patch does not apply" err && grep -q "Hunk #1 FAILED" err'
check "... the user's tree untouched" 'diff -r src orig > /dev/null'
check "... the lab's copy without it" '[ "$(copy)" = "int a = 1; int b = 2; int c = 3; " ]'
build --patch b20.patch --patch c30.patch
sed 's/^/# /' err
check "two patches applied in order, then the build fails and names its log (exit $st)" \
	'[ $st -eq 1 ] && [ "$(copy)" = "int a = 1; int b = 20; int c = 30; " ] && grep -q "log" err'
check "... the user's tree untouched" 'diff -r src orig > /dev/null'
build --patch b20.patch
check "the next build with one of them: the other reverted" \
	'[ "$(copy)" = "int a = 1; int b = 20; int c = 3; " ]'
build
check "without patches: the copy is the tree again" '[ "$(copy)" = "int a = 1; int b = 2; int c = 3; " ]'
build --patch b20.patch --patch bad.patch
check "a good patch then a bad one: exit 1, the copy left without either" \
	'[ $st -eq 1 ] && grep -q "bad.patch does not apply" err && [ "$(copy)" = "int a = 1; int b = 2; int c = 3; " ]'
"$REFAULT" lab build "$tmp/nothere.tar.xz" --cache "$tmp/cache" > out 2> err
st=$?
check "a source that is not there: exit 1, named" '[ $st -eq 1 ] && grep -q "nothere.tar.xz" err'
mkdir notkernel
"$REFAULT" lab build notkernel --cache "$tmp/cache" > out 2> err
st=$?
check "a folder that is no kernel tree: exit 1, said" '[ $st -eq 1 ] && grep -q "not a kernel source tree" err'
done_testing
