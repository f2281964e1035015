/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's own time series: at each counter snapshot of the trace
 * (/proc/vmstat, memory.stat; every --snapshot-interval of the recording),
 * the kernel's account so far (replayer/observe/: cumulative counters since
 * the first snapshot, list sizes as last seen) under the model's sample names,
 * so that `compare NAME@kernel NAME --html` draws the kernel's line beside the
 * model's.
 */
#include <string.h>

#include <refault/trace-json.h>

#include "replayer/replay/replay-local.h"

static bool wanted(const char *key)
{
	static const char *const global[] = {
		"nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
		"nr_unevictable", "workingset_refault_anon", "workingset_refault_file",
		"workingset_activate_file", "pgscan_kswapd", "pgscan_direct", "pgscan_anon",
		"pgscan_file",
	};
	static const char *const memcg[] = {
		"inactive_file", "active_file", "workingset_refault_file",
		"workingset_activate_file", "pgscan_kswapd", "pgscan_direct",
	};
	const char *name = strrchr(key, '.');
	size_t i;

	if (!name)
		return false;
	name++;
	if (!strncmp(key, "vmstat.", 7) && !strchr(key + 7, '.')) {
		for (i = 0; i < sizeof(global) / sizeof(global[0]); i++)
			if (!strcmp(name, global[i]))
				return true;
	} else if (!strncmp(key, "memcg.", 6)) {
		for (i = 0; i < sizeof(memcg) / sizeof(memcg[0]); i++)
			if (!strcmp(name, memcg[i]))
				return true;
	}
	return false;
}

static int kernel_series_walk(const void *observe, rf_model_counter_cb cb, void *ctx)
{
	json_object *o = json_object_new_object();
	size_t memcg_keys = 0;
	int rc;

	if (!o)
		return RF_ERR_NOMEM;
	rc = rf_observe_to_json(observe, o);
	if (!rc) {
		json_object_object_foreach(o, key, val) {
			if (!wanted(key) || !json_object_is_type(val, json_type_int))
				continue;
			/* the cgroups the model samples too: RF_MODEL_SAMPLE_MEMCGS of them */
			if (!strncmp(key, "memcg.", 6) && ++memcg_keys > 6 * RF_MODEL_SAMPLE_MEMCGS)
				continue;
			rc = cb(key, json_object_get_uint64(val), ctx);
			if (rc)
				break;
		}
	}
	json_object_put(o);
	return rc;
}

int replay_kernel_sample(struct rf_replay_result *res)
{
	if (!res->kernel_pending || !res->kernel_series)
		return 0;
	res->kernel_pending = false;
	return replay_series_sample(res->kernel_series, res->t_first, res->kernel_t,
				    kernel_series_walk, res->observe);
}
