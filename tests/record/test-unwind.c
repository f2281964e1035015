/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * recorder/unwind.c and recorder/symbols.c on a sample of this very
 * process, taken as perf takes one (the registers, a copy of the stack from
 * SP up) in a known call chain outer_fn -> middle_fn -> inner_fn, built at
 * the project's -O2 without frame pointers: the unwind must come from the
 * DWARF CFI of .eh_frame.  Then samples that cannot unwind: a garbage ip, an
 * ip in anonymous memory, no stack, a short stack, a truncated ELF file that
 * was deleted after it was mapped.  Then a process's life as the kernel
 * reports it (fork, exec, exit), and samples where no FDE is: ld.so's entry
 * point and the first instruction of _init.  No privileges needed.
 */
#include "config.h"

#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "recorder/stacks.h"
#include "tests/lib/tap.h"

#define STACK_COPY	(16u << 10)
#define MAX_FRAMES	64

static struct rf_user_sample sample;
static uint8_t stack_copy[STACK_COPY];

int outer_fn(int x);
int middle_fn(int x);
int inner_fn(int x);

/* The end of the mapping holding @addr, from /proc/self/maps; 0 if none. */
static uint64_t map_end(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uint64_t start, end, ret = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 &&
		    start <= addr && addr < end) {
			ret = end;
			break;
		}
	fclose(f);
	return ret;
}

/*
 * What the kernel does for perf: a plain copy of the stack, live frames,
 * dead ones and AddressSanitizer's redzones alike (hence not memcpy()).
 */
__attribute__((no_sanitize_address)) static void copy_stack(uint8_t *to, uint64_t sp, uint64_t size)
{
	const volatile uint64_t *from = (const volatile uint64_t *)(uintptr_t)sp;
	uint64_t i;

	for (i = 0; i < size / 8; i++)
		memcpy(to + 8 * i, &(uint64_t){ from[i] }, 8);
}

/*
 * Fills @sample with the registers at the label in the asm and the stack
 * above SP.  The registers' values there are what the CFI describes at that
 * ip, whichever of them the compiler gave the asm's operand.
 */
__attribute__((noinline)) int inner_fn(int x)
{
	uint64_t *r = sample.regs, sp, end;
	volatile int work = x;

	__asm__ volatile(
		"movq %%rax, 0(%0)\n\t"
		"movq %%rbx, 8(%0)\n\t"
		"movq %%rcx, 16(%0)\n\t"
		"movq %%rdx, 24(%0)\n\t"
		"movq %%rsi, 32(%0)\n\t"
		"movq %%rdi, 40(%0)\n\t"
		"movq %%rbp, 48(%0)\n\t"
		"movq %%rsp, 56(%0)\n\t"
		"movq %%r8, 128(%0)\n\t"
		"movq %%r9, 136(%0)\n\t"
		"movq %%r10, 144(%0)\n\t"
		"movq %%r11, 152(%0)\n\t"
		"movq %%r12, 160(%0)\n\t"
		"movq %%r13, 168(%0)\n\t"
		"movq %%r14, 176(%0)\n\t"
		"movq %%r15, 184(%0)\n\t"
		"pushfq\n\t"
		"popq 72(%0)\n\t"
		"leaq 1f(%%rip), %%rax\n"
		"1:\n\t"
		"movq %%rax, 64(%0)\n\t"
		: : "r"(r) : "rax", "memory", "cc");
	sp = sample.regs[RF_UREG_SP];
	end = map_end(sp);
	sample.stack_size = end > sp ? (end - sp < STACK_COPY ? end - sp : STACK_COPY) : 0;
	copy_stack(stack_copy, sp, sample.stack_size);
	sample.stack = stack_copy;
	return work * 3 + 1;
}

__attribute__((noinline)) int middle_fn(int x)
{
	volatile int work = inner_fn(x + 1);

	return work * 5 + x;
}

__attribute__((noinline)) int outer_fn(int x)
{
	volatile int work = middle_fn(x * 2);

	return work * 7 - x;
}

/* The hex build id of this program, from its PT_NOTE; "" if it has none. */
static char self_build_id[128];

static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	(void)arg;
	/* the first object is the program itself */
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		size_t off = 0;

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(p + off);
			const uint8_t *name = p + off + sizeof(*nh);
			const uint8_t *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && nh->n_descsz * 2 < sizeof(self_build_id)) {
				for (unsigned int j = 0; j < nh->n_descsz; j++)
					sprintf(self_build_id + 2 * j, "%02x", desc[j]);
				return 1;
			}
			off += sizeof(*nh) + ((nh->n_namesz + 3) & ~3u) + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;
}

static const char *end_name(enum rf_unwind_end e)
{
	return e == RF_UNWIND_COMPLETE ? "complete" : e == RF_UNWIND_TRUNCATED ? "truncated" : "failed";
}

/* Where in @names the frames' symbols are, in order; the frame index of the last found. */
static int frames_in_order(struct rf_symbols *sy, const struct rf_uframe *f, unsigned int n,
			   const char *const *names, unsigned int nr_names, struct rf_symbol *inner)
{
	unsigned int i, next = 0;
	int last = -1;

	for (i = 0; i < n && next < nr_names; i++) {
		struct rf_symbol s;

		if (!f[i].path || !rec_symbols_lookup(sy, f[i].path, f[i].vaddr, &s) || !s.symbol)
			continue;
		if (strstr(s.symbol, names[next])) {
			if (!next)
				*inner = s;
			next++;
			last = (int)i;
		}
	}
	return next == nr_names ? last : -1;
}

/* The sample of outer_fn -> middle_fn -> inner_fn, unwound into @f; their number. */
static unsigned int test_self(struct rf_unwinder *u, struct rf_symbols *sy, struct rf_uframe *f)
{
	static const char *const names[] = { "inner_fn", "middle_fn", "outer_fn", "main" };
	struct rf_symbol inner = { 0 };
	enum rf_unwind_end end;
	unsigned int i, n;
	int at_main;

	n = rec_unwind(u, getpid(), &sample, f, MAX_FRAMES, &end);
	for (i = 0; i < n; i++) {
		struct rf_symbol s;
		bool named = f[i].path && rec_symbols_lookup(sy, f[i].path, f[i].vaddr, &s);

		diag("#%u %#" PRIx64 " %s+%#" PRIx64 " %s+%#" PRIx64 " %s:%u", i, f[i].ip,
		     f[i].path ? f[i].path : "?", f[i].vaddr, named && s.symbol ? s.symbol : "?",
		     named ? s.offset : 0, named && s.file ? s.file : "?", named ? s.line : 0);
	}
	diag("%u frames, %s", n, end_name(end));
	ok(n >= 4, "at least 4 frames (%u)", n);
	at_main = frames_in_order(sy, f, n, names, 4, &inner);
	ok(at_main >= 0, "inner_fn, middle_fn, outer_fn, main in order");
	ok(end == RF_UNWIND_COMPLETE || (at_main >= 0 && (unsigned int)at_main < n),
	   "complete, or main reached (%s)", end_name(end));
	is_int(f[0].ip, sample.regs[RF_UREG_IP], "the first frame is the sampled ip, exactly");
	ok(inner.file && strstr(inner.file, "test-unwind.c"), "inner_fn's line is in test-unwind.c (%s:%u)",
	   inner.file ? inner.file : "(null)", inner.line);
	ok(inner.line > 0, "with a line number");
	dl_iterate_phdr(find_build_id, NULL);
	if (self_build_id[0])
		is_str(inner.build_id, self_build_id, "the program's build id");
	else
		ok(!inner.build_id, "no build id, as the program has none");
	return n;
}

static void test_limits(struct rf_unwinder *u)
{
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	unsigned int n;

	n = rec_unwind(u, getpid(), &s, f, 2, &end);
	ok(n == 2 && end == RF_UNWIND_TRUNCATED, "2 frames at most: 2, truncated (%u, %s)", n,
	   end_name(end));
	s.stack_size = 0;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n <= 1, "no stack: at most the first frame (%u)", n);
	is_int(end, RF_UNWIND_TRUNCATED, "no stack: truncated");
	s.stack_size = 24;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n >= 1 && n < 4 && end == RF_UNWIND_TRUNCATED, "24 bytes of stack: truncated (%u, %s)", n,
	   end_name(end));
	n = rec_unwind(u, getpid(), &s, f, 0, &end);
	is_int(n, 0, "no room for frames: none");
}

static void test_bad_ip(struct rf_unwinder *u)
{
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	unsigned int n;
	void *anon;

	s.regs[RF_UREG_IP] = 0x10;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 0 || end == RF_UNWIND_FAILED, "garbage ip: failed (%u, %s)", n, end_name(end));
	ok(n == 0 || !f[0].path, "garbage ip: no file");
	s.regs[RF_UREG_IP] = 0;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 0 && end == RF_UNWIND_FAILED, "ip 0: no frames, failed");

	anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		skip(2, "no anonymous mapping");
		return;
	}
	memset(anon, 0xc3, 4096);
	s.regs[RF_UREG_IP] = (uint64_t)(uintptr_t)anon + 100;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 1 && end == RF_UNWIND_FAILED, "anonymous code: one frame, failed (%u, %s)", n,
	   end_name(end));
	ok(n == 1 && !f[0].path && f[0].ip == s.regs[RF_UREG_IP], "its frame has no file");
	munmap(anon, 4096);
}

/*
 * The first function of our [vdso], from its .eh_frame_hdr table (the
 * encodings every linker writes: eh_frame_ptr pcrel sdata4, fde_count
 * udata4, table datarel sdata4); 0 if there is none.
 */
static uint64_t vdso_function(void)
{
	const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;
	int i;

	if (!base)
		return 0;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		const uint8_t *h = base + ph[i].p_vaddr;
		uint32_t count;
		int32_t loc;

		if (ph[i].p_type != PT_GNU_EH_FRAME)
			continue;
		if (h[0] != 1 || h[1] != 0x1b || h[2] != 0x03 || h[3] != 0x3b)
			return 0;
		memcpy(&count, h + 8, 4);
		memcpy(&loc, h + 12, 4);
		return count ? (uint64_t)(uintptr_t)h + (uint64_t)(int64_t)loc : 0;
	}
	return 0;
}

/*
 * A sample at the entry of a [vdso] function called from middle_fn: its
 * CFI (CFA = SP + 8, the return address at SP) leads to middle_fn, whose
 * frame is not in the 8 bytes of stack.
 */
static void test_vdso(struct rf_unwinder *u, const struct rf_uframe *real, unsigned int nr_real)
{
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	uint64_t ret, entry = vdso_function();
	unsigned int n;

	if (!entry || nr_real < 2) {
		skip(3, "no [vdso] with an .eh_frame_hdr");
		return;
	}
	ret = real[1].ip + 1;
	s.regs[RF_UREG_IP] = entry;
	s.stack = (const uint8_t *)&ret;
	s.stack_size = sizeof(ret);
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n >= 1 && !f[0].path && f[0].ip == entry, "[vdso] frame: no file (%u frames)", n);
	ok(n == 2 && f[1].ip == real[1].ip && f[1].path && !strcmp(f[1].path, real[1].path),
	   "unwound through the [vdso]'s CFI into middle_fn");
	is_int(end, RF_UNWIND_TRUNCATED, "then the 8 bytes of stack ran out");
}

extern void _init(void);	/* crti.o's, the program's DT_INIT: no FDE */

/*
 * A sample at the first instruction of the program's _init, called from
 * middle_fn: it has no CFI, but at a function's first instruction the
 * return address is at SP, which leads to middle_fn.
 */
static void test_init(struct rf_unwinder *u, const struct rf_uframe *real, unsigned int nr_real)
{
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	uint64_t ret;
	unsigned int n;

	if (nr_real < 2) {
		skip(1, "no frame to return to");
		return;
	}
	ret = real[1].ip + 1;
	s.regs[RF_UREG_IP] = (uint64_t)(uintptr_t)_init;
	s.stack = (const uint8_t *)&ret;
	s.stack_size = sizeof(ret);
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 2 && f[0].ip == s.regs[RF_UREG_IP] && f[1].ip == real[1].ip &&
	   end == RF_UNWIND_TRUNCATED,
	   "a sample at _init's first instruction: into middle_fn by the return address at SP "
	   "(%u frames, %s)", n, end_name(end));
}

/* Whether the symbols of a file holding the first 64 bytes of @elf are found. */
static bool header_only(struct rf_symbols *sy, const uint8_t *elf)
{
	char path[] = "/tmp/refault-test-unwind-XXXXXX";
	struct rf_symbol sym;
	int fd = mkstemp(path);
	bool found;

	if (fd < 0)
		return false;
	found = write(fd, elf, 64) != 64 || rec_symbols_lookup(sy, path, 0x1000, &sym) || sym.build_id;
	close(fd);
	unlink(path);
	return found;
}

/* The first 8 KiB of this program: named, and mapped executable then deleted. */
static void test_truncated_elf(struct rf_unwinder *u, struct rf_symbols *sy)
{
	char path[] = "/tmp/refault-test-unwind-XXXXXX";
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	struct rf_symbol sym;
	enum rf_unwind_end end;
	uint8_t buf[8192];
	int fd = mkstemp(path), self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t len = self >= 0 ? read(self, buf, sizeof(buf)) : -1;
	unsigned int n;
	void *p;

	if (self >= 0)
		close(self);
	if (fd < 0 || len != (ssize_t)sizeof(buf) || write(fd, buf, sizeof(buf)) != len) {
		if (fd >= 0)
			unlink(path);
		skip(5, "no temporary copy of the program");
		return;
	}
	/* its headers are there, its symbol table and debug information not */
	if (rec_symbols_lookup(sy, path, 0x1000, &sym))
		ok(!sym.build_id || !strcmp(sym.build_id, self_build_id),
		   "symbols of a truncated ELF file: at most the build id (%s)",
		   sym.build_id ? sym.build_id : "none");
	else
		ok(!sym.symbol && !sym.build_id, "symbols of a truncated ELF file: no");
	ok(!header_only(sy, buf), "symbols of an ELF header alone: no");
	p = mmap(NULL, sizeof(buf), PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	unlink(path);
	if (p == MAP_FAILED) {
		skip(3, "cannot map the copy executable");
		return;
	}
	s.regs[RF_UREG_IP] = (uint64_t)(uintptr_t)p + 4196;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 1 && end == RF_UNWIND_FAILED, "ip in a truncated, deleted ELF file: failed (%u, %s)",
	   n, end_name(end));
	ok(n == 1 && f[0].path && strstr(f[0].path, "refault-test-unwind-"),
	   "its frame names the file (%s)", n && f[0].path ? f[0].path : "(null)");
	rec_unwinder_forget(u, getpid());
	n = rec_unwind(u, getpid(), &sample, f, MAX_FRAMES, &end);
	ok(n >= 4, "forgotten, then unwound again from fresh maps (%u frames)", n);
	munmap(p, sizeof(buf));
}

/* Tell @u every mapping of this process, as PERF_RECORD_MMAP2 would; how many. */
static unsigned int report_own_maps(struct rf_unwinder *u)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4352], perms[8], path[4096];
	unsigned int nr = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		struct rf_umap m;

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, path) < 7)
			continue;
		m = (struct rf_umap){ .start = start, .len = end - start, .pgoff = pgoff,
				      .dev = (uint64_t)maj << 32 | min, .ino = ino,
				      .path = path[0] ? path : NULL, .writable = perms[1] == 'w' };
		rec_unwinder_map(u, getpid(), &m);
		nr++;
	}
	if (f)
		fclose(f);
	return nr;
}

/*
 * A process's life as the kernel reports it: a forked child that is gone
 * unwinds in its parent's mappings until its exit; an exec'd process has
 * only what is reported mapped after the exec, never /proc's.
 */
static void test_lifecycle(struct rf_unwinder *u)
{
	const int32_t gone = 2147480000;	/* above any pid_max: no /proc/PID */
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	unsigned int n, nr;

	rec_unwinder_fork(u, getpid(), gone, 100);
	n = rec_unwind(u, gone, &sample, f, MAX_FRAMES, &end);
	ok(n >= 4 && f[0].path, "a forked child that is gone: unwound in its parent's mappings "
	   "(%u frames, %s)", n, end_name(end));
	rec_unwinder_exit(u, gone, 99);
	n = rec_unwind(u, gone, &sample, f, MAX_FRAMES, &end);
	ok(n >= 4, "the exit of the pid's process before that fork leaves it be (%u frames)", n);
	rec_unwinder_exit(u, gone, 100);
	n = rec_unwind(u, gone, &sample, f, MAX_FRAMES, &end);
	ok(n <= 1 && end == RF_UNWIND_FAILED, "its own exit forgets it (%u, %s)", n, end_name(end));

	rec_unwinder_exec(u, getpid(), 200);
	n = rec_unwind(u, getpid(), &sample, f, MAX_FRAMES, &end);
	ok(n <= 1 && end == RF_UNWIND_FAILED && (!n || !f[0].path),
	   "exec'd, nothing reported mapped yet: /proc is not read (%u, %s)", n, end_name(end));
	nr = report_own_maps(u);
	n = rec_unwind(u, getpid(), &sample, f, MAX_FRAMES, &end);
	ok(n >= 4, "... then unwound in the %u mappings reported (%u frames, %s)", nr, n,
	   end_name(end));
	rec_unwinder_forget(u, getpid());
}

/*
 * ld.so's entry point has no FDE (glibc's RTLD_START): a sample there is
 * at the outermost frame, not a failed unwind.
 */
static void test_entry(struct rf_unwinder *u)
{
	const ElfW(Ehdr) *ld = (const ElfW(Ehdr) *)getauxval(AT_BASE);
	struct rf_user_sample s = sample;
	struct rf_uframe f[MAX_FRAMES];
	enum rf_unwind_end end;
	unsigned int n;

	if (!ld || memcmp(ld->e_ident, ELFMAG, SELFMAG)) {
		skip(1, "no program interpreter");
		return;
	}
	s.regs[RF_UREG_IP] = (uint64_t)(uintptr_t)ld + ld->e_entry;
	n = rec_unwind(u, getpid(), &s, f, MAX_FRAMES, &end);
	ok(n == 1 && end == RF_UNWIND_COMPLETE && f[0].path,
	   "a sample at the interpreter's entry point: one frame, complete (%u, %s, %s)", n,
	   end_name(end), n && f[0].path ? f[0].path : "(null)");
}

static void test_not_elf(struct rf_symbols *sy)
{
	struct rf_symbol s;

	ok(!rec_symbols_lookup(sy, "/nonexistent/refault", 0x1000, &s) && !s.symbol && !s.file,
	   "symbols of a missing file: no");
	ok(!rec_symbols_lookup(sy, "/proc/self/maps", 0x1000, &s), "symbols of a text file: no");
	if (access(__FILE__, R_OK) == 0)
		ok(!rec_symbols_lookup(sy, __FILE__, 0x10, &s),
		   "symbols of this test's source: no");
	else
		ok(!rec_symbols_lookup(sy, "/etc/hostname", 0x10, &s), "symbols of /etc/hostname: no");
	ok(!rec_symbols_lookup(sy, "/dev/null", 0, &s), "symbols of /dev/null: no");
}

int main(int argc, char **argv)
{
	struct rf_uframe real[MAX_FRAMES];
	struct rf_unwinder *u;
	struct rf_symbols *sy;
	unsigned int nr_real;
	volatile int r;

	(void)argv;
	plan(36);
	r = outer_fn(argc);
	(void)r;
	u = rec_unwinder_new();
	sy = rec_symbols_new();
	if (!u || !sy) {
		ok(0, "rec_unwinder_new, rec_symbols_new");
		return done_testing();
	}
	nr_real = test_self(u, sy, real);
	test_limits(u);
	test_vdso(u, real, nr_real);
	test_init(u, real, nr_real);
	test_bad_ip(u);
	test_truncated_elf(u, sy);
	test_lifecycle(u);
	test_entry(u);
	test_not_elf(sy);
	rec_unwinder_free(u);
	rec_symbols_free(sy);
	return done_testing();
}
