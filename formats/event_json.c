/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON codec for events and headers.  Field names and order come from the
 * schema table (schema.c), the same one the binary codec walks.
 */
#include <stdlib.h>
#include <string.h>

#include <refault/trace-json.h>

#include "formats/format-local.h"

struct rf_json_scratch {
	struct rf_counter *counters;
	size_t counters_cap;
	uint64_t *frames;
	size_t frames_cap;
};

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *field_to_json(const struct rf_event *ev, const struct fmt_field *f)
{
	const struct rf_counter *ctr;
	const uint64_t *frames;
	json_object *o;
	uint32_t n, k;

	switch (f->kind) {
	case RF_FK_INT:
		return json_object_new_int64(fmt_field_get_i(ev, f));
	case RF_FK_STR:
		return str_or_null(RF_FIELD_CPTR(ev, f, char *));
	case RF_FK_FRAMES:
		n = RF_FIELD_CCOUNT(ev, f);
		frames = RF_FIELD_CPTR(ev, f, uint64_t *);
		o = json_object_new_array_ext((int)n);
		for (k = 0; o && k < n; k++)
			json_object_array_add(o, json_object_new_uint64(frames[k]));
		return o;
	case RF_FK_COUNTERS:
		n = RF_FIELD_CCOUNT(ev, f);
		ctr = RF_FIELD_CPTR(ev, f, struct rf_counter *);
		o = json_object_new_object();
		for (k = 0; o && k < n; k++)
			json_object_object_add(o, ctr[k].name, json_object_new_uint64(ctr[k].value));
		return o;
	default:
		return json_object_new_uint64(fmt_field_get_u(ev, f));
	}
}

json_object *rf_event_to_json(const struct rf_event *ev)
{
	const struct fmt_schema *sch = fmt_schema_of(ev->type);
	json_object *o = json_object_new_object();
	unsigned int i;

	if (!o || !sch) {
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "t", json_object_new_uint64(ev->time));
	json_object_object_add(o, "cpu", json_object_new_int64(ev->cpu));
	json_object_object_add(o, "pid", json_object_new_int64(ev->pid));
	json_object_object_add(o, "type", json_object_new_string(rf_event_type_name(ev->type)));
	for (i = 0; i < fmt_schema_nr_written(sch, ev); i++)
		json_object_object_add(o, sch->fields[i].name, field_to_json(ev, &sch->fields[i]));
	return o;
}

static bool json_u64(json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

static bool json_i64(json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static int counters_from_json(json_object *v, struct rf_event *ev, const struct fmt_field *f,
			      struct rf_json_scratch *sc)
{
	struct json_object_iterator it, end;
	size_t n = 0, want;

	if (!json_object_is_type(v, json_type_object))
		return RF_ERR_INVAL;
	want = (size_t)json_object_object_length(v);
	if (want > RF_MAX_COUNTERS)
		return RF_ERR_TOO_LARGE;
	if (want && RF_GROW(sc->counters, sc->counters_cap, want))
		return RF_ERR_NOMEM;
	it = json_object_iter_begin(v);
	end = json_object_iter_end(v);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it), n++) {
		sc->counters[n].name = json_object_iter_peek_name(&it);
		if (!json_u64(json_object_iter_peek_value(&it), &sc->counters[n].value))
			return RF_ERR_INVAL;
	}
	RF_FIELD_PTR(ev, f, const struct rf_counter *) = n ? sc->counters : NULL;
	RF_FIELD_COUNT(ev, f) = (uint32_t)n;
	return 0;
}

static int frames_from_json(json_object *v, struct rf_event *ev, const struct fmt_field *f,
			    struct rf_json_scratch *sc)
{
	size_t n, k;

	if (!json_object_is_type(v, json_type_array))
		return RF_ERR_INVAL;
	n = json_object_array_length(v);
	if (n > RF_MAX_FRAMES)
		return RF_ERR_TOO_LARGE;
	if (n && RF_GROW(sc->frames, sc->frames_cap, n))
		return RF_ERR_NOMEM;
	for (k = 0; k < n; k++)
		if (!json_u64(json_object_array_get_idx(v, k), &sc->frames[k]))
			return RF_ERR_INVAL;
	RF_FIELD_PTR(ev, f, const uint64_t *) = n ? sc->frames : NULL;
	RF_FIELD_COUNT(ev, f) = (uint32_t)n;
	return 0;
}

static int field_from_json(json_object *v, struct rf_event *ev, const struct fmt_field *f,
			   struct rf_json_scratch *sc)
{
	uint64_t u;
	int64_t i;

	switch (f->kind) {
	case RF_FK_INT:
		return json_i64(v, &i) && fmt_field_set_i(ev, f, i) ? 0 : RF_ERR_INVAL;
	case RF_FK_STR:
		if (!v || json_object_is_type(v, json_type_null)) {
			RF_FIELD_PTR(ev, f, const char *) = NULL;
			return 0;
		}
		if (!json_object_is_type(v, json_type_string))
			return RF_ERR_INVAL;
		RF_FIELD_PTR(ev, f, const char *) = json_object_get_string(v);
		return 0;
	case RF_FK_FRAMES:
		return frames_from_json(v, ev, f, sc);
	case RF_FK_COUNTERS:
		return counters_from_json(v, ev, f, sc);
	default:
		return json_u64(v, &u) && fmt_field_set_u(ev, f, u) ? 0 : RF_ERR_INVAL;
	}
}

int rf_event_from_json(json_object *obj, struct rf_event *ev, struct rf_json_scratch **scratch,
		       char *errmsg, size_t errlen)
{
	const struct fmt_schema *sch;
	json_object *v;
	uint64_t u;
	int64_t i;
	unsigned int k, type;
	int err;

	if (!*scratch) {
		*scratch = calloc(1, sizeof(**scratch));
		if (!*scratch)
			return RF_ERR_NOMEM;
	}
	if (!json_object_is_type(obj, json_type_object))
		return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "event is not a JSON object");
	memset(ev, 0, sizeof(*ev));
	if (!json_object_object_get_ex(obj, "type", &v) || !json_object_is_type(v, json_type_string))
		return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "event has no \"type\" string");
	type = rf_event_type_from_name(json_object_get_string(v));
	sch = fmt_schema_of(type);
	if (!sch)
		return fmt_fail(errmsg, errlen, RF_ERR_UNKNOWN_TYPE, "unknown event type \"%s\"",
				json_object_get_string(v));
	ev->type = (uint16_t)type;
	if (!json_object_object_get_ex(obj, "t", &v) || !json_u64(v, &ev->time))
		return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "event needs \"t\" (ns, unsigned)");
	if (json_object_object_get_ex(obj, "cpu", &v)) {
		if (!json_u64(v, &u) || u > UINT32_MAX)
			return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "bad \"cpu\"");
		ev->cpu = (uint32_t)u;
	}
	if (json_object_object_get_ex(obj, "pid", &v)) {
		if (!json_i64(v, &i) || i < INT32_MIN || i > INT32_MAX)
			return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "bad \"pid\"");
		ev->pid = (int32_t)i;
	}
	for (k = 0; k < sch->nr_fields; k++) {
		const struct fmt_field *f = &sch->fields[k];

		if (!json_object_object_get_ex(obj, f->name, &v)) {
			/* a string may be nil; a field a later minor version appended reads 0 */
			if (f->kind == RF_FK_STR || k >= sch->nr_required)
				continue;
			return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "%s event lacks \"%s\"",
					rf_event_type_name(type), f->name);
		}
		err = field_from_json(v, ev, f, *scratch);
		if (err)
			return fmt_fail(errmsg, errlen, err, "%s event: bad \"%s\" (%s)",
					rf_event_type_name(type), f->name, rf_strerror(err));
	}
	err = fmt_event_validate(ev);
	if (err)
		return fmt_fail(errmsg, errlen, err, "%s event: %s", rf_event_type_name(type),
				rf_strerror(err));
	return 0;
}

void rf_json_scratch_free(struct rf_json_scratch *scratch)
{
	if (!scratch)
		return;
	free(scratch->counters);
	free(scratch->frames);
	free(scratch);
}

/* ------------------------------------------------------------- headers */

json_object *rf_header_to_json(const struct rf_trace_header *h)
{
	json_object *o = json_object_new_object(), *host, *rec, *ver;

	if (!o)
		return NULL;
	json_object_object_add(o, "format", json_object_new_string(RF_TRACE_FORMAT_NAME));
	ver = json_object_new_array();
	json_object_array_add(ver, json_object_new_int64(h->version_major));
	json_object_array_add(ver, json_object_new_int64(h->version_minor));
	json_object_object_add(o, "version", ver);
	json_object_object_add(o, "producer", json_object_new_string(h->producer));
	json_object_object_add(o, "producer_version", json_object_new_string(h->producer_version));
	json_object_object_add(o, "created", json_object_new_uint64(h->created));
	json_object_object_add(o, "clock", json_object_new_string(h->clock));
	json_object_object_add(o, "time_resolution", json_object_new_uint64(h->time_resolution));
	host = json_object_new_object();
	json_object_object_add(host, "hostname", json_object_new_string(h->host.hostname));
	json_object_object_add(host, "kernel_release", json_object_new_string(h->host.kernel_release));
	json_object_object_add(host, "arch", json_object_new_string(h->host.arch));
	json_object_object_add(host, "page_size", json_object_new_uint64(h->host.page_size));
	json_object_object_add(host, "cpus", json_object_new_uint64(h->host.cpus));
	json_object_object_add(host, "mem_bytes", json_object_new_uint64(h->host.mem_bytes));
	json_object_object_add(host, "swap_bytes", json_object_new_uint64(h->host.swap_bytes));
	json_object_object_add(host, "numa_nodes", json_object_new_uint64(h->host.numa_nodes));
	if (h->host.zero_page)
		json_object_object_add(host, "zero_page", json_object_new_uint64(h->host.zero_page));
	json_object_object_add(host, "thp_mode", json_object_new_string(h->host.thp_mode));
	json_object_object_add(host, "lru_gen", json_object_new_string(h->host.lru_gen));
	json_object_object_add(host, "cgroup_version",
			       json_object_new_uint64(h->host.cgroup_version));
	json_object_object_add(host, "cgroup_mount", json_object_new_string(h->host.cgroup_mount));
	json_object_object_add(o, "host", host);
	rec = json_object_new_object();
	json_object_object_add(rec, "synthetic", json_object_new_boolean(h->synthetic));
	json_object_object_add(rec, "sources", json_object_new_string(h->sources));
	json_object_object_add(rec, "scope", json_object_new_string(h->scope));
	json_object_object_add(rec, "command", json_object_new_string(h->command));
	json_object_object_add(rec, "params", json_object_new_string(h->params));
	json_object_object_add(rec, "cgroup", json_object_new_string(h->cgroup));
	json_object_object_add(rec, "pfns", json_object_new_string(h->pfns));
	json_object_object_add(o, "recording", rec);
	return o;
}

static void get_str(json_object *o, const char *key, char *dst, size_t len)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		fmt_strlcpy(dst, json_object_get_string(v), len);
}

static void get_u64(json_object *o, const char *key, uint64_t *dst)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v))
		json_u64(v, dst);
}

static void get_u32(json_object *o, const char *key, uint32_t *dst)
{
	uint64_t v = *dst;

	get_u64(o, key, &v);
	if (v <= UINT32_MAX)
		*dst = (uint32_t)v;
}

int rf_header_from_json(json_object *o, struct rf_trace_header *h, char *errmsg, size_t errlen)
{
	json_object *v, *host, *rec;

	if (!json_object_is_type(o, json_type_object))
		return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "header is not a JSON object");
	if (json_object_object_get_ex(o, "version", &v) && json_object_is_type(v, json_type_array) &&
	    json_object_array_length(v) >= 1 &&
	    (json_object_get_int64(json_object_array_get_idx(v, 0)) > RF_TRACE_VERSION_MAJOR ||
	     json_object_get_int64(json_object_array_get_idx(v, 0)) < RF_TRACE_VERSION_OLDEST_MAJOR))
		return fmt_fail(errmsg, errlen, RF_ERR_VERSION, "header names format major version %lld",
				(long long)json_object_get_int64(json_object_array_get_idx(v, 0)));
	get_str(o, "producer", h->producer, sizeof(h->producer));
	get_str(o, "producer_version", h->producer_version, sizeof(h->producer_version));
	get_u64(o, "created", &h->created);
	get_str(o, "clock", h->clock, sizeof(h->clock));
	get_u64(o, "time_resolution", &h->time_resolution);
	if (h->time_resolution > RF_MAX_TIME_RESOLUTION)
		return fmt_fail(errmsg, errlen, RF_ERR_INVAL, "header: time_resolution over %llu ns",
				RF_MAX_TIME_RESOLUTION);
	if (json_object_object_get_ex(o, "host", &host)) {
		get_str(host, "hostname", h->host.hostname, sizeof(h->host.hostname));
		get_str(host, "kernel_release", h->host.kernel_release, sizeof(h->host.kernel_release));
		get_str(host, "arch", h->host.arch, sizeof(h->host.arch));
		get_u32(host, "page_size", &h->host.page_size);
		get_u32(host, "cpus", &h->host.cpus);
		get_u64(host, "mem_bytes", &h->host.mem_bytes);
		get_u64(host, "swap_bytes", &h->host.swap_bytes);
		get_u32(host, "numa_nodes", &h->host.numa_nodes);
		get_u32(host, "zero_page", &h->host.zero_page);
		get_str(host, "thp_mode", h->host.thp_mode, sizeof(h->host.thp_mode));
		get_str(host, "lru_gen", h->host.lru_gen, sizeof(h->host.lru_gen));
		get_u32(host, "cgroup_version", &h->host.cgroup_version);
		get_str(host, "cgroup_mount", h->host.cgroup_mount, sizeof(h->host.cgroup_mount));
	}
	if (json_object_object_get_ex(o, "recording", &rec)) {
		if (json_object_object_get_ex(rec, "synthetic", &v))
			h->synthetic = json_object_get_boolean(v);
		get_str(rec, "sources", h->sources, sizeof(h->sources));
		get_str(rec, "scope", h->scope, sizeof(h->scope));
		get_str(rec, "command", h->command, sizeof(h->command));
		get_str(rec, "params", h->params, sizeof(h->params));
		get_str(rec, "cgroup", h->cgroup, sizeof(h->cgroup));
		get_str(rec, "pfns", h->pfns, sizeof(h->pfns));
	}
	return fmt_header_check(h, errmsg, errlen);
}
