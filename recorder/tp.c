/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracepoints refault record uses, grouped for --events, and their
 * field handles.  Offsets come from each event's format file through
 * libtraceevent at start-up; nothing here knows a field's position.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include <refault/errors.h>

#include "recorder/internal.h"

static const struct rf_tp_desc descs[TP_MAX] = {
	[TP_GET_PAGES] = { "filemap", "mm_filemap_get_pages", "refs",
			   { "i_ino", "s_dev", "index", "last_index" } },
	[TP_PC_ADD] = { "filemap", "mm_filemap_add_to_page_cache", "refs",
			{ "pfn", "i_ino", "index", "s_dev", "order" } },
	[TP_PC_DEL] = { "filemap", "mm_filemap_delete_from_page_cache", "refs",
			{ "pfn", "i_ino", "index", "s_dev", "order" } },
	[TP_FAULT_USER] = { "exceptions", "page_fault_user", "refs",
			    { "address", "ip", "error_code" } },
	[TP_ENTER_READ] = { "syscalls", "sys_enter_read", "refs", { "fd", "count" } },
	[TP_EXIT_READ] = { "syscalls", "sys_exit_read", "refs", { "ret" } },
	[TP_ENTER_PREAD] = { "syscalls", "sys_enter_pread64", "refs", { "fd", "count", "pos" } },
	[TP_EXIT_PREAD] = { "syscalls", "sys_exit_pread64", "refs", { "ret" } },
	[TP_ENTER_MMAP] = { "syscalls", "sys_enter_mmap", "refs",
			    { "addr", "len", "prot", "flags", "fd", "off" } },
	[TP_EXIT_MMAP] = { "syscalls", "sys_exit_mmap", "refs", { "ret" } },
	[TP_ENTER_MUNMAP] = { "syscalls", "sys_enter_munmap", "refs", { "addr", "len" } },
	[TP_ENTER_MADVISE] = { "syscalls", "sys_enter_madvise", "refs",
			       { "start", "len_in", "behavior" } },
	[TP_ENTER_FADVISE] = { "syscalls", "sys_enter_fadvise64", "refs",
			       { "fd", "offset", "len", "advice" } },
	[TP_FILEMAP_FAULT] = { "filemap", "mm_filemap_fault", "refs", { "i_ino", "s_dev", "index" } },
	[TP_MAP_PAGES] = { "filemap", "mm_filemap_map_pages", "refs",
			   { "i_ino", "s_dev", "index", "last_index" } },
	[TP_NEWTASK] = { "task", "task_newtask", "tasks", { "pid", "comm", "clone_flags" } },
	[TP_EXEC] = { "sched", "sched_process_exec", "tasks", { "filename", "pid", "old_pid" } },
	[TP_EXIT] = { "sched", "sched_process_exit", "tasks", { "comm", "pid" } },
	[TP_CG_MKDIR] = { "cgroup", "cgroup_mkdir", "cgroup", { "root", "id", "path" } },
	[TP_CG_RMDIR] = { "cgroup", "cgroup_rmdir", "cgroup", { "root", "id", "path" } },
	[TP_CG_ATTACH] = { "cgroup", "cgroup_attach_task", "cgroup",
			   { "dst_root", "dst_id", "pid", "dst_path" } },
	[TP_LRU_ADD] = { "pagemap", "mm_lru_insertion", "lru", { "pfn", "lru" } },
	[TP_LRU_ACTIVATE] = { "pagemap", "mm_lru_activate", "lru", { "pfn" } },
	[TP_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive", "vmscan",
				 { "nid", "nr_scanned", "nr_reclaimed", "nr_activate0",
				   "nr_activate1", "priority", "reclaim_flags" } },
	[TP_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", "vmscan",
			       { "nid", "nr_taken", "nr_active", "nr_deactivated",
				 "priority", "reclaim_flags" } },
	[TP_RECLAIM_PAGES] = { "vmscan", "mm_vmscan_reclaim_pages", "vmscan",
			       { "nid", "nr_scanned", "nr_reclaimed", "nr_activate0",
				 "nr_activate1" } },
	[TP_DIRECT_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "vmscan", { "order" } },
	[TP_DIRECT_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "vmscan", { "nr_reclaimed" } },
	[TP_MEMCG_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "vmscan", { "order" } },
	[TP_MEMCG_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "vmscan", { "nr_reclaimed" } },
};

static const char *const groups[] = { "refs", "tasks", "cgroup", "lru", "vmscan" };

const struct rf_tp_desc *rf_tp_desc(enum rf_tp_id id)
{
	return &descs[id];
}

static bool is_group(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!strcmp(name, groups[i]))
			return true;
	return false;
}

/* "group", "system:event" or "event": true if it named anything. */
static bool select_one(const char *item, bool want[TP_MAX])
{
	const char *colon = strchr(item, ':');
	bool found = false;
	int i;

	for (i = 0; i < TP_MAX; i++) {
		const struct rf_tp_desc *d = &descs[i];
		bool hit;

		if (is_group(item))
			hit = !strcmp(item, d->group);
		else if (colon)
			hit = !strncmp(item, d->system, colon - item) &&
			      strlen(d->system) == (size_t)(colon - item) && !strcmp(colon + 1, d->name);
		else
			hit = !strcmp(item, d->name);
		if (hit)
			want[i] = found = true;
	}
	return found;
}

int rf_tp_select(const char *list, bool want[TP_MAX], char *msg, size_t len)
{
	char *copy, *item, *save = NULL;
	int i, err = 0;

	for (i = 0; i < TP_MAX; i++)
		want[i] = !list;
	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return RF_ERR_NOMEM;
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (!select_one(item, want)) {
			snprintf(msg, len, "unknown event '%s' (see --list-events)", item);
			err = RF_ERR_INVAL;
			break;
		}
	}
	free(copy);
	if (!err && !list[0]) {
		snprintf(msg, len, "--events is empty");
		err = RF_ERR_INVAL;
	}
	return err;
}

/* The fast path reads only plain numbers in the host's byte order; libtraceevent does the rest. */
static struct rf_tp_num num_of(const struct tep_format_field *f, bool native)
{
	struct rf_tp_num n = { 0 };
	bool plain = !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING)) ||
		     (f->flags & TEP_FIELD_IS_DYNAMIC);

	if (native && plain && f->offset <= UINT16_MAX &&
	    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
		n.offset = f->offset;
		n.size = f->size;
	}
	return n;
}

static bool native_order(struct tep_handle *tep)
{
	return tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
}

static int resolve_one(struct rf_tp *tp, struct tep_event *ev, char *msg, size_t len)
{
	bool native = native_order(ev->tep);

	int f;

	tp->event = ev;
	for (f = 0; f < RF_TP_MAX_FIELDS && tp->desc->fields[f]; f++) {
		tp->field[f] = tep_find_any_field(ev, tp->desc->fields[f]);
		if (!tp->field[f]) {
			snprintf(msg, len, "%s:%s has no field '%s' on this kernel",
				 tp->desc->system, tp->desc->name, tp->desc->fields[f]);
			return RF_ERR_UNSUPPORTED;
		}
		tp->num[f] = num_of(tp->field[f], native);
	}
	tp->enabled = true;
	return 0;
}

static int build_id_map(struct rf_tp_set *set)
{
	int i;

	set->max_id = 0;
	for (i = 0; i < TP_MAX; i++)
		if (set->tp[i].enabled && set->tp[i].event->id > set->max_id)
			set->max_id = set->tp[i].event->id;
	set->by_id = calloc(set->max_id + 1, sizeof(*set->by_id));
	if (!set->by_id)
		return RF_ERR_NOMEM;
	for (i = 0; i < TP_MAX; i++)
		if (set->tp[i].enabled)
			set->by_id[set->tp[i].event->id] = i + 1;
	return 0;
}

int rf_tp_resolve(struct rf_tp_set *set, struct tep_handle *tep, const bool want[TP_MAX],
		  char *msg, size_t len)
{
	struct tep_event *any = NULL;
	int i, err;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < TP_MAX; i++) {
		struct tep_event *ev;

		set->tp[i].desc = &descs[i];
		if (!want[i])
			continue;
		ev = tep_find_event_by_name(tep, descs[i].system, descs[i].name);
		if (!ev)
			continue;	/* the caller decides whether that is fatal */
		err = resolve_one(&set->tp[i], ev, msg, len);
		if (err)
			return err;
		any = ev;
	}
	if (!any) {
		snprintf(msg, len, "none of the selected tracepoints exists on this kernel");
		return RF_ERR_UNSUPPORTED;
	}
	set->common_type = tep_find_common_field(any, "common_type");
	set->common_pid = tep_find_common_field(any, "common_pid");
	if (!set->common_type || !set->common_pid) {
		snprintf(msg, len, "event format lacks common_type/common_pid");
		return RF_ERR_UNSUPPORTED;
	}
	set->type_num = num_of(set->common_type, native_order(tep));
	set->pid_num = num_of(set->common_pid, native_order(tep));
	return build_id_map(set);
}

void rf_tp_set_free(struct rf_tp_set *set)
{
	free(set->by_id);
	set->by_id = NULL;
}

const struct rf_tp *rf_tp_of(const struct rf_tp_set *set, const void *data, int32_t *pid)
{
	unsigned long long type, p;
	unsigned int slot;

	if (set->type_num.size && set->pid_num.size) {
		type = rf_tp_num_read(set->type_num, data);
		p = rf_tp_num_read(set->pid_num, data);
	} else if (tep_read_number_field(set->common_type, data, &type) ||
		   tep_read_number_field(set->common_pid, data, &p)) {
		return NULL;
	}
	*pid = (int32_t)p;
	if (type > (unsigned long long)set->max_id)
		return NULL;
	slot = set->by_id[type];
	return slot ? &set->tp[slot - 1] : NULL;
}

uint64_t rf_tp_u64_slow(const struct rf_tp *tp, int field, const void *data)
{
	unsigned long long v = 0;

	tep_read_number_field(tp->field[field], data, &v);
	return v;
}

const char *rf_tp_str(const struct rf_tp *tp, int field, const void *data, int size,
		      char *buf, size_t len)
{
	const struct tep_format_field *f = tp->field[field];
	unsigned int off = f->offset, n = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc = rf_tp_u64(tp, field, data);

		off = loc & 0xffff;
		n = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off > (unsigned int)size || n > (unsigned int)size - off)
		n = 0;
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)data + off, n);
	buf[n] = '\0';
	return buf;
}
