/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A per-cgroup key's cgroup by its role (refault/model.h): "limit.recorded"
 * and "limit.recorded/x" are taken, described as set, refused by
 * rf_model_new() until rf_model_config_resolve_cgroups() names their path
 * (its callback's error kept, two names of one cgroup refused), copied by
 * rf_model_config_dup(), and then limit that memcg as its path would.
 */
#include "tests/model/model-helpers.h"

#include <refault/errors.h>

static bool has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

struct described {
	char keys[512];
};

static int describe_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	struct described *d = ctx;
	size_t n = strlen(d->keys);

	(void)overridden;
	if (!strchr(key, '.') || strncmp(key, "limit.", 6))
		return 0;
	snprintf(d->keys + n, sizeof(d->keys) - n, "%s=%s;", key, value);
	return 0;
}

/* The recorded cgroup is /r: "recorded" is /r, "recorded/x" /r/x; "/bad" is an error. */
static int name_cb(const char *key, const char *cgroup, char *path, size_t len, void *ctx,
		   char *err, size_t errlen)
{
	int *calls = ctx;

	(*calls)++;
	if (!strcmp(cgroup, "/bad")) {
		snprintf(err, errlen, "%s: no such cgroup", key);
		return RF_ERR_CONFIG;
	}
	if (!strncmp(cgroup, "recorded", 8))
		snprintf(path, len, "/r%s", cgroup + 8);
	else
		snprintf(path, len, "%s", cgroup);
	return 0;
}

int main(void)
{
	struct rf_model_config *c, *d;
	struct described desc = { "" };
	struct rf_model *m = NULL;
	char err[512];
	int calls = 0;

	plan(14);
	if (rf_model_config_new(&c, "v6.18"))
		return 1;
	ok(!rf_model_config_set(c, "limit.recorded", "64K", err, sizeof(err)) &&
	   !rf_model_config_set(c, "high.recorded/x", "1M", err, sizeof(err)) &&
	   !rf_model_config_set(c, "limit./a", "1G", err, sizeof(err)),
	   "limit.recorded, high.recorded/x and limit./a are taken");
	is_int(rf_model_config_set(c, "limit.rec", "1M", err, sizeof(err)), RF_ERR_CONFIG,
	       "limit.rec is neither a role nor a path");
	ok(has(err, "limit.rec: name the cgroup as recorded"), "... and the message says what is: %s",
	   err);
	is_int(rf_model_config_set(c, "limit.recordedx", "1M", err, sizeof(err)), RF_ERR_CONFIG,
	       "limit.recordedx is not recorded/CHILD");
	rf_model_config_describe(c, describe_cb, &desc);
	is_str(desc.keys, "limit.recorded=65536;limit./a=1073741824;",
	       "described as set (high. is described as high.recorded/x, not listed here)");
	is_int(rf_model_new(&m, c, err, sizeof(err)), RF_ERR_CONFIG,
	       "rf_model_new() refuses a role not yet named");
	ok(has(err, "limit.recorded: which cgroup") && has(err, "rf_model_config_resolve_cgroups"),
	   "... and says what names it: %s", err);
	is_int(rf_model_config_dup(&d, c), 0, "a copy before naming");
	is_int(rf_model_config_resolve_cgroups(c, name_cb, &calls, err, sizeof(err)), 0,
	       "the callback names each cgroup");
	is_int(calls, 3, "... once per key");
	desc.keys[0] = '\0';
	rf_model_config_describe(c, describe_cb, &desc);
	is_str(desc.keys, "limit.recorded=65536;limit./a=1073741824;",
	       "still described as set once named: the same setting in every recording");
	if (!rf_model_new(&m, c, err, sizeof(err))) {
		cg_mkdir(m, 10, 1, "/r");
		cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
		read_pages(m, 0, 100, 7, 0, 64);
		ok(C(m, "memcg./r.usage") <= 16 && C(m, "memcg./r.failcnt") > 0,
		   "limit.recorded=64K, named /r, holds /r to 16 pages (usage %llu)",
		   (unsigned long long)C(m, "memcg./r.usage"));
		rf_model_free(m);
	} else {
		ok(0, "a model of the named configuration: %s", err);
	}
	rf_model_config_set(d, "limit./r", "1M", err, sizeof(err));
	calls = 0;
	ok(rf_model_config_resolve_cgroups(d, name_cb, &calls, err, sizeof(err)) == RF_ERR_CONFIG &&
	   has(err, "limit.recorded and limit./r name the same cgroup, /r"),
	   "the copy kept its role: with limit./r too, two names of /r are refused: %s", err);
	rf_model_config_free(c);
	rf_model_config_free(d);
	if (rf_model_config_new(&c, "v6.18"))
		return 1;
	rf_model_config_set(c, "low./bad", "1M", err, sizeof(err));
	ok(rf_model_config_resolve_cgroups(c, name_cb, &calls, err, sizeof(err)) == RF_ERR_CONFIG &&
	   !strcmp(err, "low./bad: no such cgroup"), "the callback's error and message are kept: %s",
	   err);
	rf_model_config_free(c);
	return done_testing();
}
