#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The validation suite's lab: record its workloads (tests/validate/cases.sh) inside a qemu guest
# running another kernel, and bring the traces back to the host, where
# tests/kernels/check-kernels.sh (make check-kernels) validates them.  The guest only records.
# The kernel, the initramfs, the boot and the extraction are refault lab's (lab/lib.sh, the
# guest's /init lab/init.sh); what is the suite's is here and in the guest's /lab/suite.sh
# (tests/kernels/suite.sh): the cases, their files' disk image, their summary.
#
#   tests/kernels/lab.sh --kernel-pkg linux-image-6.1.0-57-amd64 --cgroup v1 \
#       --refault BUILD/refault --vworkload BUILD/tests/validate/vworkload --out DIR
#
# Options:
#   --cache DIR          .debs and unpacked kernels, kept between runs, and the workload
#                        files' disk image (default $REFAULT_LAB_CACHE or ~/.cache/refault-lab)
#   --kernel-pkg NAME    a Debian linux-image package (apt-get download into the cache when
#                        it is not there)
#   --kernel VMLINUZ     any kernel; with --modules DIR (its lib/modules/RELEASE; without it
#                        ext4, virtio_blk and virtio_pci must be built in)
#   --cgroup v1|v2       the memory cgroup hierarchy in the guest (default: v1 where the
#                        kernel has it, else v2)
#   --mglru 0|1          /sys/kernel/mm/lru_gen/enabled in the guest (default: the kernel's)
#   --thp always|madvise|never  transparent_hugepage= on the kernel command line (default
#                        madvise, as on the hosts the suite's tolerances were measured on:
#                        Debian's kernels boot with "always", and the anonymous cases fault
#                        in 2 MiB folios then)
#   --mem MB, --cpus N   the guest's (default 1024, 2)
#   --case NAME          a case of cases.sh (repeatable; default all nine)
#   --out DIR            where the results land: DIR/CASE.rft and CASE.err, console.log,
#                        guest-info.txt (the guest's tracefs, cgroups, filemap symbols),
#                        kallsyms.gz, summary.txt (default ./refault-lab.out)
#   --refault PATH, --vworkload PATH   binaries from a build dir (libtool wrappers are fine)
#   --budget SECONDS     per boot: qemu is killed after it and the run fails (default 1800)
#   --accel auto|kvm|tcg auto: a probe boot under KVM (20 s), TCG when it does not reach init
#   --tcg-threads single|multi  qemu's TCG threads (default single: with thread=multi, 1 boot
#                        in 10 on QEMU 7.2 died of a kernel "Oops: int3" in code the kernel had
#                        just re-patched, as the recorder turned its tracepoints off; single is
#                        no slower on 2 host cores)
#   --retries N          a guest that dies before the end (oops, panic) is booted again on a
#                        fresh disk for the cases it did not finish, up to N times (default 1)
#   --append ARGS        more kernel command line
#   --keep               keep the work directory (initramfs, disk image) and say where
#
# Exit 0 when the guest recorded every case; 1 with the reason otherwise (the console log's
# path in the message); 2 on a usage error; 3 when the kernel package is neither cached nor
# downloadable.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
cases_sh=$top_srcdir/tests/validate/cases.sh
# shellcheck source=lab/lib.sh
. "$top_srcdir/lab/lib.sh"

cache=${REFAULT_LAB_CACHE:-$HOME/.cache/refault-lab}
pkg='' vmlinuz='' moddir='' cgroup='' mglru='' mem=1024 cpus=2 out=$PWD/refault-lab.out
refault='' vworkload='' budget=1800 accel=auto append='' keep='' thp=madvise
tcg_threads=single retries=1
sel_cases=()
probe_timeout=20
# A change to how the workload files' image is made changes this, so that a cached one is
# not reused.
disk_recipe=1
disk_mb=2048

die() { lab_die "$@"; }
usage() {
	echo "lab: $*" >&2
	echo "usage: lab.sh --kernel-pkg NAME | --kernel VMLINUZ [--modules DIR] --refault PATH" \
		"--vworkload PATH [--out DIR] [--cgroup v1|v2] [--mglru 0|1] [--case NAME]..." \
		"(see the top of $0)" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	o=$1
	case $o in
	--keep) keep=1; shift; continue;;
	-h|--help) sed -n '3,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
	--*) [ $# -ge 2 ] || usage "$o needs a value";;
	*) usage "unknown argument '$o'";;
	esac
	v=$2
	shift 2
	case $o in
	--cache) cache=$v;;
	--kernel-pkg) pkg=$v;;
	--kernel) vmlinuz=$v;;
	--modules) moddir=$v;;
	--cgroup) case $v in v1|v2) cgroup=$v;; *) usage "--cgroup v1 or v2";; esac;;
	--mglru) case $v in 0|1) mglru=$v;; *) usage "--mglru 0 or 1";; esac;;
	--thp) case $v in always|madvise|never) thp=$v;; *) usage "--thp always, madvise or never";; esac;;
	--mem) case $v in ''|*[!0-9]*) usage "--mem MB";; esac; mem=$v;;
	--cpus) case $v in ''|*[!0-9]*|0) usage "--cpus N";; esac; cpus=$v;;
	--case) sel_cases+=("$v");;
	--out) out=$v;;
	--refault) refault=$v;;
	--vworkload) vworkload=$v;;
	--budget) case $v in ''|*[!0-9]*|0) usage "--budget SECONDS";; esac; budget=$v;;
	--accel) case $v in auto|kvm|tcg) accel=$v;; *) usage "--accel auto, kvm or tcg";; esac;;
	--tcg-threads) case $v in single|multi) ;; *) usage "--tcg-threads single or multi";; esac
		tcg_threads=$v;;
	--retries) case $v in ''|*[!0-9]*) usage "--retries N";; esac; retries=$v;;
	--append) append=$v;;
	*) usage "unknown option '$o'";;
	esac
done
[ -n "$pkg" ] || [ -n "$vmlinuz" ] || usage "--kernel-pkg NAME or --kernel VMLINUZ"
[ -z "$pkg" ] || [ -z "$vmlinuz" ] || usage "--kernel-pkg or --kernel, not both"
[ -z "$moddir" ] || [ -n "$vmlinuz" ] || usage "--modules goes with --kernel"
[ -n "$refault" ] || usage "--refault PATH (the refault binary of a build)"
[ -n "$vworkload" ] ||
	usage "--vworkload PATH (tests/validate/vworkload of a build: make check builds it)"

# The case list and the workload files come from cases.sh, the host suite's own.
# shellcheck source=tests/validate/cases.sh disable=SC1091
. "$cases_sh" || die "cannot read $cases_sh"
if [ ${#sel_cases[@]} -eq 0 ]; then
	read -r -a sel_cases <<< "$VCASES"
fi
for c in "${sel_cases[@]}"; do
	[ -n "$(vcase_args "$c" .)" ] || usage "no case '$c' in $cases_sh (cases: $VCASES)"
done
# vmake_files' files and sizes: "NAME MIB" lines
# shellcheck disable=SC2016
files=$(sed -n '/^vmake_files()/,/^}/p' "$cases_sh" |
	grep -o 'head -c [0-9]*M /dev/zero > "$1/[A-Za-z0-9_.-]*"' |
	sed 's|head -c \([0-9]*\)M /dev/zero > "$1/\(.*\)"|\2 \1|')
[ -n "$files" ] || die "cannot read the workload files from vmake_files() in $cases_sh"

lab_need_tools
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
for c in "${sel_cases[@]}"; do rm -f "$out/$c.rft" "$out/$c.err"; done
rm -f "$out"/console.log* "$out"/console-*.log* "$out/guest-info.txt" "$out/cases.txt" \
	"$out/summary.txt" "$out/kallsyms" "$out/kallsyms.gz"
lab_work
trap 'lab_cleanup "$keep"' EXIT
trap 'exit 1' INT TERM
t_start=$SECONDS

# ------------------------------------------------------------------------------- the kernel
if [ -n "$pkg" ]; then
	lab_kernel_pkg "$pkg"
else
	lab_kernel_image "$vmlinuz" "$moddir"
fi
[ -n "$cgroup" ] || cgroup=$(lab_cgroup_default)

# ------------------------------------------------------------------------------- initramfs
lab_root
lab_bin "$refault" /bin/refault
lab_bin "$vworkload" /bin/vworkload
if ! cp "$cases_sh" "$root/lab/cases.sh" || ! cp "$top_srcdir/lab/init.sh" "$root/init" ||
	! chmod 755 "$root/init" || ! cp "$here/suite.sh" "$root/lab/suite.sh"; then
	die "cannot copy cases.sh, lab/init.sh and suite.sh into the initramfs"
fi
lab_modules
lab_initramfs

# ------------------------------------------------------------------------------- the disk
# The workload files with non-zero data (mke2fs -d turns all-zero blocks into holes, which a
# read() serves without the page cache's insertions), checked not sparse; cached.  Each run
# gets a fresh copy: the traces go in /out, the swap file in /.
key=$(printf '%s %s %s\n' "$disk_recipe" "$disk_mb" "$files" | cksum | cut -d' ' -f1)
base=$cache/disk/base-$key.img
if [ ! -e "$base" ]; then
	lab_say "making the workload files' disk image (${disk_mb} MiB, sparse)"
	mkdir -p "$cache/disk" || lab_die "cannot create $cache/disk"
	stage=$work/stage
	mkdir -p "$stage/w" "$stage/out" || lab_die "cannot create $stage"
	while read -r f mib; do
		head -c "${mib}M" /dev/zero | tr '\0' 'U' > "$stage/w/$f" || lab_die "cannot write $stage/w/$f"
	done <<< "$files"
	rm -f "$base.tmp"
	mke2fs -q -F -t ext4 -L refault-lab -E lazy_itable_init=0,lazy_journal_init=0,root_owner=0:0 \
		-d "$stage" "$base.tmp" "${disk_mb}M" > "$work/mke2fs.log" 2>&1 ||
		lab_die "mke2fs -d $stage $base.tmp failed: $(tail -n 3 "$work/mke2fs.log")"
	while read -r f mib; do
		blocks=$(debugfs -R "stat /w/$f" "$base.tmp" 2> /dev/null |
			sed -n 's/.*Blockcount: \([0-9]*\).*/\1/p')
		[ "${blocks:-0}" -ge $((mib * 2048)) ] ||
			lab_die "/w/$f in $base.tmp is sparse or missing (${blocks:-no} 512-byte blocks for $mib MiB)"
	done <<< "$files"
	rm -rf "$stage"
	mv "$base.tmp" "$base" || lab_die "cannot move $base.tmp"
fi
disk=$work/disk.img

# ------------------------------------------------------------------------------- booting
lab_accel "$out/console-probe.log"

# extract: the guest's /out into $out; its cases.txt appended to ours with the boot
extract() {
	lab_extract "$log" "$disk" "$work/x" || return 1
	[ ! -e "$work/x/out/cases.txt" ] ||
		awk -v b="$boots" '{ print $0, b }' "$work/x/out/cases.txt" >> "$out/cases.txt"
	rm -f "$work/x/out/cases.txt"
	for f in "$work"/x/out/*; do
		[ -e "$f" ] && mv -f "$f" "$out/"
	done
	lab_kallsyms "$out"
}

# Boot; when the guest dies in the middle (a kernel oops, a panic), boot again on a fresh
# disk for the cases it did not finish, up to --retries times.
remaining=("${sel_cases[@]}")
: > "$out/cases.txt"
boots=0 failed_why='' extract_why='' boot_summary=''
while :; do
	boots=$((boots + 1))
	log=$out/console.log
	[ $boots -eq 1 ] || log=$out/console-$boots.log
	rm -f "$disk"
	cp --reflink=auto --sparse=always "$base" "$disk" || die "cannot copy $base to $disk"
	cmd="transparent_hugepage=$thp refault.cgroup=$cgroup${mglru:+ refault.mglru=$mglru}"
	cmd="$cmd refault.cases=$(IFS=,; echo "${remaining[*]}")"
	lab_say "boot $boots: $kname under $accel_name (${cpus} vCPUs, ${mem} MiB), cgroup $cgroup," \
		"mglru ${mglru:-default}, THP $thp; cases: ${remaining[*]}"
	t_boot=$SECONDS
	lab_boot "$log" "$cmd" "$disk"
	lab_wait "$log" "$budget"
	extract_why=''
	! grep -aq '^refault-lab: setup' "$log" || extract
	n_done=$(awk -v b="$boots" '$4 == b' "$out/cases.txt" | wc -l)
	boot_summary="${boot_summary}boot $boots: ${t_init:-?} s to init, qemu ${t_qemu} s,"
	boot_summary="$boot_summary $n_done case(s)"
	boot_summary="$boot_summary${failed_why:+; $failed_why} ($log)"$'\n'
	if [ -z "$crashed" ] || [ -n "$extract_why" ] || [ "$boots" -gt "$retries" ]; then
		break
	fi
	left=()
	for c in "${remaining[@]}"; do
		awk -v c="$c" '$1 == c { f = 1 } END { exit !f }' "$out/cases.txt" || left+=("$c")
	done
	if [ ${#left[@]} -eq 0 ]; then
		lab_say "warning: $failed_why, after its last case (console: $log)"
		failed_why=''
		break
	fi
	remaining=("${left[@]}")
	lab_say "$failed_why (console: $log): booting again for ${remaining[*]}"
done
t_total=$((SECONDS - t_start))

# ------------------------------------------------------------------------------- results
{
	echo "kernel: $kname"
	echo "accel: $accel_name${probe_s:+ (KVM probe ${probe_s} s)}"
	v=$(sed -n 's/^refault-lab: setup cgroup=\([^ ]*\).*/\1/p' "$out/console.log" | head -n 1)
	echo "cgroup: ${v:-? (asked: $cgroup)}"
	v=$(sed -n 's/^refault-lab: setup .*lru_gen=\(.*\) up=.*/\1/p' "$out/console.log" | head -n 1)
	echo "mglru: ${mglru:-default} (lru_gen: ${v:-?})"
	echo "guest: ${cpus} vCPUs, ${mem} MiB, THP $thp"
	printf '%s' "$boot_summary"
	while read -r c st secs b; do
		case $st in 0) r=recorded;; 2) r="skipped ($(cat "$out/$c.err" 2> /dev/null))";;
		*) r="FAILED (exit $st; $out/$c.err)";; esac
		[ "$boots" -eq 1 ] || r="$r (boot $b)"
		printf 'case %-12s %8s s  %s\n' "$c" "$secs" "$r"
	done < "$out/cases.txt"
	echo "cases: $(awk '{ s += $3 } END { printf "%.1f", s }' "$out/cases.txt") s"
	echo "total (the initramfs, disk, boots and extraction): ${t_total} s"
} > "$out/summary.txt"
sed 's/^/lab: /' "$out/summary.txt" >&2

[ -z "$failed_why" ] || die "$failed_why (console: $log)"
[ -z "$extract_why" ] || die "$extract_why (console: $log)"
bad=
for c in "${sel_cases[@]}"; do
	st=$(awk -v c="$c" '$1 == c { print $2 }' "$out/cases.txt" | tail -n 1)
	[ "$st" = 0 ] || [ "$st" = 2 ] || bad="$bad $c"
done
[ -z "$bad" ] ||
	die "refault record failed in the guest for:$bad (their .err in $out; console: $log)"
lab_say "traces in $out"
