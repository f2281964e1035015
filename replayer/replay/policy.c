/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The reference policies of librefault-refpolicy ("lru", "clock", "opt") as
 * configurations of a replay, beside the kernel profiles: one pass gives the
 * optimal bound and a plain-LRU baseline next to the Linux models
 * (docs/replay.md, "Reference policies").
 *
 * A policy sees the pages the reclaim model is asked for (one reference a
 * folio of the pages rf_event_folios() says the task touched, refault/trace.h),
 * bounded as the model bounds them (file_range(), replayer/model/filemap.h,
 * and clamp_order(), model-local.h): a read or write moves at most MAX_RW_COUNT
 * bytes (rw_verify_area(), fs/read_write.c), no page lies at or past
 * MAX_LFS_FILESIZE, and a folio is at most PMD order.  Its capacity is
 * "cache" when set; else the first memory limit the trace gives the recorded
 * cgroup before the first reference (the group the workload ran in); else the
 * node's memory ("memory", or the trace header's).  Settings of the kernel
 * profiles are accepted, so one --set serves a mixed list, and listed as
 * ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <refault/refpolicy.h>

#include "lib/grow.h"
#include "lib/units.h"
#include "replayer/replay/replay-local.h"

#define DEFAULT_MEMORY	(4ull << 30)	/* the kernel profiles' default (config.c) */
#define MAX_ORDER_REF	9u		/* PMD order, as the model's MAX_ORDER_MODEL */
#define PREFETCH_PAGES	4u		/* the first pages of a read, ahead of it */

struct rf_policy_config {
	enum rf_refpolicy_kind kind;
	uint64_t cache_bytes;		/* 0: not set */
	uint64_t memory_bytes;
	uint32_t page_size;
	bool memory_set, page_size_set;
	char **ignored;			/* "KEY=VALUE" of the kernel profiles' settings */
	size_t nr_ignored, cap_ignored;
	struct rf_model_config *check;	/* validates those settings */
};

bool replay_policy_profile(const char *name)
{
	return rf_refpolicy_from_name(name) != RF_REFPOLICY_KIND_MAX;
}

int replay_policy_config_new(struct rf_policy_config **out, const char *profile)
{
	struct rf_policy_config *c;
	enum rf_refpolicy_kind kind = rf_refpolicy_from_name(profile);

	*out = NULL;
	if (kind == RF_REFPOLICY_KIND_MAX)
		return RF_ERR_CONFIG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return RF_ERR_NOMEM;
	c->kind = kind;
	c->memory_bytes = DEFAULT_MEMORY;
	c->page_size = 4096;
	if (rf_model_config_new(&c->check, rf_model_profiles()[0])) {
		free(c);
		return RF_ERR_NOMEM;
	}
	*out = c;
	return 0;
}

void replay_policy_config_free(struct rf_policy_config *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_ignored; i++)
		free(c->ignored[i]);
	free(c->ignored);
	rf_model_config_free(c->check);
	free(c);
}

int replay_policy_config_set(struct rf_policy_config *c, const char *key, const char *value,
			     char *err, size_t errlen)
{
	uint64_t v;
	char *kv;
	int rc;

	if (!strcmp(key, "cache") || !strcmp(key, "memory")) {
		if (rf_parse_size(value, &v) || v < c->page_size) {
			snprintf(err, errlen, "%s=%s: not a size of at least one page (%u bytes)",
				 key, value, c->page_size);
			return RF_ERR_CONFIG;
		}
		if (*key == 'c') {
			c->cache_bytes = v;
		} else {
			c->memory_bytes = v;
			c->memory_set = true;
		}
		return 0;
	}
	if (!strcmp(key, "page_size")) {
		if (rf_parse_size(value, &v) || v < 4096 || v > RF_MAX_PAGE_SIZE || (v & (v - 1))) {
			snprintf(err, errlen, "page_size=%s: not a power of two from 4K to 1G", value);
			return RF_ERR_CONFIG;
		}
		c->page_size = (uint32_t)v;
		c->page_size_set = true;
		return 0;
	}
	/* a kernel profile's setting: checked as they check it, then set aside */
	rc = rf_model_config_set(c->check, key, value, err, errlen);
	if (rc && !strncmp(err, "unknown key", 11)) {
		/* the policy's own keys first: the kernel's list is long */
		char near[96] = "";
		const char *dm = strstr(err, " (did you mean \"");

		if (dm)
			snprintf(near, sizeof(near), "%.*s", (int)strcspn(dm, ";"), dm);
		snprintf(err, errlen, "unknown key \"%s\"%s; reference policy %s: cache, memory, "
			 "page_size, and the kernel profiles' keys, checked and ignored (--list-keys)",
			 key, near, rf_refpolicy_name(c->kind));
	}
	if (rc)
		return rc;
	kv = malloc(strlen(key) + strlen(value) + 2);
	if (!kv || RF_GROW(c->ignored, c->cap_ignored, c->nr_ignored + 1)) {
		free(kv);
		return RF_ERR_NOMEM;
	}
	sprintf(kv, "%s=%s", key, value);
	c->ignored[c->nr_ignored++] = kv;
	return 0;
}

/* As rf_model_config_from_header() takes them: memory of 1M or more, a usable page size. */
void replay_policy_config_from_header(struct rf_policy_config *c, const struct rf_trace_header *h)
{
	const struct rf_trace_host *host = &h->host;

	if (!c->memory_set && host->mem_bytes >= (1ull << 20))
		c->memory_bytes = host->mem_bytes;
	if (!c->page_size_set && host->page_size >= 4096 && host->page_size <= RF_MAX_PAGE_SIZE &&
	    !(host->page_size & (host->page_size - 1)))
		c->page_size = host->page_size;
}

int rf_policy_config_describe(const struct rf_policy_config *c, rf_model_describe_cb cb,
			      void *ctx)
{
	char buf[32];
	size_t i;
	int r;

	r = cb("profile", rf_refpolicy_name(c->kind), false, ctx);
	if (!r && c->cache_bytes) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->cache_bytes);
		r = cb("cache", buf, true, ctx);
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->memory_bytes);
	if (!r)
		r = cb("memory", buf, c->memory_set, ctx);
	snprintf(buf, sizeof(buf), "%u", c->page_size);
	if (!r)
		r = cb("page_size", buf, c->page_size_set, ctx);
	for (i = 0; !r && i < c->nr_ignored; i++) {
		char key[300];
		const char *eq = strchr(c->ignored[i], '=');

		snprintf(key, sizeof(key), "ignored.%.*s", (int)(eq - c->ignored[i]), c->ignored[i]);
		r = cb(key, eq + 1, true, ctx);
	}
	return r;
}

/* ------------------------------------------------------------ a run */

struct replay_policy_run {
	const struct rf_policy_config *c;
	struct rf_refpolicy *p;		/* NULL until the first reference */
	unsigned int page_shift;
	/*
	 * A file's pages as the model bounds them (file_range()): none at or
	 * past MAX_LFS_FILESIZE, a read or write of at most MAX_RW_COUNT bytes.
	 */
	struct rf_page_bounds bounds;
	char recorded[RF_MAX_STRING];	/* the recorded cgroup's path, normalized; "" none */
	uint64_t recorded_id;		/* its id once a cgroup_mkdir named it */
	bool recorded_known;
	uint64_t limit_bytes;		/* its first memory limit; 0 none */
	uint64_t capacity;		/* pages, once decided */
	const char *capacity_from;	/* "cache", "memory limit of the recorded cgroup", "memory" */
};

/* A cgroup path as the recorder writes it: one leading '/', no trailing one. */
static void normalize(char *buf, size_t len, const char *path)
{
	size_t n;

	snprintf(buf, len, "%s%s", *path == '/' ? "" : "/", path);
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = 0;
}

int replay_policy_run_new(struct replay_policy_run **out, const struct rf_policy_config *c,
			  const struct rf_trace_header *h)
{
	struct replay_policy_run *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return RF_ERR_NOMEM;
	r->c = c;
	r->page_shift = (unsigned int)__builtin_ctz(c->page_size);
	r->bounds.end = (uint64_t)INT64_MAX >> r->page_shift;
	r->bounds.max_range = (uint64_t)INT32_MAX >> r->page_shift;
	if (h->cgroup[0])
		normalize(r->recorded, sizeof(r->recorded), h->cgroup);
	*out = r;
	return 0;
}

void replay_policy_run_free(struct replay_policy_run *r)
{
	if (!r)
		return;
	rf_refpolicy_free(r->p);
	free(r);
}

static int start(struct replay_policy_run *r)
{
	uint64_t bytes = r->c->memory_bytes;

	r->capacity_from = "memory";
	if (r->c->cache_bytes) {
		bytes = r->c->cache_bytes;
		r->capacity_from = "cache";
	} else if (r->limit_bytes && r->limit_bytes < bytes) {
		bytes = r->limit_bytes;
		r->capacity_from = "memory limit of the recorded cgroup";
	}
	r->capacity = bytes >> r->page_shift ? bytes >> r->page_shift : 1;
	return rf_refpolicy_new(&r->p, r->c->kind, r->capacity);
}

/* The recorded cgroup's id and first memory limit, while no page was referenced. */
static void watch_cgroups(struct replay_policy_run *r, const struct rf_event *ev)
{
	char path[RF_MAX_STRING];

	if (!r->recorded[0])
		return;
	if (ev->type == RF_EV_CGROUP_MKDIR && ev->u.cgroup.path) {
		normalize(path, sizeof(path), ev->u.cgroup.path);
		if (!strcmp(path, r->recorded)) {
			r->recorded_id = ev->u.cgroup.id;
			r->recorded_known = true;
		}
	} else if (ev->type == RF_EV_CGROUP_LIMIT && r->recorded_known && !r->limit_bytes &&
		   ev->u.cgroup.id == r->recorded_id && ev->u.cgroup.kind == RF_LIMIT_MEMORY &&
		   ev->u.cgroup.value != RF_UNLIMITED && ev->u.cgroup.value) {
		r->limit_bytes = ev->u.cgroup.value;
	}
}

static int ref_one(uint64_t key, unsigned int order, void *ctx)
{
	return rf_refpolicy_ref(ctx, key, order > MAX_ORDER_REF ? MAX_ORDER_REF : order);
}

int replay_policy_run_feed(struct replay_policy_run *r, const struct rf_event *ev)
{
	const struct rf_event_type_info *ti = rf_event_type_info(ev->type);
	int rc;

	/* a reference the task made (the type table's .touches: not readahead, no observation) */
	if (!ti || !ti->touches) {
		if (!r->p)
			watch_cgroups(r, ev);
		return 0;
	}
	if (!r->p) {
		rc = start(r);
		if (rc)
			return rc;
	}
	return rf_event_folios(ev, r->page_shift, &r->bounds, ref_one, r->p);
}

struct ahead {
	const struct rf_refpolicy *p;
	unsigned int left;
};

static int prefetch_one(uint64_t key, unsigned int order, void *ctx)
{
	struct ahead *a = ctx;

	(void)order;
	rf_refpolicy_prefetch(a->p, key);
	return --a->left == 0;	/* non-zero stops the walk */
}

void replay_policy_run_prefetch(const struct replay_policy_run *r, const struct rf_event *ev)
{
	struct ahead a = { r->p, PREFETCH_PAGES };

	if (r->p)
		rf_refpolicy_page_refs(ev, r->page_shift, prefetch_one, &a);
}

int replay_policy_run_finish(struct replay_policy_run *r)
{
	int rc = r->p ? 0 : start(r);

	return rc ? rc : rf_refpolicy_finish(r->p);
}

int replay_policy_run_counters(const void *src, rf_model_counter_cb cb, void *ctx)
{
	const struct replay_policy_run *r = src;
	struct rf_refpolicy_stats st = { 0 };
	int rc;

	if (r->p)
		rf_refpolicy_stats(r->p, &st);
	rc = cb("policy.refs", st.refs, ctx);
	rc = rc ? rc : cb("policy.hits", st.hits, ctx);
	rc = rc ? rc : cb("policy.misses", st.misses, ctx);
	rc = rc ? rc : cb("policy.hit_pages", st.hit_pages, ctx);
	rc = rc ? rc : cb("policy.miss_pages", st.miss_pages, ctx);
	rc = rc ? rc : cb("policy.evictions", st.evictions, ctx);
	rc = rc ? rc : cb("policy.evicted_pages", st.evicted_pages, ctx);
	rc = rc ? rc : cb("policy.resident_pages", st.resident_pages, ctx);
	rc = rc ? rc : cb("policy.resident_units", st.resident_units, ctx);
	rc = rc ? rc : cb("policy.capacity_pages", r->capacity, ctx);
	if (!rc && r->c->kind == RF_REFPOLICY_OPT)
		rc = cb("policy.distinct", st.distinct, ctx);
	return rc;
}

struct find {
	const char *key;
	uint64_t *v;
	bool found;
};

static int find_cb(const char *key, uint64_t value, void *ctx)
{
	struct find *f = ctx;

	if (strcmp(key, f->key))
		return 0;
	*f->v = value;
	f->found = true;
	return 1;
}

bool replay_policy_run_counter(const struct replay_policy_run *r, const char *key, uint64_t *v)
{
	struct find f = { key, v, false };

	replay_policy_run_counters(r, find_cb, &f);
	return f.found;
}

const char *replay_policy_run_capacity_from(const struct replay_policy_run *r)
{
	return r->capacity_from ? r->capacity_from : "memory";
}

bool replay_policy_run_series(const struct replay_policy_run *r)
{
	return r->c->kind != RF_REFPOLICY_OPT;	/* OPT counts only at the end */
}
