#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Anonymous transparent huge pages: a fault the kernel serves with a 2 MiB folio is an
# anon_fault of order 9 and its lru_add of order 9 (kmem:mm_page_alloc inside the fault,
# recorder/normalize.c), as many as the process's AnonHugePages says it got; the same memory
# without MADV_HUGEPAGE is faulted page by page at order 0.
. "$top_srcdir/tests/record/lib.sh"
record_begin
thp=/sys/kernel/mm/transparent_hugepage
mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp/enabled" 2> /dev/null)
pmd=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$thp/hugepages-2048kB/enabled" 2> /dev/null)
# the PMD size's own mode (v6.8+: mTHP) is 'inherit' or absent where the global one rules
case ${pmd:-inherit} in inherit) pmd=$mode;; esac
case $pmd in
always|madvise) ;;
*) skip_all "transparent huge pages are '${pmd:-absent}' here: no 2 MiB anonymous folio";;
esac
[ "$(getconf PAGESIZE)" -eq 4096 ] || skip_all "a 2 MiB folio is of order 9 with 4 KiB pages only"
wl="$top_builddir/tests/validate/vworkload"
echo "1..5"

# order N TYPE PATH: how many TYPE events of PATH are of order N
order() {
	"$REFAULT" trace dump --no-names "$3" |
		awk -v t="$2" -v o="order=$1" '$4 == t { for (i = 5; i <= NF; i++) if ($i == o) k++ }
			END { print k + 0 }'
}

rec -q -o "$dir/thp.rft" -- "$wl" thp 16 1 > "$dir/out" 2> "$dir/err"
st=$?
sed 's/^/# /' "$dir/err" "$dir/out"
huge=$(awk '{ print int($2 / 2048) }' "$dir/out")
[ $st -eq 0 ] && [ "${huge:-0}" -gt 0 ]
tap $? "the workload got transparent huge pages (exit $st, ${huge:-no} of 8 2 MiB folios)"
got=$(order 9 anon_fault "$dir/thp.rft")
[ "$got" -eq "${huge:-0}" ]
tap $? "each is an anon_fault of order 9 ($got recorded, the kernel's AnonHugePages ${huge:-?})"
got=$(order 9 lru_add "$dir/thp.rft")
[ "$got" -eq "${huge:-0}" ]
tap $? "and an lru_add of order 9 ($got of ${huge:-?})"
grep -q "large anonymous folios" "$dir/err"
tap $((! $?)) "no large folio came after its fault was written"

rec -q -o "$dir/anon.rft" -- "$wl" anon 16 1 > /dev/null 2> "$dir/err"
st=$?
small=$(order 0 anon_fault "$dir/anon.rft")
big=$(order 9 anon_fault "$dir/anon.rft")
if [ "$pmd" = madvise ]; then
	[ $st -eq 0 ] && [ "$big" -eq 0 ] && [ "$small" -ge 4096 ]
	tap $? "without MADV_HUGEPAGE, page by page (exit $st, $small of order 0, $big of order 9)"
else	# always: the aligned part of the range is huge too
	[ $st -eq 0 ] && [ $((small + 512 * big)) -ge 4096 ]
	tap $? "without MADV_HUGEPAGE, every page is recorded ('always': $small of order 0, $big of order 9)"
fi
exit $failed
