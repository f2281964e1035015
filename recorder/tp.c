/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tracepoints refault record uses (tp.h's table), grouped for --events,
 * and their field handles.  Offsets come from each event's format file
 * through libtraceevent at start-up.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include <refault/errors.h>

#include "recorder/record-local.h"

#define FIELD_NAME(field) #field,
#define DESC(system, event, group, fields) \
	[TP_##event] = { #system, #event, RF_TPG_##group, { fields } },
static const struct rf_tp_desc descs[TP_MAX] = { RF_TRACEPOINTS(DESC, FIELD_NAME) };

#define GROUP_NAME(group) [RF_TPG_##group] = #group,
static const char *const group_names[RF_TPG_MAX] = { RF_TP_GROUPS(GROUP_NAME) };

const struct rf_tp_desc *rec_tp_desc(enum rf_tp_id id)
{
	return &descs[id];
}

const char *rec_tp_group_name(enum rf_tp_group group)
{
	return group_names[group];
}

/* The group @name names, or RF_TPG_MAX. */
static enum rf_tp_group group_of(const char *name)
{
	int g;

	for (g = 0; g < RF_TPG_MAX && strcmp(name, group_names[g]); g++)
		;
	return g;
}

/* "group", "system:event" or "event": true if it named anything. */
static bool select_one(const char *item, bool want[TP_MAX])
{
	const char *colon = strchr(item, ':');
	enum rf_tp_group group = group_of(item);
	bool found = false;
	int i;

	for (i = 0; i < TP_MAX; i++) {
		const struct rf_tp_desc *d = &descs[i];
		bool hit;

		if (group != RF_TPG_MAX)
			hit = d->group == group;
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

int rec_tp_select(const char *list, bool want[TP_MAX], char *msg, size_t len)
{
	char *copy, *item, *save = NULL;
	int i, err = 0;

	for (i = 0; i < TP_MAX; i++)
		want[i] = !list && descs[i].group != RF_TPG_damon;
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
				 tp->system, tp->desc->name, tp->desc->fields[f]);
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

int rec_tp_resolve(struct rf_tp_set *set, struct tep_handle *tep, const bool want[TP_MAX],
		   const char *const *system, char *msg, size_t len)
{
	struct tep_event *any = NULL;
	int i, err;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < TP_MAX; i++) {
		struct tep_event *ev;

		set->tp[i].desc = &descs[i];
		set->tp[i].system = system && system[i] ? system[i] : descs[i].system;
		if (!want[i])
			continue;
		ev = tep_find_event_by_name(tep, set->tp[i].system, descs[i].name);
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

void rec_tp_set_free(struct rf_tp_set *set)
{
	free(set->by_id);
	set->by_id = NULL;
}

const struct rf_tp *rec_tp_of(const struct rf_tp_set *set, const void *data, int32_t *pid)
{
	unsigned long long type, p;
	unsigned int slot;

	if (set->type_num.size && set->pid_num.size) {
		type = rec_tp_num_read(set->type_num, data);
		p = rec_tp_num_read(set->pid_num, data);
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

uint64_t rec_tp_u64_slow(const struct rf_tp *tp, int field, const void *data)
{
	unsigned long long v = 0;

	tep_read_number_field(tp->field[field], data, &v);
	return v;
}

const char *rec_tp_str(const struct rf_tp *tp, int field, const void *data, int size,
		       char *buf, size_t len)
{
	const struct tep_format_field *f = tp->field[field];
	unsigned int off = f->offset, n = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc = rec_tp_u64(tp, field, data);

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
