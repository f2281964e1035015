/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model configuration: a profile row plus overrides.  Every key is parsed
 * here with a message that names the key and what was wrong; nothing is
 * validated later except what depends on several keys (rf_model_new).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"

#define DEFAULT_MEMORY	(4ull << 30)
#define DEFAULT_CPUS	4u

static int cfg_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cfg_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return RF_ERR_CONFIG;
}

uint64_t cfg_pages(const struct rf_model_config *c, uint64_t bytes)
{
	return bytes / c->page_size;
}

int rf_model_config_new(struct rf_model_config **out, const char *profile)
{
	const struct rf_profile *p = rf_profile_find(profile);
	struct rf_model_config *c;
	int i;

	*out = NULL;
	if (!p)
		return RF_ERR_CONFIG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return RF_ERR_NOMEM;
	c->p = *p;
	snprintf(c->profile, sizeof(c->profile), "%s", p->name);
	c->memory_bytes = DEFAULT_MEMORY;
	c->swap_bytes = 0;
	c->cpus = DEFAULT_CPUS;
	c->page_size = 4096;
	c->swappiness = 60;
	c->watermark_scale_factor = 10;
	c->kswapd_cpu = -1;
	for (i = 0; i < NR_COST_OPS; i++)
		c->cost_ns[i] = rf_cost_default_ns(i);
	*out = c;
	return 0;
}

int rf_model_config_dup(struct rf_model_config **out, const struct rf_model_config *c)
{
	struct rf_model_config *d;
	uint32_t i;

	*out = NULL;
	d = malloc(sizeof(*d));
	if (!d)
		return RF_ERR_NOMEM;
	*d = *c;
	d->limits = NULL;
	d->nr_limits = 0;
	if (c->nr_limits) {
		d->limits = calloc(c->nr_limits, sizeof(*d->limits));
		if (!d->limits)
			goto nomem;
		for (i = 0; i < c->nr_limits; i++) {
			d->limits[i] = c->limits[i];
			d->limits[i].path = strdup(c->limits[i].path);
			if (!d->limits[i].path)
				goto nomem;
			d->nr_limits++;
		}
	}
	*out = d;
	return 0;
nomem:
	rf_model_config_free(d);
	return RF_ERR_NOMEM;
}

void rf_model_config_free(struct rf_model_config *c)
{
	uint32_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_limits; i++)
		free(c->limits[i].path);
	free(c->limits);
	free(c);
}

/* "4G", "512M", "100k", "4096": bytes, binary suffixes. */
static bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	switch (tolower((unsigned char)*end)) {
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	case 't': shift = 40; end++; break;
	default: break;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

static bool parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_bool(const char *s, const char *yes, const char *no, bool *out)
{
	if (!strcmp(s, yes)) {
		*out = true;
		return true;
	}
	if (!strcmp(s, no)) {
		*out = false;
		return true;
	}
	return false;
}

static const struct {
	const char *prefix;
	uint32_t kind;
} limit_keys[] = {
	{ "limit.", RF_LIMIT_MEMORY },
	{ "memsw.", RF_LIMIT_MEMSW },
	{ "swap_max.", RF_LIMIT_SWAP },
	{ "high.", RF_LIMIT_HIGH },
	{ "low.", RF_LIMIT_LOW },
};

static int set_limit(struct rf_model_config *c, uint32_t kind, const char *path,
		     const char *value, char *err, size_t errlen, const char *key)
{
	struct rf_limit_override *l;
	uint64_t bytes;
	uint32_t i;

	if (path[0] != '/')
		return cfg_error(err, errlen, "%s: the cgroup path must start with '/'", key);
	if (!strcmp(value, "max"))
		bytes = RF_UNLIMITED;
	else if (!parse_size(value, &bytes))
		return cfg_error(err, errlen, "%s=%s: not a size (e.g. 512M, 4G, max)", key,
				 value);
	if (kind == RF_LIMIT_MEMORY && bytes < c->page_size)
		return cfg_error(err, errlen,
				 "%s=%s: a memory limit below one page (%u bytes) cannot hold any page",
				 key, value, c->page_size);
	for (i = 0; i < c->nr_limits; i++) {
		l = &c->limits[i];
		if (l->kind == kind && !strcmp(l->path, path)) {
			l->bytes = bytes;
			return 0;
		}
	}
	l = realloc(c->limits, (c->nr_limits + 1) * sizeof(*l));
	if (!l)
		return RF_ERR_NOMEM;
	c->limits = l;
	l = &c->limits[c->nr_limits];
	l->path = strdup(path);
	if (!l->path)
		return RF_ERR_NOMEM;
	l->kind = kind;
	l->bytes = bytes;
	c->nr_limits++;
	return 0;
}

static int set_cost(struct rf_model_config *c, const char *op, const char *value,
		    char *err, size_t errlen)
{
	uint64_t v;
	int i;

	for (i = 0; i < NR_COST_OPS; i++) {
		if (strcmp(op, rf_cost_name(i)))
			continue;
		if (!parse_uint(value, 1000000, &v))
			return cfg_error(err, errlen,
					 "cost.%s=%s: want nanoseconds, an integer 0..1000000",
					 op, value);
		c->cost_ns[i] = v;
		c->cost_set |= 1u << i;
		return 0;
	}
	return cfg_error(err, errlen, "cost.%s: unknown operation (see rf_model_config_describe)",
			 op);
}

int rf_model_config_set(struct rf_model_config *c, const char *key, const char *value,
			char *err, size_t errlen)
{
	uint64_t v;
	bool b;
	size_t i;

	if (err && errlen)
		err[0] = '\0';
	if (!key || !value)
		return cfg_error(err, errlen, "missing key or value");
	for (i = 0; i < sizeof(limit_keys) / sizeof(limit_keys[0]); i++) {
		size_t n = strlen(limit_keys[i].prefix);

		if (!strncmp(key, limit_keys[i].prefix, n))
			return set_limit(c, limit_keys[i].kind, key + n, value, err, errlen, key);
	}
	if (!strncmp(key, "cost.", 5))
		return set_cost(c, key + 5, value, err, errlen);

	if (!strcmp(key, "memory")) {
		if (!parse_size(value, &v))
			return cfg_error(err, errlen, "memory=%s: not a size (e.g. 4G)", value);
		if (v < (1ull << 20))
			return cfg_error(err, errlen, "memory=%s: below the 1M the model needs", value);
		c->memory_bytes = v;
		c->set |= 1u << CFG_MEMORY;
	} else if (!strcmp(key, "swap")) {
		if (!parse_size(value, &v))
			return cfg_error(err, errlen, "swap=%s: not a size (e.g. 2G, 0)", value);
		c->swap_bytes = v;
		c->set |= 1u << CFG_SWAP;
	} else if (!strcmp(key, "cpus")) {
		if (!parse_uint(value, 4096, &v) || !v)
			return cfg_error(err, errlen, "cpus=%s: want 1..4096 CPUs", value);
		c->cpus = v;
		c->set |= 1u << CFG_CPUS;
	} else if (!strcmp(key, "swappiness")) {
		if (!parse_uint(value, c->p.swappiness_max, &v))
			return cfg_error(err, errlen, "swappiness=%s: want 0..%u for %s", value,
					 c->p.swappiness_max, c->profile);
		c->swappiness = v;
		c->set |= 1u << CFG_SWAPPINESS;
	} else if (!strcmp(key, "pagevec")) {
		if (!parse_bool(value, "post-8f18", "pre-8f18", &b))
			return cfg_error(err, errlen, "pagevec=%s: want pre-8f18 or post-8f18", value);
		c->p.pvec_post_8f18 = b;
		c->set |= 1u << CFG_PAGEVEC;
	} else if (!strcmp(key, "pagevec_size")) {
		if (!parse_uint(value, MAX_PAGEVEC, &v) || !v)
			return cfg_error(err, errlen, "pagevec_size=%s: want 1..%u", value,
					 MAX_PAGEVEC);
		c->p.pagevec_size = v;
		c->set |= 1u << CFG_PAGEVEC_SIZE;
	} else if (!strcmp(key, "swap_account")) {
		if (!parse_bool(value, "on", "off", &b))
			return cfg_error(err, errlen, "swap_account=%s: want on or off", value);
		c->p.swap_account = b;
		c->set |= 1u << CFG_SWAP_ACCOUNT;
	} else if (!strcmp(key, "swap_account_key")) {
		if (!parse_bool(value, "static", "bool", &b))
			return cfg_error(err, errlen, "swap_account_key=%s: want bool or static",
					 value);
		c->swap_account_static_key = b;
		c->set |= 1u << CFG_SWAP_ACCOUNT_KEY;
	} else if (!strcmp(key, "drain")) {
		if (!parse_bool(value, "all", "local", &b))
			return cfg_error(err, errlen, "drain=%s: want local or all", value);
		c->drain_all = b;
		c->set |= 1u << CFG_DRAIN;
	} else if (!strcmp(key, "min_free_kbytes")) {
		if (!parse_uint(value, 1u << 30, &v) || !v)
			return cfg_error(err, errlen, "min_free_kbytes=%s: want a positive integer",
					 value);
		c->min_free_kbytes = v;
		c->set |= 1u << CFG_MIN_FREE_KBYTES;
	} else if (!strcmp(key, "watermark_scale_factor")) {
		if (!parse_uint(value, 3000, &v) || !v)
			return cfg_error(err, errlen, "watermark_scale_factor=%s: want 1..3000", value);
		c->watermark_scale_factor = v;
		c->set |= 1u << CFG_WSF;
	} else if (!strcmp(key, "page_size")) {
		if (!parse_uint(value, 1u << 16, &v) || v < 4096 || (v & (v - 1)))
			return cfg_error(err, errlen, "page_size=%s: want a power of two >= 4096",
					 value);
		c->page_size = v;
		c->set |= 1u << CFG_PAGE_SIZE;
	} else if (!strcmp(key, "shadow_limit")) {
		static const char *const rules[] = { "present16", "file16", "lru8" };

		for (i = 0; i < 3 && strcmp(value, rules[i]); i++)
			;
		if (i == 3 && !strcmp(value, "present8"))
			i = SHADOW_LIMIT_LRU8;	/* its name before the memcg allowance */
		if (i == 3)
			return cfg_error(err, errlen,
					 "shadow_limit=%s: want present16 (v4.5), file16 (v4.6-v4.9) "
					 "or lru8 (v5.x+)", value);
		c->p.shadow_limit = i;
		c->set |= 1u << CFG_SHADOW_LIMIT;
	} else if (!strcmp(key, "shadow_shrinker")) {
		static const char *const modes[] = { "off", "node", "memcg" };

		for (i = 0; i < 3 && strcmp(value, modes[i]); i++)
			;
		if (i == 3)
			return cfg_error(err, errlen,
					 "shadow_shrinker=%s: want memcg (v4.6+), node (v4.5) or off",
					 value);
		c->p.shadow_shrinker = i;
		c->set |= 1u << CFG_SHADOW_SHRINKER;
	} else if (!strcmp(key, "watermarks")) {
		if (!parse_bool(value, "v4.5", "scaled", &b))
			return cfg_error(err, errlen, "watermarks=%s: want v4.5 or scaled", value);
		c->p.no_wmark_scale = b;
		c->set |= 1u << CFG_WMARKS;
	} else if (!strcmp(key, "memcg_stats")) {
		if (!parse_bool(value, "flushed", "exact", &b))
			return cfg_error(err, errlen, "memcg_stats=%s: want flushed or exact", value);
		c->p.stats_flushed = b;
		c->set |= 1u << CFG_MEMCG_STATS;
	} else if (!strcmp(key, "kswapd_cpu")) {
		if (!parse_uint(value, 4095, &v))
			return cfg_error(err, errlen, "kswapd_cpu=%s: want a CPU number", value);
		c->kswapd_cpu = v;
		c->set |= 1u << CFG_KSWAPD_CPU;
	} else {
		return cfg_error(err, errlen, "unknown key \"%s\" (see rf_model_config_describe)",
				 key);
	}
	return 0;
}

void rf_model_config_from_header(struct rf_model_config *c, const struct rf_trace_header *h)
{
	const struct rf_trace_host *host = &h->host;

	if (!(c->set & (1u << CFG_MEMORY)) && host->mem_bytes >= (1ull << 20)) {
		c->memory_bytes = host->mem_bytes;
		c->set |= 1u << CFG_MEMORY;
	}
	if (!(c->set & (1u << CFG_SWAP)) && host->swap_bytes) {
		c->swap_bytes = host->swap_bytes;
		c->set |= 1u << CFG_SWAP;
	}
	if (!(c->set & (1u << CFG_CPUS)) && host->cpus) {
		c->cpus = host->cpus;
		c->set |= 1u << CFG_CPUS;
	}
	if (!(c->set & (1u << CFG_PAGE_SIZE)) && host->page_size >= 4096 &&
	    !(host->page_size & (host->page_size - 1))) {
		c->page_size = host->page_size;
		c->set |= 1u << CFG_PAGE_SIZE;
	}
}

static int describe_u64(rf_model_describe_cb cb, void *ctx, const char *key, uint64_t v,
			bool set)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return cb(key, buf, set, ctx);
}

int rf_model_config_describe(const struct rf_model_config *c, rf_model_describe_cb cb, void *ctx)
{
	static const char *const kinds[] = { "limit.", "memsw.", "swap_max.", "high.", "low." };
	const struct rf_profile *row = rf_profile_find(c->profile);
	char key[4200], val[32];
	uint32_t i;
	int r;

#define ISSET(bit) (!!(c->set & (1u << (bit))))
#define CALL(expr) do { r = (expr); if (r) return r; } while (0)
	CALL(cb("profile", c->profile, false, ctx));
	CALL(describe_u64(cb, ctx, "memory", c->memory_bytes, ISSET(CFG_MEMORY)));
	CALL(describe_u64(cb, ctx, "swap", c->swap_bytes, ISSET(CFG_SWAP)));
	CALL(describe_u64(cb, ctx, "cpus", c->cpus, ISSET(CFG_CPUS)));
	CALL(describe_u64(cb, ctx, "page_size", c->page_size, ISSET(CFG_PAGE_SIZE)));
	CALL(describe_u64(cb, ctx, "swappiness", c->swappiness, ISSET(CFG_SWAPPINESS)));
	CALL(cb("pagevec", c->p.pvec_post_8f18 ? "post-8f18" : "pre-8f18",
		row && row->pvec_post_8f18 != c->p.pvec_post_8f18, ctx));
	CALL(describe_u64(cb, ctx, "pagevec_size", c->p.pagevec_size, ISSET(CFG_PAGEVEC_SIZE)));
	CALL(cb("swap_account", c->p.swap_account ? "on" : "off", ISSET(CFG_SWAP_ACCOUNT), ctx));
	CALL(cb("swap_account_key", c->swap_account_static_key ? "static" : "bool",
		ISSET(CFG_SWAP_ACCOUNT_KEY), ctx));
	CALL(cb("drain", c->drain_all ? "all" : "local", ISSET(CFG_DRAIN), ctx));
	CALL(describe_u64(cb, ctx, "min_free_kbytes", c->min_free_kbytes,
			  ISSET(CFG_MIN_FREE_KBYTES)));
	CALL(describe_u64(cb, ctx, "watermark_scale_factor", c->watermark_scale_factor,
			  ISSET(CFG_WSF)));
	CALL(cb("shadow_limit", (const char *const[]){ "present16", "file16",
						       "lru8" }[c->p.shadow_limit % 3],
		ISSET(CFG_SHADOW_LIMIT), ctx));
	CALL(cb("shadow_shrinker", (const char *const[]){ "off", "node",
							  "memcg" }[c->p.shadow_shrinker % 3],
		ISSET(CFG_SHADOW_SHRINKER), ctx));
	CALL(cb("watermarks", c->p.no_wmark_scale ? "v4.5" : "scaled", ISSET(CFG_WMARKS), ctx));
	CALL(cb("memcg_stats", c->p.stats_flushed ? "flushed" : "exact", ISSET(CFG_MEMCG_STATS),
		ctx));
	if (c->kswapd_cpu < 0)
		CALL(cb("kswapd_cpu", "none", false, ctx));
	else
		CALL(describe_u64(cb, ctx, "kswapd_cpu", c->kswapd_cpu, true));
	for (i = 0; i < NR_COST_OPS; i++) {
		snprintf(key, sizeof(key), "cost.%s", rf_cost_name(i));
		snprintf(val, sizeof(val), "%u", c->cost_ns[i]);
		CALL(cb(key, val, !!(c->cost_set & (1u << i)), ctx));
	}
	for (i = 0; i < c->nr_limits; i++) {
		const struct rf_limit_override *l = &c->limits[i];

		snprintf(key, sizeof(key), "%s%s", l->kind < 5 ? kinds[l->kind] : "?", l->path);
		if (l->bytes == RF_UNLIMITED)
			snprintf(val, sizeof(val), "max");
		else
			snprintf(val, sizeof(val), "%" PRIu64, l->bytes);
		CALL(cb(key, val, true, ctx));
	}
#undef CALL
#undef ISSET
	return 0;
}
