/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One source's table: a decision's pages counted to the key of the view
 * (report.h).  A key is what the trace identifies it by (a file's dev, inode
 * and generation, an address space, a cgroup id, a pid, a command, a call
 * stack's id), so a name that comes later can still name it: a key is named
 * when it is first counted with the names the trace had given by then, and
 * a key the trace had not named yet takes, when the reading ends, the first
 * name the trace gave it after (report_source_finish()).  The keys of stacks are
 * named then, from the stacks' frames; with --children each stack's counts
 * go to the key of every function on it, once each (the symbol view's
 * keys), and to its innermost's self.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report-local.h"

/* Identities in the view's key space: kinds apart, so a pid and a cgroup id never meet. */
enum { ID_FILE = 1, ID_ANON, ID_CGROUP, ID_PID, ID_COMM, ID_UNNAMED_COMM, ID_STACK };

/* A file's identity: its generation's, apart from the file its (dev, ino) had before. */
static uint64_t file_id(uint32_t dev, uint64_t ino, uint32_t gen)
{
	uint64_t h = rf_hash2(dev, ino);

	return gen ? rf_hash2(h, gen) : h;
}

uint64_t report_page_id(const struct report_folio *f, uint64_t i)
{
	struct rf_page_space sp = { .kind = f->anon ? RF_SPACE_ANON : RF_SPACE_FILE,
				    .dev = f->dev, .gen = f->gen, .id = f->ino };

	return rf_page_key(rf_page_space_key(&sp), f->index + i);
}

/* The reference's command as the comm view shows it; NULL: a task not named yet. */
static const char *comm_of(const struct report_source *s, int32_t pid)
{
	return pid <= 0 ? "[no task]" : report_names_comm(&s->names, pid);
}

/*
 * The key's identity for @f and the reference: cheap, computed for every
 * decision.
 */
static uint64_t key_id(const struct report_source *s, const struct report_folio *f,
		       const struct report_ref *ref)
{
	const char *comm;

	switch (s->by) {
	case RF_REPORT_BY_FILE:
		return f->anon ? rf_hash2(ID_ANON, f->ino) :
		       rf_hash2(ID_FILE, file_id(f->dev, f->ino, f->gen));
	case RF_REPORT_BY_CGROUP:
		return rf_hash2(ID_CGROUP, ref->cgroup);
	case RF_REPORT_BY_PID:
		return rf_hash2(ID_PID, ref->pid > 0 ? (uint32_t)ref->pid : 0);
	case RF_REPORT_BY_CALLSITE:
	case RF_REPORT_BY_SYMBOL:
		return rf_hash2(ID_STACK, ref->stack);
	default:
		comm = comm_of(s, ref->pid);
		return comm ? rf_hash2(ID_COMM, rf_hash_str(comm)) :
		       rf_hash2(ID_UNNAMED_COMM, (uint32_t)ref->pid);
	}
}

/* "/a/b", as the model names a cgroup, whatever the trace wrote */
static void cgroup_name(char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", path[0] == '/' ? "" : "/", path);
}

/*
 * @k's name into @buf from @name (the trace's name of its file, cgroup,
 * command...; NULL: none yet) or the names of @n; whether it is a name the
 * trace gave (false: a placeholder, "[dev 8:1 ino 12]", "PID:?").
 */
static bool format_key(const struct report_names *n, const struct report_key *k, const char *name,
		       char *buf, size_t len)
{
	int32_t pid;

	switch (k->kind) {
	case REPORT_KEY_FILE:
		if (name) {
			snprintf(buf, len, "%s", name);
			return true;
		}
		/* a (dev, ino) used again after its file was deleted: the next generation's */
		if (k->gen)
			snprintf(buf, len, "[dev %" PRIu32 ":%" PRIu32 " ino %" PRIu64 " #%" PRIu64 "]",
				 k->dev >> 20, k->dev & 0xfffff, k->who, (uint64_t)k->gen + 1);
		else
			snprintf(buf, len, "[dev %" PRIu32 ":%" PRIu32 " ino %" PRIu64 "]",
				 k->dev >> 20, k->dev & 0xfffff, k->who);
		return false;
	case REPORT_KEY_ANON:
		pid = report_names_mm_pid(n, k->who);
		if (pid)
			snprintf(buf, len, "[anon %" PRId32 ":%s]", pid, name ? name : "?");
		else
			snprintf(buf, len, "[anon mm %#" PRIx64 "]", k->who);
		return pid && name;
	case REPORT_KEY_CGROUP:
		if (name)
			cgroup_name(buf, len, name);
		else if (!k->who)
			snprintf(buf, len, "/");
		else
			snprintf(buf, len, "[cgroup %" PRIu64 "]", k->who);
		return name || !k->who;
	case REPORT_KEY_PID:
		if (!k->who) {
			snprintf(buf, len, "[no task]");
			return true;
		}
		snprintf(buf, len, "%" PRIu64 ":%s", k->who, name ? name : "?");
		return name;
	case REPORT_KEY_UNNAMED_COMM:
		snprintf(buf, len, "%s", name ? name : "[unnamed]");
		return name;
	default:
		snprintf(buf, len, "%s", name ? name : "?");
		return true;
	}
}

/* @k's kind and identity, and its name as of now, allocated; false without memory. */
static bool key_init(const struct report_source *s, struct report_key *k,
		     const struct report_folio *f, const struct report_ref *ref)
{
	char buf[RF_MAX_STRING + 64];
	const char *name = NULL;

	switch (s->by) {
	case RF_REPORT_BY_FILE:
		k->kind = f->anon ? REPORT_KEY_ANON : REPORT_KEY_FILE;
		k->who = f->ino;
		k->dev = f->dev;
		k->gen = f->gen;
		if (f->anon) {
			int32_t pid = report_names_mm_pid(&s->names, f->ino);

			name = pid ? report_names_comm(&s->names, pid) : NULL;
		} else {
			name = report_names_file(&s->names, f->dev, f->ino);
		}
		break;
	case RF_REPORT_BY_CGROUP:
		k->kind = REPORT_KEY_CGROUP;
		k->who = ref->cgroup;
		name = ref->cgpath ? ref->cgpath : report_names_cgroup(&s->names, ref->cgroup);
		break;
	case RF_REPORT_BY_PID:
		k->kind = REPORT_KEY_PID;
		k->who = ref->pid > 0 ? (uint32_t)ref->pid : 0;
		name = ref->pid > 0 ? report_names_comm(&s->names, ref->pid) : NULL;
		break;
	case RF_REPORT_BY_CALLSITE:
	case RF_REPORT_BY_SYMBOL:
		/* named when the reading ends, by the stacks' names then */
		k->kind = REPORT_KEY_STACK;
		k->stack = ref->stack;
		k->name = strdup("");
		return k->name != NULL;
	default:
		name = comm_of(s, ref->pid);
		k->kind = name ? REPORT_KEY_COMM : REPORT_KEY_UNNAMED_COMM;
		k->who = ref->pid > 0 ? (uint32_t)ref->pid : 0;
		break;
	}
	k->pending = !format_key(&s->names, k, name, buf, sizeof(buf));
	k->name = strdup(buf);
	return k->name != NULL;
}

void report_source_init(struct report_source *s, const struct rf_report_opts *o)
{
	s->by = o->by;
	s->children = o->children && o->by == RF_REPORT_BY_SYMBOL;
	/* the symbol view is the callsite view of the innermost frame */
	s->names.stacks.depth = o->by == RF_REPORT_BY_SYMBOL ? 1 :
				o->by == RF_REPORT_BY_CALLSITE ? o->callsite_depth : 0;
}

/* The key @id, made if new by @init (with @a and @b); NULL without memory. */
static struct report_key *key_get(struct report_source *s, uint64_t id,
				  const struct report_folio *f, const struct report_ref *ref)
{
	struct report_key *k;
	bool fresh;
	uint64_t *slot;

	slot = report_map_slot(&s->ids, id, &fresh);
	if (!slot)
		return NULL;
	if (!fresh)
		return &s->keys[*slot];
	if (RF_GROW(s->keys, s->cap_keys, s->nr_keys + 1))
		goto nomem;
	k = &s->keys[s->nr_keys];
	memset(k, 0, sizeof(*k));
	if (!key_init(s, k, f, ref))
		goto nomem;
	k->id = id;
	k->heat = s->heat && report_heat_has(s->heat, id);
	*slot = s->nr_keys++;
	return k;
nomem:
	report_map_del(&s->ids, id, NULL);
	return NULL;
}

void report_count(struct report_source *s, enum rf_report_metric metric,
		  const struct report_folio *f, const struct report_ref *ref, uint64_t nr)
{
	struct report_key *k;
	uint64_t end;

	s->total[metric] += nr;
	if (!s->decided || s->now < s->t_first)
		s->t_first = s->now;
	if (!s->decided || s->now > s->t_last)
		s->t_last = s->now;
	s->decided = true;
	if (s->error)
		return;
	k = key_get(s, key_id(s, f, ref), f, ref);
	if (!k) {
		s->error = RF_ERR_NOMEM;
		return;
	}
	if (k->heat)
		report_heat_add(s->heat, s->now, f->index, metric, nr);
	end = f->index < UINT64_MAX - f->nr ? f->index + f->nr : UINT64_MAX;
	if (!k->v[metric] || s->now < k->t_first[metric])
		k->t_first[metric] = s->now;
	if (!k->v[metric] || s->now > k->t_last[metric])
		k->t_last[metric] = s->now;
	if (!k->v[metric] || f->index < k->index_lo[metric])
		k->index_lo[metric] = f->index;
	if (!k->v[metric] || end > k->index_hi[metric])
		k->index_hi[metric] = end;
	k->v[metric] += nr;
	k->self[metric] += nr;
}

/* A key the trace had not named when first counted: the first name it gave it after. */
static int name_late(const struct report_names *n, struct report_key *k)
{
	char buf[RF_MAX_STRING + 64];
	const char *name;
	char *c;

	switch (k->kind) {
	case REPORT_KEY_FILE:
		name = report_names_file_first(n, k->dev, k->who, k->gen);
		break;
	case REPORT_KEY_ANON:
		name = report_names_mm_comm(n, k->who);
		break;
	case REPORT_KEY_CGROUP:
		name = report_names_cgroup_first(n, k->who);
		break;
	case REPORT_KEY_PID:
	case REPORT_KEY_UNNAMED_COMM:
		name = report_names_comm_first(n, (int32_t)k->who);
		break;
	default:
		return 0;
	}
	if (!format_key(n, k, name, buf, sizeof(buf)) && !strcmp(buf, k->name))
		return 0;
	c = strdup(buf);
	if (!c)
		return RF_ERR_NOMEM;
	free(k->name);
	k->name = c;
	return 0;
}

/* The keys of stacks, one per stack id, named by the stack's frames. */
static int name_stacks(struct report_source *s)
{
	size_t i;

	for (i = 0; i < s->nr_keys; i++) {
		char *c = report_stacks_key_name(&s->names.stacks, s->keys[i].stack);

		if (!c)
			return RF_ERR_NOMEM;
		free(s->keys[i].name);
		s->keys[i].name = c;
	}
	return 0;
}

/* @nr[metric] of a stack to the function key @id (named @name, taken), @self if innermost. */
static int to_function(struct report_source *s, const struct report_key *from, uint64_t id,
		       char *name, uint32_t frame, bool self)
{
	struct report_key *k;
	bool fresh;
	uint64_t *slot;
	int m;

	if (!name)
		return RF_ERR_NOMEM;
	slot = report_map_slot(&s->ids, id, &fresh);
	if (!slot || (fresh && RF_GROW(s->keys, s->cap_keys, s->nr_keys + 1))) {
		if (slot)
			report_map_del(&s->ids, id, NULL);
		free(name);
		return RF_ERR_NOMEM;
	}
	if (fresh) {
		/* the first stack counted through the function names its frame */
		k = &s->keys[s->nr_keys];
		memset(k, 0, sizeof(*k));
		k->name = name;
		k->id = id;
		k->kind = REPORT_KEY_STACK;
		k->stack = from->stack;
		k->frame = frame;
		*slot = s->nr_keys++;
	} else {
		free(name);
	}
	k = &s->keys[*slot];
	for (m = 0; m < RF_REPORT_NR_METRICS; m++) {
		k->v[m] += from->v[m];
		if (self)
			k->self[m] += from->v[m];
	}
	return 0;
}

/*
 * --children: each stack's counts to every distinct function on it (by its
 * frame's name), once, and to the innermost's self; a bracketed key's to
 * itself.  The stacks' keys are replaced by the functions'.
 */
static int children(struct report_source *s)
{
	struct report_key *stacks = s->keys;
	size_t nr = s->nr_keys, i;
	const struct report_chain *c;
	uint32_t f;
	int rc = 0;

	s->keys = NULL;
	s->nr_keys = s->cap_keys = 0;
	report_map_destroy(&s->ids);
	for (i = 0; !rc && i < nr; i++) {
		const struct report_key *k = &stacks[i];

		rc = report_stacks_chain(&s->names.stacks, k->stack, &c);
		if (rc)
			break;
		if (!c->nr) {
			char *name = report_stacks_key_name(&s->names.stacks, k->stack);

			rc = to_function(s, k, name ? rf_hash_str(name) : 0, name, 0, true);
			continue;
		}
		for (f = 0; !rc && f < c->nr; f++)
			rc = to_function(s, k, c->ids[f],
					 report_stacks_frame_name(&s->names.stacks, k->stack, c->pos[f]),
					 c->pos[f], !c->pos[f]);
	}
	for (i = 0; i < nr; i++)
		free(stacks[i].name);
	free(stacks);
	return rc;
}

void report_source_finish(struct report_source *s)
{
	size_t i;
	int rc = 0;

	if (s->error)
		return;
	if (report_by_stack(s->by))
		rc = s->children ? children(s) : name_stacks(s);
	for (i = 0; !rc && i < s->nr_keys; i++)
		if (s->keys[i].pending)
			rc = name_late(&s->names, &s->keys[i]);
	if (rc)
		s->error = rc;
}

void report_unattributed(struct report_source *s, enum rf_report_metric metric, uint64_t nr)
{
	s->total[metric] += nr;
	s->unattributed[metric] += nr;
}

void report_source_free(struct report_source *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_keys; i++)
		free(s->keys[i].name);
	free(s->keys);
	free(s->name);
	report_heat_free(s->heat);
	report_map_destroy(&s->ids);
	report_map_destroy(&s->owner);
	report_names_free(&s->names);
}
