/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A u64 -> u64 hash map (open addressing, linear probing, deletion by
 * backward shift) for the kernel side's joins: page -> cgroup, pfn -> cgroup.
 * Keys are page identities or hashes; UINT64_MAX marks an empty slot, so
 * that one key is folded onto its neighbour (a hash collision, never a
 * real pfn or page index).
 */
#include <stdlib.h>

#include <refault/errors.h>

#include "replayer/validate/validate.h"

#define EMPTY UINT64_MAX

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

uint64_t vhash2(uint64_t a, uint64_t b)
{
	return mix(a * 0x9e3779b97f4a7c15ULL + mix(b));
}

uint64_t vhash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static size_t slot_of(const struct vmap *m, uint64_t key)
{
	return mix(key) & (m->cap - 1);
}

static int grow(struct vmap *m)
{
	struct vmap n = { .cap = m->cap ? m->cap * 2 : 1024 };
	size_t i;

	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = malloc(n.cap * sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return RF_ERR_NOMEM;
	}
	for (i = 0; i < n.cap; i++)
		n.keys[i] = EMPTY;
	for (i = 0; i < m->cap; i++)
		if (m->keys[i] != EMPTY)
			vmap_put(&n, m->keys[i], m->vals[i]);
	vmap_free(m);
	*m = n;
	return 0;
}

int vmap_put(struct vmap *m, uint64_t key, uint64_t val)
{
	size_t i;

	if (key == EMPTY)
		key--;
	if ((m->nr + 1) * 4 > m->cap * 3 && grow(m))
		return RF_ERR_NOMEM;
	for (i = slot_of(m, key); m->keys[i] != EMPTY; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
	return 0;
}

static long find(const struct vmap *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return -1;
	if (key == EMPTY)
		key--;
	for (i = slot_of(m, key); m->keys[i] != EMPTY; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return (long)i;
	return -1;
}

bool vmap_get(const struct vmap *m, uint64_t key, uint64_t *val)
{
	long i = find(m, key);

	if (i < 0)
		return false;
	if (val)
		*val = m->vals[i];
	return true;
}

/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
bool vmap_del(struct vmap *m, uint64_t key, uint64_t *val)
{
	long f = find(m, key);
	size_t i, j, mask = m->cap - 1;

	if (f < 0)
		return false;
	if (val)
		*val = m->vals[f];
	i = (size_t)f;
	for (j = (i + 1) & mask; m->keys[j] != EMPTY; j = (j + 1) & mask) {
		size_t home = slot_of(m, m->keys[j]);

		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = EMPTY;
	m->nr--;
	return true;
}

void vmap_free(struct vmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = m->vals = NULL;
	m->cap = m->nr = 0;
}
