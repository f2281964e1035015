/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The model's counters: the vm events it counts (globally, as the profile's
 * /proc/vmstat would, and per memcg) and the operations of its cost model,
 * one X-macro list each, which vmstat.c turns into names and the
 * configuration (config.c) into cost.<op> keys.  model-local.h includes
 * this header: every rule counts.
 */
#ifndef REFAULT_MODEL_VMSTAT_H
#define REFAULT_MODEL_VMSTAT_H

#include <stdint.h>

/* ------------------------------------------------------------ cost model */

/* Each operation: its key (cost.<name>), its default weight in ns, what it counts. */
#define RF_COST_LIST(X)								\
	X(LRU_LOCK,		"lru_lock",		40,				\
	  "an LRU lock (lruvec lock from v5.11) taken")				\
	X(MEMCG_LOOKUP_ID,	"memcg_lookup_id",	15,				\
	  "a memcg looked up by id: mem_cgroup_from_id()")			\
	X(LOCK_PAGE_MEMCG,	"lock_page_memcg",	20,				\
	  "a lock_page_memcg() + unlock_page_memcg() pair")			\
	X(RCU_READ,		"rcu_read_section",	2,				\
	  "an rcu_read_lock() + rcu_read_unlock() pair")				\
	X(CALL,			"out_of_line_call",	5,				\
	  "an out-of-line call on a hot path")					\
	X(PAGE_MOVE,		"page_moved",		10,				\
	  "a page put on an LRU list")						\
	X(SWAP_ACCOUNT_CHECK,	"swap_account_check",	1,				\
	  "a test of the swap accounting switch")				\
	X(ATOMIC,		"atomic",		8,				\
	  "an atomic read-modify-write (ages, statistics)")			\
	X(RMAP_WALK,		"rmap_walk",		150,				\
	  "a page_referenced() rmap walk of a mapped page")			\
	X(PAGE_ALLOC,		"page_alloc",		100,				\
	  "a page allocated and charged")

enum rf_cost_op {
#define X(op, name, ns, help) COST_##op,
	RF_COST_LIST(X)
#undef X
	NR_COST_OPS
};

/* ------------------------------------------------------------ vm events */

/* Counted globally (as the profile's /proc/vmstat would) and per memcg. */
#define RF_EVENT_LIST(X)							\
	X(PGACTIVATE,			"pgactivate")				\
	X(PGDEACTIVATE,			"pgdeactivate")				\
	X(PGREFILL,			"pgrefill")				\
	X(PGSCAN_KSWAPD,		"pgscan_kswapd")			\
	X(PGSCAN_DIRECT,		"pgscan_direct")			\
	X(PGSTEAL_KSWAPD,		"pgsteal_kswapd")			\
	X(PGSTEAL_DIRECT,		"pgsteal_direct")			\
	X(PGSCAN_ANON,			"pgscan_anon")				\
	X(PGSCAN_FILE,			"pgscan_file")				\
	X(PGSTEAL_ANON,			"pgsteal_anon")				\
	X(PGSTEAL_FILE,			"pgsteal_file")				\
	X(PGROTATED,			"pgrotated")				\
	X(WORKINGSET_REFAULT_ANON,	"workingset_refault_anon")		\
	X(WORKINGSET_REFAULT_FILE,	"workingset_refault_file")		\
	X(WORKINGSET_ACTIVATE_ANON,	"workingset_activate_anon")		\
	X(WORKINGSET_ACTIVATE_FILE,	"workingset_activate_file")		\
	X(WORKINGSET_RESTORE_ANON,	"workingset_restore_anon")		\
	X(WORKINGSET_RESTORE_FILE,	"workingset_restore_file")		\
	X(WORKINGSET_NODERECLAIM,	"workingset_nodereclaim")		\
	X(PGFAULT,			"pgfault")				\
	X(PGMAJFAULT,			"pgmajfault")				\
	X(PSWPIN,			"pswpin")				\
	X(PSWPOUT,			"pswpout")				\
	X(ALLOCSTALL,			"allocstall")				\
	X(PAGEOUTRUN,			"pageoutrun")				\
	X(SLABS_SCANNED,		"slabs_scanned")			\
	X(PGFREE,			"pgfree")				\
	X(OOM,				"oom")					\
	X(MEMCG_MAX,			"max")					\
	X(MEMCG_LOW,			"low")					\
	X(MEMCG_HIGH,			"high")					\
	X(MEMCG_OOM,			"memcg_oom")

enum rf_vm_event {
#define X(ev, name) EV_##ev,
	RF_EVENT_LIST(X)
#undef X
	NR_VM_EVENTS
};

/* The default weight in ns of cost operation @op (cost.<name> unset). */
uint32_t rf_cost_default_ns(enum rf_cost_op op);

#endif /* REFAULT_MODEL_VMSTAT_H */
