/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * User call stacks of the recorded tasks (`refault record --call-graph dwarf`),
 * captured as `perf record --call-graph dwarf` captures them: the user
 * registers and a copy of the top of the user stack at each sample
 * (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER), unwound after the fact
 * with libunwind's remote interface against the tasks' mapped ELF files
 * (unwind.c), named with elfutils' libdwfl (symbols.c), and attached to
 * the references by perfstack.c.  x86-64 only.
 */
#ifndef REFAULT_RECORDER_STACKS_H
#define REFAULT_RECORDER_STACKS_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel's enum perf_event_x86_regs (arch/x86/include/uapi/asm/perf_regs.h). */
enum rf_ureg {
	RF_UREG_AX, RF_UREG_BX, RF_UREG_CX, RF_UREG_DX, RF_UREG_SI, RF_UREG_DI,
	RF_UREG_BP, RF_UREG_SP, RF_UREG_IP, RF_UREG_FLAGS, RF_UREG_CS, RF_UREG_SS,
	RF_UREG_DS, RF_UREG_ES, RF_UREG_FS, RF_UREG_GS,
	RF_UREG_R8, RF_UREG_R9, RF_UREG_R10, RF_UREG_R11, RF_UREG_R12, RF_UREG_R13,
	RF_UREG_R14, RF_UREG_R15,
	RF_UREG_NR
};

/*
 * The registers perf is asked for (sample_regs_user): the sixteen general
 * registers, ip and flags.  The kernel writes them in bit order.
 */
#define RF_UREG_MASK	((1ull << RF_UREG_R15 << 1) - 1 - \
			 (1ull << RF_UREG_CS) - (1ull << RF_UREG_SS) - (1ull << RF_UREG_DS) - \
			 (1ull << RF_UREG_ES) - (1ull << RF_UREG_FS) - (1ull << RF_UREG_GS))

/* One user sample: where a thread was in user space when it entered the kernel. */
struct rf_user_sample {
	uint64_t regs[RF_UREG_NR];	/* those in RF_UREG_MASK; the others 0 */
	const uint8_t *stack;		/* a copy of the user stack from regs[RF_UREG_SP] up */
	uint64_t stack_size;		/* bytes at @stack (perf's dyn_size) */
};

/* How an unwind ended. */
enum rf_unwind_end {
	RF_UNWIND_COMPLETE,	/* reached the outermost frame (no return address) */
	RF_UNWIND_TRUNCATED,	/* the copied stack or the frame limit ran out */
	RF_UNWIND_FAILED,	/* no unwind information for a frame, or a bad address */
};

/* One frame: where in which mapped file. */
struct rf_uframe {
	uint64_t ip;		/* absolute address; for callers the return address - 1 */
	const char *path;	/* the mapped file, owned by the unwinder; NULL: not file-backed */
	uint64_t vaddr;		/* @ip as an address of the ELF file (its symbol table's space) */
};

struct rf_unwinder;

/* NULL on ENOMEM. */
struct rf_unwinder *rec_unwinder_new(void);
void rec_unwinder_free(struct rf_unwinder *u);

/*
 * Unwinds @s, a sample of a thread of process @tgid, innermost frame first,
 * into at most @max frames; returns their number (0 when not even the first
 * is known) and says in *@end why it stopped.  The mappings of a process
 * not begun while recording (rec_unwinder_fork(), rec_unwinder_exec()) are
 * read from /proc/@tgid/maps on first use and again when an address is in
 * none of them; the mapped files are opened by path.  Frame paths stay valid
 * until rec_unwinder_free().
 */
unsigned int rec_unwind(struct rf_unwinder *u, int32_t tgid, const struct rf_user_sample *s,
			struct rf_uframe *frames, unsigned int max, enum rf_unwind_end *end);

/* Whatever is known of @tgid's mappings is no longer true. */
void rec_unwinder_forget(struct rf_unwinder *u, int32_t tgid);

/*
 * The life of a process, as the kernel reported it (PERF_RECORD_FORK,
 * PERF_RECORD_COMM with COMM_EXEC, PERF_RECORD_EXIT), at @time:
 * - fork: @child has what @parent has mapped (the parent as /proc tells,
 *   if it was not known before): a child that exits before its samples
 *   are unwound is still unwound in its parent's image.
 * - exec: @tgid has what is reported mapped after this.
 * A process begun so has its mappings from these reports alone, never from
 * /proc/@tgid/maps, which by its unwind may show a later exec's image.
 * - exit: @tgid is forgotten, unless it is a process that took the pid
 *   after @time (a fork or exec after it).
 */
void rec_unwinder_fork(struct rf_unwinder *u, int32_t parent, int32_t child, uint64_t time);
void rec_unwinder_exec(struct rf_unwinder *u, int32_t tgid, uint64_t time);
void rec_unwinder_exit(struct rf_unwinder *u, int32_t tgid, uint64_t time);

/* A mapping made while recording, as the kernel reported it (PERF_RECORD_MMAP2). */
struct rf_umap {
	uint64_t start, len;	/* bytes */
	uint64_t pgoff;		/* bytes into the file */
	uint64_t dev;		/* major << 32 | minor, as /proc/PID/maps gives them */
	uint64_t ino;
	const char *path;	/* a file's path, "[vdso]", or NULL */
	bool writable;
};

/*
 * @tgid mapped @m: it replaces what the process had there.  A process first
 * seen this way still has its /proc/@tgid/maps read, if it is alive, for
 * what it mapped before; one that has exited by the time its samples are
 * unwound (a short command) is unwound in what it mapped.
 */
void rec_unwinder_map(struct rf_unwinder *u, int32_t tgid, const struct rf_umap *m);

/* A frame's name, as far as the file's symbol table and debug information tell. */
struct rf_symbol {
	const char *symbol;	/* function name, NULL when unknown */
	uint64_t offset;	/* vaddr - the symbol's start */
	const char *file;	/* source file, NULL when there is no line information */
	uint32_t line;		/* 0 when unknown */
	const char *build_id;	/* lowercase hex of NT_GNU_BUILD_ID, NULL when the file has none */
};

struct rf_symbols;

struct rf_symbols *rec_symbols_new(void);
void rec_symbols_free(struct rf_symbols *sy);

/*
 * Names @vaddr of the ELF file @path; returns false when the file cannot be
 * read as ELF (then *@out is all NULL/0).  The strings stay valid until
 * rec_symbols_free().
 */
bool rec_symbols_lookup(struct rf_symbols *sy, const char *path, uint64_t vaddr,
			struct rf_symbol *out);

/*
 * @vaddr of @path as the frames the compiler folded into it, innermost
 * first, as perf report shows them: out[0] the function inlined deepest
 * (the DW_TAG_inlined_subroutine scopes of the debug information), at
 * @vaddr's line; each next one the function it was inlined into, at the
 * line of that call (DW_AT_call_file, DW_AT_call_line); the last the
 * symbol table's function, as rec_symbols_lookup() names it, at the call
 * of the outermost inlined one.  Returns how many (1 where nothing is
 * inlined or there is no debug information, 0 when the file cannot be
 * read as ELF), at most @max (the outer ones are kept).
 */
unsigned int rec_symbols_inlined(struct rf_symbols *sy, const char *path, uint64_t vaddr,
				 struct rf_symbol *out, unsigned int max);

#endif
