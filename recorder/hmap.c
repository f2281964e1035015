/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A u64 -> u64 open-addressing hash map for the recorder's hot tables
 * (pfn -> order, pid -> task, folio keys).  Linear probing, grows at 50%
 * load so probes stay short on the per-event path.  Deletion shifts the
 * following entries back instead of leaving tombstones: the page-cache tables
 * see a delete for every add, and tombstones made every miss walk long runs.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "recorder/internal.h"

enum { SLOT_FREE = 0, SLOT_USED = 1 };

static size_t slot_of(uint64_t key, size_t cap)
{
	/* splitmix64 finaliser: pfns and pids are far from random */
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return key & (cap - 1);
}

static int grow(struct rf_hmap *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 64;
	struct rf_hmap n = { 0 };
	size_t i;

	n.keys = malloc(ncap * sizeof(*n.keys));
	n.vals = malloc(ncap * sizeof(*n.vals));
	n.state = calloc(ncap, 1);
	if (!n.keys || !n.vals || !n.state) {
		rf_hmap_free(&n);
		return -ENOMEM;
	}
	n.cap = ncap;
	for (i = 0; i < h->cap; i++)
		if (h->state[i] == SLOT_USED)
			rf_hmap_put(&n, h->keys[i], h->vals[i]);
	rf_hmap_free(h);
	*h = n;
	return 0;
}

int rf_hmap_put(struct rf_hmap *h, uint64_t key, uint64_t val)
{
	size_t i;

	if ((h->used + 1) * 2 > h->cap) {
		int err = grow(h);

		if (err)
			return err;
	}
	for (i = slot_of(key, h->cap);; i = (i + 1) & (h->cap - 1)) {
		if (h->state[i] == SLOT_USED && h->keys[i] == key) {
			h->vals[i] = val;
			return 0;
		}
		if (h->state[i] == SLOT_FREE)
			break;
	}
	h->state[i] = SLOT_USED;
	h->keys[i] = key;
	h->vals[i] = val;
	h->used++;
	return 0;
}

static size_t find(const struct rf_hmap *h, uint64_t key)
{
	size_t i;

	if (!h->cap)
		return SIZE_MAX;
	for (i = slot_of(key, h->cap); h->state[i] != SLOT_FREE; i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == key)
			return i;
	return SIZE_MAX;
}

bool rf_hmap_get(const struct rf_hmap *h, uint64_t key, uint64_t *val)
{
	size_t i = find(h, key);

	if (i == SIZE_MAX)
		return false;
	if (val)
		*val = h->vals[i];
	return true;
}

bool rf_hmap_del(struct rf_hmap *h, uint64_t key)
{
	size_t mask = h->cap - 1, i = find(h, key), j;

	if (i == SIZE_MAX)
		return false;
	/* close the gap: move back each later entry of the run that may live at @i */
	for (j = (i + 1) & mask; h->state[j] != SLOT_FREE; j = (j + 1) & mask) {
		size_t home = slot_of(h->keys[j], h->cap);

		if (((j - home) & mask) < ((j - i) & mask))
			continue;	/* its home lies after the gap: it stays */
		h->keys[i] = h->keys[j];
		h->vals[i] = h->vals[j];
		i = j;
	}
	h->state[i] = SLOT_FREE;
	h->used--;
	return true;
}

void rf_hmap_each(const struct rf_hmap *h, void (*fn)(void *ctx, uint64_t k, uint64_t v), void *ctx)
{
	size_t i;

	for (i = 0; i < h->cap; i++)
		if (h->state[i] == SLOT_USED)
			fn(ctx, h->keys[i], h->vals[i]);
}

void rf_hmap_free(struct rf_hmap *h)
{
	free(h->keys);
	free(h->vals);
	free(h->state);
	h->keys = NULL;
	h->vals = NULL;
	h->state = NULL;
	h->cap = h->used = 0;
}
