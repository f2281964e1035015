/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The recorded cgroup by its role: "memcg.recorded.<name>", not
 * "memcg./user.slice/refault-record-4242.<name>", so that repeated
 * recordings of one workload (each --memcg-limit run makes a group of its
 * own name) are runs of one thing to compare; its children are
 * "memcg.recorded/<child>.<name>".  Cgroups outside it are left out unless
 * asked for (--all-cgroups).  docs/replay.md, "The recorded cgroup and the
 * summary".
 *
 * The settings name it the same way: "limit.recorded=96M",
 * "limit.recorded/child=50M".  Before the models are made, each cgroup a
 * setting names becomes the path of one of the trace's cgroups (a pass
 * over the trace finds them, only when a setting names one), or the
 * replay is refused with the key and the trace's cgroups: a setting that
 * names no cgroup of the trace would change nothing.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/hash.h"
#include "lib/term.h"
#include "replayer/replay/replay-local.h"

static int add_path(struct replay_cgroup_names *cn, const char *path, size_t len)
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
	struct replay_cgroup_names *cn = ctx;
	size_t n = strlen(key), s = sizeof(suffix) - 1;

	(void)value;
	if (strncmp(key, "memcg.", 6) || n <= 6 + s || strcmp(key + n - s, suffix))
		return 0;
	return add_path(cn, key + 6, n - 6 - s);
}

static const char *known(const struct replay_cgroup_names *cn, const char *path, size_t len)
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
static const char *memcg_limit_group(const struct replay_cgroup_names *cn)
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

static void find_recorded(struct replay_cgroup_names *cn, const struct rf_trace_header *h)
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
static int collect_observed(struct replay_cgroup_names *cn, const struct rf_observe *o)
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

int replay_cgroup_names_init(struct replay_cgroup_names *cn, const struct rf_trace_header *h,
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

void replay_cgroup_names_release(struct replay_cgroup_names *cn)
{
	size_t i;

	for (i = 0; i < cn->n; i++)
		free(cn->paths[i]);
	free(cn->paths);
	path_map_destroy(&cn->known);
	memset(cn, 0, sizeof(*cn));
}

/* The longest known cgroup path @rest begins with, followed by a '.'; its length, or 0. */
static size_t path_of(const struct replay_cgroup_names *cn, const char *rest)
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

const char *replay_cgroup_names_key(const struct replay_cgroup_names *cn, const char *key,
				    char *buf, size_t len)
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

/* ------------------------------------------------- cgroups in settings */

struct resolve {
	struct replay_cgroup_names cn;	/* the trace's cgroups, once scanned */
	const struct rf_replay_opts *opts;
	const struct rf_trace_header *h;
	bool scanned;
};

/* A cgroup_mkdir's path as the model names its memcg (replayer/model/memcg.c memcg_mkdir()). */
static void model_path(char *buf, size_t len, const struct rf_event *ev)
{
	const char *p = ev->u.cgroup.path;

	if (!p || !*p)
		snprintf(buf, len, "/cgroup-%llu", (unsigned long long)ev->u.cgroup.id);
	else
		snprintf(buf, len, "%s%s", *p == '/' ? "" : "/", p);
}

/* Every cgroup the trace makes, the root first: one pass over its events. */
static int scan(struct resolve *r, char *err, size_t errlen)
{
	const char *trace = r->opts->trace_path;
	struct rf_trace_reader *rd = NULL;
	char buf[RF_MAX_STRING + 32];
	struct rf_event ev;
	int e, got;

	r->scanned = true;
	e = add_path(&r->cn, "/", 1);
	if (e)
		return e;
	e = rf_trace_reader_open(&rd, trace, r->opts->skip_damaged ? RF_READ_SKIP_DAMAGED : 0);
	if (e)
		snprintf(err, errlen, "%s: %s", trace, rd && rf_trace_reader_errmsg(rd)[0] ?
			 rf_trace_reader_errmsg(rd) : rf_strerror(e));
	while (!e && (got = rf_trace_reader_next(rd, &ev)) != 0) {
		if (got < 0) {
			snprintf(err, errlen, "%s: %s", trace, rf_trace_reader_errmsg(rd));
			e = got;
			break;
		}
		if (ev.type != RF_EV_CGROUP_MKDIR)
			continue;
		model_path(buf, sizeof(buf), &ev);
		if (!known(&r->cn, buf, strlen(buf)))
			e = add_path(&r->cn, buf, strlen(buf));
	}
	rf_trace_reader_close(rd);
	if (!e)
		find_recorded(&r->cn, r->h);
	return e;
}

/* @path is the recorded cgroup @rec or below it: the length of @rec to drop, or -1. */
static long below_recorded(const char *path, const char *rec)
{
	size_t r = strlen(rec);

	if (!r)
		return -1;
	if (r == 1)	/* the root recorded: "/x" is "recorded/x" */
		return path[1] ? 0 : 1;
	return below(path, strlen(path), rec) ? (long)r : -1;
}

/*
 * After @err's text, the trace's cgroups as a setting names them, escaped, as many as @err
 * holds: the recorded one and those below it first ("recorded", "recorded/x"), then the
 * others by their paths.
 */
static void list_cgroups(const struct replay_cgroup_names *cn, char *err, size_t errlen)
{
	size_t i, n = strlen(err), shown = 0;
	bool rec;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cn->n; i++) {
			long cut = below_recorded(cn->paths[i], cn->recorded);
			char *p;

			if ((cut >= 0) != !pass)
				continue;
			/* the recorded one by its role and its path; those below it by role */
			rec = !strcmp(cn->paths[i], cn->recorded);
			p = rf_term_escaped(cn->paths[i] + (cut > 0 && !rec ? cut : 0));
			/* room for this one and, after it, the count of those left out */
			if (!p || n + strlen(p) + 48 >= errlen) {
				free(p);
				snprintf(err + n, errlen - n, "%s... (%zu in all)", shown ? ", " : "",
					 cn->n);
				return;
			}
			n += (size_t)snprintf(err + n, errlen - n, "%s%s%s%s%s", shown++ ? ", " : "",
					      cut >= 0 ? "recorded" : "", rec ? " (" : "", p,
					      rec ? ")" : "");
			free(p);
		}
	}
}

static int resolve_cb(const char *key, const char *cgroup, char *path, size_t len, void *ctx,
		      char *err, size_t errlen)
{
	struct resolve *r = ctx;
	bool role = !strncmp(cgroup, "recorded", 8);
	const char *rec = r->cn.recorded;
	char *shown;
	int e;

	if (!strcmp(cgroup, "/")) {	/* the root: every trace has it */
		snprintf(path, len, "/");
		return 0;
	}
	if (!r->scanned && (e = scan(r, err, errlen)))
		return e;
	if (role && !rec[0]) {
		snprintf(err, errlen, "%s: %s names no recorded cgroup (recorded with -a or -p): "
			 "name the cgroup by its path; its cgroups are ", key, r->opts->trace_path);
		list_cgroups(&r->cn, err, errlen);
		return RF_ERR_CONFIG;
	}
	if (role)	/* "recorded/x" below the root is "/x" */
		snprintf(path, len, "%s%s", strcmp(rec, "/") || !cgroup[8] ? rec : "", cgroup + 8);
	else
		snprintf(path, len, "%s", cgroup);
	if (known(&r->cn, path, strlen(path)))
		return 0;
	shown = rf_term_escaped(path);	/* the recorded cgroup's part is the trace's text */
	if (!shown)
		return RF_ERR_NOMEM;
	snprintf(err, errlen, "%s: the trace has no cgroup %s; its cgroups are ", key, shown);
	free(shown);
	list_cgroups(&r->cn, err, errlen);
	return RF_ERR_CONFIG;
}

int replay_cgroup_names_resolve_configs(struct rf_config_list *l, const struct rf_replay_opts *opts,
					const struct rf_trace_header *h, char *err, size_t errlen)
{
	struct resolve r = { .opts = opts, .h = h };
	size_t i;
	int e = 0;

	for (i = 0; i < l->nr && !e; i++) {
		char msg[1024] = "";

		if (!l->items[i].cfg)
			continue;	/* a reference policy knows no cgroups */
		e = rf_model_config_resolve_cgroups(l->items[i].cfg, resolve_cb, &r, msg, sizeof(msg));
		if (e)
			snprintf(err, errlen, "%s", msg[0] ? msg : rf_strerror(e));
	}
	replay_cgroup_names_release(&r.cn);
	return e;
}
