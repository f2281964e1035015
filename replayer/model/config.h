/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The configuration (config.c): a profile row copied into struct
 * rf_model_config and overridden by keys, the cost weights and the cgroup
 * limits it fixes.  The public header (refault/model.h) keeps the struct
 * opaque; a model keeps its own copy (m->cfg, m->p = &m->cfg.p).
 * model-local.h includes this header.
 */
#ifndef REFAULT_MODEL_CONFIG_H
#define REFAULT_MODEL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "vmstat.h"

struct rf_limit_override {
	char *path;			/* the memcg's path ("/a/b"), once resolved */
	char *target;			/* as set, when not a path: "recorded", "recorded/x";
					 * rf_model_config_resolve_cgroups() names its path */
	uint32_t kind;			/* enum rf_limit_kind */
	uint64_t bytes;
};

/* What a folio fault-around mapped (RF_REF_AROUND) does to a model that does not hold it (filemap.c). */
enum rf_fault_around {
	FAULT_AROUND_AUTO = 0,		/* CACHED in a VM_RAND_READ mapping, else REFERENCE */
	FAULT_AROUND_REFERENCE = 1,	/* read in as the program's fault */
	FAULT_AROUND_CACHED = 2,	/* the kernel had it cached: in, unreferenced, no refault */
	FAULT_AROUND_MAPPED = 3,	/* left out */
};

/* What becomes of a dirty file page (writeback.c). */
enum rf_writeback {
	WRITEBACK_CLEAN = 0,		/* taken as written before reclaim meets it */
	WRITEBACK_FLUSHER = 1,		/* dirty until a sync, the flusher or reclaim writes it */
	WRITEBACK_RECORDED = 2,		/* dirty until the trace says its write ended (file_written) */
};

struct rf_model_config {
	struct rf_profile p;		/* switches, copied from the profile row and overridden */
	char profile[32];		/* its name: a built-in profile's, or a profile file's */
	char base[32];			/* a profile file's base profile; "" for a built-in one */
	char description[160];		/* a profile file's description */
	uint64_t memory_bytes;
	uint64_t swap_bytes;
	uint32_t cpus;
	uint32_t page_size;
	uint32_t swappiness;
	uint32_t min_free_kbytes;	/* 0 = computed as init_per_zone_wmark_min() */
	uint32_t watermark_scale_factor;
	int32_t kswapd_cpu;		/* -1: a CPU that never appears in the trace */
	bool drain_all;			/* reclaim calls lru_add_drain_all() (not a kernel) */
	bool swap_account_static_key;	/* c1b8fdae: the check costs nothing */
	bool damon;			/* damon_region events make pages young (damon.c) */
	uint32_t fault_around;		/* enum rf_fault_around: a fault-around folio not held */
	bool idle_absent_skip;		/* a pte_young page the model lacks is left alone (idle.c) */
	uint32_t writeback;		/* enum rf_writeback */
	bool thp_never;			/* a large anonymous fault becomes base pages (memory.c) */
	bool zero_page;			/* a read fault of an untouched anon page maps the zero page */
	bool cgroup_writeback;		/* writeback=flusher: a dirty domain per memcg (v2) */
	uint32_t lru_gen_min_ttl_ms;	/* /sys/kernel/mm/lru_gen/min_ttl_ms */
	uint64_t lru_gen_seed;		/* seeds the memcg LRU's random bins */
	uint32_t cost_ns[NR_COST_OPS];
	uint64_t set[2];		/* keys set explicitly: bit i for config.c's keys[i] */
	struct rf_limit_override *limits;
	uint32_t nr_limits;
	size_t cap_limits;
};

/*
 * What rf_model_new() refuses: what depends on several keys together; 0, or
 * an RF_ERR_* with the reason in @err.
 */
int cfg_validate(const struct rf_model_config *c, char *err, size_t errlen);
/* Whether cost.<op> was set (rather than the profile's default weight). */
bool cfg_cost_set(const struct rf_model_config *c, enum rf_cost_op op);

#endif /* REFAULT_MODEL_CONFIG_H */
