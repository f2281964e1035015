/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Configuration: profiles, overrides, refusals with a clear message. */
#include "model-helpers.h"

static bool has(const char *s, const char *what)
{
	return s && strstr(s, what);
}

static int count_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	int *n = ctx;

	(void)value;
	if (!strcmp(key, "memory") && overridden)
		n[1] = 1;
	if (!strcmp(key, "limit./a") && !strcmp(value, "536870912"))
		n[2] = 1;
	n[0]++;
	return 0;
}

struct key_walk {
	int keys, described, undocumented;
	const char *missing;
};

static int key_cb(const struct rf_model_key *k, void *ctx)
{
	struct key_walk *w = ctx;

	w->keys++;
	if (!k->help || !*k->help || (k->type == RF_MODEL_KEY_ENUM && !k->values))
		w->undocumented++;
	return 0;
}

static int find_key_cb(const struct rf_model_key *k, void *ctx)
{
	const char *name = ctx;

	return !strcmp(k->name, name) ||
	       ((k->flags & RF_MODEL_KEY_PER_CGROUP) && !strncmp(name, k->name, strlen(k->name)));
}

/* Every key describe lists is one rf_model_config_keys() names, and the reverse. */
static int described_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	struct key_walk *w = ctx;

	(void)value;
	(void)overridden;
	if (strcmp(key, "profile") && !rf_model_config_keys(find_key_cb, (void *)key))
		w->missing = key;
	w->described++;
	return 0;
}

/* The key list: every key is documented, and describe lists the same keys. */
static void key_list(void)
{
	struct key_walk w = { 0 };
	struct rf_model_config *c;
	char err[1024];

	rf_model_config_keys(key_cb, &w);
	ok(w.keys >= 30 && !w.undocumented, "rf_model_config_keys: %d keys, each with help",
	   w.keys);
	rf_model_config_new(&c, "v6.18");
	rf_model_config_set(c, "limit./a", "1G", err, sizeof(err));
	rf_model_config_describe(c, described_cb, &w);
	ok(!w.missing && w.described == w.keys - 5 + 1 + 1,
	   "describe lists every key but the per-cgroup ones, and one limit (%s)",
	   w.missing ? w.missing : "none missing");
	is_int(rf_model_config_set(c, "memroy", "4G", err, sizeof(err)), RF_ERR_CONFIG,
	       "a misspelt key refused");
	ok(has(err, "\"memory\"?") && has(err, "limit.<path>") && !has(err, "rf_model"),
	   "... with the key meant and the keys there are: %s", err);
	rf_model_config_set(c, "cost.lru_lok", "1", err, sizeof(err));
	ok(has(err, "cost.lru_lock"), "a misspelt cost key gets the one meant: %s", err);
	rf_model_config_set(c, "cost.nothing", "1", err, sizeof(err));
	ok(has(err, "rmap_walk") && has(err, "page_alloc"), "an unknown cost op lists them: %s",
	   err);
	rf_model_config_set(c, "shadow_limit", "lru9", err, sizeof(err));
	ok(has(err, "present16, file16 or lru8"), "an enum says its values: %s", err);
	rf_model_config_set(c, "swappiness", "201", err, sizeof(err));
	ok(has(err, "0..200 for v6.18"), "swappiness says the profile's range: %s", err);
	ok(!rf_model_config_set(c, "shadow_limit", "present8", err, sizeof(err)),
	   "present8, the old name of lru8, is still taken");
	rf_model_config_free(c);
}

/* The profile for a kernel release: the one validate uses when none is given. */
static void profile_for_release(void)
{
	char why[256];
	const char *const *p;
	int own = 0, rows = 0;

	is_str(rf_model_profile_for_release("5.15.3-arch1", why, sizeof(why)), "v5.10",
	       "5.15 picks the nearest older profile");
	ok(has(why, "recorded on 5.15, which has no profile of its own: the nearest older one"),
	   "... and says so: %s", why);
	is_str(rf_model_profile_for_release("4.6.2", why, sizeof(why)), "v4.6", "4.6.2 picks v4.6");
	ok(!strcmp(why, "recorded on 4.6: the profile of that release"), "... its own: %s", why);
	is_str(rf_model_profile_for_release("4.4.0", why, sizeof(why)), "v4.5",
	       "4.4 (older than every profile) picks the oldest");
	ok(!strcmp(why, "recorded on 4.4, older than every profile: the oldest"), "... %s", why);
	is_str(rf_model_profile_for_release("7.1.0", why, sizeof(why)), "v6.18", "7.1 picks v6.18");
	is_str(rf_model_profile_for_release("", why, sizeof(why)), "v6.18",
	       "an unreadable release picks the newest");
	ok(!strcmp(why, "kernel release '' unreadable: the newest profile"), "... %s", why);
	is_str(rf_model_profile_for_release(NULL, why, sizeof(why)), "v6.18", "so does none");
	/* every profile of a plain release vN.M is what N.M picks */
	for (p = rf_model_profiles(); *p; p++) {
		unsigned int major, minor;
		char rel[32], end;

		if (sscanf(*p, "v%u.%u%c", &major, &minor, &end) != 2)
			continue;
		rows++;
		snprintf(rel, sizeof(rel), "%u.%u.0-test", major, minor);
		own += !strcmp(rf_model_profile_for_release(rel, why, sizeof(why)), *p);
	}
	ok(rows == 7 && own == rows, "each of the %d release profiles is its release's pick", rows);
	is_str(rf_model_profile_for_release("6.1.0-57-amd64", why, sizeof(why)), "v6.1",
	       "Debian's 6.1 LTS picks v6.1");
	is_str(rf_model_profile_for_release("6.12.117+deb12-amd64", why, sizeof(why)), "v6.12",
	       "Debian's 6.12 LTS picks v6.12");
	is_str(rf_model_profile_for_release("6.6.63", why, sizeof(why)), "v6.1",
	       "6.6 picks v6.1, the nearest older");
}

/*
 * limit.<path> wins over the trace's CGROUP_LIMIT for that cgroup (the
 * override was once dropped at mkdir, and the trace's limit with it: no
 * limit at all).  /a limited to 16 pages by the configuration, 1G by the
 * trace: 64 pages read there leave 16 charged, 48 reclaimed.
 */
static void limit_override(void)
{
	static const char *const kv[] = { "memory=256M", "pagevec_size=1", "limit./a=64K", NULL };
	struct rf_model *m = mk("v6.18", kv);

	cg_mkdir(m, 10, 1, "/a");
	cg_simple(m, RF_EV_CGROUP_LIMIT, 10, 0, RF_LIMIT_MEMORY, 1ull << 30);
	cg_simple(m, RF_EV_CGROUP_ATTACH, 10, 100, 0, 0);
	read_pages(m, 0, 100, 7, 0, 64);
	ok(C(m, "memcg./a.usage") <= 16 && C(m, "memcg./a.pgsteal_file") >= 48,
	   "limit./a=64K holds /a to 16 pages over the trace's 1G (usage %llu, steal %llu)",
	   (unsigned long long)C(m, "memcg./a.usage"),
	   (unsigned long long)C(m, "memcg./a.pgsteal_file"));
	rf_model_free(m);
}

int main(void)
{
	const char *const *names = rf_model_profiles();
	const char *want[] = { "v4.5", "v4.6", "v4.6+55779ec", "v4.9", "v6.18" };
	struct rf_model_config *c;
	struct rf_model *m;
	struct rf_trace_header h;
	char err[256];
	int n[3] = { 0 }, i, found = 0;

	plan(40);
	for (i = 0; i < 5; i++)
		for (const char *const *p = names; *p; p++)
			found += !strcmp(*p, want[i]);
	is_int(found, 5, "the profile list names v4.5, v4.6, v4.6+55779ec, v4.9, v6.18");
	is_int(rf_model_config_new(&c, "v3.0"), RF_ERR_CONFIG, "unknown profile refused");
	ok(c == NULL, "no config for an unknown profile");

	rf_model_config_new(&c, "v4.6");
	is_int(rf_model_config_set(c, "memroy", "4G", err, sizeof(err)), RF_ERR_CONFIG,
	       "unknown key refused");
	ok(has(err, "memroy"), "message names the key: %s", err);
	is_int(rf_model_config_set(c, "limit./a", "100", err, sizeof(err)), RF_ERR_CONFIG,
	       "a limit below a page refused");
	ok(has(err, "below one page"), "message says why: %s", err);
	is_int(rf_model_config_set(c, "cpus", "0", err, sizeof(err)), RF_ERR_CONFIG,
	       "zero CPUs refused");
	ok(has(err, "cpus=0"), "message names the value: %s", err);
	is_int(rf_model_config_set(c, "swappiness", "150", err, sizeof(err)), RF_ERR_CONFIG,
	       "swappiness 150 refused for v4.6 (0..100)");
	is_int(rf_model_config_set(c, "pagevec", "maybe", err, sizeof(err)), RF_ERR_CONFIG,
	       "bad pagevec mode refused");
	ok(!rf_model_config_set(c, "memory", "1G", err, sizeof(err)) &&
	   !rf_model_config_set(c, "limit./a", "512M", err, sizeof(err)) &&
	   !rf_model_config_set(c, "cost.lru_lock", "55", err, sizeof(err)) &&
	   !rf_model_config_set(c, "pagevec", "post-8f18", err, sizeof(err)),
	   "valid overrides accepted");

	memset(&h, 0, sizeof(h));
	h.host.mem_bytes = 8ull << 30;
	h.host.cpus = 16;
	h.host.page_size = 4096;
	rf_model_config_from_header(c, &h);
	rf_model_config_describe(c, count_cb, n);
	ok(n[0] > 20 && n[1] && n[2], "describe lists every key, marks overrides (%d keys)", n[0]);
	ok(!rf_model_new(&m, c, err, sizeof(err)), "model built");
	is_int(C(m, "model.wmark_min") > 0, 1, "explicit memory kept over the header's");
	rf_model_free(m);
	rf_model_config_free(c);

	limit_override();
	key_list();
	profile_for_release();

	rf_model_config_new(&c, "v6.18");
	rf_model_config_set(c, "memory", "4M", err, sizeof(err));
	rf_model_config_set(c, "page_size", "65536", err, sizeof(err));
	ok(rf_model_new(&m, c, err, sizeof(err)) == RF_ERR_CONFIG && has(err, "256 pages"),
	   "a node below 256 pages refused: %s", err);
	rf_model_config_free(c);
	return done_testing();
}
