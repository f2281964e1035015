/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for model configurations as a user writes them: each
 * line of the input as a `--set KEY=VALUE` on every profile, and the whole
 * input as a `--matrix FILE` and as a profile file (`--profile FILE`).  Every configuration made is described (what
 * the results file prints).  Errors are RF_ERR_CONFIG (with a message that
 * says why) or RF_ERR_NOMEM; nothing crashes, leaks or goes undefined.
 */
#include "config.h"

#include <string.h>

#include <refault/model.h>

#include "replayer/replay/replay.h"
#include "tests/fuzz/fuzz-memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SETS 16

struct desc {
	char text[16384];
	size_t len;
};

static int describe_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	struct desc *d = ctx;
	int n = snprintf(d->text + d->len, sizeof(d->text) - d->len, "%s=%s%s\n", key, value,
			 overridden ? "*" : "");

	if (n > 0 && (size_t)n < sizeof(d->text) - d->len)
		d->len += (size_t)n;
	return 0;
}

static void check_error(int rc, const char *err)
{
	if (rc && ((rc != RF_ERR_CONFIG && rc != RF_ERR_NOMEM) || (rc == RF_ERR_CONFIG && !*err)))
		abort();	/* a configuration error is RF_ERR_CONFIG and says why */
}

static void check_list(struct rf_config_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct desc d = { .len = 0 };

		if (l->items[i].policy)
			rf_policy_config_describe(l->items[i].policy, describe_cb, &d);
		else
			rf_model_config_describe(l->items[i].cfg, describe_cb, &d);
		if (!d.len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *sets[MAX_SETS], *line, *save = NULL, err[1024], path[64];
	struct rf_config_list l = { 0 };
	size_t nr = 0;
	int rc, fd;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (line = strtok_r(copy, "\n", &save); line && nr < MAX_SETS;
	     line = strtok_r(NULL, "\n", &save))
		sets[nr++] = line;
	err[0] = '\0';
	rc = rf_config_list_add_profiles(&l, "v4.5,v4.6,v4.9,v5.10,v6.18,lru,opt", sets, nr, err, sizeof(err));
	check_error(rc, err);
	if (!rc)
		check_list(&l);
	rf_config_list_free(&l);
	memset(&l, 0, sizeof(l));
	fd = memfile(data, size, path, sizeof(path));
	if (fd >= 0) {
		err[0] = '\0';
		rc = rf_config_list_add_matrix(&l, path, NULL, 0, err, sizeof(err));
		check_error(rc, err);
		if (!rc)
			check_list(&l);
		rf_config_list_free(&l);
		memset(&l, 0, sizeof(l));
		err[0] = '\0';
		rc = rf_config_list_add_profiles(&l, path, NULL, 0, err, sizeof(err));	/* a '/': a file */
		check_error(rc, err);
		if (!rc)
			check_list(&l);
		rf_config_list_free(&l);
		close(fd);
	}
	free(copy);
	return 0;
}
