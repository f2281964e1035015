/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The header frame: one msgpack map (docs/trace-format.md, "Header").
 * Decoding ignores keys it does not know, so newer minor versions can add
 * some; a major version this library does not read (newer, or older than
 * RF_TRACE_VERSION_OLDEST_MAJOR) is refused with a clear message.
 */
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "formats/format-local.h"
#include "formats/mp_read.h"

void rf_trace_header_init(struct rf_trace_header *h, const char *producer)
{
	memset(h, 0, sizeof(*h));
	h->version_major = RF_TRACE_VERSION_MAJOR;
	h->version_minor = RF_TRACE_VERSION_MINOR;
	fmt_strlcpy(h->producer, producer, sizeof(h->producer));
	fmt_strlcpy(h->producer_version, PACKAGE_VERSION, sizeof(h->producer_version));
	fmt_strlcpy(h->clock, "mono", sizeof(h->clock));
	h->time_resolution = 1;
	h->host.page_size = 4096;
}

static void pack_cstr(msgpack_packer *pk, const char *s)
{
	size_t len = strlen(s);

	msgpack_pack_str(pk, len);
	msgpack_pack_str_body(pk, s, len);
}

static void pack_kv_str(msgpack_packer *pk, const char *k, const char *v)
{
	pack_cstr(pk, k);
	pack_cstr(pk, v);
}

static void pack_kv_u64(msgpack_packer *pk, const char *k, uint64_t v)
{
	pack_cstr(pk, k);
	msgpack_pack_uint64(pk, v);
}

int fmt_header_encode(const struct rf_trace_header *h, void **out, size_t *len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 9);
	pack_kv_str(&pk, "format", RF_TRACE_FORMAT_NAME);
	pack_cstr(&pk, "version");
	msgpack_pack_array(&pk, 2);
	msgpack_pack_uint32(&pk, h->version_major);
	msgpack_pack_uint32(&pk, h->version_minor);
	pack_kv_str(&pk, "producer", h->producer);
	pack_kv_str(&pk, "producer_version", h->producer_version);
	pack_kv_u64(&pk, "created", h->created);
	pack_kv_str(&pk, "clock", h->clock);
	pack_kv_u64(&pk, "time_resolution", h->time_resolution ? h->time_resolution : 1);
	pack_cstr(&pk, "host");
	msgpack_pack_map(&pk, h->host.zero_page ? 13 : 12);
	pack_kv_str(&pk, "hostname", h->host.hostname);
	pack_kv_str(&pk, "kernel_release", h->host.kernel_release);
	pack_kv_str(&pk, "arch", h->host.arch);
	pack_kv_u64(&pk, "page_size", h->host.page_size);
	pack_kv_u64(&pk, "cpus", h->host.cpus);
	pack_kv_u64(&pk, "mem_bytes", h->host.mem_bytes);
	pack_kv_u64(&pk, "swap_bytes", h->host.swap_bytes);
	pack_kv_u64(&pk, "numa_nodes", h->host.numa_nodes);
	pack_kv_str(&pk, "thp_mode", h->host.thp_mode);
	pack_kv_str(&pk, "lru_gen", h->host.lru_gen);
	pack_kv_u64(&pk, "cgroup_version", h->host.cgroup_version);
	pack_kv_str(&pk, "cgroup_mount", h->host.cgroup_mount);
	if (h->host.zero_page)	/* a trace that does not know (gen's) stays as it was */
		pack_kv_u64(&pk, "zero_page", h->host.zero_page);
	pack_cstr(&pk, "recording");
	msgpack_pack_map(&pk, 7);
	pack_cstr(&pk, "synthetic");
	if (h->synthetic)
		msgpack_pack_true(&pk);
	else
		msgpack_pack_false(&pk);
	pack_kv_str(&pk, "sources", h->sources);
	pack_kv_str(&pk, "scope", h->scope);
	pack_kv_str(&pk, "command", h->command);
	pack_kv_str(&pk, "params", h->params);
	pack_kv_str(&pk, "cgroup", h->cgroup);
	pack_kv_str(&pk, "pfns", h->pfns);
	if (!sb.data) {
		msgpack_sbuffer_destroy(&sb);
		return RF_ERR_NOMEM;
	}
	*len = sb.size;
	*out = msgpack_sbuffer_release(&sb);
	return 0;
}

/* --------------------------------------------------------------- decode */

struct field_map {
	const char *key;
	char type;		/* 's' string, 'u' u64, 'w' u32, 'b' bool */
	size_t offset;
	size_t size;
};

#define HS(k, m) { k, 's', offsetof(struct rf_trace_header, m), sizeof(((struct rf_trace_header *)0)->m) }
#define HU(k, m) { k, sizeof(((struct rf_trace_header *)0)->m) == 8 ? 'u' : 'w', \
		   offsetof(struct rf_trace_header, m), 0 }

static const struct field_map top_fields[] = {
	HS("producer", producer), HS("producer_version", producer_version), HU("created", created),
	HS("clock", clock), HU("time_resolution", time_resolution),
};
static const struct field_map host_fields[] = {
	HS("hostname", host.hostname), HS("kernel_release", host.kernel_release),
	HS("arch", host.arch), HU("page_size", host.page_size), HU("cpus", host.cpus),
	HU("mem_bytes", host.mem_bytes), HU("swap_bytes", host.swap_bytes),
	HU("numa_nodes", host.numa_nodes), HS("thp_mode", host.thp_mode),
	HS("lru_gen", host.lru_gen), HU("cgroup_version", host.cgroup_version),
	HS("cgroup_mount", host.cgroup_mount), HU("zero_page", host.zero_page),
};
static const struct field_map rec_fields[] = {
	{ "synthetic", 'b', offsetof(struct rf_trace_header, synthetic), 0 },
	HS("sources", sources), HS("scope", scope), HS("command", command), HS("params", params),
	HS("cgroup", cgroup), HS("pfns", pfns),
};

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t n = strlen(s);

	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && !memcmp(k->via.str.ptr, s, n);
}

static int set_field(struct rf_trace_header *h, const struct field_map *f, const msgpack_object *v,
		     char *errmsg, size_t errlen)
{
	char *base = (char *)h + f->offset;

	switch (f->type) {
	case 's':
		if (v->type != MSGPACK_OBJECT_STR)
			return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header: %s is not a string", f->key);
		{
			size_t n = v->via.str.size < f->size - 1 ? v->via.str.size : f->size - 1;

			memcpy(base, v->via.str.ptr, n);
			base[n] = '\0';
		}
		return 0;
	case 'u':
	case 'w':
		if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
		    (f->type == 'w' && v->via.u64 > UINT32_MAX))
			return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header: %s is not a valid count", f->key);
		if (f->type == 'u')
			memcpy(base, &v->via.u64, 8);
		else
			*(uint32_t *)(void *)base = (uint32_t)v->via.u64;
		return 0;
	case 'b':
		if (v->type != MSGPACK_OBJECT_BOOLEAN)
			return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header: %s is not a boolean", f->key);
		*(bool *)(void *)base = v->via.boolean;
		return 0;
	}
	return RF_ERR_INVAL;
}

static int decode_map(struct rf_trace_header *h, const msgpack_object *map, const struct field_map *fields,
		      size_t nr, char *errmsg, size_t errlen)
{
	uint32_t i;
	size_t j;
	int err;

	if (map->type != MSGPACK_OBJECT_MAP)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header: expected a map");
	for (i = 0; i < map->via.map.size; i++) {
		const msgpack_object_kv *kv = &map->via.map.ptr[i];

		for (j = 0; j < nr; j++) {
			if (!key_is(&kv->key, fields[j].key))
				continue;
			err = set_field(h, &fields[j], &kv->val, errmsg, errlen);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}

static const msgpack_object *map_get(const msgpack_object *map, const char *key)
{
	uint32_t i;

	for (i = 0; i < map->via.map.size; i++)
		if (key_is(&map->via.map.ptr[i].key, key))
			return &map->via.map.ptr[i].val;
	return NULL;
}

static int check_identity(const msgpack_object *root, struct rf_trace_header *h, char *errmsg, size_t errlen)
{
	const msgpack_object *fmt = map_get(root, "format"), *ver = map_get(root, "version");

	if (!fmt || !key_is(fmt, RF_TRACE_FORMAT_NAME))
		return fmt_fail(errmsg, errlen, RF_ERR_NOT_TRACE, "header does not name the %s format",
				RF_TRACE_FORMAT_NAME);
	if (!ver || ver->type != MSGPACK_OBJECT_ARRAY || ver->via.array.size < 2 ||
	    ver->via.array.ptr[0].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    ver->via.array.ptr[1].type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
	    ver->via.array.ptr[0].via.u64 > UINT32_MAX || ver->via.array.ptr[1].via.u64 > UINT32_MAX)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header has no valid format version");
	h->version_major = (uint32_t)ver->via.array.ptr[0].via.u64;
	h->version_minor = (uint32_t)ver->via.array.ptr[1].via.u64;
	if (h->version_major > RF_TRACE_VERSION_MAJOR || h->version_major < RF_TRACE_VERSION_OLDEST_MAJOR)
		return fmt_fail(errmsg, errlen, RF_ERR_VERSION,
				"trace format version %u.%u; this refault reads %u.x to %u.x",
				h->version_major, h->version_minor, RF_TRACE_VERSION_OLDEST_MAJOR,
				RF_TRACE_VERSION_MAJOR);
	return 0;
}

int fmt_header_check(const struct rf_trace_header *h, char *errmsg, size_t errlen)
{
	const struct rf_trace_host *host = &h->host;

	if (h->time_resolution > RF_MAX_TIME_RESOLUTION)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT, "header: time_resolution %llu ns is over %llu",
				(unsigned long long)h->time_resolution, RF_MAX_TIME_RESOLUTION);
	if (host->cpus > RF_MAX_CPUS)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT,
				"header: host.cpus %u is over the format's limit of %u", host->cpus,
				RF_MAX_CPUS);
	if (host->numa_nodes > RF_MAX_NUMA_NODES)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT,
				"header: host.numa_nodes %u is over the format's limit of %u",
				host->numa_nodes, RF_MAX_NUMA_NODES);
	if (host->page_size & (host->page_size - 1) || host->page_size > RF_MAX_PAGE_SIZE)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT,
				"header: host.page_size %u is not a power of two up to %u",
				host->page_size, RF_MAX_PAGE_SIZE);
	if (host->cgroup_version > 2)
		return fmt_fail(errmsg, errlen, RF_ERR_CORRUPT,
				"header: host.cgroup_version %u is not 0, 1 or 2", host->cgroup_version);
	return 0;
}

int fmt_header_decode(const void *buf, size_t len, struct rf_trace_header *h, char *errmsg, size_t errlen)
{
	msgpack_unpacked up;
	const msgpack_object *sub;
	size_t off = 0;
	int err;

	memset(h, 0, sizeof(*h));
	/*
	 * msgpack-c allocates what a container claims before reading it; walk the
	 * bytes first, which bounds every claim by the bytes actually present.
	 */
	{
		struct mp_cur m = { buf, (const uint8_t *)buf + len };

		if (!mp_skip(&m))
			return fmt_fail(errmsg, errlen, RF_ERR_NOT_TRACE, "first frame is not valid msgpack");
	}
	msgpack_unpacked_init(&up);
	if (msgpack_unpack_next(&up, buf, len, &off) != MSGPACK_UNPACK_SUCCESS ||
	    up.data.type != MSGPACK_OBJECT_MAP) {
		msgpack_unpacked_destroy(&up);
		return fmt_fail(errmsg, errlen, RF_ERR_NOT_TRACE, "first frame is not a refault header map");
	}
	err = check_identity(&up.data, h, errmsg, errlen);
	if (!err)
		err = decode_map(h, &up.data, top_fields, ARRAY_SIZE(top_fields), errmsg, errlen);
	sub = map_get(&up.data, "host");
	if (!err && sub)
		err = decode_map(h, sub, host_fields, ARRAY_SIZE(host_fields), errmsg, errlen);
	sub = map_get(&up.data, "recording");
	if (!err && sub)
		err = decode_map(h, sub, rec_fields, ARRAY_SIZE(rec_fields), errmsg, errlen);
	msgpack_unpacked_destroy(&up);
	/* 1.x traces have no resolution: their times are exact */
	if (!err && !h->time_resolution)
		h->time_resolution = 1;
	return err ? err : fmt_header_check(h, errmsg, errlen);
}
