/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unwinding a recorded user stack after the fact: libunwind's remote
 * interface, fed the sample's registers and stack copy, and the mapped ELF
 * files' own bytes for everything else it reads (.eh_frame_hdr's search
 * table, the FDEs and CIEs of .eh_frame, code it looks at).  The approach is
 * perf's (tools/perf/util/unwind-libunwind-local.c); x86-64 only.
 *
 * Per process: its /proc/TGID/maps and one libunwind address space (whose
 * cache is only valid for one process's layout).  Per unwinder: every file
 * ever mapped, opened and parsed once, by (path, device, inode); the frames'
 * paths are those files' names, so they outlive a re-read of the maps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <libunwind.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "recorder/stacks.h"

/* Not in libunwind.h, but exported: the binary search of an .eh_frame_hdr table. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

/* The pointer encodings of .eh_frame_hdr (LSB 5.0, "DWARF Exception Header Encoding"). */
#define DW_EH_PE_absptr		0x00
#define DW_EH_PE_udata2		0x02
#define DW_EH_PE_udata4		0x03
#define DW_EH_PE_udata8		0x04
#define DW_EH_PE_sdata2		0x0a
#define DW_EH_PE_sdata4		0x0b
#define DW_EH_PE_sdata8		0x0c
#define DW_EH_PE_datarel	0x30
#define DW_EH_PE_omit		0xff

/* One PT_LOAD: what of the file is at which vaddr. */
struct uw_load {
	uint64_t vaddr, offset, filesz, memsz;
};

/* A mapped ELF file, read once per unwinder. */
struct uw_elf {
	char *path;		/* as /proc/PID/maps names it: the frames' path */
	uint64_t dev, ino;	/* as /proc/PID/maps gives them */
	bool tried;		/* open and parse attempted */
	bool ok;		/* ... and it is an x86-64 ELF file with PT_LOADs */
	bool mapped;		/* @data is our mmap (not our own [vdso]) */
	const uint8_t *data;
	size_t size;
	struct uw_load *loads;
	size_t nr_loads;
	uint64_t lo, hi;	/* the PT_LOADs' vaddr extent */
	bool has_table;		/* an .eh_frame_hdr search table libunwind can use */
	uint64_t hdr_vaddr;	/* .eh_frame_hdr */
	uint64_t table_vaddr;	/* its table of (initial location, FDE) pairs */
	uint64_t fde_count;
	/*
	 * The entry point and the first FDE after it: code there without an
	 * FDE is the entry stub the kernel jumped to, the outermost frame
	 * (ld.so's _start has no CFI, glibc's sysdeps/x86_64/dl-machine.h
	 * RTLD_START); 0, 0 if unknown.
	 */
	uint64_t entry, entry_end;
	/*
	 * DT_INIT and DT_FINI: functions without an FDE (crti.o's _init and
	 * _fini), called by ld.so; 0 if none.  At their first instruction the
	 * return address is at SP, as at every function's (the x86-64 psABI).
	 */
	uint64_t init, fini;
};

struct uw_elf_key {
	const char *path;
	uint64_t dev, ino;
};

static uint64_t elf_key_hash(struct uw_elf_key k)
{
	return rf_hash2(rf_hash_str(k.path), rf_hash2(k.dev, k.ino));
}

#define ELF_KEY_EQ(a, b) ((a).dev == (b).dev && (a).ino == (b).ino && !strcmp((a).path, (b).path))
RF_HASHMAP_DEFINE(uw_elf_map, struct uw_elf_key, struct uw_elf *, elf_key_hash, ELF_KEY_EQ, 75)

enum uw_kind {
	UW_ANON,		/* anonymous, [heap], [stack], JIT code... */
	UW_FILE,		/* a file mapping */
	UW_VDSO,		/* [vdso] */
};

/* One line of /proc/PID/maps. */
struct uw_map {
	uint64_t start, end, pgoff;
	enum uw_kind kind;
	bool writable;
	struct uw_elf *elf;	/* UW_FILE, UW_VDSO */
	bool bias_tried, bias_ok;
	uint64_t bias;		/* absolute address = bias + ELF vaddr */
};

struct uw_proc {
	int32_t tgid;
	uint64_t since;		/* the fork or exec that began this image; 0: unknown */
	unw_addr_space_t as;	/* made at the first unwind: most forked children have none */
	struct uw_map *maps;	/* sorted, disjoint, as the kernel lists them */
	size_t nr_maps, cap_maps;
};

#define TGID_HASH(k) rf_hash64((uint32_t)(k))
RF_HASHMAP_DEFINE(uw_proc_map, int32_t, struct uw_proc *, TGID_HASH, RF_HASHMAP_EQ, 75)

struct rf_unwinder {
	struct uw_proc_map procs;
	struct uw_elf_map elves;
	struct uw_elf *vdso;	/* our own [vdso]: the same image as every 64-bit task's */
	uint64_t page_size;
	unw_accessors_t acc;
};

/* What the accessors of one rec_unwind() call see (libunwind's "arg"). */
struct uw_ctx {
	struct rf_unwinder *u;
	struct uw_proc *p;
	const struct rf_user_sample *s;
	const struct uw_map *stack_map;	/* the mapping holding SP, if known */
	bool reread;		/* the maps were re-read for this sample already */
	bool off_stack;		/* a read of the stack beyond the copy */
	bool no_info;		/* a frame without unwind information */
};

/* ---- ELF files ---- */

static void elf_unload(struct uw_elf *e)
{
	if (e->mapped)
		munmap((void *)e->data, e->size);
	free(e->loads);
	e->data = NULL;
	e->loads = NULL;
	e->nr_loads = 0;
	e->ok = e->mapped = e->has_table = false;
	e->entry = e->entry_end = 0;
	e->init = e->fini = 0;
}

static void elf_free(struct uw_elf *e)
{
	if (!e)
		return;
	elf_unload(e);
	free(e->path);
	free(e);
}

/* Bytes of the file at @vaddr, up to @len of them, or 0. */
static size_t elf_read(const struct uw_elf *e, uint64_t vaddr, void *buf, size_t len)
{
	size_t i;

	for (i = 0; i < e->nr_loads; i++) {
		const struct uw_load *l = &e->loads[i];
		uint64_t off, n;

		if (vaddr < l->vaddr || vaddr - l->vaddr >= l->filesz)
			continue;
		off = l->offset + (vaddr - l->vaddr);
		if (off >= e->size)
			return 0;
		n = RF_MIN(RF_MIN((uint64_t)len, l->filesz - (vaddr - l->vaddr)), e->size - off);
		memcpy(buf, e->data + off, n);
		return n;
	}
	return 0;
}

/* The size of a value of encoding @enc in .eh_frame_hdr; 0 for those it never uses. */
static unsigned int eh_enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	}
	return 0;
}

/*
 * The binary-search table of .eh_frame_hdr at file offset @off, @size bytes,
 * vaddr @vaddr.  libunwind reads its entries as pairs of datarel sdata4, so
 * a table in any other encoding is no use.
 */
static void elf_parse_eh_hdr(struct uw_elf *e, uint64_t off, uint64_t size, uint64_t vaddr)
{
	const uint8_t *h;
	unsigned int ptr_size, count_size;
	uint64_t count = 0;

	if (off >= e->size || size > e->size - off || size < 4)
		return;
	h = e->data + off;
	if (h[0] != 1 || h[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4) ||
	    h[1] == DW_EH_PE_omit || h[2] == DW_EH_PE_omit || (h[2] & 0x70))
		return;
	ptr_size = eh_enc_size(h[1]);
	count_size = eh_enc_size(h[2]);
	if (!ptr_size || !count_size || 4 + ptr_size + count_size > size)
		return;
	/* little-endian, and the count is unsigned in every encoding a linker writes */
	memcpy(&count, h + 4 + ptr_size, count_size);
	if (count > (size - 4 - ptr_size - count_size) / 8)
		return;
	e->hdr_vaddr = vaddr;
	e->table_vaddr = vaddr + 4 + ptr_size + count_size;
	e->fde_count = count;
	e->has_table = count > 0;
}

/*
 * e->entry_end: the first initial location in the search table above
 * e->entry (the table is sorted by it, LSB 5.0 "eh_frame_hdr"), or the end
 * of the image.  The table is read from the file's PT_LOADs.
 */
static void elf_find_entry_end(struct uw_elf *e)
{
	uint64_t lo = 0, hi = e->has_table ? e->fde_count : 0;
	int32_t loc;

	e->entry_end = e->entry ? e->hi : 0;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (elf_read(e, e->table_vaddr + mid * 8, &loc, sizeof(loc)) != sizeof(loc))
			return;
		if (e->hdr_vaddr + (uint64_t)(int64_t)loc <= e->entry) {
			lo = mid + 1;
		} else {
			e->entry_end = e->hdr_vaddr + (uint64_t)(int64_t)loc;
			hi = mid;
		}
	}
}

/* DT_INIT and DT_FINI of the PT_DYNAMIC at file offset @off, @size bytes. */
static void elf_parse_dynamic(struct uw_elf *e, uint64_t off, uint64_t size)
{
	uint64_t i, d[2];

	if (off >= e->size || size > e->size - off)
		return;
	for (i = 0; i + sizeof(d) <= size; i += sizeof(d)) {
		memcpy(d, e->data + off + i, sizeof(d));	/* Elf64_Dyn: d_tag, d_un */
		if (d[0] == DT_NULL)
			break;
		if (d[0] == DT_INIT)
			e->init = d[1];
		else if (d[0] == DT_FINI)
			e->fini = d[1];
	}
}

/* .eh_frame_hdr from the section headers, for a file without PT_GNU_EH_FRAME. */
static void elf_find_eh_hdr_section(struct uw_elf *e, Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame_hdr")) {
			elf_parse_eh_hdr(e, sh.sh_offset, sh.sh_size, sh.sh_addr);
			return;
		}
	}
}

/* The program headers of the image at e->data; false when it is no x86-64 ELF. */
static bool elf_parse(struct uw_elf *e)
{
	Elf *elf = elf_memory((char *)e->data, e->size);
	GElf_Ehdr eh;
	size_t i, phnum;
	bool eh_frame = false;

	if (!elf)
		return false;
	if (elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS64 ||
	    !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || elf_getphdrnum(elf, &phnum))
		goto fail;
	e->loads = calloc(phnum ? phnum : 1, sizeof(*e->loads));
	if (!e->loads)
		goto fail;
	e->lo = UINT64_MAX;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			goto fail;
		if (ph.p_type == PT_GNU_EH_FRAME && !eh_frame) {
			eh_frame = true;
			elf_parse_eh_hdr(e, ph.p_offset, ph.p_filesz, ph.p_vaddr);
		}
		if (ph.p_type == PT_DYNAMIC)
			elf_parse_dynamic(e, ph.p_offset, ph.p_filesz);
		if (ph.p_type != PT_LOAD || ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
			continue;
		e->loads[e->nr_loads++] = (struct uw_load){
			.vaddr = ph.p_vaddr, .offset = ph.p_offset,
			.filesz = ph.p_filesz, .memsz = ph.p_memsz,
		};
		e->lo = RF_MIN(e->lo, ph.p_vaddr);
		e->hi = RF_MAX(e->hi, ph.p_vaddr + ph.p_memsz);
	}
	if (!e->nr_loads)
		goto fail;
	if (!eh_frame)
		elf_find_eh_hdr_section(e, elf);
	if (eh.e_entry >= e->lo && eh.e_entry < e->hi) {
		e->entry = eh.e_entry;
		elf_find_entry_end(e);
	}
	elf_end(elf);
	return true;
fail:
	elf_end(elf);
	return false;
}

/*
 * The file of @m, mapped by @tgid: /proc/TGID/map_files/ is the very file
 * (even if since deleted or replaced) but needs privileges; the path is
 * good only if it still names the inode the process mapped.
 */
static int elf_open(const struct uw_elf *e, int32_t tgid, const struct uw_map *m)
{
	char mf[64], *path;
	struct stat st;
	size_t len;
	int fd;

	snprintf(mf, sizeof(mf), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)tgid,
		 m->start, m->end);
	fd = open(mf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	path = strdup(e->path);
	if (!path)
		return -1;
	len = strlen(path);
	if (len > 10 && !strcmp(path + len - 10, " (deleted)"))
		path[len - 10] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_ino != e->ino ||
	    ((uint64_t)major(st.st_dev) << 32 | minor(st.st_dev)) != e->dev) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Opens, maps and parses @e on first use; whether it is usable. */
static bool elf_load(struct uw_elf *e, int32_t tgid, const struct uw_map *m)
{
	struct stat st;
	void *p;
	int fd;

	if (e->tried)
		return e->ok;
	e->tried = true;
	fd = elf_open(e, tgid, m);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return false;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return false;
	e->data = p;
	e->size = (size_t)st.st_size;
	e->mapped = true;
	e->ok = elf_parse(e);
	if (!e->ok)
		elf_unload(e);
	return e->ok;
}

/*
 * Our own [vdso]: the kernel maps one image into every 64-bit process, so
 * its bytes here are the target's (map_elf() checks the sizes agree).
 */
static struct uw_elf *vdso_get(struct rf_unwinder *u)
{
	uint64_t base = getauxval(AT_SYSINFO_EHDR), start, end;
	struct uw_elf *e = u->vdso;
	char line[256];
	FILE *f;

	if (e)
		return e->ok ? e : NULL;
	e = u->vdso = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->tried = true;
	f = base ? fopen("/proc/self/maps", "re") : NULL;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") &&
		    sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2 && start == base) {
			e->data = (const uint8_t *)(uintptr_t)base;
			e->size = end - start;
			break;
		}
	fclose(f);
	e->ok = e->data && elf_parse(e);
	return e->ok ? e : NULL;
}

/* The cached file of (@path, @dev, @ino), added on first sight; NULL on ENOMEM. */
static struct uw_elf *elf_get(struct rf_unwinder *u, const char *path, uint64_t dev, uint64_t ino)
{
	struct uw_elf_key k = { .path = path, .dev = dev, .ino = ino };
	struct uw_elf **have = uw_elf_map_get(&u->elves, k), *e;

	if (have)
		return *have;
	e = calloc(1, sizeof(*e));
	if (e)
		e->path = strdup(path);
	if (!e || !e->path) {
		free(e);
		return NULL;
	}
	e->dev = dev;
	e->ino = ino;
	k.path = e->path;	/* the key must point at memory the map owns */
	if (uw_elf_map_put(&u->elves, k, e)) {
		elf_free(e);
		return NULL;
	}
	return e;
}

/* ---- processes and their mappings ---- */

static void proc_free(struct uw_proc *p)
{
	if (!p)
		return;
	if (p->as)
		unw_destroy_addr_space(p->as);
	free(p->maps);
	free(p);
}

/* (Re-)reads /proc/TGID/maps; false when it cannot be read (the process is gone). */
static bool proc_read_maps(struct rf_unwinder *u, struct uw_proc *p)
{
	char path[64], *line = NULL;
	struct uw_map *maps = NULL;
	size_t len = 0, nr = 0, cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->tgid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (getline(&line, &len, f) > 0) {
		struct uw_map m = { 0 };
		unsigned int maj, min;
		char perms[8];
		uint64_t ino;
		int name = 0;
		char *nl;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &m.start, &m.end, perms, &m.pgoff, &maj, &min, &ino, &name) < 7 ||
		    !name || m.end <= m.start)
			continue;
		nl = strchr(line + name, '\n');
		if (nl)
			*nl = '\0';
		m.writable = perms[1] == 'w';
		if (line[name] == '/' && ino) {
			m.kind = UW_FILE;
			m.elf = elf_get(u, line + name, (uint64_t)maj << 32 | min, ino);
			if (!m.elf)
				m.kind = UW_ANON;
		} else if (!strcmp(line + name, "[vdso]")) {
			m.kind = UW_VDSO;
			m.elf = vdso_get(u);
		}
		if (nr && m.start < maps[nr - 1].end)
			continue;
		if (RF_GROW(maps, cap, nr + 1))
			break;
		maps[nr++] = m;
	}
	free(line);
	fclose(f);
	/*
	 * A zombie's maps read empty: keep what is known (what the kernel
	 * reported as it was mapped), as for a process gone.
	 */
	if (!nr) {
		free(maps);
		return false;
	}
	free(p->maps);
	p->maps = maps;
	p->nr_maps = nr;
	p->cap_maps = cap;
	/* libunwind's cache holds what it found at addresses that may now be other files */
	if (p->as)
		unw_flush_cache(p->as, 0, 0);
	return true;
}

static struct uw_map *proc_find_map(struct uw_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nr_maps && p->maps[lo].start <= addr ? &p->maps[lo] : NULL;
}

/* The mapping of @addr; the maps are read again (once a sample) when none has it. */
static struct uw_map *ctx_find_map(struct uw_ctx *c, uint64_t addr)
{
	struct uw_map *m = proc_find_map(c->p, addr);

	/* a process begun while recording has its every mapping from the kernel's reports */
	if (m || c->reread || c->p->since)
		return m;
	c->reread = true;
	if (!proc_read_maps(c->u, c->p))
		return NULL;
	c->stack_map = proc_find_map(c->p, c->s->regs[RF_UREG_SP]);
	return proc_find_map(c->p, addr);
}

/*
 * The ELF file of @m and its load bias, from the PT_LOAD the mapping's file
 * offset falls in: absolute = m->start + (file offset - m->pgoff) and
 * vaddr = p_vaddr + (file offset - p_offset), whatever the offset.
 */
static const struct uw_elf *map_elf(struct rf_unwinder *u, int32_t tgid, struct uw_map *m)
{
	struct uw_elf *e = m->elf;
	size_t i;

	if (!e || (m->kind == UW_FILE && !elf_load(e, tgid, m)) || !e->ok ||
	    (m->kind == UW_VDSO && m->end - m->start != e->size))
		return NULL;
	if (!m->bias_tried) {
		m->bias_tried = true;
		for (i = 0; i < e->nr_loads; i++) {
			const struct uw_load *l = &e->loads[i];
			uint64_t first = l->offset & ~(u->page_size - 1);

			if (m->pgoff >= first && m->pgoff < l->offset + RF_MAX(l->filesz, 1)) {
				m->bias = m->start - m->pgoff + l->offset - l->vaddr;
				m->bias_ok = true;
				break;
			}
		}
	}
	return m->bias_ok ? e : NULL;
}

static struct uw_proc *proc_get(struct rf_unwinder *u, int32_t tgid)
{
	struct uw_proc **slot, *p;
	bool fresh;

	slot = uw_proc_map_slot(&u->procs, tgid, &fresh);
	if (!slot)
		return NULL;
	if (!fresh)
		return *slot;
	p = calloc(1, sizeof(*p));
	if (!p) {
		uw_proc_map_del(&u->procs, tgid, NULL);
		return NULL;
	}
	p->tgid = tgid;
	*slot = p;
	proc_read_maps(u, p);	/* a process gone by now still gets its first frame */
	return p;
}

/*
 * A new, empty @tgid that began at @since (a fork or exec while recording):
 * /proc/@tgid/maps, read later, may show a later image than its samples'.
 */
static struct uw_proc *proc_begin(struct rf_unwinder *u, int32_t tgid, uint64_t since)
{
	struct uw_proc *p = calloc(1, sizeof(*p));

	rec_unwinder_forget(u, tgid);	/* an older image, or a pid used again */
	if (!p)
		return NULL;
	p->tgid = tgid;
	p->since = since ? since : 1;
	if (uw_proc_map_put(&u->procs, tgid, p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* @p's libunwind address space, made on first use; false on ENOMEM. */
static bool proc_as(struct rf_unwinder *u, struct uw_proc *p)
{
	if (p->as)
		return true;
	p->as = unw_create_addr_space(&u->acc, 0);
	if (!p->as)
		return false;
	unw_set_caching_policy(p->as, UNW_CACHE_GLOBAL);
	return true;
}

/*
 * A mapping the kernel reported (PERF_RECORD_MMAP2): it replaces whatever
 * the process had there, as mmap(MAP_FIXED) does.  Known mappings are
 * trimmed; one that the new one falls inside is split.
 */
void rec_unwinder_map(struct rf_unwinder *u, int32_t tgid, const struct rf_umap *um)
{
	struct uw_proc *p = proc_get(u, tgid);
	struct uw_map m = { .start = um->start, .end = um->start + um->len, .pgoff = um->pgoff };
	size_t i, at;

	if (!p || !um->len || m.end < m.start)
		return;
	m.writable = um->writable;
	if (um->path && um->path[0] == '/' && um->ino) {
		m.kind = UW_FILE;
		m.elf = elf_get(u, um->path, um->dev, um->ino);
		if (!m.elf)
			m.kind = UW_ANON;
	} else if (um->path && !strcmp(um->path, "[vdso]")) {
		m.kind = UW_VDSO;
		m.elf = vdso_get(u);
	}
	/* room for the new mapping and the tail of one it splits */
	if (RF_GROW(p->maps, p->cap_maps, p->nr_maps + 2))
		return;
	for (i = 0; i < p->nr_maps;) {
		struct uw_map *o = &p->maps[i];

		if (o->end <= m.start || o->start >= m.end) {
			i++;
			continue;
		}
		if (o->start < m.start && o->end > m.end) {
			struct uw_map tail = *o;

			tail.pgoff += m.end - o->start;
			tail.start = m.end;
			o->end = m.start;
			memmove(&p->maps[i + 2], &p->maps[i + 1], (p->nr_maps - i - 1) * sizeof(*o));
			p->maps[i + 1] = tail;
			p->nr_maps++;
			i += 2;
		} else if (o->start < m.start) {
			o->end = m.start;
			i++;
		} else if (o->end > m.end) {
			/* start and file offset move together: the bias stays */
			o->pgoff += m.end - o->start;
			o->start = m.end;
			i++;
		} else {
			memmove(o, o + 1, (p->nr_maps - i - 1) * sizeof(*o));
			p->nr_maps--;
		}
	}
	for (at = 0; at < p->nr_maps && p->maps[at].start < m.start; at++)
		;
	memmove(&p->maps[at + 1], &p->maps[at], (p->nr_maps - at) * sizeof(m));
	p->maps[at] = m;
	p->nr_maps++;
	if (p->as)
		unw_flush_cache(p->as, 0, 0);
}

void rec_unwinder_fork(struct rf_unwinder *u, int32_t parent, int32_t child, uint64_t time)
{
	struct uw_proc *pp = proc_get(u, parent);	/* unknown until now: as /proc says */
	struct uw_proc *cp;

	if (!pp || parent == child)
		return;
	cp = proc_begin(u, child, time);
	if (!cp || !pp->nr_maps)
		return;
	cp->maps = malloc(pp->nr_maps * sizeof(*cp->maps));
	if (!cp->maps)
		return;
	/* the files and their biases are shared: the same mappings at the same places */
	memcpy(cp->maps, pp->maps, pp->nr_maps * sizeof(*cp->maps));
	cp->nr_maps = cp->cap_maps = pp->nr_maps;
}

void rec_unwinder_exec(struct rf_unwinder *u, int32_t tgid, uint64_t time)
{
	proc_begin(u, tgid, time);	/* the new image's mappings are reported next */
}

void rec_unwinder_exit(struct rf_unwinder *u, int32_t tgid, uint64_t time)
{
	struct uw_proc **p = u ? uw_proc_map_get(&u->procs, tgid) : NULL;

	/* not a process that took the pid after this one exited */
	if (p && (*p)->since <= time)
		rec_unwinder_forget(u, tgid);
}

/* ---- libunwind's accessors ---- */

static int acc_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			      int need_unwind_info, void *arg)
{
	struct uw_ctx *c = arg;
	struct uw_map *m = ctx_find_map(c, ip);
	const struct uw_elf *e = m ? map_elf(c->u, c->p->tgid, m) : NULL;
	unw_dyn_info_t di;
	int ret;

	if (!e || !e->has_table) {
		c->no_info = true;
		return -UNW_ENOINFO;
	}
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->bias + e->lo;
	di.end_ip = m->bias + e->hi;
	di.u.rti.segbase = m->bias + e->hdr_vaddr;
	di.u.rti.table_data = m->bias + e->table_vaddr;
	di.u.rti.table_len = e->fde_count * 8 / sizeof(unw_word_t);
	ret = dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
	if (ret < 0)
		c->no_info = true;
	return ret;
}

/* libunwind frees the unwind info dwarf_search_unwind_table() allocates itself. */
static void acc_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
}

static int acc_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	return -UNW_ENOINFO;
}

/*
 * A word of the target's memory: from the stack copy, or from the file
 * behind a read-only file mapping (what the process sees there unless it
 * wrote to a private copy, which code and unwind tables are not).
 */
static int acc_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write,
			  void *arg)
{
	struct uw_ctx *c = arg;
	uint64_t sp = c->s->regs[RF_UREG_SP];
	struct uw_map *m;
	const struct uw_elf *e;
	uint8_t buf[sizeof(*valp)] = { 0 };

	if (write)
		return -UNW_EINVAL;
	if (addr >= sp && addr - sp < c->s->stack_size &&
	    c->s->stack_size - (addr - sp) >= sizeof(*valp)) {
		memcpy(valp, c->s->stack + (addr - sp), sizeof(*valp));
		return 0;
	}
	if ((c->stack_map && addr >= c->stack_map->start && addr < c->stack_map->end) ||
	    (!c->stack_map && addr >= sp && addr - sp < (8u << 20))) {
		if (addr >= sp)
			c->off_stack = true;
		return -UNW_EINVAL;
	}
	m = ctx_find_map(c, addr);
	if (!m || m->writable || m->kind == UW_ANON)
		return -UNW_EINVAL;
	e = map_elf(c->u, c->p->tgid, m);
	if (!e || !elf_read(e, addr - m->bias, buf, sizeof(buf)))
		return -UNW_EINVAL;
	/* a word that runs past the end of the file's bytes reads zeroes there */
	memcpy(valp, buf, sizeof(*valp));
	return 0;
}

/* libunwind's x86-64 register numbers (RAX, RDX, RCX, RBX, ...) to perf's. */
static const int8_t unw_to_ureg[] = {
	[UNW_X86_64_RAX] = RF_UREG_AX, [UNW_X86_64_RDX] = RF_UREG_DX,
	[UNW_X86_64_RCX] = RF_UREG_CX, [UNW_X86_64_RBX] = RF_UREG_BX,
	[UNW_X86_64_RSI] = RF_UREG_SI, [UNW_X86_64_RDI] = RF_UREG_DI,
	[UNW_X86_64_RBP] = RF_UREG_BP, [UNW_X86_64_RSP] = RF_UREG_SP,
	[UNW_X86_64_R8] = RF_UREG_R8, [UNW_X86_64_R9] = RF_UREG_R9,
	[UNW_X86_64_R10] = RF_UREG_R10, [UNW_X86_64_R11] = RF_UREG_R11,
	[UNW_X86_64_R12] = RF_UREG_R12, [UNW_X86_64_R13] = RF_UREG_R13,
	[UNW_X86_64_R14] = RF_UREG_R14, [UNW_X86_64_R15] = RF_UREG_R15,
	[UNW_X86_64_RIP] = RF_UREG_IP,
};

static int acc_access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *valp, int write,
			  void *arg)
{
	struct uw_ctx *c = arg;

	if (write)
		return -UNW_EREADONLYREG;
	if (regnum < 0 || (size_t)regnum >= ARRAY_SIZE(unw_to_ureg))
		return -UNW_EBADREG;
	*valp = c->s->regs[unw_to_ureg[regnum]];
	return 0;
}

static int acc_access_fpreg(unw_addr_space_t as, unw_regnum_t num, unw_fpreg_t *val, int write,
			    void *arg)
{
	return -UNW_EINVAL;
}

static int acc_resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

static int acc_get_proc_name(unw_addr_space_t as, unw_word_t addr, char *bufp, size_t buf_len,
			     unw_word_t *offp, void *arg)
{
	return -UNW_EINVAL;
}

/* ---- the API ---- */

struct rf_unwinder *rec_unwinder_new(void)
{
	struct rf_unwinder *u;
	long pg = sysconf(_SC_PAGESIZE);

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->page_size = pg > 0 ? (uint64_t)pg : 4096;
	u->acc = (unw_accessors_t){
		.find_proc_info = acc_find_proc_info,
		.put_unwind_info = acc_put_unwind_info,
		.get_dyn_info_list_addr = acc_get_dyn_info_list_addr,
		.access_mem = acc_access_mem,
		.access_reg = acc_access_reg,
		.access_fpreg = acc_access_fpreg,
		.resume = acc_resume,
		.get_proc_name = acc_get_proc_name,
	};
	return u;
}

void rec_unwinder_forget(struct rf_unwinder *u, int32_t tgid)
{
	struct uw_proc *p;

	if (u && uw_proc_map_del(&u->procs, tgid, &p))
		proc_free(p);
}

void rec_unwinder_free(struct rf_unwinder *u)
{
	struct uw_proc_map_slot *ps = NULL;
	struct uw_elf_map_slot *es = NULL;

	if (!u)
		return;
	while ((ps = uw_proc_map_next(&u->procs, ps)))
		proc_free(ps->val);
	uw_proc_map_destroy(&u->procs);
	while ((es = uw_elf_map_next(&u->elves, es)))
		elf_free(es->val);
	uw_elf_map_destroy(&u->elves);
	elf_free(u->vdso);
	free(u);
}

/* @f, a frame without unwind information, is in the entry stub of its file. */
static bool frame_at_entry(struct uw_ctx *c, const struct rf_uframe *f)
{
	struct uw_map *m = ctx_find_map(c, f->ip);
	const struct uw_elf *e = m && m->kind == UW_FILE ? map_elf(c->u, c->p->tgid, m) : NULL;

	return e && f->path && e->entry && f->vaddr >= e->entry && f->vaddr < e->entry_end;
}

/* @f, a frame without unwind information, is at the first instruction of _init or _fini. */
static bool frame_at_init(struct uw_ctx *c, const struct rf_uframe *f)
{
	struct uw_map *m = ctx_find_map(c, f->ip);
	const struct uw_elf *e = m && m->kind == UW_FILE ? map_elf(c->u, c->p->tgid, m) : NULL;

	return e && f->path && f->vaddr && (f->vaddr == e->init || f->vaddr == e->fini);
}

/* Where @ip is: the file and its vaddr, when it is in a file mapping. */
static void frame_place(struct uw_ctx *c, struct rf_uframe *f)
{
	struct uw_map *m = ctx_find_map(c, f->ip);

	f->path = NULL;
	f->vaddr = 0;
	if (!m || m->kind != UW_FILE)
		return;
	f->path = m->elf->path;
	if (map_elf(c->u, c->p->tgid, m))
		f->vaddr = f->ip - m->bias;
}

unsigned int rec_unwind(struct rf_unwinder *u, int32_t tgid, const struct rf_user_sample *s,
			struct rf_uframe *frames, unsigned int max, enum rf_unwind_end *end)
{
	struct uw_ctx c = { .u = u, .s = s };
	struct rf_user_sample caller;
	unw_cursor_t cursor;
	unsigned int n = 0;
	bool exact = true;	/* the innermost ip, or one a signal interrupted */

	*end = RF_UNWIND_FAILED;
	if (!s->regs[RF_UREG_IP])
		return 0;
	if (!max) {
		*end = RF_UNWIND_TRUNCATED;
		return 0;
	}
	c.p = proc_get(u, tgid);
	if (!c.p || !proc_as(u, c.p))
		return 0;
	c.stack_map = proc_find_map(c.p, s->regs[RF_UREG_SP]);
	if (unw_init_remote(&cursor, c.p->as, &c) < 0)
		return 0;
	for (;;) {
		unw_word_t ip;
		int ret;

		if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		if (n == max) {
			*end = RF_UNWIND_TRUNCATED;
			break;
		}
		frames[n].ip = exact ? ip : ip - 1;
		frame_place(&c, &frames[n]);
		n++;
		exact = unw_is_signal_frame(&cursor) > 0;
		c.no_info = c.off_stack = false;
		ret = unw_step(&cursor);
		/*
		 * Without DWARF information libunwind guesses from RBP, which is
		 * anything in code built without frame pointers: no guesses.
		 */
		/*
		 * Sampled at the first instruction of _init or _fini: the
		 * caller's frame is the sample's, the return address popped.
		 */
		if (c.no_info && n == 1 && frames[0].ip == s->regs[RF_UREG_IP] && s->stack_size >= 8 &&
		    frame_at_init(&c, &frames[0])) {
			caller = *s;
			memcpy(&caller.regs[RF_UREG_IP], s->stack, 8);
			caller.regs[RF_UREG_SP] += 8;
			caller.stack += 8;
			caller.stack_size -= 8;
			c.s = &caller;
			exact = false;
			if (unw_init_remote(&cursor, c.p->as, &c) < 0)
				break;
			continue;
		}
		if (c.no_info) {
			*end = frame_at_entry(&c, &frames[n - 1]) ? RF_UNWIND_COMPLETE :
				RF_UNWIND_FAILED;
			break;
		}
		if (ret == 0) {
			*end = RF_UNWIND_COMPLETE;
			break;
		}
		if (ret < 0) {
			*end = c.off_stack ? RF_UNWIND_TRUNCATED : RF_UNWIND_FAILED;
			break;
		}
	}
	return n;
}
