/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Building the list of configurations to replay.
 *
 *   --profile v4.5,v4.6          one configuration per profile (a kernel's, or a
 *                                reference policy: lru, clock, opt; policy.c)
 *   --set memory=1G              applied to every configuration (repeatable)
 *   --matrix FILE                one line per configuration group:
 *                                    PROFILE[|PROFILE...] [KEY=VALUE[|VALUE...]] ...
 *                                alternatives separated by '|' expand into the
 *                                cartesian product, in the order written;
 *                                '#' starts a comment
 *
 * A profile with a '/' or ending in ".profile" is a profile file
 * (rf_model_config_load(): a base profile and switches), named by its "name".
 *
 * A configuration is named after its profile and the settings it overrides
 * ("v4.6,memory=1G"), so names are stable, readable and unique.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replayer/replay/replay-local.h"

#define MAX_WORDS	64
#define MAX_EXPANSION	4096

/* rf_model_config_describe()'s first key is "profile": its value into @ctx (32 bytes). */
static int profile_name_cb(const char *key, const char *value, bool overridden, void *ctx)
{
	(void)overridden;
	if (strcmp(key, "profile"))
		return 0;
	snprintf(ctx, 32, "%s", value);
	return 1;	/* stop the walk */
}

static void free_config(struct rf_replay_config *c)
{
	free(c->name);
	free(c->line);
	free(c->profile);
	rf_model_config_free(c->cfg);
	replay_policy_config_free(c->policy);
	memset(c, 0, sizeof(*c));
}

/* Whether --profile's @p names a profile file rather than a built-in profile. */
static bool profile_is_file(const char *p)
{
	size_t n = strlen(p);

	return strchr(p, '/') || (n > 8 && !strcmp(p + n - 8, ".profile"));
}

static int add_config(struct rf_config_list *l, const char *profile, char *const *kv, size_t nr_kv,
		      char *const *sets, size_t nr_sets, char *err, size_t errlen)
{
	struct rf_replay_config *c;
	size_t i, namelen;
	char *eq, loaded[32];
	int rc;

	if (RF_GROW(l->items, l->cap, l->nr + 1))
		return RF_ERR_NOMEM;
	c = &l->items[l->nr];
	memset(c, 0, sizeof(*c));
	if (profile_is_file(profile)) {
		rc = rf_model_config_load(&c->cfg, profile, err, errlen);
		if (rc)
			return rc;
		if (rf_model_config_describe(c->cfg, profile_name_cb, loaded) != 1) {
			rf_model_config_free(c->cfg);
			return RF_ERR_NOMEM;
		}
		profile = loaded;	/* the configuration is named by the file's name */
	} else {
		rc = replay_policy_profile(profile) ? replay_policy_config_new(&c->policy, profile) :
			rf_model_config_new(&c->cfg, profile);
	}
	if (rc == RF_ERR_NOMEM)
		return rc;
	if (rc) {
		snprintf(err, errlen, "unknown profile '%s' (see 'refault replay --list-profiles'; "
			 "a profile file's path has a '/' or ends in .profile)", profile);
		return RF_ERR_CONFIG;
	}
	namelen = strlen(profile) + 1;
	for (i = 0; i < nr_sets + nr_kv; i++) {
		const char *s = i < nr_sets ? sets[i] : kv[i - nr_sets];
		char key[256];

		eq = strchr(s, '=');
		if (!eq || eq == s || (size_t)(eq - s) >= sizeof(key)) {
			free_config(c);
			snprintf(err, errlen, "'%s' is not KEY=VALUE", s);
			return RF_ERR_CONFIG;
		}
		memcpy(key, s, (size_t)(eq - s));
		key[eq - s] = '\0';
		rc = c->policy ? replay_policy_config_set(c->policy, key, eq + 1, err, errlen) :
			rf_model_config_set(c->cfg, key, eq + 1, err, errlen);
		if (rc) {
			free_config(c);
			return rc;
		}
		namelen += strlen(s) + 1;
	}
	c->name = malloc(namelen);
	c->line = malloc(namelen);
	c->profile = strdup(profile);
	if (!c->name || !c->line || !c->profile) {
		free_config(c);
		return RF_ERR_NOMEM;
	}
	strcpy(c->name, profile);
	strcpy(c->line, profile);
	for (i = 0; i < nr_sets + nr_kv; i++) {
		strcat(c->name, ",");
		strcat(c->name, i < nr_sets ? sets[i] : kv[i - nr_sets]);
		strcat(c->line, " ");
		strcat(c->line, i < nr_sets ? sets[i] : kv[i - nr_sets]);
	}
	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i].name, c->name)) {
			snprintf(err, errlen, "configuration '%s' is listed twice", c->name);
			free_config(c);
			return RF_ERR_CONFIG;
		}
	l->nr++;
	return 0;
}

int rf_config_list_add_profiles(struct rf_config_list *l, const char *profiles, char *const *sets,
				size_t nr_sets, char *err, size_t errlen)
{
	char *copy = strdup(profiles), *save = NULL, *p;
	int rc = 0;

	if (!copy)
		return RF_ERR_NOMEM;
	for (p = strtok_r(copy, ",", &save); p && !rc; p = strtok_r(NULL, ",", &save))
		rc = add_config(l, p, NULL, 0, sets, nr_sets, err, errlen);
	free(copy);
	return rc;
}

/* The alternatives of matrix word @w: "a|b|c" or "KEY=a|b" (empty ones do not count). */
static size_t nr_alternatives(const char *w)
{
	const char *eq = strchr(w, '=');
	size_t n = 0;

	for (w = eq ? eq + 1 : w; *w; w += strcspn(w, "|")) {
		w += strspn(w, "|");
		if (*w)
			n++;
	}
	return n;
}

/*
 * How many configurations the words of one line give, checked before any is
 * made: the product of their alternatives, at most @budget.  A word with no
 * value ("KEY=", "|") is an error, as is a product over @budget.
 */
static int count_line(char **words, size_t nr, size_t budget, char *err, size_t errlen)
{
	size_t i, product = 1;

	for (i = 0; i < nr; i++) {
		size_t n = nr_alternatives(words[i]);

		if (!n) {
			snprintf(err, errlen, "'%s' has no value", words[i]);
			return RF_ERR_CONFIG;
		}
		if (product > budget / n) {
			snprintf(err, errlen, "matrix expands to more than %d configurations",
				 MAX_EXPANSION);
			return RF_ERR_CONFIG;
		}
		product *= n;
	}
	return 0;
}

/*
 * Expand word @i of @words (alternatives separated by '|') and recurse; at
 * the end, words[0] is the profile and the rest are KEY=VALUE settings.
 * count_line() bounded what it makes.
 */
static int expand(struct rf_config_list *l, char **words, size_t nr, size_t i, char **chosen,
		  char *const *sets, size_t nr_sets, size_t *budget, char *err, size_t errlen)
{
	char *copy, *save = NULL, *alt, *bar;
	int rc = 0;

	if (i == nr)
		return add_config(l, chosen[0], chosen + 1, nr - 1, sets, nr_sets, err, errlen);
	if (!*budget) {
		snprintf(err, errlen, "matrix expands to more than %d configurations", MAX_EXPANSION);
		return RF_ERR_CONFIG;
	}
	copy = strdup(words[i]);
	if (!copy)
		return RF_ERR_NOMEM;
	/* KEY=a|b: the key prefixes every alternative */
	bar = strchr(copy, '=');
	for (alt = strtok_r(bar ? bar + 1 : copy, "|", &save); alt && !rc; alt = strtok_r(NULL, "|", &save)) {
		char buf[512];

		if (bar)
			snprintf(buf, sizeof(buf), "%.*s=%s", (int)(bar - copy), copy, alt);
		else
			snprintf(buf, sizeof(buf), "%s", alt);
		chosen[i] = buf;
		if (i + 1 == nr)
			(*budget)--;
		rc = expand(l, words, nr, i + 1, chosen, sets, nr_sets, budget, err, errlen);
	}
	free(copy);
	return rc;
}

/* One matrix line (comments already cut) into configurations, within @budget of them. */
static int add_line(struct rf_config_list *l, char *line, char *const *sets, size_t nr_sets,
		    size_t *budget, char *err, size_t errlen)
{
	char *words[MAX_WORDS], *chosen[MAX_WORDS], *save = NULL, *w;
	size_t nr = 0;
	int rc;

	for (w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (nr == MAX_WORDS) {
			snprintf(err, errlen, "too many words");
			return RF_ERR_CONFIG;
		}
		words[nr++] = w;
	}
	if (!nr)
		return 0;
	rc = count_line(words, nr, *budget, err, errlen);
	return rc ? rc : expand(l, words, nr, 0, chosen, sets, nr_sets, budget, err, errlen);
}

int rf_config_list_add_matrix_line(struct rf_config_list *l, const char *line, char *const *sets,
				   size_t nr_sets, char *err, size_t errlen)
{
	size_t budget = l->nr < MAX_EXPANSION ? MAX_EXPANSION - l->nr : 0;
	char *copy = strdup(line), *hash;
	int rc;

	if (!copy)
		return RF_ERR_NOMEM;
	hash = strchr(copy, '#');
	if (hash)
		*hash = '\0';
	rc = add_line(l, copy, sets, nr_sets, &budget, err, errlen);
	free(copy);
	return rc;
}

int rf_config_list_add_matrix(struct rf_config_list *l, const char *path, char *const *sets,
			      size_t nr_sets, char *err, size_t errlen)
{
	char *line = NULL, *hash, *nul;
	size_t budget = MAX_EXPANSION, cap = 0;
	unsigned int lineno = 0;
	FILE *f = fopen(path, "re");
	ssize_t n;
	int rc = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (!rc && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		nul = memchr(line, '\0', (size_t)n);
		if (nul) {	/* not the line's end: the rest of it would be lost */
			snprintf(err, errlen, "%s:%u: a NUL byte at byte %zu of the line: a matrix "
				 "is text", path, lineno, (size_t)(nul - line));
			rc = RF_ERR_CONFIG;
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		rc = add_line(l, line, sets, nr_sets, &budget, err, errlen);
		if (rc) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%s:%u: %s", path, lineno, err);
			snprintf(err, errlen, "%s", msg);
		}
	}
	free(line);
	fclose(f);
	if (!rc && !l->nr) {
		snprintf(err, errlen, "%s: no configuration in the matrix", path);
		rc = RF_ERR_CONFIG;
	}
	return rc;
}

void rf_config_list_apply_header(struct rf_config_list *l, const struct rf_trace_header *h)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (l->items[i].policy)
			replay_policy_config_from_header(l->items[i].policy, h);
		else
			rf_model_config_from_header(l->items[i].cfg, h);
	}
}

void rf_config_list_free(struct rf_config_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free_config(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}
