/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recorded cgroup by its role: "memcg.recorded.<name>", not
 * "memcg./user.slice/refault-record-4242.<name>", so that repeated
 * recordings of one workload (each --memcg-limit run makes a group of its
 * own name) are runs of one thing to compare; its children are
 * "memcg.recorded/<child>.<name>".  Cgroups outside it are left out unless
 * asked for (--all-cgroups).  docs/replay.md, "The recorded cgroup and the
 * summary".
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "replayer/replay/replay-local.h"

static int add_path(struct rf_cgroup_names *cn, const char *path, size_t len)
{
	char *p = strndup(path, len);
	int r = p ? 0 : RF_ERR_NOMEM;

	if (!r)
		r = RF_GROW(cn->paths, cn->cap, cn->n + 1);
	if (!r)
		r = path_map_put(&cn->known, rf_hash_str(p), (uint32_t)cn->n);
	if (r) {
		free(p);
		return r;
	}
	cn->paths[cn->n++] = p;
	return 0;
}

/* Every memcg the model knows has a "memcg.<path>.usage" (replayer/model/vmstat.c). */
static int collect(const char *key, uint64_t value, void *ctx)
{
	static const char suffix[] = ".usage";
	struct rf_cgroup_names *cn = ctx;
	size_t n = strlen(key), s = sizeof(suffix) - 1;

	(void)value;
	if (strncmp(key, "memcg.", 6) || n <= 6 + s || strcmp(key + n - s, suffix))
		return 0;
	return add_path(cn, key + 6, n - 6 - s);
}

static const char *known(const struct rf_cgroup_names *cn, const char *path, size_t len)
{
	char buf[RF_MAX_STRING];
	const uint32_t *i;

	if (len >= sizeof(buf))
		return NULL;
	memcpy(buf, path, len);
	buf[len] = 0;
	i = path_map_get(&cn->known, rf_hash_str(buf));
	return i && !strcmp(cn->paths[*i], buf) ? cn->paths[*i] : NULL;
}

/* A path as the recorder writes it: one leading '/', no trailing one. */
static void normalize(char *buf, size_t len, const char *path, size_t n)
{
	snprintf(buf, len, "%s%.*s", *path == '/' ? "" : "/", (int)n, path);
	for (n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = 0;
}

/* A --memcg-limit trace before format 2.2: the one group called refault-record-<pid>. */
static const char *memcg_limit_group(const struct rf_cgroup_names *cn)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; i < cn->n; i++) {
		const char *base = strrchr(cn->paths[i], '/'), *d;

		if (!base || strncmp(base, "/refault-record-", 16))
			continue;
		d = base + 16;
		if (!*d)
			continue;
		while (isdigit((unsigned char)*d))
			d++;
		if (*d)
			continue;
		if (found)
			return NULL;	/* two: which one is not known */
		found = cn->paths[i];
	}
	return found;
}

static void find_recorded(struct rf_cgroup_names *cn, const struct rf_trace_header *h)
{
	const char *g = NULL;

	if (h->cgroup[0])
		g = h->cgroup;
	else if (!strncmp(h->scope, "-G ", 3))
		g = h->scope + 3;	/* before 2.2 -G had no command after it */
	else if (strstr(h->command, "--memcg-limit"))
		g = memcg_limit_group(cn);
	if (g && *g)
		normalize(cn->recorded, sizeof(cn->recorded), g, strlen(g));
}

/* The cgroups the kernel's account saw (it may know some the model folded or never met). */
static int collect_observed(struct rf_cgroup_names *cn, const struct rf_observe *o)
{
	size_t i, n = o ? rf_observe_nr_cgroups(o) : 0;
	int r = 0;

	for (i = 0; i < n && !r; i++) {
		const struct rf_obs_cgroup *g = rf_observe_cgroup(o, i);

		if (g && g->path && *g->path && !known(cn, g->path, strlen(g->path)))
			r = add_path(cn, g->path, strlen(g->path));
	}
	return r;
}

int rf_cgroup_names_init(struct rf_cgroup_names *cn, const struct rf_trace_header *h,
			 const struct rf_model *m, const struct rf_observe *o, bool all)
{
	int r;

	memset(cn, 0, sizeof(*cn));
	cn->all = all;
	r = m ? rf_model_counters(m, collect, cn) : 0;
	if (!r)
		r = collect_observed(cn, o);
	if (!r)
		find_recorded(cn, h);
	return r;
}

void rf_cgroup_names_release(struct rf_cgroup_names *cn)
{
	size_t i;

	for (i = 0; i < cn->n; i++)
		free(cn->paths[i]);
	free(cn->paths);
	path_map_destroy(&cn->known);
	memset(cn, 0, sizeof(*cn));
}

/* The longest known cgroup path @rest begins with, followed by a '.'; its length, or 0. */
static size_t path_of(const struct rf_cgroup_names *cn, const char *rest)
{
	size_t i = strlen(rest);

	while (i-- > 0)
		if (rest[i] == '.' && known(cn, rest, i))
			return i;
	return 0;
}

static bool below(const char *path, size_t n, const char *rec)
{
	size_t r = strlen(rec);

	if (r == 1)
		return true;	/* the root: everything */
	return n >= r && !strncmp(path, rec, r) && (n == r || path[r] == '/');
}

const char *rf_cgroup_names_key(const struct rf_cgroup_names *cn, const char *key, char *buf,
				size_t len)
{
	static const char *const prefixes[] = { "memcg.", "model.memcg." };
	const char *prefix = NULL, *rest;
	size_t i, p, r = strlen(cn->recorded);

	for (i = 0; !prefix && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(key, prefixes[i], strlen(prefixes[i])))
			prefix = prefixes[i];
	if (!prefix || !r)
		return key;
	rest = key + strlen(prefix);
	p = path_of(cn, rest);
	if (!p && r == 1 && *rest == '/')	/* the root recorded: every cgroup is below it */
		p = rest[1] == '.' ? 1 : strcspn(rest, ".");
	if (!p || !below(rest, p, cn->recorded))
		return cn->all ? key : NULL;
	if (r == 1)	/* the root: "/.usage" is ".usage", "/x.usage" "/x.usage" */
		rest += p == 1;
	else
		rest += r;
	snprintf(buf, len, "%srecorded%s", prefix, rest);
	return buf;
}
