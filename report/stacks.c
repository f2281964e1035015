/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call stacks a trace names (format 2.6): name_frame gives a frame its
 * dso, address, symbol and source line; name_stack lists a stack's frames by
 * their ids, innermost first; a reference names its stack by id.  A source
 * counts its decisions per stack id and names them when its reading ends
 * (report_source_finish()), with the names the trace gave by then, wherever in
 * the trace they came (a stack or frame named twice: the last name).  A key
 * of the callsite view is its stack's innermost frames as text, "inner <-
 * caller <- ...", which is what the table shows and what the rows are joined
 * by, so stacks named alike are one row.  With --children a stack has a key
 * per function on it instead: its chain, the names of its frames each once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report-local.h"

static char *dup_or_null(const char *s, bool *nomem)
{
	char *c = s ? strdup(s) : NULL;

	*nomem |= s && !c;
	return c;
}

static void frame_free(struct report_frame *fr)
{
	free(fr->dso);
	free(fr->symbol);
	free(fr->file);
}

static void chains_free(struct report_stacks *st)
{
	size_t i;

	for (i = 0; i < st->nr_chains; i++) {
		free(st->chains[i].ids);
		free(st->chains[i].pos);
	}
	st->nr_chains = 0;
	report_map_destroy(&st->chain_index);
}

static int feed_frame(struct report_stacks *st, const struct rf_event *ev)
{
	const uint64_t *old = report_map_get(&st->frame_index, ev->u.frame.id);
	struct report_frame fr = { .addr = ev->u.frame.addr, .line = ev->u.frame.line };
	bool nomem = false;

	fr.dso = dup_or_null(ev->u.frame.dso, &nomem);
	fr.symbol = dup_or_null(ev->u.frame.symbol, &nomem);
	fr.file = dup_or_null(ev->u.frame.file, &nomem);
	if (nomem || (!old && RF_GROW(st->frames, st->cap_frames, st->nr_frames + 1)))
		goto nomem;
	if (old) {		/* named again: the last name holds */
		frame_free(&st->frames[*old]);
		st->frames[*old] = fr;
		chains_free(st);	/* chains made with the old name */
		return 0;
	}
	if (report_map_put(&st->frame_index, ev->u.frame.id, st->nr_frames))
		goto nomem;
	st->frames[st->nr_frames++] = fr;
	return 0;
nomem:
	frame_free(&fr);
	return RF_ERR_NOMEM;
}

static int feed_stack(struct report_stacks *st, const struct rf_event *ev)
{
	const uint64_t *old = report_map_get(&st->stack_index, ev->u.stack.id);
	struct report_stack sk = { .nr = ev->u.stack.nr_frames };

	if (sk.nr) {
		sk.frames = malloc(sk.nr * sizeof(*sk.frames));
		if (!sk.frames)
			return RF_ERR_NOMEM;
		memcpy(sk.frames, ev->u.stack.frames, sk.nr * sizeof(*sk.frames));
	}
	/* a chain made of the id before is made again; it stays in chains[] until all are freed */
	if (ev->u.stack.id <= UINT32_MAX)
		report_map_del(&st->chain_index, ev->u.stack.id, NULL);
	if (old) {
		free(st->stacks[*old].frames);
		st->stacks[*old] = sk;
		return 0;
	}
	if (RF_GROW(st->stacks, st->cap_stacks, st->nr_stacks + 1) ||
	    report_map_put(&st->stack_index, ev->u.stack.id, st->nr_stacks)) {
		free(sk.frames);
		return RF_ERR_NOMEM;
	}
	st->stacks[st->nr_stacks++] = sk;
	return 0;
}

int report_stacks_feed(struct report_stacks *st, const struct rf_event *ev)
{
	if (ev->type == RF_EV_NAME_FRAME)
		return feed_frame(st, ev);
	if (ev->type == RF_EV_NAME_STACK)
		return feed_stack(st, ev);
	return 0;
}

static const struct report_stack *stack_of(const struct report_stacks *st, uint32_t stack)
{
	const uint64_t *i = stack ? report_map_get(&st->stack_index, stack) : NULL;

	return i ? &st->stacks[*i] : NULL;
}

size_t report_stacks_nr_frames(const struct report_stacks *st, uint32_t stack)
{
	const struct report_stack *sk = stack_of(st, stack);

	if (!sk)
		return 0;
	return st->depth && st->depth < sk->nr ? st->depth : sk->nr;
}

const struct report_frame *report_stacks_frame(const struct report_stacks *st, uint32_t stack,
					       size_t i)
{
	static const struct report_frame unknown;	/* a frame id no name_frame named */
	const struct report_stack *sk = stack_of(st, stack);
	const uint64_t *f = sk && i < sk->nr ? report_map_get(&st->frame_index, sk->frames[i]) :
					       NULL;

	return f ? &st->frames[*f] : &unknown;
}

void report_frame_label(const struct report_frame *fr, char *buf, size_t len)
{
	const char *base;

	if (fr->symbol && fr->symbol[0]) {
		snprintf(buf, len, "%s", fr->symbol);
	} else if (fr->dso && fr->dso[0]) {
		/* perf's dso column names the file by its basename too */
		base = strrchr(fr->dso, '/');
		snprintf(buf, len, "[%s+%#" PRIx64 "]", base && base[1] ? base + 1 : fr->dso,
			 fr->addr);
	} else {
		snprintf(buf, len, "[unknown]");
	}
}

/* The key's text in @out (allocated), or a bracketed name for a stack without frames. */
static int key_text(const struct report_stacks *st, uint32_t stack, char **out)
{
	const struct report_stack *sk = stack_of(st, stack);
	size_t n = report_stacks_nr_frames(st, stack), i, len = 0, cap = 0;
	char label[RF_MAX_STRING + 32];
	char *s = NULL;

	*out = NULL;
	if (!stack)
		snprintf(label, sizeof(label), "[no stack]");
	else if (!sk)
		snprintf(label, sizeof(label), "[stack %" PRIu32 "]", stack);
	else if (!n)
		snprintf(label, sizeof(label), "[empty stack]");
	if (!n) {
		*out = strdup(label);
		return *out ? 0 : RF_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		size_t l;

		report_frame_label(report_stacks_frame(st, stack, i), label, sizeof(label));
		l = strlen(label);
		if (RF_GROW(s, cap, len + l + 5)) {
			free(s);
			return RF_ERR_NOMEM;
		}
		if (i) {
			memcpy(s + len, " <- ", 4);
			len += 4;
		}
		memcpy(s + len, label, l + 1);
		len += l;
	}
	*out = s;
	return 0;
}

char *report_stacks_key_name(const struct report_stacks *st, uint32_t stack)
{
	char *s;

	return key_text(st, stack, &s) ? NULL : s;
}

char *report_stacks_frame_name(const struct report_stacks *st, uint32_t stack, size_t pos)
{
	char label[RF_MAX_STRING + 32];

	report_frame_label(report_stacks_frame(st, stack, pos), label, sizeof(label));
	return strdup(label);
}

/* The chain of @sk in @c: its frames' names, each once, innermost first. */
static int make_chain(const struct report_stacks *st, uint32_t stack, const struct report_stack *sk,
		      struct report_chain *c)
{
	char label[RF_MAX_STRING + 32];
	uint32_t i, j;
	uint64_t id;

	*c = (struct report_chain){ 0 };
	if (!sk || !sk->nr)
		return 0;
	c->ids = malloc(sk->nr * sizeof(*c->ids));
	c->pos = malloc(sk->nr * sizeof(*c->pos));
	if (!c->ids || !c->pos) {
		free(c->ids);
		free(c->pos);
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < sk->nr; i++) {
		report_frame_label(report_stacks_frame(st, stack, i), label, sizeof(label));
		id = rf_hash_str(label);
		for (j = 0; j < c->nr && c->ids[j] != id; j++)
			;
		if (j < c->nr)		/* a recursion: the function counts once */
			continue;
		c->ids[c->nr] = id;
		c->pos[c->nr++] = i;
	}
	return 0;
}

int report_stacks_chain(struct report_stacks *st, uint32_t stack, const struct report_chain **out)
{
	const uint64_t *i = report_map_get(&st->chain_index, stack);
	struct report_chain c;

	if (i) {
		*out = &st->chains[*i];
		return 0;
	}
	if (RF_GROW(st->chains, st->cap_chains, st->nr_chains + 1) ||
	    make_chain(st, stack, stack_of(st, stack), &c))
		return RF_ERR_NOMEM;
	if (report_map_put(&st->chain_index, stack, st->nr_chains)) {
		free(c.ids);
		free(c.pos);
		return RF_ERR_NOMEM;
	}
	st->chains[st->nr_chains] = c;
	*out = &st->chains[st->nr_chains++];
	return 0;
}

void report_stacks_free(struct report_stacks *st)
{
	size_t i;

	chains_free(st);
	free(st->chains);

	for (i = 0; i < st->nr_frames; i++)
		frame_free(&st->frames[i]);
	for (i = 0; i < st->nr_stacks; i++)
		free(st->stacks[i].frames);
	free(st->frames);
	free(st->stacks);
	report_map_destroy(&st->frame_index);
	report_map_destroy(&st->stack_index);
	memset(st, 0, sizeof(*st));
}
