/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The public face of the reference policies: names, life cycle, counters. */
#include <stdlib.h>
#include <string.h>

#include "replayer/refpolicy/refpolicy-local.h"

static const char *const names[RF_REFPOLICY_KIND_MAX] = {
	[RF_REFPOLICY_LRU] = "lru",
	[RF_REFPOLICY_CLOCK] = "clock",
	[RF_REFPOLICY_OPT] = "opt",
};

static const struct rp_ops *const ops[RF_REFPOLICY_KIND_MAX] = {
	[RF_REFPOLICY_LRU] = &rp_lru_ops,
	[RF_REFPOLICY_CLOCK] = &rp_clock_ops,
	[RF_REFPOLICY_OPT] = &rp_opt_ops,
};

const char *rf_refpolicy_name(enum rf_refpolicy_kind kind)
{
	return (unsigned int)kind < RF_REFPOLICY_KIND_MAX ? names[kind] : NULL;
}

enum rf_refpolicy_kind rf_refpolicy_from_name(const char *name)
{
	unsigned int k;

	for (k = 0; name && k < RF_REFPOLICY_KIND_MAX; k++)
		if (!strcmp(name, names[k]))
			return (enum rf_refpolicy_kind)k;
	return RF_REFPOLICY_KIND_MAX;
}

int rf_refpolicy_new(struct rf_refpolicy **out, enum rf_refpolicy_kind kind, uint64_t capacity)
{
	struct rf_refpolicy *p;
	int r;

	*out = NULL;
	if ((unsigned int)kind >= RF_REFPOLICY_KIND_MAX || !capacity)
		return RF_ERR_INVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return RF_ERR_NOMEM;
	p->kind = kind;
	p->ops = ops[kind];
	p->capacity = capacity;
	r = p->ops->init(p);
	if (r) {
		rf_refpolicy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

int rf_refpolicy_ref(struct rf_refpolicy *p, uint64_t key, unsigned int order)
{
	int r;

	if (p->finished)
		return RF_ERR_STATE;
	if (order > RP_MAX_ORDER)
		return RF_ERR_INVAL;
	r = p->ops->ref(p, key, order);
	if (!r)
		p->st.refs++;
	return r;
}

void rf_refpolicy_prefetch(const struct rf_refpolicy *p, uint64_t key)
{
	const struct rp_keymap *km = p->index;

	if (km->slots)
		__builtin_prefetch(&km->slots[rp_key_hash(key) & km->mask]);
}

int rf_refpolicy_finish(struct rf_refpolicy *p)
{
	if (p->finished)
		return 0;
	p->finished = true;
	return p->ops->finish(p);
}

void rf_refpolicy_stats(const struct rf_refpolicy *p, struct rf_refpolicy_stats *st)
{
	*st = p->st;
	st->resident_pages = p->used;
}

void rf_refpolicy_free(struct rf_refpolicy *p)
{
	if (!p)
		return;
	p->ops->destroy(p);
	free(p);
}
