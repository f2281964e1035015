/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SPEC of a sweep (docs/sweeps.md, "The spec"): one directive a line,
 * '#' to the end of a line a comment.
 *
 *   traces NAME PATH|GLOB...   a workload and its traces (repeated recordings of it)
 *   trace PATH|GLOB...         each file a workload of its own, named by its file name
 *   matrix LINE                a --matrix line of `refault replay` (repeatable)
 *   set KEY=VALUE              in every configuration (replay --set)
 *   repeat N                   runs of each configuration with randomness (lru_gen.seed=1..N)
 *   budget SIZE                the memory a task may use (default 4G)
 *   group N                    configurations sharing one pass, at most (default 8)
 *   threads N                  each replay's --threads (default 1)
 *   replay OPTION...           --warm-cache --all-cgroups --allow-mglru --skip-damaged
 *                              --interval T, passed to every replay
 *   store DIR                  the results store (default: sweep-store beside the plan)
 *
 * Relative paths are the spec file's directory's.
 */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "lib/grow.h"
#include "lib/units.h"
#include "sweep/sweep-local.h"

#define MAX_LINE	4096
#define MAX_WORDS	256

static int push(char ***v, size_t *nr, size_t *cap, const char *s)
{
	if (RF_GROW(*v, *cap, *nr + 1))
		return RF_ERR_NOMEM;
	(*v)[*nr] = strdup(s);
	if (!(*v)[*nr])
		return RF_ERR_NOMEM;
	(*nr)++;
	return 0;
}

/* @p relative to the spec's directory @dir ("" for the current one). */
static char *resolve(const char *dir, const char *p)
{
	char *out;

	if (p[0] == '/' || !dir[0])
		return strdup(p);
	if (asprintf(&out, "%s/%s", dir, p) < 0)
		return NULL;
	return out;
}

static bool valid_name(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr("._-+", s[i])))
			return false;
	return i > 0 && i <= 64;
}

static struct sweep_workload *workload(struct sweep_spec *s, const char *name, char *err,
				       size_t errlen)
{
	struct sweep_workload *w;
	size_t i;

	if (!valid_name(name)) {
		sweep_seterr(err, errlen, "workload name '%s': 1 to 64 letters, digits and ._-+",
			     name);
		return NULL;
	}
	for (i = 0; i < s->nr_wl; i++)
		if (!strcmp(s->wl[i].name, name))
			return &s->wl[i];
	if (RF_GROW(s->wl, s->cap_wl, s->nr_wl + 1))
		return NULL;
	w = &s->wl[s->nr_wl];
	memset(w, 0, sizeof(*w));
	w->name = strdup(name);
	if (!w->name)
		return NULL;
	s->nr_wl++;
	return w;
}

/* @pattern (a glob) relative to @dir, whose own characters match only themselves. */
static char *resolve_glob(const char *dir, const char *pattern)
{
	char *out, *o;
	size_t i;

	if (pattern[0] == '/' || !dir[0])
		return strdup(pattern);
	out = malloc(2 * strlen(dir) + strlen(pattern) + 2);
	if (!out)
		return NULL;
	for (i = 0, o = out; dir[i]; i++) {
		if (strchr("*?[\\", dir[i]))
			*o++ = '\\';
		*o++ = dir[i];
	}
	*o++ = '/';
	strcpy(o, pattern);
	return out;
}

/* The files @pattern names (a glob, sorted), into @w. */
static int add_traces(struct sweep_workload *w, const char *dir, const char *pattern, char *err,
		      size_t errlen)
{
	char *p = resolve(dir, pattern), *gp = resolve_glob(dir, pattern);
	glob_t g;
	size_t i;
	int rc;

	if (!p || !gp) {
		free(p);
		free(gp);
		return RF_ERR_NOMEM;
	}
	rc = glob(gp, GLOB_ERR, NULL, &g);
	free(gp);
	if (rc == GLOB_NOMATCH) {
		sweep_seterr(err, errlen, "no file matches '%s'", p);
		free(p);
		return RF_ERR_INVAL;
	}
	if (rc) {
		sweep_seterr(err, errlen, "'%s': %s", p, rc == GLOB_NOSPACE ? "out of memory" :
			     "a directory could not be read");
		free(p);
		return rc == GLOB_NOSPACE ? RF_ERR_NOMEM : RF_ERR_IO;
	}
	for (i = 0, rc = 0; i < g.gl_pathc && !rc; i++)
		rc = push(&w->traces, &w->nr, &w->cap, g.gl_pathv[i]);
	globfree(&g);
	free(p);
	return rc;
}

/* "trace PATH": the workload is the file's name without its directory and ".rft". */
static int add_own_workloads(struct sweep_spec *s, const char *dir, const char *pattern,
			     char *err, size_t errlen)
{
	struct sweep_workload tmp = { 0 };
	size_t i;
	int rc = add_traces(&tmp, dir, pattern, err, errlen);

	for (i = 0; !rc && i < tmp.nr; i++) {
		const char *base = strrchr(tmp.traces[i], '/');
		char name[65];
		size_t len;
		struct sweep_workload *w;

		base = base ? base + 1 : tmp.traces[i];
		len = strlen(base);
		if (len > 4 && !strcmp(base + len - 4, ".rft"))
			len -= 4;
		snprintf(name, sizeof(name), "%.*s", (int)(len < 64 ? len : 64), base);
		w = workload(s, name, err, errlen);
		if (!w) {
			rc = RF_ERR_INVAL;
			break;
		}
		rc = push(&w->traces, &w->nr, &w->cap, tmp.traces[i]);
	}
	for (i = 0; i < tmp.nr; i++)
		free(tmp.traces[i]);
	free(tmp.traces);
	return rc;
}

static int number(const char *word, const char *what, unsigned int lo, unsigned int hi,
		  unsigned int *out, char *err, size_t errlen)
{
	uint64_t v;

	if (!word || rf_parse_u64(word, &v) || v < lo || v > hi) {
		sweep_seterr(err, errlen, "%s takes a number from %u to %u", what, lo, hi);
		return RF_ERR_INVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

size_t sweep_replay_option(char *const *w, size_t n)
{
	static const char *const flags[] = { "--warm-cache", "--all-cgroups", "--allow-mglru",
					     "--skip-damaged" };
	uint64_t ns;
	size_t k;

	if (!n)
		return 0;
	for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (!strcmp(w[0], flags[k]))
			return 1;
	if (!strcmp(w[0], "--interval") && n > 1 && !rf_parse_duration(w[1], &ns) && ns)
		return 2;
	return 0;
}

/* replay OPTION...: only those that change what a replay computes, not where it writes. */
static int replay_options(struct sweep_spec *s, char **w, size_t n, char *err, size_t errlen)
{
	size_t i, k, take;
	int rc = 0;

	for (i = 1; i < n && !rc; i += take) {
		take = sweep_replay_option(w + i, n - i);
		if (!take) {
			sweep_seterr(err, errlen, "replay option '%s': a sweep passes --warm-cache, "
				     "--all-cgroups, --allow-mglru, --skip-damaged and --interval T "
				     "(the plan sets the rest)", w[i]);
			return RF_ERR_INVAL;
		}
		for (k = 0; k < take && !rc; k++)
			rc = push(&s->replay_opts, &s->nr_opts, &s->cap_opts, w[i + k]);
	}
	return rc;
}

/* A line of the spec in words, for its directive's parser. */
struct spec_line {
	struct sweep_spec *s;
	const char *dir;		/* the spec's directory: relative paths are its */
	char **w;			/* the words, w[0] the directive */
	size_t n;
	char *copy;			/* the line as written (without its comment) */
	unsigned int lineno;
	char *err;
	size_t errlen;
};

static int dir_traces(struct spec_line *l)
{
	struct sweep_workload *wl;
	size_t i;
	int rc = 0;

	if (l->n < 3) {
		sweep_seterr(l->err, l->errlen, "traces NAME PATH|GLOB...");
		return RF_ERR_INVAL;
	}
	wl = workload(l->s, l->w[1], l->err, l->errlen);
	if (!wl)
		return RF_ERR_INVAL;
	for (i = 2; i < l->n && !rc; i++)
		rc = add_traces(wl, l->dir, l->w[i], l->err, l->errlen);
	return rc;
}

static int dir_trace(struct spec_line *l)
{
	size_t i;
	int rc = 0;

	if (l->n < 2) {
		sweep_seterr(l->err, l->errlen, "trace PATH|GLOB...");
		return RF_ERR_INVAL;
	}
	for (i = 1; i < l->n && !rc; i++)
		rc = add_own_workloads(l->s, l->dir, l->w[i], l->err, l->errlen);
	return rc;
}

static int dir_matrix(struct spec_line *l)
{
	struct sweep_spec *s = l->s;
	char *rest;
	int rc;

	if (l->n < 2) {
		sweep_seterr(l->err, l->errlen, "matrix PROFILE[|PROFILE...] [KEY=V[|V...]]...");
		return RF_ERR_INVAL;
	}
	/* the line after "matrix", as written */
	rest = l->copy + strspn(l->copy, " \t") + strlen("matrix");
	rest += strspn(rest, " \t");
	rest[strcspn(rest, "\r\n")] = '\0';
	rc = push(&s->matrix, &s->nr_matrix, &s->cap_matrix, rest);
	if (!rc && RF_GROW(s->matrix_lineno, s->cap_lineno, s->nr_matrix))
		rc = RF_ERR_NOMEM;
	if (!rc)
		s->matrix_lineno[s->nr_matrix - 1] = l->lineno;
	return rc;
}

static int dir_set(struct spec_line *l)
{
	size_t i;
	int rc = 0;

	for (i = 1; i < l->n && !rc; i++) {
		if (!strchr(l->w[i], '=') || l->w[i][0] == '=') {
			sweep_seterr(l->err, l->errlen, "set KEY=VALUE: '%s' is not", l->w[i]);
			return RF_ERR_INVAL;
		}
		rc = push(&l->s->sets, &l->s->nr_sets, &l->s->cap_sets, l->w[i]);
	}
	return rc;
}

static int dir_repeat(struct spec_line *l)
{
	return number(l->n == 2 ? l->w[1] : NULL, "repeat", 1, SWEEP_MAX_REPEAT, &l->s->repeat,
		      l->err, l->errlen);
}

static int dir_budget(struct spec_line *l)
{
	uint64_t bytes;

	if (l->n != 2 || rf_parse_size(l->w[1], &bytes) || bytes < (64u << 20)) {
		sweep_seterr(l->err, l->errlen, "budget takes a size of at least 64M (4G, 512M)");
		return RF_ERR_INVAL;
	}
	l->s->budget = bytes;
	return 0;
}

static int dir_group(struct spec_line *l)
{
	return number(l->n == 2 ? l->w[1] : NULL, "group", 1, 64, &l->s->group, l->err,
		      l->errlen);
}

static int dir_threads(struct spec_line *l)
{
	return number(l->n == 2 ? l->w[1] : NULL, "threads", 1, 1024, &l->s->threads, l->err,
		      l->errlen);
}

static int dir_replay(struct spec_line *l)
{
	return replay_options(l->s, l->w, l->n, l->err, l->errlen);
}

static int dir_store(struct spec_line *l)
{
	if (l->n != 2) {
		sweep_seterr(l->err, l->errlen, "store DIR");
		return RF_ERR_INVAL;
	}
	free(l->s->store);
	l->s->store = resolve(l->dir, l->w[1]);
	return l->s->store ? 0 : RF_ERR_NOMEM;
}

/* The directives, in the order an unknown one's message lists them. */
static const struct {
	const char *name;
	int (*parse)(struct spec_line *l);
} directives[] = {
	{ "traces", dir_traces }, { "trace", dir_trace }, { "matrix", dir_matrix },
	{ "set", dir_set }, { "repeat", dir_repeat }, { "budget", dir_budget },
	{ "group", dir_group }, { "threads", dir_threads }, { "replay", dir_replay },
	{ "store", dir_store },
};

static int directive(struct sweep_spec *s, const char *dir, char *line, unsigned int lineno,
		     char *err, size_t errlen)
{
	char *w[MAX_WORDS], *save = NULL, *t, copy[MAX_LINE + 2], names[128] = "";
	struct spec_line l = { s, dir, w, 0, copy, lineno, err, errlen };
	size_t i;

	snprintf(copy, sizeof(copy), "%s", line);
	for (t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (l.n == MAX_WORDS) {
			sweep_seterr(err, errlen, "more than %d words", MAX_WORDS);
			return RF_ERR_INVAL;
		}
		w[l.n++] = t;
	}
	if (!l.n)
		return 0;
	for (i = 0; i < ARRAY_SIZE(directives); i++)
		if (!strcmp(w[0], directives[i].name))
			return directives[i].parse(&l);
	for (i = 0; i < ARRAY_SIZE(directives); i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", directives[i].name);
	sweep_seterr(err, errlen, "unknown directive '%s' (%s)", w[0], names);
	return RF_ERR_INVAL;
}

/* The line @line (@n bytes, its end cut) is text: 0, or why not in @err. */
static int text_line(const char *line, size_t n, char *err, size_t errlen)
{
	size_t i;

	if (n > MAX_LINE) {
		sweep_seterr(err, errlen, "a line longer than %d bytes", MAX_LINE);
		return RF_ERR_INVAL;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];

		if (!c) {
			sweep_seterr(err, errlen, "a NUL byte at byte %zu of the line: a spec is "
				     "text (is this the spec?)", i);
			return RF_ERR_INVAL;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			sweep_seterr(err, errlen, "a control character (0x%02x) at byte %zu of the "
				     "line: a spec is text", c, i);
			return RF_ERR_INVAL;
		}
	}
	return 0;
}

int sweep_spec_read(struct sweep_spec *s, const char *path, char *err, size_t errlen)
{
	char *line = NULL, *dir, *slash, msg[RF_SWEEP_ERRLEN];
	unsigned int lineno = 0;
	size_t cap = 0, n;
	ssize_t got;
	FILE *f;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->repeat = 1;
	s->budget = SWEEP_DEFAULT_BUDGET;
	s->group = SWEEP_DEFAULT_GROUP;
	s->threads = 1;
	s->path = strdup(path);
	dir = strdup(path);
	if (!s->path || !dir) {
		free(dir);
		return RF_ERR_NOMEM;
	}
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	else
		dir[0] = '\0';
	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		sweep_seterr(err, errlen, "%s: %s", path, strerror(errno));
		free(dir);
		return rc;
	}
	while (!rc && (got = getline(&line, &cap, f)) >= 0) {
		char *hash;

		lineno++;
		n = (size_t)got;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		rc = text_line(line, n, msg, sizeof(msg));
		if (!rc) {
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			rc = directive(s, dir, line, lineno, msg, sizeof(msg));
		}
		if (rc)
			sweep_seterr(err, errlen, "%s:%u: %s", path, lineno, msg);
	}
	if (!rc && !feof(f)) {	/* a read error, or getline() out of memory */
		rc = ferror(f) ? RF_ERR_IO : RF_ERR_NOMEM;
		sweep_seterr(err, errlen, "%s: %s", path, rc == RF_ERR_NOMEM ? "out of memory" :
			     "read error");
	}
	free(line);
	fclose(f);
	free(dir);
	if (!rc && !s->nr_wl) {
		sweep_seterr(err, errlen, "%s: no traces (a 'traces NAME PATH...' or 'trace PATH' "
			     "line)", path);
		rc = RF_ERR_INVAL;
	}
	if (!rc && !s->nr_matrix) {
		sweep_seterr(err, errlen, "%s: no configurations (a 'matrix PROFILE KEY=V|V' line)",
			     path);
		rc = RF_ERR_INVAL;
	}
	return rc;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void sweep_spec_release(struct sweep_spec *s)
{
	size_t i;

	for (i = 0; i < s->nr_wl; i++) {
		free(s->wl[i].name);
		free_strv(s->wl[i].traces, s->wl[i].nr);
	}
	free(s->wl);
	free_strv(s->matrix, s->nr_matrix);
	free(s->matrix_lineno);
	free_strv(s->sets, s->nr_sets);
	free_strv(s->replay_opts, s->nr_opts);
	free(s->store);
	free(s->path);
	memset(s, 0, sizeof(*s));
}
