/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every event type with random (often absurd) fields must be taken without
 * a crash, a hang or a sanitizer report, and leave the books balanced: LRU
 * pages + batched pages + free pages = memory, whatever the trace said.
 */
#include "lib/compiler.h"
#include "model-helpers.h"

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

static void random_event(uint64_t *s, struct rf_event *ev)
{
	static const uint16_t types[] = {
		RF_EV_FILE_READ, RF_EV_FILE_WRITE, RF_EV_FILE_FAULT, RF_EV_FILE_READAHEAD,
		RF_EV_ANON_FAULT,
		RF_EV_ACCESS, RF_EV_MMAP, RF_EV_MUNMAP, RF_EV_MADVISE, RF_EV_FADVISE,
		RF_EV_TRUNCATE, RF_EV_FORK, RF_EV_EXEC, RF_EV_EXIT, RF_EV_CGROUP_MKDIR,
		RF_EV_CGROUP_RMDIR, RF_EV_CGROUP_ATTACH, RF_EV_CGROUP_LIMIT, RF_EV_NAME_PID,
		RF_EV_LRU_ADD, RF_EV_COUNTERS, RF_EV_MARKER, RF_EV_FILE_SYNC, 77, 0,
	};
	static const char *const paths[] = { "/a", "/a/b", "c", NULL };
	uint64_t r = rnd(s);

	memset(ev, 0, sizeof(*ev));
	ev->type = types[r % ARRAY_SIZE(types)];
	ev->cpu = rnd(s) % 7;
	ev->pid = rnd(s) % 6;
	switch (ev->type) {
	case RF_EV_FILE_READ: case RF_EV_FILE_WRITE: case RF_EV_FILE_FAULT:
	case RF_EV_FILE_READAHEAD: case RF_EV_FADVISE: case RF_EV_TRUNCATE: case RF_EV_FILE_SYNC:
		ev->u.file.dev = 8;
		ev->u.file.ino = rnd(s) % 4;
		ev->u.file.index = (rnd(s) & 1) ? rnd(s) % 3000 : rnd(s) << 20;
		ev->u.file.nr = rnd(s) % 64;
		if (ev->type == RF_EV_FADVISE && rnd(s) % 4 == 0)
			ev->u.file.nr = UINT64_MAX;	/* "to the end" */
		ev->u.file.order = (rnd(s) % 8 == 0) ? rnd(s) % 256 : 0;
		if (ev->type == RF_EV_FILE_READAHEAD && rnd(s) % 2) {
			ev->u.file.order = rnd(s) % 11;	/* large folios, their shadows */
			ev->u.file.nr = rnd(s) % 1100;
		}
		ev->u.file.flags = rnd(s);
		ev->u.file.advice = rnd(s) % 6;
		ev->u.file.mm = rnd(s) % 4;
		break;
	case RF_EV_ANON_FAULT:
		ev->u.anon.mm = rnd(s) % 4;
		ev->u.anon.addr = (rnd(s) & 1) ? (rnd(s) % 4000) << 12 : rnd(s) << 30;
		ev->u.anon.order = (rnd(s) % 8 == 0) ? rnd(s) % 256 : 0;
		ev->u.anon.flags = rnd(s);
		break;
	case RF_EV_ACCESS:
		ev->u.access.key = (rnd(s) & 1) ? rnd(s) % 4000 : rnd(s) << 40;
		ev->u.access.order = (rnd(s) % 8 == 0) ? rnd(s) % 256 : 0;
		ev->u.access.flags = rnd(s);
		break;
	case RF_EV_MMAP: case RF_EV_MUNMAP: case RF_EV_MADVISE:
		ev->u.vma.mm = rnd(s) % 4;
		ev->u.vma.addr = (rnd(s) % 4000) << 12;
		ev->u.vma.len = (rnd(s) % 16 == 0) ? UINT64_MAX : (rnd(s) % 500) << 12;
		ev->u.vma.ino = rnd(s) % 4;
		ev->u.vma.dev = 8;
		ev->u.vma.pgoff = rnd(s) % 100;
		ev->u.vma.prot = rnd(s) % 8;
		ev->u.vma.advice = (uint32_t[]){ 4, 8, 21, 0, 99 }[rnd(s) % 5];
		break;
	case RF_EV_FORK: case RF_EV_EXEC: case RF_EV_EXIT: case RF_EV_NAME_PID:
		ev->u.task.pid = rnd(s) % 6;
		ev->u.task.mm = rnd(s) % 4;
		ev->u.task.cgroup = rnd(s) % 5;
		ev->u.task.flags = rnd(s) % 2;
		break;
	case RF_EV_CGROUP_MKDIR: case RF_EV_CGROUP_RMDIR: case RF_EV_CGROUP_ATTACH:
	case RF_EV_CGROUP_LIMIT:
		ev->u.cgroup.id = rnd(s) % 5;
		ev->u.cgroup.parent = rnd(s) % 5;
		ev->u.cgroup.pid = rnd(s) % 6;
		ev->u.cgroup.kind = rnd(s) % 10;
		ev->u.cgroup.value = (rnd(s) & 1) ? RF_UNLIMITED : (rnd(s) % 600) * 4096;
		ev->u.cgroup.path = paths[rnd(s) % 4];
		break;
	default:
		break;
	}
}

/* @n random events into a model of @profile with @extra ("key=value", or NULL): pages balance */
static bool balanced(const char *profile, const char *extra, uint64_t seed, int n, char *why,
		     size_t whylen)
{
	const char *const kv[] = { "memory=8M", "swap=4M", "cpus=3", extra, NULL };
	struct rf_model_config *c;
	struct rf_model *m = NULL;
	struct rf_event ev;
	uint64_t s = seed, lru, held;
	int i, err = 0;
	bool good;

	if (rf_model_config_new(&c, profile))
		return false;
	for (i = 0; kv[i] && !err; i++) {
		char key[64];
		const char *eq = strchr(kv[i], '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv[i]), kv[i]);
		err = rf_model_config_set(c, key, eq + 1, why, whylen);
	}
	if (!err)
		err = rf_model_new(&m, c, why, whylen);
	rf_model_config_free(c);
	if (err) {
		/* a combination the configuration refuses, saying why: not a failure */
		return err == RF_ERR_CONFIG && why[0];
	}
	err = 0;

	for (i = 0; i < n && !err; i++) {
		random_event(&s, &ev);
		err = rf_model_feed(m, &ev);
	}
	rf_model_finish(m);
	lru = C(m, "vmstat.nr_inactive_anon") + C(m, "vmstat.nr_active_anon") +
	      C(m, "vmstat.nr_inactive_file") + C(m, "vmstat.nr_active_file");
	held = C(m, "vmstat.nr_file_pages") + C(m, "vmstat.nr_anon_pages");
	good = !err && lru + C(m, "gauge.pvec_pages") == held &&
	       held + C(m, "vmstat.nr_free_pages") - C(m, "model.overcommit") == 8 * 256;
	snprintf(why, whylen, "error %d, lru %llu + batched %llu = held %llu, + free - overcommit = "
		 "2048", err, (unsigned long long)lru, (unsigned long long)C(m, "gauge.pvec_pages"),
		 (unsigned long long)held);
	rf_model_free(m);
	return good;
}

static void run(const char *profile, uint64_t seed, const char *extra)
{
	char why[256];

	ok(balanced(profile, extra, seed, 20000, why, sizeof(why)),
	   "%s%s%s: 20000 random events taken, pages balance (%s)", profile, extra ? " " : "",
	   extra ? extra : "", why);
}

/*
 * Every profile switch's key (their help ends "default per profile") at each
 * value (a number: its least and greatest), on a classic and a multi-gen
 * profile: a kernel no release was, which the model takes as it takes any.
 */
struct switch_walk {
	int runs, bad;
	char first_bad[512];
};

static void try_value(struct switch_walk *w, const char *key, const char *value)
{
	static const char *const profiles[] = { "v6.12", "v6.12-mglru", "v4.6" };
	char kv[128], why[256];
	size_t i;

	snprintf(kv, sizeof(kv), "%s=%s", key, value);
	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		if (!strncmp(key, "lru_gen", 7) && strstr(profiles[i], "v4.6"))
			continue;	/* the multi-gen switches are the -mglru rows' */
		w->runs++;
		if (!balanced(profiles[i], kv, 3, 3000, why, sizeof(why)) && !w->bad++)
			snprintf(w->first_bad, sizeof(w->first_bad), "%s %s: %s", profiles[i], kv, why);
	}
}

static int switch_cb(const struct rf_model_key *k, void *ctx)
{
	const char *tail = "default per profile";
	size_t n = k->help ? strlen(k->help) : 0, i;
	char v[32];

	if (n < strlen(tail) || strcmp(k->help + n - strlen(tail), tail))
		return 0;
	if (k->type == RF_MODEL_KEY_ENUM) {
		for (i = 0; k->values[i]; i++)
			try_value(ctx, k->name, k->values[i]);
	} else if (k->type == RF_MODEL_KEY_UINT && strcmp(k->name, "pagevec_size")) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)k->min);
		try_value(ctx, k->name, v);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)k->max);
		try_value(ctx, k->name, v);
	}
	return 0;
}

int main(void)
{
	struct switch_walk w = { 0 };
	const char *const *p;
	int n = 0;

	for (p = rf_model_profiles(); *p; p++)
		n++;
	plan(n * 3 + 1);
	for (p = rf_model_profiles(); *p; p++) {
		run(*p, 1, NULL);
		run(*p, 2, NULL);
		run(*p, 3, "writeback=flusher");
	}
	rf_model_config_keys(switch_cb, &w);
	ok(w.runs > 100 && !w.bad, "every profile switch at each value: %d models, %d out of balance%s%s",
	   w.runs, w.bad, w.bad ? ", first: " : "", w.first_bad);
	return done_testing();
}
