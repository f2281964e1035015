/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cgroups of a trace, by kernfs id, named as the model names memcgs
 * ("/a/b").  Index 0 is the "unattributed" bucket: events whose cgroup the
 * trace never named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replayer/observe/observe-local.h"

static char *cgroup_path(uint64_t id, const char *path)
{
	char *p;

	/* the model prefixes '/' to every path: name cgroups the same way */
	if (path && path[0] == '/')
		return strdup(path);
	if (!path || !path[0])
		return strdup(id ? "/" : "(unattributed)");
	p = malloc(strlen(path) + 2);
	if (p)
		sprintf(p, "/%s", path);
	return p;
}

long obs_add_cgroup(struct rf_observe *o, uint64_t id, uint64_t parent, const char *path)
{
	const uint64_t *pidx;
	struct obs_cg *c;
	size_t n = o->nr_cg;

	if (RF_GROW(o->cgs, o->cap_cg, n + 1))
		return RF_ERR_NOMEM;
	c = &o->cgs[n];
	memset(c, 0, sizeof(*c));
	c->born = o->counters_seen;
	c->cg.id = id;
	c->cg.parent = parent;
	pidx = obs_map_get(&o->by_id, parent);
	c->cg.parent_idx = pidx && parent != id ? (int)*pidx : -1;
	c->cg.path = cgroup_path(id, path);
	if (!c->cg.path || obs_map_put(&o->by_id, id, n) ||
	    obs_map_put(&o->by_path, rf_hash_str(c->cg.path), n)) {
		free(c->cg.path);
		return RF_ERR_NOMEM;
	}
	o->nr_cg++;
	return (long)n;
}

size_t obs_cg_index(const struct rf_observe *o, uint64_t id)
{
	const uint64_t *i = id ? obs_map_get(&o->by_id, id) : NULL;

	return i ? (size_t)*i : 0;
}

void obs_cgroups_free(struct rf_observe *o)
{
	size_t i;

	for (i = 0; i < o->nr_cg; i++)
		free(o->cgs[i].cg.path);
	free(o->cgs);
	obs_map_destroy(&o->by_id);
	obs_map_destroy(&o->by_path);
}

size_t rf_observe_nr_cgroups(const struct rf_observe *o)
{
	return o->nr_cg;
}

const struct rf_obs_cgroup *rf_observe_cgroup(const struct rf_observe *o, size_t idx)
{
	return idx < o->nr_cg ? &o->cgs[idx].cg : NULL;
}

long rf_observe_cgroup_by_path(const struct rf_observe *o, const char *path)
{
	const uint64_t *i = obs_map_get(&o->by_path, rf_hash_str(path));

	if (!i || strcmp(o->cgs[*i].cg.path, path))
		return -1;
	return (long)*i;
}

const uint64_t *rf_observe_local(const struct rf_observe *o, size_t idx)
{
	return o->cgs[idx].cnt;
}

uint64_t rf_observe_initial_pages(const struct rf_observe *o, size_t idx)
{
	return idx < o->nr_cg ? o->cgs[idx].initial : 0;
}
