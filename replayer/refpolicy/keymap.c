/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * u64 key -> u32 value map for the reference policies: linear probing,
 * load at most 1/2 (a miss, the common case of a cache that thrashes, then
 * probes 2.5 slots on average, against 8.5 at 3/4), backward-shift
 * deletion.  The slot is chosen by a multiplicative hash so that small
 * dense keys (hand-written tests) spread as well as the hashed keys of
 * rf_event_page_refs().
 */
#include <stdlib.h>

#include "replayer/refpolicy/refpolicy-local.h"

#define KEYMAP_MAX_SLOTS	(1u << 31)

static uint32_t home(const struct rp_keymap *km, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & km->mask;
}

int rp_keymap_init(struct rp_keymap *km, uint32_t hint)
{
	uint32_t n = 16;

	while (n < KEYMAP_MAX_SLOTS && n / 2 < hint)
		n *= 2;
	km->slots = calloc(n, sizeof(*km->slots));
	if (!km->slots)
		return RF_ERR_NOMEM;
	km->mask = n - 1;
	km->count = 0;
	return 0;
}

void rp_keymap_destroy(struct rp_keymap *km)
{
	free(km->slots);
	km->slots = NULL;
	km->mask = 0;
	km->count = 0;
}

uint32_t rp_keymap_get(const struct rp_keymap *km, uint64_t key)
{
	uint32_t i = home(km, key);

	for (;;) {
		const struct rp_slot *s = &km->slots[i];

		if (s->val == RP_NIL)
			return RP_NIL;
		if (s->key == key)
			return s->val;
		i = (i + 1) & km->mask;
	}
}

static void place(struct rp_keymap *km, uint64_t key, uint32_t val)
{
	uint32_t i = home(km, key);

	while (km->slots[i].val != RP_NIL)
		i = (i + 1) & km->mask;
	km->slots[i].key = key;
	km->slots[i].val = val;
}

static int grow(struct rp_keymap *km)
{
	struct rp_keymap bigger;
	uint64_t n = (uint64_t)km->mask + 1;
	uint32_t i;

	if (n >= KEYMAP_MAX_SLOTS)
		return RF_ERR_NOMEM;
	bigger.slots = calloc(n * 2, sizeof(*bigger.slots));
	if (!bigger.slots)
		return RF_ERR_NOMEM;
	bigger.mask = (uint32_t)(n * 2 - 1);
	bigger.count = km->count;
	for (i = 0; i < n; i++)
		if (km->slots[i].val != RP_NIL)
			place(&bigger, km->slots[i].key, km->slots[i].val);
	free(km->slots);
	*km = bigger;
	return 0;
}

int rp_keymap_put(struct rp_keymap *km, uint64_t key, uint32_t val)
{
	if ((uint64_t)(km->count + 1) * 2 > (uint64_t)km->mask + 1) {
		int r = grow(km);

		if (r)
			return r;
	}
	place(km, key, val);
	km->count++;
	return 0;
}

/* Is slot @i's home cyclically in (@hole, @i]?  If not, it may move into the hole. */
static bool stays(const struct rp_keymap *km, uint32_t hole, uint32_t i)
{
	uint32_t h = home(km, km->slots[i].key);

	return ((i - h) & km->mask) < ((i - hole) & km->mask);
}

void rp_keymap_del(struct rp_keymap *km, uint64_t key)
{
	uint32_t i = home(km, key), hole;

	while (km->slots[i].val != RP_NIL && km->slots[i].key != key)
		i = (i + 1) & km->mask;
	if (km->slots[i].val == RP_NIL)
		return;
	hole = i;
	for (;;) {
		i = (i + 1) & km->mask;
		if (km->slots[i].val == RP_NIL)
			break;
		if (stays(km, hole, i))
			continue;
		km->slots[hole] = km->slots[i];
		hole = i;
	}
	km->slots[hole].val = RP_NIL;
	km->count--;
}
