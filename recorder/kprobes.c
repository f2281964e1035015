/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kprobe sources for tracepoints a kernel lacks.  The filemap tracepoints
 * that name page-cache read hits and fault-around came late (v6.11:
 * mm_filemap_get_pages, mm_filemap_map_pages, mm_filemap_fault); on older
 * kernels the same records come from kprobe events on the functions that
 * hold the same values at entry, with the tracepoint's own field names, so
 * that everything past rec_tp_resolve() reads either source alike.
 *
 * A kprobe fetch argument dereferences by byte offset ("+24($arg1)"); the
 * offsets of struct members come from the running kernel's BTF
 * (/sys/kernel/btf/vmlinux) through libbpf, so one table serves every
 * kernel whose functions keep these arguments (checked against the BTF
 * prototype, by name, before a probe is made).
 *
 * What a probe sees that the tracepoint would not (docs/recording.md,
 * "Event sources"):
 *  - mm_filemap_get_pages from filemap_get_read_batch(mapping, index, max):
 *    filemap_get_pages() calls it with (index, last_index - 1), the
 *    tracepoint's pair, once per batch, and again after a synchronous
 *    readahead; the tracepoint fires once, at the end, and not for a batch
 *    that ends early (a folio not yet up to date), so the probe names those
 *    pages too.  normalize.c takes the union of a read's batches.
 *  - mm_filemap_map_pages from filemap_map_pages(vmf, start, end) at entry:
 *    the range asked for, before the tracepoint clips it to EOF and whether
 *    or not a folio was found; normalize.c maps only folios it saw cached.
 *  - mm_filemap_fault from filemap_fault(vmf) at entry, before the check for
 *    a fault past EOF (SIGBUS), which the tracepoint follows.
 * And one no kernel has as a tracepoint: refault:folio_end_writeback from
 * __folio_end_writeback(folio) (v5.17+), where a folio's writeback ends, in
 * whatever context the I/O completed in; @mapping tells a page-cache folio
 * (an address_space: low bits clear) from an anonymous one.  It is optional:
 * without kprobe events, BTF or the function, the recording goes on without
 * it (the replay then takes dirty pages as written in time, docs/model.md).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <tracefs/tracefs.h>

#include <refault/errors.h>

#include "lib/compiler.h"
#include "recorder/record-local.h"

#define KP_MAX_FIELDS	4

/* One field: its name (the tracepoint's), the argument, and the members followed from it. */
struct kp_field {
	const char *name;
	int arg;		/* 1-based */
	const char *path;	/* "" the argument itself; "a.b.c": ->a->b->c */
};

struct kp_source {
	enum rf_tp_id tp;
	const char *symbol;
	struct kp_field fields[KP_MAX_FIELDS];
	bool optional;		/* a failure to make it is no error: left out, unsaid */
};

#define FILE_OF_VMF "vma.vm_file.f_mapping.host"
static const struct kp_source sources[] = {
	{ TP_mm_filemap_get_pages, "filemap_get_read_batch", {
		{ "i_ino", 1, "host.i_ino" }, { "s_dev", 1, "host.i_sb.s_dev" },
		{ "index", 2, "" }, { "last_index", 3, "" } }, false },
	{ TP_mm_filemap_fault, "filemap_fault", {
		{ "i_ino", 1, FILE_OF_VMF ".i_ino" }, { "s_dev", 1, FILE_OF_VMF ".i_sb.s_dev" },
		{ "index", 1, "pgoff" } }, false },
	{ TP_mm_filemap_map_pages, "filemap_map_pages", {
		{ "i_ino", 1, FILE_OF_VMF ".i_ino" }, { "s_dev", 1, FILE_OF_VMF ".i_sb.s_dev" },
		{ "index", 2, "" }, { "last_index", 3, "" } }, false },
	{ TP_folio_end_writeback, "__folio_end_writeback", {
		{ "i_ino", 1, "mapping.host.i_ino" }, { "s_dev", 1, "mapping.host.i_sb.s_dev" },
		{ "index", 1, "index" }, { "mapping", 1, "mapping" } }, true },
};

struct rf_kprobes {
	struct tracefs_dynevent *ev[ARRAY_SIZE(sources)];
	const char *symbol[TP_MAX];	/* the function a tracepoint's records come from */
	char group[64];
};

/* ---------------------------------------------------------------- BTF */

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* @id past typedefs and const/volatile: the type a value has. */
static const struct btf_type *resolved(const struct btf *btf, __u32 id, __u32 *out_id)
{
	int r = btf__resolve_type(btf, id);

	if (r < 0)
		return NULL;
	if (out_id)
		*out_id = (__u32)r;
	return btf__type_by_id(btf, (__u32)r);
}

/*
 * Member @name of struct/union @t, also inside anonymous members (struct
 * vm_fault's vma and pgoff are in one): its byte offset and type id.
 */
static bool find_member(const struct btf *btf, const struct btf_type *t, const char *name,
			__u32 *bytes, __u32 *type)
{
	const struct btf_member *m = btf_members(t);
	__u16 i, n = btf_vlen(t);

	for (i = 0; i < n; i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		__u32 bits = btf_member_bit_offset(t, i), sub;
		const struct btf_type *mt;

		if (bits % 8 || btf_member_bitfield_size(t, i))
			continue;
		if (mname && *mname) {
			if (strcmp(mname, name))
				continue;
			*bytes = bits / 8;
			*type = m->type;
			return true;
		}
		mt = resolved(btf, m->type, NULL);
		if (mt && btf_is_composite(mt) && find_member(btf, mt, name, &sub, type)) {
			*bytes = bits / 8 + sub;
			return true;
		}
	}
	return false;
}

/* The BTF prototype's type of argument @arg of @symbol, and its name. */
static int arg_type(const struct btf *btf, const char *symbol, int arg, __u32 *type,
		    const char **name, char *msg, size_t len)
{
	__s32 id = btf__find_by_name_kind(btf, symbol, BTF_KIND_FUNC);
	const struct btf_type *fn = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
	const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;

	if (!proto || !btf_is_func_proto(proto)) {
		snprintf(msg, len, "the kernel's BTF has no function %s", symbol);
		return RF_ERR_UNSUPPORTED;
	}
	if (arg < 1 || arg > btf_vlen(proto)) {
		snprintf(msg, len, "%s has %u arguments in the kernel's BTF, not %d", symbol,
			 btf_vlen(proto), arg);
		return RF_ERR_UNSUPPORTED;
	}
	*type = btf_params(proto)[arg - 1].type;
	*name = btf__name_by_offset(btf, btf_params(proto)[arg - 1].name_off);
	return 0;
}

/*
 * "NAME=EXPR:uBITS" for field @f of @src: argument @f->arg followed through
 * the pointers of @f->path, each member a dereference at its offset.
 */
static int fetch_arg(const struct btf *btf, const struct kp_source *src, const struct kp_field *f,
		     char *out, size_t outlen, char *msg, size_t len)
{
	char expr[512], hop[64], path[128], *save = NULL, *member;
	const struct btf_type *t;
	const char *argname;
	__u32 type, off;
	int err = arg_type(btf, src->symbol, f->arg, &type, &argname, msg, len);

	if (err)
		return err;
	snprintf(expr, sizeof(expr), "$arg%d", f->arg);
	snprintf(path, sizeof(path), "%s", f->path);
	for (member = strtok_r(path, ".", &save); member; member = strtok_r(NULL, ".", &save)) {
		t = resolved(btf, type, NULL);
		t = t && btf_is_ptr(t) ? resolved(btf, t->type, NULL) : NULL;
		if (!t || !btf_is_composite(t) || !find_member(btf, t, member, &off, &type)) {
			snprintf(msg, len, "%s: argument %d (%s) leads to no member '%s' in the "
				 "kernel's BTF (%s)", src->symbol, f->arg, argname ? argname : "?",
				 member, f->path);
			return RF_ERR_UNSUPPORTED;
		}
		snprintf(hop, sizeof(hop), "+%u(", off);
		if (strlen(hop) + strlen(expr) + 2 > sizeof(expr))
			return RF_ERR_INVAL;
		memmove(expr + strlen(hop), expr, strlen(expr) + 1);
		memcpy(expr, hop, strlen(hop));
		strcat(expr, ")");
	}
	t = resolved(btf, type, NULL);
	if (!t || (!btf_is_int(t) && !btf_is_ptr(t) && !btf_is_enum(t)) ||
	    (btf_is_ptr(t) ? 8 : t->size) > 8) {
		snprintf(msg, len, "%s: %s is not a number in the kernel's BTF", src->symbol,
			 f->path[0] ? f->path : "the argument");
		return RF_ERR_UNSUPPORTED;
	}
	snprintf(out, outlen, "%s=%s:u%u", f->name, expr, (btf_is_ptr(t) ? 8 : t->size) * 8);
	return 0;
}

static int probe_format(const struct btf *btf, const struct kp_source *src, char *fmt,
			size_t fmtlen, char *msg, size_t len)
{
	size_t off = 0;
	int i, err;

	fmt[0] = '\0';
	for (i = 0; i < KP_MAX_FIELDS && src->fields[i].name; i++) {
		char arg[600];

		err = fetch_arg(btf, src, &src->fields[i], arg, sizeof(arg), msg, len);
		if (err)
			return err;
		off += (size_t)snprintf(fmt + off, fmtlen - off, "%s%s", off ? " " : "", arg);
		if (off >= fmtlen)
			return RF_ERR_INVAL;
	}
	return 0;
}

/* ---------------------------------------------------------------- probes */

static bool tracepoint_exists(const char *tracefs, const struct rf_tp_desc *d)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events/%s/%s", tracefs, d->system, d->name);
	return !access(path, F_OK);
}

/* The sources this recording takes from kprobes: none if @mode says so. */
static bool wanted(const struct kp_source *src, enum rf_kprobe_mode mode, const bool want[TP_MAX],
		   const char *tracefs)
{
	if (!want[src->tp] || mode == RF_KPROBES_NEVER)
		return false;
	return mode == RF_KPROBES_ALWAYS || !tracepoint_exists(tracefs, rec_tp_desc(src->tp));
}

static int make_probe(struct rf_kprobes *k, size_t i, const struct btf *btf, char *msg, size_t len)
{
	const struct kp_source *src = &sources[i];
	const char *event = rec_tp_desc(src->tp)->name;
	char fmt[2048];
	int err = probe_format(btf, src, fmt, sizeof(fmt), msg, len);

	if (err)
		return err;
	k->ev[i] = tracefs_kprobe_alloc(k->group, event, src->symbol, fmt);
	if (!k->ev[i])
		return RF_ERR_NOMEM;
	if (tracefs_dynevent_create(k->ev[i]) < 0) {
		err = -errno ?: RF_ERR_IO;
		snprintf(msg, len, "cannot create kprobe event %s/%s on %s (%s): %s", k->group,
			 event, src->symbol, fmt, strerror(-err));
		tracefs_dynevent_free(k->ev[i]);
		k->ev[i] = NULL;
		return err;
	}
	k->symbol[src->tp] = src->symbol;
	return 0;
}

/* Can this process make kprobe events?  0, or why not in @msg. */
static int kprobes_available(const char *tracefs, char *msg, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	if (!access(path, W_OK))
		return 0;
	snprintf(msg, len, "no kprobe events here (%s: %s; CONFIG_KPROBE_EVENTS, and root)", path,
		 strerror(errno));
	return RF_ERR_UNSUPPORTED;
}

/* A kprobe group is a C identifier: "refault-record-PID" becomes "refault_record_PID". */
static void group_of(const char *name, char *group, size_t len)
{
	size_t i;

	snprintf(group, len, "%s", name);
	for (i = 0; group[i]; i++)
		group[i] = group[i] == '-' ? '_' : group[i];
}

int rec_kprobes_create(struct rf_kprobes **out, const char *name, enum rf_kprobe_mode mode,
		       const bool want[TP_MAX], const char *tracefs_dir, char *msg, size_t len)
{
	const char *tracefs = tracefs_dir ? tracefs_dir : tracefs_tracing_dir();
	bool need[ARRAY_SIZE(sources)], any = false, essential = false;
	struct rf_kprobes *k;
	struct btf *btf;
	size_t i;
	int err;

	*out = NULL;
	if (!tracefs)
		return 0;	/* rec_source_open() says what is wrong */
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		any |= need[i] = wanted(&sources[i], mode, want, tracefs);
		essential |= need[i] && !sources[i].optional;
	}
	if (!any)
		return 0;
	err = kprobes_available(tracefs, msg, len);
	if (err)	/* by default an event the kernel lacks is left out, kprobe or not */
		return mode == RF_KPROBES_ALWAYS ? err : 0;
	libbpf_set_print(quiet_libbpf);
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		if (!essential && mode != RF_KPROBES_ALWAYS)
			return 0;
		snprintf(msg, len, "kprobe sources need the kernel's BTF (/sys/kernel/btf/vmlinux, "
			 "CONFIG_DEBUG_INFO_BTF): %s", strerror(errno));
		return RF_ERR_UNSUPPORTED;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		btf__free(btf);
		return RF_ERR_NOMEM;
	}
	*out = k;
	group_of(name, k->group, sizeof(k->group));
	for (i = 0; i < ARRAY_SIZE(sources) && !err; i++) {
		if (!need[i])
			continue;
		err = make_probe(k, i, btf, msg, len);
		if (err && err != RF_ERR_NOMEM && sources[i].optional && mode != RF_KPROBES_ALWAYS) {
			err = 0;	/* this kernel cannot give it: recorded without */
			msg[0] = '\0';
		}
	}
	btf__free(btf);
	return err;
}

const char *rec_kprobes_group(const struct rf_kprobes *k, enum rf_tp_id id)
{
	return k && k->symbol[id] ? k->group : NULL;
}

const char *rec_kprobes_symbol(const struct rf_kprobes *k, enum rf_tp_id id)
{
	return k ? k->symbol[id] : NULL;
}

void rec_kprobes_destroy(struct rf_kprobes *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (!k->ev[i])
			continue;
		/* force: disable it in any instance that still has it on */
		tracefs_dynevent_destroy(k->ev[i], true);
		tracefs_dynevent_free(k->ev[i]);
	}
	free(k);
}

size_t rec_kprobes_describe(char *buf, size_t len)
{
	struct btf *btf;
	size_t i, off = 0;

	libbpf_set_print(quiet_libbpf);
	btf = btf__load_vmlinux_btf();
	for (i = 0; i < ARRAY_SIZE(sources) && off < len; i++) {
		const struct rf_tp_desc *d = rec_tp_desc(sources[i].tp);
		char fmt[2048], msg[512];

		if (!btf)
			snprintf(msg, sizeof(msg), "no BTF here (/sys/kernel/btf/vmlinux: %s)",
				 strerror(errno));
		else if (!probe_format(btf, &sources[i], fmt, sizeof(fmt), msg, sizeof(msg)))
			msg[0] = '\0';
		off += (size_t)snprintf(buf + off, len - off, "  %s:%s <- kprobe:%s %s%s\n",
					d->system, d->name, sources[i].symbol,
					msg[0] ? "unavailable: " : "", msg[0] ? msg : fmt);
	}
	btf__free(btf);
	return off < len ? off : len;
}

void rec_kprobes_remove_stale(void)
{
	struct tracefs_dynevent **all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE, NULL);
	char prefix[64];
	size_t plen;
	int i;

	group_of(RF_RECORD_PREFIX, prefix, sizeof(prefix));
	plen = strlen(prefix);
	for (i = 0; all && all[i]; i++) {
		char *system = NULL, stale[64];

		tracefs_dynevent_info(all[i], &system, NULL, NULL, NULL, NULL);
		if (system && !strncmp(system, prefix, plen)) {
			snprintf(stale, sizeof(stale), RF_RECORD_PREFIX "%s", system + plen);
			if (rec_name_stale(stale))
				tracefs_dynevent_destroy(all[i], true);
		}
		free(system);
	}
	tracefs_dynevent_list_free(all);
}
