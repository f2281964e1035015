/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Profile files (replayer/model/profile_file.c): a base profile and the
 * switches a patch changes.  A good file gives the base's switches but the
 * ones it sets, under its own name; each kind of mistake is refused with
 * the file, the line and what is wrong.
 */
#include <unistd.h>

#include "tests/model/model-helpers.h"

static char dir[] = "/tmp/test-profile-file.XXXXXX";

/* @text into a file of the test's directory: its path (static). */
static const char *file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		diag("cannot write %s", path);
		exit(2);
	}
	return path;
}

struct kv_find {
	const char *key;
	char value[64];
	bool overridden, found;
};

static int find_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	struct kv_find *f = ctx;

	if (!strcmp(key, f->key)) {
		snprintf(f->value, sizeof(f->value), "%s", value);
		f->overridden = overridden;
		f->found = true;
	}
	return 0;
}

static struct kv_find get(const struct rf_model_config *c, const char *key)
{
	struct kv_find f = { .key = key };

	rf_model_config_describe(c, find_cb, &f);
	return f;
}

/* A file that should be refused: its message has @want. */
static void refused(const char *name, const char *text, const char *want, const char *what)
{
	struct rf_model_config *c = NULL;
	char err[512] = "";
	int r = rf_model_config_load(&c, file(name, text), err, sizeof(err));

	ok(r == RF_ERR_CONFIG && !c && strstr(err, want) && strstr(err, name), "%s: %s", what, err);
}

int main(void)
{
	struct rf_model_config *c = NULL;
	struct rf_model *m;
	struct kv_find f;
	char err[512] = "";

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	plan(12);
	is_int(rf_model_config_load(&c, file("ok.profile",
		"# 9cecde80aae0 reverted\n"
		"name v6.12-9cecde80\n"
		"base v6.12   # the kernel it starts from\n"
		"description v6.12 with folio batches of 15\n"
		"\n"
		"pagevec_size = 15\n"
		"rand_no_recency=off\n"), err, sizeof(err)), 0, "a profile file loads (%s)", err);
	f = get(c, "profile");
	ok(!strcmp(f.value, "v6.12-9cecde80"), "its profile is the file's name (%s)", f.value);
	f = get(c, "base");
	ok(f.found && !strcmp(f.value, "v6.12"), "describe gives its base (%s)", f.value);
	f = get(c, "pagevec_size");
	ok(!strcmp(f.value, "15") && f.overridden, "the switches it sets, overridden (%s)", f.value);
	f = get(c, "rand_no_recency");
	ok(!strcmp(f.value, "off") && f.overridden, "... a boolean one too (%s)", f.value);
	f = get(c, "balance");
	ok(!strcmp(f.value, "cost-io") && !f.overridden, "the others are the base's (balance %s)",
	   f.value);
	is_int(rf_model_new(&m, c, err, sizeof(err)), 0, "a model is made of it");
	rf_model_free(m);
	rf_model_config_free(c);

	refused("noname.profile", "base v6.12\n", "no name", "a file without a name");
	refused("builtin.profile", "name v6.1\nbase v6.12\n", "built-in profile",
		"a name a built-in profile has");
	refused("nobase.profile", "name x\nbase v9.9\n", "unknown base profile", "an unknown base");
	refused("badkey.profile", "name x\nbase v6.12\n\nrand_no_recncy = on\n",
		"badkey.profile:4: unknown key \"rand_no_recncy\" (did you mean \"rand_no_recency\"?)",
		"a misspelt key, by line, with the key meant");
	refused("garbage.profile", "name x\nbase v6.12\nwhatever\n", "garbage.profile:3: not a line",
		"a line that is neither");
	{
		static const char *const names[] = { "ok", "noname", "builtin", "nobase", "badkey",
						     "garbage" };
		char path[256];
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names); i++) {
			snprintf(path, sizeof(path), "%s/%s.profile", dir, names[i]);
			unlink(path);
		}
	}
	rmdir(dir);
	return done_testing();
}
