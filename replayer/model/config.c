/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Model configuration: a profile row plus overrides.  One table, keys[],
 * says every key rf_model_config_set() takes: its name, the kind and range
 * of its value, the names an enumerated value takes, where the value lives
 * in struct rf_model_config, and a line of help.  Setting, describing,
 * listing (rf_model_config_keys()) and the messages for a bad key or value
 * all read it, so a key is one row.  What depends on several keys is
 * checked when a model is made (cfg_validate()).
 *
 * A per-cgroup key names its cgroup by path ("limit./a/b") or by its role,
 * as results name it: "limit.recorded", "limit.recorded/x" (the recorded
 * cgroup and a child of it), which only the trace can turn into a path:
 * rf_model_config_resolve_cgroups(), before a model is made.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/utf8.h"
#include "lib/grow.h"
#include "lib/units.h"
#include "model-local.h"
#include "config.h"
#include "profile.h"
#include "vmstat.h"

#define DEFAULT_MEMORY	(4ull << 30)
#define DEFAULT_CPUS	4u
#define COST_MAX_NS	1000000u

/* Where a key's value lives. */
enum key_store {
	STORE_FIELD,	/* the field of .size bytes at .offset in struct rf_model_config */
	STORE_COST,	/* cost_ns[.index] */
	STORE_LIMIT,	/* an override of limit kind .index for the cgroup named after the prefix */
};

/* Flags of the model's own (iflags), above the public RF_MODEL_KEY_* ones (k.flags). */
#define KEY_OVERRIDDEN_IF_CHANGED 0x100u /* describe: overridden if it differs from the profile */
#define KEY_NONE_IF_NEGATIVE	0x200u	/* describe: a negative value is "none", not overridden */
#define KEY_MIN_ONE_PAGE	0x400u	/* a limit below one page cannot hold any page */
#define KEY_SWITCH		0x800u	/* a profile switch's (RF_PROFILE_SWITCHES) */

struct cfg_key {
	struct rf_model_key k;
	uint16_t iflags;	/* KEY_* */
	uint8_t store;		/* enum key_store */
	uint8_t size;		/* STORE_FIELD: 1 (bool), 4 or 8 bytes */
	uint32_t index;		/* STORE_COST: the operation; STORE_LIMIT: enum rf_limit_kind */
	size_t offset;		/* STORE_FIELD */
	const char *alias;	/* ENUM: another name taken for value alias_of */
	unsigned int alias_of;
};

#define FIELD(f)								\
	.store = STORE_FIELD, .offset = offsetof(struct rf_model_config, f),	\
	.size = sizeof(((struct rf_model_config *)0)->f)

#define FLAGS(fl)	.flags = (fl) & 0xffu
#define IFLAGS(fl)	.iflags = (fl) & ~0xffu

#define SIZE_KEY(n, f, lo, fl, h)						\
	{ .k = { .name = n, .type = RF_MODEL_KEY_SIZE, FLAGS(fl), .min = (lo),	\
		 .max = UINT64_MAX, .help = h }, IFLAGS(fl), FIELD(f) }
#define UINT_KEY(n, f, lo, hi, fl, h)						\
	{ .k = { .name = n, .type = RF_MODEL_KEY_UINT, FLAGS(fl), .min = (lo),	\
		 .max = (hi), .help = h }, IFLAGS(fl), FIELD(f) }
#define ENUM_KEY(n, f, v, fl, h)						\
	ENUM_ALIAS_KEY(n, f, v, fl, h, NULL, 0)
#define ENUM_ALIAS_KEY(n, f, v, fl, h, a, of)					\
	{ .k = { .name = n, .type = RF_MODEL_KEY_ENUM, FLAGS(fl), .values = v,	\
		 .help = h }, IFLAGS(fl), FIELD(f), .alias = a, .alias_of = of }
#define LIMIT_KEY(n, kind, fl, h)						\
	{ .k = { .name = n, .type = RF_MODEL_KEY_SIZE,				\
		 .flags = RF_MODEL_KEY_PER_CGROUP | RF_MODEL_KEY_UNLIMITED,		\
		 .max = UINT64_MAX, .help = h }, IFLAGS(fl), .store = STORE_LIMIT, .index = kind }

/* Names by value; for a bool, the name of false first. */
static const char *const pagevec_names[] = { "pre-8f18", "post-8f18", NULL };
static const char *const on_off_names[] = { "off", "on", NULL };
static const char *const fault_around_names[] = { "auto", "reference", "cached", "mapped", NULL };
static const char *const idle_absent_names[] = { "fault", "skip", NULL };
static const char *const writeback_names[] = { "clean", "flusher", "recorded", NULL };
static const char *const thp_names[] = { "recorded", "never", NULL };
static const char *const account_key_names[] = { "bool", "static", NULL };
static const char *const drain_names[] = { "local", "all", NULL };
static const char *const shadow_limit_names[] = { "present16", "file16", "lru8", NULL };
static const char *const shadow_shrinker_names[] = { "off", "node", "memcg", NULL };
static const char *const watermarks_names[] = { "scaled", "v4.5", NULL };
static const char *const memcg_stats_names[] = { "exact", "flushed", NULL };
/* the profile switches' enums (profile.h), by value */
static const char *const ws_domain_names[] = { "zone", "memcg", "reclaim-root", NULL };
static const char *const ws_cost_names[] = { "atomic", "lock-page-memcg", "rcu", NULL };
static const char *const file_low_names[] = { "half", "sqrt", "sqrt-refault", "at-root", NULL };
static const char *const balance_names[] = { "rotated", "cost", "cost-io", NULL };

/* A key per profile switch (profile.h's RF_PROFILE_SWITCHES), named after its field. */
#define SWITCH_BOOL_(f, h)							\
	ENUM_KEY(#f, p.f, on_off_names, KEY_SWITCH, h "; default per profile"),
#define SWITCH_UINT_(f, lo, hi, h)						\
	UINT_KEY(#f, p.f, lo, hi, KEY_SWITCH, h "; default per profile"),
#define SWITCH_ENUM_(t, f, h)							\
	ENUM_KEY(#f, p.f, f##_names, KEY_SWITCH, h "; default per profile"),
#define SWITCH_OWN_(t, f, h)	/* a key of its own above */

static const struct cfg_key keys[] = {
	SIZE_KEY("memory", memory_bytes, 1ull << 20, 0,
		 "memory of the node; default 4G, or the trace header's"),
	SIZE_KEY("swap", swap_bytes, 0, 0, "swap space; default 0, or the trace header's"),
	UINT_KEY("cpus", cpus, 1, 4096, 0,
		 "CPUs, each with its LRU batches (event CPUs are taken modulo this); "
		 "default 4, or the trace header's"),
	UINT_KEY("page_size", page_size, 4096, 65536, RF_MODEL_KEY_POW2,
		 "base page size in bytes; default 4096, or the trace header's"),
	UINT_KEY("swappiness", swappiness, 0, 200, RF_MODEL_KEY_PROFILE_MAX,
		 "vm.swappiness, at most 100 for v4.x profiles, 200 from v5.x; default 60"),
	ENUM_KEY("pagevec", p.pvec_post_8f18, pagevec_names, KEY_OVERRIDDEN_IF_CHANGED,
		 "LRU batches before or after 8f182270 (post: a compound page drains its batch "
		 "at once); default per profile"),
	UINT_KEY("pagevec_size", p.pagevec_size, 1, MAX_PAGEVEC, 0,
		 "pages per LRU batch; default per profile: 14 (v4.x), 15 (v5.10, v6.1), 31 (v6.12, v6.18)"),
	ENUM_KEY("swap_account", p.swap_account, on_off_names, 0,
		 "memcg swap accounting (swapaccount=); default on"),
	ENUM_KEY("swap_account_key", swap_account_static_key, account_key_names, 0,
		 "the swap accounting test as a plain bool or, as c1b8fdae made it, a static "
		 "branch that costs nothing; default bool"),
	ENUM_KEY("drain", drain_all, drain_names, 0,
		 "reclaim drains the LRU batches of its own CPU (local, as every kernel) or of "
		 "all CPUs (all: no kernel does); default local"),
	UINT_KEY("min_free_kbytes", min_free_kbytes, 1, 1u << 30, 0,
		 "vm.min_free_kbytes in KiB; default int_sqrt(16 x memory in KiB), "
		 "within 128..65536"),
	UINT_KEY("watermark_scale_factor", watermark_scale_factor, 1, 3000, 0,
		 "vm.watermark_scale_factor (watermarks=scaled); default 10"),
	ENUM_ALIAS_KEY("shadow_limit", p.shadow_limit, shadow_limit_names, 0,
		 "shadow nodes a list may keep: present16 (v4.5, node pages >> 4), file16 "
		 "(v4.6-v4.9, the memcg's file LRU pages >> 4), lru8 (v5.x+, its LRU and slab "
		 "pages >> 3; present8 is an old name); default per profile",
		 "present8", SHADOW_LIMIT_LRU8),
	ENUM_KEY("shadow_shrinker", p.shadow_shrinker, shadow_shrinker_names, 0,
		 "shadow-node lists: memcg (v4.6+, one per memcg, shrunk after each memcg's "
		 "scan), node (v4.5, one list, global reclaim only), off; default per profile"),
	ENUM_KEY("watermarks", p.no_wmark_scale, watermarks_names, 0,
		 "low and high watermarks: v4.5 (min x 5/4, min x 3/2) or scaled by "
		 "watermark_scale_factor (v4.6+); default per profile"),
	ENUM_KEY("memcg_stats", p.stats_flushed, memcg_stats_names, 0,
		 "memcg statistics as reclaim reads them: flushed (v6.x rstat: as of the last "
		 "flush) or exact; default flushed for v6.18, exact before"),
	UINT_KEY("lru_gen", p.lru_gen_caps, 0, 7, 0,
		 "the multi-gen LRU, as /sys/kernel/mm/lru_gen/enabled: 0 off (classic), bits 0x1 "
		 "core, 0x2 page-table walk, 0x4 non-leaf young; v6.1, v6.12 and v6.18 only "
		 "(their rules: docs/model.md); default 7 for the -mglru profiles, 0 otherwise"),
	UINT_KEY("lru_gen.min_ttl_ms", lru_gen_min_ttl_ms, 0, 1u << 30, 0,
		 "/sys/kernel/mm/lru_gen/min_ttl_ms: kswapd counts an OOM when every memcg's "
		 "oldest generation is younger; default 0 (off)"),
	UINT_KEY("lru_gen.seed", lru_gen_seed, 0, UINT64_MAX, 0,
		 "seed of the generator standing in for get_random_u32_below() (the memcg "
		 "LRU's bins); default 1"),
	ENUM_KEY("damon", damon, on_off_names, 0,
		 "DAMON's accessed-bit samples (damon_region events of record --damon) give the "
		 "region's mapped pages the young PTEs DAMON saw; default on"),
	ENUM_KEY("fault_around", fault_around, fault_around_names, 0,
		 "a folio fault-around mapped (file_fault with RF_REF_AROUND) that the model "
		 "does not hold: reference (read in as the program's fault: it goes on to touch "
		 "what the window mapped), cached (the kernel had it: in, unreferenced, no "
		 "refault counted), mapped (left out: only the kernel's faults read), auto "
		 "(cached in a MADV_RANDOM mapping, reference elsewhere); default auto"),
	ENUM_KEY("idle_absent", idle_absent_skip, idle_absent_names, 0,
		 "a page a pte_young event (record --idle-pages) names that the model evicted "
		 "(a shadow or a swap entry): fault (the access the scan saw faults it in, as it "
		 "would have under the model's policy) or skip (left alone, counted in "
		 "model.idle_absent: the scan comes up to an interval after the access, which "
		 "the kernel may have held the page for); default fault"),
	ENUM_KEY("writeback", writeback, writeback_names, 0,
		 "dirty file pages: clean (taken as written by the flusher before reclaim meets "
		 "them) or flusher (dirty until a sync call of the trace, the flusher's background "
		 "threshold or expiry, or reclaim's wakeup writes them; reclaim activates those it "
		 "meets; needs a trace with the sync calls, format 3.3) or recorded (dirty until "
		 "the trace's file_written says the kernel's write of it ended: the recording "
		 "kernel's flusher and disk; record's refault:folio_end_writeback); default recorded "
		 "for a trace that has it, clean otherwise"),
	ENUM_KEY("zero_page", zero_page, on_off_names, 0,
		 "a read fault of anonymous memory never written: on (maps the shared zero page, "
		 "do_anonymous_page(): nothing allocated until a write faults) or off (allocates a "
		 "page, as a kernel that forbids the zero page does); default the recording "
		 "kernel's, as refault record probed it (the header's host.zero_page), off for a "
		 "trace that does not say"),
	ENUM_KEY("thp", thp_never, thp_names, 0,
		 "anonymous folios: recorded (each fault at the order the kernel allocated) or "
		 "never (/sys/kernel/mm/transparent_hugepage/enabled never: a recorded large "
		 "fault is its folio's base pages, each faulted at once, as do_anonymous_page() "
		 "would one by one); default recorded"),
	ENUM_KEY("cgroup_writeback", cgroup_writeback, on_off_names, 0,
		 "writeback=flusher: each memcg a dirty domain of its own (cgroup v2's writeback, "
		 "its background threshold from its memory.max), or only the node's (v1); "
		 "default on for traces recorded on cgroup v2"),
	UINT_KEY("kswapd_cpu", kswapd_cpu, 0, 4095, KEY_NONE_IF_NEGATIVE,
		 "the CPU kswapd runs on; default none (a CPU no event names)"),
	RF_PROFILE_SWITCHES(SWITCH_BOOL_, SWITCH_UINT_, SWITCH_ENUM_, SWITCH_OWN_)
#define X(op_, name_, ns_, help_)						\
	{ .k = { .name = "cost." name_, .type = RF_MODEL_KEY_UINT, .max = COST_MAX_NS,	\
		 .help = "ns per " help_ "; default " #ns_ }, .store = STORE_COST,	\
	  .index = COST_##op_ },
	RF_COST_LIST(X)
#undef X
	LIMIT_KEY("limit.", RF_LIMIT_MEMORY, KEY_MIN_ONE_PAGE,
		  "memory.max (v1 memory.limit_in_bytes) of a cgroup of the trace: recorded (the "
		  "one recorded), recorded/CHILD or /a/b; wins over the trace's"),
	LIMIT_KEY("memsw.", RF_LIMIT_MEMSW, 0,
		  "memory.memsw.limit_in_bytes (v1) of a cgroup; wins over the trace's"),
	LIMIT_KEY("swap_max.", RF_LIMIT_SWAP, 0,
		  "memory.swap.max (v2) of a cgroup; wins over the trace's"),
	LIMIT_KEY("high.", RF_LIMIT_HIGH, 0, "memory.high of a cgroup; wins over the trace's"),
	LIMIT_KEY("low.", RF_LIMIT_LOW, 0, "memory.low of a cgroup; wins over the trace's"),
};

_Static_assert(ARRAY_SIZE(keys) <= 64 * ARRAY_SIZE(((struct rf_model_config *)0)->set),
	       "struct rf_model_config.set has a bit per key");
_Static_assert(sizeof(enum shadow_limit_rule) == 4 && sizeof(enum shadow_shrinker_mode) == 4 &&
	       sizeof(enum ws_domain) == 4 && sizeof(enum ws_activation_cost) == 4 &&
	       sizeof(enum file_low_rule) == 4 && sizeof(enum scan_balance_rule) == 4 &&
	       sizeof(unsigned int) == 4, "enumerated fields are stored as 4 bytes");

/* Whether key @k was set explicitly (or from the trace's header) in @c. */
static bool key_is_set(const struct rf_model_config *c, const struct cfg_key *k)
{
	size_t i = (size_t)(k - keys);

	return c->set[i / 64] >> (i % 64) & 1;
}

static void key_mark_set(struct rf_model_config *c, const struct cfg_key *k)
{
	size_t i = (size_t)(k - keys);

	c->set[i / 64] |= 1ull << (i % 64);
}

/* The row named exactly @name, or NULL. */
static const struct cfg_key *key_named(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!(keys[i].k.flags & RF_MODEL_KEY_PER_CGROUP) && !strcmp(keys[i].k.name, name))
			return &keys[i];
	return NULL;
}

/* The row of @key: a name, or a per-cgroup prefix (then *@path is what follows it). */
static const struct cfg_key *key_lookup(const char *key, const char **path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *name = keys[i].k.name;
		size_t n = strlen(name);

		if (!(keys[i].k.flags & RF_MODEL_KEY_PER_CGROUP))
			continue;
		if (!strncmp(key, name, n)) {
			*path = key + n;
			return &keys[i];
		}
	}
	*path = NULL;
	return key_named(key);
}

static size_t nr_values(const struct cfg_key *k)
{
	size_t n = 0;

	while (k->k.values[n])
		n++;
	return n;
}

static uint64_t field_get(const struct rf_model_config *c, const struct cfg_key *k)
{
	const char *f = (const char *)c + k->offset;
	uint32_t u32;
	uint64_t u64;
	bool b;

	switch (k->size) {
	case 1:
		memcpy(&b, f, 1);
		return b;
	case 4:
		memcpy(&u32, f, 4);
		return u32;
	default:
		memcpy(&u64, f, 8);
		return u64;
	}
}

static void field_put(struct rf_model_config *c, const struct cfg_key *k, uint64_t v)
{
	char *f = (char *)c + k->offset;
	uint32_t u32 = (uint32_t)v;
	bool b = v;

	switch (k->size) {
	case 1:
		memcpy(f, &b, 1);
		break;
	case 4:
		memcpy(f, &u32, 4);
		break;
	default:
		memcpy(f, &v, 8);
		break;
	}
}

/* ------------------------------------------------------------ messages */

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

/* Append to @buf (of @len bytes, NUL-terminated) what printf makes of @fmt. */
static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* A byte count as a size key would be written: 1M, 4G, 4096. */
static void append_size(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMGTP";
	int i = -1;

	while (v && !(v & 1023) && i < 4) {
		v >>= 10;
		i++;
	}
	append(buf, len, "%" PRIu64 "%.*s", v, i >= 0, i >= 0 ? &units[i] : "");
}

/* What @k takes, in words (for @c's profile): "1..4096", "pre-8f18 or post-8f18". */
static const char *allowed(const struct rf_model_config *c, const struct cfg_key *k, char *buf,
			   size_t len)
{
	const char *const *v;

	buf[0] = '\0';
	switch (k->k.type) {
	case RF_MODEL_KEY_ENUM:
		for (v = k->k.values; *v; v++)
			append(buf, len, "%s%s", v == k->k.values ? "" : v[1] ? ", " : " or ", *v);
		break;
	case RF_MODEL_KEY_SIZE:
		append(buf, len, "a size such as 4G, 512M or 65536");
		if (k->k.min) {
			append(buf, len, ", at least ");
			append_size(buf, len, k->k.min);
		}
		if (k->k.flags & RF_MODEL_KEY_UNLIMITED)
			append(buf, len, ", or max");
		break;
	default:
		if (k->k.flags & RF_MODEL_KEY_POW2)
			append(buf, len, "a power of two, ");
		if (k->k.flags & RF_MODEL_KEY_PROFILE_MAX)
			append(buf, len, "%" PRIu64 "..%u for %s", k->k.min, c->p.swappiness_max,
			       c->profile);
		else
			append(buf, len, "%" PRIu64 "..%" PRIu64, k->k.min, k->k.max);
		if (k->store == STORE_COST)
			append(buf, len, " (ns)");
		break;
	}
	return buf;
}

/* Edit distance of @a and @b, up to 3 (enough to say "did you mean"). */
static unsigned int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int row[64], prev, tmp;

	if (lb >= ARRAY_SIZE(row) || (la > lb ? la - lb : lb - la) > 2)
		return 3;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = RF_MIN(RF_MIN(row[j] + 1, row[j - 1] + 1),
					prev + (a[i - 1] != b[j - 1]));
			prev = tmp;
		}
	}
	return RF_MIN(row[lb], 3u);
}

static int unknown_key(const char *key, char *err, size_t errlen)
{
	const struct cfg_key *near = NULL;
	unsigned int best = 3;
	bool cost_listed = false;
	size_t i;

	if (!err || !errlen)
		return RF_ERR_CONFIG;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		unsigned int d = distance(key, keys[i].k.name);

		if (!(keys[i].k.flags & RF_MODEL_KEY_PER_CGROUP) && d < best) {
			best = d;
			near = &keys[i];
		}
	}
	if (!strncmp(key, "cost.", 5) && !near) {
		cfg_error(err, errlen, "%s: unknown cost operation; the operations are", key);
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			if (keys[i].store != STORE_COST)
				continue;
			append(err, errlen, "%s %s", cost_listed ? "," : "", keys[i].k.name + 5);
			cost_listed = true;
		}
		return RF_ERR_CONFIG;
	}
	cfg_error(err, errlen, "unknown key \"%s\"", key);
	if (near)
		append(err, errlen, " (did you mean \"%s\"?)", near->k.name);
	append(err, errlen, "; the keys are");
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct rf_model_key *k = &keys[i].k;

		if ((keys[i].store == STORE_COST && cost_listed) || (keys[i].iflags & KEY_SWITCH))
			continue;
		append(err, errlen, "%s %s%s", i ? "," : "",
		       keys[i].store == STORE_COST ? "cost.<op>" : k->name,
		       k->flags & RF_MODEL_KEY_PER_CGROUP ? "<path>" : "");
		cost_listed |= keys[i].store == STORE_COST;
	}
	append(err, errlen, ", and one per profile switch, named after it (--list-keys lists them)");
	return RF_ERR_CONFIG;
}

/* --------------------------------------------------------------- values */

static bool parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

/* @s as a value of @k, checked against its range; false if it is not one. */
static bool parse_value(const struct rf_model_config *c, const struct cfg_key *k, const char *s,
			uint64_t *v)
{
	uint64_t max = k->k.flags & RF_MODEL_KEY_PROFILE_MAX ? c->p.swappiness_max : k->k.max;
	const char *const *name;

	switch (k->k.type) {
	case RF_MODEL_KEY_ENUM:
		for (name = k->k.values; *name; name++) {
			if (!strcmp(s, *name)) {
				*v = (uint64_t)(name - k->k.values);
				return true;
			}
		}
		if (k->alias && !strcmp(s, k->alias)) {
			*v = k->alias_of;
			return true;
		}
		return false;
	case RF_MODEL_KEY_SIZE:
		if ((k->k.flags & RF_MODEL_KEY_UNLIMITED) && !strcmp(s, "max")) {
			*v = RF_UNLIMITED;
			return true;
		}
		return !rf_parse_size(s, v) && *v >= k->k.min && *v <= max;
	default:
		if (!parse_uint(s, max, v) || *v < k->k.min)
			return false;
		return !(k->k.flags & RF_MODEL_KEY_POW2) || !(*v & (*v - 1));
	}
}

/* ------------------------------------------------------------ the config */

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
	c->lru_gen_seed = 1;
	c->damon = true;
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
	d->cap_limits = 0;
	if (c->nr_limits) {
		d->limits = calloc(c->nr_limits, sizeof(*d->limits));
		if (!d->limits)
			goto nomem;
		d->cap_limits = c->nr_limits;
		for (i = 0; i < c->nr_limits; i++) {
			d->limits[i] = c->limits[i];
			d->limits[i].path = strdup(c->limits[i].path);
			d->limits[i].target = c->limits[i].target ? strdup(c->limits[i].target) :
					      NULL;
			d->nr_limits++;
			if (!d->limits[i].path || (c->limits[i].target && !d->limits[i].target))
				goto nomem;
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
	for (i = 0; i < c->nr_limits; i++) {
		free(c->limits[i].path);
		free(c->limits[i].target);
	}
	free(c->limits);
	free(c);
}

/* "recorded" or "recorded/CHILD": the recorded cgroup by its role, as results name it. */
static bool recorded_target(const char *t)
{
	return !strncmp(t, "recorded", 8) && (!t[8] || t[8] == '/');
}

/* The key's prefix for limit kind @kind ("limit."). */
static const char *limit_prefix(uint32_t kind)
{
	size_t j;

	for (j = 0; j < ARRAY_SIZE(keys); j++)
		if (keys[j].store == STORE_LIMIT && keys[j].index == kind)
			return keys[j].k.name;
	return "?";
}

static int set_limit(struct rf_model_config *c, const struct cfg_key *k, const char *path,
		     const char *value, char *err, size_t errlen, const char *key)
{
	struct rf_limit_override *l;
	uint64_t bytes;
	uint32_t i;
	char want[256];

	if (path[0] != '/' && !recorded_target(path))
		return cfg_error(err, errlen, "%s: name the cgroup as recorded (the one the trace "
				 "recorded), recorded/CHILD (below it) or by its path from the root, "
				 "/a/b", key);
	if (!parse_value(c, k, value, &bytes))
		return cfg_error(err, errlen, "%s=%s: want %s", key, value,
				 allowed(c, k, want, sizeof(want)));
	if ((k->iflags & KEY_MIN_ONE_PAGE) && bytes < c->page_size)
		return cfg_error(err, errlen,
				 "%s=%s: a memory limit below one page (%u bytes) cannot hold "
				 "any page", key, value, c->page_size);
	for (i = 0; i < c->nr_limits; i++) {
		l = &c->limits[i];
		if (l->kind == k->index && !strcmp(l->target ? l->target : l->path, path)) {
			l->bytes = bytes;
			return 0;
		}
	}
	if (RF_GROW(c->limits, c->cap_limits, c->nr_limits + 1))
		return RF_ERR_NOMEM;
	l = &c->limits[c->nr_limits];
	memset(l, 0, sizeof(*l));
	/* a role is its own path until the trace names it: no memcg's path is "recorded" */
	l->path = strdup(path);
	l->target = recorded_target(path) ? strdup(path) : NULL;
	if (!l->path || (recorded_target(path) && !l->target)) {
		free(l->path);
		free(l->target);
		return RF_ERR_NOMEM;
	}
	l->kind = k->index;
	l->bytes = bytes;
	c->nr_limits++;
	return 0;
}

int rf_model_config_resolve_cgroups(struct rf_model_config *c, rf_model_cgroup_cb cb, void *ctx,
				    char *err, size_t errlen)
{
	char key[RF_MAX_STRING + 16], path[RF_MAX_STRING];
	uint32_t i, j;
	int r;

	if (err && errlen)
		err[0] = '\0';
	for (i = 0; i < c->nr_limits; i++) {
		struct rf_limit_override *l = &c->limits[i];
		const char *as_set = l->target ? l->target : l->path;
		char *p;

		snprintf(key, sizeof(key), "%s%s", limit_prefix(l->kind), as_set);
		path[0] = '\0';
		r = cb(key, as_set, path, sizeof(path), ctx, err, errlen);
		if (r)
			return r;
		if (path[0] != '/')
			return cfg_error(err, errlen, "%s: not a cgroup of the trace", key);
		p = strdup(path);
		if (!p)
			return RF_ERR_NOMEM;
		free(l->path);
		l->path = p;
	}
	/* two names of one cgroup ("recorded" and its path): which value was meant is not known */
	for (i = 0; i < c->nr_limits; i++)
		for (j = 0; j < i; j++)
			if (c->limits[i].kind == c->limits[j].kind &&
			    !strcmp(c->limits[i].path, c->limits[j].path))
				return cfg_error(err, errlen, "%s%s and %s%s name the same cgroup, %s: "
						 "set one of them",
						 limit_prefix(c->limits[j].kind),
						 c->limits[j].target ? c->limits[j].target :
						 c->limits[j].path, limit_prefix(c->limits[i].kind),
						 c->limits[i].target ? c->limits[i].target :
						 c->limits[i].path, c->limits[i].path);
	return 0;
}

int rf_model_config_set(struct rf_model_config *c, const char *key, const char *value,
			char *err, size_t errlen)
{
	const struct cfg_key *k;
	const char *path;
	char want[256];
	uint64_t v;

	if (err && errlen)
		err[0] = '\0';
	if (!key || !value)
		return cfg_error(err, errlen, "missing key or value");
	if (!rf_utf8_printable(key))
		return cfg_error(err, errlen, "a key with a control character or bytes that are not "
				 "UTF-8");
	if (!rf_utf8_printable(value))
		return cfg_error(err, errlen, "%s: a value with a control character or bytes that are "
				 "not UTF-8", key);
	k = key_lookup(key, &path);
	if (!k)
		return unknown_key(key, err, errlen);
	if (k->store == STORE_LIMIT)
		return set_limit(c, k, path, value, err, errlen, key);
	if (!parse_value(c, k, value, &v))
		return cfg_error(err, errlen, "%s=%s: want %s", key, value,
				 allowed(c, k, want, sizeof(want)));
	if (k->store == STORE_COST)
		c->cost_ns[k->index] = (uint32_t)v;
	else
		field_put(c, k, v);
	key_mark_set(c, k);
	return 0;
}

/* Key @name takes @v from the trace header, if @v is usable and the key was not set. */
/* A value from the trace's header, unless the user set the key or the key cannot take it. */
static void header_value(struct rf_model_config *c, const char *name, uint64_t v, bool usable)
{
	const struct cfg_key *k = key_named(name);

	if (!k || key_is_set(c, k) || !usable)
		return;
	/* into the key's range: a 8192-CPU host's events go to 4096 CPUs, modulo, as the key says */
	if (k->k.max && v > k->k.max)
		v = k->k.max;
	if (v < k->k.min)
		return;
	field_put(c, k, v);
	key_mark_set(c, k);
}

void rf_model_config_from_header(struct rf_model_config *c, const struct rf_trace_header *h)
{
	const struct rf_trace_host *host = &h->host;

	header_value(c, "memory", host->mem_bytes, host->mem_bytes >= (1ull << 20));
	header_value(c, "swap", host->swap_bytes, host->swap_bytes);
	header_value(c, "cpus", host->cpus, host->cpus);
	header_value(c, "page_size", host->page_size,
		     host->page_size >= 4096 && !(host->page_size & (host->page_size - 1)));
	header_value(c, "cgroup_writeback", 1, host->cgroup_version == 2);
	header_value(c, "zero_page", host->zero_page == RF_ZERO_PAGE_MAPS,
		     host->zero_page != RF_ZERO_PAGE_UNKNOWN);
	/* the trace says when each write ended: the recording kernel's flusher and disk */
	header_value(c, "writeback", WRITEBACK_RECORDED, strstr(h->sources, "folio_end_writeback"));
}

bool rf_model_config_lru_gen(const struct rf_model_config *c)
{
	return c->p.lru_gen_caps != 0;
}

int rf_model_config_describe(const struct rf_model_config *c, rf_model_describe_cb cb, void *ctx)
{
	const struct rf_profile *row = rf_profile_find(c->profile);
	char key[RF_MAX_STRING + 104], val[32];
	uint32_t i;
	int r;

	r = cb("profile", c->profile, false, ctx);
	if (!r && c->base[0])
		r = cb("base", c->base, false, ctx);
	for (i = 0; !r && i < ARRAY_SIZE(keys); i++) {
		const struct cfg_key *k = &keys[i];
		bool set = key_is_set(c, k);
		uint64_t v;

		if (k->store == STORE_LIMIT)
			continue;
		v = k->store == STORE_COST ? c->cost_ns[k->index] : field_get(c, k);
		if ((k->iflags & KEY_NONE_IF_NEGATIVE) && (int32_t)v < 0) {
			r = cb(k->k.name, "none", false, ctx);
			continue;
		}
		if (k->iflags & KEY_NONE_IF_NEGATIVE)
			set = true;
		if ((k->iflags & KEY_OVERRIDDEN_IF_CHANGED) && row) {
			/* the profile's own value: its row where the config keeps its copy */
			struct rf_model_config rc = { .p = *row };

			set = field_get(&rc, k) != v;
		} else if (k->iflags & KEY_OVERRIDDEN_IF_CHANGED) {
			set = false;
		}
		if (k->k.type == RF_MODEL_KEY_ENUM) {
			r = cb(k->k.name, k->k.values[v < nr_values(k) ? v : 0], set, ctx);
		} else {
			snprintf(val, sizeof(val), "%" PRIu64, v);
			r = cb(k->k.name, val, set, ctx);
		}
	}
	for (i = 0; !r && i < c->nr_limits; i++) {
		const struct rf_limit_override *l = &c->limits[i];

		/* as set: "limit.recorded" is the same setting in every recording */
		snprintf(key, sizeof(key), "%s%s", limit_prefix(l->kind),
			 l->target ? l->target : l->path);
		if (l->bytes == RF_UNLIMITED)
			snprintf(val, sizeof(val), "max");
		else
			snprintf(val, sizeof(val), "%" PRIu64, l->bytes);
		r = cb(key, val, true, ctx);
	}
	return r;
}

int rf_model_config_keys(rf_model_key_cb cb, void *ctx)
{
	size_t i;
	int r = 0;

	for (i = 0; !r && i < ARRAY_SIZE(keys); i++)
		r = cb(&keys[i].k, ctx);
	return r;
}

bool cfg_cost_set(const struct rf_model_config *c, enum rf_cost_op op)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].store == STORE_COST && keys[i].index == (uint32_t)op)
			return key_is_set(c, &keys[i]);
	return false;
}

int cfg_validate(const struct rf_model_config *c, char *err, size_t errlen)
{
	const struct cfg_key *pv = key_named("pagevec_size");
	uint32_t i;

	if (!c->cpus)
		return cfg_error(err, errlen, "cpus=0: a model needs at least one CPU");
	if (c->kswapd_cpu >= (int32_t)c->cpus)
		return cfg_error(err, errlen, "kswapd_cpu=%d: only %u CPUs", c->kswapd_cpu,
				 c->cpus);
	if (c->memory_bytes / c->page_size < 256)
		return cfg_error(err, errlen, "memory=%llu: below the 256 pages the model needs",
				 (unsigned long long)c->memory_bytes);
	if (c->p.pagevec_size < pv->k.min || c->p.pagevec_size > pv->k.max)
		return cfg_error(err, errlen, "pagevec_size=%u: want %" PRIu64 "..%" PRIu64,
				 c->p.pagevec_size, pv->k.min, pv->k.max);
	if (c->p.lru_gen_caps && !c->p.lru_gen_rules)
		return cfg_error(err, errlen, "lru_gen=%u: profile %s has no multi-gen LRU modelled "
				 "(v6.1's, v6.12's and v6.18's are: take an -mglru profile, or "
				 "lru_gen=0)",
				 c->p.lru_gen_caps, c->profile);
	if (c->p.lru_gen_caps && !(c->p.lru_gen_caps & LRU_GEN_CAP_CORE))
		return cfg_error(err, errlen, "lru_gen=%u: the walk bits (0x2, 0x4) need the core "
				 "(0x1), as the kernel's enabled file does: take lru_gen=%u or 0",
				 c->p.lru_gen_caps, c->p.lru_gen_caps | LRU_GEN_CAP_CORE);
	for (i = 0; i < c->nr_limits; i++)
		if (c->limits[i].path[0] != '/')
			return cfg_error(err, errlen, "%s%s: which cgroup that is, only a trace "
					 "says: name it first (rf_model_config_resolve_cgroups(), as "
					 "the replay engine does)", limit_prefix(c->limits[i].kind),
					 c->limits[i].path);
	for (i = 0; i < c->nr_limits; i++)
		if (c->limits[i].kind == RF_LIMIT_MEMORY && c->limits[i].bytes < c->page_size)
			return cfg_error(err, errlen,
					 "limit.%s: below one page (%u bytes) cannot hold any page",
					 c->limits[i].path, c->page_size);
	return 0;
}
