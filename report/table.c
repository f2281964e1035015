/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One source's table: a decision's pages counted to the key of the view
 * (report.h), the key named when it is first counted, with the names the
 * trace had given by then.  In the views of stacks the key's identity is
 * the hash of its text, so that stacks named alike are one key; with
 * --children a decision is counted to the key of every function on its
 * stack, once each (the symbol view's keys), and to its innermost's self.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report-local.h"

/* Identities in the view's key space: kinds apart, so a pid and a cgroup id never meet. */
enum { ID_FILE = 1, ID_ANON, ID_CGROUP, ID_PID, ID_COMM };

uint64_t rp_page_id(const struct rp_folio *f, uint64_t i)
{
	return rf_hash2(rf_hash2((uint64_t)f->anon << 32 | f->dev, f->ino), f->index + i);
}

static void file_name(const struct rp_source *s, const struct rp_folio *f, char *buf, size_t len)
{
	const char *path, *comm;
	int32_t pid;

	if (f->anon) {
		pid = rp_names_mm_pid(&s->names, f->ino);
		comm = pid ? rp_names_comm(&s->names, pid) : NULL;
		if (pid)
			snprintf(buf, len, "[anon %" PRId32 ":%s]", pid, comm ? comm : "?");
		else
			snprintf(buf, len, "[anon mm %#" PRIx64 "]", f->ino);
		return;
	}
	path = rp_names_file(&s->names, f->dev, f->ino);
	if (path)
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "[dev %" PRIu32 ":%" PRIu32 " ino %" PRIu64 "]", f->dev >> 20,
			 f->dev & 0xfffff, f->ino);
}

/* The reference's command as the view shows it. */
static const char *comm_of(const struct rp_source *s, int32_t pid)
{
	const char *comm = pid > 0 ? rp_names_comm(&s->names, pid) : NULL;

	return pid <= 0 ? "[no task]" : comm ? comm : "[unnamed]";
}

/*
 * The key's identity for @f and the reference: cheap, computed for every
 * decision (a stack's, the hash of its text, once per stack).
 */
static int key_id(struct rp_source *s, const struct rp_folio *f, const struct rp_ref *ref,
		  uint64_t *id)
{
	switch (s->by) {
	case RF_REPORT_BY_FILE:
		*id = f->anon ? rf_hash2(ID_ANON, f->ino) : rf_hash2(rf_hash2(ID_FILE, f->dev), f->ino);
		return 0;
	case RF_REPORT_BY_CGROUP:
		*id = rf_hash2(ID_CGROUP, ref->cgroup);
		return 0;
	case RF_REPORT_BY_PID:
		*id = rf_hash2(ID_PID, ref->pid > 0 ? (uint32_t)ref->pid : 0);
		return 0;
	case RF_REPORT_BY_CALLSITE:
	case RF_REPORT_BY_SYMBOL:
		return rp_stacks_key_id(&s->names.stacks, ref->stack, id);
	default:
		*id = rf_hash2(ID_COMM, rf_hash_str(comm_of(s, ref->pid)));
		return 0;
	}
}

/* The key's name, allocated once, when it is first counted; NULL without memory. */
static char *key_name(const struct rp_source *s, const struct rp_folio *f,
		      const struct rp_ref *ref)
{
	char buf[RF_MAX_STRING + 64];
	const char *comm, *cgpath = ref->cgpath;
	int32_t pid = ref->pid;

	switch (s->by) {
	case RF_REPORT_BY_FILE:
		file_name(s, f, buf, sizeof(buf));
		break;
	case RF_REPORT_BY_CGROUP:
		if (!cgpath)
			cgpath = rp_names_cgroup(&s->names, ref->cgroup);
		if (cgpath)	/* "/a/b", as the model names it, whatever the trace wrote */
			snprintf(buf, sizeof(buf), "%s%s", cgpath[0] == '/' ? "" : "/", cgpath);
		else if (!ref->cgroup)
			snprintf(buf, sizeof(buf), "/");
		else
			snprintf(buf, sizeof(buf), "[cgroup %" PRIu64 "]", ref->cgroup);
		break;
	case RF_REPORT_BY_PID:
		comm = pid > 0 ? rp_names_comm(&s->names, pid) : NULL;
		if (pid <= 0)
			snprintf(buf, sizeof(buf), "[no task]");
		else
			snprintf(buf, sizeof(buf), "%" PRId32 ":%s", pid, comm ? comm : "?");
		break;
	case RF_REPORT_BY_CALLSITE:
	case RF_REPORT_BY_SYMBOL:
		return rp_stacks_key_name(&s->names.stacks, ref->stack);
	default:
		snprintf(buf, sizeof(buf), "%s", comm_of(s, pid));
		break;
	}
	return strdup(buf);
}

void rp_source_init(struct rp_source *s, const struct rf_report_opts *o)
{
	s->by = o->by;
	s->children = o->children && o->by == RF_REPORT_BY_SYMBOL;
	/* the symbol view is the callsite view of the innermost frame */
	s->names.stacks.depth = o->by == RF_REPORT_BY_SYMBOL ? 1 :
				o->by == RF_REPORT_BY_CALLSITE ? o->callsite_depth : 0;
}

/*
 * @nr pages of @metric to the key @id, made if new: named by the view, or
 * with --children by the frame @frame of the reference's stack (@chained);
 * @self: the key is the innermost frame (always, but with --children).
 */
static int count_key(struct rp_source *s, enum rf_report_metric metric, const struct rp_folio *f,
		     const struct rp_ref *ref, uint64_t nr, uint64_t id, bool chained,
		     uint32_t frame, bool self)
{
	struct rp_key *k;
	bool fresh;
	uint64_t *slot;

	slot = rp_map_slot(&s->ids, id, &fresh);
	if (!slot)
		return RF_ERR_NOMEM;
	if (fresh) {
		if (RF_GROW(s->keys, s->cap_keys, s->nr_keys + 1))
			goto nomem_slot;
		k = &s->keys[s->nr_keys];
		memset(k, 0, sizeof(*k));
		k->name = chained ? rp_stacks_frame_name(&s->names.stacks, ref->stack, frame) :
			  key_name(s, f, ref);
		if (!k->name)
			goto nomem_slot;
		k->id = id;
		/* a bracketed key has no frames, whatever names its stack id gets later */
		if (chained || rp_stacks_nr_frames(&s->names.stacks, ref->stack))
			k->stack = ref->stack;
		k->frame = frame;
		k->heat = s->heat && !strcmp(k->name, s->heat->key);
		*slot = s->nr_keys++;
	}
	k = &s->keys[*slot];
	if (k->heat)
		rp_heat_add(s->heat, s->now, f->index, metric, nr);
	k->v[metric] += nr;
	if (self)
		k->self[metric] += nr;
	if (f->index < UINT64_MAX - f->nr && f->index + f->nr > k->index_end)
		k->index_end = f->index + f->nr;
	return 0;
nomem_slot:
	rp_map_del(&s->ids, id, NULL);
	return RF_ERR_NOMEM;
}

void rp_count(struct rp_source *s, enum rf_report_metric metric, const struct rp_folio *f,
	      const struct rp_ref *ref, uint64_t nr)
{
	const struct rp_chain *c = NULL;
	uint64_t id;
	uint32_t i;

	s->total[metric] += nr;
	if (!s->decided || s->now < s->t_first)
		s->t_first = s->now;
	if (!s->decided || s->now > s->t_last)
		s->t_last = s->now;
	s->decided = true;
	if (s->error)
		return;
	if (s->children && rp_stacks_chain(&s->names.stacks, ref->stack, &c))
		goto nomem;
	if (c && c->nr) {
		/* every function on the stack once; the innermost's own too */
		for (i = 0; i < c->nr; i++)
			if (count_key(s, metric, f, ref, nr, c->ids[i], true, c->pos[i], !c->pos[i]))
				goto nomem;
		return;
	}
	if (key_id(s, f, ref, &id) || count_key(s, metric, f, ref, nr, id, false, 0, true))
		goto nomem;
	return;
nomem:
	s->error = RF_ERR_NOMEM;
}

void rp_unattributed(struct rp_source *s, enum rf_report_metric metric, uint64_t nr)
{
	s->total[metric] += nr;
	s->unattributed[metric] += nr;
}

void rp_source_free(struct rp_source *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_keys; i++)
		free(s->keys[i].name);
	free(s->keys);
	free(s->name);
	rp_heat_free(s->heat);
	rp_map_destroy(&s->ids);
	rp_map_destroy(&s->owner);
	rp_names_free(&s->names);
}
