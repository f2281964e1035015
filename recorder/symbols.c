/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Naming an unwound frame: the function, source line and build id of an
 * address of an ELF file, from elfutils' libdwfl.  One Dwfl per file, with
 * the file reported at bias 0 so that its addresses are the file's own
 * vaddrs (what rec_unwind() gives), and separate debug information found
 * the standard way (.gnu_debuglink, /usr/lib/debug/.build-id/).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/hash.h"
#include "lib/hashmap.h"
#include "recorder/stacks.h"

/* One file, named or not: @dwfl is NULL when it is not ELF (or not there). */
struct sy_file {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	const char *build_id;	/* interned */
};

#define SY_STR_EQ(a, b) (!strcmp((a), (b)))
RF_HASHMAP_DEFINE(sy_file_map, const char *, struct sy_file *, rf_hash_str, SY_STR_EQ, 75)
/* The interned strings: each maps to itself, the copy the map owns. */
RF_HASHMAP_DEFINE(sy_str_set, const char *, const char *, rf_hash_str, SY_STR_EQ, 75)

struct rf_symbols {
	struct sy_file_map files;
	struct sy_str_set strs;
	char *debuginfo_path;	/* NULL: libdwfl's default search path */
	Dwfl_Callbacks cb;
};

/* A copy of @s that lives as long as @sy; NULL for NULL or on ENOMEM. */
static const char *intern(struct rf_symbols *sy, const char *s)
{
	const char **have;
	char *copy;

	if (!s)
		return NULL;
	have = sy_str_set_get(&sy->strs, s);
	if (have)
		return *have;
	copy = strdup(s);
	if (!copy)
		return NULL;
	if (sy_str_set_put(&sy->strs, copy, copy)) {
		free(copy);
		return NULL;
	}
	return copy;
}

struct rf_symbols *rec_symbols_new(void)
{
	struct rf_symbols *sy = calloc(1, sizeof(*sy));

	if (!sy)
		return NULL;
	sy->cb = (Dwfl_Callbacks){
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &sy->debuginfo_path,
	};
	return sy;
}

static void file_free(struct sy_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->path);
	free(f);
}

void rec_symbols_free(struct rf_symbols *sy)
{
	struct sy_file_map_slot *fs = NULL;
	struct sy_str_set_slot *ss = NULL;

	if (!sy)
		return;
	while ((fs = sy_file_map_next(&sy->files, fs)))
		file_free(fs->val);
	sy_file_map_destroy(&sy->files);
	while ((ss = sy_str_set_next(&sy->strs, ss)))
		free((char *)ss->key);
	sy_str_set_destroy(&sy->strs);
	free(sy);
}

static const char *build_id_hex(struct rf_symbols *sy, Dwfl_Module *mod)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *bits;
	GElf_Addr vaddr;
	char *hex;
	const char *ret;
	int i, len = dwfl_module_build_id(mod, &bits, &vaddr);

	if (len <= 0)
		return NULL;
	hex = malloc(2 * (size_t)len + 1);
	if (!hex)
		return NULL;
	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[bits[i] >> 4];
		hex[2 * i + 1] = digits[bits[i] & 15];
	}
	hex[2 * len] = '\0';
	ret = intern(sy, hex);
	free(hex);
	return ret;
}

/*
 * Reports @f->path.  add_p_vaddr makes the module start at its first
 * PT_LOAD's vaddr with bias 0 for ET_DYN as for ET_EXEC, even for a shared
 * object linked at a non-zero address.
 */
static void file_open(struct rf_symbols *sy, struct sy_file *f)
{
	Dwarf_Addr bias;

	f->dwfl = dwfl_begin(&sy->cb);
	if (!f->dwfl)
		return;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_elf(f->dwfl, f->path, f->path, -1, 0, true);
	if (dwfl_report_end(f->dwfl, NULL, NULL) || !f->mod ||
	    !dwfl_module_getelf(f->mod, &bias) || bias) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
		f->mod = NULL;
		return;
	}
	f->build_id = build_id_hex(sy, f->mod);
}

/* The file of @path, opened on first use; NULL on ENOMEM. */
static struct sy_file *file_get(struct rf_symbols *sy, const char *path)
{
	struct sy_file **have = sy_file_map_get(&sy->files, path), *f;

	if (have)
		return *have;
	f = calloc(1, sizeof(*f));
	if (f)
		f->path = strdup(path);
	if (!f || !f->path) {
		free(f);
		return NULL;
	}
	if (sy_file_map_put(&sy->files, f->path, f)) {
		file_free(f);
		return NULL;
	}
	file_open(sy, f);
	return f;
}

/*
 * The compilation unit holding @vaddr, found by walking the units: libdwfl
 * finds a unit through .debug_aranges, which clang does not write, and the
 * elfutils of Debian 12 (0.188) does not make up from the units when it is
 * missing.  NULL if none.
 */
static Dwarf_Die *cu_of(Dwfl_Module *mod, uint64_t vaddr, Dwarf_Die *die, Dwarf_Addr *bias)
{
	Dwarf *dw = dwfl_module_getdwarf(mod, bias);
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dw && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hsize, die) && dwarf_haspc(die, vaddr - *bias) > 0)
			return die;
		off = next;
	}
	return NULL;
}

/* The line of @vaddr from its unit found by cu_of(). */
static void cu_line(struct rf_symbols *sy, Dwfl_Module *mod, uint64_t vaddr, struct rf_symbol *out)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die die;
	Dwarf_Line *line;
	int lineno = 0;

	if (!cu_of(mod, vaddr, &die, &bias))
		return;
	line = dwarf_getsrc_die(&die, vaddr - bias);
	if (line && dwarf_lineno(line, &lineno) == 0) {
		out->file = intern(sy, dwarf_linesrc(line, NULL, NULL));
		out->line = out->file && lineno > 0 ? (uint32_t)lineno : 0;
	}
}

bool rec_symbols_lookup(struct rf_symbols *sy, const char *path, uint64_t vaddr,
			struct rf_symbol *out)
{
	struct sy_file *f;
	Dwfl_Module *mod;
	Dwfl_Line *line;
	GElf_Off offset = 0;
	GElf_Sym sym;
	const char *name;

	memset(out, 0, sizeof(*out));
	f = path ? file_get(sy, path) : NULL;
	if (!f || !f->dwfl)
		return false;
	out->build_id = f->build_id;
	mod = dwfl_addrmodule(f->dwfl, vaddr);
	if (!mod)
		return true;
	name = dwfl_module_addrinfo(mod, vaddr, &offset, &sym, NULL, NULL, NULL);
	if (name) {
		out->symbol = intern(sy, name);
		out->offset = out->symbol ? offset : 0;
	}
	line = dwfl_module_getsrc(mod, vaddr);
	if (line) {
		int lineno = 0;
		const char *file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);

		out->file = intern(sy, file);
		out->line = out->file && lineno > 0 ? (uint32_t)lineno : 0;
	} else {
		cu_line(sy, mod, vaddr, out);
	}
	return true;
}

/* The name of inlined subroutine @die: its abstract origin's DW_AT_name. */
static const char *inline_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}

/* Where inlined subroutine @die was called from: its DW_AT_call_file and DW_AT_call_line. */
static void call_site(struct rf_symbols *sy, Dwarf_Die *cu, Dwarf_Die *die, struct rf_symbol *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx = 0, line = 0;
	Dwarf_Files *files;
	size_t nfiles;

	out->file = NULL;
	out->line = 0;
	if (!dwarf_attr(die, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return;
	out->file = intern(sy, dwarf_filesrc(files, idx, NULL, NULL));
	if (out->file && dwarf_attr(die, DW_AT_call_line, &attr) && !dwarf_formudata(&attr, &line) &&
	    line <= UINT32_MAX)
		out->line = (uint32_t)line;
}

unsigned int rec_symbols_inlined(struct rf_symbols *sy, const char *path, uint64_t vaddr,
				 struct rf_symbol *out, unsigned int max)
{
	struct rf_symbol outer;
	struct sy_file *f;
	Dwfl_Module *mod;
	Dwarf_Die *cu, *scopes = NULL, *in[32], cu_die;
	Dwarf_Addr bias = 0;
	unsigned int nin = 0, k, n = 0;
	int nscopes, i;

	if (!max || !rec_symbols_lookup(sy, path, vaddr, &outer))
		return 0;
	f = file_get(sy, path);
	mod = f && f->dwfl ? dwfl_addrmodule(f->dwfl, vaddr) : NULL;
	cu = mod ? dwfl_module_addrdie(mod, vaddr, &bias) : NULL;
	if (mod && !cu)
		cu = cu_of(mod, vaddr, &cu_die, &bias);	/* no .debug_aranges (clang) */
	nscopes = cu ? dwarf_getscopes(cu, vaddr - bias, &scopes) : 0;
	for (i = 0; i < nscopes && nin < sizeof(in) / sizeof(in[0]); i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			in[nin++] = &scopes[i];
	/* frame k < nin: inlined subroutine k, called from frame k + 1; frame nin: the symbol */
	for (k = nin + 1 > max ? nin + 1 - max : 0; k <= nin; k++) {
		struct rf_symbol fr = outer;

		if (k < nin) {
			fr.symbol = intern(sy, inline_name(in[k]));
			fr.offset = 0;
		}
		if (k > 0)
			call_site(sy, cu, in[k - 1], &fr);
		out[n++] = fr;
	}
	free(scopes);
	return n;
}
