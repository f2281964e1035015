/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel side of a capture, from librefault-observe; releasing a capture. */
#include <stdlib.h>
#include <string.h>

#include "replayer/validate/validate-local.h"

int validate_kernel_capture(const struct rf_observe *o, struct validate_capture *c)
{
	size_t n = rf_observe_nr_cgroups(o), i;
	uint64_t stat[RF_OBS_NR];

	c->nr_cg = n;
	c->k = calloc(n * RF_OBS_NR, sizeof(*c->k));
	c->k_stat = calloc(n * RF_OBS_NR, sizeof(*c->k_stat));
	c->k_statmask = calloc(n, sizeof(*c->k_statmask));
	c->m = calloc(n * RF_OBS_NR, sizeof(*c->m));
	if (!c->k || !c->k_stat || !c->k_statmask || !c->m)
		return RF_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		memcpy(&c->k[i * RF_OBS_NR], rf_observe_local(o, i), RF_OBS_NR * sizeof(*c->k));
		c->k_statmask[i] = rf_observe_memstat(o, i, stat);
		if (c->k_statmask[i])
			memcpy(&c->k_stat[i * RF_OBS_NR], stat, sizeof(stat));
	}
	c->host_have = rf_observe_host(o, c->host_k);
	return 0;
}

void validate_capture_release(struct validate_capture *c)
{
	free(c->k);
	free(c->k_stat);
	free(c->k_statmask);
	free(c->m);
	free(c->k_sub);
	free(c->m_sub);
	c->k = c->k_stat = c->m = c->k_sub = c->m_sub = NULL;
	c->k_statmask = NULL;
}
