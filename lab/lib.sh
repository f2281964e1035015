# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=bash
# The kernel lab's host side, shared by `refault lab` (lab/refault-lab) and the validation
# suite's lab (tests/kernels/lab.sh): the cache and its work directories, a kernel from a
# Debian package or an image, the initramfs (busybox, host binaries with their libraries,
# modules), qemu (KVM where it works, else TCG), the guest's console and its disk's /out.
# docs/lab.md tells the whole; every function is lab_*, every message starts "lab: " and goes
# to stderr.
#
# The caller sets, before lab_work: cache (DIR); before lab_boot: mem, cpus, append,
# tcg_threads, accel (auto|kvm|tcg); and uses what the functions set: work, root, vmlinuz,
# moddir, kconfig, kname, rel, used_accel, accel_name, qpid.

lab_say() { echo "lab: $*" >&2; }
lab_die() { echo "lab: error: $*" >&2; exit 1; }
lab_need() { command -v "$1" > /dev/null 2>&1 || lab_die "$1 is missing: $2"; }

# The tools every boot needs (install-deps.sh --lab installs them).
lab_need_tools() {
	lab_need qemu-system-x86_64 "apt-get install qemu-system-x86"
	lab_need cpio "apt-get install cpio"
	lab_need mke2fs "apt-get install e2fsprogs"
	lab_need debugfs "apt-get install e2fsprogs"
	lab_need ldd "it comes with libc-bin"
	lab_need flock "it comes with util-linux"
	busybox=/bin/busybox
	[ -x $busybox ] || lab_die "no $busybox: apt-get install busybox-static"
	LC_ALL=C ldd $busybox 2>&1 | grep -q 'not a dynamic executable' ||
		lab_die "$busybox is not static: apt-get install busybox-static"
}

# lab_work: the cache (made absolute) and a work directory in it, $work, locked for as long as
# this run or its guest lives.  A run killed outright (SIGKILL, the machine stopped) leaves its
# directory (an initramfs and a disk image, up to a few GiB); this removes every such directory
# that nothing holds and --keep did not keep.  The cache's own lock covers the window between a
# directory's creation and its lock.  The caller's EXIT trap calls lab_cleanup.
lab_work() {
	mkdir -p "$cache" || lab_die "cannot create the cache $cache"
	cache=$(cd "$cache" && pwd)
	exec 9> "$cache/lock" && flock 9 || lab_die "cannot lock $cache/lock"
	local d
	for d in "$cache"/run.*; do
		[ -d "$d" ] && [ ! -e "$d/kept" ] || continue
		if flock -n "$d/lock" true 2> /dev/null; then
			rm -rf "$d" && lab_say "removed $d, left by a run that was killed"
		fi
	done
	work=$(mktemp -d "$cache/run.XXXXXX") || lab_die "cannot create a work directory in $cache"
	exec 8> "$work/lock" && flock 8 || lab_die "cannot lock $work/lock"
	exec 9>&-
	qpid=
}

# lab_cleanup [KEEP]: qemu killed if it still runs; the work directory removed, or kept (marked
# so that no later run removes it) when KEEP is not empty.
lab_cleanup() {
	[ -z "${qpid:-}" ] || [ -z "$(lab_qemu_pid)" ] || kill -9 "$(lab_qemu_pid)" 2> /dev/null
	[ -n "${work:-}" ] && [ -d "$work" ] || return 0
	if [ -n "${1:-}" ]; then
		touch "$work/kept"
		lab_say "work directory kept: $work"
	else
		rm -rf "$work"
	fi
}

# lab_kernel_pkg NAME: a Debian linux-image package, downloaded into the cache unless a
# NAME_*.deb is there, unpacked into CACHE/kernels/NAME/ with its modules.dep made; kept.
# Exit 3 when it is neither cached nor downloadable.
lab_kernel_pkg() {
	local pkg=$1 kdir deb
	lab_need dpkg-deb "it comes with dpkg"
	lab_need depmod "apt-get install kmod"
	kdir=$cache/kernels/$pkg
	if [ ! -e "$kdir/.unpacked" ]; then
		deb=$(find "$cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
		if [ -z "$deb" ]; then
			lab_need apt-get "a Debian system's"
			lab_say "apt-get download $pkg (into $cache)"
			if ! (cd "$cache" && apt-get download "$pkg"); then
				echo "lab: error: $pkg is not in $cache and apt-get download failed" \
					"(no network, or no such package: apt-cache search --names-only '^linux-image-')" >&2
				exit 3
			fi
			deb=$(find "$cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
			[ -n "$deb" ] || lab_die "apt-get download $pkg left no ${pkg}_*.deb in $cache"
		fi
		lab_say "unpacking $(basename "$deb")"
		rm -rf "$kdir"
		mkdir -p "$kdir" || lab_die "cannot create $kdir"
		dpkg-deb -x "$deb" "$kdir" || lab_die "dpkg-deb -x $deb $kdir failed"
		rel=$(basename "$(find "$kdir/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
		[ -n "$rel" ] || lab_die "$deb has no lib/modules/RELEASE"
		depmod -b "$kdir" "$rel" || lab_die "depmod -b $kdir $rel failed"
		touch "$kdir/.unpacked"
	fi
	rel=$(basename "$(find "$kdir/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -n 1)")
	vmlinuz=$kdir/boot/vmlinuz-$rel
	moddir=$kdir/lib/modules/$rel
	kconfig=$kdir/boot/config-$rel
	kname="$pkg ($rel)"
	[ -r "$vmlinuz" ] || lab_die "no kernel image $vmlinuz"
}

# lab_kernel_image VMLINUZ [MODDIR] [CONFIG]: any kernel; MODDIR its lib/modules/RELEASE
# (without it, ext4, virtio_blk and virtio_pci must be built in), CONFIG its .config.
lab_kernel_image() {
	local base
	vmlinuz=$1 moddir=${2:-} kconfig=${3:-}
	[ -r "$vmlinuz" ] || lab_die "no kernel $vmlinuz"
	if [ -n "$moddir" ]; then
		[ -d "$moddir" ] || lab_die "no modules directory $moddir"
		moddir=$(cd "$moddir" && pwd)
		rel=$(basename "$moddir")
		if [ ! -e "$moddir/modules.dep" ]; then
			lab_need depmod "apt-get install kmod"
			base=${moddir%/lib/modules/"$rel"}
			[ "$base" != "$moddir" ] ||
				lab_die "$moddir has no modules.dep and is not a lib/modules/RELEASE: run depmod"
			depmod -b "$base" "$rel" ||
				lab_die "$moddir has no modules.dep and depmod -b $base $rel failed"
		fi
		[ -n "$kconfig" ] || [ ! -e "$moddir/../../../boot/config-$rel" ] ||
			kconfig=$moddir/../../../boot/config-$rel
	else
		rel=$(file -bL "$vmlinuz" 2> /dev/null | sed -n 's/.*version \([^ ]*\).*/\1/p')
	fi
	kname="$vmlinuz${rel:+ ($rel)}"
}

# lab_cgroup_default: v1 where the kernel's config has the v1 memory controller, else v2;
# auto (the guest tries v1, then v2) without a config.
lab_cgroup_default() {
	if [ -n "${kconfig:-}" ] && [ -r "$kconfig" ]; then
		if grep -q '^CONFIG_MEMCG_V1=y' "$kconfig" ||
			{ ! grep -q 'CONFIG_MEMCG_V1' "$kconfig" && grep -q '^CONFIG_MEMCG=y' "$kconfig"; }; then
			echo v1
		else
			echo v2
		fi
	else
		echo auto
	fi
}

# lab_root: the initramfs's tree, $root: busybox with its applet links, root's passwd entry.
lab_root() {
	root=$work/root
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib/refault,lib/modules,lab} \
		"$root"/{proc,sys,dev,mnt,tmp,run,etc,var/tmp,root} || lab_die "cannot create $root"
	cp $busybox "$root/bin/busybox" || lab_die "cannot copy $busybox"
	local a
	while read -r a; do
		[ -n "$a" ] && [ "$a" != bin/busybox ] && [ ! -e "$root/$a" ] && ln -s /bin/busybox "$root/$a"
	done < <($busybox --list-full)
	echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
	echo 'root:x:0:' > "$root/etc/group"
}

# lab_bin PATH DEST: the program at PATH (the ELF behind a libtool wrapper: its .libs/
# program) as DEST in the initramfs (a path inside it, /bin/refault), with every shared library
# it links (ldd) in /lib/refault and its dynamic loader where it says.  A script is copied as it
# is: its interpreter must be in the guest (busybox's sh is /bin/sh).
lab_bin() {
	local f=$1 dest=$2 real libpath='' line lib name
	name=$(basename "$dest")
	[ -f "$f" ] && [ -x "$f" ] || lab_die "no executable file $f"
	real=$f
	if grep -q 'temporary wrapper script for' "$f" 2> /dev/null; then
		real=$(dirname "$f")/.libs/lt-$(basename "$f")
		[ -x "$real" ] || real=$(dirname "$f")/.libs/$(basename "$f")
		# shellcheck disable=SC2016
		libpath=$(sed -n 's/^ *LD_LIBRARY_PATH="\(.*\):\$LD_LIBRARY_PATH"$/\1/p' "$f" | head -n 1)
		[ -x "$real" ] || lab_die "$f is a libtool wrapper without its program $real"
	fi
	mkdir -p "$root$(dirname "$dest")" || lab_die "cannot create $root$(dirname "$dest")"
	cp -L "$real" "$root$dest" || lab_die "cannot copy $real"
	chmod 755 "$root$dest"
	libpath=$libpath${libpath:+${LD_LIBRARY_PATH:+:}}${LD_LIBRARY_PATH:-}
	LC_ALL=C LD_LIBRARY_PATH=$libpath ldd "$real" > "$work/ldd.$name" 2>&1
	grep -q 'not a dynamic executable' "$work/ldd.$name" && return 0
	if grep 'not found' "$work/ldd.$name" >&2; then
		lab_die "ldd $real: libraries not found (above)"
	fi
	while read -r line; do
		case $line in
		*' => '/*) lib=${line#* => }; lib=${lib%% (*}
			cp -L "$lib" "$root/lib/refault/$(basename "$lib")" || lab_die "cannot copy $lib";;
		/*) lib=${line%% (*}	# the dynamic loader
			mkdir -p "$root$(dirname "$lib")" || lab_die "cannot create $root$(dirname "$lib")"
			cp -L "$lib" "$root$lib" || lab_die "cannot copy $lib";;
		esac
	done < "$work/ldd.$name"
}

# lab_modules: ext4 (and crc32c, which it asks the crypto API for) and the virtio disk from
# $moddir, decompressed (busybox insmod reads no .ko.xz), listed in /lab/modules in dependency
# order (modules.dep lists a module's dependencies; the last is loaded first); what the kernel
# has built in (modules.builtin) is skipped.  Nothing without $moddir.
lab_modules() {
	: > "$root/lab/modules"
	[ -n "${moddir:-}" ] || return 0
	local m pat p
	declare -A seen=()
	visit() {	# visit PATH (relative to $moddir)
		local p=$1 deps d i ko
		[ -n "${seen[$p]:-}" ] && return 0
		seen[$p]=1
		deps=$(grep -m 1 "^$p:" "$moddir/modules.dep" | cut -d: -f2)
		read -r -a d <<< "$deps"
		for ((i = ${#d[@]} - 1; i >= 0; i--)); do visit "${d[i]}"; done
		ko=${p##*/}
		ko=${ko%.xz}; ko=${ko%.zst}; ko=${ko%.gz}
		case $p in
		*.xz) xz -dc "$moddir/$p";;
		*.zst) zstd -qdc "$moddir/$p";;
		*.gz) gzip -dc "$moddir/$p";;
		*) cat "$moddir/$p";;
		esac > "$root/lib/modules/$ko" || lab_die "cannot decompress $moddir/$p"
		echo "$ko" >> "$root/lab/modules"
	}
	for m in crc32c_generic ext4 virtio_pci virtio_blk; do
		pat=${m//[-_]/[-_]}
		p=$(grep -o -m 1 -E "^([^:]*/)?$pat\\.ko(\\.xz|\\.zst|\\.gz)?:" "$moddir/modules.dep" | tr -d :)
		if [ -n "$p" ]; then
			visit "$p"
		elif ! grep -q -E "(^|/)$pat\\.ko" "$moddir/modules.builtin" 2> /dev/null; then
			lab_die "module $m is neither in $moddir/modules.dep nor in modules.builtin"
		fi
	done
}

# lab_initramfs: $root packed into $work/initrd.gz.
lab_initramfs() {
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz" ||
		lab_die "cannot build the initramfs from $root"
}

# lab_boot LOG APPEND DISK: qemu in the background (its pid in $qpid, qemu's own in
# $work/qemu.pid, its exit status in $work/qemu.rc), the console in LOG, qemu's messages in
# LOG.qemu; DISK a raw image for /dev/vda, or empty.  -no-reboot: the guest's reboot -f ends qemu.
lab_boot() {
	local log=$1 args
	args=(-nodefaults -no-reboot -display none -monitor none -serial "file:$log" -nic none
		-m "$mem" -smp "$cpus" -kernel "$vmlinuz" -initrd "$work/initrd.gz"
		-append "console=ttyS0 quiet panic=-1 $2${append:+ $append}")
	if [ "$used_accel" = kvm ]; then
		args+=(-accel kvm -cpu host)
	else
		args+=(-accel "tcg,thread=$tcg_threads" -cpu max)
	fi
	[ -z "$3" ] || args+=(-drive "file=$3,if=virtio,format=raw")
	: > "$log"
	rm -f "$work/qemu.pid" "$work/qemu.rc"
	# a subshell, so that no "Aborted" of a killed qemu is printed
	(
		qemu-system-x86_64 "${args[@]}" -pidfile "$work/qemu.pid" > "$log.qemu" 2>&1
		echo $? > "$work/qemu.rc"
	) 2> /dev/null &
	qpid=$!
}
lab_qemu_pid() { cat "$work/qemu.pid" 2> /dev/null; }
lab_running() { [ -n "$qpid" ] && jobs -rp | grep -qx "$qpid"; }
lab_stop() {
	local p
	p=$(lab_qemu_pid)
	if [ -n "$p" ]; then
		kill "$p" 2> /dev/null
		sleep 1
		kill -9 "$p" 2> /dev/null
	fi
	wait "$qpid" 2> /dev/null
	qpid=''
}

# lab_accel PROBELOG: $used_accel from $accel: kvm, tcg, or auto: a probe boot under KVM
# (refault.probe=1, 20 s at most) and TCG when it does not reach init.  Sets $accel_name.
lab_accel() {
	local plog=$1 t0 why
	used_accel=tcg
	probe_s=
	if [ "$accel" = kvm ]; then
		used_accel=kvm
	elif [ "$accel" = auto ]; then
		if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
			used_accel=kvm
			t0=$SECONDS
			lab_boot "$plog" "refault.probe=1" ""
			while lab_running && [ $((SECONDS - t0)) -lt "${probe_timeout:-20}" ] &&
				! grep -q '^refault-lab: probe ok' "$plog"; do
				sleep 0.5
			done
			probe_s=$((SECONDS - t0))
			if grep -q '^refault-lab: probe ok' "$plog"; then
				lab_say "KVM probe: reached init in ${probe_s} s: using KVM"
				wait "$qpid" 2> /dev/null
				qpid=''
			else
				lab_stop
				why=$(grep -v '^$' "$plog.qemu" | tail -n 2 | tr '\n' ' ')
				lab_say "KVM probe: no init within ${probe_s} s${why:+ (qemu: $why)};" \
					"console: $plog: using TCG"
				used_accel=tcg
			fi
		else
			lab_say "no read-write /dev/kvm: using TCG"
		fi
	fi
	accel_name=$used_accel
	[ "$used_accel" = kvm ] || accel_name="tcg (thread=$tcg_threads)"
}

# lab_wait LOG BUDGET: until qemu exits, or BUDGET seconds from $t_boot (then it is killed and
# $failed_why says so); lab_progress's lines as the console gives them.  Then $failed_why and
# $crashed say how the guest ended: never reached init, said "fail", or stopped before "done"
# (an oops, a panic: $crashed=1).
lab_wait() {
	local log=$1 budget=$2 qst
	seen_lines=0 t_init='' failed_why='' crashed=''
	while lab_running; do
		if [ $((SECONDS - t_boot)) -ge "$budget" ]; then
			lab_stop
			failed_why="the guest did not finish within --budget $budget s"
			break
		fi
		sleep 1
		lab_progress "$log"
	done
	[ -z "$qpid" ] || wait "$qpid"
	qpid=''
	qst=$(cat "$work/qemu.rc" 2> /dev/null || echo "killed")
	lab_progress "$log"
	t_qemu=$((SECONDS - t_boot))
	[ -z "$failed_why" ] || return 0
	if ! grep -aq '^refault-lab: init' "$log"; then
		failed_why="the guest never reached init (qemu exit $qst; $log.qemu)"
		crashed=$(grep -a -m 1 -e 'Kernel panic' -e 'Oops' -e 'BUG:' "$log" |
			sed 's/^\[[ 0-9.]*\] //')
		[ -z "$crashed" ] || failed_why="$failed_why: $crashed"
		crashed=''
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
}

# lab_progress LOG: the marker lines of the console not shown yet.
lab_progress() {
	local log=$1 n
	n=$(wc -l < "$log")
	[ "$n" -gt "$seen_lines" ] || return 0
	sed -n "$((seen_lines + 1)),${n}p" "$log" | grep -a '^refault-lab: ' |
		grep -av '^refault-lab: info ' | while read -r _ what rest; do
			exec >&2	# progress, as every message of the lab, on stderr
			case $what in
			init) echo "lab: [$((SECONDS - t_boot)) s] init reached: $rest";;
			case|job) case $rest in *' end '*) echo "lab: [$((SECONDS - t_boot)) s] $what $rest";; esac;;
			err) echo "lab:   $rest";;
			*) echo "lab: [$((SECONDS - t_boot)) s] $what $rest";;
			esac
		done
	[ -n "$t_init" ] || ! grep -aq '^refault-lab: init' "$log" || t_init=$((SECONDS - t_boot))
	seen_lines=$n
}

# lab_extract LOG DISK DIR: the guest's /out into DIR/out (the journal replayed first when the
# guest did not unmount: debugfs reads the image as it is).  1 with $extract_why on failure.
lab_extract() {
	local log=$1 disk=$2 x=$3
	rm -rf "$x"
	mkdir -p "$x" || return 1
	if ! grep -aq '^refault-lab: done' "$log"; then
		e2fsck -p -E journal_only "$disk" > "$work/e2fsck.log" 2>&1
		if [ $? -ge 4 ]; then
			extract_why="e2fsck -E journal_only $disk: $(tail -n 2 "$work/e2fsck.log")"
			return 1
		fi
	fi
	if ! debugfs -R "rdump /out $x" "$disk" > "$work/debugfs.log" 2>&1 || [ ! -d "$x/out" ]; then
		extract_why="debugfs -R 'rdump /out $x' $disk failed: $(tail -n 3 "$work/debugfs.log")"
		return 1
	fi
}

# lab_kallsyms DIR: the guest's /proc/kallsyms in DIR, its filemap symbols added to
# DIR/guest-info.txt, compressed.
lab_kallsyms() {
	[ -e "$1/kallsyms" ] || return 0
	set -- "$1" -e filemap_get_pages -e filemap_read -e filemap_fault -e filemap_map_pages
	{ echo "\$ grep -w ${*:2} /proc/kallsyms"; grep -w "${@:2}" "$1/kallsyms"; } >> "$1/guest-info.txt"
	gzip -f "$1/kallsyms"
}
