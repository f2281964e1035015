/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A profile of one's own, from a file (docs/model.md, "Your patch in the
 * model"): a kernel profile as base and the switches a patch changes, so a
 * variant needs no C unless the patch adds a mechanism.
 *
 *	# v6.12 with the LRU batches of 15 again: 9cecde80aae0 reverted
 *	name v6.12-9cecde80
 *	base v6.12
 *	description v6.12, folio batches of 15 (9cecde80aae0 reverted)
 *	pagevec_size = 15
 *
 * "name", "base" (a built-in profile) and "description" once each, then any
 * key rf_model_config_set() takes as KEY = VALUE; '#' starts a comment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-local.h"
#include "config.h"
#include "profile.h"

#define LINE_MAX_BYTES	1024

static int file_error(char *err, size_t errlen, const char *path, unsigned int line,
		      const char *what, const char *detail)
{
	if (err && errlen) {
		if (line)
			snprintf(err, errlen, "%s:%u: %s%s%s", path, line, what, detail ? ": " : "",
				 detail ? detail : "");
		else
			snprintf(err, errlen, "%s: %s%s%s", path, what, detail ? ": " : "",
				 detail ? detail : "");
	}
	return RF_ERR_CONFIG;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* A name a --profile list and a configuration's name can carry: no ',', '=', '|', space. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < sizeof(((struct rf_model_config *)0)->profile) &&
	       !strpbrk(s, ",=| \t\"\\/") && (unsigned char)s[0] > ' ';
}

/*
 * The settings are applied after the whole file is read, on the base: they
 * are kept here by line, and checked then (so a range that depends on the
 * profile, swappiness's, is the base's).
 */
struct setting {
	unsigned int line;
	char *key, *value;
};

static void free_settings(struct setting *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].key);
		free(s[i].value);
	}
	free(s);
}

int rf_model_config_load(struct rf_model_config **out, const char *path, char *err, size_t errlen)
{
	char buf[LINE_MAX_BYTES + 2], name[64] = "", base[64] = "", desc[160] = "";
	struct setting *set = NULL;
	size_t nr = 0, cap = 0, i;
	unsigned int line = 0;
	struct rf_model_config *c = NULL;
	FILE *f;
	int r = 0;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		file_error(err, errlen, path, 0, "cannot read the profile file", strerror(e));
		return e == ENOMEM ? RF_ERR_NOMEM : RF_ERR_CONFIG;
	}
	while (!r && fgets(buf, sizeof(buf), f)) {
		char *s, *eq, *word, *rest;

		line++;
		if (strlen(buf) > LINE_MAX_BYTES) {
			r = file_error(err, errlen, path, line, "a line longer than 1024 bytes", NULL);
			break;
		}
		if ((s = strchr(buf, '#')))
			*s = '\0';
		s = trim(buf);
		if (!*s)
			continue;
		eq = strchr(s, '=');
		if (eq) {
			struct setting *x;

			*eq = '\0';
			if (nr == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct setting *n = realloc(set, ncap * sizeof(*set));

				if (!n) {
					r = RF_ERR_NOMEM;
					break;
				}
				set = n;
				cap = ncap;
			}
			x = &set[nr];
			x->line = line;
			x->key = strdup(trim(s));
			x->value = strdup(trim(eq + 1));
			nr++;
			if (!x->key || !x->value)
				r = RF_ERR_NOMEM;
			else if (!*x->key || !*x->value)
				r = file_error(err, errlen, path, line, "not KEY = VALUE", NULL);
			continue;
		}
		word = s;
		rest = word + strcspn(word, " \t");
		if (*rest)
			*rest++ = '\0';
		rest = trim(rest);
		if (!strcmp(word, "name") || !strcmp(word, "base") || !strcmp(word, "description")) {
			char *dst = word[0] == 'n' ? name : word[0] == 'b' ? base : desc;
			size_t cap_dst = word[0] == 'n' ? sizeof(name) : word[0] == 'b' ? sizeof(base) :
				sizeof(desc);

			if (*dst)
				r = file_error(err, errlen, path, line, word, "given twice");
			else if (!*rest)
				r = file_error(err, errlen, path, line, word, "wants a value");
			else if (strlen(rest) >= cap_dst)
				r = file_error(err, errlen, path, line, word, "too long");
			else
				snprintf(dst, cap_dst, "%s", rest);
			continue;
		}
		r = file_error(err, errlen, path, line, "not a line of a profile file",
			       "name NAME, base PROFILE, description TEXT or KEY = VALUE");
	}
	if (!r && ferror(f))
		r = file_error(err, errlen, path, line, "read error", strerror(errno));
	fclose(f);
	if (!r && !*name)
		r = file_error(err, errlen, path, 0, "no name (a line 'name NAME')", NULL);
	if (!r && !name_ok(name))
		r = file_error(err, errlen, path, 0, "the name must be 1 to 31 characters "
			       "without spaces, quotes, ',', '=', '|', '/' or '\\'", name);
	if (!r && rf_profile_find(name))
		r = file_error(err, errlen, path, 0, "the name is a built-in profile's; "
			       "give the variant a name of its own", name);
	if (!r && !*base)
		r = file_error(err, errlen, path, 0, "no base (a line 'base PROFILE': a built-in "
			       "profile, refault replay --list-profiles)", NULL);
	if (!r) {
		r = rf_model_config_new(&c, base);
		if (r == RF_ERR_CONFIG)
			file_error(err, errlen, path, 0, "unknown base profile (refault replay "
				   "--list-profiles)", base);
	}
	for (i = 0; !r && i < nr; i++) {
		char why[512];

		r = rf_model_config_set(c, set[i].key, set[i].value, why, sizeof(why));
		if (r == RF_ERR_CONFIG)
			file_error(err, errlen, path, set[i].line, why, NULL);
	}
	free_settings(set, nr);
	if (r) {
		rf_model_config_free(c);
		return r;
	}
	snprintf(c->profile, sizeof(c->profile), "%s", name);
	snprintf(c->base, sizeof(c->base), "%s", base);
	snprintf(c->description, sizeof(c->description), "%s", desc);
	*out = c;
	return 0;
}
