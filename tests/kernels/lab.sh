#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The kernel lab: record the validation suite's workloads (tests/validate/cases.sh) inside a
# qemu guest running another kernel, and bring the traces back to the host, where
# tests/kernels/check-kernels.sh (make check-kernels) validates them.  The guest only records.
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

say() { echo "lab: $*"; }
die() { echo "lab: error: $*" >&2; exit 1; }
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

need() { command -v "$1" > /dev/null 2>&1 || die "$1 is missing: $2"; }
need qemu-system-x86_64 "apt-get install qemu-system-x86"
need cpio "apt-get install cpio"
need mke2fs "apt-get install e2fsprogs"
need debugfs "apt-get install e2fsprogs"
need ldd "it comes with libc-bin"
busybox=/bin/busybox
[ -x $busybox ] || die "no $busybox: apt-get install busybox-static"
LC_ALL=C ldd $busybox 2>&1 | grep -q 'not a dynamic executable' ||
	die "$busybox is not static: apt-get install busybox-static"

mkdir -p "$cache" || die "cannot create the cache $cache"
cache=$(cd "$cache" && pwd)
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
for c in "${sel_cases[@]}"; do rm -f "$out/$c.rft" "$out/$c.err"; done
rm -f "$out"/console.log* "$out"/console-*.log* "$out/guest-info.txt" "$out/cases.txt" \
	"$out/summary.txt" "$out/kallsyms" "$out/kallsyms.gz"
# A run's work directory (an initramfs and a disk image, some 830 MiB) is locked for as long as
# the run or its guest lives; one killed outright (SIGKILL, the machine stopped) leaves it behind,
# and the next run removes every such directory that nothing holds and --keep did not keep. The
# cache's own lock covers the window between a directory's creation and its lock.
need flock "it comes with util-linux"
exec 9> "$cache/lock" && flock 9 || die "cannot lock $cache/lock"
for d in "$cache"/run.*; do
	[ -d "$d" ] && [ ! -e "$d/kept" ] || continue
	if flock -n "$d/lock" true 2> /dev/null; then
		rm -rf "$d" && say "removed $d, left by a run that was killed"
	fi
done
work=$(mktemp -d "$cache/run.XXXXXX") || die "cannot create a work directory in $cache"
exec 8> "$work/lock" && flock 8 || die "cannot lock $work/lock"
exec 9>&-
qpid=
cleanup() {
	[ -z "$qpid" ] || [ -z "$(qemu_pid)" ] || kill -9 "$(qemu_pid)" 2> /dev/null
	if [ -n "$keep" ]; then
		touch "$work/kept"
		say "work directory kept: $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
t_start=$SECONDS

# ------------------------------------------------------------------------------- the kernel
if [ -n "$pkg" ]; then
	need dpkg-deb "it comes with dpkg"
	need depmod "apt-get install kmod"
	kdir=$cache/kernels/$pkg
	if [ ! -e "$kdir/.unpacked" ]; then
		deb=$(find "$cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
		if [ -z "$deb" ]; then
			need apt-get "a Debian system's"
			say "apt-get download $pkg (into $cache)"
			if ! (cd "$cache" && apt-get download "$pkg"); then
				echo "lab: error: $pkg is not in $cache and apt-get download failed" \
					"(no network, or no such package: apt-cache search --names-only '^linux-image-')" >&2
				exit 3
			fi
			deb=$(find "$cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
			[ -n "$deb" ] || die "apt-get download $pkg left no ${pkg}_*.deb in $cache"
		fi
		say "unpacking $(basename "$deb")"
		rm -rf "$kdir"
		mkdir -p "$kdir" || die "cannot create $kdir"
		dpkg-deb -x "$deb" "$kdir" || die "dpkg-deb -x $deb $kdir failed"
		rel=$(basename "$(find "$kdir/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
		[ -n "$rel" ] || die "$deb has no lib/modules/RELEASE"
		depmod -b "$kdir" "$rel" || die "depmod -b $kdir $rel failed"
		touch "$kdir/.unpacked"
	fi
	rel=$(basename "$(find "$kdir/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
	vmlinuz=$kdir/boot/vmlinuz-$rel
	moddir=$kdir/lib/modules/$rel
	kconfig=$kdir/boot/config-$rel
	kname="$pkg ($rel)"
else
	[ -r "$vmlinuz" ] || die "no kernel $vmlinuz"
	kconfig=
	if [ -n "$moddir" ]; then
		[ -d "$moddir" ] || die "no modules directory $moddir"
		moddir=$(cd "$moddir" && pwd)
		rel=$(basename "$moddir")
		if [ ! -e "$moddir/modules.dep" ]; then
			need depmod "apt-get install kmod"
			base=${moddir%/lib/modules/"$rel"}
			[ "$base" != "$moddir" ] ||
				die "$moddir has no modules.dep and is not a lib/modules/RELEASE: run depmod"
			depmod -b "$base" "$rel" || die "$moddir has no modules.dep and depmod -b $base $rel failed"
		fi
		[ -e "$moddir/../../../boot/config-$rel" ] && kconfig=$moddir/../../../boot/config-$rel
	else
		rel=$(file -bL "$vmlinuz" 2> /dev/null | sed -n 's/.*version \([^ ]*\).*/\1/p')
	fi
	kname="$vmlinuz${rel:+ ($rel)}"
fi
[ -r "$vmlinuz" ] || die "no kernel image $vmlinuz"
if [ -z "$cgroup" ]; then
	# v1 where the kernel has it (the host suite's), else v2
	if [ -n "$kconfig" ] && [ -r "$kconfig" ]; then
		if grep -q '^CONFIG_MEMCG_V1=y' "$kconfig" ||
			{ ! grep -q 'CONFIG_MEMCG_V1' "$kconfig" && grep -q '^CONFIG_MEMCG=y' "$kconfig"; }; then
			cgroup=v1
		else
			cgroup=v2
		fi
	else
		cgroup=auto
	fi
fi

# ------------------------------------------------------------------------------- initramfs
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib/refault,lib/modules,lab} \
	"$root"/{proc,sys,dev,mnt,tmp,run,etc,var/tmp,root} || die "cannot create $root"
cp $busybox "$root/bin/busybox" || die "cannot copy $busybox"
while read -r a; do
	[ -n "$a" ] && [ "$a" != bin/busybox ] && [ ! -e "$root/$a" ] && ln -s /bin/busybox "$root/$a"
done < <($busybox --list-full)
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"

# bin NAME PATH: the ELF behind PATH (a libtool wrapper's .libs/ program) as /bin/NAME, with
# every shared library it links (ldd) in /lib/refault and its dynamic loader where it says.
bin() {
	local name=$1 f=$2 real libpath='' line lib
	[ -x "$f" ] || die "no executable $f"
	real=$f
	if grep -q 'temporary wrapper script for' "$f" 2> /dev/null; then
		real=$(dirname "$f")/.libs/lt-$(basename "$f")
		[ -x "$real" ] || real=$(dirname "$f")/.libs/$(basename "$f")
		# shellcheck disable=SC2016
		libpath=$(sed -n 's/^ *LD_LIBRARY_PATH="\(.*\):\$LD_LIBRARY_PATH"$/\1/p' "$f" | head -n 1)
		[ -x "$real" ] || die "$f is a libtool wrapper without its program $real"
	fi
	cp -L "$real" "$root/bin/$name" || die "cannot copy $real"
	libpath=$libpath${libpath:+${LD_LIBRARY_PATH:+:}}${LD_LIBRARY_PATH:-}
	LC_ALL=C LD_LIBRARY_PATH=$libpath ldd "$real" > "$work/ldd.$name" 2>&1
	grep -q 'not a dynamic executable' "$work/ldd.$name" && return 0
	grep 'not found' "$work/ldd.$name" && die "ldd $real: libraries not found (above)"
	while read -r line; do
		case $line in
		*' => '/*) lib=${line#* => }; lib=${lib%% (*}
			cp -L "$lib" "$root/lib/refault/$(basename "$lib")" || die "cannot copy $lib";;
		/*) lib=${line%% (*}	# the dynamic loader
			mkdir -p "$root$(dirname "$lib")" || die "cannot create $root$(dirname "$lib")"
			cp -L "$lib" "$root$lib" || die "cannot copy $lib";;
		esac
	done < "$work/ldd.$name"
}
bin refault "$refault"
bin vworkload "$vworkload"
if ! cp "$cases_sh" "$root/lab/cases.sh" || ! cp "$here/init.sh" "$root/init" ||
	! chmod 755 "$root/init"; then
	die "cannot copy cases.sh and init.sh into the initramfs"
fi

# Modules: ext4 (and crc32c, which it asks the crypto API for), the virtio disk, in
# dependency order (modules.dep lists a module's dependencies; the last is loaded first).
: > "$root/lab/modules"
if [ -n "$moddir" ]; then
	declare -A seen=()
	visit() {	# visit PATH (relative to $moddir)
		local p=$1 deps d i
		[ -n "${seen[$p]:-}" ] && return 0
		seen[$p]=1
		deps=$(grep -m 1 "^$p:" "$moddir/modules.dep" | cut -d: -f2)
		read -r -a d <<< "$deps"
		for ((i = ${#d[@]} - 1; i >= 0; i--)); do visit "${d[i]}"; done
		local ko=${p##*/}
		ko=${ko%.xz}; ko=${ko%.zst}; ko=${ko%.gz}
		case $p in
		*.xz) xz -dc "$moddir/$p";;
		*.zst) zstd -qdc "$moddir/$p";;
		*.gz) gzip -dc "$moddir/$p";;
		*) cat "$moddir/$p";;
		esac > "$root/lib/modules/$ko" || die "cannot decompress $moddir/$p"
		echo "$ko" >> "$root/lab/modules"
	}
	for m in crc32c_generic ext4 virtio_pci virtio_blk; do
		pat=${m//[-_]/[-_]}
		p=$(grep -o -m 1 -E "^([^:]*/)?$pat\\.ko(\\.xz|\\.zst|\\.gz)?:" "$moddir/modules.dep" | tr -d :)
		if [ -n "$p" ]; then
			visit "$p"
		elif ! grep -q -E "(^|/)$pat\\.ko" "$moddir/modules.builtin" 2> /dev/null; then
			die "module $m is neither in $moddir/modules.dep nor in modules.builtin"
		fi
	done
fi
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz" ||
	die "cannot build the initramfs from $root"

# ------------------------------------------------------------------------------- the disk
# The workload files with non-zero data (mke2fs -d turns all-zero blocks into holes, which a
# read() serves without the page cache's insertions), checked not sparse; cached.  Each run
# gets a fresh copy: the traces go in /out, the swap file in /.
key=$(printf '%s %s %s\n' "$disk_recipe" "$disk_mb" "$files" | cksum | cut -d' ' -f1)
base=$cache/disk/base-$key.img
if [ ! -e "$base" ]; then
	say "making the workload files' disk image (${disk_mb} MiB, sparse)"
	mkdir -p "$cache/disk" || die "cannot create $cache/disk"
	stage=$work/stage
	mkdir -p "$stage/w" "$stage/out" || die "cannot create $stage"
	while read -r f mib; do
		head -c "${mib}M" /dev/zero | tr '\0' 'U' > "$stage/w/$f" || die "cannot write $stage/w/$f"
	done <<< "$files"
	rm -f "$base.tmp"
	mke2fs -q -F -t ext4 -L refault-lab -E lazy_itable_init=0,lazy_journal_init=0,root_owner=0:0 \
		-d "$stage" "$base.tmp" "${disk_mb}M" > "$work/mke2fs.log" 2>&1 ||
		die "mke2fs -d $stage $base.tmp failed: $(tail -n 3 "$work/mke2fs.log")"
	while read -r f mib; do
		blocks=$(debugfs -R "stat /w/$f" "$base.tmp" 2> /dev/null |
			sed -n 's/.*Blockcount: \([0-9]*\).*/\1/p')
		[ "${blocks:-0}" -ge $((mib * 2048)) ] ||
			die "/w/$f in $base.tmp is sparse or missing (${blocks:-no} 512-byte blocks for $mib MiB)"
	done <<< "$files"
	rm -rf "$stage"
	mv "$base.tmp" "$base" || die "cannot move $base.tmp"
fi
disk=$work/disk.img

# ------------------------------------------------------------------------------- booting
# boot LOG APPEND DISK(0|1): qemu in the background, its pid in $qpid
boot() {
	local log=$1 args
	args=(-nodefaults -no-reboot -display none -monitor none -serial "file:$log" -nic none
		-m "$mem" -smp "$cpus" -kernel "$vmlinuz" -initrd "$work/initrd.gz"
		-append "console=ttyS0 quiet panic=-1 $2${append:+ $append}")
	if [ "$used_accel" = kvm ]; then
		args+=(-accel kvm -cpu host)
	else
		args+=(-accel "tcg,thread=$tcg_threads" -cpu max)
	fi
	[ "$3" = 1 ] && args+=(-drive "file=$disk,if=virtio,format=raw")
	: > "$log"
	rm -f "$work/qemu.pid" "$work/qemu.rc"
	# a subshell, so that no "Aborted" of a killed qemu is printed; qemu's pid in qemu.pid
	(
		qemu-system-x86_64 "${args[@]}" -pidfile "$work/qemu.pid" > "$log.qemu" 2>&1
		echo $? > "$work/qemu.rc"
	) 2> /dev/null &
	qpid=$!
}
qemu_pid() { cat "$work/qemu.pid" 2> /dev/null; }
running() { [ -n "$qpid" ] && jobs -rp | grep -qx "$qpid"; }
stop() {
	local p
	p=$(qemu_pid)
	if [ -n "$p" ]; then
		kill "$p" 2> /dev/null
		sleep 1
		kill -9 "$p" 2> /dev/null
	fi
	wait "$qpid" 2> /dev/null
	qpid=''
}

used_accel=tcg
probe_s=
if [ "$accel" = kvm ]; then
	used_accel=kvm
elif [ "$accel" = auto ]; then
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		used_accel=kvm
		t0=$SECONDS
		boot "$out/console-probe.log" "refault.probe=1" 0
		while running && [ $((SECONDS - t0)) -lt $probe_timeout ] &&
			! grep -q '^refault-lab: probe ok' "$out/console-probe.log"; do
			sleep 0.5
		done
		probe_s=$((SECONDS - t0))
		if grep -q '^refault-lab: probe ok' "$out/console-probe.log"; then
			say "KVM probe: reached init in ${probe_s} s: using KVM"
			wait "$qpid" 2> /dev/null
			qpid=''
		else
			stop
			why=$(grep -v '^$' "$out/console-probe.log.qemu" | tail -n 2 | tr '\n' ' ')
			say "KVM probe: no init within ${probe_s} s${why:+ (qemu: $why)};" \
				"console: $out/console-probe.log: using TCG"
			used_accel=tcg
		fi
	else
		say "no read-write /dev/kvm: using TCG"
	fi
fi
accel_name=$used_accel
[ "$used_accel" = kvm ] || accel_name="tcg (thread=$tcg_threads)"

progress() {	# print the marker lines the console has that we have not shown
	local n
	n=$(wc -l < "$log")
	[ "$n" -gt "$seen_lines" ] || return 0
	sed -n "$((seen_lines + 1)),${n}p" "$log" | grep -a '^refault-lab: ' |
		grep -av '^refault-lab: info ' | while read -r _ what rest; do
			case $what in
			init) echo "lab: [$((SECONDS - t_boot)) s] init reached: $rest";;
			case) case $rest in *' end '*) echo "lab: [$((SECONDS - t_boot)) s] case $rest";; esac;;
			err) echo "lab:   $rest";;
			*) echo "lab: [$((SECONDS - t_boot)) s] $what $rest";;
			esac
		done
	[ -n "$t_init" ] || ! grep -aq '^refault-lab: init' "$log" || t_init=$((SECONDS - t_boot))
	seen_lines=$n
}

# extract: the guest's /out into $out (the journal replayed first when the guest did not
# unmount: debugfs reads the image as it is); its cases.txt appended to ours with the boot
extract() {
	rm -rf "$work/x"
	mkdir -p "$work/x" || return 1
	if ! grep -aq '^refault-lab: done' "$log"; then
		e2fsck -p -E journal_only "$disk" > "$work/e2fsck.log" 2>&1
		if [ $? -ge 4 ]; then
			extract_why="e2fsck -E journal_only $disk: $(tail -n 2 "$work/e2fsck.log")"
			return 1
		fi
	fi
	if ! debugfs -R "rdump /out $work/x" "$disk" > "$work/debugfs.log" 2>&1 ||
		[ ! -d "$work/x/out" ]; then
		extract_why="debugfs -R 'rdump /out $work/x' $disk failed: $(tail -n 3 "$work/debugfs.log")"
		return 1
	fi
	[ ! -e "$work/x/out/cases.txt" ] ||
		awk -v b="$boots" '{ print $0, b }' "$work/x/out/cases.txt" >> "$out/cases.txt"
	rm -f "$work/x/out/cases.txt"
	for f in "$work"/x/out/*; do
		[ -e "$f" ] && mv -f "$f" "$out/"
	done
	if [ -e "$out/kallsyms" ]; then
		set -- -e filemap_get_pages -e filemap_read -e filemap_fault -e filemap_map_pages
		{ echo "\$ grep -w $* /proc/kallsyms"; grep -w "$@" "$out/kallsyms"; } >> "$out/guest-info.txt"
		gzip -f "$out/kallsyms"
	fi
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
	say "boot $boots: $kname under $accel_name (${cpus} vCPUs, ${mem} MiB), cgroup $cgroup," \
		"mglru ${mglru:-default}, THP $thp; cases: ${remaining[*]}"
	t_boot=$SECONDS seen_lines=0 t_init='' failed_why='' crashed=''
	boot "$log" "$cmd" 1
	while running; do
		if [ $((SECONDS - t_boot)) -ge "$budget" ]; then
			stop
			failed_why="the guest did not finish within --budget $budget s"
			break
		fi
		sleep 1
		progress
	done
	[ -z "$qpid" ] || wait "$qpid"
	qpid=''
	qst=$(cat "$work/qemu.rc" 2> /dev/null || echo "killed")
	progress
	t_qemu=$((SECONDS - t_boot))
	if [ -z "$failed_why" ]; then
		if ! grep -aq '^refault-lab: init' "$log"; then
			failed_why="the guest never reached init (qemu exit $qst; $log.qemu)"
		elif grep -aq '^refault-lab: fail' "$log"; then
			failed_why=$(grep -a -m 1 '^refault-lab: fail' "$log" | sed 's/^refault-lab: fail //')
			failed_why="the guest failed: $failed_why"
		elif ! grep -aq '^refault-lab: done' "$log"; then
			crashed=$(grep -a -m 1 -e 'Oops' -e 'BUG:' -e 'Kernel panic' "$log" |
				sed 's/^\[[ 0-9.]*\] //')
			failed_why="the guest stopped before the end (qemu exit $qst):"
			failed_why="$failed_why ${crashed:-no oops or panic on the console}"
			crashed=1
		fi
	fi
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
		say "warning: $failed_why, after its last case (console: $log)"
		failed_why=''
		break
	fi
	remaining=("${left[@]}")
	say "$failed_why (console: $log): booting again for ${remaining[*]}"
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
sed 's/^/lab: /' "$out/summary.txt"

[ -z "$failed_why" ] || die "$failed_why (console: $log)"
[ -z "$extract_why" ] || die "$extract_why (console: $log)"
bad=
for c in "${sel_cases[@]}"; do
	st=$(awk -v c="$c" '$1 == c { print $2 }' "$out/cases.txt" | tail -n 1)
	[ "$st" = 0 ] || [ "$st" = 2 ] || bad="$bad $c"
done
[ -z "$bad" ] ||
	die "refault record failed in the guest for:$bad (their .err in $out; console: $log)"
say "traces in $out"
