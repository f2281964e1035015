/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Counters out.  The global ones are named as today's /proc/vmstat names
 * them (mm/vmstat.c: vmstat_text, v6.18), whatever the profile, so that one
 * quantity has one name across kernel eras: pgscan_kswapd, not v4.6's
 * zone-suffixed pgscan_kswapd_normal; workingset_refault_file, not v4.x's
 * workingset_refault.  What each profile's kernel calls them is given by
 * rf_model_aliases(): v4.6.2 has zone-suffixed pgrefill/pgscan/pgsteal
 * ("_normal": the model's one zone) and one allocstall, v4.8+ node names
 * and allocstall_<zone>, v5.8+ pgscan_anon/file, v5.9+ workingset_*_anon/
 * _file (before v5.9 anon pages leave no shadow entries, so the file count
 * is the kernel's whole workingset_refault).  What a quantity counts stays
 * the profile's (a v4.x huge page is one pgscan).  Model-only values are
 * under "model." and "gauge.", the cost model under "cost.".  The order is
 * fixed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
#include "model-local.h"
#include "config.h"
#include "lru_gen.h"
#include "vmstat.h"

static const char *const cost_names[NR_COST_OPS] = {
#define X(op, name, ns, help) name,
	RF_COST_LIST(X)
#undef X
};

static const uint32_t cost_defaults[NR_COST_OPS] = {
#define X(op, name, ns, help) ns,
	RF_COST_LIST(X)
#undef X
};

static const char *const event_names[NR_VM_EVENTS] = {
#define X(ev, name) name,
	RF_EVENT_LIST(X)
#undef X
};

uint32_t rf_cost_default_ns(enum rf_cost_op op)
{
	return cost_defaults[op];
}

struct emit {
	const struct rf_model *m;
	rf_model_counter_cb cb;
	void *ctx;
	int r;
};

static void put(struct emit *e, const char *key, uint64_t v)
{
	if (!e->r)
		e->r = e->cb(key, v, e->ctx);
}

static void putf(struct emit *e, uint64_t v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void putf(struct emit *e, uint64_t v, const char *fmt, ...)
{
	char key[4400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	put(e, key, v);
}

static void emit_vm_events(struct emit *e, const uint64_t *ev, const char *prefix)
{
	static const enum rf_vm_event global[] = {
		EV_PGACTIVATE, EV_PGDEACTIVATE, EV_PGREFILL, EV_PGSCAN_KSWAPD, EV_PGSCAN_DIRECT,
		EV_PGSTEAL_KSWAPD, EV_PGSTEAL_DIRECT, EV_PGSCAN_ANON, EV_PGSCAN_FILE, EV_PGSTEAL_ANON,
		EV_PGSTEAL_FILE, EV_PGROTATED, EV_WORKINGSET_REFAULT_ANON, EV_WORKINGSET_REFAULT_FILE,
		EV_WORKINGSET_ACTIVATE_ANON, EV_WORKINGSET_ACTIVATE_FILE, EV_WORKINGSET_RESTORE_ANON,
		EV_WORKINGSET_RESTORE_FILE, EV_WORKINGSET_NODERECLAIM, EV_PGFAULT, EV_PGMAJFAULT,
		EV_PSWPIN, EV_PSWPOUT,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(global); i++) {
		enum rf_vm_event v = global[i];

		if ((v == EV_WORKINGSET_RESTORE_ANON || v == EV_WORKINGSET_RESTORE_FILE) &&
		    !e->m->p->ws_restore)
			continue;	/* PG_workingset: v4.20+ */
		putf(e, ev[v], "%s%s", prefix, event_names[v]);
	}
}

static void emit_global(struct emit *e, bool sample)
{
	const struct rf_model *m = e->m;
	const struct rf_lruvec *root = &m->memcgs[0]->lruvec;

	put(e, "vmstat.nr_inactive_anon", root->hier_size[LRU_INACTIVE_ANON]);
	put(e, "vmstat.nr_active_anon", root->hier_size[LRU_ACTIVE_ANON]);
	put(e, "vmstat.nr_inactive_file", root->hier_size[LRU_INACTIVE_FILE]);
	put(e, "vmstat.nr_active_file", root->hier_size[LRU_ACTIVE_FILE]);
	put(e, "vmstat.nr_unevictable", root->hier_size[LRU_UNEVICTABLE]);
	put(e, "vmstat.nr_free_pages", m->nr_free > 0 ? (uint64_t)m->nr_free : 0);
	put(e, "vmstat.nr_file_pages", m->nr_file_pages);
	put(e, "vmstat.nr_anon_pages", m->nr_anon_pages);
	if (m->p->ws_restore)
		put(e, "vmstat.workingset_nodes", m->nr_shadow_nodes);
	emit_vm_events(e, m->ev, "vmstat.");
	if (sample)
		return;
	put(e, "vmstat.allocstall_normal", m->ev[EV_ALLOCSTALL]);
	put(e, "vmstat.pageoutrun", m->ev[EV_PAGEOUTRUN]);
	put(e, "vmstat.slabs_scanned", m->ev[EV_SLABS_SCANNED]);
	put(e, "vmstat.pgfree", m->ev[EV_PGFREE]);
}

/*
 * The multi-gen LRU state of a lruvec, as /sys/kernel/debug/lru_gen shows
 * it: max_seq, min_seq of each type, and the pages of each generation
 * counted from the youngest (gen0 = max_seq).  Model-only: the PID
 * controller's counts of the generation being evicted, summed over tiers.
 */
static void emit_lru_gen(struct emit *e, const char *prefix, const struct rf_lrugen *g)
{
	static const char *const type_names[2] = { "anon", "file" };
	uint64_t age;
	int type, tier;

	putf(e, g->max_seq, "%slru_gen.max_seq", prefix);
	for (type = 0; type < 2; type++) {
		uint64_t refaulted = 0, evicted = 0, protected = 0;

		putf(e, g->min_seq[type], "%slru_gen.min_seq_%s", prefix, type_names[type]);
		for (age = 0; age < MAX_NR_GENS; age++) {
			int64_t n = 0;

			if (g->max_seq - age >= g->min_seq[type])
				n = g->nr_pages[lru_gen_from_seq(g->max_seq - age)][type];
			putf(e, n > 0 ? (uint64_t)n : 0, "%slru_gen.gen%u_%s", prefix,
			     (unsigned int)age, type_names[type]);
		}
		for (tier = 0; tier < (int)MAX_NR_TIERS; tier++) {
			refaulted += g->refaulted[type][tier];
			evicted += g->evicted[type][tier];
			protected += g->protected[type][tier];
		}
		putf(e, refaulted, "model.%slru_gen.refaulted_%s", prefix, type_names[type]);
		putf(e, evicted, "model.%slru_gen.evicted_%s", prefix, type_names[type]);
		putf(e, protected, "model.%slru_gen.protected_%s", prefix, type_names[type]);
	}
}

static void emit_memcg(struct emit *e, const struct rf_memcg *mc)
{
	char prefix[4200];
	const struct rf_lruvec *lv = &mc->lruvec;
	int i;

	snprintf(prefix, sizeof(prefix), "memcg.%s.", mc->path);
	putf(e, mc->slot ? mc->memory.usage : mc->nr_pages, "%susage", prefix);
	putf(e, mc->memsw.usage, "%smemsw_usage", prefix);
	putf(e, mc->nr_swap, "%sswap", prefix);
	putf(e, mc->memory.failcnt, "%sfailcnt", prefix);
	putf(e, lv->size[LRU_INACTIVE_ANON], "%sinactive_anon", prefix);
	putf(e, lv->size[LRU_ACTIVE_ANON], "%sactive_anon", prefix);
	putf(e, lv->size[LRU_INACTIVE_FILE], "%sinactive_file", prefix);
	putf(e, lv->size[LRU_ACTIVE_FILE], "%sactive_file", prefix);
	/* model-only: its part of the shadow-node list_lru, its tree nodes, its nr_deferred */
	putf(e, mc->nr_shadow_nodes, "model.%sshadow_nodes", prefix);
	putf(e, mc->nr_xa_nodes, "model.%sxa_nodes", prefix);
	putf(e, mc->shadow_deferred, "model.%sshadow_deferred", prefix);
	if (lru_gen_on(e->m))
		emit_lru_gen(e, prefix, &lv->lrugen);
	for (i = 0; i < NR_VM_EVENTS; i++) {
		if (i == EV_OOM || i == EV_PGFREE || i == EV_PAGEOUTRUN || i == EV_SLABS_SCANNED)
			continue;
		if (i == EV_WORKINGSET_NODERECLAIM && !e->m->p->ws_memcg_stats)
			continue;	/* a memcg stat since v5.4 (__inc_lruvec_kmem_state) */
		if (i == EV_MEMCG_MAX || i == EV_MEMCG_LOW || i == EV_MEMCG_HIGH)
			putf(e, mc->ev[i], "%sevents.%s", prefix, event_names[i]);
		else if (i == EV_MEMCG_OOM)
			putf(e, mc->ev[i], "%sevents.oom", prefix);
		else
			putf(e, mc->ev[i], "%s%s", prefix, event_names[i]);
	}
}

static void emit_cost(struct emit *e)
{
	const struct rf_model *m = e->m;
	uint64_t ns = 0;
	int i;

	for (i = 0; i < NR_COST_OPS; i++) {
		uint64_t w = m->cfg.cost_ns[i];

		if (i == COST_SWAP_ACCOUNT_CHECK && m->cfg.swap_account_static_key &&
		    !cfg_cost_set(&m->cfg, i))
			w = 0;		/* a patched-out static branch */
		putf(e, m->cost[i], "cost.%s", cost_names[i]);
		ns += m->cost[i] * w;
	}
	put(e, "cost.estimated_ns", ns);
}

/*
 * The per-memcg part of a sample: each cgroup's file lists and the counters
 * its refault and reclaim story is told in, for the first
 * RF_MODEL_SAMPLE_MEMCGS cgroups besides the root (a sample stays cheap).
 */
static void sample_memcgs(struct emit *e)
{
	static const enum rf_vm_event evs[] = {
		EV_WORKINGSET_REFAULT_FILE, EV_WORKINGSET_ACTIVATE_FILE, EV_PGSCAN_KSWAPD,
		EV_PGSCAN_DIRECT,
	};
	const struct rf_model *m = e->m;
	uint32_t i;
	size_t k;

	for (i = 1; i < m->nr_memcgs && i <= RF_MODEL_SAMPLE_MEMCGS; i++) {
		const struct rf_memcg *mc = m->memcgs[i];

		putf(e, mc->lruvec.size[LRU_INACTIVE_FILE], "memcg.%s.inactive_file", mc->path);
		putf(e, mc->lruvec.size[LRU_ACTIVE_FILE], "memcg.%s.active_file", mc->path);
		for (k = 0; k < ARRAY_SIZE(evs); k++)
			putf(e, mc->ev[evs[k]], "memcg.%s.%s", mc->path, event_names[evs[k]]);
	}
}

static int vmstat_emit(const struct rf_model *m, rf_model_counter_cb cb, void *ctx, bool sample)
{
	struct emit e = { .m = m, .cb = cb, .ctx = ctx };
	uint32_t i;

	emit_global(&e, sample);
	put(&e, "gauge.pvec_pages", m->pvec_pages);
	put(&e, "gauge.stranded_pages", m->stranded);
	if (sample) {
		sample_memcgs(&e);
		return e.r;
	}
	put(&e, "gauge.pvec_pages_peak", m->pvec_pages_peak);
	put(&e, "gauge.pvec_pages_at_exit", m->pvec_pages_at_exit);
	put(&e, "gauge.stranded_pages_peak", m->stranded_peak);
	put(&e, "gauge.stranded_pages_at_exit", m->stranded_at_exit);
	put(&e, "model.events", m->nr_events);
	put(&e, "model.events_ignored", m->nr_ignored);
	put(&e, "model.alloc_failures", m->ev[EV_OOM]);
	if (lru_gen_on(m)) {
		put(&e, "model.lru_gen_min_ttl_oom", m->nr_min_ttl_oom);
		put(&e, "model.lru_gen_walk.leaf_total", m->walk_leaf_total);
		put(&e, "model.lru_gen_walk.leaf_young", m->walk_leaf_young);
		put(&e, "model.lru_gen_walk.nonleaf_found", m->walk_nonleaf_found);
		put(&e, "model.lru_gen_walk.nonleaf_added", m->walk_nonleaf_added);
		put(&e, "model.lru_gen_look_around.young", m->look_young);
	}
	if (m->idle_scans) {
		put(&e, "model.idle_scans", m->idle_scans);
		put(&e, "model.idle_young", m->idle_young);
		put(&e, "model.idle_faults", m->idle_faults);
		put(&e, "model.idle_absent", m->idle_absent);
	}
	if (m->damon_regions) {
		put(&e, "model.damon_regions", m->damon_regions);
		put(&e, "model.damon_young", m->damon_young);
		put(&e, "model.damon_checked", m->damon_checked);
	}
	put(&e, "model.overcommit", m->nr_free < 0 ? (uint64_t)-m->nr_free : 0);
	put(&e, "model.file_pages_added", m->file_pages_added);
	put(&e, "model.nr_shadow", m->nr_shadow);
	put(&e, "model.nr_shadow_nodes", m->nr_shadow_nodes);
	put(&e, "model.nr_swap_entries", m->nr_swap_shadow);
	put(&e, "model.swap_used", m->swap_used);
	put(&e, "model.wmark_min", m->wmark_min);
	put(&e, "model.wmark_low", m->wmark_low);
	put(&e, "model.wmark_high", m->wmark_high);
	emit_cost(&e);
	for (i = 0; i < m->nr_memcgs; i++)
		emit_memcg(&e, m->memcgs[i]);
	return e.r;
}

int rf_model_counters(const struct rf_model *m, rf_model_counter_cb cb, void *ctx)
{
	return vmstat_emit(m, cb, ctx, false);
}

int rf_model_sample(const struct rf_model *m, rf_model_counter_cb cb, void *ctx)
{
	return vmstat_emit(m, cb, ctx, true);
}

/*
 * The profile's kernel names for the global counters whose name changed
 * since (see the head of this file); a name of today is not listed.
 */
int rf_model_aliases(const struct rf_model *m, rf_model_alias_cb cb, void *ctx)
{
	enum { ZONE, V59, V59_RESTORE };	/* renamed in v4.8; in v5.9; in v5.9, v4.20+ only */
	static const struct {
		const char *kernel, *stable;
		int change;
	} tab[] = {
		{ "vmstat.pgrefill_normal", "vmstat.pgrefill", ZONE },
		{ "vmstat.pgscan_kswapd_normal", "vmstat.pgscan_kswapd", ZONE },
		{ "vmstat.pgscan_direct_normal", "vmstat.pgscan_direct", ZONE },
		{ "vmstat.pgsteal_kswapd_normal", "vmstat.pgsteal_kswapd", ZONE },
		{ "vmstat.pgsteal_direct_normal", "vmstat.pgsteal_direct", ZONE },
		{ "vmstat.allocstall", "vmstat.allocstall_normal", ZONE },
		{ "vmstat.workingset_refault", "vmstat.workingset_refault_file", V59 },
		{ "vmstat.workingset_activate", "vmstat.workingset_activate_file", V59 },
		{ "vmstat.workingset_restore", "vmstat.workingset_restore_file", V59_RESTORE },
	};
	const struct rf_profile *p = m->p;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		bool named = tab[i].change == ZONE ? !p->node_lru :
			     !p->vmstat_v59_names && (tab[i].change == V59 || p->ws_restore);

		if (named && (r = cb(tab[i].kernel, tab[i].stable, ctx)))
			return r;
	}
	return 0;
}

struct alias_lookup {
	const char *key;
	const char *stable;
};

static int alias_lookup_cb(const char *kernel, const char *stable, void *ctx)
{
	struct alias_lookup *a = ctx;

	if (strcmp(kernel, a->key))
		return 0;
	a->stable = stable;
	return 1;
}

struct lookup {
	const char *key;
	uint64_t v;
	bool found;
};

static int lookup_cb(const char *key, uint64_t v, void *ctx)
{
	struct lookup *l = ctx;

	if (strcmp(key, l->key))
		return 0;
	l->v = v;
	l->found = true;
	return 1;
}

bool rf_model_counter(const struct rf_model *m, const char *key, uint64_t *value)
{
	struct lookup l = { .key = key };

	struct alias_lookup a = { .key = key };

	vmstat_emit(m, lookup_cb, &l, false);
	if (!l.found && rf_model_aliases(m, alias_lookup_cb, &a)) {
		l.key = a.stable;
		vmstat_emit(m, lookup_cb, &l, false);
	}
	if (l.found && value)
		*value = l.v;
	return l.found;
}
